"""Stage 3a — compute fines: fiscal units → reais, with a calculation memo citing every step.

Money is :class:`~decimal.Decimal` throughout; the only rounding is the one the statute's rules
state (``arredondamento``), applied once to each fine in reais.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from . import ptbr
from .case import Case, PenalidadeProposta
from .errors import ComputeError
from .rules import Statute, UnitValue
from .validate import resolve

HUNDRED = Decimal(100)


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


@dataclass
class FineResult:
    """Every fine of a case, their total and the memo."""

    statute: Statute
    data_referencia: date
    valor_unidade: UnitValue
    itens: list[FineItem]
    escolhas: list[str] = field(default_factory=list)

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
        if len(self.itens) > 1:
            steps.append(Step("Total das multas", None,
                              f"{ptbr.format_decimal(self.total_unidades)} {self.sigla} = "
                              f"{ptbr.format_brl(self.total_reais)}"))
        return steps

    def to_dict(self) -> dict[str, Any]:
        return {
            "lei": self.statute.lei.label,
            "unidade": self.sigla,
            "data_referencia": self.data_referencia.isoformat(),
            "valor_unidade": str(self.valor_unidade.valor),
            "valor_unidade_fonte": self.valor_unidade.fonte,
            "valor_unidade_exemplo": self.exemplo,
            "itens": [
                {
                    "descricao": i.descricao,
                    "base_legal": i.base_legal,
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
        }


def _range_fine(case: Case, statute: Statute, prop: PenalidadeProposta, value: UnitValue) -> FineItem:
    """A fine set by the agent within a legal range (Timóteo Art. 16, II), with the statute's reductions."""
    pen = statute.penalidades[prop.tipo]
    sigla = statute.unidade_fiscal.sigla
    cite = statute.cite(pen.citacao)
    if prop.valor_base is None:
        raise ComputeError(f"multa sem valor-base em {sigla}.", path="penalidades",
                           hint="informe valor_base na penalidade multa.")
    units = prop.valor_base
    steps = [Step(f"Valor-base da multa fixado pelo agente (faixa legal de {ptbr.format_decimal(pen.multa_minima or 0)}"
                  f" a {ptbr.format_decimal(pen.multa_maxima or 0)} {sigla})", cite,
                  f"{ptbr.format_decimal(units)} {sigla}")]
    for red in statute.reducoes:
        if resolve(case, red.quando) is True:
            units = units * (HUNDRED - red.percentual) / HUNDRED
            steps.append(Step(f"Redução de {ptbr.format_decimal(red.percentual)}% ({red.descricao})",
                              statute.cite(red.citacao), f"{ptbr.format_decimal(units)} {sigla}"))
    raw = units * value.valor
    reais = statute.arredondamento.apply(raw)
    exemplo = " — VALOR DE EXEMPLO" if value.exemplo else ""
    steps.append(Step(f"Conversão: {ptbr.format_decimal(units)} {sigla} × R$ {ptbr.format_decimal(value.valor)} "
                      f"(valor da {sigla} em vigor desde {ptbr.format_date_short(value.desde)}; {value.fonte}"
                      f"{exemplo})", statute.cite(statute.unidade_fiscal.citacao),
                      f"R$ {ptbr.format_decimal(raw)}"))
    if reais != raw:
        modo = statute.arredondamento.modo.replace("_", " ")
        steps.append(Step(f"Arredondamento a {statute.arredondamento.casas} casas decimais ({modo})",
                          None, ptbr.format_brl(reais)))
    return FineItem(descricao=f"Multa — {pen.nome}", base_legal=cite, unidades=units, reais=reais, steps=steps)


def compute_fines(case: Case, statute: Statute) -> FineResult | None:
    """The fines proposed on the case, or ``None`` when it proposes none."""
    ref = case.infraction_date
    if ref is None:
        raise ComputeError("sem a data da infração (ou da lavratura) não há como saber o valor da unidade fiscal.",
                           path="lavratura.data", hint="informe lavratura.data ou data_infracao.")
    items: list[FineItem] = []
    value = statute.unidade_fiscal.value_on(ref)
    for prop in case.penalidades:
        pen = statute.penalidades.get(prop.tipo)
        if pen is not None and (pen.multa_minima is not None or pen.multa_maxima is not None):
            items.append(_range_fine(case, statute, prop, value))
    if not items:
        return None
    choices = [f"{i.id}: {i.escolha}" for i in statute.interpretacoes]
    return FineResult(statute=statute, data_referencia=ref, valor_unidade=value, itens=items, escolhas=choices)
