"""What the acts of the judgement add to the case: the protocol of a defence or appeal, the decision (with the terms
that follow from its notice) and the demonstrativo de débito, which states the decided amount and its PIX code."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.documents import pix
from autos.documents.deadline_terms import _decision_terms, _once, _rite_term, act_deadlines
from autos.documents.decision import decided_amount, decided_reais, decision_sections, protocol_sections
from autos.documents.formatting import _auto_ref, _fine_section, _flat, _fmt_date, _or_missing
from autos.documents.pix import PixConfig
from autos.documents.statement import amount_due
from autos.processo.case import Case, Decisao
from autos.rules.document_kinds import DocumentKind
from autos.rules.statute import Statute


def _statement(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
               notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Demonstrativo de débito: the reference date and unit value; the memo and totals are in ``multa``. After
    a decision that keeps or reduces the fine (a processo act): the decided amount, and payment counted from
    the notice of that decision (the act the law names, a later one: the term has no date yet)."""
    # the debt is the fine and the costs together, each a parcel of its own (Cuiabá art. 38)
    out: dict[str, Any] = {"debito": {"data_calculo": _fmt_date(case.lavratura.data, draft), "decisao": None,
                                     "devido": None, "pago": None},
                           "multa": _fine_section(fines)}
    d = case.decisao
    if d is None or d.resultado not in ("mantida", "reduzida"):
        return out
    if d.resultado == "reduzida":  # in the law's unit and in reais (decided_amount)
        valor = decided_amount(case, statute, fines, draft) or _or_missing(None, draft)
    else:
        valor = fines.reais_texto() if fines is not None else _or_missing(None, draft)
    out["debito"]["decisao"] = {
        "texto": f"{_decision_name(d)}, proferida em {_fmt_date(d.data, draft)}: "
                 + ("MANTIDA a multa." if d.resultado == "mantida" else "REDUZIDA a multa."),
        "valor": valor,
    }
    paid = case.ato.pagamento if case.ato is not None else None
    if paid is not None and paid.valor is not None and fines is not None:  # the costs paid at the rescue (art. 38)
        what = ", ".join(x for x in (f"nº {paid.numero}" if paid.numero else "",
                                     f"em {_fmt_date(paid.data, draft)}" if paid.data else "") if x)
        out["debito"]["pago"] = {"texto": what, "valor": ptbr.money_full(paid.valor),
                                 "saldo": ptbr.money_full(max(fines.total_reais - paid.valor, Decimal(0)))}
    out["prazos"] = act_deadlines(computed, draft=draft)
    out["notificacao"] = None  # payment no longer counts from the notice of the auto
    out["debito"]["devido"] = amount_due(case, statute, fines, out["prazos"], draft=draft,
                                         missing=_or_missing(None, draft))
    if out["debito"]["devido"] is not None:  # one amount due after the decision, said the same in both places
        out["debito"]["decisao"]["valor"] = out["debito"]["devido"]["valor"]
    return out


def _decision_name(d: Decisao) -> str:
    """``Decisão de recurso nº D-12/2026`` / ``Decisão de primeira instância``."""
    inst = "primeira instância" if d.instancia == "primeira" else "recurso"
    return f"Decisão de {inst}" + (f" nº {d.numero}" if d.numero else "")


def _protocol(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
              notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Protocolo of a defence or appeal: the date received, on time or late (with the date the term expired,
    from the processo's timeline), what it contests, and the term of the decision counted from the receipt."""
    imp = case.ato.protocolo if case.ato is not None else None
    if imp is None:
        return {"protocolo": None, "prazos_documento": []}
    nome, g = ("Defesa", "a") if imp.tipo == "defesa" else ("Recurso", "o")  # grammatical gender
    # the receipt records the date; whether it came in time is for the deciding authority (Lei 9.784, art. 63, I)
    situacao = protocol_sections(case, draft)["situacao"]
    prazos = act_deadlines(computed, draft=draft)
    d = case.decisao
    if d is not None:
        contra = f"a {_decision_name(d)}, proferida em {_fmt_date(d.data, draft)}"
    else:
        ref = _auto_ref(case, draft)["texto"] or _or_missing(None, draft)
        contra = f"a multa do {ref}" if imp.tipo == "recurso" else f"o {ref}"
    return {
        "protocolo": {
            "nome": nome,
            "artigo": g,
            "numero": imp.numero or "",
            "data": _fmt_date(imp.data, draft),
            "contra": contra,
            "situacao": situacao,
            "intempestivo": imp.prazo_vencido_em is not None,
        },
        "prazos_documento": prazos,
    }


def _forwarding(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Despacho de não reconsideração e encaminhamento do recurso (Lei 9.784/1999, art. 56, § 1º, by analogy): the
    appeal received, the decision it contests, that the authority that gave it does not reconsider it and why, and
    to whom the appeal goes."""
    ato = case.ato
    imp = ato.protocolo if ato is not None else None
    d = case.decisao
    decisao = (f"a {_decision_name(d)}, proferida em {_fmt_date(d.data, draft)}" if d is not None
               else _or_missing(None, draft))
    return {"despacho": {
        "recurso": (f"o Recurso{' nº ' + imp.numero if imp is not None and imp.numero else ''}, protocolado em "
                    f"{_fmt_date(imp.data if imp is not None else None, draft)}"),
        "decisao": decisao,
        "destino": (d.instancia_recursal if d is not None and d.instancia_recursal else _or_missing(None, draft)),
        "razoes": _or_missing(_flat(ato.razoes) if ato is not None and ato.razoes else None, draft),
        "base": "Lei federal nº 9.784/1999, art. 56, § 1º, por analogia",
    }, "prazos_documento": act_deadlines(computed, draft=draft)}


_RESULTS = {
    "mantida": "MANTIDO o auto de infração e MANTIDA a multa",
    "reduzida": "MANTIDO o auto de infração e REDUZIDA a multa",
    "cancelada": "CANCELADO o auto de infração e a multa dele decorrente",
}


def _decision(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
              notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Decisão (julgamento or decisão do recurso), as of its date: relatório, razões and dispositivo
    (:func:`autos.documents.decision.decision_sections`), with the deadlines that follow from the notice of this
    decision (their dates are not known yet: the notice is a later act) — the appeal, when one lies, and payment."""
    terms = _once([*_rite_term(case, computed, "prazo_recurso"), *_rite_term(case, computed, "prazo_pagamento"),
                   *_decision_terms(kind, computed)])
    return decision_sections(case, statute, kind, fines, draft, computed, terms)


# --------------------------------------------------------------------------------------------------
# the demonstrativo's PIX


def pix_section(case: Case, statute: Statute, fines: FineResult | None, config: PixConfig | None, *,
                draft: bool) -> dict[str, Any] | None:
    """The PIX block of the demonstrativo de débito: None without a key in the letterhead; else the static BR
    Code of the amount due (the decided amount after a decision that reduced the fine, the total of the debt
    otherwise), with the processo number as the reference (txid), or why there is none. No code is printed for a
    draft, for an amount not computed, nor for one computed with an EXAMPLE fiscal-unit value: a payment code is
    paid as it is, and the example value is not the Municipality's."""
    if config is None:
        return None
    out: dict[str, Any] = {"payload": "", "aviso": "", "chave": config.chave.valor, "tipo_chave": config.chave.tipo,
                           "nome": config.nome, "cidade": config.cidade, "valor": "", "txid": ""}
    d = case.decisao
    valor: Decimal | None = None
    example = fines is not None and fines.exemplo
    if d is not None and d.resultado == "reduzida":  # in the law's unit, converted at the auto's unit value
        valor = None if example and d.valor_base is not None else decided_reais(case, statute, fines)
    elif fines is not None and not example:
        valor = fines.total_reais
    if draft:
        out["aviso"] = "O código PIX não é impresso na minuta: só no demonstrativo final."
    elif valor is None:
        out["aviso"] = ("O código PIX não foi gerado: o valor foi calculado com o valor de EXEMPLO da unidade fiscal; "
                        "pague pelo valor oficial, informado pelo Município." if fines is not None and fines.exemplo
                        else "O código PIX não foi gerado: o valor do débito não está calculado.")
    else:
        txid = pix.txid_of(case.processo or case.numero or "")
        out.update(payload=pix.br_code(config, valor, txid), valor=ptbr.money_full(valor), txid=txid)
    return out
