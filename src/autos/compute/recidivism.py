"""Reincidência from history, the pure part: when an earlier processo's decision became final, and whether it
makes a new infraction a repeat offence under the law's rules (``reincidencia`` in ``<lei>.yaml``).

No file, no register, no clock: the earlier processo and its timeline come in (:mod:`autos.app.register.history` reads
them), dates come out. "Final" (definitiva) is read from the earlier processo's timeline, as the rules list it
(``reincidencia.definitiva``): an act of ``atos`` — the appeal decided (keeping or reducing the fine), the
payment, the inscription in dívida ativa — on its date, or the lapse of a deadline of ``prazos`` (the appeal
deadline, ``perdido`` in the timeline) on the day after it ended; the earliest of them. A processo whose last
decision cancelled the fine is never final as a punishment and never counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from autos.compute.timeline import Timeline
from autos.processo.model import Processo
from autos.rules.calendar import format_date
from autos.rules.fine_rules import RecidivismHistory
from autos.rules.procedure import Procedure

__all__ = ["Finality", "finality_of", "in_window", "window_end"]


@dataclass(frozen=True)
class Finality:
    """When and by what an earlier processo's decision became final."""

    data: date
    por: str  # "decisão do recurso nº 12/2026 de 03/05/2026", "prazo de recurso vencido em …"


def finality_of(processo: Processo, timeline: Timeline | None, rule: RecidivismHistory,
                procedure: Procedure) -> Finality | None:
    """The date the processo's decision became final (see the module), or None: not final, or cancelled.
    Without a ``timeline`` (its deadlines could not be counted) only the acts are looked at."""
    last = next((a for a in reversed(processo.atos) if a.resultado is not None), None)
    if last is not None and last.resultado == "cancelada":
        return None
    found: list[Finality] = []
    for a in processo.atos:
        when = a.data_do_ato
        if a.tipo not in rule.definitiva.atos or when is None or a.resultado == "cancelada":
            continue
        name = procedure.atos[a.tipo].nome if a.tipo in procedure.atos else a.tipo
        number = f" nº {a.numero}" if a.numero else ""
        found.append(Finality(when, f"{name}{number} de {format_date(when)}"))
    for ds in timeline.prazos if timeline is not None else ():
        if ds.id in rule.definitiva.prazos and ds.estado == "perdido":
            end = ds.fim
            found.append(Finality(end + timedelta(days=1),
                                  f"{ds.deadline.descricao.lower()} vencido em {format_date(end)} sem recurso"))
    return min(found, key=lambda f: f.data) if found else None


def window_end(final: date, anos: int) -> date:
    """The last day an earlier final decision counts: ``anos`` years after it (29/02 → 28/02)."""
    try:
        return final.replace(year=final.year + anos)
    except ValueError:
        return final.replace(year=final.year + anos, day=28)


def in_window(final: date, infraction: date, rule: RecidivismHistory) -> bool:
    """A decision final on ``final`` counts for an infraction on ``infraction``: it was final before the new
    infraction and no more than ``rule.anos`` years before it (Decreto 2.181/1997, art. 27, parágrafo único, by
    analogy: the period runs from the final decision to the later practice)."""
    return final <= infraction <= window_end(final, rule.anos)
