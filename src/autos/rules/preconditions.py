"""Preconditions of an act, as data: what must already be in the processo for the act to be valid.

A law makes an act valid only when certain facts happened before it: the edital only after the letter with AR to
the known address came back and the search for the domicile was made (Ferraz art. 76, III; Timóteo art. 21, III and
§ 2º); the fine for an unanswered notice only after the notice was served and its term ran out unanswered (Ferraz
arts. 4º, 37…); the termo of a measure only when the auto applied the measure (Timóteo art. 20, § 3º: an auto with
an omission is void); the depositary only the owner of the goods (Timóteo art. 16, § 4º). Each of these is a
:class:`Precondition` in the rules — under an act kind of ``<lei>.processo.yaml`` (``atos.<kind>.pressupostos``) or
under an infraction of ``<lei>.yaml`` (``infracoes.<id>.pressupostos``: checked on the act that imposes it, the
auto by default) — with the article, the finding code, what is required (``exige``: one of a small closed set of
predicates, the same for every law) and how to fix it. A missing precondition is always an error.

The predicates (``exige``, exactly one key):

* ``ato_anterior``: an earlier act of the processo of one of ``tipos`` (or a notice of ``forma``), optionally citing
  the same act as this one, returned undelivered for an address that does not find the person, or dated after
  the last such return;
* ``notificacao_nao_atendida``: the act cites (``referente``) a served notice of kind ``ato`` whose term (one of
  ``prazos``) ran out before it, and the infraction is dated the day after that term;
* ``penalidade_no_auto``: the processo's auto lists the penalty this act executes;
* ``depositario``: the act's fiel depositário is the autuado or his legal representative;
* ``fato``: a fact of the infraction (``infracoes[].<campo>``) is stated and above a legal threshold;
* ``norma_de_conduta``: the provision infringed is named as a rule of conduct — an article of the law listed here,
  or an article of a regulation of the law's register (``regulamentos``) that is not an example.

Pure data and its strict models: evaluation is :mod:`autos.compute.preconditions`.
"""


from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autos.base.citation import Citation
from autos.base.schema import Amount

__all__ = ["ActMatch", "ConductRule", "FactRequirement", "Precondition", "Regulation", "Requirement",
           "UnansweredNotice", "When"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ActMatch(_Strict):
    """An earlier act of the processo (dated on or before the act checked) that satisfies the precondition."""

    #: its kind, one of these (``<lei>.processo.yaml`` ids); empty: any kind (then ``forma`` says which)
    tipos: list[str] = Field(default_factory=list)
    #: a notice of this form (``forma`` of the act kind: pessoal, recusa, ar, edital)
    forma: Literal["pessoal", "recusa", "ar", "edital"] | None = None
    #: it cites (``referente``) the same act as the act checked (the AR of the same auto the edital carries)
    mesmo_referente: bool = False
    #: an AR that came back undelivered for an address that does not find the person (mudou-se, desconhecido,
    #: endereço insuficiente…): not merely absent or refused
    devolvido_sem_localizar: bool = False
    #: dated on or after the last such return of an AR citing the same act (the search made after the letter
    #: came back); with no such return, any date up to the act checked
    depois_da_devolucao: bool = False

    @model_validator(mode="after")
    def _which(self) -> "ActMatch":
        if not self.tipos and self.forma is None:
            raise ValueError("indique 'tipos' (os atos que cumprem o pressuposto) ou 'forma' (a forma da notificação)")
        return self


class UnansweredNotice(_Strict):
    """The act (an auto) follows a notice the autuado did not answer in its term (Ferraz art. 4º: "Não sendo atendida
    a notificação, serão os responsáveis autuados"): it cites the notice by number, the notice was served with a
    dated receipt, its term — one of ``prazos`` — ran out before the act, and the infraction is the day after."""

    ato: str  # the notice's act kind (e.g. notificacao_preliminar)
    prazos: list[str] = Field(min_length=1)  # the terms of the articles whose notice it may be (prazos ids)


class FactRequirement(_Strict):
    """A fact of the infraction the law makes part of it (Cuiabá art. 28: more than 10 animals, each older than 90
    days): ``infracoes[].<campo>`` is stated and greater than ``maior_que``."""

    campo: Literal["quantidade", "idade_minima_dias", "dias_custodia", "capacidade"]
    maior_que: Amount
    rotulo: str  # what the field states, as the message names it ("número de cães e gatos com mais de 90 dias")


class ConductRule(_Strict):
    """The provision infringed must be a rule of conduct (Timóteo art. 20, § 1º, IV: "o dispositivo legal ou
    regulamentar infringido"), not a definition: ``infracoes[].norma`` names an article of the law among
    ``artigos_da_lei``, or (``regulamentos``) an article of a regulation of the law's register that is not an
    example."""

    artigos_da_lei: list[Citation] = Field(default_factory=list)
    regulamentos: bool = True


class Requirement(_Strict):
    """What the precondition requires: exactly one predicate."""

    ato_anterior: ActMatch | None = None
    notificacao_nao_atendida: UnansweredNotice | None = None
    penalidade_no_auto: str | None = None  # a penalty id of the law's rules
    depositario: list[Literal["autuado", "responsavel_legal"]] | None = None
    fato: FactRequirement | None = None
    norma_de_conduta: ConductRule | None = None

    @model_validator(mode="after")
    def _one(self) -> "Requirement":
        given = [k for k, v in self.__dict__.items() if v is not None]
        if len(given) != 1:
            raise ValueError(f"'exige' tem exatamente um predicado ({', '.join(type(self).model_fields)}); "
                             f"há {len(given)}" + (f": {', '.join(given)}" if given else ""))
        return self

    @property
    def kind(self) -> str:
        return next(k for k, v in self.__dict__.items() if v is not None)


class When(_Strict):
    """When the precondition applies (absent: always)."""

    #: the processo knows an address of the autuado (``autuado.endereco`` with a logradouro): true = only then
    endereco_conhecido: bool | None = None


class Precondition(_Strict):
    """One precondition of an act: what must be in the processo, the article, the finding code and the fix."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9\-]*$")
    codigo: str = Field(pattern=r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")  # the finding's code (UPPER-KEBAB)
    descricao: str  # what must be in the processo, as the message states it
    citacao: Citation  # the article that requires it
    exige: Requirement
    quando: When | None = None
    interpretacao: str | None = None  # the recorded choice (an ``interpretacoes`` id) where the law is silent
    dica: str  # how to fix the processo
    #: infraction-level only: the act kinds it is checked on (empty: the auto, the rite's initial act)
    atos: list[str] = Field(default_factory=list)


class Regulation(_Strict):
    """A regulation the municipality applies with the law (Timóteo arts. 7º, 8º and 31: the decree that regulates it,
    or the federal legislation in its absence), registered with its identity so that an auto names a real rule of
    conduct: number, date, where it was published. ``exemplo``: not confirmed — an auto citing it is refused."""

    tipo: str = Field(min_length=1)  # "Decreto federal", "Decreto municipal", "Portaria MAPA"
    numero: str = Field(min_length=1)
    data: date
    ementa: str
    publicacao: str | None = None  # where and when it was published
    fundamento: Citation  # the provision of the law that makes it apply (art. 7º: the federal legislation)
    sigla: str | None = None  # "RIISPOA"
    exemplo: bool = False
    fonte: str | None = None  # where the municipality confirmed it (or why it is an example)

    @model_validator(mode="after")
    def _confirmed(self) -> "Regulation":
        if not self.exemplo and not self.publicacao:
            raise ValueError("um regulamento confirmado (sem 'exemplo: true') precisa de 'publicacao' (onde e "
                             "quando foi publicado)")
        return self

    def label(self) -> str:
        """``Decreto federal nº 9.013, de 29/03/2017 (RIISPOA)``."""
        sigla = f" ({self.sigla})" if self.sigla else ""
        return f"{self.tipo} nº {self.numero}, de {self.data.strftime('%d/%m/%Y')}{sigla}"
