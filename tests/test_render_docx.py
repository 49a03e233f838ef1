"""The compiled DOCX renderer writes the document docxtpl writes, part by part, for every template.

docxtpl's own ``render`` + ``save`` is the oracle: the body, headers, footers and every other part must be the
same XML (compared canonicalized, C14N). The intended differences: ``docProps/core.xml`` (docxtpl renders
only some properties and left the keywords as a raw ``{{ }}`` tag; the compiled renderer renders the whole part),
and docxtpl's escaped tags ``{_{ }_}`` typed in a case's text, which docxtpl rewrites into ``{{ }}`` and the
compiled renderer keeps as typed (no sample has them; ``tests/test_render_hostile.py`` checks both behaviours).
"""

from __future__ import annotations

import io
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from docx import Document
from docxtpl import DocxTemplate
from lxml import etree

from autos.app.generation.pipeline import Autos
from autos.base.yamlio import iter_yaml_files
from autos.errors import AutosError, RenderError
from autos.processo.load_case import load_case
from autos.render.docx import CompileOnceEnvironment, DocxRenderer

from .conftest import CASOS, ROOT
from .textutil import docx_text

NOW = datetime(2026, 11, 29, 22, 15)


def _documents() -> list[Path]:
    return sorted(p for sub in ("timoteo-mg", "ferraz-de-vasconcelos-sp", "cuiaba-mt")
                  for p in iter_yaml_files(CASOS / sub))


def _context(autos: Autos, path: Path) -> tuple[str, dict[str, object]]:
    doc = autos.document_context(load_case(path), now=NOW)
    return doc.template, doc.context


def _docxtpl(autos: Autos, template: str, ctx: dict[str, object]) -> bytes:
    from autos.render.verification import DOCX_MEDIA, PLACEHOLDERS

    tpl = DocxTemplate(str(autos.docx_renderer.folder / f"{template}.docx"))
    media = ctx.get(DOCX_MEDIA)
    assert isinstance(media, dict) and "verificacao" in media  # every document carries its QR
    for key, make in media.items():  # the QR codes: docxtpl's replace_media of the template's placeholder picture
        assert callable(make)
        tpl.replace_media(io.BytesIO(PLACEHOLDERS[key]), io.BytesIO(make()))
    tpl.render(ctx, jinja_env=CompileOnceEnvironment(), autoescape=True)
    out = io.BytesIO()
    tpl.save(out)
    return out.getvalue()


def _c14n(data: bytes) -> bytes:
    out = etree.tostring(etree.fromstring(data), method="c14n")
    assert isinstance(out, bytes)
    return out


@pytest.mark.parametrize("path", _documents(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_compiled_renderer_writes_what_docxtpl_writes(autos: Autos, path: Path) -> None:
    template, ctx = _context(autos, path)
    ours = zipfile.ZipFile(io.BytesIO(autos.docx_renderer.docx(template, ctx)))
    theirs = zipfile.ZipFile(io.BytesIO(_docxtpl(autos, template, ctx)))
    assert ours.testzip() is None
    assert sorted(ours.namelist()) == sorted(theirs.namelist())
    for name in theirs.namelist():
        if name == "docProps/core.xml":
            continue
        a, b = ours.read(name), theirs.read(name)
        if name.endswith((".xml", ".rels")):
            assert _c14n(a) == _c14n(b), name
        else:
            assert a == b, name


@pytest.mark.parametrize("path", _documents()[:3], ids=lambda p: p.stem)
def test_core_properties_are_all_rendered(autos: Autos, path: Path) -> None:
    template, ctx = _context(autos, path)
    data = autos.docx_renderer.docx(template, ctx)
    props = Document(io.BytesIO(data)).core_properties
    meta = ctx["metadados"]
    assert isinstance(meta, dict)
    assert props.title == meta["titulo"] and props.author == meta["autor"] and props.subject == meta["assunto"]
    assert props.keywords == meta["palavras_chave"]
    assert props.created is not None and props.created.date() == NOW.date()
    assert "{{" not in zipfile.ZipFile(io.BytesIO(data)).read("docProps/core.xml").decode("utf-8")


def test_same_context_gives_the_same_bytes(autos: Autos) -> None:
    template, ctx = _context(autos, CASOS / "timoteo-mg" / "auto-pj-completo.yaml")
    first = autos.docx_renderer.docx(template, ctx)
    assert autos.docx_renderer.docx(template, ctx) == first
    assert DocxRenderer(ROOT / "templates").docx(template, ctx) == first  # a fresh process would agree


def test_case_data_is_xml_escaped_in_body_and_properties(autos: Autos) -> None:
    template, ctx = _context(autos, CASOS / "timoteo-mg" / "auto-pj-completo.yaml")
    meta = dict(ctx["metadados"])  # type: ignore[call-overload]
    meta["assunto"] = "Queijos & Cia <script>"
    data = autos.docx_renderer.docx(template, {**ctx, "metadados": meta, "rodape": "A & B <b>"})
    assert Document(io.BytesIO(data)).core_properties.subject == "Queijos & Cia <script>"
    footer = zipfile.ZipFile(io.BytesIO(data)).read("word/footer1.xml").decode("utf-8")
    assert "A &amp; B &lt;b&gt;" in footer


def _custom(tmp_path: Path, name: str, data: bytes) -> DocxRenderer:
    folder = tmp_path / "modelos" / "docx"
    folder.mkdir(parents=True)
    (folder / f"{name}.docx").write_bytes(data)
    return DocxRenderer(tmp_path / "modelos")


def _with_body_text(text: str) -> bytes:
    """The auto's template with one more paragraph holding ``text``."""
    doc = Document(str(ROOT / "templates" / "docx" / "auto_de_infracao.docx"))
    doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


@pytest.mark.parametrize(("body", "words"), [
    ("{{ autuado.apelido }}", ["valor indefinido", "apelido", "auto_de_infracao.docx"]),
    ("{% if minuta %}sem fim", ["erro de sintaxe no modelo", "auto_de_infracao.docx", "{% %}"]),
    ("{{ ''.__class__.__mro__ }}", ["operação proibida", "auto_de_infracao.docx"]),
])
def test_bad_template_is_a_clear_error(autos: Autos, tmp_path: Path, body: str, words: list[str]) -> None:
    renderer = _custom(tmp_path, "auto_de_infracao", _with_body_text(body))
    _template, ctx = _context(autos, CASOS / "timoteo-mg" / "auto-pj-completo.yaml")
    with pytest.raises(RenderError) as info:
        renderer.docx("auto_de_infracao", ctx)
    for w in words:
        assert w in str(info.value)


def test_template_that_is_not_a_word_file(autos: Autos, tmp_path: Path) -> None:
    renderer = _custom(tmp_path, "auto_de_infracao", b"not a zip")
    with pytest.raises(AutosError, match="não é um documento Word válido"):
        renderer.docx("auto_de_infracao", {})


def test_missing_template(tmp_path: Path) -> None:
    (tmp_path / "docx").mkdir()
    with pytest.raises(RenderError, match=r"modelo 'edital_notificacao\.docx' não encontrado"):
        DocxRenderer(tmp_path).docx("edital_notificacao", {})


def test_rendered_text_matches_docxtpl(autos: Autos) -> None:
    template, ctx = _context(autos, CASOS / "ferraz-de-vasconcelos-sp" / "auto-terreno-sem-limpeza.yaml")
    assert docx_text(autos.docx_renderer.docx(template, ctx)) == docx_text(_docxtpl(autos, template, ctx))
