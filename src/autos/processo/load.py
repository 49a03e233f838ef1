"""Reading a processo file: strict YAML (the line of every value kept) into :class:`Processo`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autos.base.schema import build_model
from autos.base.yamlio import FromYamlDoc, YamlDoc, load_yaml, parse_yaml
from autos.errors import InputError
from autos.processo.model import Processo

__all__ = ["LoadedProcesso", "from_doc", "is_processo_data", "load_processo", "parse_processo"]


@dataclass(frozen=True)
class LoadedProcesso(FromYamlDoc):
    """A processo and where each of its values is in the file."""

    processo: Processo
    doc: YamlDoc


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
    return from_doc(parse_yaml(text, file, InputError))
