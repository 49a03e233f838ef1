"""The processos as the web application shows them, usable without it: the list (the data of ``autos
pendencias``, filtered), one processo for its legal review (findings of ``autos validar``, memo of ``autos
multa``, deadlines of ``autos prazos``, the reviews recorded) and recording a review.

A processo is named by its file's path relative to the processos folder (``timoteo-mg/sim-2026-000171.yaml``);
:func:`resolve_processo` refuses any name that leaves the folder or is not a YAML file there."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any

from autos.app.generation.pipeline import Autos
from autos.app.processo.service import PendingReport, PendingRow
from autos.base.yamlio import iter_yaml_files, load_yaml
from autos.checks.processo import ProcessoFine, ProcessoReport
from autos.compute.timeline import URGENCY_ORDER, Timeline
from autos.errors import AutosError, InputError, NotFoundError
from autos.processo.load import from_doc, is_processo_data
from autos.store.register import Register, ReviewRecord

__all__ = [
    "NOTHING_DUE", "REVIEW_KINDS", "ProcessoList", "ProcessoRef", "ProcessoReview", "ProcessoRow", "ReviewFilters",
    "processo_list", "processo_ref", "processo_review", "record_review", "relative_name", "resolve_processo",
    "visible_files",
]

_SUFFIXES = (".yaml", ".yml")
#: "de acordo" or a parecer (text)
REVIEW_KINDS = ("de_acordo", "parecer")
_MAX_REVIEW = 20_000
#: the urgency of a processo with nothing due and no error (closed, or waiting for nobody)
NOTHING_DUE = "nada pendente"  # characters of a parecer (as any text field of a processo)


@dataclass(frozen=True)
class ProcessoRef:
    """What the permission rules read of a processo: its file, law, number and the matrícula of its auto's agent."""

    file: Path
    arquivo: str  # relative to the processos folder, '/' separators
    lei: str
    numero: str | None
    agente_matricula: str | None


def resolve_processo(folder: Path, arquivo: str) -> Path:
    """The file ``arquivo`` (relative, '/' separators) inside ``folder``; :class:`NotFoundError` when it leaves the
    folder (``..``, an absolute path, a symlink pointing out), is not ``.yaml``/``.yml`` or does not exist."""
    pure = PurePosixPath(arquivo)
    if (not arquivo or pure.is_absolute() or ".." in pure.parts or "\\" in arquivo or "\x00" in arquivo
            or pure.suffix.lower() not in _SUFFIXES):
        raise NotFoundError(f"processo não encontrado: '{arquivo}'.", hint="volte à lista de processos.")
    root = os.path.realpath(folder)
    real = os.path.realpath(os.path.join(root, *pure.parts))
    if os.path.commonpath([real, root]) != root or not os.path.isfile(real):
        raise NotFoundError(f"processo não encontrado: '{arquivo}'.", hint="volte à lista de processos.")
    return Path(root, *pure.parts)


def relative_name(folder: Path, file: Path) -> str:
    """``file``'s name relative to the processos folder, as the URLs and the register's reviews use it."""
    return Path(os.path.relpath(os.path.realpath(file), os.path.realpath(folder))).as_posix()


def _text(value: Any) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) else None


def processo_ref(autos: Autos, folder: Path, arquivo: str) -> ProcessoRef:
    """The reference of a processo file, read leniently (a processo with errors still has a law and an agent):
    the law, the number and the matrícula of the agent of its first act of the law's initial kind (the auto),
    else of its first act. A file that is not a readable processo is :class:`NotFoundError`."""
    file = resolve_processo(folder, arquivo)
    try:
        data = load_yaml(file).data
    except AutosError:
        data = None
    if not is_processo_data(data) or not isinstance(data.get("lei"), str):
        raise NotFoundError(f"'{arquivo}' não é um arquivo de processo legível (com lei e atos).",
                            hint="confira o arquivo com autos validar.")
    lei = str(data["lei"])
    atos = [a for a in data.get("atos") or [] if isinstance(a, dict)]
    initial = "auto"
    try:
        proc = autos.procedure_of(lei)
        if proc is not None:
            initial = proc.initial_kind()
    except AutosError:
        pass
    first = next((a for a in atos if a.get("tipo") == initial), atos[0] if atos else None)
    agente = first.get("agente") if first is not None else None
    matricula = _text(agente.get("matricula")) if isinstance(agente, dict) else None
    return ProcessoRef(file, relative_name(folder, file), lei, _text(data.get("numero")), matricula)


def visible_files(autos: Autos, folder: Path, visible: Callable[[ProcessoRef], bool]) -> list[Path]:
    """The processo files of ``folder`` for which ``visible`` is true (files that are not processos are left out)."""
    out = []
    for file in iter_yaml_files(folder):
        try:
            ref = processo_ref(autos, folder, relative_name(folder, file))
        except NotFoundError:
            continue
        if visible(ref):
            out.append(file)
    return out


# --------------------------------------------------------------------------------------------------
# the list


@dataclass(frozen=True)
class ReviewFilters:
    """The list's search and filters (each optional): text in the number, autuado, agent or file; law; agent (part
    of the name); situation (part of it, or an urgency: vencido, hoje, esta semana, depois, sem prazo, com erros);
    due on or before a date."""

    busca: str = ""
    lei: str = ""
    agente: str = ""
    situacao: str = ""
    vence_ate: date | None = None

    @classmethod
    def parse(cls, params: dict[str, str]) -> ReviewFilters:
        """From a query string; a due date that is not AAAA-MM-DD is an :class:`InputError` (400)."""
        raw = (params.get("vence_ate") or "").strip()
        try:
            due = date.fromisoformat(raw) if raw else None
        except ValueError:
            raise InputError(f"data inválida no filtro 'vence até': '{raw[:40]}'.", path="vence_ate",
                             hint="escreva a data como AAAA-MM-DD (o campo de data do navegador já o faz).") from None
        def text(key: str) -> str:
            return " ".join((params.get(key) or "").split())[:200]

        return cls(busca=text("busca"), lei=text("lei"), agente=text("agente"), situacao=text("situacao"),
                   vence_ate=due)


@dataclass(frozen=True)
class ProcessoRow:
    """One line of the list: a processo, its most urgent pending item (None: nothing due), and its file name."""

    timeline: Timeline
    arquivo: str
    urgencia: str
    vence: date | None
    acao: str | None
    quem: str | None
    base_legal: str | None
    erros: int


@dataclass
class ProcessoList:
    hoje: date
    rows: list[ProcessoRow] = field(default_factory=list)
    falhas: list[AutosError] = field(default_factory=list)
    leis: list[str] = field(default_factory=list)  # the laws of the processos visible (for the filter's choices)
    total: int = 0  # processos the user may see, before the filters


def _row(folder: Path, r: PendingRow) -> ProcessoRow:
    t, x = r.timeline, r.pendencia
    return ProcessoRow(t, relative_name(folder, t.file), x.urgencia if x else "com erros", x.vence if x else None,
                       x.acao if x else None, x.quem if x else None, x.base_legal if x else None,
                       sum(1 for f in t.achados if f.severidade == "erro"))


def _matches(row: ProcessoRow, f: ReviewFilters) -> bool:
    t = row.timeline
    if f.busca:
        hay = " ".join(x or "" for x in (t.numero, t.autuado, t.agente, row.arquivo, t.situacao)).casefold()
        if f.busca.casefold() not in hay:
            return False
    if f.situacao:
        s = f.situacao.casefold()
        if s != row.urgencia and s not in t.situacao.casefold():
            return False
    return f.vence_ate is None or (row.vence is not None and row.vence <= f.vence_ate)


def processo_list(autos: Autos, folder: Path, hoje: date, filters: ReviewFilters,
                  visible: Callable[[Timeline], bool]) -> ProcessoList:
    """The processos of ``folder`` the user may see (``visible``), one row per processo with its most urgent
    pending item, most urgent first — :meth:`Autos.pending` (``autos pendencias``), filtered. Files that cannot
    be read are listed apart (``falhas``), only for users who see every processo of their law (the caller
    decides by passing them on)."""
    report: PendingReport = autos.pending([folder], hoje, lei=filters.lei or None, agente=filters.agente or None)
    out = ProcessoList(hoje, falhas=list(report.falhas))
    first: dict[Path, PendingRow] = {}
    for r in report.rows:  # sorted by urgency: the first row of a processo is its most urgent
        first.setdefault(r.timeline.file, r)
    laws: set[str] = set()
    for t in report.timelines:
        if not visible(t):
            continue
        out.total += 1
        laws.add(t.lei)
        pending = first.get(t.file)
        row = (_row(folder, pending) if pending is not None
               else ProcessoRow(t, relative_name(folder, t.file), NOTHING_DUE, None, None, None, None, 0))
        if _matches(row, filters):
            out.rows.append(row)
    out.rows.sort(key=lambda x: (URGENCY_ORDER.get(x.urgencia, len(URGENCY_ORDER)), x.vence or date.max,
                                 x.timeline.numero))
    out.leis = sorted(laws)
    return out


# --------------------------------------------------------------------------------------------------
# one processo, for its legal review


@dataclass
class ProcessoReview:
    """What the processo page shows: the report of ``autos validar`` (timeline, each act's findings with the
    article), the fine of ``autos multa`` (or why it cannot be computed), the reviews and audit trail."""

    ref: ProcessoRef
    report: ProcessoReport
    fine: ProcessoFine | None
    fine_error: str | None
    reviews: list[ReviewRecord]
    audit: list[Any]

    @property
    def timeline(self) -> Timeline | None:
        return self.report.timeline

    def findings_of_act(self, ato: int) -> list[Any]:
        """The findings of act ``ato`` (1-based): of its document, and the timeline's that point at it."""
        prefix = f"atos[{ato - 1}]"
        out = [f for a in self.report.atos if a.ato == ato for f in a.achados]
        in_acts = {id(g) for a in self.report.atos for g in a.achados}
        return out + [f for f in self.report.findings if id(f) not in in_acts and (f.caminho or "").startswith(prefix)]

    def general_findings(self) -> list[Any]:
        """Findings of the processo not pointing at one act (its number, autuado, infractions…)."""
        in_acts = {id(g) for a in self.report.atos for g in a.achados}
        return [f for f in self.report.findings if id(f) not in in_acts and not (f.caminho or "").startswith("atos[")]

    def documents(self) -> Iterator[tuple[int, str]]:
        """``(act, document kind)`` of every act that has a document."""
        for a in self.report.atos:
            yield a.ato, a.documento


def processo_review(autos: Autos, register: Register | None, ref: ProcessoRef) -> ProcessoReview:
    """The processo page's data: validated as ``autos validar --registro`` does (with the register's numbers and
    the reincidência from its history when a register is given), its fine and its reviews."""
    from autos.app.register.history import add_register_checks

    report = autos.validate(ref.file)
    if report.error is not None:
        raise report.error
    assert isinstance(report, ProcessoReport)
    if register is not None:
        add_register_checks(autos, [report], register.path)
    fine: ProcessoFine | None = None
    fine_error: str | None = None
    try:
        fine = autos.processo_fine(from_doc(load_yaml(ref.file)))
    except AutosError as exc:
        fine_error = str(exc)
    reviews = register.reviews_of(ref.lei, report.processo or ref.numero or "") if register is not None else []
    audit = register.audit_of(f"processo:{ref.arquivo}") if register is not None else []
    return ProcessoReview(ref, report, fine, fine_error, reviews, audit)


def record_review(register: Register, ref: ProcessoRef, tipo: str, texto: str, login: str, nome: str) -> ReviewRecord:
    """Record a procurador's "de acordo" (``tipo="de_acordo"``, an optional note) or parecer (``"parecer"``, the
    text required), with who and when, and its audit entry (one transaction)."""
    if tipo not in REVIEW_KINDS:
        raise InputError(f"tipo de revisão desconhecido: '{tipo[:40]}'.", path="tipo",
                         hint='escolha "de acordo" ou "parecer".')
    clean = texto.replace("\r\n", "\n").strip()
    if tipo == "parecer" and not clean:
        raise InputError("o parecer está em branco.", path="texto",
                         hint='escreva o parecer, ou registre "de acordo".')
    if len(clean) > _MAX_REVIEW:
        raise InputError(f"o texto tem {len(clean):,} caracteres; o limite é {_MAX_REVIEW:,}.".replace(",", "."),
                         path="texto", hint="resuma o parecer ou junte-o ao processo como documento.")
    if any(ord(c) < 32 and c not in "\n\t" for c in clean):
        raise InputError("o texto tem caracteres de controle.", path="texto", hint="cole o texto como texto simples.")
    return register.add_review(ref.lei, ref.numero or "", ref.arquivo, tipo, clean or None, login, nome,
                               audit_object=f"processo:{ref.arquivo}")
