"""Stage 1 — load: read a case file into a :class:`LoadedCase` (model + where each value came from)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autos.base.schema import build_model
from autos.base.yamlio import FromYamlDoc, YamlDoc, load_yaml, parse_yaml
from autos.errors import InputError
from autos.processo.case import Case


@dataclass
class LoadedCase(FromYamlDoc):
    """A case as typed by the clerk, with the YAML document it came from (for line numbers)."""

    case: Case
    doc: YamlDoc


def _to_case(doc: YamlDoc) -> LoadedCase:
    if not isinstance(doc.data, dict):
        raise InputError("o caso deve ser um mapa de campos (lei:, autuado:, …).", file=doc.file, line=1,
                         hint="comece o arquivo pelo campo 'lei:'; veja os exemplos em samples/.")
    return LoadedCase(case=build_model(Case, doc, InputError), doc=doc)


def case_from_doc(doc: YamlDoc) -> LoadedCase:
    """The case in an already parsed YAML document (a caller that first looked at the data)."""
    return _to_case(doc)


def load_case(file: str | Path) -> LoadedCase:
    """Read and type-check one case file; :class:`InputError` when it cannot be used at all."""
    return _to_case(load_yaml(file, InputError))


def parse_case(text: str, file: str | Path = "<texto>") -> LoadedCase:
    """Like :func:`load_case`, from a string (tests, editors)."""
    return _to_case(parse_yaml(text, file, InputError))
