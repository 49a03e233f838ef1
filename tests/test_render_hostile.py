"""Hostile templates (``--modelos``): each one ends in exit 2 with a Portuguese message naming the template,
never a traceback, a hang, a file read from outside the templates folder or memory exhausted."""

from __future__ import annotations

import functools
import io
import shutil
import struct
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from docx import Document

from autos.cli import main

from .conftest import CASOS, ROOT
from .textutil import docx_text, pdf_text

COMPLETE = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
SECRET = "SEGREDO-FORA-DA-PASTA"
ENGLISH = ("is undefined", "has no attribute", "Encountered", "unexpected", "Unexpected", "Range too big",
           "No filter", "unsafe", "division by zero", "expected token", "Error:")


def _templates(tmp_path: Path) -> Path:
    """A copy of the shipped templates and, beside it (outside it), a secret file."""
    folder = tmp_path / "modelos"
    shutil.copytree(ROOT / "templates", folder)
    (tmp_path / "segredo.txt").write_text(f"<p>{SECRET}</p>", encoding="utf-8")
    (tmp_path / "fora.css").write_text("p { color: red }", encoding="utf-8")
    return folder


def _gerar(templates: Path, out: Path, formato: str, case: Path = COMPLETE) -> tuple[int, str, BaseException | None]:
    args = ["--regras", str(ROOT / "rules"), "--modelos", str(templates), "--hoje", "2026-11-29",
            "gerar", str(case), "--formato", formato, "-o", str(out)]
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output, result.exception


def _assert_refused(tmp_path: Path, templates: Path, formato: str, words: list[str]) -> str:
    out = tmp_path / "saida"
    code, output, exc = _gerar(templates, out, formato)
    assert isinstance(exc, SystemExit), f"not a clean exit: {exc!r}\n{output}"
    assert code == 2, output
    assert "Traceback" not in output
    for english in ENGLISH:  # Jinja's and Python's own wording never reaches the user
        assert english not in output, f"{english!r} in: {output}"
    for w in words:
        assert w in output, f"{w!r} missing from: {output}"
    assert SECRET not in output
    assert not out.exists() or list(out.iterdir()) == []  # nothing written
    return output


# (what the HTML template of the auto says, words the error must contain)
HOSTILE_HTML = [
    ('{% include "segredo.html" %}', ["fora da pasta de modelos", "segredo.html"]),
    ('{% extends "segredo.html" %}', ["fora da pasta de modelos", "segredo.html"]),
    ('{% include "../segredo.txt" %}', ["'../segredo.txt'", "não existe"]),
    ('{% include "_falta.html" %}', ["'_falta.html'", "não existe", "auto_de_infracao.html"]),
    ("<p>\n{{ range(10**9) }}", ["grande demais", "auto_de_infracao.html", "linha 2"]),
    ("{{ 'a' * 10**9 }}", ["limite", "auto_de_infracao.html"]),
    ("{{ [0] * 10**9 }}", ["limite"]),
    ("{{ 10 ** (10 ** 10) }}", ["potência", "bits"]),
    ("{{ 10 ** 1000000 }}", ["potência", "bits"]),
    ("{% set ns = namespace(n=10**4000) %}{% for i in range(10) %}{% set ns.n = ns.n * ns.n %}{% endfor %}",
     ["bits"]),
    ("{{ 'x'|center(10**9) }}", ["filtro 'center'"]),
    ("{{ 'x'|indent(10**9) }}", ["filtro 'indent'"]),
    ("{{ [1]|batch(10**9, 0)|list }}", ["filtro 'batch'"]),
    ("{{ 'x'.ljust(10**9) }}", ["limite"]),
    ("{{ 'x'.zfill(10**9) }}", ["limite"]),
    ("{{ '%1000000000s'|format('a') }}", ["texto formatado"]),
    ("{{ '%1000000000s' % 'a' }}", ["texto formatado"]),
    ("{{ '%*s' % (10**9, 'a') }}", ["texto formatado"]),
    ("{{ '{:>1000000000}'.format('a') }}", ["largura de formatação"]),
    ("{{ ('x' * 1000000)|replace('x', 'yyyyyyyyyy') }}", ["limite"]),
    ("{{ ('x' * 1000000).replace('x', 'yyyyyyyyyy') }}", ["limite"]),
    ("{% set s = 'a' * 1000000 %}{% set s = s ~ s %}{% set s = s ~ s %}{% set s = s ~ s %}{{ s|length }}",
     ["limite"]),
    ("{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     ["limite"]),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     ["repetições", "auto_de_infracao.html", "linha 1"]),
    ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}",
     ["repetições"]),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", ["recursão", "auto_de_infracao.html"]),
    ("{% for i in range(99999) %}{{ 'x' * 999 }}{% endfor %}", ["caracteres"]),
    ("<p>\n\n{% if autuado %}sem fim", ["erro de sintaxe", "auto_de_infracao.html", "linha 3"]),
    ("<p>\n{{ autuado.apelido }}</p>", ["indefinido", "apelido", "auto_de_infracao.html", "linha 2"]),
    ('{% include "_ruim.html" %}', ["erro de sintaxe", "_ruim.html", "linha 2"]),
    ("{{ 1 / 0 }}", ["divisão por zero", "auto_de_infracao.html"]),
    ("{% tag_que_nao_existe %}", ["marca desconhecida", "tag_que_nao_existe"]),
    ("{{ autuado.nome|filtro_inexistente }}", ["não existe o filtro 'filtro_inexistente'"]),
    ("{% for x in autuado %}sem fim", ["sem fechar o bloco 'for'"]),
    ("{{ x }", ["'}' inesperado"]),
    ("{{ ''.__class__.__mro__ }}", ["operação proibida"]),
    ('<img src="file:///etc/passwd">', ["fora da pasta de modelos", "/etc/passwd"]),
    ('<img src="segredo.png">', ["fora da pasta de modelos", "segredo.txt"]),
    ('<link rel="stylesheet" href="fora.css"><p>x</p>', ["fora da pasta de modelos", "fora.css"]),
    ('<img src="http://127.0.0.1:9/x.png">', ["só arquivos da pasta de modelos", "http://127.0.0.1:9/x.png"]),
    ('<img src="file://outro-host/etc/hosts">', ["só arquivos da pasta de modelos"]),
]


@pytest.mark.parametrize(("body", "words"), HOSTILE_HTML, ids=[b for b, _ in HOSTILE_HTML])
def test_hostile_html_template_is_refused_with_exit_2(tmp_path: Path, body: str, words: list[str]) -> None:
    templates = _templates(tmp_path)
    html = templates / "html"
    (html / "segredo.html").symlink_to(tmp_path / "segredo.txt")
    (html / "segredo.png").symlink_to(tmp_path / "segredo.txt")
    (html / "fora.css").symlink_to(tmp_path / "fora.css")
    (html / "_ruim.html").write_text("<p>\n{{ }}</p>", encoding="utf-8")
    (html / "auto_de_infracao.html").write_text(body, encoding="utf-8")
    _assert_refused(tmp_path, templates, "pdf", words)


def test_template_that_is_a_symlink_to_outside_is_refused(tmp_path: Path) -> None:
    templates = _templates(tmp_path)
    page = templates / "html" / "auto_de_infracao.html"
    page.unlink()
    page.symlink_to(tmp_path / "segredo.txt")
    _assert_refused(tmp_path, templates, "pdf", ["fora da pasta de modelos", "auto_de_infracao.html"])


def test_symlink_inside_the_folder_is_followed(tmp_path: Path) -> None:
    """A symlink whose target is inside the templates folder is an ordinary template."""
    templates = _templates(tmp_path)
    html = templates / "html"
    (html / "comum").mkdir()
    (html / "comum" / "trecho.html").write_text("<p>TRECHO-INCLUIDO</p>", encoding="utf-8")
    (html / "trecho.html").symlink_to(html / "comum" / "trecho.html")
    page = html / "auto_de_infracao.html"
    source = page.read_text(encoding="utf-8")
    assert "{% block conteudo %}" in source
    page.write_text(source.replace("{% block conteudo %}", '{% block conteudo %}{% include "trecho.html" %}'),
                    encoding="utf-8")
    code, output, _exc = _gerar(templates, tmp_path / "saida", "pdf")
    assert code == 0, output
    assert "TRECHO-INCLUIDO" in pdf_text(next((tmp_path / "saida").glob("*.pdf")).read_bytes())


def _docx_with(paragraph: str) -> bytes:
    doc = Document(str(ROOT / "templates" / "docx" / "auto_de_infracao.docx"))
    doc.add_paragraph(paragraph)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


HOSTILE_DOCX = [
    ("{% include 'segredo.txt' %}", ["não pode incluir", "segredo.txt", "auto_de_infracao.docx"]),
    ("{% import 'x.html' as x %}", ["não pode incluir", "auto_de_infracao.docx"]),
    ("{{ range(10**9) }}", ["grande demais", "auto_de_infracao.docx", "word/document.xml"]),
    ("{{ 'a' * 10**9 }}", ["limite", "auto_de_infracao.docx"]),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", ["repetições"]),
    ("{{ autuado.apelido }}", ["indefinido", "apelido", "auto_de_infracao.docx", "word/document.xml"]),
    ("{% if minuta %}sem fim", ["erro de sintaxe", "auto_de_infracao.docx", "word/document.xml"]),
    ("{{ 1 / 0 }}", ["divisão por zero", "auto_de_infracao.docx"]),
]


@pytest.mark.parametrize(("paragraph", "words"), HOSTILE_DOCX, ids=[p for p, _ in HOSTILE_DOCX])
def test_hostile_docx_template_is_refused_with_exit_2(tmp_path: Path, paragraph: str, words: list[str]) -> None:
    templates = _templates(tmp_path)
    (templates / "docx" / "auto_de_infracao.docx").write_bytes(_docx_with(paragraph))
    _assert_refused(tmp_path, templates, "docx", words)


@functools.cache
def _with_member(name: str, size: int) -> bytes:
    """The auto's DOCX template with one more member of ``size`` zero bytes (a few hundred kB compressed)."""
    buf = io.BytesIO((ROOT / "templates" / "docx" / "auto_de_infracao.docx").read_bytes())
    with zipfile.ZipFile(buf, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z, z.open(name, "w") as fh:
        chunk = bytes(1 << 20)
        for _ in range(size >> 20):
            fh.write(chunk)
    return buf.getvalue()


def _declare_size(data: bytes, name: str, size: int) -> bytes:
    """``data`` with the central directory saying that member ``name`` inflates to ``size`` bytes (a lie)."""
    raw = bytearray(data)
    entry = raw.index(b"PK\x01\x02")
    while raw[entry + 46:entry + 46 + len(name)] != name.encode():
        entry = raw.index(b"PK\x01\x02", entry + 4)
    struct.pack_into("<I", raw, entry + 24, size)
    return bytes(raw)


def test_docx_template_with_a_400_mb_member_is_refused_before_inflating(tmp_path: Path) -> None:
    templates = _templates(tmp_path)
    bomb = _with_member("word/media/bomba.bin", 400 << 20)
    assert len(bomb) < 2_000_000
    (templates / "docx" / "auto_de_infracao.docx").write_bytes(bomb)
    _assert_refused(tmp_path, templates, "docx", ["word/media/bomba.bin", "419.430.400 bytes", "limite",
                                                  "auto_de_infracao.docx"])


def test_docx_member_larger_than_it_declares_is_refused(tmp_path: Path) -> None:
    """A member whose central directory entry says 1 kB but inflates to 400 MB stops at the declared size."""
    templates = _templates(tmp_path)
    liar = _declare_size(_with_member("word/media/bomba.bin", 400 << 20), "word/media/bomba.bin", 1024)
    (templates / "docx" / "auto_de_infracao.docx").write_bytes(liar)
    _assert_refused(tmp_path, templates, "docx", ["não é um documento Word válido", "auto_de_infracao.docx"])


def test_docx_template_that_is_a_symlink_to_outside_is_refused(tmp_path: Path) -> None:
    templates = _templates(tmp_path)
    outside = tmp_path / "outro.docx"
    shutil.copy(templates / "docx" / "auto_de_infracao.docx", outside)
    (templates / "docx" / "auto_de_infracao.docx").unlink()
    (templates / "docx" / "auto_de_infracao.docx").symlink_to(outside)
    _assert_refused(tmp_path, templates, "docx", ["fora da pasta de modelos", "auto_de_infracao.docx"])


def test_docx_keeps_the_users_text_as_typed(tmp_path: Path) -> None:
    """docxtpl's escaped tags ({_{ }_}, {_% %_}) in the case's text are not turned into {{ }} / {% %}."""
    typed = "marcas {_{ x }_} e {_% y %_} digitadas pelo fiscal"
    case = tmp_path / "caso.yaml"
    text = COMPLETE.read_text(encoding="utf-8").replace("120 kg de queijo minas", f"120 kg ({typed}) de queijo minas")
    assert typed in text
    case.write_text(text, encoding="utf-8")
    code, output, _exc = _gerar(ROOT / "templates", tmp_path / "saida", "docx", case)
    assert code == 0, output
    extracted = docx_text(next((tmp_path / "saida").glob("*.docx")).read_bytes())
    assert typed in extracted
    assert "{{ x }}" not in extracted


def test_docx_template_escaped_tags_still_write_literal_tags(tmp_path: Path) -> None:
    """In the template itself, {_{ … }_} still writes a literal {{ … }} (docxtpl's documented escape)."""
    templates = _templates(tmp_path)
    (templates / "docx" / "auto_de_infracao.docx").write_bytes(_docx_with("literal {_{ campo }_} e {_% se %_} fim"))
    code, output, _exc = _gerar(templates, tmp_path / "saida", "docx")
    assert code == 0, output
    assert "literal {{ campo }} e {% se %} fim" in docx_text(next((tmp_path / "saida").glob("*.docx")).read_bytes())


def test_docx_template_with_an_entity_bomb_is_refused(tmp_path: Path) -> None:
    """An XML entity bomb ("billion laughs") in word/document.xml is not expanded: exit 2, not memory."""
    entities = '<!ENTITY lol0 "lollollollollollollollollollol">' + "".join(
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    source = zipfile.ZipFile(io.BytesIO((ROOT / "templates" / "docx" / "auto_de_infracao.docx").read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                head, rest = data.decode("utf-8").split("?>", 1)
                rest = rest.replace("</w:body>", "<w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body>", 1)
                data = f"{head}?><!DOCTYPE w:document [{entities}]>{rest}".encode()
            z.writestr(info, data)
    templates = _templates(tmp_path)
    (templates / "docx" / "auto_de_infracao.docx").write_bytes(out.getvalue())
    _assert_refused(tmp_path, templates, "docx", ["não é um documento Word válido", "auto_de_infracao.docx"])
