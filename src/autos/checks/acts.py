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
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal

from autos.base.yamlio import PathKey, YamlDoc, format_path
from autos.checks.attempts import prior_attempts
from autos.checks.competence import (
    act_signer,
    appeal_authority,
    appeal_deadline,
    appeal_lies,
    payment_deadline,
    signer_source,
)
from autos.checks.finding import Finding
from autos.checks.reasons import contested_act
from autos.errors import AutosError
from autos.processo.case import (
    Agente,
    Apreensao,
    ArgumentoImpugnacao,
    Assinaturas,
    AtoProcesso,
    AvisoRecebimento,
    Case,
    Decisao,
    Edital,
    Impugnacao,
    Lavratura,
    Medida,
    Notificacao,
    NotificacaoCitada,
    PagamentoRegistrado,
    PenalidadeProposta,
    PrazoDoAto,
    PublicacaoEdital,
    RazaoDecisao,
    ReferenciaAuto,
    is_document_number,
    returned_for_unknown_address,
)
from autos.processo.load import LoadedProcesso
from autos.processo.load_case import LoadedCase
from autos.processo.model import Ato
from autos.rules.authorities import Authorities
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

if TYPE_CHECKING:
    from autos.compute.timeline import Timeline

__all__ = ["ActDocument", "act_document", "document_acts", "document_kind"]

#: act kind → document kind (the notices only when they carry the auto to the autuado)
_NOTICE_DOCUMENTS = {"ar": "notificacao_ar", "edital": "edital_notificacao"}
#: act kinds that decide on the auto (first instance) or on an appeal → the instance in the decision document
_DECISIONS: dict[str, Literal["primeira", "recurso"]] = {"julgamento": "primeira", "decisao_recurso": "recurso"}
DECISION = "decisao"
#: the certificate that the AR (receipt or return) was joined to the processo, dated the juntada
AR_CERTIFICATE = "certidao_juntada_ar"
#: the certificate that an edital was published, dated its last publication
PUBLICATION_CERTIFICATE = "certidao_publicacao_edital"
#: a notice (in person, AR, edital) that carries a decision to the autuado
DECISION_NOTICE = "notificacao_decisao"
#: the receipt of a defence or an appeal
PROTOCOL = "protocolo"
#: the debit statement of a decision that keeps or reduces the fine
STATEMENT = "demonstrativo_debito"
_DUE = ("mantida", "reduzida")
#: a measure's act (embargo, interdiction) and the act that ends a measure (levantamento, restitution) → its termo
_MEASURE_DOCUMENTS = {"embargo": "termo_embargo", "interdicao": "termo_interdicao",
                      "levantamento_embargo": "termo_levantamento_embargo",
                      "levantamento_interdicao": "termo_levantamento_interdicao", "restituicao": "termo_restituicao",
                      # Timóteo art. 16, IV, V and VII, and the levantamento of the suspension (art. 5º, IV)
                      "condenacao": "termo_condenacao", "suspensao": "termo_suspensao",
                      "levantamento_suspensao": "termo_levantamento_suspensao", "cassacao": "termo_cassacao"}
#: the act that ends a measure → the measure's act it cites
_MeasureKind = Literal["embargo", "interdicao", "apreensao", "condenacao", "suspensao", "cassacao"]
_ENDS: dict[str, _MeasureKind] = {"levantamento_embargo": "embargo", "levantamento_interdicao": "interdicao",
                                 "restituicao": "apreensao", "levantamento_suspensao": "suspensao"}
_MEASURES: dict[str, _MeasureKind] = {"embargo": "embargo", "interdicao": "interdicao", "apreensao": "apreensao",
                                      "condenacao": "condenacao", "suspensao": "suspensao", "cassacao": "cassacao"}


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


def _auto_index(p: LoadedProcesso, proc: Procedure) -> int | None:
    return p.first_of_kind(proc.initial_kind())


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


def _referenced(loaded: LoadedProcesso, i: int) -> int | None:
    return loaded.referenced(i)


def _known(d: date | None, as_of: date) -> date | None:
    return d if d is not None and d <= as_of else None


class _Builder:
    def __init__(self, loaded: LoadedProcesso, i: int, kind: str, proc: Procedure, statute: Statute,
                 timeline: Timeline | None = None, authorities: Authorities | None = None) -> None:
        self.authorities = authorities
        self.loaded = loaded
        self.timeline = timeline
        self.statute = statute
        self.p = loaded.processo
        self.i = i
        self.kind = kind
        self.proc = proc
        self.act = self.p.atos[i]
        d = _document_date(self.act, kind)
        if d is None:
            raise ValueError("an act without a date has no document")  # callers check the timeline first
        self.as_of = d
        auto = _auto_index(loaded, proc)
        # the auto is known when it was drawn up by this date (Cuiabá: an apprehension may come first)
        self.auto = auto if auto is not None and (auto == i or self.known(auto)) else None
        self.paths: dict[PathKey, PathKey] = {
            ("lei",): ("lei",), ("autuado",): ("autuado",), ("infracoes",): ("infracoes",),
            ("fatos",): ("fatos",), ("processo",): ("numero",), ("observacoes",): ("atos", i, "observacoes"),
            ("documento",): ("atos", i, "tipo"), ("numero",): ("atos", i, "numero"),
            ("lavratura",): ("atos", i),
            ("lavratura", "data"): ("atos", i, "juntada" if kind == AR_CERTIFICATE
                                    else "publicacoes" if kind == PUBLICATION_CERTIFICATE else self.date_field(i)),
            ("lavratura", "hora"): ("atos", i, "hora"),
        }

    def known(self, j: int) -> bool:
        d = self.p.atos[j].data_do_ato
        return d is not None and d <= self.as_of

    def date_field(self, j: int) -> str:
        a = self.p.atos[j]
        if a.data is not None:
            return "data"
        if a.postagem is not None:
            return "postagem"
        return "publicacoes" if a.publicacoes else "data"

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

    def agente(self, auto: Ato | None) -> tuple[Agente | None, int]:
        """Who signs the document: the act's own ``agente``, else the auto's (who drew up the processo); a receipt of
        a defence or an appeal, only who received it (the act's own)."""
        if self.act.agente is not None or self.auto is None or auto is None or self.kind == PROTOCOL:
            return self.act.agente, self.i
        return auto.agente, self.auto

    def lavratura(self) -> Lavratura:
        """Where and when the document is drawn up: the act's own ``local`` (the processo's ``local`` is where
        the infraction was found, which the laws do not make the place of the auto), date and hour."""
        a = self.act
        self.paths[("lavratura", "local")] = ("atos", self.i, "local")
        return Lavratura(local=a.local, data=self.as_of, hora=a.hora)

    # --- per document kind ------------------------------------------------------------------------
    def _auto_de_infracao(self, fields: dict[str, Any]) -> None:
        """The auto states the notice given by its date (the autuado's dated signature, a refusal…)."""
        cited = self.loaded.citing(self.act.numero) if self.act.numero is not None else []
        notices = [j for j in cited if self.known(j) and j != self.i
                   and (r := self.proc.atos.get(self.p.atos[j].tipo)) is not None and r.forma is not None]
        self.cited_notice(fields)
        if not notices:
            self._announced_notice(fields)
            return
        n = notices[-1]
        fields["notificacao"] = self.notice(n)
        witness = self.p.atos[n].testemunha
        sig = fields.get("assinaturas")
        if witness is not None and (sig is None or not sig.testemunhas):
            # the refusal is certified before a witness (recorded on the certificate act): the auto names them
            fields["assinaturas"] = (sig or Assinaturas()).model_copy(update={"testemunhas": [witness]})
            self.paths.update({("assinaturas", "testemunhas"): ("atos", n, "testemunha"),
                               ("assinaturas", "testemunhas", 0): ("atos", n, "testemunha")})

    def cited_notice(self, fields: dict[str, Any]) -> None:
        """The notice whose lack of answer is the infraction (a notificação preliminar the auto cites in
        ``referente``): its number, date, the dated receipt and the term that ran out (the timeline's), printed by
        the auto (Ferraz art. 4º; choice auto-apos-notificacao-preliminar)."""
        j = _referenced(self.loaded, self.i)
        rule = self.proc.atos.get(self.p.atos[j].tipo) if j is not None else None
        if j is None or rule is None or not rule.precede_infracao or not self.known(j):
            return
        b = self.p.atos[j]
        if b.exigencia is None:
            return  # a warning (Ferraz art. 3º, § 1º, I) gives no term to answer
        sig = b.assinaturas.autuado if b.assinaturas is not None else None
        term = next((ds for ds in (self.timeline.prazos if self.timeline else [])
                     if ds.iniciado_por == j and b.exigencia is not None and ds.id == b.exigencia.prazo), None)
        fim = term.fim if term is not None else None
        fields["ato"] = self._act_block(fields).model_copy(update={"notificacao_citada": NotificacaoCitada(
            numero=b.numero, data=b.data_do_ato, ciencia=sig.data if sig is not None and sig.situacao == "assinou"
            else None, prazo=term.deadline.prazo_texto() if term is not None else None,
            vencimento=fim.date() if isinstance(fim, datetime) else fim)})
        self.paths[("ato", "notificacao_citada")] = ("atos", self.i, "referente")

    def recorded_payment(self, fields: dict[str, Any]) -> None:
        """The payment an act presupposes (an earlier act its preconditions ask for that states a ``valor``: the
        resgate of an animal after the fine and fees are paid, Cuiabá art. 11, § 2º), printed by its document."""
        rule = self.proc.atos.get(self.act.tipo)
        kinds = {k for pc in (rule.pressupostos if rule else []) if pc.exige.ato_anterior
                 for k in pc.exige.ato_anterior.tipos}
        paid = [j for j, b in enumerate(self.p.atos[:self.i]) if b.tipo in kinds and b.valor is not None
                and self.known(j)]
        if paid:
            b = self.p.atos[paid[-1]]
            fields["ato"] = self._act_block(fields).model_copy(update={"pagamento": PagamentoRegistrado(
                nome=self.proc.atos[b.tipo].nome, numero=b.numero, data=b.data_do_ato, valor=b.valor)})

    def _announced_notice(self, fields: dict[str, Any]) -> None:
        """An autuado absent at the lavratura is given notice later, by AR or edital (Timóteo art. 21): the auto
        states the form the processo records for that later notice — the form only, none of its dates, which
        are not known on the auto's date."""
        sig = self.act.assinaturas.autuado if self.act.assinaturas is not None else None
        # absent, or refusing where the refusal is not a notice (Ferraz art. 76, I): the later AR or edital
        if sig is None or sig.situacao not in ("ausente", "recusou"):
            return
        later = [j for j in self.loaded.citing(self.act.numero) if j > self.i
                 and (r := self.proc.atos.get(self.p.atos[j].tipo)) is not None and r.forma in ("ar", "edital")]
        if later:
            forma = self.proc.atos[self.p.atos[later[0]].tipo].forma
            assert forma in ("ar", "edital")
            fields["ato"] = self._act_block(fields).model_copy(update={"ciencia_posterior": forma})

    def _notificacao_preliminar(self, fields: dict[str, Any]) -> None:
        """The order and its term; the notice is the act's own dated signature (Ferraz art. 76, I, by analogy:
        delivery against a dated receipt), and the fine it threatens is the act's own (no auto exists yet)."""
        a, i = self.act, self.i
        fields["exigencia"] = a.exigencia
        self.paths[("exigencia",)] = ("atos", i, "exigencia")
        if a.assinaturas is not None:
            fields["assinaturas"] = a.assinaturas
            self.paths[("assinaturas",)] = ("atos", i, "assinaturas")
            signed = a.assinaturas.autuado
            if signed is not None and signed.situacao == "assinou":
                fields["notificacao"] = Notificacao(forma="pessoal", data=signed.data or a.data)
                self.paths.update({("notificacao",): ("atos", i, "assinaturas", "autuado"),
                                   ("notificacao", "data"): ("atos", i, "assinaturas", "autuado", "data")})
        if a.penalidades is not None:
            fields["penalidades"] = list(a.penalidades)
            self.paths[("penalidades",)] = ("atos", i, "penalidades")

    def _termo_ocorrencia(self, fields: dict[str, Any]) -> None:
        """The Termo de Ocorrência (Ferraz art. 53, § 1º): the act's own signature (the author who received the 2nd
        copy); no penalty — it starts the assessment of the replacement cost, not a fine."""
        a, i = self.act, self.i
        if a.assinaturas is not None:
            fields["assinaturas"] = a.assinaturas
            self.paths[("assinaturas",)] = ("atos", i, "assinaturas")

    def _advertencia_escrita(self, fields: dict[str, Any]) -> None:
        """The written warning (Ferraz art. 3º, § 1º, I): the act's own signature (who received it) and, as its
        penalty, the law's warning — the penalty citing the act's article; no fine (§ 1º, II: only if the conduct
        persists, in a later auto)."""
        a, i = self.act, self.i
        if a.assinaturas is not None:
            fields["assinaturas"] = a.assinaturas
            self.paths[("assinaturas",)] = ("atos", i, "assinaturas")
        rule = self.proc.atos[a.tipo]
        warning = [k for k, v in self.statute.penalidades.items() if v.citacao == rule.citacao]
        fields["penalidades"] = [PenalidadeProposta(tipo=k) for k in warning[:1]]
        self.paths.update({("penalidades",): ("atos", i), ("penalidades", 0): ("atos", i, "tipo"),
                           ("penalidades", 0, "tipo"): ("atos", i, "tipo")})

    def _notificacao_ar(self, fields: dict[str, Any]) -> None:
        """The letter states its AR's return only when it is known by the letter's date (a later via)."""
        fields["notificacao"] = self.notice(self.i)

    def _certidao_juntada_ar(self, fields: dict[str, Any]) -> None:
        """The AR as it stands on its juntada: posted, received or returned (with the reason), joined."""
        fields["notificacao"] = self.notice(self.i)

    def _edital_notificacao(self, fields: dict[str, Any]) -> None:
        """The edital, dated its first publication. Published again later (Timóteo art. 21, § 3º: the official
        press and a local newspaper, often on different days) it states the publications known on its date and
        no notice in effect; the certificate of publication, dated the last one, states them all and the date of
        the notice. Its act block says the form (``ato.forma``), so that the rules can tell a processo's edital
        from a one-document case file. The domicile is unknown also when an AR of the same act came back, by
        the edital's date, for a reason that shows it (as the publisher concluded:
        ``autos.compute.edital.classify``), unless the file says ``endereco_desconhecido: false`` in so many
        words."""
        fields["notificacao"] = self.notice(self.i)
        fields["ato"] = self._act_block(fields).model_copy(update={"forma": "edital", "tentativas": prior_attempts(
            self.loaded, self.i, self.proc, self.as_of), "publicacoes": self.known_publications()})
        a = self.p.autuado
        typed = self.loaded.line_of(("autuado", "endereco_desconhecido")) != self.loaded.line_of(("autuado",))
        if not a.endereco_desconhecido and not typed and any(
                (r := self.proc.atos.get((b := self.p.atos[j]).tipo)) is not None and r.forma == "ar"
                and b.devolucao is not None and b.devolucao.data <= self.as_of
                and returned_for_unknown_address(b.devolucao.motivo)
                for j in self.loaded.citing(self.act.referente) if j < self.i):
            fields["autuado"] = a.model_copy(update={"endereco_desconhecido": True})

    def _demonstrativo_debito(self, fields: dict[str, Any]) -> None:
        """After a decision that keeps or reduces the fine: the decided amount; payment counts from the notice
        of this decision (the law's notificação final), a later act — the term without a date."""
        if self.act.tipo in _DECISIONS:
            self._decisao(fields)
            # the demonstrativo has a number of its own (the decision act's 'demonstrativo'), never the decision's
            fields["ato"] = self._act_block(fields).model_copy(update={
                "prazos": [PrazoDoAto(prazo=d) for d in self.payment_after_notice()], "numero": None})
            if self.act.demonstrativo is not None:
                fields["numero"] = self.act.demonstrativo
                self.paths[("numero",)] = ("atos", self.i, "demonstrativo")

    def payment_after_notice(self) -> list[str]:
        """The payment deadlines the notice of this decision starts (any form of notice the law provides)."""
        res, tipo = self.act.resultado, self.act.tipo
        out: list[str] = []
        for rule in self.proc.atos.values():
            if rule.forma is None:
                continue
            for s in rule.inicia:
                if (pid := s.prazo) is None or (b := self.proc.prazos.get(pid)) is None:
                    continue
                if ("pagamento" in b.cumprido_por and tipo in s.se_referente
                        and (not s.se_resultado or res in s.se_resultado) and pid not in out):
                    out.append(pid)
        return out

    def known_publications(self) -> list[PublicacaoEdital]:
        """The publications of this edital act made by the document's date (and the path they come from)."""
        self.paths[("ato", "publicacoes")] = ("atos", self.i, "publicacoes")
        return [PublicacaoEdital(data=x.data, meio=x.meio, veiculo=x.veiculo) for x in self.act.publicacoes or []
                if x.data <= self.as_of]

    def _act_block(self, fields: dict[str, Any]) -> AtoProcesso:
        self.paths[("ato",)] = ("atos", self.i)
        return fields.get("ato") or AtoProcesso()

    def started(self, i: int) -> list[str]:
        """The deadlines act ``i`` starts per the law's rite (what it refers to and the decision's result),
        in the order of the rules; not those of a failed notice."""
        a = self.p.atos[i]
        rule = self.proc.atos.get(a.tipo)
        if rule is None:
            return []
        j = _referenced(self.loaded, i)
        res = a.resultado if a.resultado is not None else (self.p.atos[j].resultado if j is not None else None)
        out: list[str] = []
        for s in rule.inicia:
            if s.se_frustrada or s.conta_de_campo != "data" or s.prazo is None:
                continue  # a term from another field (recolhimento) or named by the act (its own document states it)
            if s.se_referente and (j is None or self.p.atos[j].tipo not in s.se_referente):
                continue
            if s.se_resultado and res not in s.se_resultado:
                continue
            if s.prazo not in out:
                out.append(s.prazo)
        return out

    def _certidao_publicacao_edital(self, fields: dict[str, Any]) -> None:
        """Every publication of the edital (all known: the certificate is dated the last), the notice as the law
        makes it effective, and the deadlines the edital starts, counted from that date."""
        fields["notificacao"] = self.notice(self.i)
        fields["ato"] = self._act_block(fields).model_copy(update={
            "publicacoes": self.known_publications(), "prazos": [PrazoDoAto(prazo=d) for d in self.started(self.i)]})
        self.referred_decision(fields)

    def _notificacao_decisao(self, fields: dict[str, Any]) -> None:
        """The decision this notice carries (its result and amount) and the deadlines that run from the notice
        (recurso after a first-instance judgement; payment after a decision that keeps or reduces the fine)."""
        fields["notificacao"] = self.notice(self.i)
        rule = self.proc.atos[self.act.tipo]
        fields["ato"] = self._act_block(fields).model_copy(update={
            "forma": rule.forma, "postagem": _known(self.act.postagem, self.as_of),
            "prazos": [PrazoDoAto(prazo=d) for d in self.started(self.i)]})
        self.referred_decision(fields)

    def referred_decision(self, fields: dict[str, Any]) -> None:
        """``decisao`` of the decision act this act refers to (nothing when it refers to the auto)."""
        j = _referenced(self.loaded, self.i)
        if j is None or self.p.atos[j].tipo not in _DECISIONS:
            return
        b = self.p.atos[j]
        base: PathKey = ("atos", j)
        self.paths.update({("decisao",): base, ("decisao", "numero"): (*base, "numero"),
                           ("decisao", "data"): (*base, "data"), ("decisao", "resultado"): (*base, "resultado"),
                           ("decisao", "valor"): (*base, "valor"), ("decisao", "autoridade"): (*base, "autoridade"),
                           ("decisao", "valor_base"): (*base, "valor_base")})
        k = contested_act(self.loaded, j)
        imp = None if k is None else Impugnacao(
            tipo="recurso" if self.p.atos[k].tipo == "recurso" else "defesa", numero=self.p.atos[k].numero,
            data=self.p.atos[k].data,
            argumentos=[ArgumentoImpugnacao(id=x.id, texto=x.texto) for x in self.p.atos[k].argumentos or []])
        fields["decisao"] = Decisao(instancia=_DECISIONS[b.tipo], numero=b.numero, data=b.data_do_ato,
                                    resultado=b.resultado, valor=b.valor, autoridade=b.autoridade,
                                    fundamentacao=b.fundamentacao, impugnacao=imp, **self.reasons(j))

    def reasons(self, j: int) -> dict[str, Any]:
        """What decision act ``j`` says beyond its result (Lei 9.784/1999, art. 50): report, answers, amount in the
        law's unit and why, and what lies against it (a further appeal, to whom, or the instance closed)."""
        b = self.p.atos[j]
        d = b.data_do_ato
        last = not appeal_lies(self.proc, b.tipo)
        earlier = [k for k, c in enumerate(self.p.atos[:j])
                   if c.tipo in _DECISIONS and c.resultado == "reduzida" and c.valor_base is not None]
        return {"relatorio": b.relatorio, "dispositivo": b.dispositivo, "valor_base": b.valor_base,
                "motivo_valor": b.motivo_valor, "ultima_instancia": last,
                "razoes": [RazaoDecisao(argumento=r.argumento, conclusao=r.conclusao, fatos=r.fatos,
                                        fundamentos=r.fundamentos) for r in b.razoes or []],
                "instancia_recursal": None if last or d is None else appeal_authority(self.authorities, self.proc, d),
                "prazo_recurso": None if last else appeal_deadline(self.proc, b.tipo),
                "prazo_pagamento": payment_deadline(self.proc, b.tipo, b.resultado),
                "valor_base_anterior": self.p.atos[earlier[-1]].valor_base if earlier else None,
                "anterior": f"{self.proc.atos[self.p.atos[earlier[-1]].tipo].nome} nº {self.p.atos[earlier[-1]].numero}"
                if earlier else None}

    def _protocolo(self, fields: dict[str, Any]) -> None:
        """The defence or appeal received: its date, whether it came in time (the timeline's deadline, all of
        whose facts precede the receipt) and the term of the decision it starts, counted from the receipt (none
        when it is late and the law makes lateness preclusive: the timeline starts none either)."""
        a, i = self.act, self.i
        late = None
        met = False  # on time only when the timeline matched it to a term it met (none counted: unknown)
        if self.timeline is not None and i < len(self.timeline.atos):
            late = self.timeline.atos[i].intempestivo
            met = i in self.timeline.met_by
        rule = self.proc.atos.get(a.tipo)
        prazos = [] if late is not None and rule is not None and rule.preclusivo else [
            PrazoDoAto(prazo=d, inicio=self.as_of) for d in self.started(i)]
        fields["ato"] = self._act_block(fields).model_copy(update={
            "protocolo": Impugnacao(tipo="recurso" if a.tipo == "recurso" else "defesa", numero=a.numero,
                                    data=a.data, prazo_vencido_em=late,
                                    tempestividade_conhecida=late is not None or met),
            "prazos": prazos})
        self.paths.update({("ato", "protocolo"): ("atos", i), ("ato", "protocolo", "data"): ("atos", i, "data"),
                           ("ato", "protocolo", "numero"): ("atos", i, "numero")})
        self.referred_decision(fields)  # an appeal: the judgement it contests

    def _decisao(self, fields: dict[str, Any]) -> None:
        """The decision as of its date: what it decided, by whom, and the defence or appeal it decides (the
        act it refers to when that is a defence or an appeal; for a judgement of the auto, the last defence
        filed against the auto by the decision's date). Timeliness is the timeline's (``intempestivo``)."""
        a, i = self.act, self.i
        base: PathKey = ("atos", i)
        self.paths.update({("decisao",): base, ("decisao", "numero"): (*base, "numero"),
                           ("decisao", "data"): (*base, "data"), ("decisao", "resultado"): (*base, "resultado"),
                           ("decisao", "valor"): (*base, "valor"), ("decisao", "autoridade"): (*base, "autoridade"),
                           ("decisao", "fundamentacao"): (*base, "fundamentacao"),
                           ("decisao", "valor_base"): (*base, "valor_base"), ("decisao", "razoes"): (*base, "razoes")})
        j = self.contested()
        imp = None
        if j is not None:
            b = self.p.atos[j]
            late = None
            met = None  # the deadline the defence or appeal met, as the timeline counted it
            if self.timeline is not None and j < len(self.timeline.atos):
                late = self.timeline.atos[j].intempestivo
                met = next((ds for ds in self.timeline.prazos if ds.cumprido_por == j and ds.atraso_dias is None),
                           None)
            imp = Impugnacao(tipo="recurso" if b.tipo == "recurso" else "defesa", numero=b.numero, data=b.data,
                             prazo_vencido_em=late, tempestividade_conhecida=late is not None or met is not None,
                             prazo=(met.deadline.prazo_texto() or None) if met is not None else None,
                             prazo_inicio=met.deadline.inicio if met is not None else None,
                             prazo_fim=met.fim if met is not None else None,
                             argumentos=[ArgumentoImpugnacao(id=x.id, texto=x.texto) for x in b.argumentos or []])
            self.paths.update({("decisao", "impugnacao"): ("atos", j),
                               ("decisao", "impugnacao", "numero"): ("atos", j, "numero"),
                               ("decisao", "impugnacao", "data"): ("atos", j, "data")})
        else:
            self.paths[("decisao", "impugnacao")] = (*base, "referente")
        fields["decisao"] = Decisao(instancia=_DECISIONS[a.tipo], numero=a.numero, data=self.as_of,
                                    resultado=a.resultado, valor=a.valor, autoridade=a.autoridade,
                                    fundamentacao=a.fundamentacao, impugnacao=imp, **self.reasons(i))

    def contested(self) -> int | None:
        """The defence or appeal the decision decides, known by its date (``None``: none was filed)."""
        j = _referenced(self.loaded, self.i)
        if j is not None and self.p.atos[j].tipo in ("defesa", "recurso"):
            return j
        ref = self.act.referente
        filed = self.loaded.of_kind("defesa") if ref is None else self.loaded.citing(ref)
        for n in range(bisect_left(filed, self.i) - 1, -1, -1):  # the last one before this act
            k = filed[n]
            if self.p.atos[k].tipo == "defesa" and self.known(k):
                return k
        return None

    def _termo_apreensao(self, fields: dict[str, Any]) -> None:
        a, i = self.act, self.i
        pid = self.apprehension_penalty(fields.get("penalidades", []))
        pens = [x for x in fields.get("penalidades", []) if x.tipo != pid]
        k = len(pens)
        pens.append(PenalidadeProposta(tipo=pid, itens=list(a.itens or []),
                                       fiel_depositario=a.fiel_depositario, local_deposito=a.local_deposito))
        fields["penalidades"] = pens
        self.paths.update({("penalidades", k): ("atos", i), ("penalidades", k, "tipo"): ("atos", i, "tipo"),
                           ("penalidades", k, "itens"): ("atos", i, "itens"),
                           ("penalidades", k, "fiel_depositario"): ("atos", i, "fiel_depositario"),
                           ("penalidades", k, "local_deposito"): ("atos", i, "local_deposito")})
        if self.auto is None:
            self.paths[("penalidades",)] = ("atos", i)
        if any(c.startswith("apreensao.") for el in self.statute.documentos[self.kind].elementos for c in el.campos):
            fields["apreensao"] = Apreensao(data=self.as_of, hora=a.hora, local=a.local,
                                            descricao=a.descricao, data_recolhimento=_known(a.recolhimento, self.as_of),
                                            local_recolhimento=a.local_deposito)
            self.paths.update({("apreensao",): ("atos", i), ("apreensao", "data"): ("atos", i, "data"),
                               ("apreensao", "hora"): ("atos", i, "hora"),
                               ("apreensao", "local"): ("atos", i, "local"),
                               ("apreensao", "descricao"): ("atos", i, "descricao"),
                               ("apreensao", "data_recolhimento"): ("atos", i, "recolhimento"),
                               ("apreensao", "local_recolhimento"): ("atos", i, "local_deposito")})

    def measure(self, j: int) -> Medida:
        """Measure act ``j`` (embargo, interdiction, apprehension) as the case's ``medida``; its place is the act's
        own ``local``, else the processo's (where the work or the establishment is)."""
        b = self.p.atos[j]
        base: PathKey = ("atos", j)
        self.paths.update({("medida",): base, ("medida", "tipo"): (*base, "tipo"),
                           ("medida", "numero"): (*base, "numero"), ("medida", "data"): (*base, self.date_field(j)),
                           ("medida", "local"): (*base, "local") if b.local else ("local",),
                           ("medida", "descricao"): (*base, "descricao"),
                           ("medida", "abrangencia"): (*base, "abrangencia"), ("medida", "itens"): (*base, "itens"),
                           ("medida", "local_deposito"): (*base, "local_deposito"),
                           ("medida", "destino"): (*base, "destino"),
                           ("medida", "condicoes_levantamento"): (*base, "condicoes_levantamento")})
        tipo = _MEASURES.get(b.tipo) or _ENDS[self.act.tipo]
        return Medida(tipo=tipo, numero=b.numero, data=b.data_do_ato, local=b.local or self.p.local,
                      descricao=b.descricao, abrangencia=b.abrangencia, itens=list(b.itens or []),
                      local_deposito=b.local_deposito, destino=b.destino,
                      condicoes_levantamento=b.condicoes_levantamento)

    def _termo_embargo(self, fields: dict[str, Any]) -> None:
        fields["medida"] = self.measure(self.i)

    def _termo_interdicao(self, fields: dict[str, Any]) -> None:
        fields["medida"] = self.measure(self.i)

    def _measure_of_this_act(self, fields: dict[str, Any]) -> None:
        """A termo that executes a measure of the auto (Timóteo art. 16, IV, V, VII): the measure is this act."""
        fields["medida"] = self.measure(self.i)

    _termo_apreensao_veiculo = _termo_apreensao  # Ferraz art. 59: the vehicle, recolhido ao pátio municipal

    _termo_condenacao = _measure_of_this_act
    _termo_suspensao = _measure_of_this_act
    _termo_cassacao = _measure_of_this_act

    def _end_of_measure(self, fields: dict[str, Any]) -> None:
        """A levantamento or a restitution: the measure it ends (the act it cites, when it is the measure's act
        and known by this date: the timeline reports any other), ending on this act's date; and the last
        decision on the auto or on appeal known by then (a restitution may depend on it: Ferraz art. 60, p.u.)."""
        j = _referenced(self.loaded, self.i)
        if j is not None and self.p.atos[j].tipo == _ENDS[self.act.tipo] and self.known(j):
            fields["medida"] = self.measure(j).model_copy(update={"fim": self.as_of})
        else:
            fields["medida"] = Medida(tipo=_ENDS[self.act.tipo], fim=self.as_of)
            self.paths[("medida",)] = ("atos", self.i, "referente")
        self.paths[("medida", "fim")] = ("atos", self.i, "data")
        if self.act.descricao:  # what the agent found that ends the measure
            fields["medida"] = fields["medida"].model_copy(update={"constatacao": self.act.descricao})
            self.paths[("medida", "constatacao")] = ("atos", self.i, "descricao")
        decided = [k for k in self.loaded.of_kind(*_DECISIONS) if k < self.i and self.known(k)]
        if decided:
            k = decided[-1]
            b = self.p.atos[k]
            base: PathKey = ("atos", k)
            self.paths.update({("decisao",): base, ("decisao", "numero"): (*base, "numero"),
                               ("decisao", "data"): (*base, "data"), ("decisao", "resultado"): (*base, "resultado")})
            fields["decisao"] = Decisao(instancia=_DECISIONS[b.tipo], numero=b.numero, data=b.data_do_ato,
                                        resultado=b.resultado, autoridade=b.autoridade)
        else:  # the decision the law requires before it is missing: point at the act itself
            self.paths[("decisao",)] = ("atos", self.i)
        self.recorded_payment(fields)

    _termo_levantamento_embargo = _end_of_measure
    _termo_levantamento_interdicao = _end_of_measure
    _termo_restituicao = _end_of_measure
    _termo_levantamento_suspensao = _end_of_measure

    def apprehension_penalty(self, proposed: list[PenalidadeProposta]) -> str:
        """The law's penalty id of this apprehension: the one the auto proposed, else the one citing the same
        article as the act (Ferraz: ``apreensao-equipamento``, art. 60, p.u.), else ``apreensao``."""
        own = [x.tipo for x in proposed if x.tipo.startswith("apreensao") and x.tipo in self.statute.penalidades]
        if own:
            return own[0]
        rule = self.proc.atos[self.act.tipo]
        same = [k for k, v in self.statute.penalidades.items()
                if k.startswith("apreensao") and v.citacao == rule.citacao]
        return same[0] if same else "apreensao"

    def notice(self, j: int) -> Notificacao | None:
        """Notice act ``j`` as the case's ``notificacao``, with only what happened by the document's date."""
        b = self.p.atos[j]
        rule = self.proc.atos[b.tipo]
        assert rule.forma is not None
        when = self.as_of
        base: PathKey = ("atos", j)
        self.paths.update({("notificacao",): base, ("notificacao", "forma"): (*base, "tipo"),
                           ("notificacao", "data"): (*base, "data")})
        if rule.forma == "ar":
            dev = b.devolucao if b.devolucao is not None and b.devolucao.data <= when else None
            if dev is None and _known(b.recebimento, when) is None:
                return None  # the AR is not back yet: no notice in effect (the terms go without dates)
            self.paths.update({("notificacao", "ar"): base,
                               ("notificacao", "ar", "data_postagem"): (*base, "postagem"),
                               ("notificacao", "ar", "data_recebimento"): (*base, "recebimento"),
                               ("notificacao", "ar", "data_juntada"): (*base, "juntada"),
                               ("notificacao", "ar", "devolvido"): (*base, "devolucao"),
                               ("notificacao", "ar", "motivo_devolucao"): (*base, "devolucao", "motivo")})
            return Notificacao(forma="ar", ar=AvisoRecebimento(
                data_postagem=_known(b.postagem, when), data_recebimento=_known(b.recebimento, when),
                data_juntada=_known(b.juntada, when), devolvido=dev is not None,
                motivo_devolucao=dev.motivo if dev else None))
        if rule.forma == "edital":
            if any(x.data > when for x in b.publicacoes or []):
                return None  # published again later: the edital is not complete yet, so no notice in effect
            pubs = [(n, x) for n, x in enumerate(b.publicacoes or []) if x.data <= when]
            official = [(n, x) for n, x in pubs if x.meio in ("oficial", "afixacao")]
            paper = [(n, x) for n, x in pubs if x.meio == "jornal"]
            ed = Edital()
            self.paths.update({("notificacao", "edital", leaf): (*base, "publicacoes") for leaf in
                               ("data_publicacao", "veiculo", "data_publicacao_jornal", "jornal")})
            self.paths[("notificacao", "edital")] = (*base, "publicacoes")
            if official:
                n, x = max(official, key=lambda t: t[1].data)
                ed = ed.model_copy(update={"data_publicacao": x.data, "veiculo": x.veiculo})
                self.paths.update({("notificacao", "edital", "data_publicacao"): (*base, "publicacoes", n, "data"),
                                   ("notificacao", "edital", "veiculo"): (*base, "publicacoes", n, "veiculo")})
            if paper:
                n, x = max(paper, key=lambda t: t[1].data)
                ed = ed.model_copy(update={"data_publicacao_jornal": x.data, "jornal": x.veiculo})
                self.paths.update({
                    ("notificacao", "edital", "data_publicacao_jornal"): (*base, "publicacoes", n, "data"),
                    ("notificacao", "edital", "jornal"): (*base, "publicacoes", n, "veiculo")})
            return Notificacao(forma="edital", edital=ed)
        data = b.data if b.data is not None and b.data <= when else None
        return Notificacao(forma=rule.forma, data=data)


def _document_date(a: Ato, kind: str) -> date | None:
    """The date of act ``a``'s document of ``kind``: the AR certificate is dated the juntada; the certificate of
    publication, the last publication (the edital is complete then); every other, the act's date."""
    if kind == AR_CERTIFICATE:
        return a.juntada
    if kind == PUBLICATION_CERTIFICATE:
        return max((x.data for x in a.publicacoes or []), default=None)
    return a.data_do_ato


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
