"""Statutes as data: loading and modelling ``rules/<municipio>-<uf>/<lei>.yaml``.

A statute file holds the law's identity, its fiscal unit with dated R$ values, its infractions and
penalties, and the elements each document kind must contain, every item citing its article. Loading
is strict: unknown or duplicate keys are :class:`RulesError` naming the file, the key and the line.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .citation import Citation
from .errors import ComputeError, RulesError
from .schema import build_model
from .yamlio import load_yaml

Severity = Literal["erro", "aviso"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    valor: Decimal = Field(gt=0)
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
    def _ordered(self) -> FiscalUnit:
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
    casas: int = Field(ge=0, le=4)
    modo: Literal["meio_para_cima", "meio_para_par", "truncar"]
    justificativa: str

    def apply(self, value: Decimal) -> Decimal:
        mode = {"meio_para_cima": ROUND_HALF_UP, "meio_para_par": ROUND_HALF_EVEN, "truncar": ROUND_DOWN}
        return value.quantize(Decimal(1).scaleb(-self.casas), rounding=mode[self.modo])


class Interpretation(_Strict):
    """A choice made where the law is ambiguous or self-contradictory; always shown to the user."""

    id: str
    citacao: Citation
    problema: str
    escolha: str


class Infraction(_Strict):
    """An infringed provision a case may cite by id."""

    descricao: str
    citacao: Citation
    exige_complemento: bool = False  # e.g. the regulation article must be named on the case
    complemento_rotulo: str | None = None
    penalidades: list[str] = Field(min_length=1)  # ids of ``penalidades`` applicable


class Penalty(_Strict):
    """A penalty or administrative measure of the statute (e.g. Timóteo Art. 16, I–VII)."""

    nome: str
    citacao: Citation
    multa_minima: Decimal | None = None  # in fiscal units
    multa_maxima: Decimal | None = None
    somente_primario_sem_agravante: bool = False
    exige_itens: bool = False  # apprehension/condemnation must list the items


class Circumstance(_Strict):
    descricao: str
    citacao: Citation


class Circumstances(_Strict):
    atenuantes: dict[str, Circumstance]
    agravantes: dict[str, Circumstance]


class Reduction(_Strict):
    """A percentage reduction of the fine when a fact about the autuado holds (Timóteo Art. 16 § 5º)."""

    id: str
    descricao: str
    citacao: Citation
    percentual: Decimal = Field(gt=0, le=100)
    quando: str  # dotted case path that must be true


class Condition(_Strict):
    campo: str
    igual: str | bool


class Element(_Strict):
    """A required element of a document kind (e.g. Timóteo Art. 20 § 1º, I–VII)."""

    codigo: str = Field(pattern=r"^[A-Z0-9][A-Z0-9.\-]*$")
    descricao: str
    citacao: Citation
    severidade: Severity = "erro"
    verificacao: Literal[
        "campos", "assinatura_ou_recusa", "dispositivos", "prazo_defesa", "veterinario_oficial"
    ] = "campos"
    campos: list[str] = Field(default_factory=list)
    quando: Condition | None = None
    dica: str

    @model_validator(mode="after")
    def _fields(self) -> Element:
        if self.verificacao == "campos" and not self.campos:
            raise ValueError(f"o elemento {self.codigo} de verificação 'campos' precisa da lista 'campos'")
        return self


class DocumentKind(_Strict):
    titulo: str
    modelo: str  # template base name in templates/
    citacao: Citation
    elementos: list[Element]
    nulidade: Citation | None = None  # where the law voids a document that omits an element


class Statute(_Strict):
    lei: StatuteIdentity
    unidade_fiscal: FiscalUnit
    arredondamento: Rounding
    interpretacoes: list[Interpretation] = Field(default_factory=list)
    penalidades: dict[str, Penalty]
    circunstancias: Circumstances | None = None
    reducoes: list[Reduction] = Field(default_factory=list)
    infracoes: dict[str, Infraction]
    documentos: dict[str, DocumentKind]

    @field_validator("infracoes", "penalidades", "documentos")
    @classmethod
    def _ids(cls, v: dict[str, object]) -> dict[str, object]:
        for key in v:
            if not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", key):
                raise ValueError(f"identificador '{key}' inválido: use minúsculas, dígitos, '-' e '_'")
        return v

    @model_validator(mode="after")
    def _refs(self) -> Statute:
        for inf_id, inf in self.infracoes.items():
            for p in inf.penalidades:
                if p not in self.penalidades:
                    raise ValueError(f"a infração '{inf_id}' cita a penalidade desconhecida '{p}'")
        return self

    # filled in by the loader
    _id: str = ""
    _file: Path = Path()

    @property
    def id(self) -> str:
        return self._id

    @property
    def file(self) -> Path:
        return self._file

    def cite(self, citation: Citation) -> str:
        return citation.full(self.lei.label)

    @cached_property
    def example_values(self) -> bool:
        return any(v.exemplo for v in self.unidade_fiscal.valores)


def _statute_id(path: Path, root: Path) -> str:
    rel = path.relative_to(root)
    return str(rel.with_suffix("")).replace("\\", "/")


class RuleSet:
    """All statutes found under one rules folder, by id (``timoteo-mg/lei-3844-2022``)."""

    def __init__(self, root: Path, statutes: dict[str, Statute]) -> None:
        self.root = root
        self.statutes = statutes

    def get(self, statute_id: str) -> Statute:
        try:
            return self.statutes[statute_id]
        except KeyError:
            known = ", ".join(sorted(self.statutes)) or "(nenhuma)"
            raise RulesError(
                f"lei '{statute_id}' não encontrada nas regras ({self.root}).",
                hint=f"use uma das leis disponíveis: {known}.",
            ) from None


def is_statute_file(path: Path) -> bool:
    """Statute files are ``<municipio>-<uf>/<lei>.yaml``; companions carry a second suffix."""
    return path.suffix == ".yaml" and "." not in path.stem and path.stem != "calendario"


def load_statute(path: Path, root: Path) -> Statute:
    doc = load_yaml(path, RulesError)
    statute = build_model(Statute, doc, RulesError)
    statute._id = _statute_id(path, root)
    statute._file = path
    return statute


def load_rules(root: str | Path) -> RuleSet:
    """Load every statute under ``root``; a missing or empty folder is an error."""
    folder = Path(root)
    if not folder.is_dir():
        raise RulesError(
            "pasta de regras não encontrada.",
            file=folder,
            hint="indique a pasta com --regras (ou --rules) ou use a pasta padrão.",
        )
    statutes: dict[str, Statute] = {}
    for path in sorted(folder.glob("*/*.yaml")):
        if is_statute_file(path):
            st = load_statute(path, folder)
            statutes[st.id] = st
    if not statutes:
        raise RulesError("a pasta de regras não contém nenhuma lei (<municipio>-<uf>/<lei>.yaml).", file=folder)
    return RuleSet(folder, statutes)
