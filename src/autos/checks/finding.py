"""A finding (severity, stable code, Portuguese message, citation, YAML path and line) and the report of one file.

Every check (the validator, the fine and deadline checks, the processo checks) speaks in these two types; the
finding itself is :class:`autos.compute.finding.Finding`, which the timeline (a stage below) uses too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autos.compute.finding import Finding
from autos.errors import AutosError
from autos.rules.statute import Statute

__all__ = ["Finding", "Report"]


@dataclass
class Report:
    """Findings for one case file."""

    file: Path
    statute: Statute | None
    findings: list[Finding]
    error: AutosError | None = None  # the case could not be read at all

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severidade == "erro"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severidade == "aviso"]

    @property
    def por_grau(self) -> list[Finding]:
        """The findings with nullity risks first (then curable defects, then style), in order otherwise."""
        return sorted(self.findings, key=lambda f: f.ordem_grau)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "arquivo": str(self.file),
            "lei": self.statute.id if self.statute else None,
            "valido": self.ok,
            "erro_de_leitura": self.error.to_dict() if self.error else None,
            "achados": [f.to_dict() for f in self.por_grau],
        }
