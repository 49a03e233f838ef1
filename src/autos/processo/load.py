"""Reading a processo file: strict YAML (the line of every value kept) into :class:`Processo`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from autos.base.schema import build_model
from autos.base.yamlio import FromYamlDoc, YamlDoc, load_yaml, parse_yaml
from autos.errors import InputError
from autos.processo.model import Processo

__all__ = ["LoadedProcesso", "from_doc", "is_processo_data", "load_processo", "parse_processo"]


@dataclass(frozen=True)
class LoadedProcesso(FromYamlDoc):
    """A processo and where each of its values is in the file.

    The acts are also indexed (by number, by the number they cite, by kind), each index built once, on first
    use: the checks ask "which act does act i cite?" or "which acts cite this one?" of every act, and a scan of the
    list for each answer made a processo's check grow with the square of its acts."""

    processo: Processo
    doc: YamlDoc

    @cached_property
    def _first_numbered(self) -> dict[str, int]:
        first: dict[str, int] = {}
        for i, a in enumerate(self.processo.atos):
            if a.numero is not None:
                first.setdefault(a.numero, i)
        return first

    @cached_property
    def _citing(self) -> dict[str | None, list[int]]:
        out: dict[str | None, list[int]] = {}
        for i, a in enumerate(self.processo.atos):
            out.setdefault(a.referente, []).append(i)
        return out

    @cached_property
    def _kinds(self) -> dict[frozenset[str], list[int]]:
        return {}

    @cached_property
    def _of_kind(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, a in enumerate(self.processo.atos):
            out.setdefault(a.tipo, []).append(i)
        return out

    def referenced(self, i: int) -> int | None:
        """The act that act ``i`` cites (``referente``): the first act before it with that number, if any."""
        ref = self.processo.atos[i].referente
        j = self._first_numbered.get(ref) if ref is not None else None
        return j if j is not None and j < i else None

    def citing(self, numero: str | None) -> list[int]:
        """The indexes, in order, of the acts whose ``referente`` is ``numero`` (``None``: the acts that cite
        nothing)."""
        return self._citing.get(numero, [])

    def of_kind(self, *kinds: str) -> list[int]:
        """The indexes, in order, of the acts of these kinds."""
        if len(kinds) == 1:
            return self._of_kind.get(kinds[0], [])
        key = frozenset(kinds)
        found = self._kinds.get(key)
        if found is None:
            found = self._kinds[key] = sorted(i for k in key for i in self._of_kind.get(k, []))
        return found

    def first_of_kind(self, kind: str) -> int | None:
        """The index of the first act of ``kind`` (the processo's auto, for the rite's initial kind)."""
        found = self._of_kind.get(kind)
        return found[0] if found else None


def is_processo_data(data: Any) -> bool:
    """A processo file is a mapping with ``atos:`` (a case file describes one document and has none)."""
    return isinstance(data, dict) and "atos" in data


def from_doc(doc: YamlDoc) -> LoadedProcesso:
    """The processo in an already parsed YAML document."""
    if not is_processo_data(doc.data):
        raise InputError("não é um arquivo de processo: falta a lista 'atos'.", file=doc.file,
                         hint="um processo tem lei, numero, autuado e a lista 'atos' (veja samples/processos).")
    return LoadedProcesso(build_model(Processo, doc, InputError), doc)


def load_processo(file: str | Path) -> LoadedProcesso:
    """Read a processo file; unreadable or invalid input is :class:`InputError` with file, path and line."""
    return from_doc(load_yaml(file, InputError))


def parse_processo(text: str, file: str | Path = "<texto>") -> LoadedProcesso:
    """A processo file's text, read as :func:`load_processo` reads the file (``file`` names it in the errors)."""
    return from_doc(parse_yaml(text, file, InputError))
