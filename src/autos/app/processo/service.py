"""Running the timeline over files and folders: loads rules and calendars once, reads the files.

This is the only module of the subpackage that touches the file system (the register and web app
will use the same entry points). ``hoje`` is always a parameter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Protocol

from autos.base.resources import default_rules_dir
from autos.base.yamlio import load_yaml, walk_yaml_files, yaml_files_under
from autos.checks.competence import competence_findings
from autos.checks.custody import custody_findings
from autos.checks.reasons import reasons_findings
from autos.compute.preconditions import check_preconditions, check_rules
from autos.compute.timeline import URGENCY_ORDER, DeadlineMemo, Pending, Timeline, check_timeline
from autos.errors import AutosError, InputError
from autos.processo.load import LoadedProcesso, from_doc, is_processo_data, load_processo
from autos.processo.load_case import case_from_doc
from autos.processo.migrate import Unmapped, leading_comments, migrate_cases, old_file_notice
from autos.rules.authorities import Authorities, load_authorities
from autos.rules.calendar import MunicipalCalendar, load_calendar
from autos.rules.procedure import Procedure, load_procedure, procedure_file
from autos.rules.statute import Statute, load_statute
from autos.store.files import write_new_atomic

__all__ = [
    "MigrationResult", "PendingReport", "PendingRow", "PendingSink", "ProcessoService", "is_old_case_file",
    "is_processo_file", "migrate_files", "old_file_notice",
]


def is_old_case_file(file: Path) -> bool:
    """True when ``file`` looks like an old single-document case file: a top-level ``lei:`` or
    ``documento:`` key and no ``atos:`` key. Only the keys at the start of a line are read (no YAML parse),
    so the notice costs little on a large folder; a file that cannot be read is not one (its error is
    reported by the command that reads it)."""
    try:
        with file.open(encoding="utf-8") as fh:
            keys = {line.split(":", 1)[0] for line in fh if line[:1].isalpha() and ":" in line}
    except (OSError, UnicodeDecodeError):
        return False
    return "atos" not in keys and bool(keys & {"lei", "documento"})


def is_processo_file(file: Path) -> bool:
    """True when ``file`` is a readable YAML mapping with ``atos:`` (the old case files have none)."""
    try:
        return is_processo_data(load_yaml(file).data)
    except AutosError:
        return False


@dataclass(frozen=True)
class PendingRow:
    """One line of the clerk's list: a processo and one thing due in it."""

    timeline: Timeline
    pendencia: Pending | None  # None: nothing due (shown only when the processo has findings)

    def sort_key(self) -> tuple[int, date, str, str]:
        x = self.pendencia
        if x is None:
            return (len(URGENCY_ORDER), date.max, self.timeline.numero, "")
        return (URGENCY_ORDER[x.urgencia], x.vence or date.max, self.timeline.numero, x.acao)


class PendingSink(Protocol):
    """Where :meth:`ProcessoService.scan_pending` puts what it reads: each timeline, each failure."""

    falhas: list[AutosError]
    vazio: bool

    def add(self, t: Timeline) -> None: ...


@dataclass
class PendingReport:
    """``autos pendencias``: every processo read, what is due, sorted by urgency, and what failed (in memory: the
    web's list of processos; the command line spools it, :mod:`autos.app.processo.pending_spool`)."""

    hoje: date
    rows: list[PendingRow] = field(default_factory=list)
    timelines: list[Timeline] = field(default_factory=list)
    falhas: list[AutosError] = field(default_factory=list)
    vazio: bool = False

    def add(self, t: Timeline) -> None:
        self.timelines.append(t)
        if t.pendencias:
            self.rows.extend(PendingRow(t, x) for x in t.pendencias)
        elif t.has_errors:
            self.rows.append(PendingRow(t, None))

    def exit_code(self) -> int:
        if self.falhas or self.vazio:
            return 2
        return 1 if any(t.has_errors for t in self.timelines) else 0


#: at most this many deadlines per law in ``check_timeline``'s memo (counted from a date, or a notice's facts, the
#: witness's name among them): a cache, emptied when full. Unbounded, it grew with the processos' dates and witnesses
#: (~2,000 entries per law with 1,000 generated processos, 3,500 with 3,000, ~1 KB each), where a run of any size
#: should take the memory of a small one
MEMO_ENTRIES = 2048


class ProcessoService:
    """Loads each law's procedure rules and calendar once and checks processos against them: the timeline, then the
    preconditions of each act (:mod:`autos.compute.preconditions`), whose errors join the timeline's.

    ``statutes``: the law's rules by id (an :class:`~autos.rules.statute.RuleSet`'s ``get``, already loaded); without
    it, each law's rules file is read when first needed."""

    def __init__(self, rules_dir: Path | None = None, statutes: Callable[[str], Statute] | None = None) -> None:
        self.rules_dir = Path(rules_dir) if rules_dir else default_rules_dir()
        self._statutes = statutes
        self._checked_rules: set[str] = set()  # laws whose two rules files were checked against each other
        self._procedures: dict[str, Procedure] = {}
        self._calendars: dict[str, MunicipalCalendar] = {}
        self._authorities: dict[str, Authorities | None] = {}
        self._checked_kinds: set[tuple[str, str]] = set()
        self._memos: dict[str, DeadlineMemo] = {}  # per law: deadlines counted from a date (same rules, calendar)

    def procedure(self, lei: str) -> Procedure:
        if lei not in self._procedures:
            self._procedures[lei] = load_procedure(self.rules_dir, lei)
        return self._procedures[lei]

    def calendar(self, lei: str) -> MunicipalCalendar:
        municipio = lei.split("/", 1)[0]
        if municipio not in self._calendars:
            self._calendars[municipio] = load_calendar(self.rules_dir, municipio)
        return self._calendars[municipio]

    def authorities(self, lei: str) -> Authorities | None:
        """The register of authorities of the law's municipality (``autoridades.yaml``), checked against the law's
        processo rules; ``None`` when the municipality has none."""
        municipio = lei.split("/", 1)[0]
        if municipio not in self._authorities:
            self._authorities[municipio] = load_authorities(self.rules_dir, municipio)
        auth = self._authorities[municipio]
        if auth is not None and (municipio, lei) not in self._checked_kinds:
            proc = self.procedure(lei)
            auth.check_kinds(lei, set(proc.atos), {x.id for x in proc.interpretacoes})
            self._checked_kinds.add((municipio, lei))
        return auth

    def check_valid(self, loaded: LoadedProcesso, hoje: date, statute: Statute) -> Timeline:
        """:meth:`check`, plus whether each act holds up: its signer's competence against the register of
        authorities (:mod:`autos.checks.competence`) and its reasons (:mod:`autos.checks.reasons`)."""
        t = self.check(loaded, hoje)
        lei = loaded.processo.lei
        proc = self.procedure(lei)
        t.achados.extend(competence_findings(loaded, proc, self.authorities(lei)))
        t.achados.extend(reasons_findings(loaded, proc, statute, t))
        return t

    def check(self, loaded: LoadedProcesso, hoje: date) -> Timeline:
        lei = loaded.processo.lei
        try:
            procedure = self.procedure(lei)
        except AutosError as exc:
            if not self.procedure_exists(lei):
                raise InputError(f"lei '{lei}' sem regras de processo nesta pasta de regras.", file=loaded.file,
                                 path="lei", line=loaded.line_of(("lei",)), hint=exc.hint) from None
            raise
        memo = self._memos.setdefault(lei, {})
        if len(memo) >= MEMO_ENTRIES:
            memo.clear()
        timeline = check_timeline(loaded, procedure, self.calendar(lei), hoje, memo=memo)
        statute = self.statute(lei)
        if lei not in self._checked_rules:
            check_rules(procedure, statute)
            self._checked_rules.add(lei)
        timeline.achados.extend(check_preconditions(loaded, procedure, statute, timeline))
        timeline.achados.extend(custody_findings(loaded, procedure, statute, timeline, self.calendar(lei)))
        return timeline

    def statute(self, lei: str) -> Statute:
        """The law's rules (``<lei>.yaml``): from the rule set given, else read from the rules folder."""
        if self._statutes is not None:
            return self._statutes(lei)
        municipio_dir, stem = lei.split("/", 1)
        return load_statute(self.rules_dir / municipio_dir / f"{stem}.yaml", self.rules_dir)

    def procedure_exists(self, lei: str) -> bool:
        return lei.count("/") == 1 and procedure_file(self.rules_dir, lei).is_file()

    def timeline_of(self, file: Path, hoje: date) -> Timeline:
        """``autos prazos PROCESSO.yaml``."""
        return self.check(load_processo(file), hoje)

    def pending(self, paths: list[Path], hoje: date, *, lei: str | None = None,
                agente: str | None = None) -> PendingReport:
        """``autos pendencias``: every processo file under ``paths`` (other YAML files are skipped)."""
        report = PendingReport(hoje)
        self.scan_pending(paths, hoje, report, lei=lei, agente=agente)
        report.rows.sort(key=PendingRow.sort_key)
        return report

    def scan_pending(self, paths: list[Path], hoje: date, sink: PendingSink, *, lei: str | None = None,
                     agente: str | None = None) -> None:
        """Every processo file under ``paths`` (other YAML files are skipped), one at a time: the timeline of each
        one of ``lei`` and ``agente`` to ``sink.add``, each file that cannot be read to ``sink.falhas``."""
        for p in paths:
            if not p.exists():
                sink.falhas.append(InputError("arquivo ou pasta não encontrado.", file=p,
                                              hint="confira o caminho informado."))
        found = 0
        for f, in_folder in _listed(paths):
            try:
                doc = load_yaml(f)
                if in_folder and not is_processo_data(doc.data):
                    continue  # a case file (one document), not a processo
                found += 1
                t = self.check(from_doc(doc), hoje)
            except AutosError as exc:
                if in_folder and exc.file == str(f) and not _may_be_processo(f):
                    continue
                found += 1 if in_folder else 0
                sink.falhas.append(exc)
                continue
            if lei is not None and t.lei != lei:
                continue
            if agente is not None and (t.agente is None or agente.casefold() not in t.agente.casefold()):
                continue
            sink.add(t)
        sink.vazio = not found and not sink.falhas


def _listed(paths: list[Path]) -> Iterator[tuple[Path, bool]]:
    """Each file given, and each YAML file below each folder given (found in a folder: True), listed as it is read
    (:func:`walk_yaml_files`: one folder's names at a time, so memory stays flat)."""
    for p in paths:
        if p.is_dir():
            yield from ((f, True) for f in walk_yaml_files(p))
        elif p.exists():
            yield p, False


def _may_be_processo(file: Path) -> bool:
    """An unreadable YAML file in a folder counts as a processo (reported) unless it is plainly a case
    file: a top-level ``documento:`` key and no ``atos:`` key."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    keys = {line.split(":", 1)[0] for line in text.splitlines() if line[:1].isalpha()}
    return "atos" in keys or "documento" not in keys


@dataclass
class MigrationResult:
    """``autos migrar``: the processo files written, what was not mapped, what was refused or unreadable."""

    escritos: list[tuple[Path, list[Path]]] = field(default_factory=list)  # (processo file, old files)
    nao_mapeado: list[Unmapped] = field(default_factory=list)
    recusados: list[Unmapped] = field(default_factory=list)
    ignorados: list[Path] = field(default_factory=list)  # already processo files
    falhas: list[AutosError] = field(default_factory=list)

    def exit_code(self) -> int:
        if self.falhas or not (self.escritos or self.recusados or self.ignorados):
            return 2
        return 1 if self.recusados or self.nao_mapeado else 0

    def to_dict(self) -> dict[str, object]:
        return {"processos": [{"arquivo": str(f), "de": [str(x) for x in src]} for f, src in self.escritos],
                "nao_mapeado": [u.to_dict() for u in self.nao_mapeado],
                "recusados": [u.to_dict() for u in self.recusados],
                "ignorados": [str(f) for f in self.ignorados],
                "erros": [str(e) for e in self.falhas], "codigo_saida": self.exit_code()}


def migrate_files(paths: list[Path], out_dir: Path) -> MigrationResult:
    """Group the old single-document files under ``paths`` into processo files in ``out_dir``
    (``<municipio>/<processo>.yaml``). Nothing is written when an input file is unreadable; an existing
    file is never overwritten (that processo is refused); the old files are never touched."""
    result = MigrationResult()
    cases = []
    comments: dict[Path, list[str]] = {}
    files, missing = yaml_files_under(paths)
    result.falhas.extend(InputError("arquivo ou pasta não encontrado.", file=p, hint="confira o caminho.")
                         for p in missing)
    for f in files:
        try:
            doc = load_yaml(f, InputError)
            if is_processo_data(doc.data):
                result.ignorados.append(f)
                continue
            cases.append(case_from_doc(doc))
            comments[f] = leading_comments(f.read_text(encoding="utf-8"))
        except AutosError as exc:
            result.falhas.append(exc)
    if result.falhas:
        return result
    report = migrate_cases(cases, comments)
    result.recusados.extend(report.recusados)
    for m in report.processos:
        target = out_dir / m.file_name
        if not write_new_atomic(target, m.text.encode("utf-8")):
            result.recusados.append(Unmapped(target, None, "", "já existe: não é sobrescrito. Escolha outra pasta "
                                             f"(-o) ou apague o arquivo; processo {m.numero}, de "
                                             f"{', '.join(str(s) for s in m.sources)}."))
            continue
        result.escritos.append((target, m.sources))
        result.nao_mapeado.extend(m.nao_mapeado)
    return result
