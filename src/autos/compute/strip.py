"""The calendar strip of a processo: what the picture of its timeline shows (``render.timeline_svg``), taken from
the :class:`~autos.compute.timeline.Timeline` as :func:`~autos.compute.timeline.check_timeline` computed it —
every dated act and every deadline, nothing counted again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from autos.compute.timeline import State, Timeline, state_label

__all__ = ["StripAct", "StripDeadline", "TimelineStrip", "timeline_strip"]


@dataclass(frozen=True)
class StripAct:
    """An act on the strip (``data`` None: the act has no date and cannot be placed)."""

    ordem: int  # 1-based, as ``autos prazos`` numbers the acts
    nome: str
    numero: str | None
    data: date | None
    base_legal: str | None


@dataclass(frozen=True)
class StripDeadline:
    """A deadline on the strip, from the day it was counted from to the day it ends, in its state on ``hoje``."""

    descricao: str
    base_legal: str
    prazo: str  # "15 dias", empty for a notice effective on its own date
    inicio: date
    fim: date
    estado: State
    iniciado_por: int | None  # 1-based act; None: started when another deadline lapsed
    cumprido_em: date | None  # the date of the act that met it
    nota: str | None
    atraso_dias: int | None = None  # met late: calendar days after the deadline's last day

    @property
    def rotulo(self) -> str:
        return state_label(self.estado, self.atraso_dias)


@dataclass(frozen=True)
class TimelineStrip:
    """What the picture of a processo's timeline shows: every dated act and every deadline, as the timeline
    counted them (nothing is counted again here), and the span of days that holds them and ``hoje``."""

    numero: str
    hoje: date
    inicio: date
    fim: date
    atos: list[StripAct]
    prazos: list[StripDeadline]
    situacao: str
    erros: int

    def count(self, estado: State) -> int:
        return sum(1 for d in self.prazos if d.estado == estado)


def _day(d: date) -> date:
    """A date; hour counts give datetimes (``Deadline.inicio``/``fim``): their day."""
    return d.date() if isinstance(d, datetime) else d


def timeline_strip(t: Timeline) -> TimelineStrip:
    """The strip of ``t``: its acts and deadlines with the dates and states :func:`check_timeline` computed."""
    atos = [StripAct(a.indice + 1, a.nome, a.numero, a.data, a.base_legal) for a in t.atos]
    when = {a.indice: a.data for a in t.atos}
    prazos = [StripDeadline(p.deadline.descricao, p.deadline.base_legal, p.deadline.prazo_texto(),
                            _day(p.deadline.inicio), _day(p.fim), p.estado,
                            None if p.iniciado_por is None else p.iniciado_por + 1,
                            when.get(p.cumprido_por) if p.cumprido_por is not None else None, p.nota,
                            p.atraso_dias)
              for p in t.prazos]
    days = [t.hoje, *(a.data for a in atos if a.data is not None), *(d.inicio for d in prazos),
            *(d.fim for d in prazos)]
    return TimelineStrip(t.numero, t.hoje, min(days), max(days), atos, prazos, t.situacao,
                         sum(1 for f in t.achados if f.severidade == "erro"))
