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
import os
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from autos.app.editais.consolidated import consolidated_context
from autos.app.editais.faults import _Faults
from autos.app.editais.folder import _claim_folder, _ensure_writable, _fsync_dir, _lock_folder, _recheck
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
from autos.app.editais.manifest import CaseProblem, write_manifest
from autos.app.editais.pool import _Inline, _kill_workers, _terminate_as_interrupt
from autos.app.editais.run import (
    Options,
    PlannedEdital,
    Published,
    PublishResult,
)
from autos.app.generation.pipeline import Autos
from autos.app.signing import batch_signer
from autos.base import ptbr
from autos.compute.edital import default_veiculo, edital_kinds, edital_rule, needs_newspaper
from autos.errors import AutosError, InputError, LedgerError, RecordError, RefusedError
from autos.render.gazette import GAZETTE_CODE_LABEL, GazetteBuilder, verification_code
from autos.rules.deadlines import NoticeFormRule
from autos.rules.statute import Statute
from autos.store.ledger import Correction, EditalRecord, FileRecord, Ledger, PlannedCase
from autos.store.ledger_store import RunLock
from autos.store.processo_file import EditalAct, record_edital
from autos.store.sqlite_errors import sqlite_cause


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
        ctx = consolidated_context(self.autos, rec, group.items, pending.statute, pending.rule)
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


def publish_editais(options: Options, *, log: Callable[[str], None] = lambda _m: None) -> PublishResult:
    """``autos publicar-editais`` as a function: one run with ``options`` (Portuguese progress lines to ``log``);
    what it published, refused and wrote, and its exit code, in the result — errors are in ``result.erro``, never
    raised once the run has started."""
    return Publisher(options, log=log).run()
