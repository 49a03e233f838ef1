"""One fine formula of a statute's rules, priced for one infraction of a case (:mod:`autos.compute.fines` puts the
formulas of a case together): what a formula produces (:class:`FineItem`, with the :class:`Step` of its calculation
memo citing every step), the calculator of a case (units, numbers and citations as the memo prints them, units to
reais with the statute's rounding), and each kind of formula — fixed (with repetition, prior warning and deposit
deduction), by quantity, doubling by period, by capacity, by gravity, apprehension costs, and a range whose base
value the agent proposes."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

from autos.base import ptbr
from autos.base.citation import Citation
from autos.base.dotted import resolve
from autos.base.schema import MAX_INT_DIGITS
from autos.errors import ComputeError
from autos.processo.case import Case, Infracao, PenalidadeProposta
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
from autos.rules.statute import Statute
from autos.rules.statute_base import UnitValue

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
        # costs (Cuiabá art. 38: "sem prejuízo das penalidades") are not a penalty, and the memo does not call them one
        what = "Despesas devidas pela" if penalty.natureza == "despesa" else "Penalidade pela"
        steps.append(Step(f"{what} infração ao {rule.citacao.short()}", calc.cite(penalty.citacao), label))
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
