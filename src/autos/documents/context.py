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

Everything computed is read from the case's :class:`~autos.compute.result.CaseComputation`, made once by the
app before validation (this module neither validates nor reads a rules or calendar file): the fines, the
deadline lines that run from the notice of the auto, the notice itself, the custody costs by day, and the law's
deadline rules and calendar with which the deadlines a kind declares as its own (``verificacao: prazo``
elements: the compliance order of a notificação preliminar, the rescue of an apprehended animal) are counted
from the event the element names (:func:`autos.compute.deadlines.compute`).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from autos.base import ptbr
from autos.base.citation import Citation
from autos.base.dotted import resolve
from autos.checks.finding import Report
from autos.compute.deadlines import Deadline, compute
from autos.compute.fines import FineResult, _norm_key
from autos.compute.result import CaseComputation
from autos.documents import pix
from autos.documents.counting import case_lines, example_days_warning, with_counting_clause
from autos.documents.decision import (
    decided_amount,
    decided_reais,
    decision_notice_sections,
    decision_sections,
    protocol_sections,
    signer_block,
)
from autos.documents.lines import DeadlineLine, rule_term
from autos.documents.pix import PixConfig
from autos.documents.preconditions import attempts_text, infractions, with_preconditions
from autos.documents.statement import amount_due
from autos.errors import AutosError, ComputeError
from autos.processo.case import Case, Decisao, Medida
from autos.rules.calendar import MunicipalCalendar
from autos.rules.deadlines import NOTICE_EVENT, DeadlineRule, LawDeadlines
from autos.rules.statute import (
    EXCEPTION_KIND_PT,
    ApprehensionCosts,
    DocumentKind,
    Element,
    FixedFine,
    Penalty,
    PeriodicDoublingFine,
    QuantityFine,
    Statute,
    formula_for,
)

_STATE_NAMES = {
    "MG": "Estado de Minas Gerais", "SP": "Estado de São Paulo", "MT": "Estado de Mato Grosso",
}
_FORMS = {
    "pessoal": "pessoalmente ou por representante legal",
    "recusa": "pessoalmente, com recusa certificada pelo agente na presença de uma testemunha e entrega do auto ao "
              "autuado",
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


def _inner(text: str) -> str:
    """A citation or basis that a document prints between parentheses, with no parentheses of its own."""
    return ptbr.unnest_parentheses(text)


def ementa_clause(ementa: str) -> str:
    """The law's ementa as an apposition after its citation (``lei que dispõe sobre …``), not a parenthesis."""
    text = _flat(ementa).rstrip(".")
    return f"lei que {text[:1].lower()}{text[1:]}"


def example_warning(statute: Statute) -> str:
    """The warning a document prints when a value of it was computed with an example fiscal-unit value."""
    return (f"ATENÇÃO: o valor da {statute.unidade_fiscal.sigla} usado neste documento é um VALOR DE EXEMPLO das "
            "regras do sistema, não o valor oficial fixado pelo Município.")


#: the templates that print the fine (in units and reais) whenever the case has one
_FINE_TEMPLATES = frozenset(("auto_de_infracao", "demonstrativo_debito", "edital_notificacao", "notificacao_ar",
                             "notificacao_preliminar", "termo_apreensao"))


def _prints_fine(case: Case, kind: DocumentKind) -> bool:
    """Whether the document prints a value computed with the fiscal unit: the kinds that state the fine, and a
    decision (or its notice) that keeps it. The other kinds print no value, so they carry no example warning."""
    if kind.modelo in _FINE_TEMPLATES or case.documento in _FINE_TEMPLATES:
        return True
    return case.decisao is not None and case.decisao.resultado == "mantida"


#: the neutral brasão of the templates folder (``html/timbre/padrao.png``), for a Municipality without its own
DEFAULT_BRASAO = "timbre/padrao.png"


def municipality_id(statute: Statute) -> str:
    """``timoteo-mg`` for ``timoteo-mg/lei-3844-2022``: the folder of the Municipality's letterhead."""
    return statute.id.split("/", 1)[0]


def letterhead(statute: Statute, own: dict[str, Any] | None = None, kind_orgao: str | None = None) -> dict[str, Any]:
    """The letterhead: the brasão, the lines (the Municipality once, then the state), the department and the
    signers by role. ``own`` is what the Municipality's letterhead file in the templates folder says
    (:func:`autos.render.letterhead.load_letterhead`); the rest is the neutral default, from the rules. The
    department drops a leading "Prefeitura Municipal de …" that the first line already says. ``kind_orgao``: the
    body the law gives this document kind (``documentos.<kind>.orgao``), which prints instead of the department
    of the letterhead file or of the rules."""
    lei = statute.lei
    own = own or {}
    orgao = _flat(kind_orgao or lei.orgao)
    prefix = f"Prefeitura Municipal de {lei.municipio}"
    if orgao.lower().startswith(prefix.lower()):
        orgao = orgao[len(prefix):].lstrip(" —–-,")
    prefeitura = f"PREFEITURA MUNICIPAL DE {lei.municipio.upper()}"
    estado = _STATE_NAMES.get(lei.uf, lei.uf)
    linhas = list(own.get("linhas") or [prefeitura, estado])
    return {
        "id": municipality_id(statute),
        "brasao": own.get("brasao") or DEFAULT_BRASAO,
        "linhas": linhas,
        "prefeitura": linhas[0],
        "estado": estado,
        "orgao": orgao if kind_orgao else own.get("orgao") or orgao,
        "assinantes": dict(own.get("assinantes") or {}),
        "url_verificacao": own.get("url_verificacao") or "",
    }


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
    """The autuado's document as an edital publishes it (None when the case has none): a person's CPF masked
    (LGPD, art. 6º, III), a company's CNPJ whole — the LGPD protects the data of natural persons (art. 1º; art. 5º,
    I), and the whole CNPJ tells the notified company apart from another of a similar name."""
    a = case.autuado
    if a.tipo == "pessoa_fisica":
        return mask_cpf(a.cpf) if a.cpf else None
    return a.cnpj or None


# --------------------------------------------------------------------------------------------------
# deadlines declared by the kind's elements


def _once(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deadline lines in order, each printed once: two rules may start the same term (Ferraz art. 80, started by
    the rite and named by the decision's kind)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if line not in out:
            out.append(line)
    return out


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


def _skipped(d: Deadline, cal: MunicipalCalendar | None = None) -> str:
    """``Dias sem expediente não contados: 12/10/2026 (…)`` for business-day counts and moved ends, and, with the
    calendar, the warning when one of them is only an example of the calendar (:mod:`autos.documents.counting`)."""
    if not d.dias_pulados or not (d.tipo == "dias_uteis" or d.prorrogado):
        return ""
    days = "; ".join(f"{ptbr.format_date_short(_as_date(s.date))} ({_inner(s.reason)})" for s in d.dias_pulados)
    warning = example_days_warning([d], cal) if cal is not None else ""
    if d.tipo == "dias_uteis":
        text = f"Dias sem expediente não contados: {days}."
    else:  # dias corridos count every day (Lei 9.784, art. 66, § 2º): only the end moves (§ 1º)
        assert d.fim_sem_prorrogacao is not None
        text = (f"Vencimento prorrogado de {ptbr.format_date_short(_as_date(d.fim_sem_prorrogacao))} para "
                f"{ptbr.format_date_short(_as_date(d.fim))}, primeiro dia útil seguinte; dias sem expediente: {days}.")
    return text + (f" {warning}" if warning else "")


def element_deadlines(case: Case, statute: Statute, kind: DocumentKind, *, draft: bool,
                      computed: CaseComputation) -> list[dict[str, Any]]:
    """The deadlines the kind declares as its own elements (``verificacao: prazo`` with a deadline id taken
    from the case, or counted from an event the case records): the term always, the date when the event
    (or the notice, as computed for the case) is known. Deadlines of the notice of the auto are the
    pipeline's lines instead."""
    wanted: list[Element] = [el for el in kind.elementos if el.verificacao == "prazo"
                             and (el.prazo_campo is not None or el.campos)]
    if not wanted:
        return []
    law, cal = computed.law_and_calendar()
    notice: Deadline | None = None
    notice_known = False
    out: list[dict[str, Any]] = []
    for el in wanted:
        deadline_id = el.prazo if el.prazo_campo is None else resolve(case, el.prazo_campo)
        if _blank(deadline_id) or str(deadline_id) not in law.prazos:
            if draft:
                out.append({"descricao": el.descricao, "base_legal": _inner(statute.cite(el.citacao)),
                            "prazo": "[PRAZO NÃO INFORMADO]", "data": "", "dias_pulados": "", "rotulo_data": "até"})
                continue
            raise ComputeError(f"o prazo do elemento {el.codigo} não está nas regras de prazos.")
        rule = law.deadline(str(deadline_id))
        start: date | None
        if rule.conta_de == NOTICE_EVENT:
            if not notice_known:
                notice = _safe(computed.notice, draft)
                notice_known = True
            start = _as_date(notice.fim) if notice is not None else None
        else:
            value = resolve(case, el.campos[0]) if el.campos else None
            start = value if isinstance(value, date) else None
        line: dict[str, Any] = {"descricao": rule.descricao, "base_legal": _inner(rule.base_legal),
                                "prazo": _term(rule, law), "data": "", "dias_pulados": "",
                                # a 'dia_seguinte' date is when something becomes possible, not an end
                                "rotulo_data": "a partir de" if rule.tipo == "dia_seguinte" else "até"}
        if start is not None:
            d = _safe(lambda rid=rule.id, s=start: compute(rid, s, law, cal), draft)
            if d is not None:
                line["data"] = ptbr.format_date(_as_date(d.fim))
                line["dias_pulados"] = _skipped(d, cal)
        out.append(line)
    return out


def _calendar(computed: CaseComputation) -> MunicipalCalendar | None:
    try:
        return computed.law_and_calendar()[1]
    except AutosError:
        return None


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
                  deadlines: list[DeadlineLine], *, draft: bool, computed: CaseComputation,
                  notice_date: str | None = None, generated_at: datetime | None = None,
                  own_letterhead: dict[str, Any] | None = None) -> dict[str, Any]:
    """The context of one document (``own_letterhead``: the Municipality's letterhead file, see
    :func:`letterhead`). ``draft`` marks it MINUTA and lists what is missing. ``fines`` and ``deadlines`` are the
    case's as ``computed`` once (left out of a draft when they cannot be computed); what a kind adds (its own
    deadlines, custody costs) is read from ``computed`` too."""
    kind = statute.documentos[case.documento]
    ctx = _frame(case, statute, kind, report, fines, draft=draft, generated_at=generated_at,
                 own_letterhead=own_letterhead)
    published = EDITAL in (case.documento, kind.modelo)  # an interpretive choice is never printed in a published edital
    ctx["clausulas"] = [*ctx["clausulas"], *exception_clauses(case, statute),
                        *([] if published else interpretation_clauses(case, statute, kind))]
    prazos = [{**x, "base_legal": _inner(x["base_legal"])} for x in case_lines(deadlines, computed)]
    if kind.modelo == "termo_apreensao" and not _auto_ref(case, False)["texto"]:
        prazos = []  # a termo drawn up before the auto: the defence against an auto not yet drawn up is not its own
    if EDITAL in (case.documento, kind.modelo):  # by kind or by template: a published edital never gets more
        ctx.update(edital_sections(case, statute, fines, prazos, draft=draft, notice_date=notice_date,
                                   computed=computed))
        return with_counting_clause(ctx, computed, kind.modelo)
    ctx.update(_case_sections(case, statute, kind, fines, prazos, draft=draft, notice_date=notice_date))
    builder = _KIND_SECTIONS.get(case.documento) or _KIND_SECTIONS.get(kind.modelo)
    if builder is not None:
        ctx.update(builder(case, statute, kind, fines, draft, notice_date, computed))
    if kind.modelo == "demonstrativo_debito":
        ctx["pix"] = pix_section(case, statute, fines, (own_letterhead or {}).get("pix"), draft=draft)
    return with_counting_clause(with_preconditions(ctx, case, fines), computed, kind.modelo)


def _frame(case: Case, statute: Statute, kind: DocumentKind, report: Report, fines: FineResult | None, *,
           draft: bool, generated_at: datetime | None, own_letterhead: dict[str, Any] | None) -> dict[str, Any]:
    """What every kind prints: letterhead, title, MINUTA, example warning, footer, metadata, signatory."""
    lei = statute.lei
    lav = case.lavratura
    m = _missing_fn(draft)
    pendencias = [f"{f.codigo}: {f.mensagem}" + (f" ({f.citacao})" if f.citacao else "") for f in report.errors]
    exemplo_aviso = ""
    if fines is not None and fines.exemplo and _prints_fine(case, kind):
        exemplo_aviso = example_warning(statute)
    now = generated_at or datetime.now()
    # a processo act numbered otherwise than NN/AAAA ("D-12/2026", "P-77/2026") prints its number as typed
    own = case.numero or (case.ato.numero if case.ato is not None else None)
    # an act without a number is named without one ("Termo de Restituição — Processo …"), never "nº s/n"
    numbered = f" nº {own}" if own else ""
    basis = (case_basis(case, statute) if kind.citacao_do_caso else None) or statute.cite(kind.citacao)
    return {
        "minuta": draft,
        "pendencias": pendencias,
        "exemplo_aviso": exemplo_aviso,
        "documento": {
            "titulo": kind.titulo,
            "titulo_upper": kind.titulo.upper(),
            "numero": m(own),
            "processo": case.processo or "",
            "base_legal": basis,
            "fundamento": f"{basis} — {ementa_clause(lei.ementa)}",
            "nulidade": statute.cite(kind.nulidade) if kind.nulidade else "",
        },
        "clausulas": [{"texto": _flat(c.texto), "citacao": _inner(statute.cite(c.citacao))} for c in kind.clausulas
                      if c.quando is None or c.quando.holds(resolve(case, c.quando.campo))],
        "cabecalho": letterhead(statute, own_letterhead, kind.orgao),
        "lei": {
            "rotulo": lei.label,
            "ementa": _flat(lei.ementa),
            "ementa_oracao": ementa_clause(lei.ementa),
            "urn": lei.urn,
            "municipio": lei.municipio,
            "uf": lei.uf,
        },
        "signatario": signer_block(case),
        "agente": {
            "nome": m(case.agente.nome),
            "cargo": m(case.agente.cargo),
            "matricula": m(case.agente.matricula),
            "crmv": case.agente.crmv or "",
        },
        "local_data_assinatura": f"{lei.municipio}/{lei.uf}, "
        + (ptbr.format_date(lav.data) if lav.data else "____ de ______________ de ______") + ".",
        "metadados": {
            "titulo": f"{kind.titulo}{numbered} — {lei.municipio}/{lei.uf}",
            "autor": f"Prefeitura Municipal de {lei.municipio} — {case.agente.nome or 'agente não informado'}",
            "assunto": f"{kind.titulo} — {lei.label} — autuado: {case.autuado.nome or 'não informado'}",
            "palavras_chave": f"{kind.titulo.lower()}, {lei.label}, {lei.municipio}",
            "criado_em": now.astimezone().isoformat(timespec="seconds"),  # W3CDTF, for the DOCX properties
        },
        # a sober footer: which document this page belongs to (the page number is the template's); when it was
        # generated is in the file's metadata, not on the page
        "rodape": f"{kind.titulo}{numbered}" + (f" — Processo {case.processo}" if case.processo else ""),
    }


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
            "nome": _cap(pen.nome),
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


# --- per kind ---------------------------------------------------------------------------------------


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
        },
    }


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


def _statement(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
               notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """Demonstrativo de débito: the reference date and unit value; the memo and totals are in ``multa``. After
    a decision that keeps or reduces the fine (a processo act): the decided amount, and payment counted from
    the notice of that decision (the act the law names, a later one: the term has no date yet)."""
    # the debt is the fine and the costs together, each a parcel of its own (Cuiabá art. 38)
    out: dict[str, Any] = {"debito": {"data_calculo": _fmt_date(case.lavratura.data, draft), "decisao": None,
                                     "devido": None},
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


def act_deadlines(computed: CaseComputation, *, draft: bool) -> list[dict[str, Any]]:
    """The deadlines a processo act starts (``case.ato.prazos``), as computed once for the case with the rite's
    rules: from the date given (the receipt of a defence), else from the notice the document states once it
    takes effect; without a date when it runs from an act not yet known on the document's date. In a draft a
    deadline that cannot be counted is printed without its date; in a final document its error is raised."""
    terms = computed.act_deadlines()
    if not terms:
        return []
    law = computed.rite()
    out: list[dict[str, Any]] = []
    for t in terms:
        if t.error is not None and not draft:
            raise t.error
        line: dict[str, Any] = {"descricao": t.rule.descricao, "base_legal": _inner(t.rule.base_legal),
                                "prazo": _term(t.rule, law), "data": "", "dias_pulados": "", "rotulo_data": "até"}
        if t.deadline is not None:
            line["data"] = ptbr.format_date(_as_date(t.deadline.fim))
            line["dias_pulados"] = _skipped(t.deadline, _calendar(computed))
        out.append(line)
    return _once(out)


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


def _rite_term(case: Case, computed: CaseComputation, which: str) -> list[dict[str, Any]]:
    """The term to appeal against the decision (``prazo_recurso``) or to pay the fine it keeps or reduces
    (``prazo_pagamento``), from the rite's rules, without its end: it runs from the notice of the decision."""
    d = case.decisao
    deadline = getattr(d, which) if d is not None else None
    if deadline is None:
        return []
    law = computed.rite()
    if deadline not in law.prazos:
        return []
    rule = law.deadline(deadline)
    return [{"descricao": rule.descricao, "base_legal": _inner(rule.base_legal), "prazo": _term(rule, law),
             "data": "", "dias_pulados": "", "rotulo_data": "até"}]


def _decision_terms(kind: DocumentKind, computed: CaseComputation) -> list[dict[str, Any]]:
    """The deadlines the decision's kind names (``verificacao: prazo``), as terms without an end date: they run
    from the notice of this decision, a later act."""
    law = computed.law()
    return [{"descricao": (rule := law.deadline(el.prazo)).descricao, "base_legal": _inner(rule.base_legal),
             "prazo": _term(rule, law), "data": "", "dias_pulados": "", "rotulo_data": "até"}
            for el in kind.elementos if el.verificacao == "prazo" and el.prazo is not None and el.prazo in law.prazos]


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


_KIND_SECTIONS: dict[str, Any] = {
    "termo_condenacao": _condemnation,
    "advertencia_escrita": _written_warning,
    "certidao_publicacao_edital": _publication_certificate,
    "notificacao_decisao": _decision_notice,
    "protocolo": _protocol,
    "certidao_juntada_ar": _ar_certificate,
    "termo_medida": _measure,
    "termo_levantamento": _measure,
    "decisao": _decision,
    "notificacao_preliminar": _preliminary,
    "notificacao_ar": _letter,
    "termo_apreensao": _apprehension,
    "demonstrativo_debito": _statement,
}


def edital_sections(case: Case, statute: Statute, fines: FineResult | None, prazos: list[dict[str, Any]], *,
                    draft: bool, notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
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
    if n is None and case.ato is not None:  # a processo's edital published again after its date: no notice yet
        publicacoes = [{"veiculo": x.veiculo or _MEIOS[x.meio], "data": ptbr.format_date(x.data)}
                       for x in case.ato.publicacoes]
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
            "infracoes": infractions(case, statute),
            "multa": multa,
            "publicacoes": publicacoes,
            "efeito": _notice_rule_text(computed, "edital"),
            "hipotese": _edital_case(computed), "tentativas": attempts_text(case),
            "data_notificacao": m(notice_date) if n is not None or case.ato is None else "",
            "mascara": "" if a.tipo == "pessoa_juridica" else (
                "O número do documento de identificação é publicado parcialmente, só com os dígitos do meio, e este "
                "edital traz apenas os dados necessários à notificação (Lei federal nº 13.709/2018 — LGPD, art. 6º, "
                "III)."),
        },
        "prazos": prazos,
    }


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
