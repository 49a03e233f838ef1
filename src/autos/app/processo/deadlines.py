"""The deadline rules and calendars of a rules folder, read once per run and handed to the computation."""

from __future__ import annotations

from pathlib import Path

from autos.compute.notice import CaseDeadlines, case_deadlines
from autos.errors import AutosError, RulesFileError
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar, load_calendar
from autos.rules.deadlines import LawDeadlines, load_law_deadlines
from autos.rules.statute import Statute

__all__ = ["DeadlineService"]


class DeadlineService:
    """Loads calendars and deadline rules of a rules folder once, and applies them to cases."""

    def __init__(self, rules_dir: Path) -> None:
        self.rules_dir = rules_dir
        self._laws: dict[str, LawDeadlines] = {}
        self._cals: dict[str, MunicipalCalendar] = {}

    def law(self, statute: Statute) -> LawDeadlines:
        if statute.id not in self._laws:
            municipio_dir, stem = statute.id.split("/", 1)
            self._laws[statute.id] = load_law_deadlines(self.rules_dir, municipio_dir, stem)
        return self._laws[statute.id]

    def calendar(self, statute: Statute) -> MunicipalCalendar:
        municipio_dir = statute.id.split("/", 1)[0]
        if municipio_dir not in self._cals:
            self._cals[municipio_dir] = load_calendar(self.rules_dir, municipio_dir)
        return self._cals[municipio_dir]

    def for_case(self, loaded: LoadedCase, statute: Statute) -> CaseDeadlines:
        """Every date the case's notice sets; errors name the case file, YAML path and line."""
        return case_deadlines(loaded, self.law(statute), lambda: self.calendar(statute))

    def defence_problem(self, statute: Statute, deadline_id: str | None) -> str | None:
        """Why the auto cannot state the defence deadline, or ``None`` when it can (a validator hook)."""
        try:
            law = self.law(statute)
        except RulesFileError:
            raise  # the rules are unusable: not a finding of this case
        except AutosError as exc:
            return f"as regras de prazos da lei não puderam ser lidas ({exc.message})"
        if deadline_id is None:
            return "o elemento não indica qual prazo das regras é o de defesa"
        if deadline_id not in law.prazos:
            return f"o prazo '{deadline_id}' não está nas regras de prazos ({law.file})"
        return None
