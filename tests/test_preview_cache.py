"""The preview cache (``autos.app.register.preview.PreviewCache``): the same preview asked again while nothing it
depends on changed is not rendered again; a changed processo file (even with the same size and modification time), another
act, another reference date or a changed rule or template file is another key, so a stale PDF is never served;
bounded in count and bytes (least recently used dropped first).

Two PDFs are rendered in the whole module (the preview before and after the file is edited)."""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from autos.app.generation.pipeline import Autos
from autos.app.register.preview import Preview, PreviewCache, preview

from .conftest import ROOT, SAMPLES, TODAY
from .textutil import pdf_text

pytestmark = pytest.mark.xdist_group("test_preview_cache")

SEM_DEFESA = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
FATOS = "de 18 kg de linguiça suína frescal em bandejas"
NOVOS = "de 18 kg de chouriço suíno caseiro em bandejas"  # same length in bytes


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / SEM_DEFESA.name
    shutil.copy(SEM_DEFESA, target)
    return target


def test_a_changed_file_never_gets_the_stale_pdf(autos: Autos, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    file = _copy(tmp_path)
    rendered: list[str] = []
    real = autos.pdf_renderer.pdf

    def counting(template: str, context: dict[str, Any], **kw: Any) -> bytes:
        rendered.append(template)
        return real(template, context, **kw)

    monkeypatch.setattr(autos.pdf_renderer, "pdf", counting)
    cache = PreviewCache()
    first = preview(autos, file, 1, cache=cache)
    assert not first.cached and FATOS in pdf_text(first.pdf)
    again = preview(autos, file, 1, "auto_de_infracao", cache=cache)  # the same document, named
    # "auto_de_infracao" and the default (the act's first document) are two keys: the named one is rendered
    assert not again.cached and len(rendered) == 2
    again = preview(autos, file, 1, cache=cache)
    assert again.cached and again.pdf == first.pdf and len(rendered) == 2
    assert [f.codigo for f in again.achados] == [f.codigo for f in first.achados] and again.nome == first.nome
    assert (cache.hits, cache.misses) == (1, 2)

    # the clerk edits the file: same size, and the modification time put back as it was; the bytes differ
    st = file.stat()
    text = file.read_text(encoding="utf-8")
    assert FATOS in text and len(FATOS.encode()) == len(NOVOS.encode())
    file.write_text(text.replace(FATOS, NOVOS), encoding="utf-8")
    os.utime(file, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert file.stat().st_size == st.st_size and file.stat().st_mtime_ns == st.st_mtime_ns
    edited = preview(autos, file, 1, cache=cache)
    assert not edited.cached and len(rendered) == 3
    text_pdf = pdf_text(edited.pdf)
    assert NOVOS in text_pdf and FATOS not in text_pdf


def test_the_key_covers_what_the_pdf_depends_on(tmp_path: Path) -> None:
    """No rendering: the key changes with the file's bytes, its path, the act, the document, the reference date,
    a rule file, the stylesheet and the letterhead image, each on its own."""
    rules, templates = tmp_path / "rules", tmp_path / "templates"
    shutil.copytree(ROOT / "rules", rules)
    shutil.copytree(ROOT / "templates", templates)
    autos = Autos(rules, templates, today=TODAY)
    file = _copy(tmp_path)
    source = file.read_bytes()

    def key(**kw: Any) -> str:
        args: dict[str, Any] = {"file": file, "source": source, "ato": 1, "documento": None, "now": None} | kw
        return PreviewCache.key(autos, args["file"], args["source"], args["ato"], args["documento"], args["now"])

    base = key()
    assert key() == base
    other = tmp_path / "outro.yaml"
    other.write_bytes(source)
    keys = [key(source=source.replace(b"frescal", b"fresca ")), key(file=other), key(ato=2),
            key(documento="termo_apreensao")]
    autos.today = date(2026, 12, 1)
    keys.append(key())
    autos.today = TODAY
    assert key() == base
    for changed in (templates / "html" / "base.css", templates / "html" / "timbre" / "padrao.png",
                    next(rules.glob("*/*.yaml"))):
        before = changed.read_bytes()
        changed.write_bytes(before + b"\n")
        keys.append(key())
        changed.write_bytes(before)
        st = changed.stat()
        os.utime(changed, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # touched: same bytes, newer
        keys.append(key())
    assert len({base, *keys}) == len(keys) + 1


def _fake(n: int, size: int) -> Preview:
    return Preview(1, "auto_de_infracao", "Auto de Infração", f"p{n}.pdf", b"%PDF-" + bytes(size), False, [])


def test_bounded_least_recently_used_first() -> None:
    cache = PreviewCache(max_entries=2, max_bytes=10_000)
    cache.put("a", _fake(1, 100))
    cache.put("b", _fake(2, 100))
    assert cache.get("a") is not None  # a is now the most recently used
    cache.put("c", _fake(3, 100))
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None and len(cache) == 2
    cache.put("d", _fake(4, 9_900))  # over the bytes with a and c: the least recently used go
    assert len(cache) == 1 and cache.get("d") is not None
    cache.put("e", _fake(5, 20_000))  # larger than the whole cache: not kept
    assert cache.get("e") is None and cache.get("d") is not None
