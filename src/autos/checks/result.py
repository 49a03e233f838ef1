"""One result per document's case: its findings and what the law computed for it, each made once.

:func:`check_case` validates a case against the :class:`~autos.compute.result.CaseComputation` made for it
(the validator reads the fines, the custody costs and the notice from it instead of computing them) and
returns a :class:`CaseResult`: the report ``autos validar`` prints, carrying the computation the document
context reads (:mod:`autos.documents.context`), and, for an act of a processo, the processo's timeline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from autos.checks.decision_amounts import decision_amount_findings
from autos.checks.finding import Report
from autos.checks.fines import fine_findings
from autos.checks.notice import example_deadline_findings, notice_findings
from autos.checks.validate import validate_case
from autos.compute.result import CaseComputation
from autos.processo.load_case import LoadedCase
from autos.rules.statute import RuleSet, Statute

if TYPE_CHECKING:
    from autos.compute.timeline import Timeline

__all__ = ["CaseResult", "check_case"]


@dataclass
class CaseResult(Report):
    """A case's report with what was computed for it (``computed``) and, for an act's document, the
    processo's ``timeline`` (situation, deadlines of the acts)."""

    computed: CaseComputation | None = None
    timeline: Timeline | None = None


def check_case(loaded: LoadedCase, rules: RuleSet, computed: CaseComputation, *, today: date,
               defence_check: Callable[[Statute, str | None], str | None] | None = None) -> CaseResult:
    """Every finding of the case, the computed ones (fines, notice) taken from ``computed``."""
    report = validate_case(loaded, rules, today=today, defence_check=defence_check, computed=computed,
                           extra_checks=[lambda lc, _st: notice_findings(lc, computed),
                                         lambda lc, _st: example_deadline_findings(lc, computed),
                                         lambda lc, st: fine_findings(lc, st, computed.fine),
                                         lambda lc, st: decision_amount_findings(lc, st, computed.fine)])
    return CaseResult(file=report.file, statute=report.statute, findings=report.findings, computed=computed)
