"""The one context object both renderers (DOCX and PDF) read.

Everything is pre-formatted here — dates in words, money in figures and words, citations — so the
two templates print the same text and the element-presence tests can look for the same strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import ptbr
from .case import Case
from .fines import FineResult
from .rules import Statute
from .validate import Report

_STATE_NAMES = {
    "MG": "Estado de Minas Gerais", "SP": "Estado de São Paulo", "MT": "Estado de Mato Grosso",
}
_FORMS = {
    "pessoal": "pessoalmente ou por representante legal",
    "recusa": "pessoalmente, com recusa certificada pelo agente na presença de testemunha",
    "ar": "por via postal, mediante carta registrada com aviso de recebimento (AR)",
    "edital": "por edital",
}


@dataclass(frozen=True)
class DeadlineLine:
    """A deadline as printed on a document (computed by the deadline engine)."""

    descricao: str
    base_legal: str
    prazo: str  # "15 (quinze) dias corridos, contados da ciência"
    data: str | None = None  # "31 de março de 2026" when the start is known
    explicacao: list[str] = field(default_factory=list)


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _or_missing(value: str | None, draft: bool) -> str:
    """A missing value prints as a visible gap in a draft (a final document never has one)."""
    if _blank(value):
        return "[NÃO INFORMADO]" if draft else ""
    assert value is not None
    return value


def build_context(case: Case, statute: Statute, report: Report, fines: FineResult | None,
                  deadlines: list[DeadlineLine], *, draft: bool, notice_date: str | None = None,
                  generated_at: datetime | None = None) -> dict[str, Any]:
    """The context of one document. ``draft`` marks it MINUTA and lists what is missing."""
    kind = statute.documentos[case.documento]
    lei = statute.lei
    a = case.autuado
    lav = case.lavratura

    def m(value: str | None) -> str:
        return _or_missing(value, draft)

    opening = ""
    if lav.data:
        opening = ptbr.date_words_opening(lav.data)
        if lav.hora:
            opening += f", às {ptbr.format_time(lav.hora)} ({ptbr.time_words(lav.hora)})"
        if lav.local:
            opening += f", em {lav.local}"

    resp = a.responsavel_legal
    infr = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        if rule is None:
            infr.append({"citacao": f"[regra desconhecida: {inf.regra}]", "descricao": "", "complemento": ""})
            continue
        infr.append({
            "citacao": statute.cite(rule.citacao),
            "descricao": " ".join(rule.descricao.split()),
            "complemento": inf.complemento or "",
        })

    pens = []
    for p in case.penalidades:
        pen = statute.penalidades.get(p.tipo)
        if pen is None:
            continue
        itens = [f"{i.descricao}" + (f" — {i.quantidade}" if i.quantidade else "") for i in p.itens]
        dep = p.fiel_depositario
        pens.append({
            "nome": pen.nome[:1].upper() + pen.nome[1:],
            "citacao": statute.cite(pen.citacao),
            "itens": itens,
            "fiel_depositario": (f"{dep.nome}" + (f", CPF {dep.cpf}" if dep.cpf else "")) if dep and dep.nome else "",
            "observacao": p.observacao or "",
        })

    circ: list[dict[str, str]] = []
    if statute.circunstancias:
        sc, cc = statute.circunstancias, case.circunstancias
        for kind_name, table, given in (("Atenuante", sc.atenuantes, cc.atenuantes),
                                        ("Agravante", sc.agravantes, cc.agravantes)):
            for letter in given:
                c = table.get(letter)
                if c:
                    circ.append({"tipo": kind_name, "descricao": c.descricao, "citacao": statute.cite(c.citacao)})

    multa: dict[str, Any] | None = None
    if fines is not None:
        multa = {
            "unidades": fines.unidades_texto(),
            "reais": fines.reais_texto(),
            "memoria": [{"descricao": s.descricao, "base_legal": s.base_legal or "", "resultado": s.resultado}
                        for s in fines.memo()],
            "valor_unidade": f"R$ {ptbr.format_decimal(fines.valor_unidade.valor)}",
            "fonte_unidade": fines.valor_unidade.fonte,
            "exemplo": fines.exemplo,
        }

    sig = case.assinaturas.autuado
    situacao = {
        "assinou": "O autuado recebeu cópia deste auto e o assinou"
        + (f" em {ptbr.format_date(sig.data)}" if sig and sig.data else "") + ".",
        "recusou": "O autuado recusou-se a assinar e a dar ciência deste auto; o agente autuante certifica o "
        "ocorrido na presença da testemunha abaixo identificada, e o autuado é considerado notificado "
        "para todos os efeitos.",
        "ausente": "Autuado ausente no ato da lavratura; a ciência será dada na forma da lei.",
    }.get(sig.situacao if sig and sig.situacao else "", "")
    if sig and sig.certificacao_recusa:
        situacao += f" Certificação: {sig.certificacao_recusa}"

    notice = None
    if case.notificacao:
        notice = {"forma": _FORMS[case.notificacao.forma], "data": notice_date or ""}

    pendencias = [f"{f.codigo}: {f.mensagem}" + (f" ({f.citacao})" if f.citacao else "") for f in report.errors]
    exemplo_aviso = ""
    if statute.example_values or (fines is not None and fines.exemplo):
        exemplo_aviso = (f"ATENÇÃO: o valor da {statute.unidade_fiscal.sigla} usado neste documento é um VALOR DE "
                         "EXEMPLO das regras do sistema, não o valor oficial fixado pelo Município.")
    now = generated_at or datetime.now()
    municipio_upper = lei.municipio.upper()
    return {
        "minuta": draft,
        "pendencias": pendencias,
        "exemplo_aviso": exemplo_aviso,
        "documento": {
            "titulo": kind.titulo,
            "titulo_upper": kind.titulo.upper(),
            "numero": m(case.numero),
            "processo": case.processo or "",
            "base_legal": statute.cite(kind.citacao),
            "nulidade": statute.cite(kind.nulidade) if kind.nulidade else "",
        },
        "cabecalho": {
            "prefeitura": f"PREFEITURA MUNICIPAL DE {municipio_upper}",
            "estado": _STATE_NAMES.get(lei.uf, lei.uf),
            "orgao": " ".join(lei.orgao.split()),
        },
        "lei": {
            "rotulo": lei.label,
            "ementa": " ".join(lei.ementa.split()),
            "urn": lei.urn,
            "municipio": lei.municipio,
            "uf": lei.uf,
        },
        "abertura": opening,
        "autuado": {
            "tipo": "Pessoa jurídica" if a.tipo == "pessoa_juridica" else "Pessoa física",
            "pj": a.tipo == "pessoa_juridica",
            "nome": m(a.nome),
            "nome_fantasia": a.nome_fantasia or "",
            "documento_rotulo": a.documento_rotulo,
            "documento": m(a.documento),
            "qualificacao": m(a.qualificacao),
            "endereco": m(a.endereco.linha() if a.endereco else None)
            if not a.endereco_desconhecido else "em local incerto ou desconhecido",
            "registro": a.registro or "",
            "responsavel_nome": m(resp.nome if resp else None),
            "responsavel_cpf": m(resp.cpf if resp else None),
            "responsavel_qualificacao": m(resp.qualificacao if resp else None),
        },
        "lavratura": {
            "local": m(lav.local),
            "data": ptbr.format_date(lav.data) if lav.data else m(None),
            "data_extenso": ptbr.date_words(lav.data) if lav.data else m(None),
            "hora": ptbr.format_time(lav.hora) if lav.hora else m(None),
        },
        "data_infracao": ptbr.format_date(case.infraction_date) if case.infraction_date else m(None),
        "fatos": m(" ".join(case.fatos.split()) if case.fatos else None),
        "infracoes": infr,
        "penalidades": pens,
        "circunstancias": circ,
        "multa": multa,
        "prazos": [d.__dict__ for d in deadlines],
        "notificacao": notice,
        "agente": {
            "nome": m(case.agente.nome),
            "cargo": m(case.agente.cargo),
            "matricula": m(case.agente.matricula),
            "crmv": case.agente.crmv or "",
        },
        "assinatura_autuado": situacao,
        "recusa": bool(sig and sig.situacao == "recusou"),
        "testemunhas": [{"nome": t.nome or "", "cpf": t.cpf or "", "endereco": t.endereco or ""}
                        for t in case.assinaturas.testemunhas],
        "observacoes": case.observacoes or "",
        "local_data_assinatura": f"{lei.municipio}/{lei.uf}, "
        + (ptbr.format_date(lav.data) if lav.data else "____ de ______________ de ______") + ".",
        "metadados": {
            "titulo": f"{kind.titulo} nº {case.numero or 's/n'} — {lei.municipio}/{lei.uf}",
            "autor": f"Prefeitura Municipal de {lei.municipio} — {case.agente.nome or 'agente não informado'}",
            "assunto": f"{kind.titulo} — {lei.label} — autuado: {a.nome or 'não informado'}",
            "palavras_chave": f"auto de infração, {lei.label}, {lei.municipio}",
        },
        "rodape": f"{kind.titulo} nº {case.numero or 's/n'} — {lei.label} — gerado em "
        f"{now.strftime('%d/%m/%Y %H:%M')} por autos",
    }
