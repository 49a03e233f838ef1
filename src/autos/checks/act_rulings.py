"""The parts of an act's case for the judgement (:mod:`autos.checks.act_builder`): the protocol of a defence or appeal,
the decision (with the act it decides and whether it came in time) and the demonstrativo de débito after it."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from autos.base import ptbr
from autos.base.yamlio import PathKey
from autos.checks.act_builder import _DECISIONS, _BuilderBase, _referenced
from autos.processo.case import ArgumentoImpugnacao, Decisao, Impugnacao, PagamentoRegistrado, PrazoDoAto


class _RulingActs(_BuilderBase):
    """The protocol, the decision and the debit statement."""

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
            self.costs_paid(fields)

    def costs_paid(self, fields: dict[str, Any]) -> None:
        """The payment of the costs recorded before this act (an act whose kind ``quita_despesas``: Cuiabá's payment
        at the rescue, art. 11, § 2º, of the art. 11, § 3º table, art. 38): the statement deducts it from the auto's
        debt before it states what is due."""
        paid = [j for j, b in enumerate(self.p.atos[:self.i]) if b.valor is not None and self.known(j)
                and (r := self.proc.atos.get(b.tipo)) is not None and r.quita_despesas]
        if paid:
            b = self.p.atos[paid[-1]]
            fields["ato"] = self._act_block(fields).model_copy(update={"pagamento": PagamentoRegistrado(
                nome=self.proc.atos[b.tipo].nome, numero=b.numero, data=b.data_do_ato, valor=b.valor)})

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

    def _despacho_encaminhamento(self, fields: dict[str, Any]) -> None:
        """The despacho in which the authority that judged does not reconsider and forwards the appeal (Lei
        9.784/1999, art. 56, § 1º, by analogy): the appeal it forwards (its protocol), the judgement the appeal
        contests (with who decides the appeal) and why it is not reconsidered."""
        a, i = self.act, self.i
        k = _referenced(self.loaded, i)
        rec = self.p.atos[k] if k is not None and self.p.atos[k].tipo == "recurso" else None
        update: dict[str, Any] = {"razoes": a.fundamentacao}
        self.paths[("ato", "razoes")] = ("atos", i, "fundamentacao")
        if rec is not None and k is not None:
            update["protocolo"] = Impugnacao(tipo="recurso", numero=rec.numero, data=rec.data)
            self.paths.update({("ato", "protocolo"): ("atos", k), ("ato", "protocolo", "data"): ("atos", k, "data"),
                               ("ato", "protocolo", "numero"): ("atos", k, "numero")})
            self.decision_of(fields, _referenced(self.loaded, k))
        fields["ato"] = self._act_block(fields).model_copy(update=update)

    def forwarding(self, i: int) -> str | None:
        """The despacho that forwarded the appeal decision act ``i`` decides, when the processo records one by then:
        "Despacho nº …, de DD/MM/AAAA"."""
        k = _referenced(self.loaded, i)
        if k is None or self.p.atos[k].tipo != "recurso" or self.p.atos[k].numero is None:
            return None
        found = [j for j in self.loaded.citing(self.p.atos[k].numero) if j < i and self.known(j)
                 and self.p.atos[j].tipo == "encaminhamento_recurso"]
        if not found:
            return None
        b = self.p.atos[found[-1]]
        when = b.data_do_ato
        return (f"Despacho{' nº ' + b.numero if b.numero else ''}"
                + (f", de {ptbr.format_date_short(when)}" if when is not None else ""))

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
                                    fundamentacao=a.fundamentacao, impugnacao=imp,
                                    encaminhamento=self.forwarding(i) if a.tipo == "decisao_recurso" else None,
                                    **self.reasons(i))

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
