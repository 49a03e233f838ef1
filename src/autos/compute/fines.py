"""Stage 3a — compute fines: fiscal units → reais, with a calculation memo citing every step.

The formulas are data in the statute's rules (``infracoes.<id>.multa``, ``penalidades.<id>.calculo``,
or a range ``multa_minima``/``multa_maxima`` whose base value the agent proposes); this module only
knows the *kinds* of formula:

* ``fixa`` — a fixed number of units, possibly repeated every N days, after a prior written warning,
  with a guarantee deposit deducted (Ferraz arts. 62 and 70);
* ``por_quantidade`` — units for each block of a measured quantity (m², metres, units);
* ``dobra_periodica`` — units doubled every N days until the obligation is met;
* ``por_capacidade`` — units by capacity bracket of the place;
* ``por_gravidade`` — units by the gravity the agent assigns;
* ``custas_apreensao`` — transport, fine and daily custody fees of an apprehended animal by size.

Money is :class:`~decimal.Decimal` throughout; the only rounding is the one the statute's rules
state (``arredondamento``), applied once to each fine in reais. A fact the formula needs that the case
lacks, or a fact outside the law's tables, is a :class:`ComputeError` naming the YAML path: nothing is
priced by invention.

This module puts the fines of a case together (:class:`FineResult`, :func:`compute_fines`, the apprehension costs by
day); each kind of formula, and what one formula produces (:class:`~autos.compute.fine_formulas.FineItem`, with its
memo's :class:`~autos.compute.fine_formulas.Step`), is priced in :mod:`autos.compute.fine_formulas`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from autos.base import ptbr
from autos.base.yamlio import PathKey
from autos.compute.fine_formulas import FineItem, Step, _Calc, _cap, _formula_fine, _range_fine
from autos.compute.fine_labels import total_label
from autos.errors import ComputeError
from autos.processo.case import Case, Circunstancias, PenalidadeProposta
from autos.rules.fine_rules import ApprehensionCosts, FineRule, FixedFine
from autos.rules.statute import Statute, formula_for
from autos.rules.statute_base import UnitValue

__all__ = ["FineOutcome", "FineResult", "compute_fines", "costs_by_day", "fine_outcome", "path_key"]


@dataclass
class FineResult:
    """Every fine of a case, their total and the memo."""

    statute: Statute
    data_referencia: date
    valor_unidade: UnitValue
    itens: list[FineItem]
    escolhas: list[str] = field(default_factory=list)
    #: defects of the law's text the computation relied on (figure vs words, duplicated paragraph…)
    avisos: list[str] = field(default_factory=list)

    @property
    def sigla(self) -> str:
        return self.statute.unidade_fiscal.sigla

    @property
    def total_unidades(self) -> Decimal:
        return sum((i.unidades for i in self.itens), Decimal(0))

    @property
    def total_reais(self) -> Decimal:
        return sum((i.reais for i in self.itens), Decimal(0))

    @property
    def exemplo(self) -> bool:
        return self.valor_unidade.exemplo

    def part(self, natureza: str) -> FineResult | None:
        """The items of one nature — ``penalidade`` (fines) or ``despesa`` (costs the offender owes on top of the
        penalties, Cuiabá art. 38) — as a result of their own, with their own total; None when there are none."""
        def nature(item: FineItem) -> str:
            pen = self.statute.penalidades.get(item.penalidade or "multa")
            return pen.natureza if pen is not None else "penalidade"
        items = [i for i in self.itens if nature(i) == natureza]
        if not items:
            return None
        if len(items) == len(self.itens):
            return self
        return FineResult(statute=self.statute, data_referencia=self.data_referencia, valor_unidade=self.valor_unidade,
                          itens=items, escolhas=list(self.escolhas), avisos=list(self.avisos))

    def unidades_texto(self) -> str:
        """``1.500 (mil e quinhentas) UPFMT``."""
        return ptbr.units_full(self.total_unidades, self.sigla, feminine=self.statute.unidade_fiscal.feminino)

    def reais_texto(self) -> str:
        """``R$ 7.615,50 (sete mil seiscentos e quinze reais e cinquenta centavos)``."""
        return ptbr.money_full(self.total_reais)

    def memo(self) -> list[Step]:
        steps: list[Step] = []
        for item in self.itens:
            steps.extend(item.steps)
        if len(self.itens) > 1:  # fine and costs together are the débito, never one "multa" (Cuiabá art. 38)
            label = total_label(self.part("penalidade"), self.part("despesa"))
            steps.append(Step(label, None, f"{self.unidades_texto()} = {self.reais_texto()}"))
        return steps

    def to_dict(self) -> dict[str, Any]:
        return {
            "lei": self.statute.lei.label, "unidade": self.sigla,
            "data_referencia": self.data_referencia.isoformat(), "valor_unidade": str(self.valor_unidade.valor),
            "valor_unidade_fonte": self.valor_unidade.fonte,
            "valor_unidade_exemplo": self.exemplo,
            "itens": [
                {
                    "descricao": i.descricao,
                    "base_legal": i.base_legal,
                    "infracao": i.infracao,
                    "penalidade": i.penalidade,
                    "unidades": str(i.unidades),
                    "reais": str(i.reais),
                    "passos": [s.__dict__ for s in i.steps],
                }
                for i in self.itens
            ],
            "total_unidades": str(self.total_unidades),
            "total_reais": str(self.total_reais),
            "total_unidades_extenso": self.unidades_texto(),
            "total_reais_extenso": self.reais_texto(),
            "escolhas": self.escolhas,
            "avisos": self.avisos,
        }


# --------------------------------------------------------------------------------------------------
# internals
# --------------------------------------------------------------------------------------------------


@dataclass
class _Problem:
    error: ComputeError
    #: already reported by validate.py with its own code (unknown rule, range, circumstance, date)
    covered: bool = False


@dataclass
class _Defect:
    path: str  # "infracoes[0].regra"
    interpretation_id: str
    text: str
    citation: str


@dataclass
class FineOutcome:
    """Everything the fine calculator found for a case: the fines (None: none proposed, or none could be priced),
    the facts it could not price them from, and the defective provisions it relied on."""

    result: FineResult | None
    problems: list[_Problem]
    defects: list[_Defect]

    def value(self) -> FineResult | None:
        """The fines, or the first problem raised (:class:`ComputeError` with the YAML path)."""
        if self.problems:
            raise self.problems[0].error
        return self.result


def _check_circumstances(case: Case, statute: Statute) -> list[_Problem]:
    problems: list[_Problem] = []
    given = case.circunstancias
    table = statute.circunstancias
    for kind in ("atenuantes", "agravantes"):
        letters: list[str] = getattr(given, kind)
        allowed = getattr(table, kind) if table is not None else {}
        for k, letter in enumerate(letters):
            if letter not in allowed:
                where = (f"a {statute.lei.label} não prevê circunstâncias" if table is None else
                         f"a circunstância {kind[:-1]} '{letter}' não está listada na lei")
                problems.append(_Problem(ComputeError(
                    f"{where}; a multa não pode ser calculada com ela.", path=f"circunstancias.{kind}[{k}]",
                    hint=f"use {', '.join(sorted(allowed))}." if allowed else "retire as circunstâncias."),
                    covered=True))
    return problems


def _compute(case: Case, statute: Statute) -> FineOutcome:
    problems: list[_Problem] = []
    defects: list[_Defect] = []
    # defects of the text of every provision cited (warned whether or not a fine is computed)
    by_id = {i.id: i for i in statute.interpretacoes}
    for i, inf in enumerate(case.infracoes):
        rule = statute.infracoes.get(inf.regra)
        if rule is not None and rule.interpretacao:
            it = by_id[rule.interpretacao]
            defects.append(_Defect(f"infracoes[{i}].regra", it.id,
                                   f"{statute.cite(it.citacao)}: {it.problema} Escolha adotada ({it.id}): "
                                   f"{it.escolha}", statute.cite(it.citacao)))
    ref = case.infraction_date
    if ref is None:
        problems.append(_Problem(ComputeError(
            "sem a data da infração (ou da lavratura) não há como saber o valor da unidade fiscal.",
            path="lavratura.data", hint="informe lavratura.data ou data_infracao."), covered=True))
        return FineOutcome(None, problems, defects)
    try:
        value = statute.unidade_fiscal.value_on(ref)
    except ComputeError as exc:
        problems.append(_Problem(ComputeError(exc.message, path="data_infracao" if case.data_infracao else
                                              "lavratura.data", hint=exc.hint)))
        return FineOutcome(None, problems, defects)
    problems.extend(_check_circumstances(case, statute))
    calc = _Calc(case, statute, value)
    items: list[FineItem] = []
    for j, prop in enumerate(case.penalidades):
        pen = statute.penalidades.get(prop.tipo)
        if pen is not None and pen.multa_minima is not None:
            try:
                items.append(_range_fine(calc, j, prop))
            except ComputeError as exc:
                problems.append(_Problem(exc, covered=exc.path is not None and exc.path.startswith("penalidades")))
    proposed = [p.tipo for p in case.penalidades]
    proposed_set = set(proposed)
    for i, inf in enumerate(case.infracoes):
        rule = statute.infracoes.get(inf.regra)
        if rule is None:
            problems.append(_Problem(ComputeError(
                f"a infração '{inf.regra}' não existe nas regras da {statute.lei.label}.",
                path=f"infracoes[{i}].regra", hint=f"use um destes identificadores: "
                f"{', '.join(sorted(statute.infracoes))}."), covered=True))
            continue
        for pen_id in dict.fromkeys(proposed):
            if pen_id not in rule.penalidades:
                continue  # reported by the validator (PENALIDADE-INCABIVEL) when no infraction admits it
            formula = formula_for(statute, rule, pen_id)
            if formula is None:
                continue
            try:
                item = _formula_fine(calc, i, inf, rule, pen_id, formula, proposed_set)
            except ComputeError as exc:
                problems.append(_Problem(exc))
                continue
            except (ValueError, ArithmeticError):  # too large to be written in words, or for Decimal
                problems.append(_Problem(ComputeError(
                    "o valor calculado é grande demais para ser escrito por extenso; confira os fatos do caso "
                    "(quantidade, período).", path=f"infracoes[{i}]", hint="confira os números informados.")))
                continue
            if item is not None:
                items.append(item)
    if not items:
        return FineOutcome(None, problems, defects)
    referenced = _referenced(statute)
    chosen = [it for it in statute.interpretacoes if it.id in calc.applied or it.id not in referenced]
    result = FineResult(statute=statute, data_referencia=ref, valor_unidade=value, itens=items,
                        escolhas=[f"{it.id}: {it.escolha}" for it in chosen],
                        avisos=list(dict.fromkeys([d.text for d in defects]
                                                  + [f"{_cap(i.abaixo_do_minimo[2])}." for i in items
                                                     if i.abaixo_do_minimo is not None])))
    return FineOutcome(result, problems, defects)


def _referenced(statute: Statute) -> set[str]:
    """Interpretation ids tied to a particular formula or provision (shown only when applied)."""
    refs: set[str] = set()

    refs.update(r.abaixo_do_minimo for r in statute.reducoes if r.abaixo_do_minimo)

    def add(rule: FineRule | None) -> None:
        if rule is None:
            return
        refs.update(rule.interpretacoes)
        if isinstance(rule, ApprehensionCosts):
            refs.update(sp.interpretacao for sp in rule.especies.values() if sp.interpretacao)
        if isinstance(rule, FixedFine) and rule.abatimento_caucao and rule.abatimento_caucao.interpretacao:
            refs.add(rule.abatimento_caucao.interpretacao)

    for inf in statute.infracoes.values():
        add(inf.multa)
        if inf.interpretacao:
            refs.add(inf.interpretacao)
    for pen in statute.penalidades.values():
        add(pen.calculo)
        if pen.efeito_circunstancias and pen.efeito_circunstancias.interpretacao:
            refs.add(pen.efeito_circunstancias.interpretacao)
    return refs


# --------------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------------


def compute_fines(case: Case, statute: Statute) -> FineResult | None:
    """The fines (and apprehension costs) proposed on the case, or ``None`` when it proposes none.

    Raises :class:`ComputeError` (with the YAML path) at the first fact that is missing or outside
    the law's tables.
    """
    return _compute(case, statute).value()


def fine_outcome(case: Case, statute: Statute) -> FineOutcome:
    """The fines of the case with every problem and defect found (computed once; the validator reports the
    problems, the documents print the result)."""
    return _compute(case, statute)


def path_key(path: str) -> PathKey:
    """``infracoes[0].quantidade`` → ``('infracoes', 0, 'quantidade')`` (the key of ``YamlDoc.line_of``)."""
    key: list[str | int] = []
    for part in path.split("."):
        m = re.fullmatch(r"([^\[]+)((?:\[\d+\])*)", part)
        if m is None:
            key.append(part)
            continue
        key.append(m.group(1))
        key.extend(int(x) for x in re.findall(r"\[(\d+)\]", m.group(2)))
    return tuple(key)


_path_key = path_key


# --------------------------------------------------------------------------------------------------
# apprehension costs by day (Cuiabá art. 11, §§ 2º–4º)


def costs_by_day(case: Case, statute: Statute, penalty_id: str) -> list[FineResult]:
    """The costs of ``penalty_id`` (a ``custas_apreensao`` formula) if the animals are retrieved on the 1st,
    2nd, … day of custody: one :class:`FineResult` per day of the law's table.

    Empty when no infraction of the case admits the penalty; :class:`ComputeError` (with the YAML path)
    when a fact the table needs is missing or outside it (species not in the law, no number of animals).
    """
    pen = statute.penalidades.get(penalty_id)
    if pen is None or not isinstance(pen.calculo, ApprehensionCosts):
        raise ValueError(f"penalty {penalty_id!r} has no custas_apreensao formula")
    if not any(penalty_id in rule.penalidades for inf in case.infracoes
               if (rule := statute.infracoes.get(inf.regra)) is not None):
        return []
    days = len(next(iter(pen.calculo.portes.values())).diarias)
    out: list[FineResult] = []
    for day in range(1, days + 1):
        variant = case.model_copy(update={
            "infracoes": [inf.model_copy(update={"dias_custodia": day}) for inf in case.infracoes],
            "penalidades": [PenalidadeProposta(tipo=penalty_id)],
            "circunstancias": Circunstancias(),
        })
        result = compute_fines(variant, statute)
        if result is not None:
            out.append(result)
    return out
