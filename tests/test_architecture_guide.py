"""The developers' guide (docs/arquitetura.md) lists every module of src/autos with the first sentence of its
docstring, as tools/architecture.py generates it: a module added, moved or removed without the guide fails here."""

from __future__ import annotations

import importlib.util
import sys

from .conftest import ROOT


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("architecture", ROOT / "tools" / "architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["architecture"] = module
    spec.loader.exec_module(module)
    return module


def test_the_guide_lists_every_module_with_its_docstring() -> None:
    tool = _tool()
    guide = (ROOT / "docs" / "arquitetura.md").read_text(encoding="utf-8")
    assert tool.rewritten(guide) == guide, "docs/arquitetura.md está desatualizado: rode tools/architecture.py"


def test_every_module_has_a_docstring_to_list() -> None:
    missing = [f"{pkg}/{name}" for pkg, name, sentence in _tool().module_rows() if not sentence]
    assert not missing, missing


def test_the_guide_names_every_package_of_app_and_every_layer() -> None:
    guide = (ROOT / "docs" / "arquitetura.md").read_text(encoding="utf-8")
    src = ROOT / "src" / "autos"
    for pkg in sorted(p.name for p in (src / "app").iterdir() if p.is_dir() and p.name != "__pycache__"):
        assert f"`app/{pkg}/`" in guide, pkg
    for layer in sorted(p.name for p in src.iterdir() if p.is_dir() and p.name != "__pycache__"):
        assert f"`{layer}/`" in guide, layer
