"""The builder of an act's case (:func:`autos.checks.acts.act_document`): the act and document kinds it knows, and
what every kind's part of it shares — the acts known by the document's date, the agent and the lavratura, the notice
of the auto, the notices and payments cited, the deadlines an act starts, the decision a document refers to. Each
kind adds its own fields in :mod:`autos.checks.act_notices`, :mod:`autos.checks.act_rulings` and
:mod:`autos.checks.act_measures`."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal

from autos.base.yamlio import PathKey
from autos.checks.competence import appeal_authority, appeal_deadline, appeal_lies, payment_deadline
from autos.checks.reasons import contested_act
from autos.processo.case import (
    Agente,
    ArgumentoImpugnacao,
    AtoProcesso,
    AvisoRecebimento,
    Decisao,
    Edital,
    Impugnacao,
    Lavratura,
    Notificacao,
    NotificacaoCitada,
    PagamentoRegistrado,
    PublicacaoEdital,
    RazaoDecisao,
)
from autos.processo.load import LoadedProcesso
from autos.processo.model import Ato
from autos.rules.authorities import Authorities
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

if TYPE_CHECKING:
    from autos.compute.timeline import Timeline


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
#: the despacho that does not reconsider the judgement and forwards the appeal (Lei 9.784/1999, art. 56, § 1º)
FORWARDING = "despacho_encaminhamento"
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


def _auto_index(p: LoadedProcesso, proc: Procedure) -> int | None:
    return p.first_of_kind(proc.initial_kind())


def _referenced(loaded: LoadedProcesso, i: int) -> int | None:
    return loaded.referenced(i)


def _known(d: date | None, as_of: date) -> date | None:
    return d if d is not None and d <= as_of else None


class _BuilderBase:
    """What every kind's part of an act's case shares: the acts known by the date, the paths into the processo."""

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

    def referred_decision(self, fields: dict[str, Any]) -> None:
        """``decisao`` of the decision act this act refers to (nothing when it refers to the auto)."""
        self.decision_of(fields, _referenced(self.loaded, self.i))

    def decision_of(self, fields: dict[str, Any], j: int | None) -> None:
        """``decisao`` of decision act ``j`` (nothing when ``j`` is not a decision)."""
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
