"""Preview and issue of one act's document, and the issued files as the register knows them (issue 14, item 3).

Usable without the web: the web's handlers call these, as a script could.

* :func:`preview` — the PDF bytes of one document of one act, rendered in memory (only that act), marked MINUTA
  while it has errors (the machinery of ``autos gerar --minuta --ato N``); nothing is written. With a
  :class:`PreviewCache`, a preview asked again while nothing it depends on changed is not rendered again.
* :func:`issue` — what ``autos gerar --ato N --registro R`` does for one act: its documents (PDF and DOCX) written
  to the output folder and their SHA-256 recorded in the register; refused (:class:`RefusedError`, listing each
  finding with its article) while the act, or the processo up to its date, has errors — nothing written then.
* :func:`issued_documents` and :func:`issued_file` — the documents the register recorded for a processo; a file
  is found through the register (never from a path a user gave) and only while its bytes still have the
  SHA-256 recorded.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import threading
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from autos.app.batch.workers import watch_parent
from autos.app.generation.pipeline import Autos
from autos.app.generation.results import ActPiece, Generated
from autos.app.register.service import ProcessoRecorder, find_register
from autos.base.ptbr import count_noun
from autos.base.yamlio import read_limited
from autos.checks.finding import Finding
from autos.errors import AutosError, InputError, NotFoundError, RefusedError, RegisterError
from autos.rules.calendar import format_date
from autos.store.database import Location
from autos.store.register import DEFAULT_REGISTER_NAME, DocumentRecord, Register

__all__ = ["IssueResult", "IssuedDocument", "IssuedFile", "Preview", "PreviewCache", "PreviewJob", "PreviewPool",
           "act_pieces", "issue", "issued_documents", "issued_file", "preview", "preview_job", "refusal",
           "render_job"]

Extension = Literal["pdf", "docx"]

#: one document rendered at a time per process: the web application calls these functions from its worker threads,
#: and neither WeasyPrint nor docxtpl is documented as thread-safe (both hold the GIL most of the time, so
#: rendering two documents in two threads would not be faster on the same cores anyway)
_RENDERING = threading.Lock()


@dataclass(frozen=True)
class Preview:
    """The PDF of one document of one act, as it would be issued now (``minuta``: marked MINUTA, with what is
    missing, because the act has errors). ``cached``: taken from a :class:`PreviewCache`, not rendered now."""

    ato: int
    documento: str
    titulo: str
    nome: str  # file name
    pdf: bytes
    minuta: bool
    achados: list[Finding]
    cached: bool = False


def _folder_stamp(folder: Path) -> bytes:
    """Every file under ``folder``: its relative name, size and modification time (a changed rule, template,
    stylesheet or letterhead gives another stamp)."""
    parts = [str(folder.resolve())]
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            parts.append(f"{os.path.relpath(path, folder)}\x1f{st.st_size}\x1f{st.st_mtime_ns}")
    return "\x1e".join(parts).encode()


class PreviewCache:
    """The previews this process rendered last, each under the SHA-256 of everything its PDF depends on: the
    processo file's bytes (read once, and the preview parsed from those same bytes), the file's path, the act and
    the document asked for, the reference date ("hoje", which decides deadlines and findings), the ``now`` a
    caller fixed, and the rules and templates folders (every file's name, size and modification time:
    statutes, deadline rules, calendars, HTML templates, stylesheet, letterheads). A file changed in any of
    these gives another key: a stale PDF is never served. Bounded (least recently used dropped first) in count
    and in bytes; the web server keeps one (its render processes never see it: a hit is not sent to them).

    A PDF taken from the cache is byte for byte the one rendered the first time, including the creation time
    in its metadata (the time of that render; the pages do not print it)."""

    def __init__(self, max_entries: int = 128, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[str, Preview] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def key(autos: Autos, file: Path, source: bytes, ato: int, documento: str | None,
            now: datetime | None) -> str:
        digest = hashlib.sha256(b"autos-previa-1")
        digest.update(hashlib.sha256(source).digest())
        digest.update(f"\x1e{Path(file).resolve()}\x1e{ato}\x1e{documento or ''}\x1e{autos.today.isoformat()}"
                      f"\x1e{now.isoformat() if now is not None else ''}".encode())
        digest.update(b"\x1d" + _folder_stamp(autos.rules.root) + b"\x1d" + _folder_stamp(autos.templates_dir))
        return digest.hexdigest()

    def get(self, key: str) -> Preview | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            self.hits += 1
        return replace(found, achados=list(found.achados), cached=True)

    def put(self, key: str, shown: Preview) -> None:
        size = len(shown.pdf)
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= len(old.pdf)
            self._entries[key] = shown
            self._bytes += size
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped.pdf)

    def miss(self) -> None:
        with self._lock:
            self.misses += 1


def act_pieces(autos: Autos, file: Path, ato: int | None = None) -> list[ActPiece]:
    """The documents of the processo's acts (or of act ``ato``, 1-based), each with its findings; nothing
    rendered."""
    return autos.processo_documents(file, ato=ato)


def _piece(autos: Autos, file: Path, ato: int, documento: str | None, source: bytes | None = None) -> ActPiece:
    pieces = autos.processo_documents(file, ato=ato, source=source)
    if documento is None:
        return pieces[0]
    for p in pieces:
        if p.documento == documento:
            return p
    kinds = ", ".join(p.documento for p in pieces)
    raise InputError(f"o ato {ato} não tem o documento '{documento}'.", file=file,
                     hint=f"documentos deste ato: {kinds}.")


def _render_preview(autos: Autos, piece: ActPiece, now: datetime | None) -> Preview:
    ((name, pdf),) = autos.render_act_document(piece, "pdf", now=now)
    report = piece.report
    assert report is not None  # render_act_document raised otherwise
    return Preview(piece.ato, piece.documento, piece.titulo, name, pdf, bool(report.errors), list(report.findings))


@dataclass(frozen=True)
class PreviewJob:
    """A preview to render: everything a render process needs, picklable (the processo file's bytes read once,
    and the key they gave in the cache, when there is one)."""

    file: Path
    source: bytes
    ato: int
    documento: str | None
    today: date
    now: datetime | None
    key: str | None = None


def preview_job(autos: Autos, file: Path, ato: int, documento: str | None = None, *,
                now: datetime | None = None, cache: PreviewCache | None = None) -> Preview | PreviewJob:
    """The preview from ``cache`` when it has it, else the job that renders it (:func:`render_job` here, or
    :meth:`PreviewPool.submit` in another process). Reads the file once; renders nothing."""
    source = read_limited(file, InputError)
    key = None
    if cache is not None:
        key = cache.key(autos, file, source, ato, documento, now)
        found = cache.get(key)
        if found is not None:
            return found
    return PreviewJob(Path(file), source, ato, documento, autos.today, now, key)


def render_job(autos: Autos, job: PreviewJob) -> Preview:
    """The preview of ``job`` rendered in this process (one document at a time: :data:`_RENDERING`)."""
    piece = _piece(autos, job.file, job.ato, job.documento, job.source)
    with _RENDERING:
        return _render_preview(autos, piece, job.now)


def preview(autos: Autos, file: Path, ato: int, documento: str | None = None, *,
            now: datetime | None = None, cache: PreviewCache | None = None) -> Preview:
    """The PDF of act ``ato``'s document (``documento``: its kind, when the act has more than one; by default the
    first), MINUTA while it has errors. Only this act's document is rendered, in this process.

    ``cache``: the same preview asked again while the file and everything else it depends on are unchanged
    (:class:`PreviewCache`) is taken from there; the file is read once and the preview is made from the bytes
    its key was computed on."""
    job = preview_job(autos, file, ato, documento, now=now, cache=cache)
    if isinstance(job, Preview):
        return job
    if cache is None or job.key is None:
        return render_job(autos, job)
    piece = _piece(autos, job.file, job.ato, job.documento, job.source)
    with _RENDERING:
        found = cache.get(job.key)  # rendered by another thread while this one waited
        if found is not None:
            return found
        cache.miss()
        shown = _render_preview(autos, piece, now)
    cache.put(job.key, shown)
    return shown


#: the library of a render process of :class:`PreviewPool` (set by its initializer)
_PREVIEWER: Autos | None = None


def _init_preview_worker(rules_dir: Path | None, templates_dir: Path | None) -> None:
    global _PREVIEWER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides what an interrupt means
    watch_parent(2)  # a render process never outlives a killed server
    _PREVIEWER = Autos(rules_dir, templates_dir)
    _ = _PREVIEWER.pdf_renderer  # WeasyPrint imported and the templates read now, not on the first preview


def _preview_in_worker(job: PreviewJob) -> Preview | tuple[type[AutosError], dict[str, Any]]:
    """:func:`render_job` in a render process. An :class:`AutosError` (a processo with no such document…) comes
    back as its class and attributes: its keyword-only constructor does not survive pickling as an exception."""
    assert _PREVIEWER is not None, "render process not initialised"
    _PREVIEWER.today = job.today
    try:
        return render_job(_PREVIEWER, job)
    except AutosError as exc:
        return type(exc), dict(vars(exc))


def _warm() -> int:
    return os.getpid()


class PreviewPool:
    """``workers`` processes that render previews, each with its own :class:`~autos.app.generation.pipeline.Autos` (the
    same rules and templates as the caller's; the reference date travels with each job): previews use every core
    whatever thread or connection asked for them. A render process that dies (killed, out of memory) breaks the
    pool: the preview that was waiting fails with a Portuguese :class:`AutosError`, and the pool is replaced
    for the next one. Processes are started with ``spawn`` (the server has threads; a fork would copy their
    locks)."""

    def __init__(self, rules_dir: Path | None, templates_dir: Path | None, workers: int) -> None:
        self.workers = max(1, workers)
        self._args = (rules_dir, templates_dir)
        self._lock = threading.Lock()
        self._closed = False
        self._warming: list[Future[int]] = []
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_init_preview_worker, initargs=self._args)
        # a process is started for each task submitted while none is idle: all of them now, not on the first clerks
        self._warming = [executor.submit(_warm) for _ in range(self.workers)]
        return executor

    def wait_ready(self) -> None:
        """Until the render processes started have their library ready (the application's start waits for this:
        an initialisation that fails stops the start with its message)."""
        try:
            for f in self._warming:
                f.result()
        except BrokenProcessPool:
            raise AutosError("os processos que geram as pré-visualizações não iniciaram.",
                             hint="confira no log do servidor o erro de cada um (regras ou modelos ilegíveis?).") \
                from None

    def pids(self) -> list[int]:
        """The render processes' ids (for the tests and the load bench)."""
        with self._lock:
            return list(self._executor._processes)

    def submit(self, job: PreviewJob) -> Future[Preview]:
        """``job`` rendered in a render process; the future's error is an :class:`AutosError` in Portuguese."""
        with self._lock:
            if self._closed:
                raise AutosError("o servidor está sendo encerrado; a pré-visualização não foi gerada.",
                                 hint="abra a página de novo em instantes.")
            executor = self._executor
        result: Future[Preview] = Future()
        try:
            inner = executor.submit(_preview_in_worker, job)
        except BrokenProcessPool:
            self._replace(executor)
            result.set_exception(_died())
            return result

        def done(f: Future[Preview | tuple[type[AutosError], dict[str, Any]]]) -> None:
            try:
                value = f.result()
            except BrokenProcessPool:
                self._replace(executor)
                result.set_exception(_died())
                return
            except BaseException as exc:  # handed to the caller as it came
                result.set_exception(exc)
                return
            if isinstance(value, Preview):
                result.set_result(value)
                return
            cls, attrs = value
            error = cls.__new__(cls)
            error.__dict__.update(attrs)
            Exception.__init__(error, error.render())
            result.set_exception(error)

        inner.add_done_callback(done)
        return result

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new pool for the next previews, once, in place of ``broken``."""
        with self._lock:
            if self._closed or self._executor is not broken:
                return
            self._executor = self._start()
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the render processes (at the server's shutdown); a preview still waiting fails."""
        with self._lock:
            self._closed = True
            executor = self._executor
        executor.shutdown(wait=True, cancel_futures=True)


def _died() -> AutosError:
    return AutosError("o processo que gera a pré-visualização terminou inesperadamente (falta de memória?); "
                      "nada foi gravado.", hint="abra a página de novo: outro processo de geração já foi iniciado.")


@dataclass(frozen=True)
class IssuedDocument:
    """One file written (or already there, identical) by an issue, as the register recorded it."""

    path: Path
    sha256: str
    bytes: int
    inalterado: bool


@dataclass
class IssueResult:
    ato: int
    registro: Location
    documentos: list[IssuedDocument] = field(default_factory=list)
    gerado_em: datetime | None = None


def refusal(ato: int, pieces: list[ActPiece], file: Path) -> RefusedError | None:
    """Why act ``ato`` cannot be issued: every error of its documents, each with its article, path and line."""
    lines: list[str] = []
    count = 0
    for p in pieces:
        if p.erro is not None:
            lines.append(f"  {p.titulo}: {p.erro.message}")
            count += 1
            continue
        for f in p.errors:
            lines.append("  " + f.render().replace("\n", "\n  "))
            count += 1
    if not count:
        return None
    what = " e ".join(f"{p.titulo} de {format_date(p.data)}" for p in pieces)
    return RefusedError(f"ato {ato} ({what}): {count_noun(count, 'pendência', 'pendências')}; nada foi emitido:\n"
                        + "\n".join(lines) + "\n", file=file,
                        hint="corrija as pendências no processo; a pré-visualização mostra a minuta com o que falta.")


def issue(autos: Autos, file: Path, ato: int, out_dir: Path, registro: Location | None = None, *,
          replace: bool = False, now: datetime | None = None, por: str | None = None,
          objeto: str | None = None) -> IssueResult:
    """Issue act ``ato`` (1-based) of the processo in ``file``: the PDF and DOCX of each of its documents written
    to ``out_dir`` and their SHA-256 recorded in the register ``registro`` (by default the one found beside the
    processo), as ``autos gerar --ato N`` does. Refused, nothing written, while there are errors; a different
    document already issued is not replaced unless ``replace`` (:class:`ReplaceRefusedError`). ``por``: the login
    that issued, recorded in the register's audit log ("emitiu", ``objeto``: what was issued, by default the
    file) with each file's name and SHA-256."""
    pieces = autos.processo_documents(file, ato=ato)
    refused = refusal(ato, pieces, file)
    if refused is not None:
        raise refused
    path = registro if registro is not None else find_register(file)
    if path is None:
        raise RegisterError(f"nenhum registro ({DEFAULT_REGISTER_NAME}) encontrado para {file}: o documento emitido "
                            "precisa ter o SHA-256 registrado.", file=file,
                            hint="indique o registro (--registro ou a configuração do servidor) ou crie-o com autos "
                            "registro reconstruir PASTA_DOS_PROCESSOS.")
    result = IssueResult(ato, path)
    with ProcessoRecorder(path) as recorder:
        rec = recorder.for_processo(file)
        with _RENDERING:
            done = autos.generate_processo(file, out_dir, "ambos", ato=ato, now=now, replace=replace,
                                           stamp_of=rec.stamp_of)
        for n, written in done:  # what was written is recorded even when a later document of the act failed
            if isinstance(written, Generated):
                rec.record(n, written)
                result.gerado_em = written.stamp
                unchanged = set(written.unchanged)
                result.documentos.extend(IssuedDocument(p, sha, size, p in unchanged)
                                         for p, sha, size in written.hashes)
        if por is not None and rec.register is not None and result.documentos:
            detail = "; ".join(f"{d.path.name} (SHA-256 {d.sha256}{', idêntico ao já emitido' if d.inalterado else ''})"
                               for d in result.documentos)
            rec.register.audit(por, "emitiu", objeto or str(file), f"ato {ato}: {detail}")
        for _n, written in done:
            if isinstance(written, AutosError):
                raise written
    return result


def issued_documents(register: Register, file: Path) -> list[DocumentRecord]:
    """The documents issued from the processo in ``file`` as the register recorded them, by act and kind, newest
    first (a minuta that ``autos gerar --minuta`` recorded is not an issued document: its name ends in MINUTA)."""
    return [r for r in register.documents_of(register.relative(file))
            if not PurePosixPath(r.caminho).stem.endswith("-MINUTA")]


@dataclass(frozen=True)
class IssuedFile:
    nome: str
    data: bytes
    registro: DocumentRecord


def issued_file(register: Register, file: Path, ato: int, documento: str, ext: Extension) -> IssuedFile:
    """The newest issued ``ext`` file of act ``ato``'s document ``documento``, found through the register (never
    from a path a user typed), with its bytes, which still have the SHA-256 recorded. ``InputError`` when none
    was issued or the file was removed (:class:`NotFoundError`), or changed since (:class:`InputError`)."""
    found = [r for r in issued_documents(register, file)
             if r.ato == ato and r.documento == documento and PurePosixPath(r.caminho).suffix == f".{ext}"]
    if not found:
        raise NotFoundError(f"nenhum documento {ext.upper()} emitido para o ato {ato} ({documento}) deste processo.",
                            file=file, hint="emita o ato primeiro.")
    newest = found[0]
    target = register.absolute(newest.caminho)
    try:
        data = target.read_bytes()
    except OSError:
        raise NotFoundError(f"o documento emitido não está mais em {target}.", file=register.path,
                            hint="emita o ato de novo ou restaure o arquivo.") from None
    if hashlib.sha256(data).hexdigest() != newest.sha256:
        raise InputError(f"o documento em {target} não confere com o SHA-256 registrado na emissão "
                         f"({newest.sha256}): foi alterado depois de emitido.", file=register.path,
                         hint="confira com autos conferir ARQUIVO --registro REGISTRO e emita de novo.")
    return IssuedFile(target.name, data, newest)
