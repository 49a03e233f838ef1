"""The deadlines of a case as a document prints them: one line per deadline, and the notice date.

The dates come from the deadline engine, counted once for the case (:mod:`autos.compute.notice`); this module
only words them.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from autos.base import ptbr
from autos.compute.notice import CaseDeadlines
from autos.documents.lines import DeadlineLine, rule_term
from autos.rules.deadlines import DeadlineRule

__all__ = ["document_lines"]


def document_lines(cd: CaseDeadlines) -> tuple[list[DeadlineLine], str | None]:
    """The deadlines a document prints, and the notice date (if the notice was given)."""
    lines = [DeadlineLine(descricao=rule.descricao, base_legal=rule.base_legal,
                          prazo=_document_term(rule, rule.exemplo)) for rule in cd.pending]
    for d in cd.following:
        assert cd.law is not None
        lines.append(DeadlineLine(descricao=d.descricao, base_legal=d.base_legal,
                                  prazo=_document_term(cd.law.deadline(d.id), d.exemplo),
                                  data=ptbr.format_date(_as_date(d.fim)), explicacao=d.explicacao()))
    notice = ptbr.format_date(_as_date(cd.notice.fim)) if cd.notice else None
    return lines, notice


def _document_term(rule: DeadlineRule, exemplo: bool) -> str:
    """``15 (quinze) dias corridos, contados a partir da …``, flagged when the term is an example."""
    text = f"{rule_term(rule)}, contados a partir da {rule.conta_de_descricao}"
    if exemplo:
        text += " (prazo de EXEMPLO das regras do sistema, a confirmar no regulamento)"
    return text


def _as_date(value: Any) -> date:
    return value.date() if hasattr(value, "date") and callable(value.date) else value  # type: ignore[no-any-return]
