"""The processo subpackage stays below the renderers and the CLI (anchors.md §3), with a small public API.

The whole layering is the import-linter contracts in .importlinter (``lint-imports``); these tests keep the
checks that a contract cannot state: no file I/O and no clock in the modules that compute.
"""

from __future__ import annotations

import ast
from pathlib import Path

import autos.processo

SRC = Path(autos.processo.__file__).parent.parent
PACKAGE = SRC / "processo"
FORBIDDEN = {"click", "jinja2", "weasyprint", "docxtpl", "pypdf", "lxml", "starlette", "sqlite3"}
#: the stages above the processo models
FORBIDDEN_INTERNAL = {"cli", "publish", "render", "app", "ledger", "documents", "store", "checks", "compute"}
#: modules that compute and must not touch files or the clock
PURE = {"processo/model.py", "compute/timeline.py"}


def _imports(file: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.add(base)
    return out


def test_processo_imports_no_renderer_cli_or_publisher() -> None:
    files = list(PACKAGE.glob("*.py"))
    assert len(files) > 3
    for file in files:
        for name in _imports(file):
            assert not name.startswith("."), (file.name, name)  # imports are absolute
            parts = name.split(".")
            assert parts[0] not in FORBIDDEN, (file.name, name)
            if parts[0] == "autos":
                assert len(parts) > 1 and parts[1] not in FORBIDDEN_INTERNAL, (file.name, name)


def test_compute_modules_do_no_io_and_read_no_clock() -> None:
    for name in PURE:
        text = (SRC / name).read_text(encoding="utf-8")
        for banned in ("open(", "read_text", "write_text", "date.today", "datetime.now", "load_yaml"):
            assert banned not in text, (name, banned)


def test_public_names_are_exported_and_sorted() -> None:
    names = autos.processo.__all__
    assert names == sorted(names)
    for n in names:
        assert hasattr(autos.processo, n), n
