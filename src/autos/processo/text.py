"""Writing a processo file as text a person reads and diffs: one key a line, block style, a comment above.

One writer for every program that writes a processo from values (``autos novo``, the web form, the spreadsheet
import): a list of :class:`Slot` — the path of a key in the file, the comment above it and the value as YAML
text — becomes lines, indented two spaces a level, list items with ``- ``. Values are scalars written by
:func:`yaml_scalar`: plain where the text reads back as the same text with any YAML reader (``Rua das Flores``,
``2026-03-16`` for a date), double-quoted otherwise (``"14:30"``, ``"1500"``, ``"SIM-2026/000200"``, text with
``: `` or ``#``), a literal block (``|-``) for text of several lines. Nothing typed is changed: the reader of
:mod:`autos.base.yamlio` gives back exactly the text written (checked by the round-trip tests).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["PathKey", "Slot", "dotted", "parse_dotted", "render_slots", "yaml_scalar"]

PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Slot:
    """One line of the file: the key at ``path`` (``("atos", 0, "agente", "nome")``), the comment above it and
    the value as YAML text ("" = blank, or a mapping/list whose keys follow)."""

    path: PathKey
    comment: str = ""
    value: str = ""
    #: why the law asks for it (the element or rule, with the article); empty: optional
    reasons: tuple[str, ...] = field(default=())
    #: the values the rules allow, where they list them (gravity levels, species, a penalty's cases)
    choices: tuple[str, ...] = field(default=())


def dotted(path: PathKey) -> str:
    """``("atos", 0, "agente", "nome")`` → ``atos[0].agente.nome`` (the path findings and form fields use)."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


_PART = re.compile(r"([a-z_][a-z0-9_]*)((?:\[\d{1,4}\])*)")


def parse_dotted(text: str) -> PathKey | None:
    """The inverse of :func:`dotted`; None for anything else (a form field name is never trusted)."""
    out: list[str | int] = []
    for piece in text.split("."):
        m = _PART.fullmatch(piece)
        if m is None:
            return None
        out.append(m.group(1))
        out.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return tuple(out) if out else None


#: words YAML 1.1 readers (and some editors) turn into booleans or null when written plain
_SPECIAL_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", ""}
#: text that other YAML readers would read as a number, a date or a time: quoted
_NUMERIC = re.compile(r"[-+.:/0-9 _eE]*[0-9][-+.:/0-9 _eE]*")
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n\t]*")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def yaml_scalar(text: str, kind: str = "texto") -> str:
    """``text`` as a YAML scalar that any reader gives back as the same text.

    ``kind`` is the field's type (:func:`autos.processo.fields.field_kind`): a date written ``AAAA-MM-DD`` and
    ``true``/``false`` of a yes/no field stay plain, as a person writes them; other text that a YAML reader
    could take for a number, a date, a boolean or null is quoted."""
    if kind == "data" and _ISO_DATE.fullmatch(text):
        return text
    if kind == "sim_nao" and text in ("true", "false"):
        return text
    if "\n" in text and _block_ok(text):
        return text  # render_slots writes it as a literal block (|-)
    plain = (_PLAIN.fullmatch(text) is not None and ": " not in text and " #" not in text
             and not text.endswith((" ", ":")) and text.casefold() not in _SPECIAL_WORDS
             and _NUMERIC.fullmatch(text) is None)
    return text if plain else json.dumps(text, ensure_ascii=False)


def _block_ok(text: str) -> bool:
    """A literal block keeps ``text`` exactly: lines without tabs or trailing blanks, the first not indented,
    no trailing line break and no line that is only blanks."""
    lines = text.split("\n")
    return (not text.endswith("\n") and not lines[0].startswith(" ") and "\r" not in text and "\t" not in text
            and all(line == line.rstrip() and (line or i not in (0, len(lines) - 1)) for i, line in enumerate(lines)))


def render_slots(header: Iterable[str], slots: Sequence[Slot], *, base: int = 0) -> str:
    """The lines of ``slots`` in order, each preceded by its comment, under the ``header`` comment lines.

    A slot's key is indented two spaces per level of its path (a list index is a level; the first key of an
    item is written ``- key``); ``base`` shifts everything right (an act appended inside ``atos:``). A value of
    several lines (from :func:`yaml_scalar`) is written as a literal block."""
    lines = [f"# {h}" if h else "#" for h in header]
    started: set[PathKey] = set()
    for s in slots:
        level = len(s.path) - 1
        indent = " " * max(0, base + 2 * level)
        if isinstance(s.path[-1], int):  # an item of a list of texts: "- value"
            if s.comment:
                lines.append(f"{indent[:-2]}# {s.comment}")
            lines.append(f"{indent[:-2]}- {s.value}")
            continue
        item = len(s.path) >= 2 and isinstance(s.path[-2], int) and s.path[:-1] not in started
        started.add(s.path[:-1])
        if s.comment:
            lines.append(f"{indent[:-2]}# {s.comment}" if item else f"{indent}# {s.comment}")
        lead = f"{indent[:-2]}- " if item else indent
        if "\n" in s.value:  # a literal block: the text's lines, one level further in
            lines.append(f"{lead}{s.path[-1]}: |-")
            lines.extend(f"{indent}  {line}" if line else "" for line in s.value.split("\n"))
        else:
            lines.append(f"{lead}{s.path[-1]}:{' ' + s.value if s.value else ''}")
    return "\n".join(lines) + "\n"
