"""The parts of an act's case for the measures (:mod:`autos.checks.act_builder`): the termo de apreensão, the termos
that impose a measure (embargo, interdição, condenação, suspensão, cassação) and those that end one (levantamento,
restituição)."""

from __future__ import annotations

from typing import Any

from autos.base.yamlio import PathKey
from autos.checks.act_builder import _DECISIONS, _ENDS, _MEASURES, _BuilderBase, _known, _referenced
from autos.processo.case import Apreensao, Decisao, Medida, PenalidadeProposta


class _MeasureActs(_BuilderBase):
    """The termos of apprehension and of the measures imposed and ended."""

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

    def _own_signatures(self, fields: dict[str, Any]) -> None:
        """A termo that records its own ciência (the responsible person's signature, or a refusal certified before
        a witness with the delivery of its copy: Timóteo art. 21, § 1º) states it instead of the auto's."""
        own = self.act.assinaturas
        if own is None:
            return
        fields["assinaturas"] = own
        self.paths[("assinaturas",)] = ("atos", self.i, "assinaturas")
        sig = own.autuado
        if sig is not None and sig.certificacao_recusa:
            fields["medida"] = fields["medida"].model_copy(update={"certificacao": sig.certificacao_recusa})
            self.paths[("medida", "certificacao")] = ("atos", self.i, "assinaturas", "autuado", "certificacao_recusa")

    def _in_force_since(self, fields: dict[str, Any]) -> None:
        """A measure in force since an earlier act (``vigente_desde``: Ferraz art. 37, the notificação that embargoes
        the work), cited by this act: the termo keeps it since that act's date."""
        rule = self.proc.atos.get(self.act.tipo)
        j = _referenced(self.loaded, self.i)
        if rule is None or not rule.vigente_desde or j is None or j >= self.i or not self.known(j):
            return
        b = self.p.atos[j]
        if b.tipo not in rule.vigente_desde:
            return
        by = self.proc.atos[b.tipo].nome + (f" nº {b.numero}" if b.numero else "")
        fields["medida"] = fields["medida"].model_copy(update={"vigente_desde": b.data_do_ato, "vigente_por": by})
        self.paths.update({("medida", "vigente_desde"): ("atos", j, self.date_field(j)),
                           ("medida", "vigente_por"): ("atos", self.i, "referente")})

    def _termo_embargo(self, fields: dict[str, Any]) -> None:
        fields["medida"] = self.measure(self.i)
        self._in_force_since(fields)
        self._own_signatures(fields)

    def _termo_interdicao(self, fields: dict[str, Any]) -> None:
        fields["medida"] = self.measure(self.i)
        self._in_force_since(fields)
        self._own_signatures(fields)

    def _measure_of_this_act(self, fields: dict[str, Any]) -> None:
        """A termo that executes a measure of the auto (Timóteo art. 16, IV, V, VII): the measure is this act."""
        fields["medida"] = self.measure(self.i)
        self._own_signatures(fields)

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
