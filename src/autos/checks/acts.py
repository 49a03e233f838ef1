"""From a processo act to today's document machinery: the case an act's document is made of, as of its date.

The validator, the fine calculator and the document context read a :class:`~autos.processo.case.Case` (one
document). For an act that has a document kind in the law's rules (the auto → ``auto_de_infracao``; a
notice by AR → ``notificacao_ar``; an edital → ``edital_notificacao`` and, once published,
``certidao_publicacao_edital``; a notice of a decision → ``notificacao_decisao``; a defence or appeal →
``protocolo``; an apprehension → ``termo_apreensao``; a decision → ``decisao`` and, when it keeps or
reduces the fine, ``demonstrativo_debito``),
:func:`act_document` builds that case **as of the act's date**: only acts dated on or before it are
known, and of the act itself only what happened by then (an AR letter posted on 19/10 does not state a
receipt of 22/10; an edital does not state publications after its own date).

Every path of the synthetic case is translated back into the processo file (``agente.matricula`` of the
auto's document is ``atos[0].agente.matricula``), so findings and errors name the processo's lines.
No file I/O, no clock, no renderer.

This module says which documents each act has and builds the case's common fields; what the builder shares is in
:mod:`autos.checks.act_builder`, what each kind adds in :mod:`autos.checks.act_notices` (the auto and the
notices), :mod:`autos.checks.act_rulings` (protocol, decision, debit statement) and :mod:`autos.checks.act_measures`
(apprehension and the measures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from autos.base.yamlio import PathKey, YamlDoc, format_path
from autos.checks.act_builder import (
    _DECISIONS,
    _DUE,
    _MEASURE_DOCUMENTS,
    _NOTICE_DOCUMENTS,
    AR_CERTIFICATE,
    DECISION,
    DECISION_NOTICE,
    FORWARDING,
    PROTOCOL,
    PUBLICATION_CERTIFICATE,
    STATEMENT,
    _auto_index,
    _document_date,
    _referenced,
)
from autos.checks.act_measures import _MeasureActs
from autos.checks.act_notices import _NoticeActs
from autos.checks.act_rulings import _RulingActs
from autos.checks.competence import act_signer, signer_source
from autos.checks.finding import Finding
from autos.errors import AutosError
from autos.processo.case import AtoProcesso, Case, ReferenciaAuto, is_document_number
from autos.processo.load import LoadedProcesso
from autos.processo.load_case import LoadedCase
from autos.rules.authorities import Authorities
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

if TYPE_CHECKING:
    from autos.compute.timeline import Timeline

__all__ = ["ActDocument", "act_document", "document_acts", "document_kind"]


@dataclass(frozen=True)
class ActDocument:
    """The case of one act's document, as of ``as_of``, and how its paths map into the processo file."""

    index: int  # 0-based act index
    kind: str  # document kind of the law's rules
    as_of: date
    loaded: LoadedCase  # file and lines are the processo's
    paths: dict[PathKey, PathKey]  # case path prefix → processo path

    def translate(self, path: PathKey) -> PathKey:
        """The processo path of a case path (longest mapped prefix; unmapped paths point at the act)."""
        for n in range(len(path), 0, -1):
            head = path[:n]
            if head in self.paths:
                return (*self.paths[head], *path[n:])
        return ("atos", self.index)

    def translate_text(self, dotted: str | None) -> str | None:
        if not dotted:
            return dotted
        return format_path(self.translate(_parse_path(dotted)))

    def finding(self, f: Finding) -> Finding:
        """A finding of the document with its path in the processo (the line already is)."""
        return replace(f, caminho=self.translate_text(f.caminho), arquivo=str(self.loaded.file))

    def error(self, exc: AutosError) -> AutosError:
        """``exc`` with its path in the processo (the line already is)."""
        exc.path = self.translate_text(exc.path)
        exc.file = str(self.loaded.file)
        exc.args = (exc.render(),)
        return exc


class _MappedDoc(YamlDoc):
    """The processo's YAML document seen through the paths of a case: ``line_of`` translates first."""

    def __init__(self, source: YamlDoc, mapping: dict[PathKey, PathKey], index: int) -> None:
        super().__init__(data=source.data, file=source.file, lines=source.lines)
        self._source = source
        self._mapping = mapping
        self._index = index

    def line_of(self, path: PathKey) -> int | None:
        p = tuple(path)
        for n in range(len(p), 0, -1):
            if p[:n] in self._mapping:
                return self._source.line_of((*self._mapping[p[:n]], *p[n:]))
        return self._source.line_of(("atos", self._index))


def _parse_path(dotted: str) -> PathKey:
    """``atos[0].agente.nome`` → ``('atos', 0, 'agente', 'nome')``."""
    out: list[str | int] = []
    for part in dotted.split("."):
        name, *idx = re.split(r"\[|\]\[?", part.rstrip("]")) if "[" in part else (part,)
        out.append(name)
        out.extend(int(i) for i in idx if i.isdigit())
    return tuple(out)


def document_kind(loaded: LoadedProcesso, i: int, proc: Procedure, statute: Statute) -> str | None:
    """The document kind of act ``i`` in the law's rules, or ``None`` when the act has no document here.

    A notice that carries the auto has the auto's notice document (AR letter, edital); one that carries a
    decision has the notice of the decision; a defence or appeal has its protocol. A decision's documents
    (the decision, the debit statement) are listed by :func:`document_acts`."""
    a = loaded.processo.atos[i]
    rule = proc.atos.get(a.tipo)
    if rule is None:
        return None
    kinds = statute.documentos
    if a.tipo == proc.initial_kind():
        kind: str | None = "auto_de_infracao"
    elif (rule.forma is not None and (j := _referenced(loaded, i)) is not None
          and loaded.processo.atos[j].tipo in _DECISIONS):
        kind = DECISION_NOTICE
    elif rule.forma in _NOTICE_DOCUMENTS:
        j = _referenced(loaded, i)
        kind = _NOTICE_DOCUMENTS[rule.forma] if j is not None and j == _auto_index(loaded, proc) else None
    elif a.tipo.startswith("apreensao"):  # apreensao → termo_apreensao; apreensao_veiculo (Ferraz art. 59) → its own
        kind = f"termo_{a.tipo}"
    elif a.tipo in ("defesa", "recurso"):
        kind = PROTOCOL
    elif a.tipo == "encaminhamento_recurso":  # Lei 9.784/1999, art. 56, § 1º, by analogy
        kind = FORWARDING
    elif a.tipo in _MEASURE_DOCUMENTS:
        kind = _MEASURE_DOCUMENTS[a.tipo]
    elif a.tipo == "notificacao_preliminar":
        kind = "notificacao_preliminar"
    elif a.tipo == "advertencia":  # Ferraz art. 3º, § 1º, I
        kind = "advertencia_escrita"
    elif a.tipo == "termo_ocorrencia":  # Ferraz art. 53, § 1º: the Guarda Civil Municipal's record of the damage
        kind = "termo_ocorrencia"
    else:
        kind = None
    return kind if kind in kinds else None


def document_acts(loaded: LoadedProcesso, proc: Procedure, statute: Statute) -> list[tuple[int, str]]:
    """``(index, document kind)`` of every act that has a document: a decision (judgement, decision on
    appeal) has its own document, the decision, before the debit statement of a decision that keeps or
    reduces the fine; an edital, once published, its certificate of publication after the edital itself."""
    return [(i, kind) for i in range(len(loaded.processo.atos)) for kind in _act_kinds(loaded, i, proc, statute)]


def _act_kinds(loaded: LoadedProcesso, i: int, proc: Procedure, statute: Statute) -> list[str]:
    """The document kinds of act ``i``, in the order :func:`document_acts` lists them."""
    a = loaded.processo.atos[i]
    out = []
    if a.tipo in _DECISIONS and a.tipo in proc.atos:
        if DECISION in statute.documentos:
            out.append(DECISION)
        if a.resultado in _DUE and STATEMENT in statute.documentos:
            out.append(STATEMENT)
    kind = document_kind(loaded, i, proc, statute)
    if kind is not None:
        out.append(kind)
    rule = proc.atos.get(a.tipo)
    if (rule is not None and rule.forma == "ar" and a.juntada is not None and AR_CERTIFICATE in statute.documentos
            and (j := _referenced(loaded, i)) is not None and j == _auto_index(loaded, proc)):
        out.append(AR_CERTIFICATE)  # dated the juntada: what the AR said is in the processo from then
    if rule is not None and rule.forma == "edital" and a.publicacoes and PUBLICATION_CERTIFICATE in statute.documentos:
        out.append(PUBLICATION_CERTIFICATE)  # dated the last publication: the edital is complete
    return out


class _Builder(_NoticeActs, _RulingActs, _MeasureActs):
    """The case of one act's document: the fields every document has, then the kind's own (``_<kind>``)."""

    def build(self) -> ActDocument:
        p, a, i = self.p, self.act, self.i
        auto = self.p.atos[self.auto] if self.auto is not None else None
        rule = self.proc.atos.get(a.tipo)
        own = rule is not None and rule.precede_infracao and a.descricao  # a prior notice: that day's facts only
        fields: dict[str, Any] = {
            "lei": p.lei, "documento": self.kind, "processo": p.numero, "autuado": p.autuado, "infracoes": p.infracoes,
            "fatos": a.descricao if own else p.fatos, "observacoes": a.observacoes,
            "numero": a.numero if is_document_number(a.numero) else None}
        if p.data_infracao is not None and (rule is None or not rule.precede_infracao or p.data_infracao <= self.as_of):
            fields["data_infracao"] = p.data_infracao  # a notice that precedes the infraction does not know its date
            self.paths[("data_infracao",)] = ("data_infracao",)
        elif self.auto is not None and self.auto != i:
            fields["data_infracao"] = auto.data_do_ato if auto else None
            self.paths[("data_infracao",)] = ("atos", self.auto, self.date_field(self.auto))
        if self.auto is not None and auto is not None:
            k = self.auto
            if k != i:
                fields["auto"] = ReferenciaAuto(numero=auto.numero if is_document_number(auto.numero) else None,
                                                data=auto.data_do_ato)
                self.paths.update({("auto",): ("atos", k), ("auto", "numero"): ("atos", k, "numero"),
                                   ("auto", "data"): ("atos", k, self.date_field(k))})
            for name in ("circunstancias", "assinaturas"):
                if getattr(auto, name) is not None:
                    fields[name] = getattr(auto, name)
                self.paths[(name,)] = ("atos", k, name)
            fields["penalidades"] = list(auto.penalidades or [])
            self.paths[("penalidades",)] = ("atos", k, "penalidades")
        agente, at = self.agente(auto)
        if agente is not None:
            fields["agente"] = agente
        self.paths[("agente",)] = ("atos", at, "agente")
        fields["lavratura"] = self.lavratura()
        if a.numero and not is_document_number(a.numero):  # "P-77/2026", "D-12/2026": printed as typed
            fields["ato"] = AtoProcesso(numero=a.numero)
            self.paths[("ato", "numero")] = ("atos", i, "numero")
        getattr(self, f"_{self.kind}")(fields)
        src = signer_source(self.loaded, self.proc, i)
        fields["signatario"] = act_signer(self.loaded, self.proc, self.authorities, i)
        self.paths[("signatario",)] = src.path if src is not None else (
            "atos", i, "autoridade" if self.act.tipo in _DECISIONS else "agente")
        case = Case.model_validate(fields)
        doc = _MappedDoc(self.loaded.doc, self.paths, i)
        return ActDocument(i, self.kind, self.as_of, LoadedCase(case, doc), dict(self.paths))


def act_document(loaded: LoadedProcesso, i: int, proc: Procedure, statute: Statute, kind: str | None = None,
                 timeline: Timeline | None = None, authorities: Authorities | None = None) -> ActDocument | None:
    """The case of act ``i``'s document (of ``kind``, one of :func:`document_acts`; by default
    :func:`document_kind`) as of the act's date, or ``None`` when the act has no such document (or no date:
    the timeline reports that). ``timeline`` (the processo's, checked) tells a decision whether the defence
    or appeal it decides was filed on time; ``authorities`` (the municipality's register) who signs it."""
    if kind is None:
        kind = document_kind(loaded, i, proc, statute)
    elif kind not in _act_kinds(loaded, i, proc, statute):
        return None
    a = loaded.processo.atos[i]
    if kind is None or _document_date(a, kind) is None:
        return None
    return _Builder(loaded, i, kind, proc, statute, timeline, authorities).build()
