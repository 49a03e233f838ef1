"""Move the modules of ``src/autos`` into the stage subpackages of anchors.md §3 and rewrite every reference.

Issue 11, item 7 ("the house follows the data"), phase 1. Idempotent: running it on an already moved tree changes
nothing, and running it on a tree where some files were written against the old layout (old module names, relative
imports, files at old paths) moves those files and rewrites those references only.

What it does, in order:

1. every ``from .x import y`` / ``from ..x import y`` under ``src/autos`` becomes an absolute ``from autos.… import``
   (resolved at the file's current place, before any move);
2. ``git mv`` of every file still at an old path (``files()``: ``MODULES`` and ``EXTRA_FILES``), and an
   ``__init__.py`` for each new subpackage;
3. in ``src/``, ``tests/``, ``bench/``, ``tools/`` (and pyproject.toml, setup.py, MANIFEST.in, README.md, docs/):
   import statements of an old module are rewritten to the new one (``MODULES``), names that left their module
   are imported from where they now live (``NAMES``), and dotted names and file paths inside strings, comments and
   Markdown (``"autos.pipeline.Autos"``, ``src/autos/processo/acts.py``) follow. A bare ``autos.rules`` in prose
   is read as the old module (now ``autos.rules.statute``): name the new package as ``rules/`` in prose;
4. ``ruff check --select I --fix`` on the changed Python files, when ruff is installed, to keep the imports sorted.

Usage: ``python tools/relayout.py [--dry-run]`` from the repository root.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

#: old module -> new module (modules not listed keep their name: autos.errors,
#: autos.cli, autos.processo.model, autos.processo.load, autos.processo.fields)
MODULES: dict[str, str] = {
    # base: reading YAML, citations, pt-BR wording, pydantic helpers, where the data lives
    "autos.yamlio": "autos.base.yamlio",
    "autos.citation": "autos.base.citation",
    "autos.ptbr": "autos.base.ptbr",
    "autos.schema": "autos.base.schema",
    "autos.resources": "autos.base.resources",
    # processo: the input files (a case, a processo) as models, loaded strictly
    "autos.case": "autos.processo.case",
    "autos.load": "autos.processo.load_case",
    # rules: the law as data (statute, calendar, deadline rules, procedure)
    "autos.rules": "autos.rules.statute",
    "autos.calendar": "autos.rules.calendar",
    "autos.deadlines": "autos.rules.deadlines",  # its counting half: autos.compute.deadlines (NAMES)
    "autos.processo.procedure": "autos.rules.procedure",
    # compute: fines and timelines (no files, no clock)
    "autos.fines": "autos.compute.fines",
    "autos.processo.timeline": "autos.compute.timeline",
    # checks: findings
    "autos.validate": "autos.checks.validate",
    "autos.processo.check": "autos.checks.processo",
    "autos.processo.acts": "autos.checks.acts",
    # documents: the typed contexts and their pt-BR wording
    "autos.context": "autos.documents.context",
    "autos.notice": "autos.documents.notice",
    # render: context in, bytes out
    "autos.render_pdf": "autos.render.pdf",
    "autos.render_docx": "autos.render.docx",
    "autos.sandbox": "autos.render.sandbox",
    # store: files written atomically
    "autos.output": "autos.store.files",
    # app: the facade and the services that read folders, take the clock, start pools
    "autos.pipeline": "autos.app.pipeline",
    "autos.verify": "autos.app.verify",
    "autos.workers": "autos.app.workers",
    "autos.processo.app": "autos.app.processo",
    "autos.processo.new": "autos.app.new_processo",
    "autos.processo.schema": "autos.app.schemas",
    # cli: commands and their text formatting (autos.cli itself keeps its name: cli.py -> cli/__init__.py)
    "autos.describe": "autos.cli.describe",
    # the edital publication, split along its stages (issue 11, item 7): the batch and the ledger
    "autos.publish": "autos.app.publish",
    "autos.ledger": "autos.store.ledger",
    "autos.processo.formats": "autos.cli.processo_formats",
}

#: (module, name) -> module the name now lives in; the module is given by its new name
NAMES: dict[tuple[str, str], str] = {
    ("autos.checks.validate", "Finding"): "autos.checks.finding",
    ("autos.checks.validate", "Report"): "autos.checks.finding",
    ("autos.checks.validate", "resolve"): "autos.base.dotted",
    ("autos.checks.validate", "law_deadlines"): "autos.rules.deadlines",
    ("autos.compute.fines", "fine_findings"): "autos.checks.fines",
    ("autos.documents.context", "DeadlineLine"): "autos.documents.lines",
    ("autos.documents.context", "costs_by_day"): "autos.compute.fines",
    ("autos.documents.notice", "rule_term"): "autos.documents.lines",
    ("autos.base.schema", "case_json_schema"): "autos.app.schemas",
    # the deadline module: its rules and their loading stay in rules/, the counting goes to compute/
    **{("autos.rules.deadlines", n): "autos.compute.deadlines"
       for n in ("DATE_FACTS", "DEFAULT_FACT_PATHS", "Deadline", "NoticeFacts", "SkippedDay", "add_months", "compute",
                 "cycle_dates", "deadlines_after_notice", "notice_effective")},
    # the package autos.processo no longer re-exports what lives in other layers
    **{("autos.processo", n): "autos.app.processo"
       for n in ("PendingReport", "PendingRow", "ProcessoService", "is_processo_file")},
    **{("autos.processo", n): "autos.rules.procedure" for n in ("Procedure", "load_procedure")},
    **{("autos.processo", n): "autos.compute.timeline"
       for n in ("DeadlineState", "Finding", "Pending", "Timeline", "check_timeline", "urgency_of")},
    # what left publish.py: who needs an edital, the worker side, the gazette and codes, autos conferir
    **{("autos.app.publish", n): "autos.compute.edital"
       for n in ("AUTO_KIND", "INDIVIDUAL_KIND", "DEFAULT_JORNAL", "Decision", "Publication", "classify", "derive",
                 "default_veiculo", "edital_date", "edital_rule", "needs_newspaper")},
    **{("autos.app.publish", n): "autos.app.edital_jobs"
       for n in ("CONSOLIDATED_TEMPLATE", "CaseJob", "Failed", "Prepared", "RunParams", "Written", "case_failure")},
    **{("autos.app.publish", n): "autos.render.gazette"
       for n in ("CODE_RE", "DOC_CODE_LABEL", "GAZETTE_CODE_LABEL", "GazetteBuilder", "verification_code",
                 "with_code")},
    **{("autos.app.publish", n): "autos.app.conferir"
       for n in ("FILE_LABELS", "LEDGER_ENV", "Verification", "verify_file")},
}

#: file moves beyond the module ones (a module that becomes a package)
EXTRA_FILES: dict[str, str] = {"autos/cli.py": "autos/cli/__init__.py"}

NEW_PACKAGES = {
    "base": "Stage 0: reading YAML with lines, citations, pt-BR wording, pydantic helpers (anchors.md §3).",
    "rules": "The law as data: statutes, calendars, deadline rules, procedures, strictly loaded from rules/.",
    "compute": "Fines and timelines computed from the rules and the facts: no files, no clock.",
    "checks": "Findings: a case or a processo checked against its law.",
    "documents": "One typed context per document kind, with its pt-BR wording.",
    "render": "Renderers: a context in, the bytes of a PDF, DOCX or HTML out.",
    "store": "What the library writes to disk: atomic file writes.",
    "app": "The Autos facade and the services that read folders, take the clock and start process pools.",
}

LINE = 120
PY_DIRS = ("src", "tests", "bench", "tools")
#: .importlinter is not rewritten: it names the new packages (``autos.rules``), which the prose pass would read as
#: the old module autos.rules
TEXT_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
TEXT_DIRS = ("docs",)


def _file_of(module: str) -> str:
    return module.replace(".", "/") + ".py"


def files() -> dict[str, str]:
    """Old file (relative to src/) -> new file."""
    out = {_file_of(old): _file_of(new) for old, new in MODULES.items()}
    out.update(EXTRA_FILES)
    return out


def new_modules() -> set[str]:
    """Every module and package of the new layout (those on disk, those the mapping creates)."""
    found: set[str] = set()
    for f in (SRC / "autos").rglob("*.py"):
        parts = f.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        for i in range(1, len(parts) + 1):
            found.add(".".join(parts[:i]))
    for new in (*MODULES.values(), *NAMES.values()):
        parts = new.split(".")
        found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return (found - set(MODULES)) | set(MODULES.values())


NEW: set[str] = set()


def _longest(parts: list[str], table: set[str] | dict[str, str]) -> int:
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in table:
            return n
    return 0


def map_module(module: str) -> str:
    """The new name of a module written with its old one; a new name is returned unchanged."""
    parts = module.split(".")
    n_old = _longest(parts, MODULES)
    if n_old == 0 or _longest(parts, NEW) > n_old:
        return module
    return ".".join([MODULES[".".join(parts[:n_old])], *parts[n_old:]])


def map_dotted(dotted: str) -> str:
    """A dotted reference (``autos.validate.Finding``) to its new place."""
    mapped = map_module(dotted)
    parts = mapped.split(".")
    for n in range(len(parts) - 1, 0, -1):
        key = (".".join(parts[:n]), parts[n])
        if key in NAMES:
            return ".".join([NAMES[key], *parts[n:]])
    return mapped


# ------------------------------------------------------------------------------------------------ import statements


def _module_of_file(path: Path) -> tuple[str, bool]:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def _absolute(node: ast.ImportFrom, path: Path) -> str:
    module, is_pkg = _module_of_file(path)
    package = module.split(".") if is_pkg else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _alias(a: ast.alias) -> str:
    return f"{a.name} as {a.asname}" if a.asname else a.name


def _from_text(module: str, names: list[str], indent: str) -> str:
    line = f"from {module} import {', '.join(names)}"
    if len(indent) + len(line) <= LINE:
        return line
    inner = "".join(f"{indent}    {n},\n" for n in names)
    return f"from {module} import (\n{inner}{indent})"


def _rewrite_from(node: ast.ImportFrom, module: str, indent: str) -> str | None:
    """The new text of ``from <module> import …``, or None when nothing changes."""
    groups: dict[str, list[str]] = {}
    changed = node.level > 0
    # ``from autos.rules import procedure``: the package autos.rules of the new layout, not the old module
    submodules = all(f"{module}.{a.name}" in NEW for a in node.names)
    new_module = module if submodules else map_module(module)
    changed |= new_module != module
    for a in node.names:
        target = new_module
        name = a.name
        asname = a.asname
        full = f"{new_module}.{a.name}"
        if (new_module, a.name) in NAMES:
            target = NAMES[(new_module, a.name)]
            changed = True
        elif full in MODULES and map_module(full) != full:
            # ``from autos import ptbr`` with autos.ptbr moved: import it from its new package
            moved = MODULES[full]
            target, name = moved.rsplit(".", 1)
            if name != a.name:
                asname = asname or a.name
            changed = True
        groups.setdefault(target, []).append(f"{name} as {asname}" if asname and asname != name else name)
    if not changed:
        return None
    lines = [_from_text(m, names, indent) for m, names in groups.items()]
    return f"\n{indent}".join(lines)


def _rewrite_import(node: ast.Import) -> str | None:
    out = []
    changed = False
    for a in node.names:
        new = map_module(a.name) if a.name.startswith("autos.") else a.name
        changed |= new != a.name
        out.append(f"{new} as {a.asname}" if a.asname else new)
    return f"import {', '.join(out)}" if changed else None


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def rewrite_imports(text: str, path: Path, relative_only: bool = False) -> str:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    starts = _offsets(text)
    edits: list[tuple[int, int, str]] = []
    in_src = path.is_relative_to(SRC / "autos")
    for node in ast.walk(tree):
        new: str | None = None
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.end_lineno is None or node.end_col_offset is None:
            continue
        indent = text[starts[node.lineno - 1]:starts[node.lineno - 1] + node.col_offset]
        indent = indent if indent.strip() == "" else ""
        if isinstance(node, ast.ImportFrom):
            if node.level > 0:
                if not in_src:
                    continue
                module = _absolute(node, path)
                if relative_only:
                    new = _from_text(module, [_alias(a) for a in node.names], indent)
                else:
                    new = _rewrite_from(node, module, indent)
            elif node.module and (node.module == "autos" or node.module.startswith("autos.")) and not relative_only:
                new = _rewrite_from(node, node.module, indent)
        elif isinstance(node, ast.Import) and not relative_only:
            new = _rewrite_import(node)
        if new is not None:
            a = starts[node.lineno - 1] + node.col_offset
            b = starts[node.end_lineno - 1] + node.end_col_offset
            edits.append((a, b, new))
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text


# ------------------------------------------------------------------------------------ strings, comments and prose

_DOTTED = re.compile(r"(?<![\w.])autos(?:\.[A-Za-z_]\w*)+(?![\w(])")
_PATH = re.compile(r"(?<![\w/.])((?:src/)?)(autos/[\w/]+\.py)\b")


def _prose(text: str) -> str:
    def dotted(m: re.Match[str]) -> str:
        return map_dotted(m.group(0))

    table = files()

    def path(m: re.Match[str]) -> str:
        return m.group(1) + table.get(m.group(2), m.group(2))

    return _PATH.sub(path, _DOTTED.sub(dotted, text))


def rewrite_prose_in_python(text: str) -> str:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    starts = _offsets(text)
    edits = []
    for tok in tokens:
        if tok.type in (tokenize.STRING, tokenize.COMMENT):
            new = _prose(tok.string)
            if new != tok.string:
                a = starts[tok.start[0] - 1] + tok.start[1]
                b = starts[tok.end[0] - 1] + tok.end[1]
                edits.append((a, b, new))
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text


# ------------------------------------------------------------------------------------------------------- driver


def _git_mv(old: Path, new: Path, dry: bool) -> None:
    print(f"git mv {old.relative_to(ROOT)} {new.relative_to(ROOT)}")
    if dry:
        return
    new.parent.mkdir(parents=True, exist_ok=True)
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(old)], cwd=ROOT,
                             capture_output=True).returncode == 0
    if tracked:
        subprocess.run(["git", "mv", str(old), str(new)], cwd=ROOT, check=True)
    else:
        shutil.move(str(old), str(new))


def _python_files() -> list[Path]:
    out: list[Path] = []
    for d in PY_DIRS:
        out.extend(p for p in sorted((ROOT / d).rglob("*.py"))
                   if "/data/" not in str(p.relative_to(ROOT)) and p != Path(__file__).resolve())
    return out


def main(argv: list[str]) -> int:
    dry = "--dry-run" in argv
    changed: list[Path] = []
    # 1. relative imports -> absolute, at the files' current places
    for f in sorted((SRC / "autos").rglob("*.py")):
        text = f.read_text(encoding="utf-8")
        new = rewrite_imports(text, f, relative_only=True)
        if new != text:
            changed.append(f)
            if not dry:
                f.write_text(new, encoding="utf-8")
    # 2. moves (a new file written at an old place by someone else is moved too, unless the new place is taken)
    for old, new in files().items():
        o, n = SRC / old, SRC / new
        if o.exists() and not n.exists():
            _git_mv(o, n, dry)
        elif o.exists():
            print(f"warning: both {old} and {new} exist; left {old} where it is", file=sys.stderr)
    for pkg, doc in NEW_PACKAGES.items():
        init = SRC / "autos" / pkg / "__init__.py"
        if not init.exists() and not dry:
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    NEW.clear()
    NEW.update(new_modules())
    # 3. references
    for f in _python_files():
        text = f.read_text(encoding="utf-8")
        new = rewrite_prose_in_python(rewrite_imports(text, f))
        if new != text:
            changed.append(f)
            print(f"rewrote {f.relative_to(ROOT)}")
            if not dry:
                f.write_text(new, encoding="utf-8")
    prose = [ROOT / n for n in TEXT_FILES] + [p for d in TEXT_DIRS for p in sorted((ROOT / d).rglob("*.md"))]
    for f in prose:
        if not f.exists():
            continue
        text = f.read_text(encoding="utf-8")
        new = _prose(text)
        if new != text:
            print(f"rewrote {f.relative_to(ROOT)}")
            if not dry:
                f.write_text(new, encoding="utf-8")
    # 4. keep the imports sorted
    ruff = str(ROOT / ".venv" / "bin" / "ruff")
    ruff = ruff if Path(ruff).exists() else (shutil.which("ruff") or ruff)
    py = sorted({str(p) for p in changed if p.exists()})
    if py and not dry and Path(ruff).exists():
        subprocess.run([ruff, "check", "--quiet", "--select", "I", "--fix", *py], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
