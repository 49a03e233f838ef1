"""What the signing tests share: the test PKI (once per session), the PDFs they sign, pyHanko's validator trusting
the test root, the visible block's text (pypdf, from the signature widget's appearance stream) and a real
SoftHSM2 token made in a temporary folder."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from asn1crypto import x509 as ax509
from cryptography.hazmat.primitives import serialization

from tests.pki import Identity, Pki, build_pki

ROOT = Path(__file__).resolve().parent.parent
SOFTHSM_LIB = Path(os.environ.get("AUTOS_SOFTHSM_LIB", "/usr/lib/softhsm/libsofthsm2.so"))
#: in CI the token tests must run: without SoftHSM2 they fail instead of skipping (.ci/run sets it)
SOFTHSM_REQUIRED = os.environ.get("AUTOS_SOFTHSM_OBRIGATORIO") == "1"


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return build_pki(tmp_path_factory.mktemp("pki"))


def _plain_pdf() -> bytes:
    import weasyprint

    return weasyprint.HTML(string="<html lang='pt-BR'><body><h1>Auto de infração de teste</h1>"
                           "<p>Documento gerado para os testes de assinatura.</p></body></html>").write_pdf()


@pytest.fixture(scope="session")
def plain_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "documento.pdf"
    path.write_bytes(_plain_pdf())
    return path


@pytest.fixture(scope="session")
def pdfa_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archival PDF/A-3b made by ``autos gerar --arquivo`` from a sample processo (its auto de infração)."""
    from datetime import date

    from autos.app.generation.pipeline import Autos

    out = tmp_path_factory.mktemp("pdfa")
    autos = Autos(ROOT / "rules", ROOT / "templates", today=date(2026, 11, 29))
    sample = ROOT / "samples" / "verificacao" / "timoteo-mg" / "02-edital-entreposto.yaml"
    done = autos.generate_processo(sample, out, "pdf", arquivo=True)
    return next(p for _ato, g in done if not isinstance(g, Exception) for p in g.files
                if p.name.startswith("auto-de-infracao"))


def asn1(identity: Identity) -> ax509.Certificate:
    return ax509.Certificate.load(identity.cert.public_bytes(serialization.Encoding.DER))


@dataclass
class Verdict:
    field: str
    intact: bool
    valid: bool
    trusted: bool
    bottom_line: bool
    signer_cn: str
    coverage: str
    modification: str


def validate(pki: Pki, data: bytes) -> list[Verdict]:
    """Every signature of ``data``, judged by pyHanko's validator with the test root as the only trust anchor (in a
    thread of its own: pyHanko's synchronous API refuses to run where an event loop is running)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_validate, pki, data).result()


def _validate(pki: Pki, data: bytes) -> list[Verdict]:
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    reader = PdfFileReader(io.BytesIO(data))
    out = []
    for sig in reader.embedded_signatures:
        vc = ValidationContext(trust_roots=[asn1(pki.root)], other_certs=[asn1(pki.intermediate)])
        status = validate_pdf_signature(sig, vc)
        out.append(Verdict(sig.field_name, status.intact, status.valid, status.trusted, status.bottom_line,
                           status.signing_cert.subject.native["common_name"], status.coverage.name,
                           status.modification_level.name if status.modification_level else ""))
    return out


def block_texts(data: bytes) -> list[str]:
    """The text of each visible signature block (pypdf extracts it from the widget's appearance stream, laid out as
    a page of its own), in page order."""
    from pypdf import PdfReader
    from pypdf._page import PageObject
    from pypdf.generic import NameObject

    reader = PdfReader(io.BytesIO(data))
    texts = []
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/FT") != "/Sig" or "/AP" not in annot:
                continue
            appearance = annot["/AP"]["/N"]
            form = appearance.get_object()
            shell = PageObject(reader)
            shell[NameObject("/Resources")] = form.get("/Resources", {})
            shell[NameObject("/MediaBox")] = form["/BBox"]
            shell[NameObject("/Contents")] = appearance
            texts.append(shell.extract_text())
    return texts


# --- SoftHSM2 --------------------------------------------------------------------------------------


@dataclass
class Token:
    lib: Path
    label: str
    key_label: str
    pin: str
    conf: Path


def softhsm_available() -> str | None:
    """Why SoftHSM2 cannot be used here, or None."""
    if shutil.which("softhsm2-util") is None:
        return "softhsm2-util não encontrado (apt-get install softhsm2)"
    if not SOFTHSM_LIB.is_file():
        return f"biblioteca do SoftHSM2 não encontrada em {SOFTHSM_LIB}"
    return None


def require_softhsm() -> None:
    why = softhsm_available()
    if why is None:
        return
    if SOFTHSM_REQUIRED:
        pytest.fail(f"testes com token obrigatórios (AUTOS_SOFTHSM_OBRIGATORIO=1), mas {why}", pytrace=False)
    pytest.skip(why)


def make_token(folder: Path, identity: Identity, *, label: str = "autos-teste", key_label: str = "assinatura",
               pin: str = "123456") -> Token:
    """A SoftHSM2 token in ``folder`` (its own config: SOFTHSM2_CONF must point at ``token.conf`` when it is used)
    holding ``identity``'s key (imported by softhsm2-util, PKCS#8 PEM) and certificate (created with
    python-pkcs11), both with the same label and id."""
    import pkcs11
    from pkcs11 import Attribute, CertificateType, ObjectClass

    tokens = folder / "tokens"
    tokens.mkdir(parents=True)
    conf = folder / "token.conf"
    conf.write_text(f"directories.tokendir = {tokens}\nobjectstore.backend = file\nlog.level = ERROR\n")
    env = {**os.environ, "SOFTHSM2_CONF": str(conf)}
    subprocess.run(["softhsm2-util", "--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "654321"],
                   check=True, env=env, capture_output=True)
    assert identity.pem_key is not None
    subprocess.run(["softhsm2-util", "--import", str(identity.pem_key), "--token", label, "--label", key_label,
                    "--id", "01", "--pin", pin], check=True, env=env, capture_output=True)
    os.environ["SOFTHSM2_CONF"] = str(conf)  # for the rest of the session (this process): read at C_Initialize
    lib = pkcs11.lib(str(SOFTHSM_LIB))
    lib.reinitialize()  # this process may have initialised the library with another configuration before
    token = lib.get_token(token_label=label)
    with token.open(rw=True, user_pin=pin) as session:
        session.create_object({
            Attribute.CLASS: ObjectClass.CERTIFICATE,
            Attribute.CERTIFICATE_TYPE: CertificateType.X_509,
            Attribute.TOKEN: True,
            Attribute.LABEL: key_label,
            Attribute.ID: b"\x01",
            Attribute.SUBJECT: identity.cert.subject.public_bytes(),
            Attribute.VALUE: identity.cert.public_bytes(serialization.Encoding.DER),
        })
    return Token(SOFTHSM_LIB, label, key_label, pin, conf)
