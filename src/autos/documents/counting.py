"""How a document says its deadlines are counted, and which of its dates rest on unconfirmed calendar days.

Every document that prints a deadline states the counting rule of its law, from the law's prazos file
(``contagem``: the first day excluded, the last included, an end on a day without office hours moved to the next
business day, with its legal basis) — as one more clause, so that both templates (DOCX and PDF) print it without
a template of their own. A date whose count skipped a weekday that the municipal calendar lists only as an
example (``exemplo: true``, "(exemplo — conferir)": a holiday or closure not yet checked against the official
act) says so next to the date: that date is right only if the day really had no office hours.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from autos.base import ptbr
from autos.compute.deadlines import Deadline
from autos.compute.result import CaseComputation
from autos.documents.lines import DeadlineLine
from autos.errors import AutosError
from autos.rules.calendar import EXEMPLO_MARK, MunicipalCalendar
from autos.rules.deadlines import LawDeadlines

__all__ = ["case_lines", "counting_clause", "example_days_warning", "with_counting_clause"]

#: the deadline lists each shipped template prints (the context has both; a template prints one or both): the
#: counting rule goes only on a document that shows a deadline
_PRINTED: dict[str, tuple[str, ...]] = {
    "auto_de_infracao": ("prazos",),
    "demonstrativo_debito": ("prazos",),
    "edital_notificacao": ("prazos",),
    "notificacao_ar": ("prazos",),
    "notificacao_preliminar": ("exigencia.prazos",),
    "termo_apreensao": ("prazos_documento", "prazos"),
}
_DEFAULT_PRINTED = ("prazos_documento",)


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def example_days(d: Deadline, cal: MunicipalCalendar) -> list[date]:
    """The weekdays the end of ``d`` was counted or moved over that the calendar lists only as examples (every
    entry of the day marked ``exemplo``): days a business-day count skipped, or an end was moved over."""
    if not (d.tipo == "dias_uteis" or d.prorrogado):
        return []
    out: list[date] = []
    for s in d.dias_pulados:
        day = _as_date(s.date)
        if day.weekday() >= 5:
            continue  # a weekend is a day without office hours whatever the calendar says
        try:
            offs = cal.days_off(day)
        except AutosError:
            continue
        if offs and all(o.exemplo for o in offs):
            out.append(day)
    return out


def example_days_warning(deadlines: list[Deadline | None], cal: MunicipalCalendar) -> str:
    """``ATENÇÃO: …`` when any of ``deadlines`` (a date and what it was counted from) rests on an example day."""
    days = sorted({day for d in deadlines if d is not None for day in example_days(d, cal)})
    if not days:
        return ""
    listed = ", ".join(ptbr.format_date_short(day) for day in days)
    one = len(days) == 1
    return (f"ATENÇÃO: esta data depende {'do dia' if one else 'dos dias'} {listed}, que o calendário das regras "
            f"lista como sem expediente só como exemplo {EXEMPLO_MARK}; confira no ato oficial do Município antes "
            "de assinar.")


def case_lines(lines: list[DeadlineLine], computed: CaseComputation) -> list[dict[str, Any]]:
    """The deadline lines of the notice of the auto as the templates read them, each dated one saying when its
    date (or the notice date it runs from) rests on a calendar day marked as an example."""
    out = [{**d.__dict__, "dias_pulados": "", "rotulo_data": "até"} for d in lines]
    if not any(d.data for d in lines):
        return out
    try:
        cd = computed.case_deadlines()
        _law, cal = computed.law_and_calendar()
    except AutosError:
        return out
    by_name = {d.descricao: d for d in cd.following}
    for line in out:
        d = by_name.get(line["descricao"])
        if line["data"] and d is not None:
            line["dias_pulados"] = example_days_warning([d, cd.notice], cal)
    return out


def counting_clause(law: LawDeadlines) -> dict[str, str]:
    """The counting rule of the law as a clause: what is counted and how, and its legal basis."""
    c = law.contagem
    end = ("o prazo que vence em dia sem expediente, ou em que o expediente termina antes da hora normal, "
           "prorroga-se até o primeiro dia útil seguinte" if c.prorroga_fim_sem_expediente else
           "o vencimento em dia sem expediente não se prorroga")
    return {"texto": f"Contagem dos prazos: exclui-se o dia do começo e inclui-se o do vencimento; {end}, salvo "
                     "regra especial indicada expressamente neste documento.",
            "citacao": c.base_legal}


def _prints_deadlines(ctx: dict[str, Any], template: str) -> bool:
    for key in _PRINTED.get(template, _DEFAULT_PRINTED):
        value: Any = ctx
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value:
            return True
    return False


def with_counting_clause(ctx: dict[str, Any], computed: CaseComputation, template: str) -> dict[str, Any]:
    """``ctx`` with the law's counting rule as its last clause, when the document (``template``) prints a
    deadline."""
    if not _prints_deadlines(ctx, template):
        return ctx
    try:
        law = computed.rite()
    except AutosError:
        return ctx
    ctx["clausulas"] = [*ctx.get("clausulas", []), counting_clause(law)]
    return ctx
