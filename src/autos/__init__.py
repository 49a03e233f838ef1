"""autos: municipal enforcement documents (autos de infração, notificações, editais) from YAML case files,
checked against the municipal laws kept as data in ``rules/``.

The public API is what this module exports — the facade :class:`Autos` (validar, gerar, prazos, multa,
pendências), one entry point per other command family (publishing editais and their corrections, ``conferir``,
the register, the ledger, exporting debts) and the error tree; everything else lives in the stage subpackages
(``base``, ``rules``, ``processo``, ``compute``, ``checks``, ``documents``, ``render``, ``store``, ``app``,
``cli``) and may change.

    from autos import Autos
    autos = Autos()
    report = autos.validate("caso.yaml")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autos.app.debts import export_debts
    from autos.app.editais.corrections import (
        CorrectionOptions,
        CorrectionResult,
        cancel_published_edital,
        rectify_edital,
        republish_edital,
    )
    from autos.app.editais.publish import publish_editais
    from autos.app.editais.run import PublishOptions, PublishResult
    from autos.app.generation.pipeline import Autos
    from autos.app.register.service import open_register, rebuild_folder, reserve_number
    from autos.app.verification.conferir import conferir
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
    from autos.store.ledger import Ledger

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
    "publish_editais": "autos.app.editais.publish",
    **dict.fromkeys(("PublishOptions", "PublishResult"), "autos.app.editais.run"),
    **dict.fromkeys(("CorrectionOptions", "CorrectionResult", "cancel_published_edital", "rectify_edital",
                     "republish_edital"), "autos.app.editais.corrections"),
    "conferir": "autos.app.verification.conferir",
    **dict.fromkeys(("open_register", "rebuild_folder", "reserve_number"), "autos.app.register.service"),
    "Ledger": "autos.store.ledger",
    "export_debts": "autos.app.debts",
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
    "CorrectionOptions",
    "CorrectionResult",
    "CsrfError",
    "DuplicateActNumberError",
    "EditConflictError",
    "ExampleRefused",
    "InputError",
    "Ledger",
    "LedgerError",
    "LoadedCase",
    "LoadedProcesso",
    "LoginRequired",
    "NotFoundError",
    "OutputError",
    "PixConfigError",
    "Processo",
    "PublishOptions",
    "PublishResult",
    "RecordError",
    "RefusedError",
    "RegisterError",
    "RenderError",
    "ReplaceRefusedError",
    "RulesError",
    "RulesFileError",
    "SignatureError",
    "cancel_published_edital",
    "conferir",
    "export_debts",
    "load_case",
    "load_processo",
    "open_register",
    "parse_case",
    "parse_processo",
    "publish_editais",
    "rebuild_folder",
    "rectify_edital",
    "republish_edital",
    "reserve_number",
]
