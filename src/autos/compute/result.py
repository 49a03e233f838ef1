"""What the law computes for one document's case, once: its fines, its notice and deadlines, its custody costs.

:func:`compute_case` runs the fine calculator, the deadline engine (with the law's deadline rules and the
municipality's calendar that the caller passes in: this module reads no file) and the apprehension-cost table
the document kind asks for, each once. A failure is kept, not raised: the validator turns it into a finding,
a draft document leaves the value out, a final document raises it (:meth:`CaseComputation.fines`,
:meth:`CaseComputation.case_deadlines`…).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from autos.compute.deadlines import Deadline, notice_effective
from autos.compute.fines import FineOutcome, FineResult, costs_by_day, fine_outcome
from autos.compute.notice import CaseDeadlines, case_deadlines, notice_facts
from autos.errors import AutosError, RulesFileError
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar
from autos.rules.deadlines import LawDeadlines
from autos.rules.statute import Statute

__all__ = ["CaseComputation", "compute_case"]


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


def compute_case(loaded: LoadedCase, statute: Statute, law: Callable[[], LawDeadlines],
                 calendar: Callable[[], MunicipalCalendar]) -> CaseComputation:
    """Compute the case once. ``law`` and ``calendar`` load (and may cache) the rules the deadlines are counted
    by; rules that cannot be used at all (:class:`RulesFileError`) are an error of the run, raised."""
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
    return CaseComputation(loaded, statute, fine, deadlines, error, costs, law, calendar)
