"""Which EXAMPLE values of the rules one document uses — such a document is a MINUTA, never final.

The shipped rules mark what the Municipality has not yet set with ``exemplo: true`` (see
:mod:`autos.rules.official`). A document that prints or counts with one of them — the fiscal unit's value in its
amounts, a calendar day that moved or skipped one of its deadlines, an example deadline it prints, a signer whose
holder, designation or competence act is an example, an example regulation it cites — is read here from the very
context the renderers print (what is on the page is what is used), each example named with its file and how to
fix it. :func:`with_examples` marks the context MINUTA and puts those reasons on its face.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.errors import AutosError
from autos.rules.calendar import EXEMPLO_MARK
from autos.rules.official import FILE_NAME
from autos.rules.statute import Statute

__all__ = ["EXAMPLE_PREFIX", "document_examples", "with_examples"]

#: how each reason starts on the face of the MINUTA
EXAMPLE_PREFIX = "valor de exemplo: "
_DEADLINE_MARK = "prazo de EXEMPLO"
_VALUE_MARK = "VALOR DE EXEMPLO"
_DATE = re.compile(r"\b(\d{2})/(\d{2})/(\d{4})\b")


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _strings(v)


def _dicts(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _dicts(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _dicts(v)


def document_examples(ctx: dict[str, Any], statute: Statute, computed: CaseComputation | None,
                      fines: FineResult | None) -> list[str]:
    """Every example value the document of ``ctx`` uses, one sentence each (Portuguese, naming the value, its file
    and where the Municipality sets the official one); empty for a document that uses none."""
    mun = statute.file.parent.name
    where = f"o Município fixa o valor oficial em rules/{mun}/{FILE_NAME}"
    texts = list(_strings(ctx))
    out: list[str] = []
    sigla = statute.unidade_fiscal.sigla
    if any(_VALUE_MARK in t for t in texts) or (fines is not None and fines.exemplo and ctx.get("exemplo_aviso")):
        year = f" de {fines.valor_unidade.desde.year}" if fines is not None and fines.exemplo else ""
        out.append(f"valor da {sigla}{year} é de exemplo — rules/{mun}/{statute.file.name}; {where}")
    out.extend(_deadlines(ctx, statute, computed, where))
    out.extend(_days(texts, computed, mun, where))
    sig = ctx.get("signatario") or {}
    if sig.get("exemplo"):
        out.append(f"quem assina ({sig.get('nome')}, {sig.get('cargo')}), sua designação ou o ato de competência é "
                   f"de exemplo — rules/{mun}/autoridades.yaml; o Município confirma o titular e o ato em "
                   f"rules/{mun}/{FILE_NAME}")
    for rid, reg in statute.regulamentos.items():
        if reg.exemplo and any(reg.label() in t or f"nº {reg.numero}, de" in t for t in texts):
            out.append(f"o regulamento citado ({reg.label()}) é de exemplo — rules/{mun}/{statute.file.name}, "
                       f"regulamentos.{rid}; o Município registra o regulamento real em rules/{mun}/{FILE_NAME}")
    return list(dict.fromkeys(out))


def _deadlines(ctx: dict[str, Any], statute: Statute, computed: CaseComputation | None, where: str) -> list[str]:
    mun = statute.file.parent.name
    stem = statute.file.stem
    own: set[str] = set()
    rite: dict[str, Any] = {}
    if computed is not None:
        try:
            own = set(computed.law_and_calendar()[0].prazos)
            rite = dict(computed.rite().prazos)
        except AutosError:
            pass
    out: list[str] = []
    for d in _dicts(ctx):
        term = d.get("prazo")
        if not (isinstance(term, str) and _DEADLINE_MARK in term):
            continue
        desc = str(d.get("descricao") or "")
        rid = next((k for k, r in rite.items() if r.exemplo and r.descricao == desc), None)
        file = f"{stem}.prazos.yaml" if rid is None or rid in own else f"{stem}.processo.yaml"
        named = f" ({rid})" if rid else ""
        out.append(f"o prazo \"{desc}\"{named} é de exemplo — rules/{mun}/{file}; {where}")
    return out


def _days(texts: list[str], computed: CaseComputation | None, mun: str, where: str) -> list[str]:
    if computed is None:
        return []
    try:
        cal = computed.law_and_calendar()[1]
    except AutosError:
        return []
    days: dict[date, str] = {}
    for t in texts:
        if EXEMPLO_MARK not in t:
            continue
        for m in _DATE.finditer(t):
            try:
                day = date(int(m[3]), int(m[2]), int(m[1]))
                offs = cal.days_off(day)
            except (ValueError, AutosError):
                continue
            if offs and all(o.exemplo for o in offs):
                days[day] = offs[0].name
    return [f"o dia {ptbr.format_date_short(d)} ({nome}), que conta num prazo deste documento, é sem expediente só "
            f"como exemplo — rules/{mun}/calendario.yaml; {where}" for d, nome in sorted(days.items())]


def with_examples(ctx: dict[str, Any], examples: list[str]) -> dict[str, Any]:
    """``ctx`` marked MINUTA with each example on its face (among what is missing); unchanged without any."""
    if not examples:
        return ctx
    return {**ctx, "minuta": True, "exemplos": list(examples),
            "pendencias": [*ctx.get("pendencias", []), *(EXAMPLE_PREFIX + e for e in examples)]}
