"""Dotted paths on a model (``autuado.responsavel_legal.nome``), as the rules name the fields of a case."""

from __future__ import annotations

from typing import Any


def resolve(obj: Any, dotted: str) -> Any:
    """Value of a dotted path on the case model (``autuado.responsavel_legal.nome``); None if absent."""
    cur = obj
    for part in dotted.split("."):
        if cur is None:
            return None
        cur = getattr(cur, part, None)
    return cur
