"""autos: municipal enforcement documents (autos de infração, notificações, editais) from YAML case files,
checked against the municipal laws kept as data in ``rules/``.

The public API is what this module exports; everything else lives in the stage subpackages (``base``, ``rules``,
``processo``, ``compute``, ``checks``, ``documents``, ``render``, ``store``, ``app``, ``cli``) and may change.

    from autos import Autos
    autos = Autos()
    report = autos.validate("caso.yaml")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autos.app.generation.pipeline import Autos
    from autos.errors import (
        AccessDeniedError,
        AutosError,
        ClusterError,
        ComputeError,
        CorrectionError,
        CsrfError,
        DuplicateActNumberError,
        EditConflictError,
        ExampleRefused,
        InputError,
        LedgerError,
        LoginRequired,
        NotFoundError,
        OutputError,
        PixConfigError,
        RecordError,
        RefusedError,
        RegisterError,
        RenderError,
        ReplaceRefusedError,
        RulesError,
        RulesFileError,
        SignatureError,
    )
    from autos.processo.case import Case
    from autos.processo.load import LoadedProcesso, load_processo, parse_processo
    from autos.processo.load_case import LoadedCase, load_case, parse_case
    from autos.processo.model import Ato, Processo

#: where each public name lives. The names are imported on first use (PEP 562), so that ``import autos.cli`` — and
#: ``autos --help`` — does not load the whole pipeline: importing ``autos.app.generation.pipeline`` builds the rule
#: and case models, ~0.2 s of CPU. The imports above, for type checkers, are the same (tests/test_public_api.py).
#: every error of the tree in :mod:`autos.errors`, each a public name
_ERRORS = (
    "AccessDeniedError", "AutosError", "ClusterError", "ComputeError", "CorrectionError", "CsrfError",
    "DuplicateActNumberError", "EditConflictError", "ExampleRefused", "InputError", "LedgerError",
    "LoginRequired", "NotFoundError", "OutputError", "PixConfigError", "RecordError", "RefusedError",
    "RegisterError", "RenderError", "ReplaceRefusedError", "RulesError", "RulesFileError", "SignatureError",
)
_WHERE = {
    "Autos": "autos.app.generation.pipeline",
    **dict.fromkeys(_ERRORS, "autos.errors"),
    "Case": "autos.processo.case",
    **dict.fromkeys(("LoadedProcesso", "load_processo", "parse_processo"), "autos.processo.load"),
    **dict.fromkeys(("LoadedCase", "load_case", "parse_case"), "autos.processo.load_case"),
    **dict.fromkeys(("Ato", "Processo"), "autos.processo.model"),
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'autos' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "AccessDeniedError",
    "Ato",
    "Autos",
    "AutosError",
    "Case",
    "ClusterError",
    "ComputeError",
    "CorrectionError",
    "CsrfError",
    "DuplicateActNumberError",
    "EditConflictError",
    "ExampleRefused",
    "InputError",
    "LedgerError",
    "LoadedCase",
    "LoadedProcesso",
    "LoginRequired",
    "NotFoundError",
    "OutputError",
    "PixConfigError",
    "Processo",
    "RecordError",
    "RefusedError",
    "RegisterError",
    "RenderError",
    "ReplaceRefusedError",
    "RulesError",
    "RulesFileError",
    "SignatureError",
    "load_case",
    "load_processo",
    "parse_case",
    "parse_processo",
]
