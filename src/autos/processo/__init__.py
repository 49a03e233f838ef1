"""The administrative processo: one YAML file per processo, its acts in order, checked against the law.

Public surface: :func:`load_processo`, :class:`Processo`, :class:`Ato`, :func:`load_procedure`,
:func:`check_timeline`, :class:`Timeline`, :class:`ProcessoService`.
"""

from __future__ import annotations

from .app import PendingReport, PendingRow, ProcessoService, is_processo_file
from .load import LoadedProcesso, load_processo, parse_processo
from .model import Ato, Processo
from .procedure import Procedure, load_procedure
from .timeline import DeadlineState, Finding, Pending, Timeline, check_timeline, urgency_of

__all__ = [
    "Ato",
    "DeadlineState",
    "Finding",
    "LoadedProcesso",
    "Pending",
    "PendingReport",
    "PendingRow",
    "Procedure",
    "Processo",
    "ProcessoService",
    "Timeline",
    "check_timeline",
    "is_processo_file",
    "load_procedure",
    "load_processo",
    "parse_processo",
    "urgency_of",
]
