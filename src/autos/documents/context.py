"""The one context object both renderers (DOCX and PDF) read.

Everything is pre-formatted here — dates in words, money in figures and words, citations — so the
two templates of a kind print the same text and the element-presence tests can look for the same
strings. Every kind gets the same frame (letterhead, title, MINUTA, example-value warning, footer,
metadata, signatory, the law's clauses for the kind); then:

* ``auto_de_infracao``, ``notificacao_preliminar``, ``notificacao_ar``, ``termo_apreensao`` and
  ``demonstrativo_debito`` get the whole case (autuado, lavratura, fatos, infrações, penalidades, multa,
  prazos …) plus what the kind adds (the compliance order, the letter, the apprehension, the debt);
* ``edital_notificacao`` gets only what may be published (see :func:`edital_sections`): the name, the
  document number masked, the auto, the provision, the amount, the publication, the date the notice
  takes effect and the deadlines. The rest of the case is not in its context at all, so a template
  cannot leak it (the environments are ``StrictUndefined``: using it fails loudly).

Masking rule for publication (LGPD, Lei federal nº 13.709/2018, art. 6º, III — necessity): a CPF shows
only its 6 middle digits, ``***.456.789-**``; a CNPJ hides its first 2 digits and its 2 check digits,
``**.222.333/0001-**`` (the CNPJ of an individual entrepreneur or MEI identifies a natural person, and
the edital cannot tell the cases apart, so every CNPJ is masked the same way).

Deadlines come from the deadline engine: the lines the pipeline computes (those that run from the notice
of the auto) and, for kinds that declare their own (``verificacao: prazo`` elements: the compliance
order of a notificação preliminar, the rescue of an apprehended animal), :func:`autos.compute.deadlines.compute`
from the event the element names. Amounts come from :mod:`autos.compute.fines`.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

from autos.base import ptbr
from autos.base.dotted import resolve
from autos.base.yamlio import YamlDoc
from autos.checks.finding import Report
from autos.compute.deadlines import Deadline, compute, notice_effective
from autos.compute.fines import FineResult, _norm_key, costs_by_day
from autos.documents.lines import DeadlineLine, rule_term
from autos.documents.notice import DeadlineService
from autos.errors import AutosError, ComputeError
from autos.processo.case import Case
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar, load_calendar
from autos.rules.deadlines import NOTICE_EVENT, DeadlineRule, LawDeadlines, law_deadlines
from autos.rules.statute import ApprehensionCosts, DocumentKind, Element, Statute

_STATE_NAMES = {
    "MG": "Estado de Minas Gerais", "SP": "Estado de São Paulo", "MT": "Estado de Mato Grosso",
}
_FORMS = {
    "pessoal": "pessoalmente ou por representante legal",
    "recusa": "pessoalmente, com recusa certificada pelo agente na presença de testemunha",
    "ar": "por via postal, mediante carta registrada com aviso de recebimento (AR)",
    "edital": "por edital",
}
MISSING = "[NÃO INFORMADO]"
#: the kind (and template) whose context holds only what may be published
EDITAL = "edital_notificacao"


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _or_missing(value: str | None, draft: bool) -> str:
    """A missing value prints as a visible gap in a draft (a final document never has one)."""
    if _blank(value):
        return MISSING if draft else ""
    assert value is not None
    return value


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------------
# masking for publication


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def mask_cpf(cpf: str) -> str:
    """``123.456.789-09`` → ``***.456.789-**`` (only the 6 middle digits are published)."""
    d = _digits(cpf)
    if len(d) != 11:
        raise ValueError(f"CPF must have 11 digits: {cpf!r}")
    return f"***.{d[3:6]}.{d[6:9]}-**"


def mask_cnpj(cnpj: str) -> str:
    """``11.222.333/0001-81`` → ``**.222.333/0001-**`` (first 2 digits and check digits hidden)."""
    d = _digits(cnpj)
    if len(d) != 14:
        raise ValueError(f"CNPJ must have 14 digits: {cnpj!r}")
    return f"**.{d[2:5]}.{d[5:8]}/{d[8:12]}-**"


def mask_document(case: Case) -> str | None:
    """The autuado's CPF or CNPJ masked for publication (None when the case has none)."""
    a = case.autuado
    if a.tipo == "pessoa_fisica":
        return mask_cpf(a.cpf) if a.cpf else None
    return mask_cnpj(a.cnpj) if a.cnpj else None


# --------------------------------------------------------------------------------------------------
# deadlines declared by the kind's elements


_CALENDARS: dict[tuple[str, int], MunicipalCalendar] = {}


def _law_and_calendar(statute: Statute) -> tuple[LawDeadlines, MunicipalCalendar]:
    municipio_dir = statute.id.split("/", 1)[0]
    root = statute.file.parent.parent
    file = root / municipio_dir / "calendario.yaml"
    try:
        key = (str(file.resolve()), file.stat().st_mtime_ns)
    except OSError:
        key = (str(file), -1)
    if key not in _CALENDARS:
        _CALENDARS[key] = load_calendar(root, municipio_dir)
    return law_deadlines(statute), _CALENDARS[key]


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def _term(rule: DeadlineRule, law: LawDeadlines) -> str:
    """``30 (trinta) dias corridos, contados a partir da …``; the day after another deadline for ``dia_seguinte``."""
    if rule.tipo == "dia_seguinte":
        assert rule.depois_de is not None
        ref = law.deadline(rule.depois_de)
        text = f"dia seguinte ao fim do prazo de {_term(ref, law)} ({ref.base_legal})"
    else:

        text = f"{rule_term(rule)}, contados a partir da {rule.conta_de_descricao}"
    if rule.exemplo:
        text += " (prazo de EXEMPLO das regras do sistema, a confirmar no regulamento)"
    return text


def _skipped(d: Deadline) -> str:
    """``Dias sem expediente não contados: 12/10/2026 (…)`` for business-day counts and moved ends."""
    if not d.dias_pulados or not (d.tipo == "dias_uteis" or d.prorrogado):
        return ""
    days = "; ".join(f"{ptbr.format_date_short(_as_date(s.date))} ({s.reason})" for s in d.dias_pulados)
    return f"Dias sem expediente não contados: {days}."


def _notice_deadline(case: Case, statute: Statute) -> Deadline | None:
    """When the notice of this document takes effect (None when the case records no notice)."""
    if case.notificacao is None:
        return None

    law, cal = _law_and_calendar(statute)
    facts = DeadlineService.facts(LoadedCase(case=case, doc=YamlDoc(data=None, file=Path("caso"))))
    assert facts is not None
    return notice_effective(facts, law, cal)


def element_deadlines(case: Case, statute: Statute, kind: DocumentKind, *, draft: bool) -> list[dict[str, Any]]:
    """The deadlines the kind declares as its own elements (``verificacao: prazo`` with a deadline id taken
    from the case, or counted from an event the case records): the term always, the date when the event
    (or the notice) is known. Deadlines of the notice of the auto are the pipeline's lines instead."""
    wanted: list[Element] = [el for el in kind.elementos if el.verificacao == "prazo"
                             and (el.prazo_campo is not None or el.campos)]
    if not wanted:
        return []
    law, cal = _law_and_calendar(statute)
    notice: Deadline | None = None
    notice_known = False
    out: list[dict[str, Any]] = []
    for el in wanted:
        deadline_id = el.prazo if el.prazo_campo is None else resolve(case, el.prazo_campo)
        if _blank(deadline_id) or str(deadline_id) not in law.prazos:
            if draft:
                out.append({"descricao": el.descricao, "base_legal": statute.cite(el.citacao),
                            "prazo": "[PRAZO NÃO INFORMADO]", "data": "", "dias_pulados": "", "rotulo_data": "até"})
                continue
            raise ComputeError(f"o prazo do elemento {el.codigo} não está nas regras de prazos.")
        rule = law.deadline(str(deadline_id))
        start: date | None
        if rule.conta_de == NOTICE_EVENT:
            if not notice_known:
                notice = _safe(lambda: _notice_deadline(case, statute), draft)
                notice_known = True
            start = _as_date(notice.fim) if notice is not None else None
        else:
            value = resolve(case, el.campos[0]) if el.campos else None
            start = value if isinstance(value, date) else None
        line: dict[str, Any] = {"descricao": rule.descricao, "base_legal": rule.base_legal,
                                "prazo": _term(rule, law), "data": "", "dias_pulados": "",
                                # a 'dia_seguinte' date is when something becomes possible, not an end
                                "rotulo_data": "a partir de" if rule.tipo == "dia_seguinte" else "até"}
        if start is not None:
            d = _safe(lambda rid=rule.id, s=start: compute(rid, s, law, cal), draft)
            if d is not None:
                line["data"] = ptbr.format_date(_as_date(d.fim))
                line["dias_pulados"] = _skipped(d)
        out.append(line)
    return out


def _safe(fn: Any, draft: bool) -> Any:
    """Run a computation; in a draft a failure leaves the value out (its finding is listed), in a final
    document it propagates (validation should have caught it: fail loudly, write nothing)."""
    try:
        return fn()
    except AutosError:
        if draft:
            return None
        raise


# --------------------------------------------------------------------------------------------------
# the context


def build_context(case: Case, statute: Statute, report: Report, fines: FineResult | None,
                  deadlines: list[DeadlineLine], *, draft: bool, notice_date: str | None = None,
                  generated_at: datetime | None = None) -> dict[str, Any]:
    """The context of one document. ``draft`` marks it MINUTA and lists what is missing."""
    kind = statute.documentos[case.documento]
    ctx = _frame(case, statute, kind, report, fines, draft=draft, generated_at=generated_at)
    prazos = [{**d.__dict__, "dias_pulados": "", "rotulo_data": "até"} for d in deadlines]
    if EDITAL in (case.documento, kind.modelo):  # by kind or by template: a published edital never gets more
        ctx.update(edital_sections(case, statute, fines, prazos, draft=draft, notice_date=notice_date))
        return ctx
    ctx.update(_case_sections(case, statute, fines, prazos, draft=draft, notice_date=notice_date))
    builder = _KIND_SECTIONS.get(case.documento) or _KIND_SECTIONS.get(kind.modelo)
    if builder is not None:
        ctx.update(builder(case, statute, kind, fines, draft, notice_date))
    return ctx


def _frame(case: Case, statute: Statute, kind: DocumentKind, report: Report, fines: FineResult | None, *,
           draft: bool, generated_at: datetime | None) -> dict[str, Any]:
    """What every kind prints: letterhead, title, MINUTA, example warning, footer, metadata, signatory."""
    lei = statute.lei
    lav = case.lavratura
    m = _missing_fn(draft)
    pendencias = [f"{f.codigo}: {f.mensagem}" + (f" ({f.citacao})" if f.citacao else "") for f in report.errors]
    exemplo_aviso = ""
    if statute.example_values or (fines is not None and fines.exemplo):
        exemplo_aviso = (f"ATENÇÃO: o valor da {statute.unidade_fiscal.sigla} usado neste documento é um VALOR DE "
                         "EXEMPLO das regras do sistema, não o valor oficial fixado pelo Município.")
    now = generated_at or datetime.now()
    numero = case.numero or "s/n"
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
        "clausulas": [{"texto": _flat(c.texto), "citacao": statute.cite(c.citacao)} for c in kind.clausulas],
        "cabecalho": {
            "prefeitura": f"PREFEITURA MUNICIPAL DE {lei.municipio.upper()}",
            "estado": _STATE_NAMES.get(lei.uf, lei.uf),
            "orgao": _flat(lei.orgao),
        },
        "lei": {
            "rotulo": lei.label,
            "ementa": _flat(lei.ementa),
            "urn": lei.urn,
            "municipio": lei.municipio,
            "uf": lei.uf,
        },
        "agente": {
            "nome": m(case.agente.nome),
            "cargo": m(case.agente.cargo),
            "matricula": m(case.agente.matricula),
            "crmv": case.agente.crmv or "",
        },
        "local_data_assinatura": f"{lei.municipio}/{lei.uf}, "
        + (ptbr.format_date(lav.data) if lav.data else "____ de ______________ de ______") + ".",
        "metadados": {
            "titulo": f"{kind.titulo} nº {numero} — {lei.municipio}/{lei.uf}",
            "autor": f"Prefeitura Municipal de {lei.municipio} — {case.agente.nome or 'agente não informado'}",
            "assunto": f"{kind.titulo} — {lei.label} — autuado: {case.autuado.nome or 'não informado'}",
            "palavras_chave": f"{kind.titulo.lower()}, {lei.label}, {lei.municipio}",
            "criado_em": now.astimezone().isoformat(timespec="seconds"),  # W3CDTF, for the DOCX properties
        },
        "rodape": f"{kind.titulo} nº {numero} — {lei.label} — gerado em "
        f"{now.strftime('%d/%m/%Y %H:%M')} por autos",
    }


def _missing_fn(draft: bool) -> Any:
    def m(value: str | None) -> str:
        return _or_missing(value, draft)
    return m


def _fmt_date(value: date | None, draft: bool) -> str:
    return ptbr.format_date(value) if value else _or_missing(None, draft)


def _auto_ref(case: Case, draft: bool) -> dict[str, str]:
    """The auto de infração the document refers to (empty strings when the case names none)."""
    ref = case.auto
    if ref is None or (ref.numero is None and ref.data is None):
        return {"numero": "", "data": "", "texto": ""}
    numero = _or_missing(ref.numero, draft)
    data = _fmt_date(ref.data, draft)
    return {"numero": numero, "data": data, "texto": f"Auto de Infração nº {numero}, lavrado em {data}"}


def _infractions(case: Case, statute: Statute) -> list[dict[str, str]]:
    out = []
    for inf in case.infracoes:
        rule = statute.infracoes.get(inf.regra)
        if rule is None:
            out.append({"citacao": f"[regra desconhecida: {inf.regra}]", "descricao": "", "complemento": ""})
            continue
        out.append({"citacao": statute.cite(rule.citacao), "descricao": _flat(rule.descricao),
                    "complemento": inf.complemento or ""})
    return out


def _fine_section(fines: FineResult | None) -> dict[str, Any] | None:
    if fines is None:
        return None
    return {
        "unidades": fines.unidades_texto(),
        "reais": fines.reais_texto(),
        "memoria": [{"descricao": s.descricao, "base_legal": s.base_legal or "", "resultado": s.resultado}
                    for s in fines.memo()],
        "itens": [{"descricao": i.descricao, "base_legal": i.base_legal,
                   "unidades": ptbr.units_full(i.unidades, fines.sigla,
                                               feminine=fines.statute.unidade_fiscal.feminino),
                   "reais": ptbr.money_full(i.reais)} for i in fines.itens],
        "valor_unidade": f"R$ {ptbr.format_decimal(fines.valor_unidade.valor)}",
        "fonte_unidade": fines.valor_unidade.fonte,
        "data_referencia": ptbr.format_date(fines.data_referencia),
        "exemplo": fines.exemplo,
        "avisos": list(fines.avisos),
    }


def _case_sections(case: Case, statute: Statute, fines: FineResult | None, prazos: list[dict[str, Any]], *,
                   draft: bool, notice_date: str | None) -> dict[str, Any]:
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
            opening += f", em {lav.local}"

    resp = a.responsavel_legal
    pens = []
    for p in case.penalidades:
        pen = statute.penalidades.get(p.tipo)
        if pen is None:
            continue
        itens = [i.descricao + (f" — {i.quantidade}" if i.quantidade else "") + (f" — {i.lote}" if i.lote else "")
                 for i in p.itens]
        dep = p.fiel_depositario
        pens.append({
            "nome": _cap(pen.nome),
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

    return {
        "abertura": opening,
        "auto_ref": _auto_ref(case, draft),
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
            "data": _fmt_date(lav.data, draft),
            "data_extenso": ptbr.date_words(lav.data) if lav.data else m(None),
            "hora": ptbr.format_time(lav.hora) if lav.hora else m(None),
        },
        "data_infracao": _fmt_date(case.infraction_date, draft),
        "fatos": m(_flat(case.fatos) if case.fatos else None),
        "infracoes": _infractions(case, statute),
        "penalidades": pens,
        "circunstancias": circ,
        "multa": _fine_section(fines),
        "prazos": prazos,
        "notificacao": notice,
        "assinatura_autuado": situacao,
        "recusa": bool(sig and sig.situacao == "recusou"),
        "testemunhas": [{"nome": t.nome or "", "cpf": t.cpf or "", "endereco": t.endereco or ""}
                        for t in case.assinaturas.testemunhas],
        "observacoes": case.observacoes or "",
    }


# --- per kind ---------------------------------------------------------------------------------------


def _notice_rule_text(statute: Statute, forma: str) -> str:
    """How the law says a notice of this form takes effect, from the law's prazos file."""
    law = law_deadlines(statute)
    rule = law.notificacao.formas.get(forma)
    if rule is None:
        return ""
    if rule.prazo_tipo is None:
        return f"Nos termos da {rule.base_legal}, a notificação considera-se feita na {rule.base_descricao}."
    unit = {"dias_corridos": ("dia corrido", "dias corridos"), "dias_uteis": ("dia útil", "dias úteis")}.get(
        rule.prazo_tipo, ("dia", "dias"))
    q = rule.prazo_quantidade
    return (f"Nos termos da {rule.base_legal}, a notificação considera-se feita ao fim do prazo de {q} "
            f"({ptbr.int_to_words(q)}) {unit[0] if q == 1 else unit[1]}, contado da {rule.base_descricao}.")


def _preliminary(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                 notice_date: str | None) -> dict[str, Any]:
    """Notificação preliminar: the obligation, its deadline (engine) and how the notice takes effect."""
    ex = case.exigencia
    lines = element_deadlines(case, statute, kind, draft=draft)
    forma = case.notificacao.forma if case.notificacao else "pessoal"
    return {
        "exigencia": {
            "descricao": _or_missing(ex.descricao if ex else None, draft),
            "prazos": lines,
        },
        "ciencia": {
            "regra": _notice_rule_text(statute, forma),
            "data": notice_date or "",
        },
    }


def _letter(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
            notice_date: str | None) -> dict[str, Any]:
    """Notificação da autuação por carta com AR: the AR facts and how the notice takes effect."""
    n = case.notificacao
    ar = n.ar if n is not None and n.ar is not None else None
    return {
        "carta": {
            "efeito": _notice_rule_text(statute, "ar"),
            "postagem": ptbr.format_date(ar.data_postagem) if ar and ar.data_postagem else "",
            "recebimento": ptbr.format_date(ar.data_recebimento) if ar and ar.data_recebimento else "",
            "juntada": ptbr.format_date(ar.data_juntada) if ar and ar.data_juntada else "",
            "data_notificacao": notice_date or "",
        },
    }


def _apprehension(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                  notice_date: str | None) -> dict[str, Any]:
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
                "porte_citacao": statute.cite(species.citacao) if species else "",
                "quantidade": ptbr.format_decimal(inf.quantidade) if inf.quantidade is not None else m(None),
            })
        by_day = _safe(lambda: costs_by_day(case, statute, costs_pen), draft) or []
        if by_day:
            custas = {
                "dias": [{"dia": f"{day}º dia", "diarias": _days_label(day),
                          "unidades": r.unidades_texto(), "reais": r.reais_texto()}
                         for day, r in enumerate(by_day, 1)],
                "memoria": [{"descricao": s.descricao, "base_legal": s.base_legal or "", "resultado": s.resultado}
                            for s in by_day[-1].memo()],
                "valor_unidade": f"R$ {ptbr.format_decimal(by_day[0].valor_unidade.valor)}",
                "fonte_unidade": by_day[0].valor_unidade.fonte,
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
    return {
        "apreensao": facts,
        "animais": animals,
        "bens": goods,
        "prazos_documento": element_deadlines(case, statute, kind, draft=draft),
        "custas": custas,
    }


def _days_label(n: int) -> str:
    """``1º dia``; ``1º e 2º dias``; ``1º, 2º e 3º dias``."""
    ords = [f"{i}º" for i in range(1, n + 1)]
    return f"{ords[0]} dia" if n == 1 else f"{', '.join(ords[:-1])} e {ords[-1]} dias"


def _statement(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
               notice_date: str | None) -> dict[str, Any]:
    """Demonstrativo de débito: the reference date and unit value; the memo and totals are in ``multa``."""
    return {"debito": {"data_calculo": _fmt_date(case.lavratura.data, draft)}}


_RESULTS = {
    "mantida": "MANTIDO o auto de infração e MANTIDA a multa",
    "reduzida": "MANTIDO o auto de infração e REDUZIDA a multa",
    "cancelada": "CANCELADO o auto de infração e a multa dele decorrente",
}


def _decision(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
              notice_date: str | None) -> dict[str, Any]:
    """Decisão (julgamento or decisão do recurso), as of its date: the defence or appeal it decides (protocol
    and timeliness as the processo's timeline says), the result (a reduced fine in figures and words), who
    decides, and the deadline that follows from the notice of this decision (its date is not known yet: the
    notice is a later act)."""
    m = _missing_fn(draft)
    d = case.decisao
    if d is None:
        return {"decisao": None, "prazos_documento": []}
    imp = d.impugnacao
    impugnacao = ""
    if imp is not None:
        nome, g = ("Defesa", "a") if imp.tipo == "defesa" else ("Recurso", "o")  # grammatical gender
        impugnacao = (f"{nome}{' nº ' + imp.numero if imp.numero else ''} protocolad{g} em "
                      f"{_fmt_date(imp.data, draft)}")
        if imp.prazo_vencido_em is not None:
            impugnacao += (f", INTEMPESTIV{g.upper()}: o prazo venceu em "
                           f"{ptbr.format_date(imp.prazo_vencido_em)}")
        elif imp.tempestividade_conhecida:
            impugnacao += f", tempestiv{g}"
        impugnacao += "."
    elif d.instancia == "primeira":
        impugnacao = "Não foi apresentada defesa até a data desta decisão."
    resultado = _RESULTS.get(d.resultado or "", m(None))
    valor = ""
    if d.resultado == "reduzida":
        valor = ptbr.money_full(d.valor) if d.valor is not None else m(None)
        resultado += f" para {valor}"
    elif d.resultado == "mantida" and fines is not None:
        resultado += f", no valor de {fines.reais_texto()}"
    due = d.resultado in ("mantida", "reduzida")
    return {
        "decisao": {
            "instancia": "primeira instância" if d.instancia == "primeira" else "recurso",
            "numero": d.numero or "",
            "data": _fmt_date(d.data, draft),
            "impugnacao": impugnacao,
            "resultado": resultado + ".",
            "valor": valor,
            "autoridade": m(d.autoridade),
            "fundamentacao": _flat(d.fundamentacao) if d.fundamentacao else "",
            "devida": due,
        },
        # what follows the notice of this decision (payment) only when a fine is still due
        "prazos_documento": _decision_terms(statute, kind) if due else [],
    }


def _decision_terms(statute: Statute, kind: DocumentKind) -> list[dict[str, Any]]:
    """The deadlines the decision's kind names (``verificacao: prazo``), as terms without an end date: they run
    from the notice of this decision, a later act."""
    law, _cal = _law_and_calendar(statute)
    return [{"descricao": (rule := law.deadline(el.prazo)).descricao, "base_legal": rule.base_legal,
             "prazo": _term(rule, law), "data": "", "dias_pulados": "", "rotulo_data": "até"}
            for el in kind.elementos if el.verificacao == "prazo" and el.prazo is not None and el.prazo in law.prazos]


def _ar_certificate(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                    notice_date: str | None) -> dict[str, Any]:
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
            "efeito": _notice_rule_text(statute, "ar"),
            "data_notificacao": notice_date or "",
        },
    }


_KIND_SECTIONS: dict[str, Any] = {
    "certidao_juntada_ar": _ar_certificate,
    "decisao": _decision,
    "notificacao_preliminar": _preliminary,
    "notificacao_ar": _letter,
    "termo_apreensao": _apprehension,
    "demonstrativo_debito": _statement,
}


def edital_sections(case: Case, statute: Statute, fines: FineResult | None, prazos: list[dict[str, Any]], *,
                    draft: bool, notice_date: str | None) -> dict[str, Any]:
    """What an individual edital may publish, and nothing else: the name, the CPF/CNPJ masked, the auto
    (number and date), the infringed provisions, the amount, where and when it is published, the date the
    notice takes effect and the deadlines that follow (Ferraz art. 76, III, and 77, III; Timóteo art. 21,
    III, and § 3º; LGPD art. 6º, III). No address, qualification, facts, witnesses or legal representative."""
    a = case.autuado
    m = _missing_fn(draft)
    n = case.notificacao
    ed = n.edital if n is not None and n.edital is not None else None
    publicacoes = []
    if ed is not None and (ed.veiculo or ed.data_publicacao):
        publicacoes.append({"veiculo": m(ed.veiculo), "data": _fmt_date(ed.data_publicacao, draft)})
    if ed is not None and (ed.jornal or ed.data_publicacao_jornal):
        publicacoes.append({"veiculo": m(ed.jornal), "data": _fmt_date(ed.data_publicacao_jornal, draft)})
    multa = None
    if fines is not None:
        multa = {"unidades": fines.unidades_texto(), "reais": fines.reais_texto(),
                 "valor_unidade": f"R$ {ptbr.format_decimal(fines.valor_unidade.valor)}",
                 "fonte_unidade": fines.valor_unidade.fonte}
    return {
        "auto_ref": _auto_ref(case, draft) if case.auto else {"numero": m(None), "data": m(None),
                                                               "texto": m(None)},
        "edital": {
            "notificado": {
                "nome": m(a.nome),
                "documento_rotulo": a.documento_rotulo,
                "documento": m(mask_document(case)),
            },
            "infracoes": _infractions(case, statute),
            "multa": multa,
            "publicacoes": publicacoes,
            "efeito": _notice_rule_text(statute, "edital"),
            "data_notificacao": m(notice_date),
            "mascara": "O número do documento de identificação é publicado parcialmente, só com os dígitos do meio, "
                       "e este edital traz apenas os dados necessários à notificação (Lei federal nº 13.709/2018 — "
                       "LGPD, art. 6º, III).",
        },
        "prazos": prazos,
    }
