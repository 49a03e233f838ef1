"""autos: municipal enforcement documents (autos de infração, notificações, editais) from YAML case files,
checked against the municipal laws kept as data in ``rules/``.

The public API is what this module exports; everything else lives in the stage subpackages (``base``, ``rules``,
``processo``, ``compute``, ``checks``, ``documents``, ``render``, ``store``, ``app``, ``cli``) and may change.

    from autos import Autos
    autos = Autos()
    report = autos.validate("caso.yaml")
"""

from __future__ import annotations

from autos.app.pipeline import Autos
from autos.errors import (
    AutosError,
    ComputeError,
    InputError,
    OutputError,
    RefusedError,
    RenderError,
    RulesError,
    RulesFileError,
)
from autos.processo.case import Case
from autos.processo.load import LoadedProcesso, load_processo, parse_processo
from autos.processo.load_case import LoadedCase, load_case, parse_case
from autos.processo.model import Ato, Processo

__all__ = [
    "Ato",
    "Autos",
    "AutosError",
    "Case",
    "ComputeError",
    "InputError",
    "LoadedCase",
    "LoadedProcesso",
    "OutputError",
    "Processo",
    "RefusedError",
    "RenderError",
    "RulesError",
    "RulesFileError",
    "load_case",
    "load_processo",
    "parse_case",
    "parse_processo",
]
