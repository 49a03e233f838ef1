"""How a fine result's total is named: the fines alone are a "Total"; fines and costs summed (Cuiabá: the fine of
art. 36 and the costs of the apprehended animal, art. 11, § 3º, and art. 38) are the "Débito", with each part named
and its amount — never one "multa" for both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from autos.base import ptbr

if TYPE_CHECKING:
    from autos.compute.fines import FineResult

__all__ = ["total_label"]


def total_label(result: FineResult) -> str:
    """``Total`` of fines (or costs) alone; ``Débito (multa R$ … + despesas R$ …)`` when both are summed."""
    fine, costs = result.part("penalidade"), result.part("despesa")
    if fine is None or costs is None:
        return "Total"
    return f"Débito (multa {ptbr.format_brl(fine.total_reais)} + despesas {ptbr.format_brl(costs.total_reais)})"
