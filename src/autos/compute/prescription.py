"""The prescription of the punitive claim of one processo (pure: the rules, the acts and the reference date in,
the date it falls and its state out; no I/O, no clock).

The rule is data (``prescricao`` in ``rules/<municipio>/<lei>.yaml``, :class:`autos.rules.statute.Prescription`):
``anos`` years from the date of the infraction, interrupted once by the first act of ``interrupcao.atos`` that
takes effect (a notice: the date it takes effect), after which it runs again for ``recomeca_meses`` months —
never ending before the full term counted from the start when ``nao_aquem_do_prazo``. It is met by the final
decision: the last act of ``decisoes`` not followed by an act of ``recursos``.

Years and months are counted as Lei nº 810/1949 counts them (arts. 1º to 3º): from the day of the start to the
same day and month of the year (month) of the end; when that month has no such day, the first day after. The
date returned is the last day on which the claim can still be exercised; it is not moved to a business day.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from autos.rules.prescription import Prescription

__all__ = ["ActFacts", "PrescriptionState", "add_months", "prescription_of"]

Situation = Literal["em curso", "exercida", "prescrita", "decidida depois de prescrita", "encerrado", "sem data"]


def add_months(start: date, months: int) -> date:
    """``start`` plus ``months`` months (Lei nº 810/1949, arts. 2º and 3º): the same day of the month, or the
    first day of the following month when the month of the end has no such day (31/01 + 1 month = 01/03)."""
    total = start.year * 12 + (start.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    last = calendar.monthrange(year, month)[1]
    if start.day <= last:
        return date(year, month, start.day)
    return date(year + (month == 12), month % 12 + 1, 1)


@dataclass(frozen=True)
class ActFacts:
    """What the prescription needs of one act: its kind, its date, when it took effect (a notice; otherwise its
    date), its number and the decision's result."""

    tipo: str
    data: date | None
    efetiva: date | None
    numero: str | None
    resultado: str | None


@dataclass(frozen=True)
class PrescriptionState:
    """The prescription of one processo on the reference date.

    ``data`` is the last day the claim can be exercised (``None`` when there is no start date); ``interrupcao``
    the act (0-based index) and date that interrupted it; ``decisao`` the final decision (index and date), if any.
    """

    rule: Prescription
    inicio: date | None
    termo_original: date | None
    data: date | None
    interrupcao: tuple[int, date] | None
    decisao: tuple[int, date] | None
    situacao: Situation

    @property
    def aberto(self) -> bool:
        """No final decision and the processo not closed: the date is the one to watch."""
        return self.situacao in ("em curso", "prescrita")


def prescription_of(rule: Prescription, atos: Sequence[ActFacts], data_infracao: date | None, hoje: date, *,
                    encerrado: bool) -> PrescriptionState:
    """The prescription of a processo whose acts are ``atos`` (in order), on ``hoje``.

    ``data_infracao``: the date of the infraction the processo gives (else the date of its first dated act: the
    auto, or an act the law puts before it). ``encerrado``: the processo was closed by an act
    of the law (payment, dívida ativa, a cancelling decision) — without a final decision there is then nothing
    left to prescribe."""
    inicio = data_infracao or next((a.data for a in atos if a.data is not None), None)
    final = _final_decision(rule, atos)
    if inicio is None:
        return PrescriptionState(rule, None, None, None, None, final, "sem data")
    original = add_months(inicio, 12 * rule.anos)
    end = original
    interrupted: tuple[int, date] | None = None
    it = rule.interrupcao
    if it is not None:
        for i, a in enumerate(atos):
            if a.tipo in it.atos and a.efetiva is not None:
                if inicio <= a.efetiva <= original:  # a notice after the term cannot interrupt what has ended
                    interrupted = (i, a.efetiva)
                    restart = add_months(a.efetiva, it.recomeca_meses)
                    end = max(original, restart) if it.nao_aquem_do_prazo else restart
                break  # interrupted once only (Decreto 20.910/1932, art. 8º)
    situation: Situation
    if final is not None:
        i, when = final
        condemns = atos[i].resultado != "cancelada"
        situation = "decidida depois de prescrita" if when > end and condemns else "exercida"
    elif encerrado:
        situation = "encerrado"
    else:
        situation = "prescrita" if hoje > end else "em curso"
    return PrescriptionState(rule, inicio, original, end, interrupted, final, situation)


def _final_decision(rule: Prescription, atos: Sequence[ActFacts]) -> tuple[int, date] | None:
    """The last act of ``decisoes`` (with a date) not followed by an act of ``recursos``."""
    last: int | None = None
    for i, a in enumerate(atos):
        if a.tipo in rule.decisoes and a.data is not None:
            last = i
        elif a.tipo in rule.recursos:
            last = None  # an appeal after the decision: the decision is not final
    if last is None:
        return None
    d = atos[last].data
    assert d is not None
    return last, d
