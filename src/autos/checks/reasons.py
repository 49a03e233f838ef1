"""The reasons of a processo's acts (Lei federal nº 9.784/1999, art. 50, by analogy): what a defence or appeal
argues, item by item, and a decision that answers each item with facts and legal grounds, then says what it decides
— and an amount that follows from the law's unit and says why.

A decision that imposes, keeps or reduces a sanction, or decides an appeal, must be motivated "com indicação dos
fatos e dos fundamentos jurídicos" (art. 50, II and V), and the motivation must be "explícita, clara e congruente"
(§ 1º). So, for every judgement and decision on appeal:

* ``DEFESA-SEM-ARGUMENTOS``: the defence or appeal it decides records nothing of what it argues (``argumentos``):
  nobody can tell whether the decision answered it;
* ``ARGUMENTO-SEM-RESPOSTA``: an argument of it has no answer in ``razoes``; ``RAZAO-SEM-ARGUMENTO``: an answer to
  an argument it does not have; ``RAZAO-SEM-FUNDAMENTO``: an answer without the facts or the legal grounds;
* ``DECISAO-SEM-MOTIVACAO``: no defence (or a late one) and no ``fundamentacao`` (the facts and the provision of a
  sanction judged by default, a cancellation);
* ``DECISAO-INCONGRUENTE``: the result contradicts the answers (arguments all rejected and the fine cancelled or
  reduced with no reason; an argument accepted and the fine kept, unsaid why);
* amounts: ``REDUCAO-EM-REAIS`` (a reduction stated in reais, not in the unit in which the law fixes the fine),
  ``REDUCAO-SEM-MOTIVO``, ``REDUCAO-ABAIXO-DO-MINIMO`` (below the law's floor, after the reductions the law itself
  gives: no legal basis) — and, on the decision's own document, where the auto's fine is computed anyway
  (:mod:`autos.checks.decision_amounts`), ``DECISAO-VALOR-DIVERGENTE`` and ``REDUCAO-NAO-REDUZ``;
* in the auto, where the law leaves a range (Timóteo art. 16, II and § 2º): ``MULTA-FAIXA-SEM-MOTIVO`` (the
  circumstances weighed and why the amount) and ``ADVERTENCIA-NAO-CONSIDERADA`` (a fine for a first offender with no
  aggravating circumstance, where art. 16, I, gives the warning, without saying why not the warning).

All are errors (``erro``). No file I/O, nothing computed.
"""

from __future__ import annotations

from decimal import Decimal

from autos.base import ptbr
from autos.base.yamlio import PathKey, format_path
from autos.compute.finding import Finding
from autos.compute.timeline import Timeline
from autos.processo.load import LoadedProcesso
from autos.processo.model import Razao
from autos.rules.calendar import format_date
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute, formula_for

__all__ = ["contested_act", "fine_basis", "reasons_findings"]

LEI_9784_ART50 = "Lei federal nº 9.784/1999, art. 50, por analogia"
_DECISIONS = ("julgamento", "decisao_recurso")
_IMPUGNACOES = ("defesa", "recurso")


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def contested_act(loaded: LoadedProcesso, i: int) -> int | None:
    """The defence or appeal decision ``i`` decides: the act it cites when that is one; for a judgement of the auto,
    the last defence against the auto before it (``None``: none was filed)."""
    p = loaded.processo
    a = p.atos[i]
    ref = next((j for j, b in enumerate(p.atos[:i]) if a.referente and b.numero == a.referente), None)
    if ref is not None and p.atos[ref].tipo in _IMPUGNACOES:
        return ref
    if a.tipo != "julgamento":
        return None
    filed = [k for k, b in enumerate(p.atos[:i]) if b.tipo == "defesa" and (a.referente is None
                                                                           or b.referente == a.referente)]
    return filed[-1] if filed else None


def fine_basis(statute: Statute, regras: list[str]) -> str:
    """Where the law sets the fine of these infractions in its fiscal unit (each one's formula: Ferraz art. 68;
    Cuiabá art. 36; Timóteo's range, art. 16, II)."""
    cites: list[str] = []
    for regra in regras:
        rule = statute.infracoes.get(regra)
        formula = formula_for(statute, rule, "multa") if rule is not None else None
        if formula is not None:
            cites.append(statute.cite(formula.citacao))
        elif (pen := statute.penalidades.get("multa")) is not None:
            cites.append(statute.cite(pen.citacao))
    return "; ".join(dict.fromkeys(cites)) or statute.lei.label


class _Checker:
    def __init__(self, loaded: LoadedProcesso, proc: Procedure, statute: Statute, timeline: Timeline | None) -> None:
        self.loaded = loaded
        self.p = loaded.processo
        self.proc = proc
        self.statute = statute
        self.timeline = timeline
        self.out: list[Finding] = []

    def add(self, code: str, message: str, path: PathKey, base: str, hint: str) -> None:
        self.out.append(Finding(severidade="erro", codigo=code, mensagem=message, citacao=base,
                                caminho=format_path(path), linha=self.loaded.line_of(path), dica=hint))

    def label(self, i: int) -> str:
        a = self.p.atos[i]
        r = self.proc.atos.get(a.tipo)
        name = r.nome if r else a.tipo
        num = f" nº {a.numero}" if a.numero else ""
        when = f" de {format_date(d)}" if (d := a.data_do_ato) else ""
        return f"{name}{num}{when} (atos[{i}])"

    def late(self, j: int) -> bool:
        t = self.timeline
        return t is not None and j < len(t.atos) and t.atos[j].intempestivo is not None

    # --- decisions ------------------------------------------------------------------------------
    def decision(self, i: int) -> None:
        a = self.p.atos[i]
        rule = self.proc.atos.get(a.tipo)
        if rule is None or a.data_do_ato is None:
            return
        j = contested_act(self.loaded, i)
        here = self.label(i)
        razoes = a.razoes or []
        if j is not None and not self.late(j):
            self.answers(i, j, here, razoes)
        elif razoes:
            what = "foi apresentado fora do prazo" if j is not None else "não foi apresentado"
            self.add("RAZAO-SEM-ARGUMENTO", f"{here} responde a argumentos, mas o ato que ela decidiria {what}: "
                     "as razões não respondem a nada do processo.", ("atos", i, "razoes"), LEI_9784_ART50,
                     "retire 'razoes' e diga em 'fundamentacao' os fatos e os fundamentos da decisão.")
        answered_defence = j is not None and not self.late(j)
        appeal_not_known = j is not None and self.late(j) and a.tipo == "decisao_recurso"
        if _blank(a.fundamentacao) and not answered_defence and not appeal_not_known:
            why = ("não houve defesa tempestiva" if a.tipo == "julgamento" else "não há recurso tempestivo a responder")
            self.add("DECISAO-SEM-MOTIVACAO", f"{here} não tem motivação: {why}, e a decisão não diz em "
                     "'fundamentacao' os fatos provados e os dispositivos que aplica; a decisão que impõe ou mantém "
                     "sanção deve ser motivada, com indicação dos fatos e dos fundamentos jurídicos.",
                     ("atos", i), LEI_9784_ART50,
                     "escreva em 'fundamentacao' o que os autos provam (o auto, a notificação, a falta de defesa) e "
                     "os artigos da lei que se aplicam.")
        self.congruence(i, razoes)
        self.amount(i)

    def answers(self, i: int, j: int, here: str, razoes: list[Razao]) -> None:
        a, b = self.p.atos[i], self.p.atos[j]
        args = b.argumentos or []
        there = self.label(j)
        if not args:
            had = (f" (o arquivo tem só um resumo em 'fundamentacao': \"{' '.join((b.fundamentacao or '').split())}\")"
                   if not _blank(b.fundamentacao) else "")
            self.add("DEFESA-SEM-ARGUMENTOS", f"{there}, decidido por {here}, não registra o que alega, item por item"
                     f"{had}: sem os argumentos não se confere que a decisão responde a cada um, como exige a "
                     "motivação explícita, clara e congruente.", ("atos", i, "razoes") if a.razoes else ("atos", i),
                     LEI_9784_ART50, f"registre em atos[{j}].argumentos cada alegação da peça protocolada (id e "
                     f"texto) e em atos[{i}].razoes a resposta a cada uma (argumento, conclusao, fatos, "
                     "fundamentos).")
            return
        ids = [x.id for x in args]
        answered = {r.argumento for r in a.razoes or []}
        for x in args:
            if x.id not in answered:
                self.add("ARGUMENTO-SEM-RESPOSTA", f"{here} não responde ao argumento {x.id} de {there}: "
                         f"\"{' '.join(x.texto.split())}\"; a decisão que deixa um argumento sem resposta não é "
                         "motivada.", ("atos", i, "razoes") if a.razoes else ("atos", i), LEI_9784_ART50,
                         f"acrescente em atos[{i}].razoes a resposta ao argumento {x.id} (conclusao: acolhido, "
                         "acolhido_em_parte ou rejeitado; os fatos; os fundamentos jurídicos).")
        for k, r in enumerate(a.razoes or []):
            path: PathKey = ("atos", i, "razoes", k)
            if r.argumento not in ids:
                self.add("RAZAO-SEM-ARGUMENTO", f"{here} responde ao argumento '{r.argumento}', que {there} não tem "
                         f"(argumentos: {', '.join(ids)}).", (*path, "argumento"), LEI_9784_ART50,
                         "use o id de um argumento registrado no ato decidido.")
            missing = [n for n, v in (("fatos", r.fatos), ("fundamentos", r.fundamentos)) if _blank(v)]
            if missing:
                self.add("RAZAO-SEM-FUNDAMENTO", f"{here}: a resposta ao argumento {r.argumento} não indica "
                         f"{' nem '.join('os ' + m for m in missing)}; a motivação indica os fatos e os fundamentos "
                         "jurídicos.", (*path, missing[0]), LEI_9784_ART50,
                         f"preencha atos[{i}].razoes[{k}].{missing[0]}.")

    def congruence(self, i: int, razoes: list[Razao]) -> None:
        a = self.p.atos[i]
        conclusions = [r.conclusao for r in a.razoes or []]
        here = self.label(i)
        if not conclusions:
            return
        rejected = all(c == "rejeitado" for c in conclusions)
        if a.resultado == "cancelada" and rejected and _blank(a.fundamentacao):
            self.add("DECISAO-INCONGRUENTE", f"{here} cancela a multa, mas rejeita todos os argumentos, sem dizer "
                     "em 'fundamentacao' por que cancela.", ("atos", i, "resultado"), LEI_9784_ART50,
                     "diga em 'fundamentacao' o motivo do cancelamento (p. ex. o vício do auto reconhecido de ofício) "
                     "ou corrija as conclusões ou o resultado.")
        if a.resultado == "mantida" and "acolhido" in conclusions and _blank(a.fundamentacao):
            self.add("DECISAO-INCONGRUENTE", f"{here} acolhe um argumento e mantém a multa, sem dizer em "
                     "'fundamentacao' por que o argumento acolhido não muda o resultado.", ("atos", i, "resultado"),
                     LEI_9784_ART50, "diga em 'fundamentacao' por que a multa fica mantida, ou corrija a conclusão.")

    def amount(self, i: int) -> None:
        """What a reduction must say in itself: the amount in the law's unit, the reason, a floor of the law. The
        comparisons with the fine in force (a kept fine stated otherwise, a reduction that does not reduce) are the
        decision document's (:mod:`autos.checks.decision_amounts`), where the auto's fine is computed anyway."""
        a = self.p.atos[i]
        here = self.label(i)
        sigla = self.statute.unidade_fiscal.sigla
        cite = fine_basis(self.statute, [inf.regra for inf in self.p.infracoes])
        if a.resultado != "reduzida":
            return
        if a.valor_base is None:
            typed = f" ({ptbr.format_brl(a.valor)})" if a.valor is not None else ""
            self.add("REDUCAO-EM-REAIS", f"{here} reduz a multa sem dizer o novo valor em {sigla}{typed}: a lei fixa a "
                     f"multa em {sigla} ({cite}), e o valor em reais decorre do valor da unidade.",
                     ("atos", i, "valor" if a.valor is not None else "resultado"), cite,
                     f"informe em atos[{i}].valor_base o valor decidido em {sigla}; o valor em reais é calculado.")
        if _blank(a.motivo_valor):
            self.add("REDUCAO-SEM-MOTIVO", f"{here} reduz a multa sem dizer por que este valor: a decisão que altera a "
                     "sanção é motivada com os fatos e os fundamentos (as circunstâncias, o fato corrigido, o artigo).",
                     ("atos", i, "resultado"), LEI_9784_ART50,
                     f"escreva em atos[{i}].motivo_valor por que o valor é o decidido (p. ex. a atenuante "
                     "reconhecida e o artigo, a reincidência afastada, a área medida corrigida).")
        floor = self.floor()
        if a.valor_base is not None and floor is not None and a.valor_base < floor[0]:
            self.add("REDUCAO-ABAIXO-DO-MINIMO", f"{here} reduz a multa a {ptbr.format_decimal(a.valor_base)} {sigla}, "
                     f"abaixo do mínimo de {ptbr.format_decimal(floor[0])} {sigla} ({floor[1]}): não há base legal "
                     "para a multa abaixo do mínimo da lei.", ("atos", i, "valor_base"), floor[2],
                     f"decida um valor a partir de {ptbr.format_decimal(floor[0])} {sigla}, ou cancele a multa se a "
                     "infração não se sustenta.")

    def floor(self) -> tuple[Decimal, str, str] | None:
        """The law's floor of the fine and why: the range's minimum, less the reductions of the law that apply to the
        autuado (Timóteo art. 16, § 5º, whose choice keeps the reduction below the minimum)."""
        pen = self.statute.penalidades.get("multa")
        if pen is None or pen.multa_minima is None:
            return None
        low = pen.multa_minima
        why = [self.statute.cite(pen.citacao)]
        for red in self.statute.reducoes:
            if red.quando == "autuado.pequeno_porte" and self.p.autuado.pequeno_porte:
                low = low * (Decimal(100) - red.percentual) / Decimal(100)
                why.append(f"com a redução de {ptbr.format_decimal(red.percentual)}% do {red.citacao.short()}")
        return low, ", ".join(why), self.statute.cite(pen.citacao)

    # --- the auto -------------------------------------------------------------------------------
    def auto(self, k: int) -> None:
        """Where the law leaves a range (a penalty with a minimum and a maximum), the auto says why that amount, and,
        where the law gives a warning to the first offender without aggravating circumstances, why not the warning."""
        a = self.p.atos[k]
        st = self.statute
        warning = next((pid for pid, pen in st.penalidades.items() if pen.somente_primario_sem_agravante), None)
        proposed = {x.tipo for x in a.penalidades or []}
        admits_warning = warning is not None and any(warning in (st.infracoes[inf.regra].penalidades
                                                                if inf.regra in st.infracoes else [])
                                                     for inf in self.p.infracoes)
        agravantes = a.circunstancias.agravantes if a.circunstancias is not None else []
        self._repeats(k)
        for n, prop in enumerate(a.penalidades or []):
            pen = st.penalidades.get(prop.tipo)
            if pen is None or (pen.multa_minima is None and pen.multa_maxima is None):
                continue
            path: PathKey = ("atos", k, "penalidades", n)
            band = (f"{ptbr.format_decimal(pen.multa_minima or Decimal(0))} a "
                    f"{ptbr.format_decimal(pen.multa_maxima or Decimal(0))} {st.unidade_fiscal.sigla}")
            circ = self._circumstance_rule()
            if _blank(prop.motivo_valor):
                self.add("MULTA-FAIXA-SEM-MOTIVO", f"{self.label(k)}: a multa de faixa ({band}, "
                         f"{st.cite(pen.citacao)}) não diz as circunstâncias consideradas nem por que o valor-base "
                         "é este: o valor se fixa pela gravidade do fato, os antecedentes, as consequências e as "
                         f"circunstâncias ({circ}), e a sanção é motivada.", path, circ,
                         f"escreva em atos[{k}].penalidades[{n}].motivo_valor a gravidade, os antecedentes, as "
                         "consequências para a saúde e o consumidor, as atenuantes e agravantes e por que o valor.")
            if not (admits_warning and warning not in proposed and self.p.autuado.primario is not False
                    and not agravantes):
                continue
            assert warning is not None
            wpen = st.penalidades[warning]
            # a fine to a first offender without aggravating circumstance: MULTA-AO-PRIMARIO of autos.checks.validate
            if self.p.autuado.primario is None and _blank(prop.motivo_nao_advertencia):
                who = "o auto não diz se o autuado é primário (autuado.primario)"
                self.add("ADVERTENCIA-NAO-CONSIDERADA", f"{self.label(k)}: {who} e não há agravante, caso em que a lei "
                         f"prevê a {wpen.nome} ({st.cite(wpen.citacao)}); o auto aplica multa sem dizer por que não a "
                         f"{wpen.nome}.", path, st.cite(wpen.citacao),
                         "informe autuado.primario: false com o processo anterior (e diga em "
                         f"atos[{k}].penalidades[{n}].motivo_nao_advertencia qual é), ou proponha a {wpen.nome}.")

    def _repeats(self, k: int) -> None:
        """A repeat (``reincidente: true``) rests on an earlier infraction whose penalty was definitive before this
        one: the processo names it (``antecedente``), or the doubling, the suspension or the aggravation it brings has
        no fact to rest on (Lei federal nº 9.784/1999, art. 50, II, by analogy)."""
        st = self.statute
        when = self.p.data_infracao or self.p.atos[k].data_do_ato
        for i, inf in enumerate(self.p.infracoes):
            if inf.reincidente is not True:
                continue
            base = self._repeat_rule(inf.regra)
            prior = inf.antecedente
            if prior is None:
                rule = st.infracoes.get(inf.regra)
                what = st.cite(rule.citacao) if rule is not None else inf.regra
                self.add("ANTECEDENTE-AUSENTE", f"{self.label(k)}: a infração {i + 1} ({what}) é dada "
                         "como reincidência, mas o processo não diz qual é a infração anterior nem quando a sua "
                         f"penalidade se tornou definitiva ({base}): sem esse fato, o agravamento não tem motivo.",
                         ("infracoes", i, "reincidente"), base,
                         f"informe infracoes[{i}].antecedente com o auto anterior (auto, data), a data em que a "
                         "penalidade se tornou definitiva (definitiva_em) e como (multa paga, decisão do recurso, "
                         "prazo de recurso vencido); se ela não era definitiva, escreva reincidente: false.")
            elif when is not None and prior.definitiva_em >= when:
                self.add("ANTECEDENTE-NAO-DEFINITIVO", f"{self.label(k)}: a penalidade do Auto nº "
                         f"{prior.auto} só se tornou definitiva em {format_date(prior.definitiva_em)}, não antes "
                         f"desta infração ({format_date(when)}): não há reincidência ({base}).",
                         ("infracoes", i, "antecedente", "definitiva_em"), base,
                         f"escreva infracoes[{i}].reincidente: false (a multa sem agravamento) ou corrija a data "
                         "em que a penalidade anterior se tornou definitiva.")

    def _repeat_rule(self, regra: str) -> str:
        """The article by which a repeat changes the fine of infraction ``regra`` (Ferraz art. 68: "em dobro"),
        else the infraction's own."""
        st = self.statute
        rule = st.infracoes.get(regra)
        if rule is None:
            return st.lei.label
        for pid in rule.penalidades:
            rec = getattr(formula_for(st, rule, pid), "reincidencia", None)
            if rec is not None:
                return st.cite(rec.citacao)
        return st.cite(rule.citacao)

    def _circumstance_rule(self) -> str:
        c = self.statute.circunstancias
        if c is None or not c.atenuantes:
            return self.statute.lei.label
        first = next(iter(c.atenuantes.values())).citacao
        return self.statute.cite(first.model_copy(update={"inciso": None, "alinea": None}))


def reasons_findings(loaded: LoadedProcesso, proc: Procedure, statute: Statute,
                     timeline: Timeline | None) -> list[Finding]:
    """The findings of the module's docstring but the comparisons with the fine in force (the decision document's:
    :mod:`autos.checks.decision_amounts`)."""
    c = _Checker(loaded, proc, statute, timeline)
    initial = proc.initial_kind()
    for i, a in enumerate(loaded.processo.atos):
        if a.tipo == initial:
            c.auto(i)
        elif a.tipo in _DECISIONS and a.tipo in proc.atos:
            c.decision(i)
    return c.out
