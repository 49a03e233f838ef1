"""The consolidated edital of a publication: its context (preamble, deadlines, closing, signer, metadata) and the
note a republicação prints under its number."""

from __future__ import annotations

import json
from typing import Any

from autos.app.editais.jobs import Prepared
from autos.app.generation.pipeline import Autos
from autos.base import ptbr
from autos.documents.context import ementa_clause, letterhead
from autos.documents.counting import counting_clause
from autos.errors import AutosError
from autos.rules.deadlines import NoticeFormRule
from autos.rules.statute import Statute
from autos.store.ledger import EditalRecord


def consolidated_context(autos: Autos, rec: EditalRecord, items: list[Prepared], statute: Statute,
                         rule: NoticeFormRule) -> dict[str, Any]:
    """The context of the consolidated edital of ``items`` (one law, one notification date)."""
    lei = statute.lei
    rows = []
    for i, p in enumerate(items):
        assert p.linha is not None
        rows.append({**p.linha, "ordem": i + 1})
    first = rows[0]
    dates = {r["notificacao_em"] for r in rows}
    if len(dates) != 1:
        raise AutosError(f"datas de notificação diferentes no mesmo edital ({sorted(dates)}); nada publicado.")
    place = f"{lei.municipio}/{lei.uf}"
    orgao = " ".join(lei.orgao.split())
    with_deadlines = any(r["prazos"] for r in rows)
    # the case the law admits the edital in, in its own words (Ferraz art. 76, III: "desconhecido o domicílio
    # fiscal do infrator"); a law without them (Cuiabá, by analogy) keeps the general wording
    who = (f"— em cada caso, {rule.hipotese} —" if rule.hipotese
           else "com domicílio desconhecido ou em local incerto ou não sabido,")
    preambulo = (f"O MUNICÍPIO DE {lei.municipio.upper()}, com fundamento na {rule.base_legal}, NOTIFICA as "
                 f"pessoas abaixo relacionadas {who} da "
                 "lavratura dos autos de infração indicados, para que tomem ciência das penalidades aplicadas"
                 + (" e, querendo, exerçam os direitos previstos em lei nos prazos indicados."
                    if with_deadlines else "."))
    fecho = ("Os autos de infração ficam à disposição dos notificados na repartição indicada no cabeçalho. "
             f"Este edital, Nº {rec.numero}/{rec.ano}, é publicado uma única vez: {rec.veiculo}"
             + (f", e {rec.jornal}" if rec.jornal else "") + ".")
    issued = rec.data_edital
    titulo = f"Edital de Notificação nº {rec.numero}/{rec.ano}"
    signer = statute.edital_assinatura
    if signer is None:  # checked before the number was reserved; the rules changed since (a recovery)
        raise AutosError(f"as regras da lei ({statute.file}) não dizem quem assina o edital consolidado.",
                         hint="acrescente 'edital_assinatura' com 'nome' e 'cargo' e rode de novo.")
    exemplo_aviso = next((r["exemplo_aviso"] for r in rows if r["exemplo_aviso"]), "")
    if signer.exemplo:
        exemplo_aviso = " ".join(part for part in (exemplo_aviso, (
            "ATENÇÃO: o nome e o cargo de quem assina este edital são EXEMPLOS das regras do sistema, não os "
            "da autoridade designada pelo Município.")) if part)
    return {
        "cabecalho": letterhead(statute, autos.letterhead(statute)),
        "lei": {"rotulo": lei.label, "ementa": " ".join(lei.ementa.split()),
                "ementa_oracao": ementa_clause(lei.ementa)},
        "edital": {
            "numero": f"{rec.numero}/{rec.ano}",
            "forma": rule.descricao,
            "base_legal": rule.base_legal,
            "preambulo": preambulo,
            "veiculo": rec.veiculo,
            "data_publicacao": ptbr.format_date(rec.data_publicacao),
            "jornal": rec.jornal or "",
            "data_jornal": ptbr.format_date(rec.data_jornal) if rec.data_jornal else "",
            "notificacao_em": first["notificacao_em"],
            "efeito": first["efeito"],
            "prazos": list({(d["descricao"], d["prazo"], d["base_legal"]): {
                "descricao": d["descricao"], "prazo": d["prazo"], "base_legal": d["base_legal"],
                "aviso": d.get("aviso", "")}  # every case has the same dates: the same warning
                for r in rows for d in r["prazos"]}.values()),
            "contagem": counting_clause(autos.deadline_service.law(statute)) if with_deadlines else None,
            "fecho": fecho,
            "correcao": correction_note(rec),  # a republicação: which edital, published when, and why
        },
        "casos": rows,
        "exemplo_aviso": exemplo_aviso,
        "assinatura": {"nome": signer.nome, "cargo": signer.cargo},
        "local_data": f"{place}, {ptbr.format_date(issued)}.",
        "rodape": f"{titulo} — {lei.label} — {place}",
        "metadados": {
            "titulo": f"{titulo} — {place}",
            "autor": f"Prefeitura Municipal de {lei.municipio} — {orgao}",
            "assunto": f"{titulo} — {lei.label} — {ptbr.count_noun(len(rows), 'notificado', 'notificados')}",
            "palavras_chave": f"edital de notificação, {lei.label}, {lei.municipio}",
        },
    }


def correction_note(rec: EditalRecord) -> str:
    """What a republicação prints under its number (recorded with it in the ledger), or ``""``."""
    if rec.tipo != "republicacao" or not rec.alteracoes:
        return ""
    return str(json.loads(rec.alteracoes).get("nota", ""))
