"""The small public API: one :class:`Autos` object runs the stages for a case file.

load → compute (fines, deadlines, costs: once per case, :meth:`Autos.compute`) → validate (reading what
was computed, :meth:`Autos.check`) → document context (reading the same result) → render (docx, pdf). The CLI
calls one method per command; batch jobs and benchmarks reuse one object so rules, calendars and templates are
read once.
"""

from __future__ import annotations

import dataclasses
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autos.app.batch.workers import watch_parent
from autos.app.generation.act_numbers import duplicate_act_numbers
from autos.app.generation.files import (
    _only_act,
    _processo_stem,
    _read_source,
    _sha256,
    _write_documents,
    expand_case_paths,
)
from autos.app.generation.results import (
    ActPiece,
    ActRecorder,
    CaseOutcome,
    DocumentContext,
    Format,
    Generated,
    Recorder,
    _deadlines_or_empty,
    _fines_or_none,
    _located,
    _stem,
    document_identity,
)
from autos.app.processo.deadlines import DeadlineService
from autos.app.processo.service import PendingReport, ProcessoService, is_processo_file
from autos.base.ptbr import count_noun
from autos.base.resources import default_rules_dir, default_templates_dir
from autos.base.yamlio import YamlDoc, decode_yaml, load_yaml
from autos.checks.acts import act_document, document_acts
from autos.checks.finding import Report
from autos.checks.processo import (
    ProcessoFine,
    ProcessoReport,
    act_report,
    check_processo,
    debt_findings,
    inscribes_an_amount,
    processo_fine,
    unreported_errors,
)
from autos.checks.result import CaseResult, check_case
from autos.checks.validate import statute_for
from autos.compute.fines import FineResult, compute_fines
from autos.compute.notice import CaseDeadlines
from autos.compute.result import CaseComputation, compute_case
from autos.compute.timeline import Timeline
from autos.errors import (
    AutosError,
    ComputeError,
    InputError,
    RefusedError,
    ReplaceRefusedError,
)
from autos.processo.load import LoadedProcesso, is_processo_data, load_processo, parse_processo
from autos.processo.load import from_doc as processo_from_doc
from autos.processo.load_case import LoadedCase, case_from_doc, load_case, parse_case
from autos.rules.authorities import with_register_signers
from autos.rules.deadlines import LawDeadlines
from autos.rules.procedure import Procedure, procedure_file
from autos.rules.statute import RuleSet, Statute, load_rules
from autos.store.files import ensure_dir

if TYPE_CHECKING:  # the renderers import WeasyPrint and docxtpl (~0.75 s): only when a document is rendered; the
    # documents' stage only when a document is built (start-up of the commands that check: README "Desempenho")
    from autos.app.signing import SignerSpec
    from autos.documents.lines import DeadlineLine
    from autos.render.docx import DocxRenderer
    from autos.render.pdf import PdfRenderer

class Autos:
    """Rules, templates and renderers for a run; ``today`` fixes the date used by the checks; ``assinatura``
    (``--assinar``): every PDF it writes is signed (PAdES) before it is written and its hash recorded."""

    def __init__(self, rules_dir: str | Path | None = None, templates_dir: str | Path | None = None,
                 today: date | None = None, *, assinatura: SignerSpec | None = None) -> None:
        self.rules_dir = Path(rules_dir) if rules_dir else None
        self.rules: RuleSet = with_register_signers(load_rules(self.rules_dir or default_rules_dir()))
        self._templates_arg = Path(templates_dir) if templates_dir else None
        self.templates_dir = Path(templates_dir) if templates_dir else default_templates_dir()
        self.today = today or date.today()
        self.deadline_service = DeadlineService(self.rules.root)
        self._pdf: PdfRenderer | None = None
        self._docx: DocxRenderer | None = None
        self._letterheads: dict[str, dict[str, Any]] = {}  # by Municipality: its letterhead file, read once
        self._processos: ProcessoService | None = None
        #: ``--assinar``: every PDF is signed (PAdES) before it is written and its hash recorded
        self.assinatura = assinatura

    # --- stages --------------------------------------------------------------------------------
    def load(self, file: str | Path) -> LoadedCase:
        return load_case(file)

    def statute_of(self, loaded: LoadedCase) -> Statute:
        return self.rules.get(loaded.case.lei)

    def compute(self, loaded: LoadedCase) -> CaseComputation:
        """Fines, notice and deadlines, custody costs of the case, each computed once (with the deadline rules
        and calendars this object read); ``InputError`` if its law or document kind does not exist."""
        statute = statute_for(loaded, self.rules)
        ds = self.deadline_service
        return compute_case(loaded, statute, lambda: ds.law(statute), lambda: ds.calendar(statute),
                            lambda: self.rite_of(statute))

    def rite_of(self, statute: Statute) -> LawDeadlines:
        """The deadline rules of the law's rite: the law's plus those its processo rules declare (``novo``), read
        once; the law's own where the rules folder has no processo rules for it."""
        proc = self.procedure_of(statute.id)
        return proc.law if proc is not None else self.deadline_service.law(statute)

    def check(self, loaded: LoadedCase) -> CaseResult:
        """The case computed once and validated: its findings and what was computed, for the documents."""
        return check_case(loaded, self.rules, self.compute(loaded), today=self.today,
                          defence_check=self.deadline_service.defence_problem)

    def validate(self, file: str | Path) -> Report:
        """Validate one file (a case, or a processo: a file with ``atos:``); a file that cannot be read
        becomes a report with ``error`` set."""
        try:
            doc = load_yaml(file, InputError)
        except AutosError as exc:
            return Report(file=Path(file), statute=None, findings=[], error=exc)
        return self.validate_doc(doc)

    def validate_doc(self, doc: YamlDoc) -> Report:
        """:meth:`validate` of a file already parsed (read once by a caller that looked at its data)."""
        try:
            if is_processo_data(doc.data):
                return self.check_processo(processo_from_doc(doc))
            return self.check(case_from_doc(doc))
        except AutosError as exc:
            return Report(file=doc.file, statute=None, findings=[], error=exc)

    # --- processos: one file per processo, a document per act (autos.processo) ------------------
    @property
    def processos(self) -> ProcessoService:
        """The timeline service over the same rules folder (procedures and calendars read once)."""
        if self._processos is None:
            self._processos = ProcessoService(self.rules.root, self.rules.get)
        return self._processos

    def procedure_of(self, lei: str) -> Procedure | None:
        """The processo rules (rite) of ``lei``, or None where the rules folder has none for it."""
        if not procedure_file(self.rules.root, lei).is_file():
            return None
        return self.processos.procedure(lei)

    def check_processo(self, loaded: LoadedProcesso) -> ProcessoReport:
        """The timeline's findings and those of each act's document as of its date (``autos validar``)."""
        lei = loaded.processo.lei
        proc, statute = self.processos.procedure(lei), self.rules.get(lei)
        timeline = self.processos.check_valid(loaded, self.today, statute)
        first: list[CaseResult] = []  # the auto's document, checked first: its fine is the processo's

        def check(doc: LoadedCase) -> CaseResult:
            result = self.check(doc)
            if not first and doc.case.documento == "auto_de_infracao":
                first.append(result)
            return result

        report = check_processo(loaded, timeline, proc, statute, check, self.processos.authorities(lei))
        if inscribes_an_amount(loaded):  # the amount inscribed in dívida ativa against the debt computed
            def auto_fine(doc: LoadedCase) -> FineResult | None:  # computed once, by the auto's check
                computed = first[0].computed if first else None
                return computed.fines() if computed is not None else self.fines(doc)
            try:
                fine = processo_fine(loaded, proc, statute, auto_fine)
            except AutosError:
                return report  # the fine's own error is among the findings
            report.findings.extend(debt_findings(loaded, self.processos.procedure(lei), fine))
            order = {"erro": 0, "aviso": 1}
            report.findings.sort(key=lambda f: (order[f.severidade], f.linha or 0))
        return report

    def processo_fine_of(self, file: str | Path) -> ProcessoFine:
        """``autos multa PROCESSO.yaml``: the auto's memo, the decisions on it and the amount in force."""
        return self._processo_fine(load_processo(file))

    def processo_fine(self, loaded: LoadedProcesso) -> ProcessoFine:
        """:meth:`processo_fine_of` of a processo already read (or with values filled in, as the history's)."""
        return self._processo_fine(loaded)

    def _processo_fine(self, loaded: LoadedProcesso) -> ProcessoFine:
        self.processos.check(loaded, self.today)  # unknown law → InputError naming the file
        lei = loaded.processo.lei
        return processo_fine(loaded, self.processos.procedure(lei), self.rules.get(lei), self.fines)

    def generate_processo(self, file: str | Path, out_dir: str | Path, formato: Format = "ambos", *,
                          ato: int | str | None = None, draft: bool = False, now: datetime | None = None,
                          arquivo: bool = False, replace: bool = False,
                          stamp_of: Callable[[Path], datetime | None] | None = None,
                          ) -> list[tuple[int, Generated | AutosError]]:
        """The document of every act that has one (or of act ``ato``, 1-based as ``autos prazos`` prints it, or
        ``"ultimo"``: the last act),
        each as of the act's date; ``(act number, what was written or why not)`` per act. An act's document is
        refused (``RefusedError``) when it, or the processo up to its date, has erros, unless ``draft``.

        A different document already at a target path is never replaced unless ``replace``
        (:class:`ReplaceRefusedError`); an identical one is left as it is. ``stamp_of(path)``: when the
        document at ``path`` was issued (the register knows), so that the same act re-generated prints the same
        "gerado em" and is recognised as identical; a replacement gets the time of this run."""
        source: bytes | None = None
        if arquivo and formato in ("pdf", "ambos"):
            source = _read_source(file)
            loaded = parse_processo(source.decode("utf-8"), file)
        else:
            loaded = load_processo(file)
        out: list[tuple[int, Generated | AutosError]] = []
        timeline = self.processos.check_valid(loaded, self.today, self.rules.get(loaded.processo.lei))
        pieces = self._act_pieces(loaded, ato, timeline)
        for piece in pieces:
            if piece.report is None:
                assert piece.erro is not None
                out.append((piece.ato, piece.erro))
                continue
            try:
                done = self._render(piece.loaded, piece.report, piece.stem, out_dir, formato, draft=draft, now=now,
                                    source=source, replace=replace, stamp_of=stamp_of, ident=piece.identity)
                done.documento = piece.documento
                out.append((piece.ato, done))
            except ReplaceRefusedError as exc:
                out.append((piece.ato, ReplaceRefusedError(f"ato {piece.ato} ({piece.titulo}): {exc.message}",
                                                           file=loaded.file, hint=exc.hint)))
            except RefusedError as exc:
                out.append((piece.ato, RefusedError(f"ato {piece.ato} ({piece.titulo} de "
                                                    f"{piece.data.strftime('%d/%m/%Y')}): {exc.message}",
                                                    file=loaded.file, hint=exc.hint)))
            except AutosError as exc:  # the case's own errors point into the processo; a template's, to the template
                out.append((piece.ato, piece.located(exc)))
        unreported = unreported_errors(loaded, timeline, [p.report for p in pieces if p.report is not None])
        if ato is None and not draft and unreported is not None:  # an error no document refused for: exit 1
            out.append((0, unreported))
        return out

    def processo_documents(self, file: str | Path, *, ato: int | None = None,
                           source: bytes | None = None) -> list[ActPiece]:
        """Every document of the processo's acts (or only of act ``ato``, 1-based), each checked as of the act's
        date as :meth:`generate_processo` checks it, nothing rendered: what a preview or an issue starts from.
        ``source``: the file's bytes, already read (by a caller that keyed something on them), parsed instead of
        reading the file again."""
        if source is None:
            return self._act_pieces(load_processo(file), ato)
        return self._act_pieces(processo_from_doc(decode_yaml(source, file, InputError)), ato)

    def _act_pieces(self, loaded: LoadedProcesso, ato: int | str | None,
                    timeline: Timeline | None = None) -> list[ActPiece]:
        """The document of each act of ``loaded`` that has one (or of act ``ato``, 1-based, or ``"ultimo"``), with
        its report as of the act's date, or the error that kept it from being checked."""
        lei = loaded.processo.lei
        proc, statute = self.processos.procedure(lei), self.rules.get(lei)
        timeline = timeline or self.processos.check_valid(loaded, self.today, statute)
        acts = document_acts(loaded, proc, statute)
        if ato is not None:
            acts = _only_act(loaded, acts, len(loaded.processo.atos) if ato == "ultimo" else int(ato))
        out: list[ActPiece] = []
        for i, kind in acts:
            doc = act_document(loaded, i, proc, statute, kind, timeline, self.processos.authorities(lei))
            if doc is None:
                continue
            piece = ActPiece(i + 1, doc.kind, statute.documentos[doc.kind].titulo, doc.as_of, doc.loaded, None,
                             f"{_processo_stem(loaded, doc.kind)}-ato-{i + 1:02d}", act=doc)
            try:
                piece.report = act_report(doc, loaded, timeline, self.check, statute)
            except AutosError as exc:
                piece.erro = piece.located(exc)
            out.append(piece)
        return out

    def render_act_document(self, piece: ActPiece, formato: Format = "pdf", *,
                            now: datetime | None = None) -> list[tuple[str, bytes]]:
        """``(file name, bytes)`` of ``piece``'s document rendered in memory, marked MINUTA while it has errors
        (what ``autos gerar --minuta --ato N`` writes for it); nothing is written."""
        if piece.report is None:
            assert piece.erro is not None
            raise piece.erro
        draft = bool(piece.report.errors) or bool(self.examples_of(piece.loaded, piece.report))
        stem = piece.stem + ("-MINUTA" if draft else "")
        stamp = now or datetime.now().astimezone().replace(microsecond=0)
        rendered, _code = self._render_bytes(piece.loaded, piece.report, stem, Path(), formato, draft, stamp, None,
                                             piece.identity)
        return [(p.name, data) for p, data in rendered]

    def _render(self, loaded: LoadedCase, report: Report, stem: str, out_dir: str | Path, formato: Format, *,
                draft: bool, now: datetime | None, source: bytes | None, replace: bool = False,
                stamp_of: Callable[[Path], datetime | None] | None = None,
                ident: tuple[str, ...] | None = None) -> Generated:
        """Render a document of a case whose report is already made (an act of a processo)."""
        out = Path(out_dir)
        ensure_dir(out)
        examples = [] if report.errors else self.examples_of(loaded, report)
        # an act with errors is refused unless the caller asked for a MINUTA (``draft``); one that only uses
        # example values is a MINUTA
        draft = draft or bool(examples)
        stem += "-MINUTA" if draft or report.errors else ""
        issued = None
        if stamp_of is not None:
            issued = next((s for s in (stamp_of(out / f"{stem}.{ext}") for ext in ("pdf", "docx")) if s), None)
        stamp = issued or now or datetime.now().astimezone().replace(microsecond=0)
        rendered, code = self._render_bytes(loaded, report, stem, out, formato, draft, stamp, source, ident)
        try:
            unchanged = _write_documents(rendered, replace and issued is None)
        except ReplaceRefusedError:
            if not (replace and issued is not None):
                raise
            stamp = now or datetime.now().astimezone().replace(microsecond=0)  # a new version: issued now
            if (stamp.tzinfo is None) == (issued.tzinfo is None) and stamp <= issued:
                # replaced within the second it was issued (or the clock is behind it): the register tells the
                # versions apart by this stamp ('conferir' says an older copy "foi substituído depois"), so the
                # new version is stamped one second after the one it replaces
                stamp = issued + timedelta(seconds=1)
            rendered, code = self._render_bytes(loaded, report, stem, out, formato, draft, stamp, source, ident)
            unchanged = _write_documents(rendered, True)
        return Generated(report=report, files=[p for p, _ in rendered], draft=draft or bool(report.errors),
                         unchanged=unchanged, hashes=[(p, _sha256(d), len(d)) for p, d in rendered], stamp=stamp,
                         codigo=code, exemplos=examples)

    def _render_bytes(self, loaded: LoadedCase, report: Report, stem: str, out: Path, formato: Format, draft: bool,
                      now: datetime, source: bytes | None,
                      ident: tuple[str, ...] | None) -> tuple[list[tuple[Path, bytes]], str]:
        doc = self.document_context(loaded, draft=draft, now=now, report=report, ident=ident)
        rendered: list[tuple[Path, bytes]] = []
        if formato in ("docx", "ambos"):
            rendered.append((out / f"{stem}.docx", self.docx_renderer.docx(doc.template, doc.context)))
        if formato in ("pdf", "ambos"):
            if source is not None:
                from autos.app.generation.archive import ARCHIVE_VARIANT, archive_metadata, source_attachment

                stamp = (now or datetime.now()).astimezone()
                pdf = self.pdf_renderer.pdf(doc.template, doc.context, pdf_variant=ARCHIVE_VARIANT,
                                            attachments=[source_attachment(loaded, source, stamp, doc.template,
                                                                            doc.context)],
                                            metadata=archive_metadata(loaded, doc.statute, stamp))
            else:
                pdf = self.pdf_renderer.pdf(doc.template, doc.context)
            rendered.append((out / f"{stem}.pdf", pdf))
        return (rendered if doc.draft else self._signed(rendered)), doc.codigo  # a MINUTA is never signed

    def _signed(self, rendered: list[tuple[Path, bytes]]) -> list[tuple[Path, bytes]]:
        """The PDFs of ``rendered`` signed with this process's signer (loaded once), with ``--assinar``."""
        if self.assinatura is None:
            return rendered
        from autos.app.signing import batch_signer

        signer = batch_signer(self.assinatura)
        return [(p, signer.sign(d, p) if p.suffix == ".pdf" else d) for p, d in rendered]

    def validate_many(self, files: list[Path]) -> list[Report]:
        """Validate files and folders (every ``*.yaml``/``*.yml`` below a folder), in order."""
        return [self.validate(p) for p in expand_case_paths(files)]

    def generate_each(self, files: list[Path], out_dir: str | Path, formato: Format = "ambos", *,
                      draft: bool = False, arquivo: bool = False, processes: int | None = None,
                      now: datetime | None = None, replace: bool = False,
                      executor: Executor | None = None) -> Iterator[CaseOutcome]:
        """Generate every case (files or folders) and yield each outcome in the order of the cases.

        ``processes``: how many processes render (default: one per core available to this process; 1: all in
        this process). Each worker loads the rules and templates once; the outcomes, the files and their
        bytes are the same whatever the number of processes (DOCX byte for byte, PDF the same text), since
        every case of the run is stamped with the same ``now`` (default: the start of the run). A case that
        fails (``AutosError``) does not stop the others."""
        paths = expand_case_paths(files)
        stamp = now or datetime.now()
        if executor is not None:  # a Dask cluster (``gerar --dask``): the workers read and write absolute paths
            flight: deque[tuple[Path, Future[CaseOutcome]]] = deque()
            width = 4 * int(getattr(executor, "width", 1))
            for path in paths:
                flight.append((path, executor.submit(_generate_in_worker, path.absolute(), Path(out_dir).absolute(),
                                                     formato, draft, arquivo, stamp, replace)))
                while len(flight) >= width:
                    yield _as_given(*flight.popleft())
            while flight:
                yield _as_given(*flight.popleft())
            return
        workers = min(processes or _cores(), len(paths))
        if workers <= 1:
            for path in paths:
                yield _outcome(self, path, out_dir, formato, draft, arquivo, stamp, replace)
            return
        import multiprocessing  # a pool of processes: not imported by the commands that need none (start-up)
        from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

        global _FORKED_FROM
        if multiprocessing.get_start_method() == "fork":
            # Build the renderers once, here: forked workers inherit them (WeasyPrint and docxtpl imported, fonts
            # set up, templates compiled), so a worker costs no start-up of its own; elsewhere each builds its own.
            _ = self.pdf_renderer, self.docx_renderer
            _FORKED_FROM = self
        args = (self.rules_dir, self._templates_arg, self.today, self.assinatura)
        with ProcessPoolExecutor(max_workers=workers, initializer=_init_generate_worker, initargs=args) as pool:
            window: deque[Future[CaseOutcome]] = deque()
            todo = iter(paths)
            try:
                for path in todo:  # a bounded window: results come back in order, memory stays flat
                    window.append(pool.submit(_generate_in_worker, path, out_dir, formato, draft, arquivo, stamp,
                                              replace))
                    if len(window) >= 4 * workers:
                        yield window.popleft().result()
                while window:
                    yield window.popleft().result()
            except BrokenProcessPool:
                raise AutosError("um processo de geração terminou inesperadamente (falta de memória?); os "
                                 "documentos já listados foram gravados, os demais não.",
                                 hint="confira a memória livre (ou use --processos 1) e gere de novo.") from None
            finally:
                for fut in window:
                    fut.cancel()
                _FORKED_FROM = None

    def generate_files(self, files: list[Path], out_dir: str | Path, formato: Format = "ambos", *,
                       ato: int | str | None = None, draft: bool = False, arquivo: bool = False,
                       processes: int | None = None, now: datetime | None = None, replace: bool = False,
                       recorder: Recorder | None = None, dask: str | None = None) -> Iterator[CaseOutcome]:
        """``autos gerar``: files and folders; each processo file (with ``atos:``) gives one outcome per act
        documented (:meth:`generate_processo`, ``ato`` to choose one: N or ``"ultimo"``), first, then the case
        files (:meth:`generate_each`, ``processes`` workers).

        ``replace``: a different document already written is replaced (otherwise refused, nothing written);
        ``recorder``: the register of each processo, which gives the "gerado em" of a document already issued
        and records what was written (its SHA-256). ``dask``: the address of a Dask scheduler whose workers render
        (:mod:`autos.app.batch.cluster`); the register stays in this process."""
        if dask is not None:
            from autos.app.batch.cluster import as_setup_args, dask_executor, signing_refused

            if self.assinatura is not None:
                raise signing_refused()
            setup = as_setup_args(self.rules_dir, self._templates_arg, self.today)
            with dask_executor(dask, _ensure_generate_worker, setup, rules_dir=setup[0],
                               templates_dir=setup[1]) as cluster:
                yield from self._generate_files(files, Path(out_dir).absolute(), formato, ato=ato, draft=draft,
                                                arquivo=arquivo, processes=processes, now=now, replace=replace,
                                                recorder=recorder, executor=cluster)
            return
        yield from self._generate_files(files, out_dir, formato, ato=ato, draft=draft, arquivo=arquivo,
                                        processes=processes, now=now, replace=replace, recorder=recorder)

    def _generate_files(self, files: list[Path], out_dir: str | Path, formato: Format, *, ato: int | str | None,
                        draft: bool, arquivo: bool, processes: int | None, now: datetime | None, replace: bool,
                        recorder: Recorder | None, executor: Executor | None = None) -> Iterator[CaseOutcome]:
        paths = expand_case_paths(files)
        processos = [f for f in paths if is_processo_file(f)]
        refused = duplicate_act_numbers(processos)  # an act number of another processo: nothing written for it
        for path, err in refused.items():
            yield from _processo_outcomes(path, [(0, err)])
        processos_all, processos = processos, [f for f in processos if f not in refused]
        if executor is not None:
            yield from self._processos_on(executor, processos, Path(out_dir), formato, ato=ato, draft=draft,
                                          arquivo=arquivo, now=now, replace=replace, recorder=recorder)
            processos_done: list[Path] = processos
            processos = []
        else:
            processos_done = processos
        for path in processos:
            acts: list[tuple[int, Generated | AutosError]]
            try:
                rec = recorder.for_processo(path) if recorder is not None else None
                acts = self.generate_processo(path, out_dir, formato, ato=ato, draft=draft, arquivo=arquivo, now=now,
                                              replace=replace, stamp_of=rec.stamp_of if rec is not None else None)
                if rec is not None:
                    for n, written in acts:
                        if not isinstance(written, AutosError):
                            rec.record(n, written)
            except AutosError as exc:
                acts = [(0, exc)]
            yield from _processo_outcomes(path, acts)
        chosen = set(processos_done) | set(processos_all)
        yield from self.generate_each([f for f in paths if f not in chosen], out_dir, formato, draft=draft,
                                      arquivo=arquivo, processes=processes, now=now, replace=replace,
                                      executor=executor)

    def _processos_on(self, executor: Executor, processos: list[Path], out_dir: Path, formato: Format, *,
                      ato: int | str | None, draft: bool, arquivo: bool, now: datetime | None, replace: bool,
                      recorder: Recorder | None) -> Iterator[CaseOutcome]:
        """:meth:`generate_processo` of each processo on the executor's workers (``gerar --dask``), in order, a
        bounded window in flight. This process keeps the register: it reads the "gerado em" of every document a
        processo's acts may write (:meth:`_issued`) before sending it, and records what the worker wrote after."""
        from autos.errors import ClusterError

        width = 4 * int(getattr(executor, "width", 1))
        window: deque[tuple[Path, ActRecorder | None, Future[list[tuple[int, Generated | AutosError]]] | AutosError]]
        window = deque()

        def finish() -> Iterator[CaseOutcome]:
            path, rec, fut = window.popleft()
            try:
                if isinstance(fut, AutosError):
                    raise fut
                acts = fut.result()
                if rec is not None:
                    for n, written in acts:
                        if not isinstance(written, AutosError):
                            rec.record(n, written)
            except ClusterError:
                raise  # the cluster is gone: the run stops (exit 2); what was recorded stays recorded
            except AutosError as exc:
                acts = [(0, exc)]
            yield from _processo_outcomes(path, acts)

        for path in processos:
            try:
                rec = recorder.for_processo(path) if recorder is not None else None
                issued = self._issued(path, out_dir, rec) if rec is not None else {}
                window.append((path, rec, executor.submit(_generate_processo_in_worker, path.absolute(), out_dir,
                                                          formato, ato, draft, arquivo, now, replace, issued)))
            except AutosError as exc:
                window.append((path, None, exc))
            while len(window) >= width:
                yield from finish()
        while window:
            yield from finish()

    def _issued(self, path: Path, out_dir: Path, rec: ActRecorder) -> dict[str, datetime]:
        """The register's "gerado em" of every document the acts of the processo in ``path`` may write in
        ``out_dir`` (final or MINUTA, PDF and DOCX): what ``stamp_of`` would answer a worker, read here."""
        loaded = load_processo(path)
        lei = loaded.processo.lei
        proc, statute = self.processos.procedure(lei), self.rules.get(lei)
        out: dict[str, datetime] = {}
        for i, kind in document_acts(loaded, proc, statute):
            stem = f"{_processo_stem(loaded, kind)}-ato-{i + 1:02d}"
            for name in (f"{stem}{m}.{ext}" for m in ("", "-MINUTA") for ext in ("pdf", "docx")):
                stamp = rec.stamp_of(out_dir / name)
                if stamp is not None:
                    out[str(out_dir / name)] = stamp
        return out

    def deadlines_report(self, file: str | Path) -> CaseDeadlines | Timeline:
        """``autos prazos``: a processo's timeline as of :attr:`today` (its acts, deadlines, situation), or a
        case's notice and the deadlines that follow it; the file is read once."""
        doc = load_yaml(file, InputError)
        if is_processo_data(doc.data):
            return self.processos.check(processo_from_doc(doc), self.today)
        return self.deadlines(case_from_doc(doc))

    def fine_report(self, file: str | Path) -> ProcessoFine | FineResult | None:
        """``autos multa``: a processo's fine (the auto's memo, the decisions, the amount in force), or a case's
        fines (None: none proposed); the file is read once."""
        doc = load_yaml(file, InputError)
        if is_processo_data(doc.data):
            return self._processo_fine(processo_from_doc(doc))
        return self.fines(case_from_doc(doc))

    def pending(self, paths: list[Path], hoje: date, *, lei: str | None = None,
                agente: str | None = None) -> PendingReport:
        """``autos pendencias``: every processo under ``paths``, what is due as of ``hoje``, most urgent first."""
        return self.processos.pending(paths, hoje, lei=lei, agente=agente)

    def fines(self, loaded: LoadedCase) -> FineResult | None:
        """The fines of the case (``autos multa``); a fact that cannot be priced names the file, path and line."""
        try:
            return compute_fines(loaded.case, self.statute_of(loaded))
        except ComputeError as exc:
            raise _located(exc, loaded) from None

    def deadlines(self, loaded: LoadedCase) -> CaseDeadlines:
        """The notice date and every deadline that follows it (``autos prazos``); an error names the file, the
        path and the line (the notice's, when the deadline engine knows no finer one)."""
        try:
            return self.deadline_service.for_case(loaded, self.statute_of(loaded))
        except ComputeError as exc:
            raise _located(exc, loaded, "notificacao") from None

    def deadlines_of(self, file: str | Path) -> CaseDeadlines:
        """Load a case and compute its notice date and deadlines (``autos prazos``)."""
        return self.deadlines(self.load(file))

    def fines_of(self, file: str | Path) -> FineResult | None:
        """Load a case and compute its fines (``autos multa``)."""
        return self.fines(self.load(file))

    def deadline_lines(self, loaded: LoadedCase) -> tuple[list[DeadlineLine], str | None]:
        """The deadlines as a document prints them, and the notice date."""
        from autos.documents.notice import document_lines

        return document_lines(self.deadlines(loaded))

    def document_context(self, loaded: LoadedCase, *, draft: bool = False, now: datetime | None = None,
                         report: Report | None = None, ident: tuple[str, ...] | None = None) -> DocumentContext:
        """Validate (unless ``report`` is given) and build the context both renderers read, from what was
        computed for the case once (``report.computed`` of :meth:`check`; computed here for another report).

        A case with erros is refused (``RefusedError``) unless ``draft``; a draft leaves out what cannot be
        computed yet and lists the pending findings."""
        from autos.documents.context import build_context
        from autos.documents.minuta import document_examples, with_examples
        from autos.documents.notice import document_lines

        report = report if report is not None else self.check(loaded)
        if report.errors and not draft:
            lines = "\n".join("  " + f.render().replace("\n", "\n  ") for f in report.errors)
            raise RefusedError(
                f"o caso tem {count_noun(len(report.errors), 'pendência', 'pendências')} e o documento final não "
                f"foi gerado:\n{lines}\n",
                file=loaded.file,
                hint="corrija as pendências ou gere uma minuta com --minuta.",
            )
        computed = report.computed if isinstance(report, CaseResult) and report.computed is not None \
            else self.compute(loaded)
        statute = computed.statute
        fines = computed.fines() if not report.errors else _fines_or_none(computed)
        deadlines, notice_date = (document_lines(computed.case_deadlines()) if not report.errors
                                  else _deadlines_or_empty(computed))
        is_draft = bool(report.errors) or draft
        context = build_context(loaded.case, statute, report, fines, deadlines, draft=is_draft, computed=computed,
                                notice_date=notice_date, generated_at=now, own_letterhead=self.letterhead(statute))
        examples = document_examples(context, statute, computed, fines)
        context, is_draft = with_examples(context, examples), is_draft or bool(examples)
        template = statute.documentos[loaded.case.documento].modelo
        from autos.render.verification import document_code, with_pix_qr, with_verification

        code = document_code(*(ident or document_identity(loaded)))
        context = with_pix_qr(with_verification(context, code))
        return DocumentContext(report, statute, template, context, is_draft, code, examples)

    def examples_of(self, loaded: LoadedCase, report: Report) -> list[str]:
        """The example values of the rules the document of ``loaded`` uses (empty: it may be final)."""
        try:
            return self.document_context(loaded, draft=True, report=report).exemplos
        except AutosError:
            return []

    def letterhead(self, statute: Statute) -> dict[str, Any]:
        """The Municipality's own letterhead from the templates folder (read once per Municipality; ``{}`` for
        the neutral default): see :mod:`autos.render.letterhead`."""
        from autos.documents.context import municipality_id

        key = municipality_id(statute)
        if key not in self._letterheads:
            from autos.render.letterhead import load_letterhead

            self._letterheads[key] = load_letterhead(self.templates_dir / "html", key)
        return self._letterheads[key]

    # --- rendering -----------------------------------------------------------------------------
    @property
    def pdf_renderer(self) -> PdfRenderer:
        if self._pdf is None:
            from autos.render.pdf import PdfRenderer

            self._pdf = PdfRenderer(self.templates_dir)
        return self._pdf

    @property
    def docx_renderer(self) -> DocxRenderer:
        if self._docx is None:
            from autos.render.docx import DocxRenderer

            self._docx = DocxRenderer(self.templates_dir)
        return self._docx

    def generate(self, file: str | Path, out_dir: str | Path, formato: Format = "ambos", *,
                 draft: bool = False, now: datetime | None = None, arquivo: bool = False,
                 replace: bool = False) -> Generated:
        """Validate and render one case. Refused (``RefusedError``) when it has erros, unless ``draft``.

        ``arquivo``: the PDF is archival, PDF/A-3b, with the case file embedded (relationship *Source*)
        and identifying metadata (title, author, subject, keywords with the law and the case number).
        """
        source: bytes | None = None
        if arquivo and formato in ("pdf", "ambos"):
            loaded, source = _load_with_source(self, file)
        else:
            loaded = self.load(file)
        doc = self.document_context(loaded, draft=draft, now=now)
        report, statute, template, context, is_draft = doc.report, doc.statute, doc.template, doc.context, doc.draft
        out = Path(out_dir)
        ensure_dir(out)
        stem = _stem(loaded) + ("-MINUTA" if is_draft else "")
        rendered: list[tuple[Path, bytes]] = []
        if formato in ("docx", "ambos"):
            rendered.append((out / f"{stem}.docx", self.docx_renderer.docx(template, context)))
        if formato in ("pdf", "ambos") and source is not None:
            from autos.app.generation.archive import ARCHIVE_VARIANT, archive_metadata, source_attachment

            stamp = (now or datetime.now()).astimezone()
            pdf = self.pdf_renderer.pdf(template, context, pdf_variant=ARCHIVE_VARIANT,
                                        attachments=[source_attachment(loaded, source, stamp, template, context)],
                                        metadata=archive_metadata(loaded, statute, stamp))
            rendered.append((out / f"{stem}.pdf", pdf))
        elif formato in ("pdf", "ambos"):
            rendered.append((out / f"{stem}.pdf", self.pdf_renderer.pdf(template, context)))
        rendered = rendered if is_draft else self._signed(rendered)  # a MINUTA is never signed
        unchanged = _write_documents(rendered, replace)
        return Generated(report=report, files=[p for p, _ in rendered], draft=is_draft, unchanged=unchanged,
                         hashes=[(p, _sha256(d), len(d)) for p, d in rendered], codigo=doc.codigo,
                         exemplos=doc.exemplos)


def _cores() -> int:
    """Cores this process may run on (``taskset`` and container limits included)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _outcome(autos: Autos, path: Path, out_dir: str | Path, formato: Format, draft: bool, arquivo: bool,
             now: datetime, replace: bool = False) -> CaseOutcome:
    try:
        done = autos.generate(path, out_dir, formato, draft=draft, arquivo=arquivo, now=now, replace=replace)
    except AutosError as exc:
        return CaseOutcome(path, error=str(exc), exit_code=exc.exit_code)
    return CaseOutcome(path, done.files, done.draft, unchanged=done.unchanged, exemplos=done.exemplos)


_WORKER: Autos | None = None
#: the parent's library, inherited by forked workers of :meth:`Autos.generate_each` (None where workers spawn)
_FORKED_FROM: Autos | None = None


def _init_generate_worker(rules_dir: Path | None, templates_dir: Path | None, today: date,
                          assinatura: SignerSpec | None = None) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not a handler inherited by fork: stop now
    watch_parent(2)  # a worker never outlives a killed ``autos gerar`` (issue 10, item 1)
    _WORKER = _FORKED_FROM or Autos(rules_dir, templates_dir, today, assinatura=assinatura)
    if assinatura is not None:  # the signer once per worker, not per document
        from autos.app.signing import batch_signer

        batch_signer(assinatura)


def _ensure_generate_worker(rules_dir: str | None, templates_dir: str | None, today: date) -> None:
    """A Dask worker's set-up for ``gerar --dask`` (:class:`autos.app.batch.cluster.OnWorker`): the library, once."""
    global _WORKER
    _WORKER = Autos(rules_dir, templates_dir, today)


def _generate_processo_in_worker(path: Path, out_dir: Path, formato: Format, ato: int | str | None, draft: bool,
                                 arquivo: bool, now: datetime | None, replace: bool,
                                 issued: dict[str, datetime]) -> list[tuple[int, Generated | AutosError]]:
    """:meth:`Autos.generate_processo` on a worker; the report travels back without its rules (the coordinator
    only records the files, their hashes and the stamp)."""
    assert _WORKER is not None, "worker not initialised"
    acts = _WORKER.generate_processo(path, out_dir, formato, ato=ato, draft=draft, arquivo=arquivo, now=now,
                                     replace=replace, stamp_of=lambda p: issued.get(str(p)))
    return [(n, done if isinstance(done, AutosError) else dataclasses.replace(
        done, report=Report(done.report.file, None, [], done.report.error))) for n, done in acts]


def _as_given(path: Path, fut: Future[CaseOutcome]) -> CaseOutcome:
    """A worker's outcome under the path the user gave (the worker was sent the absolute one)."""
    return dataclasses.replace(fut.result(), path=path)


def _processo_outcomes(path: Path, acts: list[tuple[int, Generated | AutosError]]) -> Iterator[CaseOutcome]:
    if not acts:
        yield CaseOutcome(path, note="nenhum ato do processo tem documento a gerar.")
    for _n, done in acts:
        if isinstance(done, AutosError):
            yield CaseOutcome(path, error=str(done), exit_code=done.exit_code)
        else:
            yield CaseOutcome(path, done.files, done.draft, unchanged=done.unchanged, exemplos=done.exemplos)


def _generate_in_worker(path: Path, out_dir: str | Path, formato: Format, draft: bool, arquivo: bool,
                        now: datetime, replace: bool = False) -> CaseOutcome:
    assert _WORKER is not None, "worker not initialised"
    return _outcome(_WORKER, path, out_dir, formato, draft, arquivo, now, replace)


def _load_with_source(autos: Autos, file: str | Path) -> tuple[LoadedCase, bytes]:
    """The case and the exact bytes it was read from (the archive embeds what was validated)."""
    try:
        raw = Path(file).read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        autos.load(file)  # raises the error with its Portuguese message
        raise InputError("o arquivo mudou durante a leitura.", file=file, hint="tente de novo.") from None
    return parse_case(text, file), raw
