"""What the kinds that notify add to the case: the notificação preliminar (the obligation and its deadline), the letter
with AR, the certidão de juntada do AR, the certidão de publicação do edital and the notificação da decisão — each
with how the law says its notice takes effect."""

from __future__ import annotations

from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.documents.deadline_terms import _skipped, act_deadlines, element_deadlines
from autos.documents.decision import decided_amount, decision_notice_sections
from autos.documents.formatting import _FORMS, _as_date, _auto_ref, _fmt_date, _missing_fn, _or_missing
from autos.documents.ruling_sections import _RESULTS, _decision_name
from autos.processo.case import Case
from autos.rules.deadlines import NOTICE_EVENT
from autos.rules.document_kinds import DocumentKind
from autos.rules.fine_rules import FixedFine, PeriodicDoublingFine, QuantityFine
from autos.rules.statute import Statute


def _edital_case(computed: CaseComputation) -> str:
    """The case in which the law admits the edital, in its own words (Ferraz art. 76, III: "desconhecido o domicílio
    fiscal do infrator"; Timóteo art. 21, III: "em local incerto ou desconhecido")."""
    rule = computed.law().notificacao.formas.get("edital")
    if rule is not None and rule.hipotese:
        return rule.hipotese
    return "estando o autuado em domicílio incerto ou desconhecido"


def _notice_rule_text(computed: CaseComputation, forma: str, decision: bool = False) -> str:
    """How the law says a notice of this form takes effect, from the law's prazos file (``decision``: the notice of
    a decision, with the form's own wording for it when the rules have one)."""
    law = computed.law()
    rule = law.notificacao.formas.get(forma)
    if rule is None:
        return ""
    if rule.prazo_tipo is None:
        base = rule.base_descricao_decisao if decision and rule.base_descricao_decisao else rule.base_descricao
        return f"Nos termos da {rule.base_legal}, a notificação considera-se feita na {base}."
    unit = {"dias_corridos": ("dia corrido", "dias corridos"), "dias_uteis": ("dia útil", "dias úteis")}.get(
        rule.prazo_tipo, ("dia", "dias"))
    q = rule.prazo_quantidade
    return (f"Nos termos da {rule.base_legal}, a notificação considera-se feita ao fim do prazo de {q} "
            f"({ptbr.int_to_words(q)}) {unit[0] if q == 1 else unit[1]}, contado da {rule.base_descricao}.")


def addressee(case: Case) -> dict[str, str]:
    """How a letter addresses the autuado: the line above the name, the salutation and the form of address.

    A company (CNPJ) is "À empresa …", "Prezados Senhores," and "V. Sas."; a person with a recorded
    ``tratamento`` is "Ao Senhor"/"À Senhora", "Prezado Senhor,"/"Prezada Senhora,"; a person without one gets a
    neutral form — the name alone above the address, no salutation — rather than "Ao(À) Sr(a)." (the case does
    not say it, and the letter must not guess). "V. Sa." needs no agreement: the letter says "NOTIFICA V. Sa."."""
    a = case.autuado
    if a.tipo == "pessoa_juridica":
        return {"linha": "À empresa", "vocativo": "Prezados Senhores,", "tratamento": "V. Sas."}
    if a.tratamento == "senhor":
        return {"linha": "Ao Senhor", "vocativo": "Prezado Senhor,", "tratamento": "V. Sa."}
    if a.tratamento == "senhora":
        return {"linha": "À Senhora", "vocativo": "Prezada Senhora,", "tratamento": "V. Sa."}
    return {"linha": "", "vocativo": "", "tratamento": "V. Sa."}


def _preliminary(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                 notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Notificação preliminar: the obligation, its deadline (engine), how the notice takes effect — the law's notice
    articles applied by analogy when the kind says so (Ferraz arts. 76 and 77) — and how often the fine threatened
    is applied again while the obligation is not met (Ferraz art. 4º: "a cada 30 (trinta) dias")."""
    ex = case.exigencia
    lines = element_deadlines(case, statute, kind, draft=draft, computed=computed)
    forma = case.notificacao.forma if case.notificacao else "pessoal"
    law = computed.law()
    out: dict[str, Any] = {}
    regra = _notice_rule_text(computed, forma)
    if kind.notificacao_por_analogia:
        desc = law.eventos.get(NOTICE_EVENT)
        if desc:
            analog = desc[:-1] + ", por analogia)" if desc.endswith(")") else desc + ", por analogia"
            for line in lines:
                line["prazo"] = line["prazo"].replace(desc, analog)
        form_rule = law.notificacao.formas.get(forma)
        if form_rule is not None:
            regra = regra.replace(form_rule.base_legal, f"{form_rule.base_legal}, aplicados por analogia")
            if case.notificacao is not None:
                out["notificacao"] = {"forma": f"{_FORMS[forma]} ({form_rule.base_legal}, aplicados por analogia)",
                                      "data": notice_date or ""}
    return {
        **out,
        "exigencia": {
            "descricao": _or_missing(ex.descricao if ex else None, draft),
            "prazos": lines,
            "repeticao": repetition_sentences(case, statute),
        },
        "ciencia": {
            "regra": regra,
            "data": notice_date or "",
        },
    }


def repetition_sentences(case: Case, statute: Statute) -> list[str]:
    """How the fine of each infraction is applied again while the obligation is not met: every N days, the same
    amount (Ferraz art. 4º) or doubled (arts. 9º, 43, p.u., and 44, p.u.)."""
    out: list[str] = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        f = rule.multa if rule is not None else None
        if f is None:
            continue
        if isinstance(f, PeriodicDoublingFine):
            text = (f"Não atendida a notificação, a multa é aplicada e dobrada a cada {f.dias} "
                    f"({ptbr.int_to_words(f.dias)}) dias, até o efetivo atendimento ({statute.cite(f.citacao)}).")
        elif isinstance(f, FixedFine | QuantityFine) and f.repeticao is not None:
            r = f.repeticao
            text = (f"Não atendida a notificação, a multa é aplicada de novo, no mesmo valor, a cada {r.dias} "
                    f"({ptbr.int_to_words(r.dias)}) dias, até o efetivo atendimento ({statute.cite(r.citacao)}).")
        else:
            continue
        if text not in out:
            out.append(text)
    return out


def _letter(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
            notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Notificação da autuação por carta com AR: the AR facts and how the notice takes effect."""
    n = case.notificacao
    ar = n.ar if n is not None and n.ar is not None else None
    return {
        "destinatario": addressee(case),
        "carta": {
            "efeito": _notice_rule_text(computed, "ar"),
            "postagem": ptbr.format_date(ar.data_postagem) if ar and ar.data_postagem else "",
            "recebimento": ptbr.format_date(ar.data_recebimento) if ar and ar.data_recebimento else "",
            "juntada": ptbr.format_date(ar.data_juntada) if ar and ar.data_juntada else "",
            "data_notificacao": notice_date or "",
            **_enclosures(case, draft),
        },
    }


def _enclosures(case: Case, draft: bool) -> dict[str, str]:
    """The copies the letter carries: the auto's, and those of the termos drawn up with it while the autuado was
    absent, whose ciência is this letter's (the termo says "a ciência lhe será dada … com a do auto")."""
    auto = _auto_ref(case, draft)["texto"]
    termos = list(case.ato.anexos) if case.ato is not None else []
    if not termos:
        return {"anexos_frase": "", "anexo_linha": f"Anexo: cópia do {auto}."}
    one = len(termos) == 1
    names = ", do ".join(termos)
    sentence = (f"Segue também, anexa, a cópia do {names}, lavrado com o auto na ausência do responsável: esta "
                "carta também dá ciência dele, com o prazo e as consequências que nele constam." if one else
                f"Seguem também, anexas, as cópias do {names}, lavrados com o auto na ausência do responsável: esta "
                "carta também dá ciência deles, com os prazos e as consequências que neles constam.")
    return {"anexos_frase": sentence,
            "anexo_linha": f"Anexos: cópia do {auto}; " + "; ".join(f"cópia do {t}" for t in termos) + "."}


_MEIOS = {"oficial": "no órgão oficial de imprensa", "jornal": "em jornal de circulação local",
          "afixacao": "por afixação na sede da Prefeitura"}


def _notified(case: Case, draft: bool) -> str:
    """What a notice or protocol is about: the decision (number, date, result) or the auto."""
    d = case.decisao
    if d is not None:
        return f"da {_decision_name(d)}, proferida em {_fmt_date(d.data, draft)}"
    ref = _auto_ref(case, draft)
    return f"do {ref['texto']}" if ref["texto"] else _or_missing(None, draft)


def _decision_result(case: Case, statute: Statute, fines: FineResult | None, draft: bool) -> tuple[str, bool]:
    """The result a decision notice states, and whether a fine is still due."""
    d = case.decisao
    if d is None:
        return _or_missing(None, draft), False
    text = _RESULTS.get(d.resultado or "", _or_missing(None, draft))
    amount = decided_amount(case, statute, fines, draft)
    if d.resultado == "reduzida":
        text += f" para {amount}"
    elif d.resultado == "mantida" and amount:
        text += f", no valor de {amount}"
    return text + ".", d.resultado in ("mantida", "reduzida")


def _notice_made(case: Case, computed: CaseComputation) -> str:
    """How a document dated before the notice takes effect says when it does: "considerar-se-á feita" for a day
    still to come (a certidão on the day of the last publication, a letter on the day it is posted), "considerada
    feita" once it has happened."""
    issued = case.lavratura.data
    notice = computed.case_deadlines().notice if issued is not None and case.notificacao is not None else None
    end_day = _as_date(notice.fim) if notice is not None else None
    if issued is not None and end_day is not None and end_day > issued:
        return "A notificação considerar-se-á feita em"
    return "Notificação considerada feita em"


def notice_moved(case: Case, computed: CaseComputation) -> str:
    """The note of a notice date that fell on a day without business and moved to the next business day (Lei
    9.784 art. 66, § 1º, as the law's counting rule applies it), as every other term prints it: "Vencimento
    prorrogado de 11/10/2026 para 13/10/2026, primeiro dia útil seguinte; dias sem expediente: …"."""
    if case.notificacao is None:
        return ""
    notice = computed.case_deadlines().notice
    if notice is None:
        return ""
    _, cal = computed.law_and_calendar()
    return _skipped(notice, cal)


def _publication_certificate(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None,
                             draft: bool, notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Certidão de publicação do edital, dated its last publication: each publication (date, where), when the
    notice counts as made under the law, and the deadlines that start then, with their ends."""
    pubs = case.ato.publicacoes if case.ato is not None else []
    return {
        "certidao_edital": {
            "objeto": _notified(case, draft),
            # the certidão states the newspaper as the law qualifies it (Timóteo art. 21, § 3º: "de grande
            # circulação local"); the edital names the vehicle itself
            "publicacoes": [{"data": ptbr.format_date(x.data),
                             "meio": "em jornal de grande circulação local" if x.meio == "jornal" else _MEIOS[x.meio],
                             "veiculo": x.veiculo or ""} for x in pubs],
            "efeito": _notice_rule_text(computed, "edital"),
            "data_notificacao": notice_date or "",
            "feita_em": _notice_made(case, computed) if notice_date else "",
            "prorrogacao": notice_moved(case, computed) if notice_date else "",
        },
        "prazos_documento": act_deadlines(computed, draft=draft),
    }


def _decision_notice(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                     notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Notificação da decisão: the decision notified (result, amount), how and when the notice is given, and the
    deadlines that run from it (dated once the notice takes effect by the document's date)."""
    n = case.notificacao
    resultado, due = _decision_result(case, statute, fines, draft)
    ato = case.ato
    forma = n.forma if n is not None else (ato.forma if ato is not None else None)
    postagem = ato.postagem if ato is not None else None
    terms = act_deadlines(computed, draft=draft)
    notice = {
        "objeto": _notified(case, draft),
        "resultado": resultado,
        "devida": due,
        "forma": _FORMS[forma] if forma is not None else _or_missing(None, draft),
        "postagem": ptbr.format_date(postagem) if postagem else "",
        "efeito": _notice_rule_text(computed, forma, decision=True) if forma is not None else "",
        "data_notificacao": notice_date or "",
        "feita_em": _notice_made(case, computed) if notice_date else "",
    }
    return {"notif_decisao": decision_notice_sections(case, statute, fines, draft, notice, terms),
            "prazos_documento": terms}


def _ar_certificate(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                    notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Certidão de juntada do AR, dated the juntada: the posting, the receipt or the return (with the reason)
    as the AR shows them, the juntada, and when the notice takes effect under the law (none if returned)."""
    n = case.notificacao
    ar = n.ar if n is not None and n.ar is not None else None
    m = _missing_fn(draft)
    return {
        "certidao": {
            "postagem": ptbr.format_date(ar.data_postagem) if ar and ar.data_postagem else m(None),
            "recebimento": ptbr.format_date(ar.data_recebimento) if ar and ar.data_recebimento else "",
            "devolvido": bool(ar and ar.devolvido),
            "motivo": (ar.motivo_devolucao or m(None)) if ar and ar.devolvido else "",
            "juntada": ptbr.format_date(ar.data_juntada) if ar and ar.data_juntada else m(None),
            "efeito": _notice_rule_text(computed, "ar"),
            "data_notificacao": notice_date or "",
        },
    }
