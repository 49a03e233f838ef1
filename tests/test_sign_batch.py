"""``--assinar`` in the batches: ``autos publicar-editais`` signs every PDF (individual editais, consolidated,
caderno) and ``autos gerar`` every PDF it writes, before the hash goes to the ledger or the register — so the hash
recorded is the signed file's. Every PDF is judged by pyHanko's validator."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from autos.app.editais.publish import Publisher
from autos.app.editais.run import PublishResult
from autos.app.signing import SignerSpec
from autos.cli import main
from autos.store.ledger import EditalRecord, Ledger
from tests.pki import P12_PASSWORD
from tests.signhelp import block_texts, pki, validate  # noqa: F401 - fixtures

from .conftest import ROOT
from .test_publish import options

PASSWORD = P12_PASSWORD.decode()


@pytest.fixture(scope="module", params=[1, 2], ids=["1-processo", "2-processos"])
def signed_publication(request, pki, tmp_path_factory) -> tuple[PublishResult, list[EditalRecord]]:  # noqa: F811
    """One signed publication per worker count, shared by the tests of this module that read it (one xdist group)."""
    spec = SignerSpec(segredo=PASSWORD, certificado=pki.chefia.p12, cargo="Diretor de Fiscalização")
    out = tmp_path_factory.mktemp("editais-assinados")
    result = Publisher(options(out, workers=request.param, assinar=spec)).run()
    assert result.erro is None and result.publicados
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        return result, led.editais()


@pytest.mark.xdist_group("sign_batch_publication")
def test_publicar_editais_signs_every_pdf_before_the_ledger_hash(pki, signed_publication):  # noqa: F811
    result, editais = signed_publication
    pdfs = 0
    for e in editais:
        for f in e.arquivos:
            path = e.saida / f.caminho
            data = path.read_bytes()
            assert hashlib.sha256(data).hexdigest() == f.sha256  # the ledger has the signed file's hash
            if path.suffix != ".pdf":
                continue
            pdfs += 1
            verdicts = validate(pki, data)
            assert len(verdicts) == 1, path  # the caderno: its own signature only, not its parts'
            assert verdicts[0].bottom_line and verdicts[0].coverage == "ENTIRE_FILE", path
            assert block_texts(data)[0].splitlines()[1:3] == ["JOSÉ DE SOUZA", "Diretor de Fiscalização"]
    assert pdfs >= 2 * len(result.publicados) + 1


def _signature_objects(path: Path) -> dict[int, DictionaryObject]:
    """Every object of the file that is a signature dictionary (/Type /Sig, or with a /ByteRange), referenced or
    not: each object number of every cross-reference section and object stream, by number."""
    reader = PdfReader(path)
    numbers = {n for section in reader.xref.values() for n in section} | set(reader.xref_objStm)
    found = {}
    for n in sorted(numbers):
        obj = reader.get_object(n)
        if isinstance(obj, DictionaryObject) and (obj.get("/Type") == "/Sig" or "/ByteRange" in obj):
            found[n] = obj
    return found


def _own_signature(path: Path) -> int:
    """The object number of the value (/V) of the file's one signature field."""
    reader = PdfReader(path)
    fields = [f.get_object() for f in reader.trailer["/Root"]["/AcroForm"]["/Fields"]]
    [value] = [f.raw_get("/V") for f in fields if f.get("/FT") == "/Sig"]
    return int(value.idnum)


@pytest.mark.xdist_group("sign_batch_publication")
def test_signed_caderno_carries_no_signature_object_of_its_parts(signed_publication):
    """Each part of the caderno was signed on its own; inside the caderno those signatures would cover bytes of
    another file, so they are not copied (docs/runbook-assinatura.md): no object of the caderno is a signature
    dictionary but the caderno's own. qpdf finds no structural error, and pdfsig (poppler), when installed, finds
    one signature and validates it."""
    if shutil.which("qpdf") is None:
        if os.environ.get("CI"):  # .ci/run installs it: there a missing qpdf is a failure, not a skip
            pytest.fail("qpdf não instalado (apt-get install qpdf)")
        pytest.skip("qpdf não instalado (apt-get install qpdf)")
    _out, editais = signed_publication
    cadernos = [e.saida / f.caminho for e in editais for f in e.arquivos if f.tipo == "caderno"]
    assert len(cadernos) == len(editais)
    for caderno in cadernos:
        assert list(_signature_objects(caderno)) == [_own_signature(caderno)], caderno
        check = subprocess.run(["qpdf", "--check", str(caderno)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        if shutil.which("pdfsig") is not None:
            sig = subprocess.run(["pdfsig", str(caderno)], capture_output=True, text=True)
            assert sig.stdout.count("Signature #") == 1, sig.stdout
            assert "Signature Validation: Signature is Valid." in sig.stdout, sig.stdout
            assert "Total document signed" in sig.stdout, sig.stdout


def test_publicar_editais_wrong_password_reserves_nothing(pki, tmp_path):  # noqa: F811
    out = tmp_path / "editais"
    secret = tmp_path / "senha"
    secret.write_text("errada\n")
    result = CliRunner().invoke(main, [
        "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "publicar-editais",
        str(ROOT / "tests" / "data" / "publish" / "casos"), "--data", "2026-10-06", "-o", str(out),
        "--jornal", "Jornal Diário do Aço", "--assinar", "--certificado", str(pki.signer.p12),
        "--senha-arquivo", str(secret)])
    assert result.exit_code == 2 and "senha do certificado está errada" in result.output
    assert not (out / "livro-editais.sqlite3").exists() or not sqlite3.connect(
        out / "livro-editais.sqlite3").execute("select count(*) from sqlite_master").fetchone()[0]


def test_certificate_options_need_assinar(pki, tmp_path):  # noqa: F811
    result = CliRunner().invoke(main, ["gerar", str(ROOT / "samples" / "verificacao"), "-o", str(tmp_path),
                                       "--certificado", str(pki.signer.p12)])
    assert result.exit_code == 2 and "a opção --certificado só vale com --assinar" in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("workers", ["1", "2"])
def test_gerar_assinar_signs_each_pdf_and_the_register_has_its_hash(pki, tmp_path, workers):  # noqa: F811
    folder = tmp_path / "processos"
    shutil.copytree(ROOT / "samples" / "verificacao" / "timoteo-mg", folder)
    out = tmp_path / "saida"
    made = CliRunner().invoke(main, ["registro", "reconstruir", str(folder), "--registro",
                                     str(tmp_path / "registro.sqlite3")])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, [
        "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29", "gerar",
        str(folder), "-o", str(out), "--formato", "pdf", "--processos", workers, "--assinar", "--certificado",
        str(pki.signer.p12), "--cargo", "Fiscal Sanitário", "--registro", str(tmp_path / "registro.sqlite3")], env={"AUTOS_SENHA_CERTIFICADO": PASSWORD})
    assert result.exit_code in (0, 1), result.output
    pdfs = sorted(out.glob("*.pdf"))
    assert pdfs
    for pdf in pdfs:
        [v] = validate(pki, pdf.read_bytes())
        assert v.bottom_line, pdf
        assert block_texts(pdf.read_bytes())[0].splitlines()[1:3] == ["MARIA DA SILVA", "Fiscal Sanitário"]
    registers = [tmp_path / "registro.sqlite3"]
    hashes = {hashlib.sha256(p.read_bytes()).hexdigest() for p in pdfs}
    recorded: set[str] = set()
    for reg in registers:
        db = sqlite3.connect(reg)
        for (table,) in db.execute("select name from sqlite_master where type='table'"):
            cols = [c[1] for c in db.execute(f"pragma table_info({table})")]
            if "sha256" in cols:
                recorded |= {r[0] for r in db.execute(f"select sha256 from {table}")}
        db.close()
    assert hashes <= recorded  # the register has each document's hash: the signed file's


def test_minuta_is_never_signed(pki, tmp_path):  # noqa: F811
    result = CliRunner().invoke(main, ["gerar", str(ROOT / "samples" / "verificacao"), "-o", str(tmp_path),
                                       "--minuta", "--assinar", "--certificado", str(pki.signer.p12)],
                                env={"AUTOS_SENHA_CERTIFICADO": PASSWORD})
    assert result.exit_code == 2 and "minuta não é assinada" in result.output


@pytest.mark.parametrize("command", ["publicar-editais", "gerar"])
def test_assinar_with_dask_is_refused_before_anything_is_reserved(pki, tmp_path, command):  # noqa: F811
    """The signing key stays on the coordinator's machine: with --dask, --assinar is refused (exit 2), before a
    scheduler is even contacted (the address here answers nothing) and before any number or file."""
    out = tmp_path / "saida"
    secret = tmp_path / "senha"
    secret.write_text(PASSWORD + "\n")
    cases = (ROOT / "tests" / "data" / "publish" / "casos" if command == "publicar-editais"
             else ROOT / "samples" / "verificacao" / "timoteo-mg")
    extra = ["--data", "2026-10-06", "--jornal", "Jornal Diário do Aço"] if command == "publicar-editais" else []
    result = CliRunner().invoke(main, [
        "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), command, str(cases), "-o", str(out),
        *extra, "--assinar", "--certificado", str(pki.signer.p12), "--senha-arquivo", str(secret),
        "--dask", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "--assinar não pode ser usado com --dask" in result.output
    assert "nada foi reservado nem gravado" in result.output
    written = [p for p in out.rglob("*") if p.is_file() and p.suffix in {".pdf", ".docx"}] if out.exists() else []
    assert not written
    ledger = out / "livro-editais.sqlite3"
    if ledger.exists():
        assert sqlite3.connect(ledger).execute("select count(*) from editais").fetchone()[0] == 0
