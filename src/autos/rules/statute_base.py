"""The building blocks of a statute's rules (:mod:`autos.rules.statute`): the strict model every part of a statute file
is read into (unknown keys refused, frozen), the law's identity, its fiscal unit with dated values, the rounding of
amounts, and the condition on a field of the case that a clause or a circumstance holds under.

No ``from __future__ import annotations`` here: pydantic evaluates the annotations when a model is defined."""

from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autos.base.citation import Citation
from autos.base.schema import Amount, Count
from autos.errors import ComputeError

Severity = Literal["erro", "aviso"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class StatuteIdentity(_Strict):
    municipio: str
    uf: str = Field(pattern=r"^[A-Z]{2}$")
    ibge: str = Field(pattern=r"^\d{7}$")
    tipo: str = "Lei"
    numero: str
    data: date
    ementa: str
    urn: str = Field(pattern=r"^urn:lex:br[;:]")
    orgao: str
    fonte_texto: str | None = None

    @property
    def year(self) -> int:
        return self.data.year

    @property
    def label(self) -> str:
        """``Lei nº 3.844/2022``."""
        return f"{self.tipo} nº {self.numero}/{self.data.year}"


class UnitValue(_Strict):
    """The R$ value of one fiscal unit from ``desde`` (inclusive) to ``ate`` (inclusive, optional)."""

    desde: date
    ate: date | None = None
    valor: Amount = Field(gt=0)
    fonte: str
    exemplo: bool = False


class FiscalUnit(_Strict):
    sigla: str
    nome: str
    nome_plural: str
    feminino: bool = True
    citacao: Citation
    valores: list[UnitValue] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> "FiscalUnit":
        prev: UnitValue | None = None
        for v in self.valores:
            if v.ate is not None and v.ate < v.desde:
                raise ValueError(f"valor com vigência de {v.desde} termina antes de começar ({v.ate})")
            if prev is not None:
                if v.desde <= prev.desde:
                    raise ValueError("os valores devem estar em ordem crescente de 'desde'")
                if prev.ate is not None and v.desde <= prev.ate:
                    raise ValueError(f"vigências sobrepostas: {prev.desde}–{prev.ate} e {v.desde}")
            prev = v
        return self

    def value_on(self, day: date) -> UnitValue:
        """The value in force on ``day``; an error when none is."""
        found: UnitValue | None = None
        for v in self.valores:
            if v.desde <= day and (v.ate is None or day <= v.ate):
                found = v
        if found is None:
            raise ComputeError(
                f"não há valor da {self.sigla} em vigor em {day.strftime('%d/%m/%Y')}.",
                hint=f"acrescente o valor da {self.sigla} para essa data na tabela 'unidade_fiscal.valores' "
                "das regras, com o ato que o fixou.",
            )
        return found


class Rounding(_Strict):
    casas: Count = Field(ge=0, le=4)
    modo: Literal["meio_para_cima", "meio_para_par", "truncar"]
    justificativa: str

    def apply(self, value: Decimal) -> Decimal:
        mode = {"meio_para_cima": ROUND_HALF_UP, "meio_para_par": ROUND_HALF_EVEN, "truncar": ROUND_DOWN}
        return value.quantize(Decimal(1).scaleb(-self.casas), rounding=mode[self.modo])


class Condition(_Strict):
    """When an element applies: the case field ``campo`` equals ``igual`` or, with ``diferente``, has any other
    value (also none)."""

    campo: str
    igual: str | bool | None = None
    diferente: str | bool | None = None

    @model_validator(mode="after")
    def _one(self) -> "Condition":
        if (self.igual is None) == (self.diferente is None):
            raise ValueError("informe exatamente um de 'igual' ou 'diferente'")
        return self

    def holds(self, actual: object) -> bool:
        """Compared as typed: the rules keep ``false`` as the text "false", the case has the bool."""
        if self.igual is not None:
            return _as_typed(actual) == _as_typed(self.igual)
        return _as_typed(actual) != _as_typed(self.diferente)


def _as_typed(value: object) -> str:
    """A value as written in YAML (``true``/``false`` for booleans), the form the rules keep it in."""
    return str(value).lower() if isinstance(value, bool) else str(value)
