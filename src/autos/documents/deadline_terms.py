"""The deadlines a document prints besides the lines of the notice of the auto (:mod:`autos.documents.counting`): those
its kind declares as its own elements (``verificacao: prazo``), those a processo act starts, and those a decision
names, as terms without an end date (they run from the notice of the decision, a later act)."""

from __future__ import annotations

from datetime import date
from typing import Any

from autos.base import ptbr
from autos.base.dotted import resolve
from autos.compute.deadlines import Deadline, compute
from autos.compute.result import CaseComputation
from autos.documents.counting import example_days_warning
from autos.documents.formatting import _as_date, _blank, _calendar, _inner, _safe
from autos.documents.lines import rule_term
from autos.errors import ComputeError
from autos.processo.case import Case
from autos.rules.calendar import MunicipalCalendar
from autos.rules.deadlines import NOTICE_EVENT, DeadlineRule, LawDeadlines
from autos.rules.document_kinds import DocumentKind, Element
from autos.rules.statute import Statute


def _once(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deadline lines in order, each printed once: two rules may start the same term (Ferraz art. 80, started by
    the rite and named by the decision's kind)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line not in out:
            out.append(line)
    return out


def _term(rule: DeadlineRule, law: LawDeadlines) -> str:
    """``30 (trinta) dias corridos, contados a partir da …``; the day after another deadline for ``dia_seguinte``."""
    if rule.tipo == "dia_seguinte":
        assert rule.depois_de is not None
        ref = law.deadline(rule.depois_de)
        text = f"dia seguinte ao fim do prazo de {_term(ref, law)} ({ref.base_legal})"
    else:

        text = f"{rule_term(rule)}, contados a partir da {rule.conta_de_descricao}"
    if rule.exemplo:
        text += " (prazo de EXEMPLO das regras do sistema, a confirmar no regulamento)"
    return text


def _skipped(d: Deadline, cal: MunicipalCalendar | None = None) -> str:
    """``Dias sem expediente não contados: 12/10/2026 (…)`` for business-day counts and moved ends, and, with the
    calendar, the warning when one of them is only an example of the calendar (:mod:`autos.documents.counting`)."""
    if not d.dias_pulados or not (d.tipo == "dias_uteis" or d.prorrogado):
        return ""
    days = "; ".join(f"{ptbr.format_date_short(_as_date(s.date))} ({_inner(s.reason)})" for s in d.dias_pulados)
    warning = example_days_warning([d], cal) if cal is not None else ""
    if d.tipo == "dias_uteis":
        text = f"Dias sem expediente não contados: {days}."
    else:  # dias corridos count every day (Lei 9.784, art. 66, § 2º): only the end moves (§ 1º)
        assert d.fim_sem_prorrogacao is not None
        text = (f"Vencimento prorrogado de {ptbr.format_date_short(_as_date(d.fim_sem_prorrogacao))} para "
                f"{ptbr.format_date_short(_as_date(d.fim))}, primeiro dia útil seguinte; dias sem expediente: {days}.")
    return text + (f" {warning}" if warning else "")


def element_deadlines(case: Case, statute: Statute, kind: DocumentKind, *, draft: bool,
                      computed: CaseComputation) -> list[dict[str, Any]]:
    """The deadlines the kind declares as its own elements (``verificacao: prazo`` with a deadline id taken
    from the case, or counted from an event the case records): the term always, the date when the event
    (or the notice, as computed for the case) is known. Deadlines of the notice of the auto are the
    pipeline's lines instead."""
    wanted: list[Element] = [el for el in kind.elementos if el.verificacao == "prazo"
                             and (el.prazo_campo is not None or el.campos)]
    if not wanted:
        return []
    law, cal = computed.law_and_calendar()
    notice: Deadline | None = None
    notice_known = False
    out: list[dict[str, Any]] = []
    for el in wanted:
        deadline_id = el.prazo if el.prazo_campo is None else resolve(case, el.prazo_campo)
        if _blank(deadline_id) or str(deadline_id) not in law.prazos:
            if draft:
                out.append({"descricao": el.descricao, "base_legal": _inner(statute.cite(el.citacao)),
                            "prazo": "[PRAZO NÃO INFORMADO]", "data": "", "dias_pulados": "", "rotulo_data": "até"})
                continue
            raise ComputeError(f"o prazo do elemento {el.codigo} não está nas regras de prazos.")
        rule = law.deadline(str(deadline_id))
        start: date | None
        if rule.conta_de == NOTICE_EVENT:
            if not notice_known:
                notice = _safe(computed.notice, draft)
                notice_known = True
            start = _as_date(notice.fim) if notice is not None else None
        else:
            value = resolve(case, el.campos[0]) if el.campos else None
            start = value if isinstance(value, date) else None
        line: dict[str, Any] = {"descricao": rule.descricao, "base_legal": _inner(rule.base_legal),
                                "prazo": _term(rule, law), "data": "", "dias_pulados": "",
                                # a 'dia_seguinte' date is when something becomes possible, not an end
                                "rotulo_data": "a partir de" if rule.tipo == "dia_seguinte" else "até"}
        if start is not None:
            d = _safe(lambda rid=rule.id, s=start: compute(rid, s, law, cal), draft)
            if d is not None:
                line["data"] = ptbr.format_date(_as_date(d.fim))
                line["dias_pulados"] = _skipped(d, cal)
        out.append(line)
    return out


def act_deadlines(computed: CaseComputation, *, draft: bool) -> list[dict[str, Any]]:
    """The deadlines a processo act starts (``case.ato.prazos``), as computed once for the case with the rite's
    rules: from the date given (the receipt of a defence), else from the notice the document states once it
    takes effect; without a date when it runs from an act not yet known on the document's date. In a draft a
    deadline that cannot be counted is printed without its date; in a final document its error is raised."""
    terms = computed.act_deadlines()
    if not terms:
        return []
    law = computed.rite()
    out: list[dict[str, Any]] = []
    for t in terms:
        if t.error is not None and not draft:
            raise t.error
        line: dict[str, Any] = {"descricao": t.rule.descricao, "base_legal": _inner(t.rule.base_legal),
                                "prazo": _term(t.rule, law), "data": "", "dias_pulados": "", "rotulo_data": "até"}
        if t.deadline is not None:
            line["data"] = ptbr.format_date(_as_date(t.deadline.fim))
            line["dias_pulados"] = _skipped(t.deadline, _calendar(computed))
        out.append(line)
    return _once(out)


def _rite_term(case: Case, computed: CaseComputation, which: str) -> list[dict[str, Any]]:
    """The term to appeal against the decision (``prazo_recurso``) or to pay the fine it keeps or reduces
    (``prazo_pagamento``), from the rite's rules, without its end: it runs from the notice of the decision."""
    d = case.decisao
    deadline = getattr(d, which) if d is not None else None
    if deadline is None:
        return []
    law = computed.rite()
    if deadline not in law.prazos:
        return []
    rule = law.deadline(deadline)
    return [{"descricao": rule.descricao, "base_legal": _inner(rule.base_legal), "prazo": _term(rule, law),
             "data": "", "dias_pulados": "", "rotulo_data": "até"}]


def _decision_terms(kind: DocumentKind, computed: CaseComputation) -> list[dict[str, Any]]:
    """The deadlines the decision's kind names (``verificacao: prazo``), as terms without an end date: they run
    from the notice of this decision, a later act."""
    law = computed.law()
    return [{"descricao": (rule := law.deadline(el.prazo)).descricao, "base_legal": _inner(rule.base_legal),
             "prazo": _term(rule, law), "data": "", "dias_pulados": "", "rotulo_data": "até"}
            for el in kind.elementos if el.verificacao == "prazo" and el.prazo is not None and el.prazo in law.prazos]
