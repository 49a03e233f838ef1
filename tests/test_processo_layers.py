"""The processo subpackage stays below the renderers and the CLI (anchors.md §3), with a small public API."""

from __future__ import annotations

import ast
from pathlib import Path

import autos.processo

PACKAGE = Path(autos.processo.__file__).parent
FORBIDDEN = {"click", "jinja2", "weasyprint", "docxtpl", "pypdf", "lxml", "starlette", "sqlite3"}
FORBIDDEN_INTERNAL = {"cli", "publish", "render_pdf", "render_docx", "pipeline", "ledger", "context", "verify"}
#: modules that compute and must not touch files or the clock
PURE = {"model.py", "timeline.py"}


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
    for file in PACKAGE.glob("*.py"):
        for name in _imports(file):
            top = name.lstrip(".").split(".")[0]
            assert top not in FORBIDDEN, (file.name, name)
            if name.startswith(".."):
                assert name.lstrip(".").split(".")[0] not in FORBIDDEN_INTERNAL, (file.name, name)


def test_compute_modules_do_no_io_and_read_no_clock() -> None:
    for name in PURE:
        text = (PACKAGE / name).read_text(encoding="utf-8")
        for banned in ("open(", "read_text", "write_text", "date.today", "datetime.now", "load_yaml"):
            assert banned not in text, (name, banned)


def test_public_names_are_exported_and_sorted() -> None:
    names = autos.processo.__all__
    assert names == sorted(names)
    for n in names:
        assert hasattr(autos.processo, n), n
