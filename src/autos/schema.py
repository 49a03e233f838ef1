"""Strict conversion of parsed YAML into pydantic models, with Portuguese, line-precise errors."""

from __future__ import annotations

import difflib
from typing import Any, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from .errors import AutosError
from .yamlio import PathKey, YamlDoc, format_path

M = TypeVar("M", bound=BaseModel)

_MESSAGES: dict[str, str] = {
    "string_type": "deve ser um texto.",
    "string_too_short": "não pode ficar vazio.",
    "int_parsing": "'{input}' não é um número inteiro.",
    "int_type": "deve ser um número inteiro.",
    "int_from_float": "deve ser um número inteiro, sem casas decimais.",
    "decimal_parsing": "'{input}' não é um número (use ponto para decimais, por exemplo 1234.56).",
    "decimal_type": "deve ser um número.",
    "bool_parsing": "'{input}' não é um valor lógico: use true ou false.",
    "bool_type": "use true ou false.",
    "date_parsing": "data inválida '{input}'; use o formato AAAA-MM-DD, por exemplo 2026-03-16.",
    "date_from_datetime_parsing": "data inválida '{input}'; use o formato AAAA-MM-DD, por exemplo 2026-03-16.",
    "date_type": "data inválida; use o formato AAAA-MM-DD.",
    "time_parsing": "hora inválida; use o formato HH:MM entre 00:00 e 23:59, por exemplo 14:30.",
    "time_type": "hora inválida; use o formato HH:MM.",
    "dict_type": "deve ser um mapa de campos (chave: valor).",
    "model_type": "deve ser um mapa de campos (chave: valor).",
    "model_attributes_type": "deve ser um mapa de campos (chave: valor).",
    "list_type": "deve ser uma lista (itens começando com '- ').",
    "too_short": "a lista não pode ficar vazia.",
    "greater_than": "deve ser maior que {gt}.",
    "greater_than_equal": "deve ser maior ou igual a {ge}.",
    "less_than_equal": "deve ser menor ou igual a {le}.",
    "decimal_max_places": "tem casas decimais demais (no máximo {decimal_places}).",
    "string_pattern_mismatch": "formato inválido.",
    "union_tag_invalid": "tipo '{tag}' desconhecido; valores aceitos: {expected_tags}.",
    "union_tag_not_found": "falta o campo que diz o tipo ({discriminator}).",
}

_HINTS = {
    "missing": "acrescente o campo.",
    "extra_forbidden": "confira a grafia do nome do campo (veja `autos schema`) ou remova-o.",
    "literal_error": "use exatamente um dos valores indicados.",
}


def _clean_loc(loc: tuple[Any, ...], data: Any) -> PathKey:
    """Drop pydantic's union/function markers from ``loc`` so it matches the YAML path."""
    out: list[str | int] = []
    node = data
    for part in loc:
        in_dict = isinstance(node, dict) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not part.startswith(("function-", "tagged")):
            # a key that is absent (missing field) or unknown: keep it, stop descending
            if "[" not in part and "-" not in part[:1]:
                out.append(part)
            node = None
        # otherwise: a union member label (e.g. 'pessoa_fisica'); skip it
    return tuple(out)


def _field_names(model: type[BaseModel], seen: set[type[BaseModel]] | None = None) -> set[str]:
    """Every field name of ``model`` and of the models nested in it (for "did you mean" hints)."""
    seen = set() if seen is None else seen
    if model in seen:
        return set()
    seen.add(model)
    names = set(model.model_fields)
    stack: list[Any] = [f.annotation for f in model.model_fields.values()]
    while stack:
        tp = stack.pop()
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            names |= _field_names(tp, seen)
        else:
            stack.extend(get_args(tp))
    return names


def _message(err: Any, key: str, model: type[BaseModel]) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "value_error":
        msg = str(ctx.get("error", err["msg"]))
        return msg.removeprefix("Value error, ").rstrip(".") + "."
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace(" or ", " ou ")
        return f"valor inválido '{err.get('input')}': use {expected}."
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(key, sorted(_field_names(model)), n=1)
        return f"campo desconhecido '{key}'." + (f" Seria '{close[0]}'?" if close else "")
    if kind == "missing":
        return f"falta o campo obrigatório '{key}'."
    template = _MESSAGES.get(kind)
    if template is None:
        return f"valor inválido ({err['msg']})."
    try:
        return template.format(input=err.get("input"), **ctx)
    except (KeyError, IndexError):
        return template


def build_model(model: type[M], doc: YamlDoc, error_cls: type[AutosError], data: Any = None) -> M:
    """Validate ``doc.data`` (or ``data``) into ``model``; the first problem becomes ``error_cls``
    with a Portuguese message naming the file, the YAML path and the line."""
    raw = doc.data if data is None else data
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        # a misspelled key shows up as "unknown key" plus "missing key": report the unknown one first
        errors.sort(key=lambda e: 0 if e["type"] == "extra_forbidden" else 1)
        first = errors[0]
        path = _clean_loc(tuple(first["loc"]), raw)
        key = str(path[-1]) if path else "(raiz)"
        message = _message(first, key, model)
        if len(errors) > 1:
            message += f" (e mais {len(errors) - 1} problema(s) no arquivo)"
        # a missing key has no line of its own: the line is its parent mapping's
        line = doc.line_of(path[:-1] if first["type"] == "missing" else path)
        raise error_cls(message, file=doc.file, path=format_path(path), line=line,
                        hint=_HINTS.get(first["type"])) from None


def case_json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of the case file, for editors (YAML language server)."""
    from .case import Case

    schema = Case.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Caso do autos (auto de infração, notificação, edital)"
    return schema
