from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from autos.app.pipeline import Autos

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = ROOT / "samples"
CASOS = DATA / "casos"  # old single-document case files (the per-document path stays tested)
TODAY = date(2026, 11, 29)  # fixed reference date: tests do not depend on the clock


def expected_finding(found: list[dict[str, Any]], exp: dict[str, Any]) -> dict[str, Any]:
    """The finding of ``autos validar --json`` (``found``: its ``achados``) with ``exp``'s code at ``exp``'s line,
    whose message, citation and hint hold each of ``exp["contem"]`` (an invalid fixture's expectation)."""
    matches = [f for f in found if f["codigo"] == exp["codigo"] and f["linha"] == exp["linha"]]
    assert matches, f"{exp['codigo']} at line {exp['linha']} not in {found}"
    text = " ".join(str(matches[0][k] or "") for k in ("mensagem", "citacao", "dica"))
    for words in exp["contem"]:
        assert words in text, f"{words!r} not in {text!r}"
    return matches[0]


@pytest.fixture(scope="session")
def autos() -> Autos:
    return Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
