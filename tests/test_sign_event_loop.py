"""Signing and validating from a thread that already runs an event loop (a web server's thread, a test harness
that drives a browser): pyHanko's synchronous calls start a loop of their own (``asyncio.run``), so autos runs them
in a thread of its own there (autos.sign.loop). Before, both raised "asyncio.run() cannot be called from a running
event loop"."""

from __future__ import annotations

import asyncio
from pathlib import Path

from autos.sign.pades import SignSettings, load_pkcs12, sign_pdf
from autos.sign.validate import load_trust, validate_signatures
from tests.pki import P12_PASSWORD, Pki
from tests.signhelp import pki, plain_pdf  # noqa: F401 - fixtures


def test_sign_and_validate_inside_a_running_event_loop(pki: Pki, plain_pdf: Path) -> None:  # noqa: F811
    async def inside() -> tuple[bytes, object]:
        asyncio.get_running_loop()  # this coroutine's thread runs a loop
        signer = load_pkcs12(pki.signer.p12, P12_PASSWORD)
        signed = sign_pdf(plain_pdf.read_bytes(), signer, SignSettings(cargo="Fiscal"), source=plain_pdf)
        return signed, validate_signatures(signed, load_trust([pki.root_pem]))

    signed, report = asyncio.run(inside())
    assert signed.startswith(b"%PDF")
    assert len(report.signatures) == 1  # type: ignore[attr-defined]
    check = report.signatures[0]  # type: ignore[attr-defined]
    assert check.intact and check.name == "MARIA DA SILVA" and report.ok  # type: ignore[attr-defined]
