"""The parts of an act's case for the auto and the notices (:mod:`autos.checks.act_builder`): the auto de infração,
the notificação preliminar, the termo de ocorrência, the advertência escrita, the letter with AR and its certidão de
juntada, the edital and its certidão de publicação, and the notice of a decision."""

from __future__ import annotations

from typing import Any

from autos.checks.act_builder import _MEASURE_DOCUMENTS, _BuilderBase, _known
from autos.checks.attempts import prior_attempts
from autos.processo.case import Assinaturas, Notificacao, PenalidadeProposta, PrazoDoAto, returned_for_unknown_address


class _NoticeActs(_BuilderBase):
    """The auto and the notices."""

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
        """The letter states its AR's return only when it is known by the letter's date (a later via), and carries
        the copies of the termos drawn up with the auto that the responsible person did not sign."""
        fields["notificacao"] = self.notice(self.i)
        self._enclosed_termos(fields)

    def _enclosed_termos(self, fields: dict[str, Any]) -> None:
        """A termo drawn up with the auto (same day) while the autuado was absent says that its ciência comes with
        the auto's (``ciencia_termo`` in the templates): the notice of the auto encloses it, by title and number."""
        auto = self.p.atos[self.auto] if self.auto is not None else None
        if auto is None or self.loaded.referenced(self.i) != self.auto:
            return
        signed = auto.assinaturas.autuado if auto.assinaturas is not None else None
        if signed is None or signed.situacao != "ausente":
            return
        names = []
        for k, b in enumerate(self.p.atos[:self.i]):
            title = self.statute.documentos.get(_MEASURE_DOCUMENTS.get(b.tipo, ""))
            own = b.assinaturas.autuado if b.assinaturas is not None else None
            if (title is None or b.data_do_ato != auto.data_do_ato or not self.known(k)
                    or (own is not None and own.situacao == "assinou")):
                continue
            names.append(f"{title.titulo}{' nº ' + b.numero if b.numero else ''}")
        if names:
            fields["ato"] = self._act_block(fields).model_copy(update={"anexos": names})

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
