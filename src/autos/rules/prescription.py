"""The prescription of the punitive claim as data (``prescricao`` of ``<lei>.yaml``): how many years, from when, what
interrupts it and which decision exercises the claim. Computed by :mod:`autos.compute.prescription`."""


from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autos.base.schema import Count

__all__ = ["Prescription", "PrescriptionInterruption"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class PrescriptionInterruption(_Strict):
    """What interrupts the prescription of the punitive claim, and how it runs again afterwards."""

    #: act kinds (of ``<lei>.processo.yaml``) whose effective date (a notice: when it takes effect) interrupts it
    atos: list[str] = Field(min_length=1)
    #: it runs again, from the interrupting act, for this many months (half the term: Decreto 20.910/1932, art. 9º)
    recomeca_meses: Count = Field(gt=0)
    #: the term never ends before the full term counted from the start (Súmula 383 do STF)
    nao_aquem_do_prazo: bool = True
    base_legal: str


class Prescription(_Strict):
    """The prescription of the punitive claim (the power to impose the penalty) of one law.

    It runs ``anos`` years from ``conta_de`` (``infracao``: the date of the infraction, or of the auto when the
    processo does not give it), is interrupted once by the first act of ``interrupcao.atos`` and is met by a
    final decision: the last act of ``decisoes`` not followed by an act of ``recursos``."""

    #: years; more than 50 is a typing error (the prescriptions relied on run five: Decreto 20.910/1932, art. 1º)
    anos: Count = Field(gt=0, le=50)
    conta_de: Literal["infracao"] = "infracao"
    base_legal: str
    interrupcao: PrescriptionInterruption | None = None
    decisoes: list[str] = Field(min_length=1)
    recursos: list[str] = Field(default_factory=list)
    interpretacao: str | None = None  # the recorded choice (an ``interpretacoes`` id) where the law is silent
