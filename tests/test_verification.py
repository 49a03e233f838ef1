"""The verification code and QR code on every document and ``autos conferir`` looking the
file up in the register by its hash and by the code it prints.

The QR images cannot be decoded here (no decoder among the dependencies); the tests check the text handed to
segno — the QR in the DOCX is byte for byte ``qr_png(text)`` and the one in the PDF's page ``qr_svg(text)`` —
and that the images are in the output. Documents are checked by their extracted text (pypdf, python-docx)."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfWriter

from autos.cli import main
from autos.render.verification import (
    ALPHABET,
    check_char,
    document_code,
    qr_png,
    qr_svg,
    typed_code,
    verification_url,
)
from autos.store.register import Register

from .conftest import CASOS, ROOT, SAMPLES
from .textutil import document_text

RULES = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
SAMPLE = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml"
URL = "https://www.timoteo.mg.gov.br/verificar?codigo={codigo}"
TIMBRE = f"""url_verificacao: "{URL}"
pix:
  chave: "18.299.446/0001-24"
  nome: MUNICIPIO DE TIMOTEO
  cidade: Timóteo
"""
CODE_RE = re.compile(r"Código de verificação: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*RULES, *args], env={"AUTOS_REGISTRO": None, "AUTOS_LIVRO": None})
    return result.exit_code, result.output


def own_templates(tmp: Path, timbre: str) -> Path:
    """A copy of the shipped templates with a letterhead file for Timóteo."""
    folder = tmp / "modelos"
    shutil.copytree(ROOT / "templates", folder)
    (folder / "html" / "timbre" / "timoteo-mg").mkdir(parents=True)
    (folder / "html" / "timbre" / "timoteo-mg" / "timbre.yaml").write_text(timbre, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def issued(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The documents of one processo generated with a register: once with the shipped templates (no verification
    URL) into ``saida``, once with a letterhead that configures the URL and a PIX key into ``com-url``."""
    tmp = tmp_path_factory.mktemp("verificacao")
    folder = tmp / "processos"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / SAMPLE.name)
    assert run("registro", "reconstruir", str(folder))[0] == 0
    assert run("gerar", str(folder / SAMPLE.name), "-o", str(tmp / "saida"))[0] == 0
    modelos = own_templates(tmp, TIMBRE)
    assert run("--modelos", str(modelos), "gerar", str(folder / SAMPLE.name), "-o", str(tmp / "com-url"))[0] == 0
    files = {f"{p.parent.name}/{p.name}": p for sub in ("saida", "com-url") for p in sorted((tmp / sub).iterdir())}
    files["registro"] = folder / "registro.sqlite3"
    return files


def _one(issued: dict[str, Path], prefix: str, suffix: str) -> Path:
    [path] = [p for n, p in issued.items() if n.startswith(prefix) and n.endswith(suffix)]
    return path


# --------------------------------------------------------------------------------------------------
# the code


@pytest.mark.parametrize("parts", [("processo", "timoteo-mg/lei-3844-2022", "SIM-2026/000150", "1", "auto_de_infracao"),
                                   ("processo", "timoteo-mg/lei-3844-2022", "SIM-2026/000150", "4",
                                    "demonstrativo_debito"),
                                   ("caso", "cuiaba-mt/lei-3666-1997", "auto_de_infracao", "77/2026", "", "")])
def test_code_is_deterministic_typable_and_every_single_typo_is_caught(parts: tuple[str, ...]) -> None:
    code = document_code(*parts)
    assert code == document_code(*parts)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code)
    assert typed_code(code) == code
    assert typed_code(code.lower().replace("-", " ")) == code  # as a person types it
    flat = code.replace("-", "")
    assert check_char(flat[:11]) == flat[11]
    for i in range(12):  # every character replaced by every other one: refused
        for c in ALPHABET:
            if c != flat[i]:
                assert typed_code(flat[:i] + c + flat[i + 1:]) is None, (i, c)
    for i in range(11):  # every swap of two different neighbours but 0/Z (Luhn mod 32): refused
        a, b = flat[i], flat[i + 1]
        if a != b and {a, b} != {"0", "Z"}:
            assert typed_code(flat[:i] + b + a + flat[i + 2:]) is None, i


def test_crockford_reading_of_o_i_l_and_other_acts_get_other_codes() -> None:
    codes = {document_code("processo", "x", "P-1", str(ato), "auto_de_infracao") for ato in range(1, 200)}
    assert len(codes) == 199
    code = next(c for c in sorted(codes) if "0" in c or "1" in c)
    assert typed_code(code.replace("0", "O").replace("1", "l")) == code
    assert typed_code("ABCD-EFGH-JKM") is None and typed_code("ABCD-EFGH-JKMU") is None


# --------------------------------------------------------------------------------------------------
# the documents


def test_every_document_prints_its_code_in_footer_and_qr_block_recorded_in_the_register(
        issued: dict[str, Path]) -> None:
    docs = {n: p for n, p in issued.items() if n.startswith("saida/")}
    assert len(docs) >= 12
    with Register.open(issued["registro"], readonly=True) as reg:
        for name, path in docs.items():
            text = document_text(path)
            codes = set(CODE_RE.findall(text))
            assert len(codes) == 1, (name, codes)
            [code] = codes
            assert "Confira a autenticidade deste documento pelo código" in text, name
            [record] = [r for r in reg.documents_by_code(code) if r.caminho.endswith(name)]
            assert record.codigo == code and record.sha256 == hashlib.sha256(path.read_bytes()).hexdigest(), name
            ato = int(re.search(r"-ato-(\d\d)\.", name).group(1))  # type: ignore[union-attr]
            assert code == document_code("processo", "timoteo-mg/lei-3844-2022", "SIM-2026/000150", str(ato),
                                         record.documento), name
    pdf = _one(issued, "saida/auto-de-infracao", ".pdf")
    docx_file = pdf.with_suffix(".docx")
    assert set(CODE_RE.findall(document_text(pdf))) == set(CODE_RE.findall(document_text(docx_file)))


def test_the_qr_carries_the_code_or_the_configured_url_with_the_code(issued: dict[str, Path]) -> None:
    for prefix, with_url in (("saida/auto-de-infracao", False), ("com-url/auto-de-infracao", True)):
        docx_file = _one(issued, prefix, ".docx")
        [code] = set(CODE_RE.findall(document_text(docx_file)))
        content = verification_url(URL, code) if with_url else code
        media = {n: zipfile.ZipFile(docx_file).read(n) for n in zipfile.ZipFile(docx_file).namelist()
                 if n.startswith("word/media/")}
        assert qr_png(content) in media.values(), prefix  # the picture is the QR of exactly this text
        text = document_text(docx_file)
        if with_url:
            assert f"Confira a autenticidade deste documento em {content}" in text
        else:
            assert "https://" not in text


def test_the_pdf_page_has_the_qr_as_inline_svg(issued: dict[str, Path]) -> None:
    """The PDF's HTML embeds ``qr_svg(code)``; WeasyPrint draws it as vector paths (nothing fetched)."""
    from autos.app.generation.pipeline import Autos

    autos = Autos(today=__import__("datetime").date(2026, 11, 30))
    [piece] = autos.processo_documents(SAMPLE, ato=1)
    assert piece.report is not None
    doc = autos.document_context(piece.loaded, report=piece.report, ident=piece.identity)
    html = autos.pdf_renderer.html(doc.template, doc.context)
    assert str(qr_svg(doc.codigo)) in html and '<svg viewBox' in html
    pdf = _one(issued, "saida/auto-de-infracao", ".pdf")
    assert doc.codigo in document_text(pdf)


def test_an_old_single_document_case_file_gets_a_code_too(tmp_path: Path) -> None:
    case = CASOS / "cuiaba-mt" / "auto-animal-solto.yaml"
    code, out = run("gerar", str(case), "-o", str(tmp_path))
    assert code == 0, out
    paths = sorted(tmp_path.iterdir())
    assert [p.suffix for p in paths] == [".docx", ".pdf"]
    codes = {c for p in paths for c in CODE_RE.findall(document_text(p))}
    # identified by law, kind, number and processo (no act: one document per file)
    assert codes == {document_code("caso", "cuiaba-mt/lei-3666-1997", "auto_de_infracao", "88/2026",
                                   "CCZ-2026/000391", "")}, codes


# --------------------------------------------------------------------------------------------------
# autos conferir


def _altered_docx(data: bytes) -> bytes:
    """The DOCX with one word of its body changed (the footer, with the code, as it was)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            raw = src.read(item.filename)
            if item.filename == "word/document.xml":
                raw = raw.replace("Timóteo".encode(), b"Tim0teo", 1)
            dst.writestr(item, raw)
    return out.getvalue()


def _blank_pdf() -> bytes:
    w = PdfWriter()
    w.add_blank_page(595, 842)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


CONFERIR = [
    # (case, how the file is made from the issued one, exit code, words of the report)
    ("pdf as issued", "pdf", lambda b: b, 0, ["CONFERE: auto_de_infracao do ato 1 do processo SIM-2026/000150",
                                              "é o registrado para este documento"]),
    ("docx as issued", "docx", lambda b: b, 0, ["CONFERE: auto_de_infracao do ato 1", "é o registrado"]),
    ("pdf changed after issue", "pdf", lambda b: b + b"\n% alterado\n", 1,
     ["NÃO CONFERE", "o arquivo diz ser o auto_de_infracao do ato 1 do processo SIM-2026/000150",
      "o arquivo foi alterado ou não é o emitido"]),
    ("docx changed after issue", "docx", _altered_docx, 1,
     ["NÃO CONFERE", "o arquivo foi alterado ou não é o emitido"]),
    ("pdf without a code", "pdf", lambda _b: _blank_pdf(), 1,
     ["não traz código de verificação legível", "NÃO CONFERE"]),
]


@pytest.mark.parametrize(("case", "ext", "make", "exit_code", "words"), CONFERIR, ids=[c[0] for c in CONFERIR])
def test_conferir_reads_the_code_and_looks_the_file_up_in_the_register(
        issued: dict[str, Path], tmp_path: Path, case: str, ext: str, make: object, exit_code: int,
        words: list[str]) -> None:
    original = _one(issued, "saida/auto-de-infracao", f".{ext}")
    target = tmp_path / f"documento.{ext}"
    assert callable(make)
    target.write_bytes(make(original.read_bytes()))
    [code] = set(CODE_RE.findall(document_text(original)))
    result, out = run("conferir", str(target), "--registro", str(issued["registro"]))
    assert result == exit_code, out
    for w in words:
        assert w in out, (case, w, out)
    if "sem" not in case and "without" not in case:
        assert f"código de verificação impresso no documento: {code}" in out


def test_conferir_says_a_code_is_unknown_to_the_register(issued: dict[str, Path], tmp_path: Path) -> None:
    """A document this register never recorded (an old single-document case file): its code is not in it."""
    assert run("gerar", str(CASOS / "cuiaba-mt" / "auto-animal-solto.yaml"), "-o", str(tmp_path))[0] == 0
    other = next(tmp_path.glob("*.pdf"))
    code, out = run("conferir", str(other), "--registro", str(issued["registro"]))
    assert code == 1, out
    [printed] = set(CODE_RE.findall(document_text(other)))
    assert f"o código {printed} não está neste registro" in out


def test_conferir_a_typed_code_names_the_document_and_refuses_a_typo(issued: dict[str, Path]) -> None:
    pdf = _one(issued, "saida/auto-de-infracao", ".pdf")
    [code] = set(CODE_RE.findall(document_text(pdf)))
    reg = ["--registro", str(issued["registro"])]
    result, out = run("conferir", "--codigo", code.lower().replace("-", ""), *reg)
    assert result == 0, out
    assert f"CONFERE: o código {code} é do auto_de_infracao do ato 1 do processo SIM-2026/000150" in out
    assert hashlib.sha256(pdf.read_bytes()).hexdigest() in out
    flat = code.replace("-", "")
    typo = flat[:5] + ALPHABET[(ALPHABET.index(flat[5]) + 1) % 32] + flat[6:]
    result, out = run("conferir", "--codigo", typo, *reg)
    assert result == 2 and "não é um código de verificação válido" in out and "digitação" in out, out
    other = document_code("processo", "timoteo-mg/lei-3844-2022", "SIM-2026/999999", "1", "auto_de_infracao")
    result, out = run("conferir", "--codigo", other, *reg)
    assert result == 1 and f"o código {other} não está neste registro" in out, out


@pytest.mark.parametrize(("made", "exit_code", "verdict"), [
    ("issued", 0, "Resultado: CONFERE (registro dos processos)."),
    ("changed", 1, "Resultado: NÃO CONFERE — nem o livro de editais nem o registro dos processos têm este arquivo."),
])
def test_conferir_with_ledger_and_register_shows_both_and_confirms_when_either_knows_the_file(
        issued: dict[str, Path], tmp_path: Path, made: str, exit_code: int, verdict: str) -> None:
    from autos.store.ledger import Ledger

    livro = tmp_path / "livro-editais.sqlite3"
    with Ledger(livro):
        pass  # an empty ledger: no edital published
    pdf = _one(issued, "saida/auto-de-infracao", ".pdf")
    target = tmp_path / "documento.pdf"
    target.write_bytes(pdf.read_bytes() + (b"\n% alterado\n" if made == "changed" else b""))
    result, out = run("conferir", str(target), "--livro", str(livro), "--registro", str(issued["registro"]))
    assert result == exit_code, out
    lines = out.splitlines()
    assert lines[0].startswith("Livro consultado:") and "NÃO CONFERE: este arquivo não é nenhum dos arquivos " \
        "publicados" in out  # the ledger's report first, as without the register
    assert "Registro dos processos:" in lines and verdict in lines, out
    # then the signatures section (app/conferir.check): this PDF carries none
    assert lines[-1] == "Assinaturas digitais: o arquivo não traz nenhuma assinatura digital.", out


def test_published_editais_carry_their_ledger_code_in_footer_and_qr(tmp_path: Path) -> None:
    """``autos publicar-editais``: each edital prints the code the ledger records for it (not a document code),
    once, and its QR carries it (with the Municipality's verification URL); the individual DOCX, the code of its
    PDF, as before; ``autos conferir --livro`` keeps its messages."""
    from datetime import date

    from autos.app.editais.publish import Publisher
    from autos.app.editais.run import Options, place_option
    from autos.store.ledger import Ledger

    from .conftest import DATA, TODAY

    modelos = own_templates(tmp_path, f'url_verificacao: "{URL}"\n')
    casos = tmp_path / "casos"
    shutil.copytree(DATA / "publish" / "casos", casos)
    out = tmp_path / "editais"
    result = Publisher(Options(casos=casos, data=date(2026, 10, 6), saida=out, data_jornal=date(2026, 10, 7),
                               workers=1, rules_dir=ROOT / "rules", templates_dir=modelos, today=TODAY,
                               veiculos=place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                                                      "Quadro de Editais do Paço Municipal"]),
                               jornais=place_option(["Jornal Diário do Aço"]))).run()
    assert result.erro is None, result.erro
    livro = out / "livro-editais.sqlite3"
    with Ledger(livro, readonly=True) as ledger:
        for path in sorted(out.rglob("edital-timoteo-mg-*")):
            m = next(x for x in ledger.by_hash(hashlib.sha256(path.read_bytes()).hexdigest()))
            pdf_code = m.arquivo.codigo
            if path.suffix == ".docx":  # the DOCX prints the code of its PDF
                sibling = ledger.sibling(m, "edital_individual_pdf")
                assert sibling is not None
                pdf_code = sibling.arquivo.codigo
            assert pdf_code and set(CODE_RE.findall(document_text(path))) == {pdf_code}, path.name
            if path.suffix == ".docx":
                media = [zipfile.ZipFile(path).read(n) for n in zipfile.ZipFile(path).namelist()
                         if n.startswith("word/media/")]
                assert qr_png(verification_url(URL, pdf_code)) in media, path.name
            else:
                flat = document_text(path).replace(" ", "")  # pypdf gives a line break inside the URL as a space
                assert f"Confiraaautenticidadedestedocumentoem{verification_url(URL, pdf_code)}" in flat, path.name
            code, report = run("conferir", str(path), "--livro", str(livro))
            assert code == 0 and "CONFERE: o SHA-256 do arquivo está registrado no livro de editais" in report
