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
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from autos.base import ptbr
from autos.base.citation import Citation
from autos.base.dotted import resolve
from autos.base.schema import MAX_INT_DIGITS
from autos.base.yamlio import PathKey
from autos.compute.fine_labels import total_label
from autos.errors import ComputeError
from autos.processo.case import Case, Circunstancias, Infracao, PenalidadeProposta
from autos.rules.fine_rules import (
    ApprehensionCosts,
    Bracket,
    CapacityFine,
    FineRule,
    FixedFine,
    GravityFine,
    PeriodicDoublingFine,
    QuantityFine,
)
from autos.rules.infractions import Infraction
from autos.rules.statute import Statute, formula_for
from autos.rules.statute_base import UnitValue

__all__ = ["FineItem", "FineOutcome", "FineResult", "Step", "compute_fines", "costs_by_day", "fine_outcome", "path_key"]

HUNDRED = Decimal(100)
#: no fine reaches this many fiscal units (the bound of any amount typed in a case, schema.MAX_INT_DIGITS)
AMOUNT_LIMIT = Decimal(10) ** MAX_INT_DIGITS
TWO = Decimal(2)


@dataclass(frozen=True)
class Step:
    """One line of the memória de cálculo."""

    descricao: str
    base_legal: str | None
    resultado: str


@dataclass
class FineItem:
    """One fine: how many fiscal units and how many reais."""

    descricao: str
    base_legal: str
    unidades: Decimal
    reais: Decimal
    steps: list[Step] = field(default_factory=list)
    infracao: str | None = None  # rule id of the infraction (None for a range fine proposed on its own)
    penalidade: str | None = None  # penalty id that triggered it
    #: a reduction took this range fine below the law's floor: (floor, YAML path of the proposal, why)
    abaixo_do_minimo: tuple[Decimal, str, str] | None = None


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


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _blocks(n: Decimal) -> str:
    """The noun agreed with a number of blocks (``1 bloco``, ``4 blocos``)."""
    return "bloco" if n == 1 else "blocos"

def _ordinal(n: int) -> str:
    return f"{n}º"


class _Calc:
    """The computation for one case: shared formatting, fact checks and the conversion to reais."""

    def __init__(self, case: Case, statute: Statute, value: UnitValue) -> None:
        self.case = case
        self.statute = statute
        self.value = value
        self.sigla = statute.unidade_fiscal.sigla
        self.feminine = statute.unidade_fiscal.feminino
        self.applied: list[str] = []  # interpretation ids the computation relied on

    # --- formatting ---------------------------------------------------------------------------
    def u(self, units: Decimal) -> str:
        """``200 (duzentas) UFM``."""
        return ptbr.units_full(units, self.sigla, feminine=self.feminine)

    def n(self, value: Decimal | int) -> str:
        return ptbr.format_decimal(value)

    def cite(self, citation: Citation) -> str:
        return self.statute.cite(citation)

    def use(self, ids: list[str] | str | None) -> None:
        for i in [ids] if isinstance(ids, str) else ids or []:
            if i not in self.applied:
                self.applied.append(i)

    def conversion(self, units: Decimal, steps: list[Step], citation: Citation) -> Decimal:
        """Append the conversion (and rounding) steps, citing ``citation`` (the article that sets the amount
        converted: Ferraz art. 68 for a noise fine, Cuiabá art. 11, § 3º for the costs); return the amount in reais."""
        value = self.value
        raw = units * value.valor
        reais = self.statute.arredondamento.apply(raw)
        if reais > ptbr.MAX_MONEY:
            raise ValueError(f"amount above {ptbr.MAX_MONEY}: {raw}")
        exemplo = " — VALOR DE EXEMPLO" if value.exemplo else ""
        text = (f"Conversão: {self.n(units)} {self.sigla} × R$ {self.n(value.valor)} (valor da {self.sigla} em "
                f"vigor desde {ptbr.format_date_short(value.desde)}; {value.fonte}{exemplo})")
        cite = self.cite(citation)
        if reais == raw:
            steps.append(Step(text, cite, ptbr.money_full(reais)))
        else:
            steps.append(Step(text, cite, f"R$ {self.n(raw)}"))
            rounding = self.statute.arredondamento
            modo = rounding.modo.replace("_", " ")
            steps.append(Step(f"Arredondamento a {rounding.casas} casas decimais ({modo})", None,
                              ptbr.money_full(reais)))
        return reais


def _positive_int(value: int | None, path: str, what: str, hint: str) -> int:
    if value is None:
        raise ComputeError(f"falta {what}.", path=path, hint=hint)
    if value <= 0:
        raise ComputeError(f"{what} deve ser maior que zero (informado: {value}).", path=path, hint=hint)
    return value


def _bracket(brackets: list[Bracket], capacity: int, path: str, what: str) -> Bracket:
    for b in brackets:
        if b.ate is None or capacity <= b.ate:
            return b
    top = brackets[-1].ate
    raise ComputeError(f"capacidade de {capacity} pessoas acima da maior faixa da tabela de {what} "
                       f"(até {top} pessoas); a lei não fixa valor para ela.", path=path,
                       hint="confira a capacidade informada.")


def _bracket_label(brackets: list[Bracket], chosen: Bracket) -> str:
    idx = brackets.index(chosen)
    low = (brackets[idx - 1].ate or 0) + 1 if idx > 0 else 1
    if chosen.ate is None:
        return f"acima de {ptbr.format_decimal(low - 1)} pessoas"
    if idx == 0:
        return f"até {ptbr.format_decimal(chosen.ate)} pessoas"
    return f"de {ptbr.format_decimal(low)} a {ptbr.format_decimal(chosen.ate)} pessoas"


def _norm_key(text: str) -> str:
    """``"Aves domésticas"`` → ``aves_domesticas`` (for matching species names)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "_", plain.casefold()).strip("_")


# --- one formula ----------------------------------------------------------------------------------


def _periods(calc: _Calc, inf: Infracao, p: str, formula: FineRule, units: Decimal, steps: list[Step]) -> Decimal:
    """Multiplier for the 30-day repetitions (1 for a repeated fine; 2^(n-1) for a doubling one)."""
    path = f"{p}.periodo"
    if isinstance(formula, PeriodicDoublingFine):
        n = _positive_int(inf.periodo, path, "o período de 30 dias cobrado por este auto",
                          f"informe {path}: 1 para a primeira multa após o prazo da notificação, 2 para a "
                          f"seguinte ({formula.dias} dias depois), e assim por diante.")
        calc.use(formula.interpretacoes)
        # 2 ** 60 units already pass any amount a case may hold: stop before Decimal overflows
        if n - 1 > 60 or formula.unidades * TWO ** (n - 1) >= AMOUNT_LIMIT:
            raise ComputeError(f"no {_ordinal(n)} período a multa dobrada passaria de {calc.n(AMOUNT_LIMIT)} "
                               f"{calc.statute.unidade_fiscal.sigla}; confira o período informado.", path=path,
                               hint=f"{path} é o número do período de {formula.dias} dias cobrado por este auto "
                               "(1, 2, 3…), não um valor nem uma data.")
        factor = TWO ** (n - 1)
        if n == 1:
            steps.append(Step(f"1º período de {formula.dias} dias sem atendimento: valor inicial, sem dobra",
                              calc.cite(formula.citacao), calc.u(formula.unidades)))
        else:
            steps.append(Step(f"{_ordinal(n)} período de {formula.dias} dias sem atendimento: multa dobrada "
                              f"{n - 1} {'vez' if n == 2 else 'vezes'} ({calc.n(formula.unidades)} × {calc.n(factor)})",
                              calc.cite(formula.citacao), calc.u(formula.unidades * factor)))
        return factor
    repetition = formula.repeticao if isinstance(formula, FixedFine | QuantityFine) else None
    if inf.periodo is None:
        return Decimal(1)
    if inf.periodo <= 0:
        raise ComputeError(f"o período deve ser 1 ou maior (informado: {inf.periodo}).", path=path,
                           hint="1 = primeira multa após o prazo da notificação.")
    if repetition is None:
        if inf.periodo > 1:
            raise ComputeError(f"a multa de {calc.cite(formula.citacao)} não se repete por períodos; "
                               f"'{_ordinal(inf.periodo)} período' não se aplica.", path=path,
                               hint="retire o campo periodo, ou confira a regra da infração.")
        return Decimal(1)
    if inf.periodo == 1:
        steps.append(Step(f"1º período de {repetition.dias} dias: primeira aplicação da multa",
                          calc.cite(formula.citacao), calc.u(units)))
    else:
        steps.append(Step(f"{_ordinal(inf.periodo)} período de {repetition.dias} dias sem atendimento: a multa "
                          "é aplicada novamente, no mesmo valor", calc.cite(repetition.citacao),
                          calc.u(units)))
    return Decimal(1)


def _quantity_units(calc: _Calc, inf: Infracao, p: str, f: QuantityFine, steps: list[Step]) -> Decimal:
    path = f"{p}.quantidade"
    q = inf.quantidade
    if q is None:
        raise ComputeError(f"falta a quantidade ({f.medida}) para calcular a multa de {calc.cite(f.citacao)}.",
                           path=path, hint=f"informe {path} em {f.medida}.")
    if q <= 0:
        raise ComputeError(f"a quantidade deve ser maior que zero (informado: {calc.n(q)} {f.medida}).",
                           path=path, hint=f"informe {path} em {f.medida}, maior que zero.")
    rate = f"{calc.n(f.unidades)} {calc.sigla} para cada {calc.n(f.por)} {f.medida}" if f.por != 1 else \
        f"{calc.n(f.unidades)} {calc.sigla} por {f.medida_singular or f.medida}"
    steps.append(Step(f"Quantidade constatada: {calc.n(q)} {f.medida}; multa de {rate}",
                      calc.cite(f.citacao), f"{calc.n(q)} {f.medida}"))
    whole, rest = divmod(q, f.por)
    if f.fracao == "somente_inteiros":
        if rest != 0 or q != q.to_integral_value():
            raise ComputeError(f"a quantidade deve ser um número inteiro de {f.medida}"
                               f"{'' if f.por == 1 else f' múltiplo de {calc.n(f.por)}'} (informado: {calc.n(q)}).",
                               path=path, hint="a lei conta por unidade: informe um número inteiro.")
        units = whole * f.unidades
        steps.append(Step(f"{calc.n(whole)} × {calc.n(f.unidades)} {calc.sigla}", calc.cite(f.citacao),
                          calc.u(units)))
        return units
    calc.use(f.interpretacoes)
    if f.fracao == "unidade_inteira":
        blocks = whole + (1 if rest else 0)
        if rest:
            complete = "bloco completo" if whole == 1 else "blocos completos"
            detail = (f"{calc.n(q)} {f.medida} = {calc.n(whole)} {complete} de {calc.n(f.por)} {f.medida} "
                      f"e fração de {calc.n(rest)} {f.medida}, que conta como bloco inteiro: {calc.n(blocks)} "
                      f"{_blocks(blocks)} × {calc.n(f.unidades)} {calc.sigla}")
        else:
            detail = (f"{calc.n(q)} {f.medida} = {calc.n(blocks)} {_blocks(blocks)} de {calc.n(f.por)} {f.medida} × "
                      f"{calc.n(f.unidades)} {calc.sigla}")
        units = blocks * f.unidades
        steps.append(Step(detail, calc.cite(f.citacao), calc.u(units)))
        return units
    # proporcional
    units = q * f.unidades / f.por
    if units * f.por != q * f.unidades:
        raise ComputeError(f"a multa proporcional de {calc.n(q)} {f.medida} não é um número exato de "
                           f"{calc.sigla}.", path=path, hint="informe a quantidade com menos casas decimais.")
    steps.append(Step(f"{calc.n(q)} {f.medida} × {calc.n(f.unidades)} {calc.sigla}"
                      f"{'' if f.por == 1 else f' ÷ {calc.n(f.por)}'} (proporcional, sem arredondar a medida)",
                      calc.cite(f.citacao), calc.u(units)))
    return units


def _costs_units(calc: _Calc, inf: Infracao, p: str, f: ApprehensionCosts, steps: list[Step]) -> Decimal:
    """Cuiabá art. 11, § 3º: (transporte + multa + diárias of each day) per animal, × animals."""
    path = f"{p}.especie"
    if inf.especie is None or not inf.especie.strip():
        raise ComputeError("falta a espécie do animal apreendido, que define o porte na tabela de "
                           f"{calc.cite(f.citacao)}.", path=path,
                           hint=f"informe {path}: uma de {', '.join(f.especies)}.")
    key = _norm_key(inf.especie)
    species = f.especies.get(key)
    if species is None:
        raise ComputeError(f"a espécie '{inf.especie}' não está prevista no art. 11, § 4º, que define o porte "
                           "dos animais; as despesas não podem ser calculadas para ela.", path=path,
                           hint=f"use uma das espécies previstas: {', '.join(f.especies)}.")
    size = f.portes[species.porte]
    animals_path = f"{p}.quantidade"
    if inf.quantidade is None:
        raise ComputeError("falta o número de animais apreendidos (as despesas são por animal).",
                           path=animals_path, hint=f"informe {animals_path}, por exemplo 1.")
    if inf.quantidade <= 0 or inf.quantidade != inf.quantidade.to_integral_value():
        raise ComputeError(f"o número de animais deve ser um inteiro maior que zero (informado: "
                           f"{calc.n(inf.quantidade)}).", path=animals_path, hint="informe 1, 2, 3…")
    animals = inf.quantidade.to_integral_value()
    days_path = f"{p}.dias_custodia"
    max_days = len(size.diarias)
    days = _positive_int(inf.dias_custodia, days_path, "o número de dias de guarda (diárias)",
                         f"informe {days_path}, de 1 a {max_days}.")
    if days > max_days:
        raise ComputeError(f"a tabela de diárias de {calc.cite(f.citacao_diarias)} vai só até o {max_days}º dia; "
                           f"{days} dias de guarda não têm valor fixado na lei e não podem ser cobrados por "
                           "estimativa.", path=days_path,
                           hint=f"o animal não retirado em {max_days} dias segue o art. 11, § 5º (outras destinações); "
                           f"confira {days_path}.")
    calc.use(f.interpretacoes)
    calc.use(species.interpretacao)
    steps.append(Step(f"Espécie {inf.especie}: animal de {size.nome}", calc.cite(species.citacao), size.nome))
    steps.append(Step("Transporte", calc.cite(f.citacao), calc.u(size.transporte)))
    # the law's own word for this part of the table (art. 11, §§ 2º and 3º); it comes on top of the fine of art. 36
    # "sem prejuízo das penalidades" (art. 38), as the memo's heading of these costs cites
    steps.append(Step('Parcela "multa" da tabela do art. 11, § 3º, devida com as despesas, sem prejuízo da multa '
                      'do art. 36 (art. 38)', calc.cite(f.citacao), calc.u(size.multa)))
    steps.append(Step('Total transporte + parcela "multa" da tabela', calc.cite(f.citacao), calc.u(size.total)))
    fees = size.diarias[:days]
    fee_total = sum(fees, Decimal(0))
    parts = " + ".join(f"{i + 1}º dia {calc.n(v)} {calc.sigla}" for i, v in enumerate(fees))
    steps.append(Step(f"Diárias de guarda ({ptbr.count_noun(days, 'dia', 'dias')}): {parts}",
                      calc.cite(f.citacao_diarias), calc.u(fee_total)))
    per_animal = size.total + fee_total
    steps.append(Step("Por animal: total transporte + multa + diárias", calc.cite(f.citacao), calc.u(per_animal)))
    units = per_animal * animals
    if animals != 1:
        steps.append(Step(f"{calc.n(animals)} animais × {calc.n(per_animal)} {calc.sigla}", calc.cite(f.citacao),
                          calc.u(units)))
    return units


def _base_units(calc: _Calc, inf: Infracao, p: str, formula: FineRule, steps: list[Step]) -> Decimal:
    if isinstance(formula, FixedFine):
        steps.append(Step("Multa fixada na lei", calc.cite(formula.citacao), calc.u(formula.unidades)))
        return formula.unidades
    if isinstance(formula, QuantityFine):
        return _quantity_units(calc, inf, p, formula, steps)
    if isinstance(formula, PeriodicDoublingFine):
        calc.use(formula.interpretacoes)
        steps.append(Step("Multa fixada na lei (valor do 1º período)", calc.cite(formula.citacao),
                          calc.u(formula.unidades)))
        return formula.unidades
    if isinstance(formula, CapacityFine):
        path = f"{p}.capacidade"
        cap = _positive_int(inf.capacidade, path, "a capacidade do local (número de pessoas)",
                            f"informe {path}, por exemplo 300.")
        chosen = _bracket(formula.faixas, cap, path, "multas")
        calc.use(formula.interpretacoes)
        band = _bracket_label(formula.faixas, chosen)
        steps.append(Step(f"Capacidade do local: {calc.n(cap)} pessoas (faixa {band})",
                          calc.cite(chosen.citacao), calc.u(chosen.unidades)))
        return chosen.unidades
    if isinstance(formula, GravityFine):
        path = f"{p}.gravidade"
        levels = ", ".join(formula.niveis)
        if inf.gravidade is None or not inf.gravidade.strip():
            raise ComputeError(f"falta a natureza (gravidade) da infração, que define a multa de "
                               f"{calc.cite(formula.citacao)}.", path=path, hint=f"informe {path}: {levels}.")
        level = formula.niveis.get(_norm_key(inf.gravidade))
        if level is None:
            raise ComputeError(f"gravidade '{inf.gravidade}' não prevista em {calc.cite(formula.citacao)}.",
                               path=path, hint=f"use uma de: {levels}.")
        calc.use(formula.interpretacoes)
        steps.append(Step(f"Infração de natureza {level.descricao}", calc.cite(level.citacao), calc.u(level.unidades)))
        return level.unidades
    return _costs_units(calc, inf, p, formula, steps)


def _formula_fine(calc: _Calc, i: int, inf: Infracao, rule: Infraction, pen_id: str, formula: FineRule,
                  proposed: set[str]) -> FineItem | None:
    """The fine of one infraction for one proposed penalty; None when the law gives a warning instead."""
    p = f"infracoes[{i}]"
    statute = calc.statute
    steps: list[Step] = []
    penalty = statute.penalidades[pen_id]
    label = penalty.nome[:1].upper() + penalty.nome[1:]
    if formula is penalty.calculo:  # a general rule of the law: say which penalty provision applies
        steps.append(Step(f"Penalidade pela infração ao {rule.citacao.short()}", calc.cite(penalty.citacao), label))
    if isinstance(formula, FixedFine) and formula.advertencia_previa is not None:
        warning = formula.advertencia_previa
        path = f"{p}.advertencia_previa"
        if inf.advertencia_previa is None:
            raise ComputeError(f"a multa de {calc.cite(formula.citacao)} só cabe depois de advertência escrita "
                               f"({calc.cite(warning.citacao)}); o caso não diz se ela já foi dada.", path=path,
                               hint=f"informe {path}: true (já advertido e a conduta persiste) ou false.")
        if inf.advertencia_previa is False:
            if warning.penalidade in proposed:
                return None  # first finding: the written warning is the penalty (no fine)
            raise ComputeError(f"sem advertência escrita anterior, a penalidade cabível é a advertência "
                               f"({calc.cite(warning.citacao)}), não a multa.", path=path,
                               hint=f"proponha a penalidade '{warning.penalidade}' em vez da multa, ou informe "
                               f"{path}: true se já houve advertência e a conduta persiste.")
        steps.append(Step("Advertência escrita anterior; a conduta persiste", calc.cite(warning.citacao),
                          "multa cabível"))
    if rule.interpretacao:
        calc.use(rule.interpretacao)
    units = _base_units(calc, inf, p, formula, steps)
    units = units * _periods(calc, inf, p, formula, units, steps)
    rec = formula.reincidencia
    if rec is not None:
        path = f"{p}.reincidente"
        if inf.reincidente is None:
            raise ComputeError(f"o caso não diz se há reincidência, e {calc.cite(rec.citacao)} muda a multa na "
                               "reincidência.", path=path, hint=f"informe {path}: true ou false.")
        if inf.reincidente:
            units = units * rec.fator
            what = "multa aplicada em dobro" if rec.fator == TWO else (
                "mesmo montante, sem agravamento" if rec.fator == 1 else f"multa × {calc.n(rec.fator)}")
            steps.append(Step(f"Reincidência: {what}{_prior(inf)}{_override(inf)}", calc.cite(rec.citacao),
                              calc.u(units)))
        elif inf.reincidente_motivo:
            steps.append(Step(f"Reincidência afastada{_override(inf)}", calc.cite(rec.citacao), calc.u(units)))
    elif inf.reincidente:
        steps.append(Step(f"Reincidência informada: o dispositivo não prevê agravamento da multa{_override(inf)}",
                          calc.cite(formula.citacao), calc.u(units)))
    if isinstance(formula, FixedFine) and formula.abatimento_caucao is not None:
        units = _deduction(calc, inf, p, formula, units, steps)
    reais = calc.conversion(units, steps, formula.citacao)
    return FineItem(descricao=f"{label} — {rule.descricao}", base_legal=calc.cite(formula.citacao),
                    unidades=units, reais=reais, steps=steps, infracao=inf.regra, penalidade=pen_id)


def _prior(inf: Infracao) -> str:
    """The earlier infraction a repeat rests on, as the memo prints it: " — antecedente: Auto nº 112/2026, de
    18/04/2026, penalidade definitiva em 20/05/2026; multa paga" (a dash: ``como`` is printed as typed)."""
    a = inf.antecedente
    if a is None:
        return ""
    of = f", de {ptbr.format_date_short(a.data)}" if a.data else ""
    proc = f", processo {a.processo}" if a.processo else ""
    return (f" — antecedente: Auto nº {a.auto}{of}{proc}, penalidade definitiva em "
            f"{ptbr.format_date_short(a.definitiva_em)}; {a.como}")


def _letters(kind: str, letters: list[str]) -> str:
    """``agravante da alínea g`` / ``atenuantes das alíneas a, b``; empty for none."""
    if not letters:
        return ""
    return f"{kind} da alínea {letters[0]}" if len(letters) == 1 else f"{kind}s das alíneas {', '.join(letters)}"


def _override(inf: Infracao) -> str:
    """The reason a typed ``reincidente`` departs from the register's history, as the memo prints it."""
    motivo = inf.reincidente_motivo
    # a dash, not a parenthesis: the reason is printed as typed and may hold parentheses of its own
    return f" — motivo: {motivo}" if motivo else ""


def _deduction(calc: _Calc, inf: Infracao, p: str, formula: FixedFine, units: Decimal, steps: list[Step]) -> Decimal:
    d = formula.abatimento_caucao
    assert d is not None
    path = f"{p}.caucao_depositada"
    if inf.caucao_depositada is None:
        raise ComputeError(f"{calc.cite(d.citacao)} manda abater da multa o depósito caução; o caso não diz se "
                           "houve depósito.", path=path, hint=f"informe {path}: true ou false.")
    if not inf.caucao_depositada:
        steps.append(Step("Sem depósito caução a abater", calc.cite(d.citacao), calc.u(units)))
        return units
    cap_path = f"{p}.capacidade"
    cap = _positive_int(inf.capacidade, cap_path, "a capacidade de lotação do evento (define o valor da caução)",
                        f"informe {cap_path}, por exemplo 800.")
    chosen = _bracket(d.faixas, cap, cap_path, "caução")
    calc.use(d.interpretacao)
    steps.append(Step(f"Depósito caução do evento com capacidade de {calc.n(cap)} pessoas "
                      f"(faixa {_bracket_label(d.faixas, chosen)})", calc.cite(chosen.citacao),
                      calc.u(chosen.unidades)))
    net = units - chosen.unidades
    if net < 0:
        net = Decimal(0)
    steps.append(Step(f"Abatimento do depósito caução: {calc.n(units)} − {calc.n(chosen.unidades)} {calc.sigla}",
                      calc.cite(d.citacao), calc.u(net)))
    return net


def _range_fine(calc: _Calc, j: int, prop: PenalidadeProposta) -> FineItem:
    """A fine set by the agent within a legal range (Timóteo Art. 16, II), with the statute's reductions."""
    statute, case = calc.statute, calc.case
    pen = statute.penalidades[prop.tipo]
    assert pen.multa_minima is not None and pen.multa_maxima is not None
    sigla = calc.sigla
    cite = calc.cite(pen.citacao)
    path = f"penalidades[{j}].valor_base"
    if prop.valor_base is None:
        raise ComputeError(f"multa sem valor-base em {sigla}.", path=f"penalidades[{j}]",
                           hint=f"informe penalidades[{j}].valor_base.")
    if not pen.multa_minima <= prop.valor_base <= pen.multa_maxima:
        raise ComputeError(f"valor-base de {calc.n(prop.valor_base)} {sigla} fora da faixa legal de "
                           f"{calc.n(pen.multa_minima)} a {calc.n(pen.multa_maxima)} {sigla}.", path=path,
                           hint="ajuste o valor-base para dentro da faixa.")
    units = prop.valor_base
    steps = [Step(f"Valor-base da multa fixado pelo agente (faixa legal de {calc.n(pen.multa_minima)} a "
                  f"{calc.n(pen.multa_maxima)} {sigla})", cite, calc.u(units))]
    effect = pen.efeito_circunstancias
    given = case.circunstancias
    if effect is not None and (given.atenuantes or given.agravantes):
        calc.use(effect.interpretacao)
        listed = "; ".join(part for part in (
            _letters("atenuante", given.atenuantes), _letters("agravante", given.agravantes)) if part)
        if effect.modo == "nenhum":
            steps.append(Step(f"Circunstâncias ({listed}): ponderadas na fixação do valor-base, dentro da faixa "
                              "legal; a lei não lhes atribui percentual próprio", calc.cite(effect.citacao),
                              calc.u(units)))
        else:
            assert effect.atenuante is not None and effect.agravante is not None
            pct = HUNDRED - effect.atenuante * len(given.atenuantes) + effect.agravante * len(given.agravantes)
            units = units * pct / HUNDRED
            steps.append(Step(f"Circunstâncias ({listed}): −{calc.n(effect.atenuante)}% por atenuante, "
                              f"+{calc.n(effect.agravante)}% por agravante → {calc.n(pct)}% do valor-base",
                              calc.cite(effect.citacao), calc.u(units)))
            bounded = min(max(units, pen.multa_minima), pen.multa_maxima)
            if bounded != units:
                units = bounded
                steps.append(Step("Valor mantido dentro da faixa legal", cite, calc.u(units)))
    history = statute.reincidencia
    for inf in case.infracoes:  # a reincidência weighed by the agent (agravante), typed against the history
        if history is not None and history.efeito == "agravante" and inf.reincidente_motivo:
            what = "reconhecida" if history.agravante in given.agravantes else "afastada"
            rule = statute.infracoes.get(inf.regra)
            of = f" na infração ao {rule.citacao.short()}" if rule is not None and len(case.infracoes) > 1 else ""
            steps.append(Step(f"Reincidência {what} pelo agente{of}{_override(inf)}",
                              calc.cite(history.citacao), calc.u(units)))
    below: tuple[Decimal, str, str] | None = None
    for red in statute.reducoes:
        if resolve(case, red.quando) is True:
            units = units * (HUNDRED - red.percentual) / HUNDRED
            what = ptbr.unnest_parentheses(red.descricao)  # printed in parentheses: none of its own
            steps.append(Step(f"Redução de {calc.n(red.percentual)}% ({what})", calc.cite(red.citacao),
                              calc.u(units)))
            if units < pen.multa_minima and below is None:
                # the law does not say the floor binds the reduced fine: the choice is recorded and said
                why = (f"o valor reduzido fica abaixo do mínimo de {calc.n(pen.multa_minima)} {sigla} do "
                       f"{pen.citacao.short()}, porque a redução do {red.citacao.short()} incide sobre o valor-base "
                       "fixado na faixa legal")
                if red.abaixo_do_minimo:
                    calc.use(red.abaixo_do_minimo)
                    why += f" (escolha {red.abaixo_do_minimo} das regras)"
                steps.append(Step(_cap(why), calc.cite(red.citacao), calc.u(units)))
                below = (pen.multa_minima, path, why)
    reais = calc.conversion(units, steps, pen.citacao)
    return FineItem(descricao=f"Multa — {pen.nome}", base_legal=cite, unidades=units, reais=reais, steps=steps,
                    penalidade=prop.tipo, abaixo_do_minimo=below)


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
