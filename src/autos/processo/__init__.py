"""The input files as models: a case (one auto de infração) and an administrative processo (its acts in order).

Public surface: :func:`load_processo`, :func:`parse_processo`, :class:`Processo`, :class:`Ato`,
:class:`LoadedProcesso`. The procedure a processo follows is a rule (:mod:`autos.rules.procedure`), its timeline
is computed (:mod:`autos.compute.timeline`), and the service that reads folders of processos is in
:mod:`autos.app.processo.service`.
"""

from __future__ import annotations

from autos.processo.load import LoadedProcesso, load_processo, parse_processo
from autos.processo.model import Ato, Processo

__all__ = [
    "Ato",
    "LoadedProcesso",
    "Processo",
    "load_processo",
    "parse_processo",
]
