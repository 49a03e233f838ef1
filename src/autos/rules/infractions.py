"""The law's infractions and penalties as data: each infraction with its exceptions and the penalties it lists, each
penalty with its conditions and the formula of its amount, and the circumstances (atenuantes, agravantes) and
reductions the law provides.

No ``from __future__ import annotations`` here: pydantic evaluates the annotations when a model is defined."""


from typing import Literal

from pydantic import Field, model_validator

from autos.base.citation import Citation
from autos.base.schema import Amount
from autos.rules.fine_rules import FineRule, FixedFine
from autos.rules.preconditions import Precondition
from autos.rules.statute_base import Condition, Severity, _Strict


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
