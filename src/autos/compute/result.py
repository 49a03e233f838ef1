"""What the law computes for one document's case, once: its fines, its notice and deadlines, its custody costs,
and for a processo act's document the deadlines the act starts.

:func:`compute_case` runs the fine calculator, the deadline engine (with the law's deadline rules, the rite's —
the law's plus those the processo rules declare — and the municipality's calendar that the caller passes in:
this module reads no file) and the apprehension-cost table the document kind asks for, each once. A failure
is kept, not raised: the validator turns it into a finding, a draft document leaves the value out, a final
document raises it (:meth:`CaseComputation.fines`, :meth:`CaseComputation.case_deadlines`,
:meth:`CaseComputation.act_deadlines`…).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from autos.compute.deadlines import Deadline, compute, notice_effective
from autos.compute.fines import FineOutcome, FineResult, costs_by_day, fine_outcome
from autos.compute.notice import CaseDeadlines, case_deadlines, notice_facts
from autos.errors import AutosError, ComputeError, RulesFileError
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar
from autos.rules.deadlines import DeadlineRule, LawDeadlines
from autos.rules.statute import Statute

__all__ = ["ActTerm", "CaseComputation", "compute_case"]


@dataclass(frozen=True)
class ActTerm:
    """A deadline a processo act starts (``case.ato.prazos``), counted once: its rule (from the rite's deadline
    rules) and its end — None when it has no start yet (it runs from a later act, or from a notice not in
    effect) — or why it cannot be counted (``error``)."""

    rule: DeadlineRule
    deadline: Deadline | None = None
    error: AutosError | None = None


@dataclass(frozen=True)
class CaseComputation:
    """The fines, the notice and its deadlines, and the custody costs of one case, each computed once."""

    loaded: LoadedCase
    statute: Statute
    fine: FineOutcome
    deadlines: CaseDeadlines | None  # None: they could not be counted (``deadlines_error``)
    deadlines_error: AutosError | None
    costs: dict[str, list[FineResult] | AutosError] = field(default_factory=dict)  # by penalty id
    law_of: Callable[[], LawDeadlines] | None = None  # the law's deadline rules, loaded by the caller
    calendar_of: Callable[[], MunicipalCalendar] | None = None  # the municipality's calendar, idem
    rite_of: Callable[[], LawDeadlines] | None = None  # the law's deadlines plus the processo rules' ``novo``
    #: the deadlines the processo act starts, in its order (or why the act names one the rite lacks)
    act_terms: tuple[ActTerm, ...] | AutosError = ()

    def fines(self) -> FineResult | None:
        """The fines (None: none proposed); the first fact that cannot be priced is raised."""
        return self.fine.value()

    def case_deadlines(self) -> CaseDeadlines:
        """The notice and the deadlines that follow it; why they cannot be counted is raised."""
        if self.deadlines_error is not None:
            raise self.deadlines_error
        assert self.deadlines is not None
        return self.deadlines

    def costs_by_day(self, penalty_id: str) -> list[FineResult]:
        """The custody costs of ``penalty_id`` by day (computed for the penalties the document kind prices)."""
        found = self.costs.get(penalty_id)
        if found is None:
            found = self.costs[penalty_id] = _costs(self.loaded, self.statute, penalty_id)
        if isinstance(found, AutosError):
            raise found
        return found

    def law(self) -> LawDeadlines:
        """The law's deadline rules (loaded by the caller)."""
        assert self.law_of is not None, "computed without rules"
        return self.law_of()

    def law_and_calendar(self) -> tuple[LawDeadlines, MunicipalCalendar]:
        """The law's deadline rules and the calendar the case's deadlines are counted with."""
        assert self.law_of is not None and self.calendar_of is not None, "computed without rules"
        return self.law_of(), self.calendar_of()

    def rite(self) -> LawDeadlines:
        """The deadline rules of the law's rite: its own and those its processo rules declare (``novo``); the
        law's own where it has no processo rules."""
        return self.rite_of() if self.rite_of is not None else self.law()

    def act_deadlines(self) -> tuple[ActTerm, ...]:
        """The deadlines the processo act starts (none for a case file of one document); an act deadline the
        rite does not know is raised."""
        if isinstance(self.act_terms, AutosError):
            raise self.act_terms
        return self.act_terms

    def notice(self) -> Deadline | None:
        """When the notice of this case takes effect (None when the case records no notice); why it does not
        (a returned AR, a missing date) is raised."""
        if self.loaded.case.notificacao is None:
            return None
        cd = self.case_deadlines()
        if cd.notice is not None:
            return cd.notice
        facts = notice_facts(self.loaded)  # a returned AR: the engine says why no notice is in effect
        assert facts is not None
        law, cal = self.law_and_calendar()
        return notice_effective(facts, law, cal)


def _costs(loaded: LoadedCase, statute: Statute, penalty_id: str) -> list[FineResult] | AutosError:
    try:
        return costs_by_day(loaded.case, statute, penalty_id)
    except AutosError as exc:
        return exc


def _act_terms(computed: CaseComputation) -> tuple[ActTerm, ...] | AutosError:
    """Count each deadline the act starts with the rite's rules: from the date the processo gives (the receipt of
    a defence), else from when the notice the document states takes effect; no end when neither is known."""
    ato = computed.loaded.case.ato
    if ato is None or not ato.prazos:
        return ()
    rite = computed.rite()
    unknown = [p.prazo for p in ato.prazos if p.prazo not in rite.prazos]
    if unknown:
        return ComputeError(f"o prazo '{unknown[0]}' não está nas regras de prazos da lei ({rite.file}).")
    _law, cal = computed.law_and_calendar()
    notice: Deadline | None = None
    notice_error: AutosError | None = None
    if any(p.inicio is None for p in ato.prazos):
        try:
            notice = computed.notice()
        except RulesFileError:
            raise
        except AutosError as exc:
            notice_error = exc
    out: list[ActTerm] = []
    for p in ato.prazos:
        rule = rite.deadline(p.prazo)
        if p.inicio is None and notice_error is not None:
            out.append(ActTerm(rule, error=notice_error))
            continue
        start = p.inicio if p.inicio is not None else (_day(notice.fim) if notice is not None else None)
        if start is None:
            out.append(ActTerm(rule))
            continue
        try:
            out.append(ActTerm(rule, compute(rule.id, start, rite, cal)))
        except RulesFileError:
            raise
        except AutosError as exc:
            out.append(ActTerm(rule, error=exc))
    return tuple(out)


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def compute_case(loaded: LoadedCase, statute: Statute, law: Callable[[], LawDeadlines],
                 calendar: Callable[[], MunicipalCalendar],
                 rite: Callable[[], LawDeadlines] | None = None) -> CaseComputation:
    """Compute the case once. ``law`` and ``calendar`` load (and may cache) the rules the deadlines are counted
    by, ``rite`` the rite's (the law's plus the processo rules' ``novo``; default: the law's), for the deadlines
    a processo act starts; rules that cannot be used at all (:class:`RulesFileError`) are an error of the run,
    raised."""
    fine = fine_outcome(loaded.case, statute)
    deadlines: CaseDeadlines | None = None
    error: AutosError | None = None
    try:
        deadlines = case_deadlines(loaded, law(), calendar)
    except RulesFileError:
        raise
    except AutosError as exc:
        error = exc
    kind = statute.documentos.get(loaded.case.documento)
    costs: dict[str, list[FineResult] | AutosError] = {}
    for el in kind.elementos if kind is not None else []:
        if el.verificacao == "custas_por_dia" and el.penalidade is not None and el.penalidade not in costs:
            costs[el.penalidade] = _costs(loaded, statute, el.penalidade)
    computed = CaseComputation(loaded, statute, fine, deadlines, error, costs, law, calendar, rite)
    if loaded.case.ato is not None and loaded.case.ato.prazos:
        computed = replace(computed, act_terms=_act_terms(computed))
    return computed
