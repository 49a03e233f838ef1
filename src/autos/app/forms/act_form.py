"""The form of a new act on an existing processo: the kinds the law provides (with the article), the fields of the
one chosen, its validation while the clerk types and its append to the processo file (no lost update)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autos.app.forms.processo_form import (
    UNREADABLE,
    Choice,
    DraftReport,
    FormField,
    FormInvalid,
    FormValues,
    Saved,
    _auto_year,
    _conflict,
    _field_for,
    _finding,
    _model_problems,
    _options,
    _read,
    _replace_if_unchanged,
    _walk,
    processo_text,
    validate_draft,
    values_of,
    values_to_data,
)
from autos.app.generation.pipeline import Autos
from autos.app.register.service import register_findings, reserve_number
from autos.base.yamlio import load_yaml
from autos.checks.finding import Finding
from autos.errors import AutosError, InputError, RecordError
from autos.processo.load import LoadedProcesso, parse_processo
from autos.processo.model import Ato
from autos.processo.paths import field_info, model_at
from autos.processo.text import PathKey, Slot, dotted, render_slots
from autos.store.processo_file import insert_act
from autos.store.register import Register, index_entry, sha256_of

__all__ = ["ActForm", "act_form", "append_act", "validate_act_draft"]


@dataclass(frozen=True)
class ActForm:
    """The form of the next act of a processo: the kinds the law provides (with the article) and, once one is
    chosen, its fields (``atos[N].…``, N = the number of acts already there)."""

    tipos: tuple[Choice, ...]
    indice: int
    tipo: str | None = None
    campos: tuple[FormField, ...] = ()
    referentes: tuple[tuple[str, str], ...] = ()  # (number, "auto nº 7/2026")

    def to_dict(self) -> dict[str, Any]:
        return {"tipos": [c.to_dict() for c in self.tipos], "indice": self.indice, "tipo": self.tipo,
                "campos": [f.to_dict() for f in self.campos], "referentes": [list(r) for r in self.referentes]}


def _expand(path: PathKey, comment: str, reasons: tuple[str, ...], depth: int = 0) -> list[FormField]:
    info = field_info(path)
    if info is None or depth > 3:
        return []
    name = dotted(path)
    if info.kind == "grupo":
        model = model_at(path)
        assert model is not None
        out = [FormField(name, info.label, comment or info.help, "grupo", exigido_por=reasons)]
        for sub in model.model_fields:
            out += _expand((*path, sub), "", (), depth + 1)
        return out
    if info.kind == "lista":
        model = model_at(path)
        if model is None:
            return []  # a list of ids (circumstances): written by hand
        out = [FormField(name, info.label, comment or info.help, "grupo", exigido_por=reasons)]
        for sub in model.model_fields:
            out += _expand((*path, 0, sub), "", (), depth + 1)
        return out
    return [FormField(name, info.label, comment or info.help, info.kind, _options(info), reasons)]


def act_form(autos: Autos, loaded: LoadedProcesso, tipo: str | None = None) -> ActForm:
    """The next act's form for the processo ``loaded``."""
    p = loaded.processo
    proc = autos.procedure_of(p.lei)
    if proc is None:
        raise InputError(f"lei '{p.lei}' sem regras de processo nesta pasta de regras.", file=loaded.file, path="lei")
    kinds = tuple(Choice(k, rule.nome, proc.cite(rule.citacao)) for k, rule in proc.atos.items() if not rule.inicial)
    n = len(p.atos)
    if not tipo:
        return ActForm(kinds, n)
    if tipo not in proc.atos:
        raise InputError(f"a lei {p.lei} não prevê o ato '{tipo}'.",
                         hint=f"tipos de ato válidos: {', '.join(sorted(proc.atos))}.")
    rule = proc.atos[tipo]
    base: PathKey = ("atos", n)
    fields = [FormField(dotted((*base, "tipo")), "Tipo do ato", f"{rule.nome} ({proc.cite(rule.citacao)})",
                        "escolha", ((tipo, rule.nome),), (), True, tipo)]
    required = {f.campo: proc.cite(f.citacao) for f in rule.campos}
    names = ["numero", *(["data"] if rule.forma not in ("ar", "edital") else []), "hora"]
    if rule.cita:
        names.append("referente")
    names += [f.campo for f in rule.campos] + list(rule.aceita) + ["observacoes"]
    refs = tuple((a.numero, f"{proc.atos[a.tipo].nome if a.tipo in proc.atos else a.tipo} nº {a.numero}")
                 for a in p.atos if a.numero and a.tipo in rule.cita)
    for name in dict.fromkeys(names):
        reasons = (f"{rule.nome}: exigido por {required[name]}",) if name in required else ()
        expanded = _expand((*base, name), "", reasons)
        if name == "referente" and expanded:
            f = expanded[0]
            expanded = [FormField(f.nome, f.rotulo, f"{f.ajuda} — {rule.nome} cita: "
                                  f"{', '.join(proc.atos[k].nome for k in rule.cita if k in proc.atos)}",
                                  "escolha" if refs else "texto", refs, f.exigido_por)]
        fields += expanded
    return ActForm(kinds, n, tipo, tuple(fields), refs)


def _act_data(values: FormValues, n: int) -> tuple[dict[str, Any], list[Finding]]:
    """The new act's values (only ``atos[n].…`` names are taken) as data."""
    prefix = f"atos[{n}]"
    own = {k: v for k, v in values.items() if k == prefix or k.startswith((prefix + ".", prefix + "["))}
    others = [k for k in values if k not in own and str(values[k]).strip()]
    data, found = values_to_data(own)
    found += [_finding(UNREADABLE, f"o campo '{k[:80]}' não é do ato novo (atos[{n}]); não é gravado.", None)
              for k in others]
    atos = data.get("atos") or []  # only atos[n] was taken: the list has that one act
    return (atos[0] if len(atos) == 1 and isinstance(atos[0], dict) else {}), found


def validate_act_draft(autos: Autos, file: Path, values: FormValues, *, campos: Sequence[str] = (),
                       register: Register | None = None) -> DraftReport:
    """The findings of the processo ``file`` with the new act of ``values`` appended (as :func:`validate_draft`)."""
    doc = load_yaml(file, InputError)
    data = doc.data if isinstance(doc.data, dict) else {}
    n = len(data.get("atos") or [])
    act, found = _act_data(values, n)
    merged = {**data, "atos": [*(data.get("atos") or []), act]}
    report = validate_draft(autos, values_of(merged), campos=campos, file=file, register=None)
    if register is not None:
        with contextlib.suppress(AutosError):
            report.achados += [(_field_for(f.caminho, list(campos)), f)
                               for f in register_findings(register, parse_processo(processo_text(merged), file))]
    report.achados[:0] = [(None, f) for f in found]
    report.legivel = report.legivel and not found
    return report


@dataclass(frozen=True)
class _ActText:
    """The new act as :func:`autos.store.processo_file.insert_act` appends it: its lines at the file's indent."""

    slots: tuple[Slot, ...]
    model: Ato
    comentario: str

    def lines(self, dash: int, key: int) -> list[str]:
        if key != dash + 2:
            raise InputError("a lista 'atos' do arquivo não usa dois espaços depois do '-'; o ato não pode ser "
                             "acrescentado sem reescrever o arquivo.", hint="acrescente o ato à mão.")
        text = render_slots((), self.slots, base=dash - 2)
        return [" " * dash + "# " + self.comentario, *text.rstrip("\n").split("\n")]

    def ato(self) -> Ato:
        return self.model


def append_act(autos: Autos, file: Path, base_sha: str, values: FormValues, *, base_text: str | None = None,
               register: Register | None = None, reservar: bool = False) -> Saved:
    """Append the act of ``values`` (``atos[N].…``) to the processo ``file`` as text — every other byte of the file
    stays as it was — only if the file still has ``base_sha`` (:class:`EditConflictError` with the diff
    otherwise). ``reservar``: a blank number is reserved from the register for this act."""
    raw = _read(file)
    if sha256_of(raw) != base_sha:
        raise _conflict(file, raw, base_text, base_sha)
    text = raw.decode("utf-8")
    loaded = parse_processo(text, file)
    n = len(loaded.processo.atos)
    act, found = _act_data(values, n)
    if found:
        raise FormInvalid(DraftReport([(f.caminho, f) for f in found], legivel=False), file)
    probs = _model_problems(act, Ato)
    if probs:
        rep = DraftReport([(dotted(("atos", n, *path)), _finding(UNREADABLE, message, dotted(("atos", n, *path)), hint))
                           for path, message, hint in probs], legivel=False)
        raise FormInvalid(rep, file)
    reserved: list[str] = []
    reservation = None
    proc = autos.procedure_of(loaded.processo.lei)
    if reservar and register is not None and proc is not None and not str(act.get("numero") or "").strip():
        year = _auto_year({"atos": [act]}, autos.today)
        reservation = reserve_number(register, proc, str(act.get("tipo")), year, processo=loaded.processo.numero,
                                     arquivo=file)
        act["numero"] = reservation.rotulo
        reserved.append(f"{reservation.tipo} nº {reservation.rotulo}")
    try:
        slots: list[Slot] = []
        _walk({"atos": [act]}, (), {}, slots)
        act_text = _ActText(tuple(s for s in slots if s.path != ("atos",)), Ato.model_validate(act),
                            "Ato acrescentado pelo formulário do autos.")
        try:
            new = insert_act(text, file, act_text).encode("utf-8")
        except RecordError as exc:  # its messages speak of the edital, which this is not
            raise InputError("o ato não pode ser acrescentado ao arquivo sem reescrevê-lo (a lista 'atos' está "
                             "escrita em linha ou com outra indentação); nada foi gravado.", file=file, path="atos",
                             line=exc.line, hint="use a edição do processo, que regrava o arquivo, ou acrescente "
                             "o ato no editor de texto.") from None
        _replace_if_unchanged(file, base_sha, base_text, new)
    except AutosError as exc:
        if reservation is not None and register is not None:
            register.cancel(reservation.lei, reservation.tipo, reservation.numero, reservation.ano,
                            f"a gravação do ato em {file} pelo formulário falhou: {exc.message}")
        raise
    after = parse_processo(new.decode("utf-8"), file)
    sha = sha256_of(new)
    if register is not None:
        register.index(index_entry(after, register.relative(file), sha))
    return Saved(file, sha, tuple(reserved), autos.check_processo(after).findings)
