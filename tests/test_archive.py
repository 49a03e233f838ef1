"""``autos gerar --arquivo``: PDF/A-3b with the case file embedded and identifying metadata (read back with pypdf)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

from autos.app.generation.pipeline import Autos
from autos.cli import main

from .conftest import CASOS, ROOT
from .textutil import pdf_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_archive")

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
COMPLETE = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
INCOMPLETE = CASOS / "pendentes" / "timoteo-auto-incompleto.yaml"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def _only_pdf(folder: Path) -> PdfReader:
    pdfs = sorted(folder.glob("*.pdf"))
    assert len(pdfs) == 1, pdfs
    return PdfReader(io.BytesIO(pdfs[0].read_bytes()))


def _pdfa_id(reader: PdfReader) -> tuple[str | None, str | None]:
    xmp = reader.xmp_metadata
    assert xmp is not None, "sem metadados XMP"
    root = ET.fromstring(xmp.stream.get_data())
    for el in root.iter():
        if f"{PDFAID}part" in el.attrib:
            return el.attrib[f"{PDFAID}part"], el.attrib.get(f"{PDFAID}conformance")
    return None, None


def _xmp_text(reader: PdfReader) -> str:
    assert reader.xmp_metadata is not None
    return bytes(reader.xmp_metadata.stream.get_data()).decode("utf-8")


def _fonts(reader: PdfReader) -> list[tuple[str, Any]]:
    out = []
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font", {})
        for font in fonts.values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            out.append((str(font["/BaseFont"]), target.get("/FontDescriptor")))
    return out


def _image_dicts(reader: PdfReader) -> list[DictionaryObject]:
    """Every image dictionary reachable from the trailer: page resources, their form XObjects, soft masks,
    annotation appearances — each object visited once."""
    images: list[DictionaryObject] = []
    seen: set[tuple[int, int]] = set()
    todo: list[Any] = [reader.trailer]
    while todo:
        obj = todo.pop()
        if isinstance(obj, IndirectObject):
            if (obj.idnum, obj.generation) in seen:
                continue
            seen.add((obj.idnum, obj.generation))
            obj = obj.get_object()
        if isinstance(obj, DictionaryObject):
            if obj.get("/Subtype") == "/Image":
                images.append(obj)
            todo.extend(v for k, v in obj.items() if k != "/Parent")
        elif isinstance(obj, ArrayObject):
            todo.extend(obj)
    return images


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> PdfReader:
    out = tmp_path_factory.mktemp("arquivo")
    code, output = run("gerar", str(COMPLETE), "--arquivo", "--formato", "pdf", "-o", str(out))
    assert code == 0, output
    return _only_pdf(out)


def test_case_file_is_embedded_byte_for_byte_as_source(archived: PdfReader) -> None:
    assert dict(archived.attachments) == {COMPLETE.name: [COMPLETE.read_bytes()]}
    catalog = archived.trailer["/Root"]
    af = [ref.get_object() for ref in catalog["/AF"]]
    assert len(af) == 1
    spec = af[0]
    assert spec["/AFRelationship"] == "/Source"
    assert spec["/UF"] == COMPLETE.name
    assert spec["/EF"]["/F"].get_object()["/Subtype"] == "/application/yaml"


def test_pdfa_3b_identification(archived: PdfReader) -> None:
    assert _pdfa_id(archived) == ("3", "B")
    assert archived.pdf_header.startswith("%PDF-1.7")
    intents = archived.trailer["/Root"]["/OutputIntents"]
    assert intents[0].get_object()["/S"] == "/GTS_PDFA1"


def test_identifying_metadata_in_info_and_xmp(archived: PdfReader) -> None:
    meta = archived.metadata
    assert meta is not None
    assert meta.title == "Auto de Infração nº 17/2026 — Timóteo/MG"
    assert meta.author == "Prefeitura Municipal de Timóteo — Dr. João Batista Ferreira"
    assert meta.subject is not None and "Lei nº 3.844/2022" in meta.subject and "nº 17/2026" in meta.subject
    keywords = str(meta["/Keywords"])
    for expected in ("Lei nº 3.844/2022", "timoteo-mg/lei-3844-2022", "nº 17/2026", "processo SIM-2026/000142",
                     "Timóteo/MG"):
        assert expected in keywords, expected
    xmp = _xmp_text(archived)
    for expected in (meta.title, meta.author, "nº 17/2026", "timoteo-mg/lei-3844-2022"):
        assert expected in xmp, expected


def test_fonts_are_embedded(archived: PdfReader) -> None:
    fonts = _fonts(archived)
    assert fonts
    for name, descriptor in fonts:
        assert descriptor is not None, name
        descriptor = descriptor.get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name


def test_no_image_of_a_pdfa_asks_for_interpolation(archived: PdfReader) -> None:
    """ISO 19005-2/-3, § 6.2.8 (PDF/A-2 and PDF/A-3): an image dictionary's /Interpolate, if present, is false —
    the letterhead (a PNG with transparency: the image and its /SMask) included."""
    images = _image_dicts(archived)
    assert any("/SMask" in image for image in images), "the letterhead and its mask were not found"
    assert len(images) >= 2
    for image in images:
        assert image.get("/Interpolate") in (None, False), image  # pypdf's BooleanObject compares with ==


def test_archive_has_the_same_text_as_the_ordinary_pdf(tmp_path: Path) -> None:
    assert run("gerar", str(COMPLETE), "--formato", "pdf", "-o", str(tmp_path / "comum"))[0] == 0
    assert run("gerar", str(COMPLETE), "--formato", "pdf", "--arquivo", "-o", str(tmp_path / "arq"))[0] == 0
    plain = _only_pdf(tmp_path / "comum")
    assert not dict(plain.attachments)  # the ordinary PDF is unchanged: no attachment, no PDF/A id
    assert plain.xmp_metadata is None or _pdfa_id(plain) == (None, None)

    def text(folder: Path) -> str:  # the whole text: the footer names the document, not the generation time
        return pdf_text(next(folder.glob("*.pdf")).read_bytes())

    assert text(tmp_path / "arq") == text(tmp_path / "comum")


def test_exact_bytes_are_embedded_even_with_crlf_and_bom(autos: Autos, tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf" + COMPLETE.read_bytes().replace(b"\n", b"\r\n")
    case = tmp_path / "caso com espaço.yaml"
    case.write_bytes(raw)
    now = datetime(2026, 11, 29, 10, 30, tzinfo=timezone.utc)
    result = autos.generate(case, tmp_path / "out", "ambos", arquivo=True, now=now)
    assert sorted(p.suffix for p in result.files) == [".docx", ".pdf"]
    reader = PdfReader(next(p for p in result.files if p.suffix == ".pdf"))
    assert dict(reader.attachments) == {"caso-com-espaco.yaml": [raw]}  # an ASCII name, readable everywhere
    assert reader.metadata is not None
    assert str(reader.metadata["/CreationDate"]).startswith("D:20261129103000")


def test_draft_can_be_archived(tmp_path: Path) -> None:
    code, out = run("gerar", str(INCOMPLETE), "--minuta", "--arquivo", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    [pdf] = list(tmp_path.glob("*.pdf"))
    assert pdf.stem.endswith("-MINUTA")
    reader = PdfReader(pdf)
    assert dict(reader.attachments) == {INCOMPLETE.name: [INCOMPLETE.read_bytes()]}
    assert _pdfa_id(reader) == ("3", "B")


def test_archive_refuses_incomplete_case_and_writes_nothing(tmp_path: Path) -> None:
    code, out = run("gerar", str(INCOMPLETE), "--arquivo", "-o", str(tmp_path / "s"))
    assert code == 1
    assert "--minuta" in out
    assert not (tmp_path / "s").exists() or not list((tmp_path / "s").iterdir())


def test_archive_needs_pdf_format(tmp_path: Path) -> None:
    code, out = run("gerar", str(COMPLETE), "--arquivo", "--formato", "docx", "-o", str(tmp_path / "s"))
    assert code == 2
    assert "--arquivo gera PDF/A" in out
    assert not (tmp_path / "s").exists()


def test_english_option_alias(tmp_path: Path) -> None:
    code, out = run("generate", str(COMPLETE), "--archive", "--format", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    assert _pdfa_id(_only_pdf(tmp_path)) == ("3", "B")
