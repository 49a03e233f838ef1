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

This module builds the frame and picks the parts by kind; the parts are built beside it: the whole case in
:mod:`autos.documents.case_sections`, the edital (and the masking of what it publishes) in
:mod:`autos.documents.edital`, what each kind adds in :mod:`autos.documents.notice_sections` (the kinds that
notify), :mod:`autos.documents.measure_sections` (the termos) and :mod:`autos.documents.ruling_sections` (protocol,
decision, demonstrativo), the deadlines a document prints besides the notice's lines in
:mod:`autos.documents.deadline_terms`, and what they all format the same way in :mod:`autos.documents.formatting`.

Everything computed is read from the case's :class:`~autos.compute.result.CaseComputation`, made once by the
app before validation (this module neither validates nor reads a rules or calendar file): the fines, the
deadline lines that run from the notice of the auto, the notice itself, the custody costs by day, and the law's
deadline rules and calendar with which the deadlines a kind declares as its own (``verificacao: prazo``
elements: the compliance order of a notificação preliminar, the rescue of an apprehended animal) are counted
from the event the element names (:func:`autos.compute.deadlines.compute`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from autos.base import ptbr
from autos.base.dotted import resolve
from autos.checks.finding import Report
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.documents.case_sections import _case_sections, case_basis, exception_clauses, interpretation_clauses
from autos.documents.counting import case_lines, with_counting_clause
from autos.documents.decision import signer_block
from autos.documents.edital import edital_sections
from autos.documents.formatting import _auto_ref, _flat, _inner, _missing_fn, example_warning
from autos.documents.lines import DeadlineLine
from autos.documents.measure_sections import _apprehension, _condemnation, _measure, _written_warning
from autos.documents.notice_sections import (
    _ar_certificate,
    _decision_notice,
    _letter,
    _preliminary,
    _publication_certificate,
)
from autos.documents.preconditions import with_preconditions
from autos.documents.ruling_sections import _decision, _forwarding, _protocol, _statement, pix_section
from autos.processo.case import Case
from autos.rules.document_kinds import DocumentKind
from autos.rules.statute import Statute

_STATE_NAMES = {
    "MG": "Estado de Minas Gerais", "SP": "Estado de São Paulo", "MT": "Estado de Mato Grosso",
}
#: the kind (and template) whose context holds only what may be published
EDITAL = "edital_notificacao"


def ementa_clause(ementa: str) -> str:
    """The law's ementa as an apposition after its citation (``lei que dispõe sobre …``), not a parenthesis."""
    text = _flat(ementa).rstrip(".")
    return f"lei que {text[:1].lower()}{text[1:]}"


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


_KIND_SECTIONS: dict[str, Any] = {
    "termo_condenacao": _condemnation,
    "advertencia_escrita": _written_warning,
    "certidao_publicacao_edital": _publication_certificate,
    "notificacao_decisao": _decision_notice,
    "protocolo": _protocol,
    "despacho_encaminhamento": _forwarding,
    "certidao_juntada_ar": _ar_certificate,
    "termo_medida": _measure,
    "termo_levantamento": _measure,
    "decisao": _decision,
    "notificacao_preliminar": _preliminary,
    "notificacao_ar": _letter,
    "termo_apreensao": _apprehension,
    "demonstrativo_debito": _statement,
}
