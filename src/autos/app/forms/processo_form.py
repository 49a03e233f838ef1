"""The form of a new processo and of a new act, its validation while the clerk types, and its save — without the web.

* :func:`processo_form`: the law, then its infractions and the penalties they admit, each with its article, then
  the fields those choices need — built from :func:`autos.app.processo.new_processo.plan_new_processo` (the same
  source as ``autos novo``: the law's processo rules, the elements of the auto in the statute, the fine's formula) and
  the processo model (:mod:`autos.processo.paths`: type, label, help). :func:`act_form` does the same for the next
  act of an existing processo, from the act kind's rule (``campos`` required with the article, ``aceita``).
* :func:`validate_draft`: form values (``{"atos[0].agente.nome": "…"}``, the YAML path as the field's name) → the
  findings of ``autos validar`` (the same codes, messages and articles: the values are written as the processo
  file and checked by :meth:`Autos.check_processo`), each on the field of its YAML path, plus the problems that
  would make the file unreadable (a bad CPF, a date that is not a date…) with the loader's own messages.
* :func:`save_new_processo`, :func:`save_processo`, :func:`append_act`: the file the CLI reads, written by
  :mod:`autos.processo.text` (one key a line, comments, stable order), atomically; numbers reserved from the
  register; an existing file is replaced only if it still has the SHA-256 the form loaded
  (:class:`autos.errors.EditConflictError` with the unified diff otherwise: nothing is written).

Values are text as typed. The only change made to them: the line breaks a browser sends as CR LF become LF.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from pydantic import BaseModel, ValidationError

from autos.app.generation.pipeline import Autos
from autos.app.processo.new_processo import NewProcessoPlan, plan_new_processo
from autos.app.register.service import register_findings, reserve_number
from autos.base.schema import problems
from autos.base.yamlio import MAX_FILE_BYTES, load_yaml, read_limited
from autos.checks.finding import Finding
from autos.errors import AutosError, EditConflictError, InputError, OutputError, os_error_pt
from autos.processo.load import LoadedProcesso, parse_processo
from autos.processo.migrate import processo_file_name
from autos.processo.model import Processo
from autos.processo.paths import FieldInfo, field_info, model_at
from autos.processo.text import PathKey, Slot, dotted, parse_dotted, render_slots, yaml_scalar
from autos.rules.statute import RuleSet
from autos.store.files import write_new_atomic
from autos.store.register import Register, index_entry, sha256_of

__all__ = [
    "Choice", "DraftReport", "Editing", "FormField", "FormInvalid", "ProcessoForm", "Saved", "load_for_edit",
    "processo_form", "processo_text", "save_new_processo", "save_processo", "validate_draft", "values_of",
]

FormValues = Mapping[str, str]

#: code of a value the loader would refuse (the file would be unreadable: ``autos validar`` exits 2)
UNREADABLE = "CAMPO-INVALIDO"
#: most fields a form may send (a processo with many acts has a few hundred)
MAX_FIELDS = 2000
_MAX_INDEX = 199
_MAX_DEPTH = 10

_KIND_LABELS = {"pessoa_fisica": "pessoa física", "pessoa_juridica": "pessoa jurídica", "true": "sim",
                "false": "não", "gravissima": "gravíssima", "afixacao": "afixação"}


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------------------------------
# the form


@dataclass(frozen=True)
class Choice:
    """A law, an infraction, a penalty or an act kind offered on the form, with its article."""

    id: str
    rotulo: str
    citacao: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "rotulo": self.rotulo, "citacao": self.citacao}


@dataclass(frozen=True)
class FormField:
    """One input (or, ``grupo``, a heading over the inputs under it): its name is its path in the processo file."""

    nome: str  # dotted YAML path: the input's name and the key findings are matched on
    rotulo: str
    ajuda: str  # what to write and the article that asks for it (the comment ``autos novo`` writes)
    tipo: str  # texto, texto_longo, data, hora, sim_nao, escolha, decimal, inteiro, cpf, cnpj, grupo
    opcoes: tuple[tuple[str, str], ...] = ()  # (value, label)
    exigido_por: tuple[str, ...] = ()  # the elements/rules that require it, each with its article
    fixo: bool = False  # set by the choices above the fields (law, kind of act, infraction, penalty)
    valor: str = ""  # preset value

    @property
    def path(self) -> PathKey:
        parsed = parse_dotted(self.nome)
        assert parsed is not None
        return parsed

    @property
    def grupo(self) -> bool:
        return self.tipo == "grupo"

    @property
    def html_id(self) -> str:
        """``campo-atos-0-agente-nome``: stable, for the page and the browser tests."""
        return html_id(self.nome)

    @property
    def nivel(self) -> int:
        return sum(1 for p in self.path if isinstance(p, str)) - 1

    def to_dict(self) -> dict[str, Any]:
        return {"nome": self.nome, "id": self.html_id, "rotulo": self.rotulo, "ajuda": self.ajuda, "tipo": self.tipo,
                "opcoes": [list(o) for o in self.opcoes], "exigido_por": list(self.exigido_por), "fixo": self.fixo,
                "valor": self.valor}


def html_id(name: str) -> str:
    return "campo-" + re.sub(r"[^a-z0-9_]+", "-", name).strip("-")


def _options(info: FieldInfo, choices: Sequence[str] = ()) -> tuple[tuple[str, str], ...]:
    values = tuple(choices) or info.choices or (("true", "false") if info.kind == "sim_nao" else ())
    return tuple((v, _KIND_LABELS.get(v, v.replace("_", " "))) for v in values)


def _field_of_slot(s: Slot, fixed: bool) -> FormField | None:
    info = field_info(s.path)
    if info is None:
        return None
    name = dotted(s.path)
    kind = "escolha" if s.choices and info.kind in ("texto", "texto_longo") else info.kind
    is_group = kind in ("grupo", "lista")
    value = ""
    if s.value:
        parsed = parse_processo_scalar(s.value)
        value = parsed
    ajuda = s.comment.split(" — exigido")[0] if s.reasons else s.comment  # the reasons are shown apart
    return FormField(name, info.label, ajuda or info.help, "grupo" if is_group else kind,
                     _options(info, s.choices) if not is_group else (), s.reasons, fixed, value)


def parse_processo_scalar(text: str) -> str:
    """The text of a YAML scalar written by :func:`yaml_scalar` (a preset value of a slot)."""
    if text.startswith('"'):
        value = json.loads(text)
        assert isinstance(value, str)
        return value
    return text


@dataclass(frozen=True)
class ProcessoForm:
    """The new processo form: the choices (law → infractions → penalties) and the fields they need."""

    leis: tuple[Choice, ...]
    lei: str | None = None
    infracoes: tuple[Choice, ...] = ()  # those of the law
    penalidades: tuple[Choice, ...] = ()  # those the chosen infractions admit
    escolhidas: tuple[str, ...] = ()
    penalidades_escolhidas: tuple[str, ...] = ()
    juridica: bool = False
    campos: tuple[FormField, ...] = ()

    @property
    def completo(self) -> bool:
        """The choices are made: the fields are there."""
        return bool(self.campos)

    def campo(self, nome: str) -> FormField | None:
        return next((f for f in self.campos if f.nome == nome), None)

    def to_dict(self) -> dict[str, Any]:
        return {"leis": [c.to_dict() for c in self.leis], "lei": self.lei,
                "infracoes": [c.to_dict() for c in self.infracoes],
                "penalidades": [c.to_dict() for c in self.penalidades], "escolhidas": list(self.escolhidas),
                "penalidades_escolhidas": list(self.penalidades_escolhidas), "juridica": self.juridica,
                "campos": [f.to_dict() for f in self.campos]}


#: fields of a plan set by the choices (hidden on the form)
def _fixed(path: PathKey) -> bool:
    return (path in (("lei",), ("autuado", "tipo"), ("atos", 0, "tipo"))
            or (len(path) == 3 and path[0] == "infracoes" and path[2] == "regra")
            or (len(path) == 5 and path[:3] == ("atos", 0, "penalidades") and path[4] == "tipo"))


def law_choices(rules: RuleSet) -> tuple[Choice, ...]:
    return tuple(Choice(lei, f"{s.lei.municipio}/{s.lei.uf} — {s.lei.label}: {_one_line(s.lei.ementa)}")
                 for lei, s in sorted(rules.statutes.items()))


def processo_form(autos: Autos, lei: str | None = None, infracoes: Sequence[str] = (), juridica: bool = False,
                  penalidades: Sequence[str] | None = None) -> ProcessoForm:
    """The form of a new processo for the choices made so far (unknown ids: :class:`InputError` with the valid
    ones, as ``autos novo``)."""
    rules = autos.rules
    leis = law_choices(rules)
    if not lei:
        return ProcessoForm(leis)
    if lei not in rules.statutes:
        raise InputError(f"lei '{lei}' não encontrada nas regras.",
                         hint=f"Ids de lei válidos: {', '.join(sorted(rules.statutes))}.")
    statute = rules.statutes[lei]
    inf_choices = tuple(Choice(i, _one_line(x.descricao), statute.cite(x.citacao))
                        for i, x in statute.infracoes.items())
    if not infracoes:
        return ProcessoForm(leis, lei, inf_choices, juridica=juridica)
    plan = _plan(autos, lei, list(infracoes), juridica, list(penalidades) if penalidades is not None else None)
    admitted = sorted(set().union(*(statute.infracoes[i].penalidades for i in infracoes)))
    pen_choices = tuple(Choice(p, statute.penalidades[p].nome, statute.cite(statute.penalidades[p].citacao))
                        for p in admitted)
    fields = tuple(f for s in plan.slots if (f := _field_of_slot(s, _fixed(s.path))) is not None)
    return ProcessoForm(leis, lei, inf_choices, pen_choices, tuple(infracoes), plan.penalidades, juridica, fields)


def _plan(autos: Autos, lei: str, infracoes: list[str], juridica: bool, penalidades: list[str] | None,
          numero: str = "", numero_auto: str | None = None) -> NewProcessoPlan:
    return plan_new_processo(autos.rules, lei, infracoes, numero, juridica, numero_auto, penalidades,
                             origem="pelo formulário do autos", procedure=autos.procedure_of(lei))


# --------------------------------------------------------------------------------------------------
# values → data → text


def _finding(code: str, message: str, path: str | None, hint: str | None = None,
             severity: str = "erro", citation: str | None = None) -> Finding:
    return Finding(severity, code, message, citation, path, None, None, hint)  # type: ignore[arg-type]


def values_to_data(values: FormValues) -> tuple[dict[str, Any], list[Finding]]:
    """The nested data (dicts, lists, text) of the form values; blank values are left out. A name that is not the
    path of a field of the processo file is a finding (never written)."""
    if len(values) > MAX_FIELDS:
        raise InputError(f"o formulário tem campos demais ({len(values)}; o máximo é {MAX_FIELDS}).")
    root: dict[Any, Any] = {}
    found: list[Finding] = []
    for name, raw in values.items():
        text = str(raw).replace("\r\n", "\n")
        if not text.strip():
            continue
        path = parse_dotted(name)
        if (path is None or len(path) > _MAX_DEPTH or any(isinstance(p, int) and p > _MAX_INDEX for p in path)
                or field_info(path) is None):
            found.append(_finding(UNREADABLE, f"campo desconhecido '{name[:80]}'.", None,
                                  "o formulário enviou um campo que o arquivo de processo não tem."))
            continue
        node = root
        ok = True
        for part in path[:-1]:
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            if not isinstance(child, dict):
                ok = False
                break
            node = child
        if not ok or isinstance(node.get(path[-1]), dict):
            found.append(_finding(UNREADABLE, f"o campo '{name}' e um campo dentro dele foram preenchidos.",
                                  name, "preencha só os campos de dentro."))
            continue
        node[path[-1]] = text
    return _as_lists(root), found


def _as_lists(node: Any) -> Any:
    if isinstance(node, dict):
        if node and all(isinstance(k, int) for k in node):
            return [_as_lists(node[k]) for k in sorted(node)]
        return {k: _as_lists(v) for k, v in node.items()}
    return node


def _model_problems(data: dict[str, Any], model: type[BaseModel] = Processo) -> list[tuple[PathKey, str, str | None]]:
    try:
        model.model_validate(data)
    except ValidationError as exc:
        return problems(exc, data, model)
    return []


def _drop(data: Any, path: PathKey) -> bool:
    """Remove the value at ``path`` (a typed value the model refused) so the rest can be checked."""
    node = data
    for part in path[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    last = path[-1] if path else None
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node) and not isinstance(node[last], dict):
        node[last] = None
        return True
    return False


def readable_data(data: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """``data`` without the values the loader would refuse, and a finding for each (the loader's message, on the
    field): the rest can still be checked against the law. Nothing is dropped when a problem is not on a value
    (a missing key the model requires): the finding says so and the data is returned as is."""
    found: list[Finding] = []
    seen: set[PathKey] = set()
    for _ in range(8):
        current = _model_problems(data)
        if not current:
            break
        progress = False
        for path, message, hint in current:
            if path not in seen:
                seen.add(path)
                found.append(_finding(UNREADABLE, message, dotted(path) if path else None, hint))
            progress = _drop(data, path) or progress
        if not progress:
            break
    return data, found


def processo_text(data: Mapping[str, Any], plan: Sequence[Slot] = (), header: Sequence[str] = (),
                  blanks: bool = True) -> str:
    """The processo file of ``data``: keys in the model's order, each preceded by its comment from ``plan``; with
    ``blanks``, the keys of ``plan`` that ``data`` leaves blank are written blank (as ``autos novo`` does), so the
    clerk sees what is still missing (an existing file edited gets only the comments)."""
    tree: dict[Any, Any] = {}
    for s in plan if blanks else ():
        _put(tree, s.path, None, keep=True)
    _overlay(tree, data, ())
    comments = {s.path: s.comment for s in plan}
    slots: list[Slot] = []
    _walk(_as_lists(tree), (), comments, slots)
    return render_slots(header, slots)


def _put(tree: dict[Any, Any], path: PathKey, value: Any, keep: bool) -> None:
    node = tree
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    if not (keep and isinstance(node.get(path[-1]), dict)):
        node.setdefault(path[-1], value) if keep else node.__setitem__(path[-1], value)


def _overlay(tree: dict[Any, Any], data: Any, path: PathKey) -> None:
    if isinstance(data, dict):
        for k, v in data.items():
            _overlay_child(tree, k, v, path)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _overlay_child(tree, i, v, path)


def _overlay_child(tree: dict[Any, Any], key: Any, value: Any, path: PathKey) -> None:
    node = tree
    for part in path:
        node = node.setdefault(part, {})
    if isinstance(value, dict | list):
        if not isinstance(node.get(key), dict):
            node[key] = {}
        if not value:
            return
        _overlay(tree, value, (*path, key))
    else:
        node[key] = value


def _walk(node: Any, path: PathKey, comments: Mapping[PathKey, str], out: list[Slot]) -> None:
    model = model_at(path)
    order = list(model.model_fields) if model is not None else []
    keys = sorted(node, key=lambda k: (order.index(k) if k in order else len(order)))
    for k in keys:
        child = node[k]
        p = (*path, k)
        comment = comments.get(p, "")
        if isinstance(child, dict):
            out.append(Slot(p, comment))
            _walk(child, p, comments, out)
        elif isinstance(child, list):
            out.append(Slot(p, comment))
            for i, item in enumerate(child):
                if isinstance(item, dict):
                    _walk(item, (*p, i), comments, out)
                elif item is not None:
                    out.append(Slot((*p, i), "", yaml_scalar(str(item))))
        else:
            info = field_info(p)
            text = "" if child is None else yaml_scalar(str(child), info.kind if info else "texto")
            out.append(Slot(p, comment, text))


# --------------------------------------------------------------------------------------------------
# validation while the clerk types


@dataclass
class DraftReport:
    """The findings of a draft, each on the form field of its path (``campo``; None: about the whole processo)."""

    achados: list[tuple[str | None, Finding]]
    legivel: bool  # no value the loader would refuse

    @property
    def erros(self) -> list[Finding]:
        return [f for _, f in self.achados if f.severidade == "erro"]

    @property
    def valido(self) -> bool:
        return self.legivel and not self.erros

    def por_campo(self) -> dict[str | None, list[Finding]]:
        out: dict[str | None, list[Finding]] = {}
        for name, f in self.achados:
            out.setdefault(name, []).append(f)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"valido": self.valido, "legivel": self.legivel,
                "achados": [{"campo": name, "id": html_id(name) if name else None, "severidade": f.severidade,
                             "codigo": f.codigo, "mensagem": f.mensagem, "citacao": f.citacao,
                             "caminho": f.caminho, "dica": f.dica} for name, f in self.achados]}


def _field_for(path: str | None, names: Sequence[str]) -> str | None:
    """The form field a finding at ``path`` concerns: the field of that path, else the first field inside it,
    else the nearest field (or group) that holds it; None when the form has none of them."""
    if not path:
        return None
    if path in names:
        return path
    inside = next((n for n in names if n.startswith((path + ".", path + "["))), None)
    if inside is not None:
        return inside
    parsed = parse_dotted(path)
    while parsed:
        parsed = parsed[:-1]
        if parsed and dotted(parsed) in names:
            return dotted(parsed)
    return None


def validate_draft(autos: Autos, values: FormValues, *, campos: Sequence[str] = (), file: Path | None = None,
                   register: Register | None = None) -> DraftReport:
    """The findings ``autos validar`` would give for the processo file these values make, each on its field
    (``campos``: the names of the form's fields, in order), plus what would make the file unreadable."""
    data, found = values_to_data(values)
    data, unreadable = readable_data(data)
    found += unreadable
    if unreadable and not str(data.get("numero") or "").strip():
        data["numero"] = "(sem número)"  # only for this check: its absence is a finding already; the rest is checked
    target = file or Path("formulario.yaml")
    report: list[Finding] = list(found)
    if not _model_problems(data):
        try:
            loaded = parse_processo(processo_text(data), target)
            report += autos.check_processo(loaded).findings
            if register is not None and file is not None:
                report += register_findings(register, loaded)
        except AutosError as exc:
            report.append(_finding(UNREADABLE, exc.message, exc.path, exc.hint))
            found.append(report[-1])
    names = list(campos) or [dotted(p) for p in _leaf_paths(data)]
    return DraftReport([(_field_for(f.caminho, names), f) for f in report], legivel=not found)


def _leaf_paths(node: Any, path: PathKey = ()) -> Iterator[PathKey]:
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        p = (*path, k)
        if isinstance(v, dict | list):
            yield p
            yield from _leaf_paths(v, p)
        else:
            yield p


# --------------------------------------------------------------------------------------------------
# saving


class FormInvalid(InputError):
    """The form has values the loader would refuse: nothing is saved. ``report`` has every one, on its field."""

    def __init__(self, report: DraftReport, file: Path | None = None) -> None:
        self.report = report
        bad = [(name, f) for name, f in report.achados if f.codigo == UNREADABLE]
        name, first = bad[0] if bad else (None, None)
        more = len(bad) - 1
        message = (first.mensagem if first else "o formulário tem valores inválidos.") + (
            f" (e mais {more} {'problema' if more == 1 else 'problemas'} no formulário)" if more > 0 else "")
        super().__init__(f"nada foi gravado: {message}", file=file, path=(first.caminho if first else None) or name,
                         hint=first.dica if first else None)


@dataclass(frozen=True)
class Saved:
    """A processo file written by the form: where, its SHA-256 (the next edit carries it), the numbers reserved
    and the findings of the file as written (``autos validar``)."""

    arquivo: Path
    sha256: str
    reservados: tuple[str, ...]
    achados: list[Finding]


_SAVE_LOCK = threading.Lock()


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One save at a time in a folder (threads of one server and servers on the same disk)."""
    lock = FileLock(str(folder / ".autos-gravacao.lock"), timeout=30)
    with _SAVE_LOCK:
        try:
            with lock:
                yield
        except Timeout:
            raise OutputError("outra gravação nesta pasta não terminou em 30 segundos; nada foi gravado.",
                              file=folder, hint="tente de novo em instantes.") from None


def _checked_data(values: FormValues, file: Path | None) -> dict[str, Any]:
    data, found = values_to_data(values)
    data, unreadable = readable_data(data)
    found += unreadable
    if found:
        raise FormInvalid(DraftReport([(f.caminho, f) for f in found], legivel=False), file)
    return data


def _auto_year(data: Mapping[str, Any], today: date) -> int:
    with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
        return date.fromisoformat(str(data["atos"][0]["data"])).year
    return today.year


def _plan_for(autos: Autos, data: Mapping[str, Any]) -> tuple[NewProcessoPlan | None, str]:
    """The plan of these values' choices (for the comments), if its law and infractions are known."""
    try:
        lei = str(data["lei"])
        infracoes = [str(i["regra"]) for i in data.get("infracoes") or [] if isinstance(i, dict) and "regra" in i]
        pens = [str(p["tipo"]) for p in (data["atos"][0].get("penalidades") or []) if isinstance(p, dict)]
        juridica = data.get("autuado", {}).get("tipo") == "pessoa_juridica"
        if not infracoes:
            return None, lei
        return _plan(autos, lei, infracoes, juridica, pens), lei
    except (AutosError, KeyError, IndexError, TypeError, AttributeError):
        return None, str(data.get("lei", ""))


def _text_of(autos: Autos, data: Mapping[str, Any], target: Path, blanks: bool = True) -> tuple[str, LoadedProcesso]:
    plan, _ = _plan_for(autos, data)
    header = plan.header if plan is not None else ("Processo administrativo gravado pelo formulário do autos.",)
    text = processo_text(data, plan.slots if plan is not None else (), header, blanks)
    loaded = parse_processo(text, target)  # what is written reads back as a processo (raises otherwise)
    return text, loaded


def save_new_processo(autos: Autos, values: FormValues, folder: Path, register: Register | None = None) -> Saved:
    """Write the new processo of ``values`` in ``folder`` (``<municipio>/<numero>.yaml``), never over an existing
    file. With a register, the auto's number (left blank) is reserved for it and the file is indexed; a file that
    cannot be written cancels its reservation, with the reason."""
    data = _checked_data(values, None)
    lei, numero = str(data.get("lei", "")), str(data.get("numero", "")).strip()
    procedure = autos.procedure_of(lei)
    if procedure is None:
        raise InputError(f"lei '{lei}' sem regras de processo nesta pasta de regras.", path="lei")
    target = folder / processo_file_name(lei, numero)
    if target.exists():
        raise OutputError(f"já existe um processo gravado neste arquivo (processo {numero}); nada foi gravado.",
                          file=target, hint="confira o número do processo ou abra o existente para editá-lo.")
    if register is not None:
        for arquivo in register.processo_files(lei, numero):
            if register.absolute(arquivo).exists():
                raise OutputError(f"o processo {numero} ({lei}) já está no registro em outro arquivo: "
                                  f"{register.absolute(arquivo)}; nada foi gravado.", file=target,
                                  hint="confira o número do processo ou abra o existente para editá-lo.")
    reserved: list[str] = []
    auto = data["atos"][0]
    reservation = None
    if register is not None and not str(auto.get("numero") or "").strip():
        kind = procedure.initial_kind()
        reservation = reserve_number(register, procedure, kind, _auto_year(data, autos.today), processo=numero,
                                     arquivo=target)
        auto["numero"] = reservation.rotulo
        reserved.append(f"{kind} nº {reservation.rotulo}")
    try:
        text, loaded = _text_of(autos, data, target)
        raw = text.encode("utf-8")
        with _folder_lock(folder):
            if not write_new_atomic(target, raw):
                raise OutputError("o arquivo foi criado por outra pessoa enquanto este era gravado; nada foi "
                                  "gravado.", file=target, hint="abra o processo existente e confira.")
    except AutosError as exc:
        if reservation is not None and register is not None:
            register.cancel(lei, reservation.tipo, reservation.numero, reservation.ano,
                            f"a gravação de {target} pelo formulário falhou: {exc.message}")
        raise
    sha = sha256_of(raw)
    if register is not None:
        register.index(index_entry(loaded, register.relative(target), sha))
    return Saved(target, sha, tuple(reserved), autos.check_processo(loaded).findings)


# --------------------------------------------------------------------------------------------------
# editing: the SHA-256 as loaded, no lost update


@dataclass(frozen=True)
class Editing:
    """A processo file as a form loads it: its text, its SHA-256 and the values of its fields."""

    arquivo: Path
    sha256: str
    texto: str
    valores: dict[str, str]


def values_of(data: Any, path: PathKey = ()) -> dict[str, str]:
    """The form values (dotted path → text as written) of a processo's YAML data."""
    out: dict[str, str] = {}
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        p = (*path, k)
        if isinstance(v, dict | list):
            out.update(values_of(v, p))
        elif v is not None:
            out[dotted(p)] = v if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)
    return out


def _read(file: Path) -> bytes:
    return read_limited(file, InputError)


def load_for_edit(file: Path) -> Editing:
    """Read a processo for a form: what the form carries back on save (``sha256``, ``texto``) and its values."""
    raw = _read(file)
    doc = load_yaml(file, InputError)
    if not isinstance(doc.data, dict) or "atos" not in doc.data:
        raise InputError("não é um arquivo de processo: falta a lista 'atos'.", file=file)
    text = raw.decode("utf-8", errors="replace")
    return Editing(file, sha256_of(raw), text, values_of(doc.data))


def _conflict(file: Path, current: bytes, base_text: str | None, base_sha: str) -> EditConflictError:
    diff = ""
    if base_text is not None and hashlib.sha256(base_text.encode("utf-8")).hexdigest() == base_sha:
        now = current.decode("utf-8", errors="replace")
        diff = "".join(difflib.unified_diff(base_text.splitlines(keepends=True), now.splitlines(keepends=True),
                                            fromfile=f"{file.name} (como foi aberto)",
                                            tofile=f"{file.name} (como está agora)"))
    return EditConflictError(
        "o processo foi alterado por outra pessoa depois que você o abriu; nada foi gravado.", diff=diff,
        file=file, hint="confira as diferenças, abra o processo de novo e refaça a sua alteração sobre a versão atual.")


def _replace_if_unchanged(file: Path, base_sha: str, base_text: str | None, new: bytes) -> None:
    """Replace ``file`` with ``new`` only if it still has ``base_sha`` (checked under the folder's lock, right
    before the rename)."""
    with _folder_lock(file.parent):
        try:
            current = file.read_bytes() if file.stat().st_size <= MAX_FILE_BYTES else b""
        except OSError as exc:
            raise InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=file) from None
        if sha256_of(current) != base_sha:
            raise _conflict(file, current, base_text, base_sha)
        tmp = file.with_name(f".{file.name}.form.tmp")
        try:
            mode = file.stat().st_mode & 0o7777
            with open(tmp, "wb") as fh:
                fh.write(new)
                fh.flush()
                os.fsync(fh.fileno())
                os.chmod(tmp, mode)
            os.replace(tmp, file)
        except OSError as exc:
            raise OutputError(f"não foi possível gravar o arquivo ({os_error_pt(exc)}); nada foi alterado.",
                              file=file, hint="verifique o espaço em disco e a permissão de escrita.") from None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()


def save_processo(autos: Autos, values: FormValues, file: Path, base_sha: str, *, base_text: str | None = None,
                  register: Register | None = None) -> Saved:
    """Write ``values`` over the processo ``file`` as the form's canonical text (keys in the model's order, the
    comments of its choices; a comment written by hand is not kept) — only if the file still has ``base_sha``,
    the SHA-256 the form loaded; otherwise :class:`EditConflictError` with the diff, nothing written."""
    data = _checked_data(values, file)
    text, loaded = _text_of(autos, data, file, blanks=False)
    raw = text.encode("utf-8")
    _replace_if_unchanged(file, base_sha, base_text, raw)
    sha = sha256_of(raw)
    if register is not None:
        register.index(index_entry(loaded, register.relative(file), sha))
    return Saved(file, sha, (), autos.check_processo(loaded).findings)
