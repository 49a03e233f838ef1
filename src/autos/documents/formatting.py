"""What every part of a document's context formats the same way (:mod:`autos.documents.context`): a missing value as a
visible gap in a draft, text flattened to one line, citations without parentheses of their own, dates, the auto the
document refers to, the fine section, and a computation that leaves its value out of a draft when it fails."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.errors import AutosError
from autos.processo.case import Case
from autos.rules.calendar import MunicipalCalendar
from autos.rules.statute import Statute

_FORMS = {
    "pessoal": "pessoalmente ou por representante legal",
    "recusa": "pessoalmente, com recusa certificada pelo agente na presença de uma testemunha e entrega do auto ao "
              "autuado",
    "ar": "por via postal, mediante carta registrada com aviso de recebimento (AR)",
    "edital": "por edital",
}


MISSING = "[NÃO INFORMADO]"


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _or_missing(value: str | None, draft: bool) -> str:
    """A missing value prints as a visible gap in a draft (a final document never has one)."""
    if _blank(value):
        return MISSING if draft else ""
    assert value is not None
    return value


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _inner(text: str) -> str:
    """A citation or basis that a document prints between parentheses, with no parentheses of its own."""
    return ptbr.unnest_parentheses(text)


def example_warning(statute: Statute) -> str:
    """The warning a document prints when a value of it was computed with an example fiscal-unit value."""
    return (f"ATENÇÃO: o valor da {statute.unidade_fiscal.sigla} usado neste documento é um VALOR DE EXEMPLO das "
            "regras do sistema, não o valor oficial fixado pelo Município.")


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def _calendar(computed: CaseComputation) -> MunicipalCalendar | None:
    try:
        return computed.law_and_calendar()[1]
    except AutosError:
        return None


def _safe(fn: Any, draft: bool) -> Any:
    """Run a computation; in a draft a failure leaves the value out (its finding is listed), in a final
    document it propagates (validation should have caught it: fail loudly, write nothing)."""
    try:
        return fn()
    except AutosError:
        if draft:
            return None
        raise


def _missing_fn(draft: bool) -> Any:
    def m(value: str | None) -> str:
        return _or_missing(value, draft)
    return m


def _fmt_date(value: date | None, draft: bool) -> str:
    return ptbr.format_date(value) if value else _or_missing(None, draft)


def _auto_ref(case: Case, draft: bool) -> dict[str, str]:
    """The auto de infração the document refers to (empty strings when the case names none)."""
    ref = case.auto
    if ref is None or (ref.numero is None and ref.data is None):
        return {"numero": "", "data": "", "texto": ""}
    numero = _or_missing(ref.numero, draft)
    data = _fmt_date(ref.data, draft)
    return {"numero": numero, "data": data, "texto": f"Auto de Infração nº {numero}, lavrado em {data}"}


def _fine_section(fines: FineResult | None) -> dict[str, Any] | None:
    if fines is None:
        return None
    return {
        "unidades": fines.unidades_texto(),
        "reais": fines.reais_texto(),
        "memoria": [{"descricao": s.descricao, "base_legal": s.base_legal or "", "resultado": s.resultado}
                    for s in fines.memo()],
        "itens": [{"descricao": i.descricao, "base_legal": i.base_legal,
                   "unidades": ptbr.units_full(i.unidades, fines.sigla,
                                               feminine=fines.statute.unidade_fiscal.feminino),
                   "reais": ptbr.money_full(i.reais)} for i in fines.itens],
        "valor_unidade": f"R$ {ptbr.format_decimal(fines.valor_unidade.valor)}",
        "fonte_unidade": fines.valor_unidade.fonte,
        "data_referencia": ptbr.format_date(fines.data_referencia),
        "exemplo": fines.exemplo,
        "avisos": list(fines.avisos),
    }
