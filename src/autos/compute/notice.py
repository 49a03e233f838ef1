"""From a case to the deadline engine: the notice facts (with their YAML lines) and the dates they set.

:func:`case_deadlines` maps the case's ``notificacao`` to :class:`~autos.compute.deadlines.NoticeFacts` and
counts the notice and every deadline that follows it with the law's rules and the municipality's calendar,
both passed in (this module reads no file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from autos.base.yamlio import PathKey
from autos.compute.deadlines import DEFAULT_FACT_PATHS, Deadline, NoticeFacts, deadlines_after_notice
from autos.errors import InputError
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar
from autos.rules.deadlines import DeadlineRule, LawDeadlines

__all__ = ["CaseDeadlines", "case_deadlines", "notice_facts", "returned_undelivered"]


@dataclass
class CaseDeadlines:
    """The notice date and the deadlines that follow it, for one case, and the law they were counted by."""

    notice: Deadline | None  # None when the case records no notice yet
    following: list[Deadline]
    pending: list[DeadlineRule]  # deadlines run from a notice not yet given (term only, no date)
    law: LawDeadlines | None = None

    def all(self) -> list[Deadline]:
        return ([self.notice] if self.notice else []) + self.following


def _split(path: str) -> PathKey:
    return tuple(path.split("."))


def notice_facts(loaded: LoadedCase) -> NoticeFacts | None:
    """The case's notice as the deadline engine reads it (None when the case records none)."""
    case = loaded.case
    n = case.notificacao
    if n is None:
        return None
    if case.infraction_date is None:
        raise InputError("sem a data da infração (ou da lavratura) não há como conferir a notificação.",
                         file=loaded.file, path="lavratura.data", line=loaded.line_of(("lavratura",)),
                         hint="informe lavratura.data ou data_infracao.")
    witnesses = [t.nome for t in case.assinaturas.testemunhas if t.nome]
    return NoticeFacts(
        forma=n.forma,
        data_infracao=case.infraction_date,
        data_ciencia=n.data,
        ar_recebimento=n.ar.data_recebimento if n.ar else None,
        ar_juntada=n.ar.data_juntada if n.ar else None,
        ar_devolvido=bool(n.ar and n.ar.devolvido),
        edital_publicacao=n.edital.data_publicacao if n.edital else None,
        edital_jornal=n.edital.data_publicacao_jornal if n.edital else None,
        testemunha=witnesses[0] if witnesses else None,
    )


def _fact_lines(loaded: LoadedCase) -> dict[str, int]:
    out: dict[str, int] = {}
    for fact, path in DEFAULT_FACT_PATHS.items():
        line = loaded.line_of(_split(path))
        if line is not None:
            out[fact] = line
    # the infraction date may come from auto.data or lavratura.data (Case.infraction_date)
    line = loaded.line_of(_split(loaded.case.infraction_date_field))
    if line is not None:
        out["data_infracao"] = line
    return out


def case_deadlines(loaded: LoadedCase, law: LawDeadlines, calendar: Callable[[], MunicipalCalendar]) -> CaseDeadlines:
    """Every date the case's notice sets; errors name the case file, YAML path and line. ``calendar`` gives the
    municipality's calendar, asked for only when the case records a notice in effect."""
    facts = notice_facts(loaded)
    proposed = {p.tipo for p in loaded.case.penalidades}
    ids = [i for i in law.apos_notificacao
           if (need := law.deadline(i).so_com_penalidade) is None or need in proposed]
    if facts is None or returned_undelivered(loaded):
        # no notice in effect yet: the document states the terms, without dates
        return CaseDeadlines(None, [], [law.deadline(i) for i in ids], law)
    paths = dict(DEFAULT_FACT_PATHS)
    paths["data_infracao"] = loaded.case.infraction_date_field
    dl = deadlines_after_notice(facts, law, calendar(), ids=ids, file=loaded.file, paths=paths,
                                lines=_fact_lines(loaded))
    return CaseDeadlines(dl[0], dl[1:], [], law)


def returned_undelivered(loaded: LoadedCase) -> bool:
    """The case's AR came back undelivered: no notice is in effect (a new notice must follow)."""
    n = loaded.case.notificacao
    return bool(n and n.forma == "ar" and n.ar and n.ar.devolvido)
