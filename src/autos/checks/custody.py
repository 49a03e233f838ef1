"""The custody days charged for an apprehended animal against the processo's own dates.

A table of daily custody fees (Cuiabá Lei nº 3.666/1997, art. 11, § 3º: 1º, 2º and 3º dia) is charged for the
days the animal stayed in custody, counted — by the rules' choice ``prazo_diarias`` — as the days of the term for
retrieving it (art. 11, § 2º: 3 dias úteis, the day of the collection excluded): the nth diária is the nth day of
that term, and a retrieval before its first day (on the day of the collection, or on a day without office hours
before it) pays the 1st. The case states how many (``infracoes[].dias_custodia``); in a processo the timeline knows
when the term began and which act met it (the restitution), so a number that the dates contradict is an error
(``DIARIAS-DIVERGENTES``): it would charge more, or less, than the law's table for those days.
"""

from __future__ import annotations

from datetime import date, timedelta

from autos.base.ptbr import count_noun
from autos.compute.finding import Finding
from autos.compute.timeline import DeadlineState, Timeline
from autos.errors import AutosError
from autos.processo.load import LoadedProcesso
from autos.rules.calendar import MunicipalCalendar, format_date
from autos.rules.fine_rules import ApprehensionCosts
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute, formula_for


def _term_days(start: date, until: date, kind: str, calendar: MunicipalCalendar) -> int | None:
    """How many days of a term that began on ``start`` (excluded) have passed on ``until`` (included), counted as
    the term counts; ``None`` for a kind of count this check does not know."""
    days = max(0, (until - start).days)
    if kind == "dias_corridos":
        return days
    if kind != "dias_uteis":
        return None
    return days - len(calendar.non_business_days(start + timedelta(days=1), until))


def _restitution(timeline: Timeline, proc: Procedure, loaded: LoadedProcesso,
                 deadline_id: str) -> tuple[DeadlineState, int] | None:
    """The one count of the term and the act that ended the custody: the act that met the term, else (the term made
    moot meanwhile, by a payment that closed the processo…) the first later act of a kind that meets it."""
    states = [s for s in timeline.prazos if s.id == deadline_id]
    if len(states) != 1:
        return None
    state = states[0]
    if state.cumprido_por is not None:
        return state, state.cumprido_por
    behaviour = proc.prazos.get(deadline_id)
    kinds = behaviour.cumprido_por if behaviour is not None else []
    for i, a in enumerate(loaded.processo.atos):
        when = a.data_do_ato
        if a.tipo in kinds and when is not None and when >= state.deadline.inicio:
            return state, i
    return None


def custody_findings(loaded: LoadedProcesso, proc: Procedure, statute: Statute, timeline: Timeline,
                     calendar: MunicipalCalendar) -> list[Finding]:
    """``DIARIAS-DIVERGENTES`` for each infraction whose ``dias_custodia`` is not the day of the term on which the
    animal was restituted (see the module's docstring); nothing when the processo has no such restitution yet."""
    out: list[Finding] = []
    p = loaded.processo
    for i, inf in enumerate(p.infracoes):
        rule = statute.infracoes.get(inf.regra)
        if inf.dias_custodia is None or rule is None:
            continue
        costs = next((f for pen in rule.penalidades if isinstance(f := formula_for(statute, rule, pen),
                                                                  ApprehensionCosts)), None)
        if costs is None or costs.prazo_diarias is None:
            continue
        found = _restitution(timeline, proc, loaded, costs.prazo_diarias)
        if found is None:
            continue
        state, index = found
        until = p.atos[index].data_do_ato
        if until is None:
            continue
        d = state.deadline
        try:
            passed = _term_days(d.inicio, until, d.tipo, calendar)
        except AutosError:  # a year the calendar does not cover: the timeline reports it
            continue
        if passed is None:
            continue
        due = max(1, passed)
        if int(inf.dias_custodia) == due:
            continue
        path = ("infracoes", i, "dias_custodia")
        which = (f"o {passed}º dia do prazo" if passed >= 1 else
                 "antes do 1º dia do prazo, que paga a diária do 1º dia")
        term = f"{d.prazo_texto()}, contado de {format_date(d.inicio)}, excluído esse dia"
        out.append(Finding(
            severidade="erro", codigo="DIARIAS-DIVERGENTES",
            mensagem=f"o caso cobra {count_noun(int(inf.dias_custodia), 'diária', 'diárias')} de guarda, mas o animal "
            f"foi restituído em {format_date(until)} (atos[{index}]), {which} ({d.descricao.lower()}: "
            f"{term}): {'é devida' if due == 1 else 'são devidas'} {count_noun(due, 'diária', 'diárias')} (cada "
            "diária é um dia desse prazo).",
            citacao=f"{statute.cite(costs.citacao_diarias)}; {d.base_legal}",
            caminho=f"infracoes[{i}].dias_custodia", linha=loaded.line_of(path),
            dica=f"escreva dias_custodia: {due}, ou corrija a data do recolhimento ou da restituição."))
    return out
