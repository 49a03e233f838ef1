"""What a document prints of the preconditions its act met (:mod:`autos.compute.preconditions`): the notice whose
lack of answer is the infraction (the auto cites the notificação preliminar: number, date, receipt, term), the
payment a resgate presupposes, the conditions for lifting an interdiction, and the rule of conduct infringed as
the law's register names it. Pure text from the case the act's document is made of."""

from __future__ import annotations

from typing import Any

from autos.base import ptbr
from autos.base.citation import Citation
from autos.compute.fines import FineResult
from autos.processo.case import Case, Infracao
from autos.rules.statute import Statute

__all__ = ["attempts_text", "conduct_rule", "infractions", "with_preconditions"]


def _flat(text: str) -> str:
    return " ".join(text.split())


def conduct_rule(inf: Infracao, statute: Statute) -> str:
    """``infracoes[].norma`` in words: ``Lei nº 3.844/2022, art. 23, parágrafo único`` or ``Decreto federal nº 9.013,
    de 29/03/2017 (RIISPOA), art. …``; empty without it."""
    n = inf.norma
    if n is None or n.artigo is None:
        return ""
    own = Citation(artigo=n.artigo, paragrafo=n.paragrafo, inciso=n.inciso, alinea=n.alinea).short()
    reg = statute.regulamentos.get(n.regulamento) if n.regulamento else None
    if n.regulamento is None:
        return f"{statute.lei.label}, {own}"
    return f"{reg.label() if reg is not None else n.regulamento}, {own}"


def infractions(case: Case, statute: Statute) -> list[dict[str, str]]:
    """Each infringed provision: the law's article, its description and the complement (the rule of conduct named in
    ``norma``, else the ``complemento`` as typed)."""
    out = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        if rule is None:
            out.append({"citacao": f"[regra desconhecida: {inf.regra}]", "descricao": "", "complemento": ""})
            continue
        complement = "; ".join(x for x in (conduct_rule(inf, statute), inf.complemento or "") if x)
        out.append({"citacao": statute.cite(rule.citacao), "descricao": _flat(rule.descricao),
                    "complemento": complement})
    return out


def _cited_notice(case: Case) -> str:
    n = case.ato.notificacao_citada if case.ato is not None else None
    if n is None:
        return ""
    text = f"Notificação preliminar nº {n.numero or 's/n'}"
    if n.data is not None:
        text += f", de {ptbr.format_date(n.data)}"
    if n.ciencia is not None:
        text += f", entregue ao notificado contra recibo datado de {ptbr.format_date(n.ciencia)}"
    if n.prazo and n.vencimento is not None:
        text += f"; prazo de {n.prazo}, vencido em {ptbr.format_date(n.vencimento)} sem atendimento"
    return text + ". A infração é o não atendimento da notificação no prazo."


def _payment(case: Case, fines: FineResult | None) -> str:
    """The payment recorded before the act; one that covers the fine and the costs of the apprehension says each
    part apart — the costs are not a fine (Cuiabá art. 38: "sem prejuízo das penalidades")."""
    pay = case.ato.pagamento if case.ato is not None else None
    if pay is None:
        return ""
    fine = fines.part("penalidade") if fines is not None else None
    costs = fines.part("despesa") if fines is not None else None
    split = (pay.valor is not None and fine is not None and costs is not None and fine is not costs
             and fine.total_reais + costs.total_reais == pay.valor)
    text = "Pagamento" if split else pay.nome[:1].upper() + pay.nome[1:]
    if pay.numero:
        text += f" nº {pay.numero}"
    if pay.data is not None:
        text += f", de {ptbr.format_date(pay.data)}"
    if pay.valor is not None:
        text += f": {ptbr.format_brl(pay.valor)}"
    if split:
        assert fine is not None and costs is not None
        text += (f", sendo {ptbr.format_brl(fine.total_reais)} da multa e {ptbr.format_brl(costs.total_reais)} das "
                 f"despesas da apreensão ({costs.itens[0].base_legal})")
    return text + "."


def attempts_text(case: Case) -> list[str]:
    """What the edital states of the attempts that preceded it (Ferraz art. 76, III; Timóteo art. 21, III, and
    § 2º): each letter with AR that came back (number, posting, return and its reason) and each search for the
    domicile (date and result), in the processo's order; empty for a one-document case file."""
    out = []
    for t in case.ato.tentativas if case.ato is not None else []:
        text = t.nome[:1].upper() + t.nome[1:] + (f" nº {t.numero}" if t.numero else "")
        if t.devolucao is not None:
            text += (f", postada em {ptbr.format_date(t.data)}" if t.data else "") + \
                f", devolvida sem entrega em {ptbr.format_date(t.devolucao)}, motivo: \u201c{t.motivo}\u201d."
        else:
            text += (f", em {ptbr.format_date(t.data)}" if t.data else "") + \
                (f": {_flat(t.descricao)}" if t.descricao else ".")
        out.append(text)
    return out


def with_preconditions(ctx: dict[str, Any], case: Case, fines: FineResult | None) -> dict[str, Any]:
    """``ctx`` with what the document prints of its act's preconditions (empty strings when none applies)."""
    medida = case.medida
    ctx["notificacao_citada"] = _cited_notice(case)
    ctx["pagamento_registrado"] = _payment(case, fines)
    ctx["condicoes_levantamento"] = (_flat(medida.condicoes_levantamento)
                                     if medida is not None and medida.condicoes_levantamento else "")
    return ctx
