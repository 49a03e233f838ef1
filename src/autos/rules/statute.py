"""Statutes as data: loading and modelling ``rules/<municipio>-<uf>/<lei>.yaml``.

A statute file holds the law's identity, its fiscal unit with dated R$ values, its infractions and
penalties, and the elements each document kind must contain, every item citing its article. Loading
is strict: unknown or duplicate keys are :class:`RulesError` naming the file, the key and the line.
"""


import re
import threading
from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from autos.base.citation import Citation
from autos.base.schema import Amount, Count, build_model
from autos.base.yamlio import decode_yaml, read_limited
from autos.errors import ComputeError, RulesError
from autos.rules.official import municipio_inputs
from autos.rules.preconditions import Precondition, Regulation
from autos.rules.prescription import Prescription
from autos.rules.snapshot import kept

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


class Interpretation(_Strict):
    """A choice made where the law is ambiguous or self-contradictory; always shown to the user (``autos regras``,
    ``validar``, the memo). A document that applies it prints ``no_documento`` — the choice as the act states it, in
    the act's own language (no ids, no field names) — or nothing: the problem and the choice are for the clerk and
    the procuradoria, not for the person notified."""

    id: str
    citacao: Citation
    problema: str
    escolha: str
    no_documento: str | None = Field(default=None, description="como o ato que aplica a escolha a enuncia, na "
                                     "linguagem do ato (sem ids nem nomes de campos); sem ele, o documento não a "
                                     "imprime")


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


class CircumstanceEffect(_Strict):
    """Numeric effect of attenuating/aggravating circumstances on a range fine (Timóteo Art. 16, § 2º).

    ``nenhum`` (the default): the agent already weighed them when fixing the base value; the memo says
    so. ``percentual``: each attenuating one lowers and each aggravating one raises the base value by the
    given percentage, the result kept within the legal range.
    """

    modo: Literal["nenhum", "percentual"] = "nenhum"
    citacao: Citation
    interpretacao: str | None = None
    atenuante: Amount | None = Field(default=None, gt=0, le=100)  # % per attenuating circumstance
    agravante: Amount | None = Field(default=None, gt=0, le=100)  # % per aggravating circumstance

    @model_validator(mode="after")
    def _mode(self) -> "CircumstanceEffect":
        if self.modo == "nenhum" and (self.atenuante is not None or self.agravante is not None):
            raise ValueError("com modo 'nenhum' não informe percentuais de atenuante/agravante")
        if self.modo == "percentual" and (self.atenuante is None or self.agravante is None):
            raise ValueError("com modo 'percentual' informe os percentuais 'atenuante' e 'agravante'")
        return self


class InfractionException(_Strict):
    """A case the law takes out of an infraction: an exception ("não se compreendem nas proibições", Ferraz art.
    63), a dispensation the administration may grant (arts. 12 and 23), a situation it authorizes (arts. 17 and
    18, § 1º) or a tolerance (art. 57). The case names it (``infracoes[].excecao``) when its facts fall under it;
    the validator then reports ``codigo`` (the document has no legal basis for that infraction) and the document
    prints the exception with its article."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9\-]*$")
    codigo: str = Field(pattern=r"^[A-Z0-9][A-Z0-9.\-]*$")  # the finding's code
    tipo: Literal["excecao", "dispensa", "autorizacao", "tolerancia"]
    descricao: str  # the facts the law describes, in its words
    citacao: Citation
    #: the provision that states the rule when ``citacao`` is one of its cases (Ferraz art. 63, caput, for the
    #: incisos; art. 12, caput: the Prefeitura may dispense; art. 17, § 1º: the administration authorizes)
    citacao_regra: Citation | None = None
    efeito: str  # what follows for the document (printed and reported)
    severidade: Severity = "erro"
    interpretacao: str | None = None  # a recorded choice behind it (printed with it)


#: how the finding and the document name each kind of exception
EXCEPTION_KIND_PT: dict[str, str] = {
    "excecao": "exceção",
    "dispensa": "dispensa",
    "autorizacao": "situação excepcional autorizada",
    "tolerancia": "tolerância",
}


class Infraction(_Strict):
    """An infringed provision a case may cite by id."""

    descricao: str
    citacao: Citation
    exige_complemento: bool = False  # e.g. the regulation article must be named on the case
    complemento_rotulo: str | None = None
    penalidades: list[str] = Field(default_factory=list)  # ids of ``penalidades`` applicable
    multa: FineRule | None = None  # the fine of this provision
    #: the law forbids the conduct but fixes no penalty for it (an ``interpretacoes`` id saying where it would come
    #: from): ``penalidades`` stays empty and a document citing it is refused (INFRACAO-SEM-SANCAO)
    sem_sancao: str | None = None
    #: the cases the law takes out of this infraction (exceptions, dispensations, tolerances)
    excecoes: list[InfractionException] = Field(default_factory=list)
    #: a defect of the text of this provision (an ``interpretacoes`` id): warned whenever it is applied
    interpretacao: str | None = None
    #: provisions this one refers to (Ferraz art. 4º: "os respectivos responsáveis, previstos no artigo 3º"),
    #: cited with it where a document's basis is the case's own provisions (``citacao_do_caso``)
    remissoes: list[Citation] = Field(default_factory=list)
    #: not a conduct but a ground on which the law orders the thing apprehended (Cuiabá art. 8º, the cão mordedor
    #: vicioso; art. 9º, II and V): the document kinds that may cite it (the termo de apreensão, …); an auto or any
    #: other document citing it is a finding. Empty: a conduct, citable by every document.
    fundamento_apreensao: list[str] = Field(default_factory=list)
    #: what must be in the processo for the act that imposes it (the auto) to be valid (rules.preconditions)
    pressupostos: list[Precondition] = Field(default_factory=list)

    @model_validator(mode="after")
    def _sanction(self) -> "Infraction":
        if self.sem_sancao is None and not self.penalidades:
            raise ValueError("informe 'penalidades' (as penalidades aplicáveis) ou, se a lei não fixa nenhuma para a "
                             "conduta, 'sem_sancao' com a interpretação que o registra")
        if self.sem_sancao is not None and (self.penalidades or self.multa is not None):
            raise ValueError("'sem_sancao' é para a conduta sem penalidade na lei: retire 'penalidades' e 'multa'")
        ids = [e.id for e in self.excecoes]
        if len(set(ids)) != len(ids):
            raise ValueError("duas exceções com o mesmo 'id'")
        return self

    @model_validator(mode="after")
    def _fine_penalty(self) -> "Infraction":
        if self.multa is not None:
            trigger = self.multa.penalidade or "multa"
            if trigger not in self.penalidades:
                raise ValueError(f"a multa é disparada pela penalidade '{trigger}', que não está em 'penalidades'")
            if isinstance(self.multa, FixedFine) and self.multa.advertencia_previa is not None:
                warn = self.multa.advertencia_previa.penalidade
                if warn not in self.penalidades:
                    raise ValueError(f"a advertência prévia '{warn}' não está em 'penalidades'")
        return self


class PenaltyCondition(_Strict):
    """A case in which the law allows a penalty (Timóteo Art. 16, V, a–c; Ferraz Art. 69, § 2º): not a rule of
    conduct, so never the provision infringed; the case names it (``penalidades[].condicao``)."""

    descricao: str
    citacao: Citation
    infracoes: list[str] = Field(default_factory=list)  # infractions it applies to (empty: any)
    reincidente: bool = False  # it needs a repeat of the infraction (infracoes[].reincidente: true)
    pessoa_juridica: bool = False  # it applies to an establishment (autuado.tipo: pessoa_juridica)
    interpretacao: str | None = None  # a recorded choice behind it (printed when it is applied)
    #: the law imposes the penalty in this case ("terá sua atividade suspensa", Ferraz art. 69, § 2º): an auto for
    #: the infraction whose facts meet the condition and does not apply it is an error (PENALIDADE-OBRIGATORIA) —
    #: unless it applies one of ``substituida_por``, the graver penalty the law puts in its place (§ 3º: cassação)
    obrigatoria: bool = False
    substituida_por: list[str] = Field(default_factory=list)


class Penalty(_Strict):
    """A penalty or administrative measure of the statute (e.g. Timóteo Art. 16, I–VII)."""

    nome: str
    citacao: Citation
    #: "despesa": costs the offender owes on top of the penalties (Cuiabá Art. 38), kept apart from them
    natureza: Literal["penalidade", "despesa"] = "penalidade"
    #: the cases in which the law allows it; when present the case must name one (penalidades[].condicao)
    condicoes: dict[str, PenaltyCondition] = Field(default_factory=dict)
    multa_minima: Amount | None = None  # in fiscal units
    multa_maxima: Amount | None = None
    somente_primario_sem_agravante: bool = False
    exige_itens: bool = False  # apprehension/condemnation must list the items
    calculo: FineRule | None = None  # the amount, for infractions without a formula of their own
    efeito_circunstancias: CircumstanceEffect | None = None  # range fines only

    @model_validator(mode="after")
    def _amount(self) -> "Penalty":
        ranged = self.multa_minima is not None or self.multa_maxima is not None
        if ranged and (self.multa_minima is None or self.multa_maxima is None):
            raise ValueError("informe multa_minima e multa_maxima juntas")
        if self.multa_minima is not None and self.multa_maxima is not None and self.multa_minima > self.multa_maxima:
            raise ValueError("multa_minima maior que multa_maxima")
        if ranged and self.calculo is not None:
            raise ValueError("use faixa (multa_minima/multa_maxima) ou 'calculo', não os dois")
        if self.efeito_circunstancias is not None and not ranged:
            raise ValueError("efeito_circunstancias só se aplica a multa com faixa (multa_minima/multa_maxima)")
        return self


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


class Circumstance(_Strict):
    descricao: str
    citacao: Citation
    #: a fact of the case the circumstance presupposes (``primariedade``: ``autuado.primario`` is true)
    exige: Condition | None = None
    #: the letter of the other list that states its opposite (not both for one infraction)
    contraria: str | None = None


class Circumstances(_Strict):
    atenuantes: dict[str, Circumstance]
    agravantes: dict[str, Circumstance]

    @model_validator(mode="after")
    def _opposites(self) -> "Circumstances":
        for field, other in (("atenuantes", self.agravantes), ("agravantes", self.atenuantes)):
            for letter, c in getattr(self, field).items():
                if c.contraria is not None and c.contraria not in other:
                    raise ValueError(f"a circunstância '{letter}' de '{field}' contraria a alínea "
                                     f"'{c.contraria}', que não está na outra lista")
        return self


class Reduction(_Strict):
    """A percentage reduction of the fine when a fact about the autuado holds (Timóteo Art. 16 § 5º)."""

    id: str
    descricao: str
    citacao: Citation
    percentual: Amount = Field(gt=0, le=100)
    quando: str  # dotted case path that must be true
    #: the recorded choice applied when the reduction takes a range fine below its floor (shown, warned)
    abaixo_do_minimo: str | None = None


class Element(_Strict):
    """A required element of a document kind (e.g. Timóteo Art. 20 § 1º, I–VII).

    ``campos`` are dotted case paths; a list is entered with ``[]`` (every item) or ``[campo=valor]``
    (the items whose field has that value), e.g. ``penalidades[tipo=apreensao].itens``.
    """

    codigo: str = Field(pattern=r"^[A-Z0-9][A-Z0-9.\-]*$")
    descricao: str
    citacao: Citation
    severidade: Severity = "erro"
    verificacao: Literal[
        "campos", "assinatura_ou_recusa", "dispositivos", "prazo_defesa", "veterinario_oficial",
        "valores", "datas_em_ordem", "prazo", "multa_calculada", "custas_por_dia",
    ] = "campos"
    campos: list[str] = Field(default_factory=list)
    quando: Condition | None = None
    prazo: str | None = None  # prazo_defesa / prazo: the deadline id in the law's prazos file
    prazo_campo: str | None = None  # prazo: the case field holding the deadline id (instead of ``prazo``)
    valores: list[str | bool] = Field(default_factory=list)  # valores / prazo: the values allowed
    penalidade: str | None = None  # custas_por_dia: the penalty whose costs accrue per day
    # assinatura_ou_recusa: where the law says what the signature's date means (data), how a refusal is
    # certified (recusa) and how an absent person is notified (ciencia); quoted in the findings
    citacoes: dict[Literal["data", "recusa", "ciencia"], Citation] = Field(default_factory=dict)
    dica: str

    @model_validator(mode="after")
    def _fields(self) -> "Element":
        need = {"campos": bool(self.campos), "valores": bool(self.campos and self.valores),
                "datas_em_ordem": len(self.campos) >= 2, "prazo_defesa": bool(self.prazo),
                "prazo": (self.prazo is None) != (self.prazo_campo is None) and len(self.campos) <= 1,
                "custas_por_dia": bool(self.penalidade),
                "assinatura_ou_recusa": set(self.citacoes) == {"data", "recusa", "ciencia"}}
        what = {"campos": "a lista 'campos'", "valores": "'campos' e 'valores'",
                "datas_em_ordem": "ao menos duas datas em 'campos'",
                "prazo_defesa": "'prazo' (o id do prazo nas regras de prazos)",
                "prazo": "'prazo' (id fixo) ou 'prazo_campo' (campo do caso com o id), e no máximo um campo "
                         "com a data de início em 'campos'",
                "custas_por_dia": "'penalidade' (a penalidade cujas despesas correm por dia)",
                "assinatura_ou_recusa": "'citacoes' com 'data' (o dispositivo sobre a data da assinatura), "
                                        "'recusa' (a certificação da recusa) e 'ciencia' (a ciência do ausente)"}
        if not need.get(self.verificacao, True):
            raise ValueError(f"o elemento {self.codigo} de verificação '{self.verificacao}' precisa de "
                             f"{what[self.verificacao]}")
        return self


class Clause(_Strict):
    """A statement of the law a document kind prints, with its article (e.g. Timóteo Art. 16, § 4º); ``quando``:
    only when the case's field holds (Ferraz art. 78: the appeal clause is not printed after the appeal decision)."""

    texto: str
    citacao: Citation
    quando: Condition | None = None


class RefusalRule(_Strict):
    """What the law says of an autuado who refuses to sign or to take notice of the document, printed by it.

    ``texto`` may hold ``{testemunha}`` (" na presença da testemunha abaixo identificada" when the case names one,
    else nothing: no document claims a witness it does not name) and ``{recebedor}`` (who received the copy: the
    person present, else the autuado). ``testemunha``: the law requires one (its absence is a finding)."""

    texto: str
    citacao: Citation
    testemunha: bool = False
    #: the certified refusal is the notice (Timóteo art. 21, § 1º); False: the notice must still be given in
    #: another form (Ferraz art. 76, I: personal notice needs a dated receipt) — a personal notice is a finding
    ciencia: bool = True
    dica: str | None = None  # how to give the notice when the refusal is not one
    interpretacao: str | None = None  # the choice recorded where the law is silent


class DocumentKind(_Strict):
    titulo: str
    modelo: str  # template base name in templates/
    citacao: Citation
    elementos: list[Element]
    nulidade: Citation | None = None  # where the law voids a document that omits an element
    clausulas: list[Clause] = Field(default_factory=list)  # legal statements the document prints
    #: recorded choices this kind applies (printed by the document, with the problem and the choice)
    interpretacoes: list[str] = Field(default_factory=list)
    recusa: RefusalRule | None = None  # the law's rule on a refusal (auto de infração)
    #: the header cites the provisions the case applies (its infractions and their ``remissoes``), not ``citacao``
    #: (Ferraz's notificação preliminar: arts. 3º and 4º for a lot to clean, not every article that orders one)
    citacao_do_caso: bool = False
    #: the law's notice articles apply to this kind only by analogy (Ferraz arts. 76 and 77 for the notificação
    #: preliminar): its notice and the deadlines counted from it say so
    notificacao_por_analogia: bool = False
    #: the operative sentence of a termo whose measure the law names otherwise than the default one (Ferraz art. 69,
    #: § 3º: "Fica CASSADA, a partir de {data}, a licença de funcionamento abaixo descrita."); {data}: the
    #: measure's date, {local}: its place
    frase_medida: str | None = None
    #: the body that draws up this kind when it is not the law's ``lei.orgao`` (Ferraz art. 53, § 1º: the Guarda
    #: Civil Municipal draws up the termo de ocorrência): printed in the letterhead instead of the department
    orgao: str | None = None


class Signatory(_Strict):
    """Who signs a document the municipality issues for the law as a whole (the consolidated edital): a named
    person and the post; ``ato``: the act that designates them; ``exemplo``: not yet the real one."""

    nome: str = Field(min_length=1)
    cargo: str = Field(min_length=1)
    ato: str | None = None
    exemplo: bool = False


#: what a published edital prints of each notified (its row in the consolidated edital), by key — the fields a
#: retificação compares (``autos retificar-edital``), with the label the retificação prints
EDITAL_FIELDS: dict[str, str] = {
    "nome": "nome do notificado",
    "documento": "CPF/CNPJ do notificado",
    "auto": "número do auto de infração",
    "auto_data": "data do auto de infração",
    "processo": "número do processo",
    "infracoes": "dispositivo infringido",
    "multa": "multa",
    "agente": "quem expede o edital individual",
}


class EditalCorrections(_Strict):
    """How a retificação of a published edital acts on the notice (``autos retificar-edital``). The laws are
    silent: ``interpretacao`` records the choice. Correcting a field of ``essenciais`` makes the notice of that
    notified run again from the retificação's publication (by the law's own edital rule); correcting any other
    field keeps the dates of the edital corrected."""

    citacao: Citation  # the law's edital provision
    essenciais: list[str] = Field(min_length=1)
    interpretacao: str

    @field_validator("essenciais")
    @classmethod
    def _fields(cls, v: list[str]) -> list[str]:
        unknown = [f for f in v if f not in EDITAL_FIELDS]
        if unknown:
            raise ValueError(f"campos desconhecidos: {', '.join(unknown)}; use: {', '.join(EDITAL_FIELDS)}")
        return v


class PaymentMeans(_Strict):
    """How the fine is paid, as the demonstrativo states it: the guide, where it is issued and paid, and the
    article (Timóteo art. 29: the SIM's own account; Cuiabá art. 41: collected at the Centro de Controle de
    Zoonoses)."""

    meio: str = Field(min_length=1, description="como se paga: a guia, onde é emitida e onde se paga")
    citacao: Citation | None = Field(default=None, description="o artigo que o determina, se a lei o diz")


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
    reincidencia: RecidivismHistory | None = None
    prescricao: Prescription | None = None
    #: how the fine is paid (the demonstrativo's means of payment, when there is no PIX code)
    pagamento: PaymentMeans | None = None
    #: who signs the consolidated edital of this law (``autos publicar-editais``); none: its cases are refused
    edital_assinatura: Signatory | None = None
    #: what a retificação of a published edital does to the notice (``autos retificar-edital``)
    edital_correcoes: EditalCorrections | None = None
    #: the regulations applied with the law, by id (rules.preconditions.Regulation): an infringed provision names one
    regulamentos: dict[str, Regulation] = Field(default_factory=dict)

    @field_validator("infracoes", "penalidades", "documentos", "regulamentos")
    @classmethod
    def _ids(cls, v: dict[str, object]) -> dict[str, object]:
        for key in v:
            if not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", key):
                raise ValueError(f"identificador '{key}' inválido: use minúsculas, dígitos, '-' e '_'")
        return v

    @model_validator(mode="after")
    def _refs(self) -> "Statute":
        for inf_id, inf in self.infracoes.items():
            for p in inf.penalidades:
                if p not in self.penalidades:
                    raise ValueError(f"a infração '{inf_id}' cita a penalidade desconhecida '{p}'")
            for kind in inf.fundamento_apreensao:
                if kind not in self.documentos:
                    raise ValueError(f"a infração '{inf_id}' cita o documento desconhecido '{kind}' em "
                                     "'fundamento_apreensao'")
        return self

    @model_validator(mode="after")
    def _fine_refs(self) -> "Statute":
        _check_fine_refs(self)
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


def formula_for(statute: Statute, infraction: Infraction, penalty_id: str) -> FineRule | None:
    """The formula computing ``penalty_id`` for ``infraction``: its own, else the penalty's."""
    own = infraction.multa
    if own is not None and (own.penalidade or "multa") == penalty_id:
        return own
    pen = statute.penalidades.get(penalty_id)
    return pen.calculo if pen is not None else None


def _check_fine_refs(statute: Statute) -> None:
    """Cross-references of the fine formulas: interpretations and penalties exist; every infraction
    listing a penalty that carries an amount somewhere has a formula for it."""
    interp = {i.id for i in statute.interpretacoes}

    def need(ref: str | None, where: str) -> None:
        if ref is not None and ref not in interp:
            raise ValueError(f"{where} cita a interpretação desconhecida '{ref}' (veja 'interpretacoes')")

    def formula_refs(rule: FineRule, where: str) -> None:
        for ref in rule.interpretacoes:
            need(ref, where)
        if isinstance(rule, FixedFine) and rule.abatimento_caucao is not None:
            need(rule.abatimento_caucao.interpretacao, where)
        if isinstance(rule, ApprehensionCosts):
            for sp in rule.especies.values():
                need(sp.interpretacao, where)

    costed: set[str] = set()
    for pen_id, pen in statute.penalidades.items():
        if pen.calculo is not None:
            if pen.calculo.penalidade not in (None, pen_id):
                raise ValueError(f"o cálculo da penalidade '{pen_id}' não pode ser disparado por outra "
                                 f"penalidade ('{pen.calculo.penalidade}')")
            formula_refs(pen.calculo, f"o cálculo da penalidade '{pen_id}'")
            costed.add(pen_id)
        if pen.efeito_circunstancias is not None:
            need(pen.efeito_circunstancias.interpretacao, f"a penalidade '{pen_id}'")
            if statute.circunstancias is None:
                raise ValueError(f"a penalidade '{pen_id}' tem efeito_circunstancias, mas a lei não tem "
                                 "'circunstancias'")
    rec = statute.reincidencia
    if rec is not None:
        for ref in rec.interpretacoes:
            need(ref, "'reincidencia'")
        if rec.agravante is not None and (statute.circunstancias is None
                                          or rec.agravante not in statute.circunstancias.agravantes):
            raise ValueError(f"'reincidencia' cita a agravante desconhecida '{rec.agravante}' (veja "
                             "'circunstancias.agravantes')")
    if statute.prescricao is not None:
        need(statute.prescricao.interpretacao, "a prescrição ('prescricao')")
    if statute.edital_correcoes is not None:
        need(statute.edital_correcoes.interpretacao, "'edital_correcoes'")
    for pen_id, pen in statute.penalidades.items():
        for cond_id, cond in pen.condicoes.items():
            need(cond.interpretacao, f"a condição '{cond_id}' da penalidade '{pen_id}'")
            if cond.obrigatoria and not cond.infracoes:
                raise ValueError(f"a condição obrigatória '{cond_id}' da penalidade '{pen_id}' precisa de 'infracoes'")
            for other in cond.substituida_por:
                if other not in statute.penalidades or not cond.obrigatoria:
                    raise ValueError(f"a condição '{cond_id}' da penalidade '{pen_id}': 'substituida_por' só vale em "
                                     f"condição obrigatória e com penalidades da lei ('{other}')")
            for inf_ref in cond.infracoes:
                rule = statute.infracoes.get(inf_ref)
                if rule is None or pen_id not in rule.penalidades:
                    raise ValueError(f"a condição '{cond_id}' da penalidade '{pen_id}' cita a infração '{inf_ref}', "
                                     "que não existe ou não admite essa penalidade")
    for kind_id, kind in statute.documentos.items():
        for ref in kind.interpretacoes:
            need(ref, f"o documento '{kind_id}'")
        if kind.recusa is not None:
            need(kind.recusa.interpretacao, f"a recusa do documento '{kind_id}'")
    for red in statute.reducoes:
        need(red.abaixo_do_minimo, f"a redução '{red.id}'")
    for inf_id, inf in statute.infracoes.items():
        need(inf.interpretacao, f"a infração '{inf_id}'")
        need(inf.sem_sancao, f"a infração '{inf_id}' (sem_sancao)")
        for exc in inf.excecoes:
            need(exc.interpretacao, f"a exceção '{exc.id}' da infração '{inf_id}'")
        for pc in inf.pressupostos:
            need(pc.interpretacao, f"o pressuposto '{pc.id}' da infração '{inf_id}'")
        if inf.multa is not None:
            formula_refs(inf.multa, f"a multa da infração '{inf_id}'")
            costed.add(inf.multa.penalidade or "multa")
    for inf_id, inf in statute.infracoes.items():
        for pen_id in inf.penalidades:
            listed = statute.penalidades.get(pen_id)
            if listed is None:
                continue  # reported by _refs
            ranged = listed.multa_minima is not None
            if pen_id in costed and not ranged and formula_for(statute, inf, pen_id) is None:
                raise ValueError(f"a infração '{inf_id}' admite a penalidade '{pen_id}', mas não diz como "
                                 "calculá-la: acrescente 'multa' à infração ou 'calculo' à penalidade")


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


#: the municipality's own files beside its laws (the calendar, the register of authorities, the official values, the
#: grades of the findings)
_NOT_STATUTES = ("calendario", "autoridades", "valores-oficiais", "achados")


def is_statute_file(path: Path) -> bool:
    """Statute files are ``<municipio>-<uf>/<lei>.yaml``; companions carry a second suffix."""
    return path.suffix == ".yaml" and "." not in path.stem and path.stem not in _NOT_STATUTES


#: statutes already built in this process, by (file, rules folder, the file's bytes): a statute is frozen and
#: depends on its own file only, so a program that opens the same rules folder again (a test suite, a server
#: building an ``Autos`` per request, ``autos`` commands run in one process) parses and validates it once
_STATUTES: dict[tuple[str, str, bytes], Statute] = {}
_STATUTES_KEPT = 16
_STATUTES_LOCK = threading.Lock()


def load_statute(path: Path, root: Path) -> Statute:
    data = read_limited(path, RulesError)
    from autos.rules.official import official_key, patched

    key = (str(path), str(root), data + b"\0" + official_key(path.parent))
    cached = _STATUTES.get(key)
    if cached is not None:
        return cached

    def build() -> Statute:
        doc = patched(decode_yaml(data, path, RulesError), "lei")
        built = build_model(Statute, doc, RulesError)
        built._id = _statute_id(path, root)
        built._file = path
        return built

    statute = kept("lei", municipio_inputs(path.parent), build, salt=f"{path}\0{root}")
    with _STATUTES_LOCK:
        while len(_STATUTES) >= _STATUTES_KEPT:
            _STATUTES.pop(next(iter(_STATUTES)))
        _STATUTES[key] = statute
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
