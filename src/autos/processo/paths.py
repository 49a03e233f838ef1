"""What the processo model says about the field at a path: its model, its type as a form shows it, its choices.

A form and a spreadsheet are built from the schema: ``("atos", 0, "agente", "crmv")`` is ``Agente.crmv``, a
text; ``("atos", 0, "data")`` a date; ``("autuado", "tipo")`` a choice of ``pessoa_fisica``/``pessoa_juridica``.
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel

from autos.processo.fields import FIELD_DOCS, FIELD_LABELS
from autos.processo.model import Processo

__all__ = ["FieldInfo", "field_info", "model_at"]

#: text fields written as several lines
_LONG = {"fatos", "descricao", "fundamentacao", "observacoes", "certificacao_recusa", "qualificacao"}


@dataclass(frozen=True)
class FieldInfo:
    """The field at a path: ``Model.campo`` (the key of :data:`FIELD_DOCS`), its kind and its choices."""

    key: str
    kind: str  # texto, texto_longo, data, hora, sim_nao, escolha, decimal, inteiro, cpf, cnpj, grupo, lista
    choices: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return FIELD_LABELS.get(self.key, self.key.split(".", 1)[1].replace("_", " ").capitalize())

    @property
    def help(self) -> str:
        return FIELD_DOCS.get(self.key, "")


def _unwrap(tp: Any) -> tuple[Any, bool]:
    """The type without ``None`` and ``Annotated``; True when it is a list."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp, False
            tp = args[0]
        elif origin is list:
            inner, _ = _unwrap(typing.get_args(tp)[0])
            return inner, True
        else:
            return tp, False


def _kind(name: str, tp: Any, is_list: bool) -> tuple[str, tuple[str, ...]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return ("lista" if is_list else "grupo"), ()
    if is_list:
        return "lista", ()
    if typing.get_origin(tp) is Literal:
        return "escolha", tuple(str(a) for a in typing.get_args(tp))
    if tp is bool:
        return "sim_nao", ()
    if tp is date:
        return "data", ()
    if tp is time:
        return "hora", ()
    if tp is Decimal:
        return "decimal", ()
    if tp is int:
        return "inteiro", ()
    if name in ("cpf", "cnpj"):
        return name, ()
    return ("texto_longo" if name in _LONG else "texto"), ()


def field_info(path: tuple[str | int, ...]) -> FieldInfo | None:
    """The field at ``path`` in the processo file (list indexes skipped); None for a path the model lacks."""
    return _field_info(tuple(0 if isinstance(p, int) else p for p in path))


@functools.lru_cache(maxsize=4096)
def _field_info(path: tuple[str | int, ...]) -> FieldInfo | None:
    model: type[BaseModel] = Processo
    info: FieldInfo | None = None
    expect_index = False
    for part in path:
        if isinstance(part, int):
            if not expect_index:
                return None
            expect_index = False
            continue
        if info is not None and info.kind not in ("grupo", "lista"):
            return None
        f = model.model_fields.get(part)
        if f is None:
            return None
        tp, is_list = _unwrap(f.annotation)
        kind, choices = _kind(part, tp, is_list)
        info = FieldInfo(f"{model.__name__}.{part}", kind, choices)
        expect_index = is_list
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            model = tp
    return info


def model_at(path: tuple[str | int, ...]) -> type[BaseModel] | None:
    """The model of the mapping at ``path`` (``()``: the processo; ``("atos", 0)``: an act); None when the path
    is not a mapping of the model."""
    return _model_at(tuple(0 if isinstance(p, int) else p for p in path))


@functools.lru_cache(maxsize=1024)
def _model_at(path: tuple[str | int, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] = Processo
    for part in path:
        if isinstance(part, int):
            continue
        f = model.model_fields.get(part)
        if f is None:
            return None
        tp, _ = _unwrap(f.annotation)
        if not (isinstance(tp, type) and issubclass(tp, BaseModel)):
            return None
        model = tp
    return model
