"""How a fine result's total is named: the fines alone are a "Total"; fines and costs summed (Cuiabá: the fine of
art. 36 and the costs of the apprehended animal, art. 11, § 3º, and art. 38) are the "Débito", with each part named
and its amount — never one "multa" for both."""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol

from autos.base import ptbr

__all__ = ["total_label"]


class _Part(Protocol):
    """The fines or the costs of a result (``FineResult.part``): their total in reais."""

    @property
    def total_reais(self) -> Decimal: ...


def total_label(fine: _Part | None, costs: _Part | None) -> str:
    """``Total`` of fines (or costs) alone; ``Débito (multa R$ … + despesas R$ …)`` when both are summed
    (``fine`` and ``costs``: ``result.part("penalidade")`` and ``result.part("despesa")``)."""
    if fine is None or costs is None:
        return "Total"
    return f"Débito (multa {ptbr.format_brl(fine.total_reais)} + despesas {ptbr.format_brl(costs.total_reais)})"
