"""Overnight edital publication (``autos publicar-editais``): the batch.

A run, for one publication date:

1. finishes any edital a previous run reserved but did not publish (it was killed);
2. reads the files (streamed, in parallel) — processos (one file per processo, with ``atos:``) and old
   per-document case files — and keeps the autos de infração whose autuado must be notified by edital and
   has not been yet (:mod:`autos.compute.edital`: for a processo, from its timeline), validates each with the
   edital's dates, and lists every other file it had to refuse, with the reasons;
3. per law, in groups of at most ``max_por_edital`` cases, publishes an edital: reserve the number in
   the ledger → render into temporary files (consolidated edital, each case's individual edital in PDF
   and DOCX, the merged gazette file) → rename them into place → commit the hashes (one transaction) →
   append the edital act to each processo file published (:mod:`autos.store.processo_file`);
4. writes the manifest of the date (JSON and CSV): every file with its SHA-256 and case, every case
   refused with its reasons.

Nothing a user typed is changed: each individual edital is rendered from an in-memory case derived
from the auto (``documento: edital_notificacao`` and the publication dates filled in); a processo file only
gains the edital act, as text after its last act.

The legal choices (which cases, Cuiabá's silent law, Timóteo's newspaper date, masking) are documented
in ``docs/runbook-editais.md`` and in :func:`autos.compute.edital.classify`.

The stages live in their own modules: who must be notified by edital (:mod:`autos.compute.edital`), the
worker side — selection and validation of one file, rendering of the editais (:mod:`autos.app.editais.jobs`),
the gazette and the verification codes (:mod:`autos.render.gazette`), the ledger (:mod:`autos.store.ledger`),
the processo file's edital act (:mod:`autos.store.processo_file`) and ``autos conferir``
(:mod:`autos.app.verification.conferir`). This module is the batch: the pool, the order of reservation → rendering
→ rename → commit → processo files, recovery and the manifest.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from autos.app.editais.jobs import (
    CaseJob,
    Failed,
    Prepared,
    RunParams,
    Written,
    init_worker,
    inline_engine,
    newspaper_missing,
    output_error,
    prepare_from_text,
    prepare_many,
    render_cases,
    render_consolidated,
    write_tmp,
)
from autos.app.editais.manifest import CaseProblem, file_sha256, write_manifest
from autos.app.generation.pipeline import Autos
from autos.app.signing import SignerSpec, batch_signer
from autos.base import ptbr
from autos.compute.edital import default_veiculo, edital_kinds, edital_rule, needs_newspaper
from autos.documents.context import ementa_clause, letterhead
from autos.documents.counting import counting_clause
from autos.errors import AutosError, InputError, OutputError, RefusedError, os_error_pt
from autos.render.gazette import GAZETTE_CODE_LABEL, GazetteBuilder, verification_code
from autos.rules.deadlines import NoticeFormRule
from autos.rules.statute import Statute
from autos.store.database import DatabaseUrl, Location
from autos.store.ledger import (
    DEFAULT_LEDGER_NAME,
    Correction,
    EditalRecord,
    FileRecord,
    Ledger,
    LedgerError,
    PlannedCase,
    RunLock,
)
from autos.store.processo_file import EditalAct, RecordError, record_edital
from autos.store.sqlite_errors import sqlite_cause

EXIT_OK = 0  #: every selected case published (or nothing to publish)
EXIT_REJECTED = 1  #: the batch ran to the end, but some cases were refused (listed in the manifest)
EXIT_ERROR = 2  #: stopped by an error; nothing of the failing edital is left (earlier editais stay published)

AUTO_KIND = "auto_de_infracao"
INDIVIDUAL_KIND = "edital_notificacao"
CONSOLIDATED_TEMPLATE = "edital_consolidado"

#: fault injection for tests and drills: ``ponto[:n[:parar]]`` (comma-separated) — the main process kills itself
#: (SIGKILL, its workers are left to notice) the n-th time it reaches ``ponto`` (reserva, renderizado, renomeado,
#: commit, registro — after a processo file took its edital act), or, with ``parar``, stops itself (SIGSTOP)
#: there, for a drill to send the signal it wants; for ``disco-cheio``, the n-th gazette file write fails with
#: ENOSPC.
FAULT_ENV = "AUTOS_FALHA_PUBLICACAO"

FILE_LABELS = {
    "edital_consolidado": "edital consolidado (PDF)",
    "edital_individual_pdf": "edital individual (PDF)",
    "edital_individual_docx": "edital individual (DOCX)",
    "caderno": "caderno para o diário oficial (PDF unificado)",
}

# --------------------------------------------------------------------------------------------------
# the run


@dataclass(frozen=True)
class Options:
    casos: Path | tuple[Path, ...]  # folders or files of cases (old per-document files) and processos
    data: date
    saida: Path
    data_jornal: date | None = None  # None: the same date as ``data``
    veiculos: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", official press)
    jornais: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", local newspaper)
    livro: Location | None = None  # None: <saida>/livro-editais.sqlite3; or a PostgreSQL database (--banco)
    dry_run: bool = False
    workers: int | None = None  # None: every core; 1: in this process
    dask: str | None = None  # address of a Dask scheduler (tcp://host:8786): its workers render, not a local pool
    max_por_edital: int = 250
    lote: int = 8  # cases per rendering task
    rules_dir: Path | None = None
    templates_dir: Path | None = None
    today: date | None = None
    assinar: SignerSpec | None = None  # --assinar: every PDF is signed before its hash goes to the ledger

    @property
    def pastas(self) -> tuple[Path, ...]:
        """The folders (or files) of cases and processos: ``casos`` is one path or several."""
        return (self.casos,) if isinstance(self.casos, Path) else tuple(self.casos)

    @property
    def ledger_path(self) -> Location:
        return self.livro if self.livro is not None else self.saida / DEFAULT_LEDGER_NAME


@dataclass
class PlannedEdital:
    """A dry run's edital: the number it would take and its cases."""

    lei: str
    numero: int
    ano: int
    casos: list[Prepared]


@dataclass(frozen=True)
class Published:
    """An edital this run published; its cases and files are in the ledger (``Ledger.edital(id)``)."""

    id: int
    lei: str
    numero: int
    ano: int
    data_edital: date
    casos: int
    caderno: Path

    @property
    def rotulo(self) -> str:
        return f"Nº {self.numero}/{self.ano}"


@dataclass
class PublishResult:
    data: date
    publicados: list[Published] = field(default_factory=list)  # published by this run (recovered ones too)
    recuperados: list[int] = field(default_factory=list)  # ids of editais finished after a stopped run
    recusados: list[CaseProblem] = field(default_factory=list)
    ja_publicados: list[CaseProblem] = field(default_factory=list)
    planejados: list[PlannedEdital] = field(default_factory=list)
    sem_edital: int = 0
    edital_no_processo: int = 0  # processos whose file already has the edital act with its publications
    ignorados: int = 0
    lidos: int = 0
    manifesto: list[Path] = field(default_factory=list)
    erro: AutosError | None = None
    registrados: list[str] = field(default_factory=list)  # processo files the edital act was appended to
    nao_registrados: list[CaseProblem] = field(default_factory=list)  # published, but the file could not take it

    @property
    def exit_code(self) -> int:
        if self.erro is not None:
            return EXIT_ERROR
        return EXIT_REJECTED if self.recusados or self.nao_registrados else EXIT_OK


class _Inline(Executor):
    """Runs tasks in this process (``workers=1``): same code path, no child processes."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            fut.set_exception(exc)
        return fut


class _Faults:
    def __init__(self) -> None:
        self.at: dict[str, int] = {}
        self.stop: set[str] = set()
        self.seen: dict[str, int] = {}
        for item in filter(None, (s.strip() for s in os.environ.get(FAULT_ENV, "").split(","))):
            point, _, rest = item.partition(":")
            n, _, action = rest.partition(":")
            self.at[point] = int(n or 1)
            if action == "parar":
                self.stop.add(point)

    def hit(self, point: str) -> None:
        if point not in self.at:
            return
        self.seen[point] = self.seen.get(point, 0) + 1
        if self.seen[point] != self.at[point]:
            return
        if point == "disco-cheio":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if point in self.stop:
            os.kill(os.getpid(), signal.SIGSTOP)  # the drill sends its signal, then SIGCONT
            return
        os.kill(os.getpid(), signal.SIGKILL)  # pragma: no cover - the process ends here


def _slug(lei: str) -> str:
    return lei.replace("/", "-")


def _auto_slug(numero: str) -> str:
    num, year = numero.split("/")
    return f"{year}-{int(num):04d}"


@dataclass
class _Group:
    lei: str
    items: list[Prepared] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)  # case → file, to refuse a second file of the same auto


@dataclass
class _Pending:
    """An edital between reservation and commit: its documents are being rendered by the workers."""

    rec: EditalRecord
    group: _Group
    statute: Statute
    rule: NoticeFormRule
    params: RunParams
    folder: Path
    files: dict[str, FileRecord]
    tmp_of: dict[str, Path]
    fresh: bool  # reserved by this run (undone on failure), not a recovered one
    futures: set[Future[Any]] = field(default_factory=set)
    renamed: list[Path] = field(default_factory=list)

    def file(self, tipo: str) -> FileRecord:
        return next(f for f in self.files.values() if f.tipo == tipo)

    def individual(self, caso: str, tipo: str) -> FileRecord:
        return next(f for f in self.files.values() if f.caso == caso and f.tipo == tipo)


class _CasesFailed(Exception):
    """Some cases of an edital could not be rendered (:class:`Failed`); not an error of the run."""

    def __init__(self, cases: list[Failed]) -> None:
        super().__init__(", ".join(f.caso for f in cases))
        self.cases = cases


def _kill_workers(pool: Executor | None) -> bool:
    """Kill the rendering processes of ``pool`` now and wait for them to be gone (a stopping run does not wait
    for the documents it will throw away); the pool then reports itself broken and shuts down at once. The
    pool's process table is the only handle before Python 3.14 (``kill_workers``). ``False`` if there is no
    process pool (``--processos 1``)."""
    if not isinstance(pool, ProcessPoolExecutor):
        return False
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(5)
    pool._autos_killed = True  # type: ignore[attr-defined]  # read by Publisher._executor
    return True


def _recheck(written: dict[str, Written], tmp_of: dict[str, Path]) -> None:
    """The coordinator reads back every file the workers wrote (on the shared filesystem, with ``--dask``) and
    compares its SHA-256 and size with what the worker declared: the ledger records only what is on disk."""
    for caminho, w in written.items():
        tmp = tmp_of[caminho]
        try:
            sha, size = file_sha256(tmp), tmp.stat().st_size
        except OSError as exc:
            raise output_error(exc, tmp) from None
        if (sha, size) != (w.sha256, w.bytes):
            raise OutputError(
                f"o arquivo gravado pelo trabalhador não é o que ele gerou (SHA-256 {sha[:12]}…, {size} bytes; "
                f"esperado {w.sha256[:12]}…, {w.bytes} bytes); o edital em curso foi desfeito.", file=tmp,
                hint="confira a pasta compartilhada (montagem NFS, espaço, outro processo gravando nela) e rode de "
                "novo (docs/runbook-distribuido.md).")


def _has_place(pairs: tuple[tuple[str, str], ...], lei: str) -> bool:
    """Whether a ``--jornal``/``--veiculo`` value applies to the law's municipality (its own or ``*``)."""
    return any(where in ("*", lei.split("/", 1)[0]) and text.strip() for where, text in pairs)


class Publisher:
    """One ``publicar-editais`` run. ``log`` receives Portuguese lines; ``advance`` the cases read."""

    def __init__(self, options: Options, *, log: Callable[[str], None] = lambda _m: None,
                 advance: Callable[[int], None] = lambda _n: None,
                 start: Callable[[int], None] = lambda _n: None) -> None:
        self.o = options
        self.log = log
        self.advance = advance
        self.start = start
        self.faults = _Faults()
        self.result = PublishResult(data=options.data)
        self.data_jornal = options.data_jornal or options.data
        self.params = RunParams(options.data, self.data_jornal,
                                str(options.rules_dir) if options.rules_dir else None,
                                str(options.templates_dir) if options.templates_dir else None, options.today,
                                options.veiculos, options.jornais, options.today or date.today())
        self.autos = Autos(options.rules_dir, options.templates_dir, options.today)
        self.saida = options.saida.resolve() if not options.dry_run else options.saida.absolute()
        self._pool: Executor | None = None
        self._open: _Pending | None = None  # at most one edital rendering while the previous one finishes
        #: a republicação (:mod:`autos.app.editais.corrections`): the editais this run reserves correct another (the
        #: consolidated edital prints the note the correction records)
        self.correction: Correction | None = None
        self._width = 1  # tasks the executor runs at once (set by _executor)

    # --- entry point -----------------------------------------------------------------------------
    def run(self) -> PublishResult:
        """Publish (or, in a dry run, plan); errors end up in ``result.erro``, never raised."""
        try:
            if not self.o.dry_run:
                _ensure_writable(self.saida)  # before the ledger is touched
                if self.o.assinar is not None:  # a wrong password or PIN stops the run before any reservation
                    batch_signer(self.o.assinar)
            ledger = Ledger(self.o.ledger_path, readonly=self.o.dry_run)
        except AutosError as exc:
            self.result.erro = exc
            return self.result
        folder_lock: RunLock | None = None
        try:
            if not self.o.dry_run:
                ledger.lock()
                folder_lock = _lock_folder(self.saida)
            _claim_folder(self.saida, self.o.ledger_path, write=not self.o.dry_run, identity=ledger.identity())
        except AutosError as exc:
            ledger.close()
            if folder_lock is not None:
                folder_lock.release()
            self.result.erro = exc
            return self.result
        stopping: list[bool] = []
        restore = _terminate_as_interrupt(stopping)
        try:
            with self._executor() as pool:
                self._pool = pool
                self._recover(ledger)
                self._select_and_publish(ledger)
        except AutosError as exc:
            self.result.erro = exc
        except (KeyboardInterrupt, BrokenProcessPool) as exc:
            if isinstance(exc, BrokenProcessPool) and not stopping:  # a worker died, nobody stopped the run
                self.result.erro = AutosError("um processo de renderização terminou inesperadamente (falta de "
                                              "memória?); o edital em curso foi desfeito e os anteriores ficaram "
                                              "publicados.",
                                              hint="confira a memória livre (ou use --processos 1) e rode de novo.")
            else:  # Ctrl-C, or SIGTERM (to the main process, or to the group: the workers die first)
                self.result.erro = AutosError("publicação interrompida; o edital em curso foi desfeito e os "
                                              "anteriores ficaram publicados.", hint="rode de novo para continuar.")
        except Exception as exc:  # a bug: the edital in progress was undone; say so, with the details
            import traceback

            self.log("".join(traceback.format_exception(exc)).rstrip())
            self.result.erro = AutosError("erro inesperado (um defeito do programa; o rastro está no log acima); o "
                                          "edital em curso foi desfeito e os anteriores ficaram publicados.",
                                          hint="guarde o log e o livro e chame o suporte.")
        finally:
            restore()
            self._pool = None
            try:
                if not self.o.dry_run:
                    self._write_manifest(ledger)
            finally:
                ledger.close()
                if folder_lock is not None:
                    folder_lock.release()
        return self.result

    @contextlib.contextmanager
    def _executor(self) -> Iterator[Executor]:
        """The one place that chooses who renders: this process, a local process pool, or a Dask cluster."""
        workers = self.o.workers or os.cpu_count() or 1
        args = (self.params.rules_dir, self.params.templates_dir, self.params.today, self.o.assinar)
        if self.o.dask is not None:  # connected and every worker checked before anything is reserved
            from autos.app.batch.cluster import as_setup_args, dask_executor, signing_refused
            from autos.app.editais.jobs import ensure_engine

            if self.o.assinar is not None:
                raise signing_refused()
            setup = as_setup_args(*args[:3])
            with dask_executor(self.o.dask, ensure_engine, setup, rules_dir=setup[0],
                               templates_dir=setup[1]) as cluster:
                self._width = cluster.width
                self.log(f"renderização no cluster Dask {self.o.dask}: "
                         f"{ptbr.count_noun(len(cluster.client.nthreads()), 'trabalhador', 'trabalhadores')}.")
                yield cluster
            return
        self._width = workers
        if workers <= 1:
            with inline_engine(*args):  # this process renders: tuned as a worker, restored at the end
                yield _Inline()
            return
        pool = ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=args)
        try:
            yield pool
        finally:
            # after _kill_workers the pool fails every pending task itself; cancelling them too would trip its
            # management thread (InvalidStateError on a cancelled future, Python 3.11)
            pool.shutdown(wait=True, cancel_futures=not getattr(pool, "_autos_killed", False))

    @property
    def pool(self) -> Executor:
        assert self._pool is not None
        return self._pool

    # --- recovery --------------------------------------------------------------------------------
    def _recover(self, ledger: Ledger) -> None:
        for rec in ledger.pending():
            if rec.tipo == "retificacao" and not self.o.dry_run:  # its own command renders it: it starts over
                self._abandon(ledger, rec, ["a retificação foi interrompida antes de concluída; rode autos "
                                            "retificar-edital de novo"])
                continue
            if self.o.dry_run:
                self.log(f"edital {rec.rotulo} ({rec.lei}) está reservado e não foi concluído; a próxima execução "
                         "o concluirá.")
                continue
            self.log(f"concluindo o edital {rec.rotulo} ({rec.lei}), reservado em "
                     f"{rec.reservado_em:%d/%m/%Y %H:%M} por uma execução que parou.")
            items: list[Prepared] = []
            municipio_dir = rec.lei.split("/", 1)[0]
            params = RunParams(rec.data_publicacao, rec.data_jornal or rec.data_publicacao, *self._param_dirs(),
                               veiculos=((municipio_dir, rec.veiculo),),
                               jornais=((municipio_dir, rec.jornal),) if rec.jornal else (), emissao=rec.data_edital)
            problems: list[str] = []
            numero = f"{rec.numero}/{rec.ano}"
            for c in rec.casos:
                p = self.pool.submit(prepare_from_text, c.arquivo, c.texto_caso, c.sha256_caso, params,
                                     numero).result()
                if p.estado != "candidato":
                    problems.append(f"{c.arquivo}: {'; '.join(p.motivos) or p.estado}")
                items.append(p)
            if problems:
                self._abandon(ledger, rec, problems)
                continue
            try:
                published = self._publish(ledger, _Group(rec.lei, items), rec, params)
            except _CasesFailed as failed:
                self._abandon(ledger, rec, [f"{f.arquivo}: {f.motivo}" for f in failed.cases])
                continue
            self.result.recuperados.append(published.id)

    def publish_cases(self, ledger: Ledger, lei: str,
                      casos: list[PlannedCase]) -> tuple[Published, list[Prepared]]:
        """Publish one edital of ``lei`` with ``casos`` (texts as the ledger recorded them: a republicação) on this
        run's dates — prepare, reserve (with :attr:`correction`), render, rename, commit, processo files — in this
        process; the caller holds the locks. :class:`RefusedError` (nothing reserved) if a case no longer publishes
        on these dates; :class:`AutosError` if the edital could not be published (nothing of it is left)."""
        with self._executor() as pool:
            self._pool = pool
            try:
                numero = f"{ledger.next_number(lei, self.params.data.year)}/{self.params.data.year}"
                items = [self.pool.submit(prepare_from_text, c.arquivo, c.texto_caso, c.sha256_caso, self.params,
                                          numero).result() for c in casos]
                bad = [f"{p.arquivo}: {'; '.join(p.motivos) or p.estado}" for p in items if p.estado != "candidato"]
                if bad:
                    raise RefusedError("os casos não podem ser publicados nesta data: " + " | ".join(bad)
                                       + "; nada foi gravado.")
                group = _Group(lei, items, {p.caso or "": p.arquivo for p in items})
                why = self._unpublishable(group)
                if why is not None:
                    raise RefusedError(why + "; nada foi gravado.")
                try:
                    return self._publish(ledger, group, None, self.params), items
                except _CasesFailed as failed:
                    raise RefusedError("; ".join(f"{f.arquivo}: {f.motivo}" for f in failed.cases)
                                       + "; nada foi gravado.") from None
            finally:
                self._pool = None

    def _param_dirs(self) -> tuple[str | None, str | None, date | None]:
        return self.params.rules_dir, self.params.templates_dir, self.params.today

    def _abandon(self, ledger: Ledger, rec: EditalRecord, problems: list[str]) -> None:
        """A reserved edital whose cases no longer validate (rules changed): remove it, if it is the last number."""
        for f in rec.arquivos:
            with contextlib.suppress(FileNotFoundError):
                (rec.saida / f.caminho).unlink()
        ledger.undo(rec.id)
        self.log(f"reserva do edital {rec.rotulo} ({rec.lei}) desfeita, porque os casos não puderam ser "
                 f"publicados como planejado: {' | '.join(problems)}. Os casos voltam à fila.")

    # --- selection -------------------------------------------------------------------------------
    def _select_and_publish(self, ledger: Ledger) -> None:
        try:
            self._select_and_publish_all(ledger)
        except BaseException:
            _kill_workers(self._pool)  # the run stops: nothing the workers are doing is needed any more
            if self._open is not None:  # an edital still rendering when the run stops leaves no trace
                pending, self._open = self._open, None
                self._abort(ledger, pending)
            raise

    def _select_and_publish_all(self, ledger: Ledger) -> None:
        from autos.base.yamlio import iter_yaml_files

        # a Dask worker reads the cases from the shared filesystem, in a folder of its own: absolute paths
        roots = tuple(r.absolute() for r in self.o.pastas) if self.o.dask else self.o.pastas
        files: list[str] = []
        for root in roots:
            if not root.exists():
                raise InputError("pasta de casos não encontrada.", file=root, hint="confira o caminho informado.")
            files.extend(str(p) for p in (iter_yaml_files(root) if root.is_dir() else [root]))
        where = ", ".join(str(r) for r in roots)
        self.log(f"{ptbr.count_noun(len(files), 'arquivo', 'arquivos')} de caso ou processo em {where}; publicação de "
                 f"{ptbr.format_date(self.o.data)}.")
        self.start(len(files))
        groups: dict[str, _Group] = {}
        chunk = 8
        window = 4 * max(1, self._width)
        pending: deque[Future[list[Prepared]]] = deque()
        batches = (files[i:i + chunk] for i in range(0, len(files), chunk))
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < window:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                pending.append(self.pool.submit(prepare_many, batch, self.params))
            if not pending:
                break
            for prepared in pending.popleft().result():
                self.result.lidos += 1
                self.advance(1)
                group = self._triage(ledger, prepared, groups)
                if group is not None and len(group.items) >= self.o.max_por_edital:
                    self._flush(ledger, group)
                    del groups[group.lei]
        for lei in sorted(groups):
            self._flush(ledger, groups[lei])
        while self._open is not None:  # (a re-planned edital opens again)
            self._close(ledger, self._open)

    def _triage(self, ledger: Ledger, p: Prepared, groups: dict[str, _Group]) -> _Group | None:
        if p.estado == "ignorado":
            self.result.ignorados += 1
            return None
        if p.estado == "publicado_no_caso" and p.processo is not None:
            self.result.edital_no_processo += 1
            return None
        if p.estado in ("sem_edital", "publicado_no_caso"):
            self.result.sem_edital += 1
            return None
        if p.caso is not None and p.estado == "candidato" and p.lei is not None:
            forming = groups.get(p.lei)
            other = forming.keys.get(p.caso) if forming is not None else None
            if other is not None:
                self._duplicate(p, other)
            else:
                found = ledger.case_edital(p.caso)
                if found is not None and p.processo is not None and found[0].estado == "publicado":
                    # published, but the processo does not have the act yet (a run stopped between the commit and
                    # the file, or the file could not take it then): record it now; nothing is published again
                    if self.o.dry_run:
                        self.log(f"seria registrado no processo: {p.arquivo}: edital {found[0].rotulo}.")
                    elif p.auto_numero is not None:
                        self._record(found[0], p.arquivo, p.caso, p.auto_numero, later=True)
                    return None
                if found is not None:
                    self._already(found[0], found[1], p)
                    return None
        if p.estado == "recusado":
            self.result.recusados.append(CaseProblem(p.arquivo, p.caso, p.motivos))  # listed in the summary
            return None
        assert p.caso is not None and p.lei is not None
        group = groups.setdefault(p.lei, _Group(p.lei))
        group.items.append(p)
        group.keys[p.caso] = p.arquivo
        return group

    @staticmethod
    def _duplicate(p: Prepared, other: str) -> None:
        p.estado = "recusado"
        p.motivos = [f"o auto {p.auto_numero} ({p.lei}) também está no arquivo {other}; só um arquivo por auto é "
                     "publicado — remova o arquivo repetido"]

    def _already(self, ed: EditalRecord, planned: PlannedCase, p: Prepared) -> None:
        """A case the ledger already has. Its file may have moved since (same case, the old path is gone); a
        second file of the same auto while the first is still there is refused, as in a single run."""
        if planned.arquivo != p.arquivo and Path(planned.arquivo).exists():
            self._duplicate(p, planned.arquivo)  # same words as in the run that published it: same manifest
            self.result.recusados.append(CaseProblem(p.arquivo, p.caso, p.motivos))
            return
        same = ed.data_publicacao == self.o.data and ed.estado == "publicado"
        changed = planned.sha256_caso != p.sha256
        if same and not changed:
            return  # published by an earlier run of this same date: already in the date's manifest
        what = "publicado" if ed.estado == "publicado" else "reservado"
        msg = (f"auto {p.auto_numero} já {what} no edital {ed.rotulo} de "
               f"{ptbr.format_date(ed.data_publicacao)}; não é publicado de novo")
        if changed:
            msg += (" (o arquivo do caso mudou depois da publicação: se a alteração exige nova publicação, a "
                    "decisão é da autoridade — veja o runbook)")
        self.result.ja_publicados.append(CaseProblem(p.arquivo, p.caso, [msg]))  # listed in the summary

    # --- one edital ------------------------------------------------------------------------------
    def _flush(self, ledger: Ledger, group: _Group) -> None:
        if not group.items:
            return
        why = self._unpublishable(group)
        if why is not None:  # nothing is reserved: the number is not spent, the other laws go on
            for p in group.items:
                p.estado = "recusado"
                p.motivos = [why]
                self.result.recusados.append(CaseProblem(p.arquivo, p.caso, p.motivos))
            return
        if self.o.dry_run:
            ano = self.o.data.year
            numero = ledger.next_number(group.lei, ano) + sum(
                1 for e in self.result.planejados if e.lei == group.lei and e.ano == ano)
            self.result.planejados.append(PlannedEdital(group.lei, numero, ano, list(group.items)))
            casos = ptbr.count_noun(len(group.items), "caso", "casos")
            self.log(f"seria publicado: edital Nº {numero}/{ano} ({group.lei}) com {casos}: "
                     + ", ".join(f"auto {p.auto_numero}" for p in group.items))
            return
        new = self._begin(ledger, group, None, self.params)
        previous, self._open = self._open, new
        if previous is not None:  # the previous edital finishes while the workers render this one
            self._close(ledger, previous)

    def _unpublishable(self, group: _Group) -> str | None:
        """Why the edital of this law cannot be issued as it would be signed and published, or None: nobody named
        in the rules to sign it, or a newspaper the law requires (Timóteo, art. 21, § 3º) not named in the run."""
        statute = self.autos.rules.get(group.lei)
        if statute.edital_assinatura is None:
            return (f"as regras da lei ({statute.file}) não dizem quem assina o edital consolidado: acrescente ao "
                    "registro de autoridades (autoridades.yaml) o cargo com 'edital_consolidado' e o seu titular")
        rule = edital_rule(self.autos.deadline_service.law(statute))
        if rule is not None and needs_newspaper(rule) and not _has_place(self.o.jornais, group.lei):
            return newspaper_missing(statute, rule)
        return None

    def _close(self, ledger: Ledger, pending: _Pending) -> None:
        try:
            self._complete(ledger, pending)
        except _CasesFailed as failed:
            self._replan(ledger, pending, failed)
            return
        except BaseException:
            newer, self._open = self._open, None
            if newer is not None and newer is not pending:
                self._abort(ledger, newer)  # the later number goes first: no gap in the series
            self._abort(ledger, pending)
            raise
        if self._open is pending:
            self._open = None

    def _replan(self, ledger: Ledger, pending: _Pending, failed: _CasesFailed) -> None:
        """Some cases of ``pending`` could not be rendered: undo its reservation (and that of the edital rendering
        after it: the later number first), refuse those cases, and reserve both again without them — the same
        numbers, no gap. The run goes on."""
        newer, self._open = self._open, None
        if newer is pending:
            newer = None
        if newer is not None:
            self._abort(ledger, newer, kill=False, strict=True)
        self._abort(ledger, pending, kill=False, strict=True)
        bad = {f.caso: f for f in failed.cases}
        for f in failed.cases:
            self.result.recusados.append(CaseProblem(f.arquivo, f.caso, [f.motivo]))
            self.log(f"recusado: {f.arquivo}: {f.motivo}")
        for group in (pending.group, newer.group if newer is not None else None):
            if group is None:
                continue
            group.items = [p for p in group.items if p.caso not in bad]
            for caso in bad:
                group.keys.pop(caso, None)
            self._flush(ledger, group)

    def _publish(self, ledger: Ledger, group: _Group, rec: EditalRecord | None, params: RunParams) -> Published:
        """One edital from start to end (recovery): reserve unless finishing ``rec`` → render → rename → commit."""
        pending = self._begin(ledger, group, rec, params)
        try:
            return self._complete(ledger, pending)
        except _CasesFailed:
            self._abort(ledger, pending, kill=False)
            raise
        except BaseException:
            self._abort(ledger, pending)
            raise

    def _begin(self, ledger: Ledger, group: _Group, rec: EditalRecord | None, params: RunParams) -> _Pending:
        """Reserve the number (unless finishing ``rec``) and hand every document of the edital to the workers."""
        statute = self.autos.rules.get(group.lei)
        rule = edital_rule(self.autos.deadline_service.law(statute))
        assert rule is not None
        data_jornal = params.data_jornal if needs_newspaper(rule) else None
        municipio_dir, lei_stem = group.lei.split("/", 1)
        fresh = rec is None
        if rec is None:
            casos = [PlannedCase(i + 1, p.caso or "", p.auto_numero or "", p.arquivo, p.sha256, p.texto, p.motivo)
                     for i, p in enumerate(group.items)]
            pub = params.publication(statute, rule, "")
            if pub.veiculo == default_veiculo(statute.lei.municipio):
                self.log(f"aviso: {group.lei}: sem --veiculo para {municipio_dir}; o edital diz '{pub.veiculo}'.")
            signer = statute.edital_assinatura
            if signer is not None and signer.exemplo:
                self.log(f"aviso: {group.lei}: quem assina o edital ({signer.nome}, {signer.cargo}) é EXEMPLO das "
                         f"regras ({statute.file}, edital_assinatura); o edital diz isso.")
            rec = ledger.reserve(group.lei, params.data, data_jornal, pub.data_edital, pub.veiculo, pub.jornal,
                                 self.saida, casos, lambda numero: self._plan_files(group, numero, params.data.year),
                                 correction=self.correction)
        folder = rec.saida / municipio_dir / lei_stem / str(rec.ano) / f"edital-{rec.numero:04d}"
        files = {f.caminho: f for f in rec.arquivos}
        pending = _Pending(rec, group, statute, rule, params, folder, files,
                           {c: folder / f".{Path(c).name}.tmp" for c in files}, fresh)
        try:  # from here on, any failure or interrupt undoes the reservation
            if fresh:
                self.faults.hit("reserva")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise output_error(exc, folder) from None
            for stale in folder.glob(".*.tmp"):
                stale.unlink()
            self._submit(pending)
        except BaseException:
            self._abort(ledger, pending)
            raise
        return pending

    def _submit(self, pending: _Pending) -> None:
        rec, group, tmp_of = pending.rec, pending.group, pending.tmp_of
        consolidated = pending.file("edital_consolidado")
        assert consolidated.codigo is not None
        ctx = self._consolidated_context(rec, group, pending.statute, pending.rule)
        pending.futures.add(self.pool.submit(render_consolidated, ctx, consolidated.codigo,
                                             str(tmp_of[consolidated.caminho])))  # the longest task first
        jobs = []
        for p in group.items:
            assert p.caso is not None
            pdf, docx = pending.individual(p.caso, "edital_individual_pdf"), pending.individual(p.caso,
                                                                                                 "edital_individual_docx")
            assert pdf.codigo is not None
            jobs.append(CaseJob(p.caso, p.arquivo, p.texto, pdf.codigo, str(tmp_of[pdf.caminho]),
                                str(tmp_of[docx.caminho])))
        for i in range(0, len(jobs), self.o.lote):  # at most max_por_edital cases: bounded
            pending.futures.add(self.pool.submit(render_cases, jobs[i:i + self.o.lote], pending.params,
                                                 f"{rec.numero}/{rec.ano}", rec.reservado_em))

    def _complete(self, ledger: Ledger, pending: _Pending) -> Published:
        """Wait for the documents, build the gazette, rename everything into place, commit the hashes."""
        rec, tmp_of = pending.rec, pending.tmp_of
        by_tmp = {str(t): c for c, t in tmp_of.items()}
        written: dict[str, Written] = {}
        failed: list[Failed] = []
        parts, merged = self._gazette_parts(pending), 0
        builder = GazetteBuilder()
        while pending.futures:
            done, pending.futures = wait(pending.futures, return_when=FIRST_COMPLETED)
            for fut in done:
                result = fut.result()
                for w in (result if isinstance(result, list) else [result]):
                    if isinstance(w, Failed):
                        failed.append(w)
                    else:
                        written[by_tmp[w.tmp]] = w
            # merge what has arrived, in order, while the workers render the rest (no serial tail at the end)
            while not failed and merged < len(parts) and parts[merged][1] in written:
                title, caminho = parts[merged]
                builder.add(title, tmp_of[caminho])
                merged += 1
        if failed:
            raise _CasesFailed(failed)
        assert merged == len(parts), "every part of the gazette was rendered"
        gazette = pending.file("caderno")
        written[gazette.caminho] = self._gazette(pending, builder)
        _recheck(written, tmp_of)
        self.faults.hit("renderizado")
        for caminho, tmp in tmp_of.items():
            final = rec.saida / caminho
            try:
                os.replace(tmp, final)
            except OSError as exc:
                raise output_error(exc, final) from None
            pending.renamed.append(final)
        _fsync_dir(pending.folder)
        for stray in pending.folder.glob(".*.tmp"):  # the part-written file of a writer killed mid-write (retried)
            with contextlib.suppress(OSError):
                stray.unlink()
        self.faults.hit("renomeado")
        ledger.commit(rec.id, {c: (w.sha256, w.bytes) for c, w in written.items()})
        self.faults.hit("commit")
        record = Published(rec.id, rec.lei, rec.numero, rec.ano, rec.data_edital, len(rec.casos),
                           rec.saida / pending.file("caderno").caminho)
        self.result.publicados.append(record)  # a summary: the details stay in the ledger (memory stays flat)
        casos = ptbr.count_noun(record.casos, "caso", "casos")
        self.log(f"publicado: edital {record.rotulo} ({record.lei}) com {casos}, "
                 f"{ptbr.count_noun(len(rec.arquivos), 'arquivo', 'arquivos')} em {pending.folder}.")
        for p in pending.group.items:  # committed: the edital is published whatever happens to the files now
            if p.processo is not None and p.auto_numero is not None:
                self._record(rec, p.arquivo, p.caso, p.auto_numero)
                self.faults.hit("registro")
        return record

    # --- the processo file -----------------------------------------------------------------------
    def _record(self, rec: EditalRecord, arquivo: str, caso: str | None, auto_numero: str, *,
                later: bool = False) -> None:
        """Append the published edital to the processo file as its act (:mod:`autos.store.processo_file`); a file that
        cannot take it is listed (the edital stays published, and the next run tries again)."""
        try:
            kinds = edital_kinds(self.autos.processos.procedure(rec.lei))
            if not kinds:
                raise RecordError("as regras do processo da lei não têm o ato de edital.", file=arquivo)
            lei = self.autos.rules.get(rec.lei).lei
            pubs: list[tuple[date, Literal["oficial", "jornal"], str]] = [(rec.data_publicacao, "oficial",
                                                                           rec.veiculo)]
            if rec.jornal and rec.data_jornal:
                pubs.append((rec.data_jornal, "jornal", rec.jornal))
            act = EditalAct(kinds[0], f"{rec.numero}/{rec.ano}", rec.data_edital, auto_numero,
                            f"{lei.municipio}/{lei.uf}", tuple(pubs),
                            f"edital {rec.rotulo} ({rec.lei}), acrescentado por autos "
                            f"{'republicar-edital' if rec.tipo == 'republicacao' else 'publicar-editais'} conforme o "
                            "livro de editais")
            written = record_edital(Path(arquivo), act)
        except AutosError as exc:
            self.result.nao_registrados.append(CaseProblem(arquivo, caso, [
                f"edital {rec.rotulo} publicado, mas não registrado no processo: {exc.render()}"]))
            self.log(f"não registrado no processo: {arquivo}: {exc.render()}")
            return
        if written:
            self.result.registrados.append(arquivo)
            how = " (publicado por uma execução que parou antes de registrá-lo)" if later else ""
            self.log(f"registrado no processo: {arquivo}: edital {rec.rotulo}{how}.")

    def _abort(self, ledger: Ledger, pending: _Pending, *, kill: bool = True, strict: bool = False) -> None:
        """Leave nothing of an edital that did not get committed; a fresh one also leaves the ledger as before.

        ``kill``: the run is ending (error, Ctrl-C, SIGTERM) — the workers still rendering are killed rather than
        waited for, so a stop takes a moment, not the length of a task. ``strict``: the run goes on after this,
        so the reservation must really be undone (a ledger error is raised, not left for the next run)."""
        if kill and any(not f.done() for f in pending.futures) and _kill_workers(self._pool):
            pass  # the workers are dead (joined): nothing writes the temporary files any more; the futures are
            # not cancelled, nor waited for — Python 3.11's pool fails its broken-pool handling on a cancelled
            # future (InvalidStateError in its management thread) and the others would then never complete
        else:
            for fut in pending.futures:
                fut.cancel()
            wait(pending.futures)  # running tasks end before their files are removed
        pending.futures = set()
        for path in [*pending.tmp_of.values(), *pending.renamed]:
            with contextlib.suppress(OSError):
                path.unlink()
        if pending.fresh:
            with contextlib.suppress(OSError):
                pending.folder.rmdir()  # only if empty
            if strict:
                ledger.undo(pending.rec.id)
                return
            with contextlib.suppress(AutosError, sqlite3.Error):  # if even this fails, the next run finishes it
                ledger.undo(pending.rec.id)

    def _plan_files(self, group: _Group, numero: int, ano: int) -> list[FileRecord]:
        municipio_dir, lei_stem = group.lei.split("/", 1)
        rel = Path(municipio_dir) / lei_stem / str(ano) / f"edital-{numero:04d}"
        base = f"{_slug(group.lei)}-{ano}-{numero:04d}"

        def code(tipo: str, caso: str = "") -> str:
            return verification_code(group.lei, str(ano), str(numero), tipo, caso)

        files = [FileRecord("edital_consolidado", str(rel / f"edital-{base}.pdf"), None, code("edital_consolidado"))]
        for p in group.items:
            assert p.caso is not None and p.auto_numero is not None
            stem = f"edital-{base}-auto-{_auto_slug(p.auto_numero)}"
            files.append(FileRecord("edital_individual_pdf", str(rel / f"{stem}.pdf"), p.caso,
                                    code("edital_individual_pdf", p.caso)))
            files.append(FileRecord("edital_individual_docx", str(rel / f"{stem}.docx"), p.caso, None))
        files.append(FileRecord("caderno", str(rel / f"caderno-{base}.pdf"), None, code("caderno")))
        taken = [f.caminho for f in files if (self.saida / f.caminho).exists()]
        if taken:  # a new number whose files exist: not this ledger's (another ledger, or copied in by hand)
            raise LedgerError(
                f"o edital Nº {numero}/{ano} ({group.lei}) seria gravado por cima de arquivos que já existem e que "
                f"este livro não registrou: {', '.join(taken[:3])}{' …' if len(taken) > 3 else ''}; nada foi "
                "publicado.", file=self.saida,
                hint="a pasta de saída tem editais de outro livro: use o mesmo livro da pasta ou outra pasta de "
                "saída (veja docs/runbook-editais.md).")
        return files

    def _gazette_parts(self, pending: _Pending) -> list[tuple[str, str]]:
        """(bookmark title, file) of the gazette, in order: the consolidated edital, then each case's edital."""
        rec, group = pending.rec, pending.group
        notified = ptbr.count_noun(len(group.items), "notificado", "notificados")
        parts = [(f"Edital {rec.rotulo} — consolidado ({notified})",
                  pending.file("edital_consolidado").caminho)]
        for p in group.items:
            assert p.caso is not None and p.linha is not None
            parts.append((f"Edital de notificação — auto nº {p.auto_numero} — {p.linha['nome']}",
                          pending.individual(p.caso, "edital_individual_pdf").caminho))
        return parts

    def _gazette(self, pending: _Pending, builder: GazetteBuilder) -> Written:
        """Stamp and write the gazette whose parts are all in ``builder``."""
        rec = pending.rec
        gazette = pending.file("caderno")
        lei = pending.statute.lei
        place = f"{lei.municipio}/{lei.uf}"

        def folio(i: int, n: int) -> str:
            return (f"Caderno do edital {rec.rotulo} ({place}, publicação de {rec.data_publicacao:%d/%m/%Y}) — "
                    f"folha {i} de {n} — {GAZETTE_CODE_LABEL} {gazette.codigo}")

        data = builder.finish(folio, {
            "/Title": f"Caderno do edital de notificação {rec.rotulo} — {place} — {rec.data_publicacao:%d/%m/%Y}",
            "/Author": f"Prefeitura Municipal de {lei.municipio}",
            "/Subject": f"Edital {rec.rotulo} ({lei.label}) e editais individuais, para o diário oficial",
            "/Keywords": f"edital de notificação, {lei.label}, {place}, código {gazette.codigo}",
            "/Creator": "autos publicar-editais",
        })
        tmp = pending.tmp_of[gazette.caminho]
        if self.o.assinar is not None:  # signed here, before write_tmp takes the hash the ledger records
            data = batch_signer(self.o.assinar).sign(data, tmp)
        try:
            self.faults.hit("disco-cheio")
        except OSError as exc:
            raise output_error(exc, tmp) from None
        return write_tmp(tmp, data)

    def _consolidated_context(self, rec: EditalRecord, group: _Group, statute: Statute,
                              rule: NoticeFormRule) -> dict[str, Any]:
        lei = statute.lei
        rows = []
        for i, p in enumerate(group.items):
            assert p.linha is not None
            rows.append({**p.linha, "ordem": i + 1})
        first = rows[0]
        dates = {r["notificacao_em"] for r in rows}
        if len(dates) != 1:
            raise AutosError(f"datas de notificação diferentes no mesmo edital ({sorted(dates)}); nada publicado.")
        place = f"{lei.municipio}/{lei.uf}"
        orgao = " ".join(lei.orgao.split())
        with_deadlines = any(r["prazos"] for r in rows)
        # the case the law admits the edital in, in its own words (Ferraz art. 76, III: "desconhecido o domicílio
        # fiscal do infrator"); a law without them (Cuiabá, by analogy) keeps the general wording
        who = (f"— em cada caso, {rule.hipotese} —" if rule.hipotese
               else "com domicílio desconhecido ou em local incerto ou não sabido,")
        preambulo = (f"O MUNICÍPIO DE {lei.municipio.upper()}, com fundamento na {rule.base_legal}, NOTIFICA as "
                     f"pessoas abaixo relacionadas {who} da "
                     "lavratura dos autos de infração indicados, para que tomem ciência das penalidades aplicadas"
                     + (" e, querendo, exerçam os direitos previstos em lei nos prazos indicados."
                        if with_deadlines else "."))
        fecho = ("Os autos de infração ficam à disposição dos notificados na repartição indicada no cabeçalho. "
                 f"Este edital, Nº {rec.numero}/{rec.ano}, é publicado uma única vez: {rec.veiculo}"
                 + (f", e {rec.jornal}" if rec.jornal else "") + ".")
        issued = rec.data_edital
        titulo = f"Edital de Notificação nº {rec.numero}/{rec.ano}"
        signer = statute.edital_assinatura
        if signer is None:  # checked before the number was reserved; the rules changed since (a recovery)
            raise AutosError(f"as regras da lei ({statute.file}) não dizem quem assina o edital consolidado.",
                             hint="acrescente 'edital_assinatura' com 'nome' e 'cargo' e rode de novo.")
        exemplo_aviso = next((r["exemplo_aviso"] for r in rows if r["exemplo_aviso"]), "")
        if signer.exemplo:
            exemplo_aviso = " ".join(part for part in (exemplo_aviso, (
                "ATENÇÃO: o nome e o cargo de quem assina este edital são EXEMPLOS das regras do sistema, não os "
                "da autoridade designada pelo Município.")) if part)
        return {
            "cabecalho": letterhead(statute, self.autos.letterhead(statute)),
            "lei": {"rotulo": lei.label, "ementa": " ".join(lei.ementa.split()),
                    "ementa_oracao": ementa_clause(lei.ementa)},
            "edital": {
                "numero": f"{rec.numero}/{rec.ano}",
                "forma": rule.descricao,
                "base_legal": rule.base_legal,
                "preambulo": preambulo,
                "veiculo": rec.veiculo,
                "data_publicacao": ptbr.format_date(rec.data_publicacao),
                "jornal": rec.jornal or "",
                "data_jornal": ptbr.format_date(rec.data_jornal) if rec.data_jornal else "",
                "notificacao_em": first["notificacao_em"],
                "efeito": first["efeito"],
                "prazos": list({(d["descricao"], d["prazo"], d["base_legal"]): {
                    "descricao": d["descricao"], "prazo": d["prazo"], "base_legal": d["base_legal"],
                    "aviso": d.get("aviso", "")}  # every case has the same dates: the same warning
                    for r in rows for d in r["prazos"]}.values()),
                "contagem": counting_clause(self.autos.deadline_service.law(statute)) if with_deadlines else None,
                "fecho": fecho,
                "correcao": correction_note(rec),  # a republicação: which edital, published when, and why
            },
            "casos": rows,
            "exemplo_aviso": exemplo_aviso,
            "assinatura": {"nome": signer.nome, "cargo": signer.cargo},
            "local_data": f"{place}, {ptbr.format_date(issued)}.",
            "rodape": f"{titulo} — {lei.label} — {place}",
            "metadados": {
                "titulo": f"{titulo} — {place}",
                "autor": f"Prefeitura Municipal de {lei.municipio} — {orgao}",
                "assunto": f"{titulo} — {lei.label} — {ptbr.count_noun(len(rows), 'notificado', 'notificados')}",
                "palavras_chave": f"edital de notificação, {lei.label}, {lei.municipio}",
            },
        }

    # --- manifest --------------------------------------------------------------------------------
    def _write_manifest(self, ledger: Ledger) -> None:
        try:
            self.result.manifesto = write_manifest(ledger, self.o.data, self.result, self.saida)
        except AutosError as exc:
            self.result.erro = self.result.erro or exc
        except (OSError, sqlite3.Error) as exc:
            self.result.erro = self.result.erro or (output_error(exc, self.saida) if isinstance(exc, OSError) else
                                                    LedgerError("não foi possível ler o livro de editais para o "
                                                                f"manifesto ({sqlite_cause(exc, 'livro')}).",
                                                                file=str(ledger.location)))


#: in the output folder: the run lock of the folder, and which ledger numbers the editais written in it
FOLDER_LOCK_NAME = ".publicacao-editais.lock"
FOLDER_LEDGER_NAME = ".livro-editais"


def _lock_folder(folder: Path) -> RunLock:
    """Only one run writes into an output folder at a time, whatever ledger it uses."""
    lock = RunLock(folder / FOLDER_LOCK_NAME)
    try:
        taken = lock.acquire()
    except OSError as exc:
        raise output_error(exc, lock.path) from None
    if not taken:
        raise LedgerError("outra execução está publicando editais nesta pasta de saída neste momento (talvez com "
                          "outro livro).", file=folder, hint="aguarde o fim da outra execução e rode de novo.")
    return lock


def _claim_folder(folder: Path, ledger_path: Location, *, write: bool, identity: str | None = None) -> None:
    """One output folder, one ledger: two ledgers would number the same ``edital-0001`` and overwrite each
    other's published files. The folder records its ledger (path relative to the folder, so folder and ledger
    can move together; a ledger on PostgreSQL by the database's identity, the same whatever address a machine
    reaches it by) the first time it is used; another ledger is refused."""
    marker = folder / FOLDER_LEDGER_NAME
    here = (f"{_SERVER_MARK}{identity}" if isinstance(ledger_path, DatabaseUrl)
            else os.path.relpath(ledger_path.resolve(), folder.resolve()))
    try:
        recorded = marker.read_text(encoding="utf-8").strip() if marker.is_file() else None
    except (OSError, UnicodeDecodeError):
        recorded = None
    if recorded is not None and recorded != here:
        owner: object = ("outro banco PostgreSQL" if recorded.startswith(_SERVER_MARK)
                         else (folder / recorded).resolve())
        raise LedgerError(
            f"a pasta de saída é do livro {owner}, não deste ({ledger_path}); dois livros na mesma pasta "
            "numerariam os mesmos editais e um gravaria por cima dos arquivos publicados do outro.", file=folder,
            hint=f"use o livro da pasta (--livro {owner}) ou outra pasta de saída; se o livro mudou de lugar, "
            f"confira que é o mesmo e apague o arquivo {marker} (veja docs/runbook-editais.md).")
    if recorded is None and write:
        tmp = folder / f".{FOLDER_LEDGER_NAME}.tmp"
        write_tmp(tmp, (here + "\n").encode())  # OutputError with the cause in Portuguese (disk full…)
        try:
            os.replace(tmp, marker)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise output_error(exc, marker) from None


#: how a folder's marker names a ledger on PostgreSQL (then the database's identity)
_SERVER_MARK = "postgresql:"


def _ensure_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".autos-escrita-{os.getpid()}.tmp"
        try:
            with open(probe, "wb") as fh:
                fh.write(b"ok")
        finally:  # also when the write fails (a full disk fails the close that flushes it)
            with contextlib.suppress(OSError):
                probe.unlink()
    except OSError as exc:
        raise OutputError(f"a pasta de saída não pode ser usada ({os_error_pt(exc)}).", file=folder,
                          hint="escolha uma pasta em que você tenha permissão de escrita (-o PASTA); nada foi "
                          "publicado e o livro não foi alterado.") from None


def _terminate_as_interrupt(stopping: list[bool]) -> Callable[[], None]:
    """SIGTERM (systemd stop, kill) ends the run like Ctrl-C: the edital in progress is undone, the workers are
    killed rather than waited for (:meth:`Publisher._abort`). ``stopping`` gets ``True`` when it arrives."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(_sig: int, _frame: Any) -> None:
        if stopping:
            return  # a second SIGTERM does not interrupt the clean-up of the first
        stopping.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def correction_note(rec: EditalRecord) -> str:
    """What a republicação prints under its number (recorded with it in the ledger), or ``""``."""
    if rec.tipo != "republicacao" or not rec.alteracoes:
        return ""
    return str(json.loads(rec.alteracoes).get("nota", ""))


_MUNICIPIO_DIR = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*-[a-z]{2}$")


def place_option(values: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    """``--veiculo "TEXTO"`` (every law) or ``--veiculo "timoteo-mg=TEXTO"`` (one municipality)."""
    out: list[tuple[str, str]] = []
    for value in values:
        key, sep, text = value.partition("=")
        if sep and _MUNICIPIO_DIR.match(key.strip()) and text.strip():
            out.append((key.strip(), text.strip()))
        elif value.strip():
            out.append(("*", value.strip()))
    return tuple(out)


def summary(result: PublishResult, options: Options) -> str:
    lines = [f"Publicação de editais de {ptbr.format_date(result.data)} — livro: {options.ledger_path}"]
    if options.dry_run:
        lines.append("SIMULAÇÃO (--dry-run): nada foi gravado, nenhum número foi reservado.")
        for plan in result.planejados:
            casos = ptbr.count_noun(len(plan.casos), "caso", "casos")
            lines.append(f"seria publicado: edital Nº {plan.numero}/{plan.ano} ({plan.lei}) com {casos}: "
                         + ", ".join(f"auto {p.auto_numero}" for p in plan.casos))
    for e in result.publicados:
        how = " (concluído após uma execução interrompida)" if e.id in result.recuperados else ""
        casos = ptbr.count_noun(e.casos, "caso", "casos")
        lines.append(f"publicado: edital {e.rotulo} ({e.lei}) com {casos}{how}; caderno: {e.caderno}")
    if not result.publicados and not options.dry_run and result.erro is None:
        lines.append("nada novo a publicar nesta data.")
    lines.append(f"casos lidos: {result.lidos}; recusados: {len(result.recusados)}; já publicados antes (não "
                 f"republicados): {len(result.ja_publicados)}; sem edital (notificação por outra forma): "
                 f"{result.sem_edital}; outros documentos (ignorados): {result.ignorados}"
                 + (f"; processos com o edital já registrado: {result.edital_no_processo}"
                    if result.edital_no_processo else ""))
    for c in result.recusados:
        lines.append(f"recusado: {c.arquivo}: {' | '.join(c.motivos)}")
    for c in result.ja_publicados:
        lines.append(f"já publicado: {c.arquivo}: {' | '.join(c.motivos)}")
    for arquivo in result.registrados:
        lines.append(f"edital registrado no processo: {arquivo}")
    for c in result.nao_registrados:
        lines.append(f"NÃO registrado no processo: {c.arquivo}: {' | '.join(c.motivos)}")
    if result.manifesto:
        lines.append("manifesto: " + ", ".join(str(p) for p in result.manifesto))
    return "\n".join(lines)
