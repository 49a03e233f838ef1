"""The whole case, as every kind except the edital prints it (``_case_sections``): the autuado, the lavratura, the
facts, the infractions, the penalties with the articles that set their amounts, the circumstances, the fine, the
deadlines, the signatures; and the clauses a case adds to the law's (the exceptions its facts fall under, the
recorded interpretive choices the document applies)."""

from __future__ import annotations

import re
from typing import Any

from autos.base import ptbr
from autos.base.citation import Citation
from autos.compute.fines import FineResult
from autos.documents.formatting import (
    _FORMS,
    _auto_ref,
    _blank,
    _cap,
    _fine_section,
    _flat,
    _fmt_date,
    _inner,
    _missing_fn,
    _or_missing,
)
from autos.documents.preconditions import infractions
from autos.processo.case import Case
from autos.rules.document_kinds import DocumentKind
from autos.rules.fine_rules import FixedFine
from autos.rules.infractions import EXCEPTION_KIND_PT, Penalty
from autos.rules.statute import Statute, formula_for


def case_basis(case: Case, statute: Statute) -> str:
    """The provisions the case applies, with those they refer to: ``Lei nº 3.240/2015, arts. 3º e 4º`` (plain
    articles are joined; a provision with paragraph or inciso is cited in full); empty without known infractions."""
    cites: list[Citation] = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        if rule is not None:
            cites.extend(c for c in (*rule.remissoes, rule.citacao) if c not in cites)
    if not cites:
        return ""
    if all(c.paragrafo is None and c.inciso is None and c.alinea is None and c.nota is None for c in cites):
        arts = sorted({c.artigo for c in cites}, key=lambda a: (int(re.sub(r"\D.*", "", a)), a))
        words = [Citation(artigo=a).short().removeprefix("art. ") for a in arts]
        if len(words) == 1:
            return f"{statute.lei.label}, art. {words[0]}"
        return f"{statute.lei.label}, arts. {', '.join(words[:-1])} e {words[-1]}"
    return f"{statute.lei.label}, " + "; ".join(c.short() for c in cites)


def penalty_citation(case: Case, statute: Statute, pen_id: str, pen: Penalty) -> str:
    """The penalty's article together with the article that sets its amount for the case's infractions: Ferraz
    ``art. 68 (30 (trinta) UFM, em dobro na reincidência), combinado com o art. 75`` (art. 75 alone says only that
    offenders are subject to "as penalidades legalmente previstas")."""
    sf = statute.unidade_fiscal
    parts: list[str] = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        if rule is None or pen_id not in rule.penalidades:
            continue
        f = formula_for(statute, rule, pen_id)
        if f is None or f.citacao == pen.citacao:
            continue
        text = f.citacao.short()
        if isinstance(f, FixedFine):  # the amount the article sets, between dashes (no stacked parentheses)
            rec = f.reincidencia
            text += f" — multa de {ptbr.format_decimal(f.unidades)} {sf.sigla}"
            if rec is not None and rec.fator == 2:
                text += ", aplicada em dobro na reincidência" + (
                    "" if rec.citacao == f.citacao else f" ({rec.citacao.short()})")
            text += " —"
        if text not in parts:
            parts.append(text)
    if not parts:
        return statute.cite(pen.citacao)
    return f"{statute.lei.label}, {'; '.join(parts)}, combinado com o {pen.citacao.short()}"


def refusal_text(case: Case, statute: Statute, kind: DocumentKind, draft: bool) -> str:
    """What the document says of an autuado who refused, by the law's own rule (``recusa`` of the kind or, for a
    document that follows an auto, of the auto): a witness is named only when the case lists one."""
    rule = kind.recusa
    if rule is None:
        auto = statute.documentos.get("auto_de_infracao")
        rule = auto.recusa if auto is not None else None
    named = [t for t in case.assinaturas.testemunhas if not _blank(t.nome)]
    if named:
        witness = (" na presença da testemunha abaixo identificada" if len(named) == 1 else
                   " na presença das testemunhas abaixo identificadas")
    else:
        witness = " na presença de [TESTEMUNHA NÃO INFORMADA]" if draft and rule is not None and rule.testemunha else ""
    if rule is None:  # the law says nothing: state the fact, claim no effect
        return ("O autuado recusou-se a assinar e a dar ciência deste auto; o agente autuante certifica o "
                f"ocorrido{witness}.")
    return (f"{_flat(rule.texto).replace('{testemunha}', witness).replace('{recebedor}', _copy_receiver(case, draft))} "
            f"({statute.cite(rule.citacao)})")


def _copy_receiver(case: Case, draft: bool) -> str:
    """Who received the copy of the auto the autuado refused to sign: the person present (who refused), else the
    autuado — a company's legal representative, named, on its behalf."""
    a = case.autuado
    sig = case.assinaturas.autuado
    present = sig.nome_de_quem_assinou if sig is not None and sig.nome_de_quem_assinou else None
    if a.tipo == "pessoa_fisica":
        return present or a.nome or _or_missing(None, draft)
    rep = present or (a.responsavel_legal.nome if a.responsavel_legal is not None else None)
    return f"{rep}, pela autuada {a.nome}" if rep else _or_missing(None, draft)


def interpretation_clauses(case: Case, statute: Statute, kind: DocumentKind) -> list[dict[str, str]]:
    """The recorded choices the document applies, printed with the law's clauses in the act's words
    (``no_documento``; a choice without them is not printed): those of the kind, of the law's rule on a refusal
    (when the autuado refused) and of the condition of each penalty proposed."""
    ids = list(kind.interpretacoes)
    sig = case.assinaturas.autuado
    refusal = kind.recusa or (statute.documentos["auto_de_infracao"].recusa
                              if "auto_de_infracao" in statute.documentos else None)
    if refusal is not None and refusal.interpretacao and sig is not None and sig.situacao == "recusou":
        ids.append(refusal.interpretacao)
    for p in case.penalidades:
        pen = statute.penalidades.get(p.tipo)
        cond = pen.condicoes.get(p.condicao) if pen is not None and p.condicao else None
        if cond is not None and cond.interpretacao:
            ids.append(cond.interpretacao)
    by_id = {i.id: i for i in statute.interpretacoes}
    return [{"texto": _flat(it.no_documento), "citacao": statute.cite(it.citacao)}
            for i in dict.fromkeys(ids) if (it := by_id.get(i)) is not None and it.no_documento]


def exception_clauses(case: Case, statute: Statute) -> list[dict[str, str]]:
    """The exception, dispensation or tolerance of the law each infraction's facts fall under (``infracoes[].
    excecao``), printed with the law's clauses: the document states the case the law takes out of the infraction
    (the validator reports it as an error, so only a draft carries it)."""
    out: list[dict[str, str]] = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        exc = next((e for e in rule.excecoes if e.id == inf.excecao), None) if rule is not None else None
        if exc is None:
            continue
        out.append({"texto": f"{_cap(EXCEPTION_KIND_PT[exc.tipo])} registrada nos fatos: {_flat(exc.descricao)}. "
                             f"{_cap(_flat(exc.efeito))}",
                    "citacao": _inner(statute.cite(exc.citacao) + (f"; {exc.citacao_regra.short()}"
                                                                    if exc.citacao_regra else ""))})
    return out


def _applied_extent(name: str, extent: str | None) -> str:
    """``interdição total ou parcial do estabelecimento`` → ``interdição total do estabelecimento``."""
    if extent is None:
        return name
    return name.replace("total ou parcial", extent) if "total ou parcial" in name else f"{name}, {extent}"


def _case_sections(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None,
                   prazos: list[dict[str, Any]], *, draft: bool, notice_date: str | None) -> dict[str, Any]:
    """The whole case, as every kind except the edital prints it."""
    a = case.autuado
    lav = case.lavratura
    m = _missing_fn(draft)

    opening = ""
    if lav.data:
        opening = ptbr.date_words_opening(lav.data)
        if lav.hora:
            opening += f", às {ptbr.format_time(lav.hora)} ({ptbr.time_words(lav.hora)})"
        if lav.local:
            opening += ", " + ptbr.in_place(lav.local)

    resp = a.responsavel_legal
    pens = []
    despesas: dict[str, Any] | None = None
    for p in case.penalidades:
        pen = statute.penalidades.get(p.tipo)
        if pen is None:
            continue
        if pen.natureza == "despesa":  # costs owed on top of the penalties (Cuiabá art. 38): a section apart
            part = fines.part("despesa") if fines is not None else None
            despesas = {"nome": _cap(pen.nome), "citacao": penalty_citation(case, statute, p.tipo, pen),
                        "valor": _fine_section(part)}
            continue
        itens = [i.descricao + (f" — {i.quantidade}" if i.quantidade else "") + (f" — {i.lote}" if i.lote else "")
                 for i in p.itens]
        dep = p.fiel_depositario
        cond = pen.condicoes.get(p.condicao) if p.condicao else None
        # an apprehension on a ground that is no infraction (Cuiabá arts. 8º and 9º, II and V) is no penalty of
        # art. 35: it cites the ground
        rules = [statute.infracoes.get(inf.regra) for inf in case.infracoes]
        grounds = [r for r in rules if r is not None and r.fundamento_apreensao and p.tipo in r.penalidades]
        ground_cite = ("; ".join(statute.cite(r.citacao) for r in grounds) + " — fundamento da apreensão, que não é "
                       "infração" if grounds and len(grounds) == len(rules) else None)
        pens.append({
            # a measure the law admits "total ou parcial" (Timóteo art. 16, VI) is named as the auto applies it:
            # the auto may not leave the penalty undetermined (art. 20, § 3º)
            "nome": _cap(_applied_extent(pen.nome, p.abrangencia)),
            "citacao": _inner(f"{statute.cite(cond.citacao)}: {_flat(cond.descricao)}" if cond is not None
                              else ground_cite or penalty_citation(case, statute, p.tipo, pen)),
            "itens": itens,
            "fiel_depositario": (f"{dep.nome}" + (f", CPF {dep.cpf}" if dep.cpf else "")) if dep and dep.nome else "",
            "observacao": p.observacao or "",
            "motivo_valor": _flat(p.motivo_valor) if p.motivo_valor else "",
            "motivo_nao_advertencia": _flat(p.motivo_nao_advertencia) if p.motivo_nao_advertencia else "",
        })

    circ: list[dict[str, str]] = []
    if statute.circunstancias:
        sc, cc = statute.circunstancias, case.circunstancias
        for kind_name, table, given in (("Atenuante", sc.atenuantes, cc.atenuantes),
                                        ("Agravante", sc.agravantes, cc.agravantes)):
            for letter in given:
                c = table.get(letter)
                if c:
                    circ.append({"tipo": kind_name, "descricao": c.descricao,
                                 "citacao": _inner(statute.cite(c.citacao))})

    sig = case.assinaturas.autuado
    situacao = {
        # the autuado's own dated receipt above the signature (Timóteo art. 20, § 2º; Ferraz art. 76, I:
        # "contra-recibo datado"), not the agent's statement that it was signed: dated as the processo records the
        # ciência (the same date the auto's "Ciência" line and its deadlines use), blank when it records none
        "assinou": "Recebi a cópia deste auto em "
        + (ptbr.format_date(sig.data) if sig and sig.data else "____/____/________") + ".",
        "recusou": refusal_text(case, statute, kind, draft),
        # the party's label, as the auto's "1. AUTUADO": feminine only for a woman the case names so
        "ausente": f"Autuad{'a' if a.tratamento == 'senhora' else 'o'} ausente no ato da lavratura; a ciência será "
                   "dada na forma da lei.",
    }.get(sig.situacao if sig and sig.situacao else "", "")
    if sig and sig.certificacao_recusa:
        situacao += f" Certificação: {sig.certificacao_recusa}"

    notice = None
    if case.notificacao:
        notice = {"forma": _FORMS[case.notificacao.forma], "data": notice_date or ""}

    return {
        "abertura": opening,
        "auto_ref": _auto_ref(case, draft),
        "autuado": {
            "tipo": "Pessoa jurídica" if a.tipo == "pessoa_juridica" else "Pessoa física",
            "pj": a.tipo == "pessoa_juridica", "feminino": a.tipo == "pessoa_juridica" or a.tratamento == "senhora",
            # acts through a legal representative named on the document: a company, or a minor (Ferraz art. 53, § 2º)
            "representado": a.tipo == "pessoa_juridica" or a.menor,
            "nome": m(a.nome),
            "nome_fantasia": a.nome_fantasia or "",
            "documento_rotulo": a.documento_rotulo,
            "documento": m(a.documento),
            "qualificacao": m(a.qualificacao),
            "endereco": m(a.endereco.linha() if a.endereco else None)
            if not a.endereco_desconhecido else "em local incerto ou desconhecido",
            "registro": a.registro or "",
            # the facts of the small-scale reduction (Timóteo art. 16, § 5º), printed where the autuado is named
            "porte": (f"pequeno porte — {_flat(a.pequeno_porte_fundamento)}"
                      if a.pequeno_porte and a.pequeno_porte_fundamento else ""),
            "responsavel_nome": m(resp.nome if resp else None),
            "responsavel_cpf": m(resp.cpf if resp else None),
            "responsavel_qualificacao": m(resp.qualificacao if resp else None),
            # name, CPF and qualification, each only when known (no empty ", , " in a final document)
            "responsavel": ", ".join(x for x in (m(resp.nome if resp else None),
                                                 f"CPF {resp.cpf}" if resp and resp.cpf else m(None),
                                                 m(resp.qualificacao if resp else None)) if x),
        },
        "lavratura": {
            "local": m(lav.local),
            "data": _fmt_date(lav.data, draft),
            "data_extenso": ptbr.date_words(lav.data) if lav.data else m(None),
            "hora": ptbr.format_time(lav.hora) if lav.hora else m(None),
        },
        "data_infracao": _fmt_date(case.infraction_date, draft),
        "fatos": m(_flat(case.fatos) if case.fatos else None),
        "infracoes": infractions(case, statute),
        "penalidades": pens,
        "circunstancias": circ,
        # the penalties' amount only: costs (Cuiabá art. 38) are 'despesas', with their own total
        "multa": _fine_section(fines.part("penalidade") if fines is not None else None),
        "despesas": despesas,
        "prazos": prazos,
        "notificacao": notice,
        "assinatura_autuado": situacao,
        "recusa": bool(sig and sig.situacao == "recusou"), "ausente": bool(sig and sig.situacao == "ausente"),
        "testemunhas": [{"nome": t.nome or "", "cpf": t.cpf or "", "endereco": t.endereco or ""}
                        for t in case.assinaturas.testemunhas],
        "observacoes": case.observacoes or "",
    }
