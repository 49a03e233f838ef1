"""The amount a decision states, against the fine in force — on the decision's own documents (the decision and its
debit statement), whose case carries the auto's penalties, so the auto's fine is computed for them anyway.

* ``DECISAO-VALOR-DIVERGENTE``: a decision that keeps the fine states another amount (in reais or in the law's
  unit) — the fine kept is the one in force: the auto's as the law computes it, or the one an earlier decision set;
  or a reduction's amount in reais is not the conversion of its amount in the law's unit;
* ``REDUCAO-NAO-REDUZ``: a "reduction" to an amount that is not lower than the fine in force.

Errors: the amount of a decision is its content (Lei federal nº 9.784/1999, art. 50, § 1º: a motivation
"congruente"). The other checks of reasons and amounts, which need no computation, are the processo's
(:mod:`autos.checks.reasons`). Findings of the same act reported by its two documents are reported once
(:func:`autos.checks.processo.check_processo`)."""

from __future__ import annotations

from decimal import Decimal

from autos.base import ptbr
from autos.checks.finding import Finding
from autos.checks.reasons import fine_basis
from autos.compute.fines import FineOutcome
from autos.processo.load_case import LoadedCase
from autos.rules.statute import Statute

__all__ = ["AMOUNT_DOCUMENTS", "decision_amount_findings"]

#: the documents of a decision act
AMOUNT_DOCUMENTS = ("decisao", "demonstrativo_debito")


def decision_amount_findings(loaded: LoadedCase, statute: Statute, outcome: FineOutcome) -> list[Finding]:
    """The findings of the module's docstring for a decision's document, or none."""
    case = loaded.case
    d = case.decisao
    if case.documento not in AMOUNT_DOCUMENTS or d is None or outcome.result is None:
        return []
    own = outcome.result.part("penalidade")
    if own is None:
        return []
    sigla = statute.unidade_fiscal.sigla
    cite = fine_basis(statute, [i.regra for i in case.infracoes])
    unit = own.valor_unidade.valor

    def reais(units: Decimal) -> Decimal:
        return statute.arredondamento.apply(units * unit)

    units, source = ((d.valor_base_anterior, f"fixada em {d.anterior}") if d.valor_base_anterior is not None
                     else (own.total_unidades, "a do auto"))
    force = f"{ptbr.format_decimal(units)} {sigla} = {ptbr.format_brl(reais(units))} ({source})"
    out: list[Finding] = []

    def add(code: str, message: str, field: str, hint: str) -> None:
        path = ("decisao", field)
        out.append(Finding(severidade="erro", codigo=code, mensagem=message, citacao=cite, caminho=".".join(path),
                           linha=loaded.line_of(path), arquivo=str(loaded.file), dica=hint))

    if d.resultado == "mantida":
        typed_units = d.valor_base is not None and d.valor_base != units
        typed_reais = d.valor is not None and d.valor != reais(units)
        if typed_units or typed_reais:
            stated = (f"{ptbr.format_decimal(d.valor_base)} {sigla}" if typed_units and d.valor_base is not None
                      else ptbr.format_brl(d.valor or Decimal(0)))
            add("DECISAO-VALOR-DIVERGENTE", f"a decisão mantém a multa e diz {stated}, mas a multa em vigor é {force}: "
                "a decisão que mantém a multa não fixa outro valor.", "valor_base" if typed_units else "valor",
                "retire o valor (a multa mantida é a que está em vigor) ou, se a decisão muda o valor, registre "
                "resultado: reduzida, com valor_base e motivo_valor.")
    elif d.resultado == "reduzida" and d.valor_base is not None:
        if d.valor_base >= units:
            add("REDUCAO-NAO-REDUZ", f"a decisão diz reduzir a multa para {ptbr.format_decimal(d.valor_base)} {sigla}, "
                f"mas a multa em vigor é {force}.", "valor_base", "confira o valor decidido ou o resultado (mantida).")
        if d.valor is not None and d.valor != reais(d.valor_base):
            add("DECISAO-VALOR-DIVERGENTE", f"a decisão diz {ptbr.format_brl(d.valor)}, mas "
                f"{ptbr.format_decimal(d.valor_base)} {sigla} são {ptbr.format_brl(reais(d.valor_base))} pelo valor da "
                f"{sigla} do auto ({ptbr.format_brl(unit)}).", "valor", "retire 'valor' (é calculado de valor_base) ou "
                "corrija-o.")
    return out
