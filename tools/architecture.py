"""The module table of ``docs/arquitetura.md``, from the modules' own docstrings.

Every module under ``src/autos`` is listed once, in its package, with the first sentence of its docstring; the
table sits between the markers ``<!-- modulos:inicio -->`` and ``<!-- modulos:fim -->`` of the guide.
``tests/test_architecture_guide.py`` fails when the guide's table differs from this one (a module added, moved
or removed without the guide), so the guide cannot fall behind the code.

    .venv/bin/python tools/architecture.py          # rewrite the table in docs/arquitetura.md
    .venv/bin/python tools/architecture.py --check  # exit 1 when the table is out of date
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
GUIDE = ROOT / "docs" / "arquitetura.md"
START, END = "<!-- modulos:inicio -->", "<!-- modulos:fim -->"
#: words a full stop follows without ending the sentence
_ABBREVIATIONS = {"e.g", "i.e", "art", "arts", "nº", "p", "etc", "cf", "vs", "sr", "sra"}


def _first_sentence(doc: str) -> str:
    """The docstring's first sentence, on one line, without the reST roles (``:mod:`x``` → ``x``)."""
    text = " ".join(doc.split("\n\n")[0].split())
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"``\1``", text)
    for match in re.finditer(r"\.(\s|$)", text):
        before = text[: match.start()].rsplit(" ", 1)[-1].lower()
        if before not in _ABBREVIATIONS and not text[: match.start()].endswith("``"):
            text = text[: match.start() + 1]
            break
    return text.replace("|", "\\|")


def module_rows() -> list[tuple[str, str, str]]:
    """(package, module, first sentence) for every module of ``src/autos``, packages in path order."""
    rows = []
    for path in sorted((SRC / "autos").rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(SRC)
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        package = "/".join(rel.parts[:-1])
        rows.append((package, rel.name, _first_sentence(doc)))
    return sorted(rows, key=lambda r: (r[0], r[1] != "__init__.py", r[1]))


def table() -> str:
    """The Markdown of the module table, one section per package."""
    out: list[str] = []
    package = None
    for pkg, name, sentence in module_rows():
        if pkg != package:
            out += ["", f"#### `{pkg}/`", "", "| module | what it is |", "|---|---|"]
            package = pkg
        out.append(f"| `{name}` | {sentence or '(no docstring)'} |")
    return "\n".join(out).strip() + "\n"


def rewritten(guide: str) -> str:
    """The guide with its table replaced by the current one."""
    head, rest = guide.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n\n{table()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    guide = GUIDE.read_text(encoding="utf-8")
    new = rewritten(guide)
    if "--check" in argv:
        if new != guide:
            print(f"{GUIDE.relative_to(ROOT)}: a tabela de módulos está desatualizada; rode tools/architecture.py")
            return 1
        return 0
    GUIDE.write_text(new, encoding="utf-8")
    print(f"tabela de módulos gravada em {GUIDE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
