"""What the termos add to the case: the apprehension (animals and their custody costs by day, or goods and their
depositary), the measure imposed or ended (embargo, interdição, suspensão, cassação, condenação, restituição), and
the written warning."""

from __future__ import annotations

from typing import Any

from autos.base import ptbr
from autos.compute.deadlines import compute
from autos.compute.fine_formulas import _norm_key
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.documents.deadline_terms import element_deadlines
from autos.documents.formatting import (
    _as_date,
    _blank,
    _cap,
    _flat,
    _fmt_date,
    _inner,
    _missing_fn,
    _or_missing,
    _safe,
    example_warning,
)
from autos.documents.ruling_sections import _RESULTS
from autos.processo.case import Case, Medida
from autos.rules.document_kinds import DocumentKind
from autos.rules.fine_rules import ApprehensionCosts
from autos.rules.statute import Statute


def _apprehension(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                  notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Termo de apreensão: animals (species, size, costs by day, rescue) or goods (items, depositary)."""
    ap = case.apreensao
    m = _missing_fn(draft)
    animals: list[dict[str, str]] = []
    costs_pen = next((el.penalidade for el in kind.elementos if el.verificacao == "custas_por_dia"), None)
    custas: dict[str, Any] | None = None
    if costs_pen is not None:
        calc = statute.penalidades[costs_pen].calculo
        assert isinstance(calc, ApprehensionCosts)
        for inf in case.infracoes:
            rule = statute.infracoes.get(inf.regra)
            if rule is None or costs_pen not in rule.penalidades or _blank(inf.especie):
                continue
            assert inf.especie is not None
            species = calc.especies.get(_norm_key(inf.especie))
            porte = calc.portes[species.porte].nome if species else m(None)
            animals.append({
                "especie": inf.especie.replace("_", " "),
                "porte": porte,
                "porte_citacao": _inner(statute.cite(species.citacao)) if species else "",
                "quantidade": ptbr.format_decimal(inf.quantidade) if inf.quantidade is not None else m(None),
            })
        by_day = _safe(lambda: computed.costs_by_day(costs_pen), draft) or []
        if by_day:
            custas = {
                "dias": [{"dia": f"{day}º dia", "diarias": _days_label(day),
                          "unidades": r.unidades_texto(), "reais": r.reais_texto()}
                         for day, r in enumerate(by_day, 1)],
                "memoria": [{"descricao": s.descricao, "base_legal": s.base_legal or "", "resultado": s.resultado}
                            for s in by_day[-1].memo()],
                "valor_unidade": f"R$ {ptbr.format_decimal(by_day[0].valor_unidade.valor)}",
                "fonte_unidade": by_day[0].valor_unidade.fonte,
                "exemplo": any(r.exemplo for r in by_day),
            }
    goods = []
    for p in case.penalidades:
        pen = statute.penalidades.get(p.tipo)
        if pen is None or not pen.exige_itens:
            continue
        dep = p.fiel_depositario
        goods.append({
            "medida": _cap(pen.nome),
            "citacao": statute.cite(pen.citacao),
            "itens": [{"descricao": i.descricao, "quantidade": i.quantidade or "", "lote": i.lote or ""}
                      for i in p.itens],
            "local_deposito": p.local_deposito or "",
            "depositario": {
                "nome": dep.nome or "", "cpf": dep.cpf or "", "qualificacao": dep.qualificacao or "",
                "endereco": dep.endereco.linha() if dep.endereco else "",
            } if dep is not None and dep.nome else None,
        })
    facts = None
    if ap is not None or animals:
        facts = {
            "data": _fmt_date(ap.data if ap else None, draft),
            "hora": ptbr.format_time(ap.hora) if ap and ap.hora else m(None),
            "local": m(ap.local if ap else None),
            "descricao": m(_flat(ap.descricao) if ap and ap.descricao else None),
            "recolhimento": _fmt_date(ap.data_recolhimento if ap else None, draft),
            "local_recolhimento": (ap.local_recolhimento or "") if ap else "",
        }
    out: dict[str, Any] = {} if custas is None or not custas["exemplo"] else {"exemplo_aviso": example_warning(statute)}
    return {
        **out,
        "apreensao": facts,
        "animais": animals,
        "bens": goods,
        "prazos_documento": element_deadlines(case, statute, kind, draft=draft, computed=computed),
        "custas": custas,
    }


def _days_label(n: int) -> str:
    """``1º dia``; ``1º e 2º dias``; ``1º, 2º e 3º dias``."""
    ords = [f"{i}º" for i in range(1, n + 1)]
    return f"{ords[0]} dia" if n == 1 else f"{', '.join(ords[:-1])} e {ords[-1]} dias"


def _sanction_sentences(md: Medida, local: str, data: str, fim: str) -> tuple[str, str] | None:
    """The operative sentences of the termos of Timóteo art. 16, IV (condenação e inutilização), V (suspensão da
    atividade, and its levantamento: art. 5º, IV) and VII (cassação do registro); None for the other measures."""
    termo = f", termo nº {md.numero}," if md.numero else ","
    if md.tipo == "condenacao":
        return (f"Ficam CONDENADOS, em {data}, os itens abaixo descritos, com a inutilização ou a destinação final "
                "abaixo indicada.", "")
    if md.tipo == "suspensao":
        return (f"Fica SUSPENSA a atividade abaixo descrita, do estabelecimento situado em {local}, a partir de "
                f"{data}.",
                f"Fica LEVANTADA a suspensão da atividade do estabelecimento situado em {local}, imposta em {data}"
                f"{termo} em {fim}.")
    if md.tipo == "cassacao":
        return f"Fica CASSADO, a partir de {data}, o registro junto ao SIM abaixo descrito.", ""
    return None


def _measure_sentence(md: Medida, local: str, data: str, fim: str) -> tuple[str, str]:
    """The operative sentence of the termo that imposes the measure and of the one that ends it."""
    sanction = _sanction_sentences(md, local, data, fim)
    if sanction is not None:
        return sanction
    termo = f", termo nº {md.numero}," if md.numero else ","
    if md.tipo == "embargo" and md.vigente_desde is not None:  # Ferraz art. 37: embargoed since the notice
        return (f"Fica MANTIDO o embargo da obra situada {ptbr.in_place(local)}, vigente desde "
                f"{ptbr.format_date(md.vigente_desde)}, data da {md.vigente_por}; a partir de {data}, a obra "
                "permanece embargada pelo prazo abaixo.",
                f"Fica LEVANTADO o embargo da obra situada {ptbr.in_place(local)}, vigente desde "
                f"{ptbr.format_date(md.vigente_desde)}{termo} em {fim}.")
    if md.tipo == "embargo":
        return (f"Fica EMBARGADA a obra situada {ptbr.in_place(local)}, a partir de {data}.",
                f"Fica LEVANTADO o embargo da obra situada {ptbr.in_place(local)}, imposto em {data}{termo} em {fim}.")
    if md.tipo == "interdicao":
        extent = {"total": " TOTAL", "parcial": " PARCIAL"}.get(md.abrangencia or "", "")
        return (f"Fica INTERDITADO, em interdição{extent}, o estabelecimento situado {ptbr.in_place(local)}, a partir "
                f"de {data}.",
                f"Fica LEVANTADA a interdição{extent} do estabelecimento situado {ptbr.in_place(local)}, imposta em "
                f"{data}{termo} em {fim}.")
    if md.itens:
        return (f"Ficam APREENDIDOS os bens acima descritos, em {data}.",
                f"Ficam RESTITUÍDOS ao proprietário ou responsável os bens acima descritos, apreendidos em {data}"
                f"{termo} em {fim}.")
    return (f"Fica APREENDIDO o que está acima descrito, em {data}.",
            f"Fica RESTITUÍDO ao proprietário ou responsável o que foi apreendido em {data}{termo} conforme descrito "
            f"acima, em {fim}.")


def _ended_within(md: Medida, kind: DocumentKind, draft: bool, computed: CaseComputation) -> str:
    """Whether a measure ended within the term the kind declares for it (counted from the measure's date, with
    the law's deadline rules and calendar the computation holds): a levantamento after the 30 days of the
    embargo leaves the fine of Ferraz art. 38 due."""
    if md.fim is None or md.data is None:
        return ""
    law, cal = computed.law_and_calendar()
    for el in kind.elementos:
        if el.verificacao != "prazo" or el.prazo is None or el.prazo not in law.prazos or el.campos != ["medida.data"]:
            continue
        d = _safe(lambda pid=el.prazo: compute(pid, md.data, law, cal), draft)
        if d is None:
            continue
        end = _as_date(d.fim)
        rule = law.deadline(el.prazo)
        when = ("dentro do prazo, que terminava" if md.fim <= end else "depois do fim do prazo, que terminou")
        return (f"A medida termina em {ptbr.format_date(md.fim)}, {when} em {ptbr.format_date(end)} "
                f"({rule.descricao.lower()}; {rule.base_legal}).")
    return ""


def _measure(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
             notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Termo de embargo, de interdição, de levantamento or de restituição, as of its date: the measure (where,
    what, since when, its number), the date it ends (a levantamento or restitution), the decision it depends on
    when there is one, and the terms the kind declares (Ferraz art. 37, p.u.: 30 days of embargo; Timóteo art.
    16, § 3º: 12 months of interdiction) counted from the measure's date by the deadline engine."""
    md = case.medida
    m = _missing_fn(draft)
    out: dict[str, Any] = {"prazos_documento": element_deadlines(case, statute, kind, draft=draft, computed=computed),
                           "medida": None, "decisao_base": ""}
    if md is None:
        return out
    data = _fmt_date(md.data, draft)
    imposes, ends = _measure_sentence(md, m(md.local), data, _fmt_date(md.fim, draft))
    if kind.frase_medida is not None:  # the law's own measure (Ferraz art. 69, § 3º: the licença de funcionamento)
        imposes = _flat(kind.frase_medida).replace("{data}", data).replace("{local}", m(md.local))
    out["medida"] = {
        "tipo": md.tipo, "numero": md.numero or "", "data": data, "local": m(md.local),
        "descricao": _flat(md.descricao) if md.descricao else "",
        "itens": [{"descricao": i.descricao, "quantidade": i.quantidade or "", "lote": i.lote or ""}
                  for i in md.itens],
        "local_deposito": md.local_deposito or "",
        "constatacao": _flat(md.constatacao) if md.constatacao else "",
        "certificacao": _flat(md.certificacao) if md.certificacao else "",
        "fim": _fmt_date(md.fim, draft),
        "impoe": imposes,
        "encerra": ends,
        "no_prazo": _ended_within(md, kind, draft, computed),
    }
    d = case.decisao
    if d is not None:
        name = "Decisão do recurso" if d.instancia == "recurso" else "Julgamento de primeira instância"
        out["decisao_base"] = (f"{name}{' nº ' + d.numero if d.numero else ''}, de {_fmt_date(d.data, draft)}: "
                               f"{_RESULTS.get(d.resultado or '', m(None))}.")
    return out


def _condemnation(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                  notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Termo de condenação e inutilização (Timóteo art. 16, IV): the measure as :func:`_measure` states it, with
    the inutilização or final destination given to the items (art. 5º, IV)."""
    out = _measure(case, statute, kind, fines, draft, notice_date, computed)
    md = case.medida
    if out["medida"] is not None and md is not None:
        out["medida"]["destino"] = _or_missing(_flat(md.destino) if md.destino else None, draft)
    return out


def _written_warning(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                     notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Advertência escrita (Ferraz art. 3º, § 1º, I): the warning, and whether the person warned received it (the
    act's own signature); what follows if the conduct persists is the law's clause (§ 1º, II)."""
    sig = case.assinaturas.autuado
    ciencia = ""
    if sig is not None and sig.situacao == "assinou":
        ciencia = "O advertido recebeu a 1ª via desta advertência" + (
            f" em {ptbr.format_date(sig.data)}" if sig.data else "") + "."
    elif sig is not None and sig.situacao == "recusou":
        ciencia = "O advertido recusou-se a receber esta advertência."
    elif sig is not None and sig.situacao == "ausente":
        ciencia = "O advertido estava ausente no ato da constatação."
    return {"advertencia": {
        "texto": f"Fica a pessoa acima identificada ADVERTIDA por escrito, nos termos da {statute.cite(kind.citacao)}, "
                 "pela conduta descrita; o que a lei prevê se ela persistir está nas cláusulas abaixo.",
        "ciencia": ciencia}}
