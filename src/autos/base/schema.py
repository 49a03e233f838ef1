"""Strict conversion of parsed YAML into pydantic models, with Portuguese, line-precise errors.

Numbers are read by one pair of helpers, :data:`Amount` (Decimal) and :data:`Count` (int), used by
every model (case, rules, deadlines): they accept only plain decimal notation (``1234.56``: no
exponent, no ``nan``/``inf``, no thousands separator) and bound its size, so that no value typed in a
file can overflow a computation or make a document unwritable. A value with more decimals than the
field allows (a spreadsheet's ``1500.0000000000002``) is refused, never rounded.
"""

from __future__ import annotations

import difflib
import re
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, TypeVar, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ValidationError, WithJsonSchema

from autos.base.yamlio import PathKey, YamlDoc, format_path
from autos.errors import AutosError

M = TypeVar("M", bound=BaseModel)

#: most digits before the decimal point of an amount (up to 999.999.999.999)
MAX_INT_DIGITS = 12
#: most decimal places of an amount (fiscal-unit values are fixed with up to 4)
MAX_DECIMAL_PLACES = 4
#: largest whole number (periods, days, people, animals)
MAX_COUNT = 999_999

_PLAIN_DECIMAL = re.compile(r"[+-]?(\d+)(?:\.(\d+))?")
_PLAIN_INT = re.compile(r"[+-]?\d+")


def _typed_text(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise ValueError("deve ser um número escrito com algarismos (por exemplo 1234.56)")
    return str(value).strip()


def parse_amount(value: object) -> Decimal:
    """A Decimal from plain decimal notation with at most :data:`MAX_INT_DIGITS` digits before the
    point and :data:`MAX_DECIMAL_PLACES` after it; ValueError with a Portuguese message otherwise."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"'{value}' não é um número")
        value = format(value, "f")
    text = _typed_text(value)
    m = _PLAIN_DECIMAL.fullmatch(text)
    if m is None:
        shown = text if len(text) <= 40 else text[:40] + "…"
        if "," in text:
            raise ValueError(f"'{shown}' não é um número: use ponto para decimais e não separe os milhares "
                             "(por exemplo 1234.56)")
        raise ValueError(f"'{shown}' não é um número: escreva só algarismos, com ponto para decimais "
                         "(por exemplo 1234.56), sem expoente nem separador de milhares")
    whole, places = m.group(1).lstrip("0"), m.group(2) or ""
    if len(whole) > MAX_INT_DIGITS:
        raise ValueError(f"número grande demais ({len(whole)} algarismos antes do ponto; o máximo é "
                         f"{MAX_INT_DIGITS}); confira o valor")
    if len(places) > MAX_DECIMAL_PLACES:
        raise ValueError(f"'{text}' tem {len(places)} casas decimais; o campo aceita no máximo "
                         f"{MAX_DECIMAL_PLACES}. Escreva o valor como está no documento, entre aspas (por exemplo "
                         f"\"{m.group(1)}.{places[:2]}\"); um número com muitas casas costuma vir de planilha, que "
                         "guarda 1500 como 1500.0000000000002")
    return Decimal(text)


def parse_count(value: object) -> int:
    """A whole number from algarisms, at most :data:`MAX_COUNT`; ValueError in Portuguese otherwise."""
    text = _typed_text(value)
    if _PLAIN_INT.fullmatch(text) is None:
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise ValueError(f"'{shown}' não é um número inteiro: escreva só algarismos, sem ponto nem vírgula")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_COUNT)) or int(text) > MAX_COUNT:
        raise ValueError(f"número grande demais (o máximo aceito é {MAX_COUNT:_}); confira o valor"
                         .replace("_", "."))
    return int(text)


_AMOUNT_PATTERN = rf"^[+-]?\d{{1,{MAX_INT_DIGITS}}}(\.\d{{1,{MAX_DECIMAL_PLACES}}})?$"

#: a Decimal read by :func:`parse_amount` (constraints such as ``Field(gt=0)`` still apply)
Amount = Annotated[Decimal, BeforeValidator(parse_amount), WithJsonSchema({
    "anyOf": [{"type": "string", "pattern": _AMOUNT_PATTERN, "maxLength": MAX_INT_DIGITS + MAX_DECIMAL_PLACES + 2},
              {"type": "number", "maximum": 10 ** MAX_INT_DIGITS, "minimum": -(10 ** MAX_INT_DIGITS)}],
    "description": f"número com ponto decimal: até {MAX_INT_DIGITS} algarismos antes do ponto e "
                   f"{MAX_DECIMAL_PLACES} casas decimais, p. ex. \"1500\" ou \"12.5\"",
})]
#: a whole number read by :func:`parse_count`, at most :data:`MAX_COUNT`
Count = Annotated[int, BeforeValidator(parse_count), WithJsonSchema({
    "anyOf": [{"type": "integer", "maximum": MAX_COUNT, "minimum": -MAX_COUNT},
              {"type": "string", "pattern": r"^[+-]?\d{1,6}$"}],
    "description": f"número inteiro, até {MAX_COUNT}",
})]

#: the years of a date typed in a case or processo file: those a municipal calendar may cover (``anos`` of
#: ``calendario.yaml``), so that no deadline or prescription counted from it leaves the calendar (9999-12-31 + 5
#: years is no date at all)
FIRST_YEAR = 1900
LAST_YEAR = 2999


def no_items() -> list[Any]:
    """``[]``, the default of a model's list field (``Field(default_factory=no_items)``), as ``list`` gives it. A
    Python function, not the builtin: pydantic reads the signature of each default factory when it builds a model,
    and a builtin's is parsed from its text with :mod:`tokenize` (its first use compiles tokenize's patterns):
    ~15 M instructions of the start-up of every command that reads a case or a processo."""
    return []


def check_year(value: date) -> date:
    """``value`` if its year is from :data:`FIRST_YEAR` to :data:`LAST_YEAR`; ValueError in Portuguese otherwise."""
    if not FIRST_YEAR <= value.year <= LAST_YEAR:
        raise ValueError(f"data {value.isoformat()} fora dos anos aceitos ({FIRST_YEAR} a {LAST_YEAR}); confira o "
                         "ano digitado (uma data desconhecida fica em branco, nunca 9999-12-31)")
    return value


#: a date typed by the user (AAAA-MM-DD), with a year from :data:`FIRST_YEAR` to :data:`LAST_YEAR`
Day = Annotated[date, AfterValidator(check_year), WithJsonSchema({
    "type": "string", "format": "date", "pattern": r"^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}$",
    "description": f"data AAAA-MM-DD, ano de {FIRST_YEAR} a {LAST_YEAR}",
})]

#: Portuguese message of every pydantic error type a case or rules file can produce (the others, which
#: need Python objects that YAML cannot make, get :data:`_FALLBACK`); never pydantic's English text
_MESSAGES: dict[str, str] = {
    "string_type": "deve ser um texto.",
    "string_unicode": "deve ser um texto em Unicode (UTF-8).",
    "string_too_short": "não pode ficar vazio.",
    "string_too_long": "texto longo demais (no máximo {max_length} caracteres).",
    "string_pattern_mismatch": "formato inválido.",
    "int_parsing": "'{input}' não é um número inteiro.",
    "int_parsing_size": "número grande demais.",
    "int_type": "deve ser um número inteiro.",
    "int_from_float": "deve ser um número inteiro, sem casas decimais.",
    "float_type": "deve ser um número.",
    "float_parsing": "'{input}' não é um número (use ponto para decimais, por exemplo 1234.56).",
    "finite_number": "deve ser um número finito, escrito com algarismos.",
    "decimal_parsing": "'{input}' não é um número (use ponto para decimais, por exemplo 1234.56).",
    "decimal_type": "deve ser um número.",
    "decimal_max_digits": "número com algarismos demais (no máximo {max_digits}).",
    "decimal_max_places": "tem casas decimais demais (no máximo {decimal_places}).",
    "decimal_whole_digits": "número grande demais (no máximo {whole_digits} algarismos antes do ponto).",
    "multiple_of": "deve ser múltiplo de {multiple_of}.",
    "greater_than": "deve ser maior que {gt}.",
    "greater_than_equal": "deve ser maior ou igual a {ge}.",
    "less_than": "deve ser menor que {lt}.",
    "less_than_equal": "deve ser menor ou igual a {le}.",
    "bool_parsing": "'{input}' não é um valor lógico: use true ou false.",
    "bool_type": "use true ou false.",
    "date_parsing": "data inválida '{input}'; use o formato AAAA-MM-DD, por exemplo 2026-03-16.",
    "date_from_datetime_parsing": "data inválida '{input}'; use o formato AAAA-MM-DD, por exemplo 2026-03-16.",
    "date_from_datetime_inexact": "'{input}' tem data e hora; escreva só a data, no formato AAAA-MM-DD.",
    "date_type": "data inválida; use o formato AAAA-MM-DD.",
    "date_past": "a data deve estar no passado.",
    "date_future": "a data deve estar no futuro.",
    "datetime_type": "data e hora inválidas; use AAAA-MM-DD HH:MM.",
    "datetime_parsing": "data e hora inválidas '{input}'; use AAAA-MM-DD HH:MM.",
    "time_parsing": "hora inválida; use o formato HH:MM entre 00:00 e 23:59, por exemplo 14:30.",
    "time_type": "hora inválida; use o formato HH:MM.",
    "dict_type": "deve ser um mapa de campos (chave: valor).",
    "mapping_type": "deve ser um mapa de campos (chave: valor).",
    "model_type": "deve ser um mapa de campos (chave: valor).",
    "model_attributes_type": "deve ser um mapa de campos (chave: valor).",
    "list_type": "deve ser uma lista (itens começando com '- ').",
    "tuple_type": "deve ser uma lista (itens começando com '- ').",
    "set_type": "deve ser uma lista (itens começando com '- ').",
    "frozen_set_type": "deve ser uma lista (itens começando com '- ').",
    "too_short": "a lista não pode ficar vazia.",
    "too_long": "a lista tem itens demais (no máximo {max_length}).",
    "none_required": "este campo deve ficar vazio.",
    "enum": "valor inválido '{input}': use {expected}.",
    "union_tag_invalid": "tipo '{tag}' desconhecido; valores aceitos: {expected_tags}.",
    "union_tag_not_found": "falta o campo que diz o tipo ({discriminator}).",
    "recursion_loop": "estrutura recursiva (um alias que contém a si mesmo).",
    "is_instance_of": "valor de tipo inválido para este campo.",
}

#: for an error type not in :data:`_MESSAGES` (pydantic's English wording is never shown)
_FALLBACK = "valor inválido para este campo."

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
    if kind in ("value_error", "assertion_error"):
        msg = str(ctx.get("error", err["msg"]))
        return msg.removeprefix("Value error, ").removeprefix("Assertion failed, ").rstrip(".") + "."
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
        return _FALLBACK
    shown = err.get("input")
    if isinstance(shown, str) and len(shown) > 40:
        shown = shown[:40] + "…"
    try:
        return template.format(input=shown, **{k: str(v).replace(" or ", " ou ") for k, v in ctx.items()})
    except (KeyError, IndexError, ValueError):
        return re.sub(r"\s*'?\{[^}]*\}'?", "", template)


def problems(exc: ValidationError, raw: Any, model: type[BaseModel]) -> list[tuple[PathKey, str, str | None]]:
    """Every problem of ``exc`` (raised validating ``raw`` into ``model``) as ``(path, message, hint)``, with
    the Portuguese messages of :func:`build_model` (a form shows them all, beside each field)."""
    out: list[tuple[PathKey, str, str | None]] = []
    for err in exc.errors(include_url=False):
        path = _clean_loc(tuple(err["loc"]), raw)
        key = str(path[-1]) if path else "(raiz)"
        out.append((path, _message(err, key, model), _HINTS.get(err["type"])))
    return out


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
            more = len(errors) - 1
            message += f" (e mais {more} {'problema' if more == 1 else 'problemas'} no arquivo)"
        # a missing key has no line of its own: the line is its parent mapping's
        line = doc.line_of(path[:-1] if first["type"] == "missing" else path)
        raise error_cls(message, file=doc.file, path=format_path(path), line=line,
                        hint=_HINTS.get(first["type"])) from None
