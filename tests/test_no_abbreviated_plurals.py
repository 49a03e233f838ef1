"""No message the user reads writes a count as "caso(s)", "edital(is)", "dia(s)": every string
literal of the code that is not a docstring is scanned; a count agrees with its noun through base/ptbr.count_noun."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from .conftest import ROOT

#: a Portuguese word with its plural or gender ending in parentheses ("caso(s)", "edital(is)", "notificado(a)")
ABBREVIATED = re.compile(r"[a-zà-ú]\((?:s|es|is|ns|a|as|os)\)")
FIELD = re.compile(r"\{[^{}]*\}")
SOURCES = sorted((ROOT / "src" / "autos").rglob("*.py"))


def abbreviated_in(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each non-docstring string literal of ``path`` that abbreviates a plural."""
    found: list[tuple[int, str]] = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        is_docstring = previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        if tok.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)) and not is_docstring:
            text = tok.string
            while (plain := FIELD.sub("", text)) != text:  # an f-string's {expressions} are code, not text
                text = plain
            for m in ABBREVIATED.finditer(text):
                found.append((tok.start[0], m.group(0)))
        previous = tok.type
    return found


def test_the_scanner_finds_an_abbreviated_plural_and_skips_docstrings(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text('"""Counts the act(s)."""\n\ndef f(n: int) -> str:\n    """The edital(is)."""\n'
                      '    return f"{n} caso(s) lido(s) {_n(s)}"\n', encoding="utf-8")
    assert abbreviated_in(sample) == [(5, "o(s)"), (5, "o(s)")]


def test_no_user_message_abbreviates_a_plural() -> None:
    found = {str(p.relative_to(ROOT)): hits for p in SOURCES if (hits := abbreviated_in(p))}
    assert not found, found
