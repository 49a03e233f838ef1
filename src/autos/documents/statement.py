"""The amount a demonstrativo de débito says is due after a decision that keeps or reduces the fine.

The memória de cálculo prints the fine of the auto; after a decision that changes it, the total due is the amount
decided (in the law's unit and in reais), never the auto's total beside it. The block says, in words: the amount,
when it is due (the payment term of the decision's notice: a date when it is known, the term otherwise) and how it
is paid (PIX when the letterhead has a key; otherwise the rules do not say, and the document says so).
"""

from __future__ import annotations

from typing import Any

from autos.compute.fines import FineResult
from autos.documents.decision import decided_amount
from autos.processo.case import Case
from autos.rules.statute import Statute

__all__ = ["amount_due"]

#: the means of payment where the law's rules do not state one (``pagamento``)
_NO_MEANS = "guia de recolhimento a retirar no órgão que emitiu este demonstrativo"


def amount_due(case: Case, statute: Statute, fines: FineResult | None, terms: list[dict[str, Any]], *,
               draft: bool, missing: str) -> dict[str, str] | None:
    """The total due after the decision (None: no decision that keeps or reduces the fine). ``terms`` are the
    payment lines of the demonstrativo (``descricao``, ``prazo``, ``data``, ``base_legal``)."""
    d = case.decisao
    if d is None or d.resultado not in ("mantida", "reduzida"):
        return None
    valor = decided_amount(case, statute, fines, draft) or missing
    due = next((t for t in terms if t.get("data")), None)
    if due is not None:
        vencimento = f"até {due['data']} ({due['base_legal']})"
    elif terms:
        vencimento = f"{terms[0]['prazo']} ({terms[0]['base_legal']})"
    else:
        vencimento = missing
    means = statute.pagamento
    meio = (_NO_MEANS if means is None else
            means.meio + (f" ({statute.cite(means.citacao)})" if means.citacao is not None else ""))
    return {"valor": valor, "vencimento": vencimento, "meio_sem_pix": meio,
            # the memo and totals above are the auto's, before the decision — also when it keeps the fine: costs
            # paid at the rescue (Cuiabá art. 11, § 2º) are in the auto's debt and not in what is due
            "antes": "débito do auto, antes da decisão"}
