"""A deadline as a document prints it: the term in words (``15 (quinze) dias corridos``) and the line."""

from __future__ import annotations

from dataclasses import dataclass, field

from autos.base import ptbr
from autos.rules.deadlines import DeadlineRule

_UNIT_WORDS = {"dias_corridos": ("dia corrido", "dias corridos"), "dias_uteis": ("dia útil", "dias úteis"),
               "meses": ("mês", "meses"), "horas": ("hora", "horas")}


@dataclass(frozen=True)
class DeadlineLine:
    """A deadline as printed on a document (computed by the deadline engine)."""

    descricao: str
    base_legal: str
    prazo: str  # "15 (quinze) dias corridos, contados da ciência"
    data: str | None = None  # "31 de março de 2026" when the start is known
    explicacao: list[str] = field(default_factory=list)


def rule_term(rule: DeadlineRule) -> str:
    """``15 (quinze) dias corridos``."""
    one, many = _UNIT_WORDS[rule.tipo]
    words = ptbr.int_to_words(rule.quantidade, feminine=rule.tipo == "horas")
    return f"{rule.quantidade} ({words}) {one if rule.quantidade == 1 else many}"
