"""Fines as data (``infracoes.<id>.multa`` and ``penalidades.<id>.calculo`` in a statute file): every formula a law
sets an amount with (fixed, by quantity, doubling by period, by capacity, by gravity, apprehension costs by size),
with their recidivism, repetition, prior-warning and deduction rules.

No ``from __future__ import annotations`` here: pydantic evaluates the annotations when a model is defined."""


from typing import Annotated, Literal

from pydantic import Field, model_validator

from autos.base.citation import Citation
from autos.base.schema import Amount, Count
from autos.rules.statute_base import _Strict

# --- fines as data -------------------------------------------------------------------------------
# A fine formula is attached to an infraction (``infracoes.<id>.multa``: the fine of that provision)
# or to a penalty (``penalidades.<id>.calculo``: the amount of that penalty for every infraction that
# lists it and has no formula of its own). The formula is computed when the case proposes the penalty
# that triggers it (``penalidade``; by default ``multa``). Amounts are in fiscal units.


class Recidivism(_Strict):
    """How recidivism changes the fine: ``fator`` 2 = "em dobro", 1 = "mesmo montante"."""

    fator: Amount = Field(ge=1)
    citacao: Citation


class FinalDecision(_Strict):
    """What makes an earlier processo's decision final (irrecorrível), from its timeline: an act of one of
    ``atos`` (the appeal decided, the payment, the inscription in dívida ativa; a decision that cancels the fine
    never counts), or the lapse of one of ``prazos`` (the appeal deadline: final the day after it ends)."""

    atos: list[str] = Field(min_length=1)  # act kinds of the law's processo rules
    prazos: list[str] = Field(default_factory=list)  # deadline ids of the law's rite


class RecidivismHistory(_Strict):
    """Reincidência from history (``autos validar`` with a register): which earlier processos of the same person
    under the same law make the autuado a repeat offender, and how the law uses it."""

    citacao: Citation  # the article that makes reincidência matter
    conta: Literal["mesma_infracao", "qualquer_infracao"]  # the same infraction, or any infraction of the law
    anos: Count = Field(gt=0, le=100)  # the window, in years
    contado_de: Literal["decisao_definitiva"]  # from the date the earlier decision became final
    ate: Literal["data_infracao"]  # … to the date of the new infraction
    definitiva: FinalDecision
    #: ``multa``: the infraction's ``reincidente`` changes the fine (em dobro); ``agravante``: reincidência is
    #: the aggravating circumstance ``agravante`` (an id of ``circunstancias.agravantes``)
    efeito: Literal["multa", "agravante"]
    agravante: str | None = None
    interpretacoes: list[str] = Field(default_factory=list)  # the recorded choices where the law is silent

    @model_validator(mode="after")
    def _effect(self) -> "RecidivismHistory":
        if (self.efeito == "agravante") != (self.agravante is not None):
            raise ValueError("'agravante' é obrigatório com efeito: agravante, e só com ele")
        return self


class Repetition(_Strict):
    """The same fine applied again every ``dias`` days until the obligation is met."""

    dias: Count = Field(gt=0)
    citacao: Citation  # the clause that repeats the fine (may be the same article)


class PriorWarning(_Strict):
    """The law requires a written warning before the fine (Ferraz Art. 3, § 1º, I)."""

    citacao: Citation
    penalidade: str = "advertencia"  # the penalty id of the warning


class Bracket(_Strict):
    """One line of a table by capacity: up to ``ate`` people (inclusive); ``ate`` absent = above the rest."""

    ate: Count | None = Field(default=None, gt=0)
    unidades: Amount = Field(ge=0)
    citacao: Citation


def _check_brackets(brackets: list[Bracket]) -> None:
    prev = 0
    for i, b in enumerate(brackets):
        if b.ate is None:
            if i != len(brackets) - 1:
                raise ValueError("só a última faixa pode ficar sem 'ate' (acima da faixa anterior)")
        elif b.ate <= prev:
            raise ValueError("as faixas devem estar em ordem crescente de 'ate'")
        else:
            prev = b.ate


class DepositDeduction(_Strict):
    """A guarantee deposit deducted from the fine (Ferraz Art. 70), its amount by capacity (Art. 62)."""

    citacao: Citation  # the article that orders the deduction
    faixas: list[Bracket] = Field(min_length=1)  # the deposit, in fiscal units, by capacity
    interpretacao: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> "DepositDeduction":
        _check_brackets(self.faixas)
        return self


class _FineBase(_Strict):
    penalidade: str | None = None  # proposed penalty that triggers it; None = 'multa' (or the owning penalty)
    citacao: Citation  # where the law sets the amount
    interpretacoes: list[str] = Field(default_factory=list)  # recorded choices it relies on (shown in the memo)
    reincidencia: Recidivism | None = None


class FixedFine(_FineBase):
    """``unidades`` fiscal units (e.g. Ferraz Art. 18, § 3º: 5 UFM)."""

    tipo: Literal["fixa"]
    unidades: Amount = Field(gt=0)
    repeticao: Repetition | None = None
    advertencia_previa: PriorWarning | None = None
    abatimento_caucao: DepositDeduction | None = None


class QuantityFine(_FineBase):
    """``unidades`` for each ``por`` of a measured quantity (e.g. 5 UFM for each 100 m²)."""

    tipo: Literal["por_quantidade"]
    unidades: Amount = Field(gt=0)
    por: Amount = Field(gt=0)
    medida: str  # what the quantity measures, e.g. "m²", "metros lineares", "unidades"
    medida_singular: str | None = None  # "metro linear" (for "1 UFM por metro linear")
    #: a quantity that is not a whole multiple of ``por``: each started block counts as a whole one,
    #: the fine is proportional, or only whole numbers are accepted (things counted "por unidade")
    fracao: Literal["unidade_inteira", "proporcional", "somente_inteiros"]
    repeticao: Repetition | None = None

    @model_validator(mode="after")
    def _choice(self) -> "QuantityFine":
        if self.fracao != "somente_inteiros" and not self.interpretacoes:
            raise ValueError("a regra de fração precisa citar a escolha feita em 'interpretacoes'")
        return self


class PeriodicDoublingFine(_FineBase):
    """``unidades`` in the first period, doubled every ``dias`` days (Ferraz Arts. 9, 43 and 44)."""

    tipo: Literal["dobra_periodica"]
    unidades: Amount = Field(gt=0)
    dias: Count = Field(gt=0)


class CapacityFine(_FineBase):
    """Fine by capacity bracket of the place (Ferraz Art. 62, § 1º)."""

    tipo: Literal["por_capacidade"]
    faixas: list[Bracket] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> "CapacityFine":
        _check_brackets(self.faixas)
        return self


class GravityLevel(_Strict):
    descricao: str
    unidades: Amount = Field(gt=0)
    citacao: Citation


class GravityFine(_FineBase):
    """Fine by the gravity the agent assigns (Cuiabá Art. 36: leve, grave, gravíssima)."""

    tipo: Literal["por_gravidade"]
    niveis: dict[str, GravityLevel] = Field(min_length=1)


class SizeCosts(_Strict):
    """Apprehension costs of one animal size (Cuiabá Art. 11, § 3º)."""

    nome: str  # "pequeno porte"
    transporte: Amount = Field(ge=0)
    multa: Amount = Field(ge=0)
    total: Amount = Field(ge=0)  # as printed in the law; must equal transporte + multa
    diarias: list[Amount] = Field(min_length=1)  # custody fee of the 1st, 2nd, … day

    @model_validator(mode="after")
    def _total(self) -> "SizeCosts":
        if self.transporte + self.multa != self.total:
            raise ValueError(f"{self.nome}: total {self.total} ≠ transporte {self.transporte} + multa {self.multa}")
        return self


class SpeciesSize(_Strict):
    porte: str
    citacao: Citation
    interpretacao: str | None = None  # a recorded choice behind this mapping


class ApprehensionCosts(_FineBase):
    """Transport, fine and daily custody fees of an apprehended animal, by size (Cuiabá Art. 11, §§ 2º–4º)."""

    tipo: Literal["custas_apreensao"]
    citacao_diarias: Citation
    #: the deadline (of the law's prazos file) whose counted days are the table's custody days: the nth diária is
    #: the nth day of that term, counted as the term counts (business days, the start day excluded…), and a
    #: restitution before its first day pays the 1st; in a processo, the restitution's date checks
    #: ``infracoes[].dias_custodia`` (checks/custody.py)
    prazo_diarias: str | None = Field(default=None, description="id do prazo (arquivo de prazos da lei) cujos dias "
                                      "são os dias da tabela de diárias; num processo, a data da restituição confere "
                                      "infracoes[].dias_custodia")
    portes: dict[str, SizeCosts] = Field(min_length=1)
    especies: dict[str, SpeciesSize] = Field(min_length=1)  # species → size (Art. 11, § 4º)

    @model_validator(mode="after")
    def _sizes(self) -> "ApprehensionCosts":
        for name, sp in self.especies.items():
            if sp.porte not in self.portes:
                raise ValueError(f"a espécie '{name}' aponta para o porte desconhecido '{sp.porte}'")
        days = {len(p.diarias) for p in self.portes.values()}
        if len(days) != 1:
            raise ValueError("todos os portes devem ter o mesmo número de diárias")
        return self


FineRule = Annotated[
    FixedFine | QuantityFine | PeriodicDoublingFine | CapacityFine | GravityFine | ApprehensionCosts,
    Field(discriminator="tipo"),
]
