"""The one finding every check speaks in: the validator of a case, the timeline of a processo, the checks of its
acts and those across processos (:mod:`autos.checks.finding` adds the report of a file).

Its fields mirror the JSON keys ``autos validar --json`` prints (severidade, codigo, mensagem, citacao, caminho,
linha, arquivo, dica); the timeline's JSON (``autos prazos --json``) names two of them as it always has,
``base_legal`` and ``como_corrigir`` (:meth:`Finding.to_timeline_dict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autos.rules.grades import GRADE_LABELS, GRADE_ORDER, GradeEntry, grade_of
from autos.rules.statute_base import Severity

__all__ = ["Finding"]


@dataclass(frozen=True)
class Finding:
    """Something wrong (``erro``) or worth knowing (``aviso``) in a case or a processo: a stable code, the
    Portuguese message, the citation of the law it rests on, where (YAML path, line, file) and how to fix it."""

    severidade: Severity
    codigo: str
    mensagem: str
    citacao: str | None
    caminho: str | None
    linha: int | None
    arquivo: str | None = None
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

    def to_timeline_dict(self) -> dict[str, object]:
        """The finding as the timeline's JSON has always printed it."""
        return {"codigo": self.codigo, "severidade": self.severidade, "mensagem": self.mensagem,
                "base_legal": self.citacao, "caminho": self.caminho, "linha": self.linha, "como_corrigir": self.dica}
