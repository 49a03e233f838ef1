"""A finding (severity, stable code, Portuguese message, citation, YAML path and line) and the report of one file.

Every check (the validator, the fine and deadline checks, the processo checks) speaks in these two types.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autos.errors import AutosError
from autos.rules.grades import GRADE_LABELS, GRADE_ORDER, GradeEntry, grade_of
from autos.rules.statute import Statute
from autos.rules.statute_base import Severity


@dataclass(frozen=True)
class Finding:
    severidade: Severity
    codigo: str
    mensagem: str
    citacao: str | None
    caminho: str | None
    linha: int | None
    arquivo: str | None
    dica: str | None = None

    @property
    def _grade(self) -> GradeEntry | None:
        return grade_of(self.codigo)

    @property
    def grau(self) -> str | None:
        """The grade of the code (rules/achados.yaml): nulidade, vicio_sanavel or estilo; None if ungraded."""
        g = self._grade
        return g.grau if g else None

    @property
    def grau_rotulo(self) -> str | None:
        g = self._grade
        return GRADE_LABELS[g.grau] if g else None

    @property
    def grau_fundamento(self) -> str | None:
        g = self._grade
        return g.fundamento if g else None

    @property
    def ordem_grau(self) -> int:
        """Sort key: nullity first, then curable defects, then style."""
        return GRADE_ORDER[self.grau]

    def to_dict(self) -> dict[str, Any]:
        # the fields are plain values: dataclasses.asdict's deep copy cost ~3% of a verificar of processos
        # grau/grau_fundamento are added keys: consumers reading the others keep working
        return {"severidade": self.severidade, "codigo": self.codigo, "mensagem": self.mensagem,
                "citacao": self.citacao, "caminho": self.caminho, "linha": self.linha, "arquivo": self.arquivo,
                "dica": self.dica, "grau": self.grau, "grau_fundamento": self.grau_fundamento}

    def render(self) -> str:
        where = ", ".join(p for p in (f"linha {self.linha}" if self.linha else None,
                                      f"campo '{self.caminho}'" if self.caminho else None) if p)
        label = self.grau_rotulo
        head = f"{self.severidade.upper()} · {label}" if label else self.severidade.upper()
        text = f"[{head}] {self.codigo}: {self.mensagem}"
        if self.citacao:
            text += f" ({self.citacao})"
        if where:
            text += f" — {where}"
        if self.dica:
            text += f"\n    Como corrigir: {self.dica}"
        return text


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
