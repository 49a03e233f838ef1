"""A template is compiled once per process while its source is unchanged, whichever renderer asks for it
(render.sandbox.SharedCode for HTML, render.docx._CODE for the parts of a DOCX template)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autos.render.docx import CompileOnceEnvironment
from autos.render.pdf import PdfRenderer
from autos.render.sandbox import BoundedEnvironment


@pytest.fixture()
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources Jinja compiles (every bounded environment compiles through BoundedEnvironment.compile)."""
    seen: list[str] = []
    original = BoundedEnvironment.compile

    def counting(self: Any, source: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(source if isinstance(source, str) else "<ast>")
        return original(self, source, *args, **kwargs)

    monkeypatch.setattr(BoundedEnvironment, "compile", counting)
    return seen


def test_html_template_compiled_once_and_again_when_it_changes(tmp_path: Path, compiled: list[str]) -> None:
    (tmp_path / "html").mkdir()
    probe = tmp_path / "html" / "sonda.html"
    probe.write_text("<p>Olá, {{ nome }}!</p>", encoding="utf-8")
    assert PdfRenderer(tmp_path).html("sonda", {"nome": "Maria"}) == "<p>Olá, Maria!</p>"
    assert len(compiled) == 1
    assert PdfRenderer(tmp_path).html("sonda", {"nome": "<José>"}) == "<p>Olá, &lt;José&gt;!</p>"  # still escaped
    assert len(compiled) == 1  # a second renderer of the same folder reuses the code
    probe.write_text("<p>Bom dia, {{ nome }}.</p>", encoding="utf-8")
    assert PdfRenderer(tmp_path).html("sonda", {"nome": "Maria"}) == "<p>Bom dia, Maria.</p>"
    assert len(compiled) == 2  # the changed source is compiled, not served from before
    other = tmp_path / "outra"
    (other / "html").mkdir(parents=True)
    (other / "html" / "sonda.html").write_text("<p>{{ nome }} (outra pasta)</p>", encoding="utf-8")
    assert PdfRenderer(other).html("sonda", {"nome": "Maria"}) == "<p>Maria (outra pasta)</p>"
    assert len(compiled) == 3


def test_docx_part_compiled_once_per_source(compiled: list[str]) -> None:
    source = "<w:t>{{ nome }} — caso de teste de compilação</w:t>"
    first, second = CompileOnceEnvironment(), CompileOnceEnvironment()
    assert first.from_string(source).render({"nome": "A&B"}) == "<w:t>A&amp;B — caso de teste de compilação</w:t>"
    assert second.from_string(source).render({"nome": "C"}) == "<w:t>C — caso de teste de compilação</w:t>"
    assert compiled.count(source) == 1  # once in this process, for both environments
    changed = source.replace("teste", "prova")
    assert second.from_string(changed).render({"nome": "C"}) == "<w:t>C — caso de prova de compilação</w:t>"
    assert compiled.count(changed) == 1
