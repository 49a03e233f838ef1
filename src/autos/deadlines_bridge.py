"""Temporary bridge until the deadline engine lands (replaced in the deadlines commit)."""
from __future__ import annotations

from .context import DeadlineLine
from .load import LoadedCase
from .rules import Statute
from .validate import Finding


def defence_problem(statute: Statute) -> str | None:
    return None


def notice_findings(loaded: LoadedCase, statute: Statute) -> list[Finding]:
    return []


def deadline_lines(loaded: LoadedCase, statute: Statute) -> list[DeadlineLine]:
    return []
