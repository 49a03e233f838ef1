"""The edital ledger ("livro de editais"): one SQLite file that numbers editais and records what was published.

Numbers run per law (rules id) and year, from 1, without gaps or duplicates: a number is the largest
already used plus one, taken inside a write transaction, and a reservation is only ever removed when
it is still the last number of its series (so removing it leaves no gap).

Each edital goes through two transactions (see ``docs/runbook-editais.md``):

1. **reserve** — the number, the cases (with the YAML text as read, so a restart renders exactly the
   same documents), the planned files and their verification codes; state ``reservado``;
2. **commit** — the SHA-256 and size of every file, state ``publicado``; all at once, after every file
   was written to a temporary name and renamed into place.

A run killed between the two leaves a ``reservado`` edital that the next run finishes first
(:meth:`Ledger.pending`). A run that fails with a known error (disk full, unwritable folder) undoes its
reservation (:meth:`Ledger.undo`), leaving the ledger as it was before that edital.

Only one run may write at a time: :meth:`Ledger.lock` takes an exclusive lock (:class:`RunLock`: ``flock`` on
POSIX, ``msvcrt.locking`` on Windows) on a sidecar ``<ledger>.lock`` file (the ledger itself stays one SQLite
file; SQLite's own locks are not disturbed); the publisher takes a second one on its output folder. The locks
belong to the process that took them: a process forked from it (a rendering worker) closes its inherited copy
at once (``os.register_at_fork``), so the lock is released the moment the run's main process dies, whatever
happens to its workers.

Every SQLite failure of a write is reported as a :class:`LedgerError` with the cause in Portuguese (disk
full, read-only file or folder, I/O error), never masked by a failing ``ROLLBACK``.

Storage sits behind the register's small interface (:class:`autos.store.register.Store`): every query is in
:data:`_SQL`, plain SQL that PostgreSQL also runs (``?`` parameters turned into the backend's style by
``Store.sql``; no ``PRAGMA``, ``INSERT OR``, ``AUTOINCREMENT``, ``IS ?`` or ``lastrowid``: the ids of a new edital
and of its files are the largest plus one, taken inside the write transaction, which one run at a time holds).
:class:`SqliteLedgerStore` is the only implementation, the ledger as it always was.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autos.base import ptbr
from autos.errors import AutosError, keep_original, os_error_pt
from autos.processo.case import document_key
from autos.store.database import DatabaseUrl
from autos.store.register import Store
from autos.store.sqlite_errors import OwnDatabaseError, sqlite_cause

if TYPE_CHECKING:
    from autos.store.postgres import Component


def _cause(exc: BaseException) -> str:
    return sqlite_cause(exc, "livro")


#: file name of the ledger when ``--ledger`` is not given: inside the output folder
DEFAULT_LEDGER_NAME = "livro-editais.sqlite3"

#: 1: the first ledger; 2: corrections of a published edital (retificação, republicação, cancelamento) — see
#: :data:`_MIGRATIONS`. A new ledger is created at version 1 and migrated, so every ledger went through the same steps.
SCHEMA_VERSION = 2
_APPLICATION_ID = 0x6175746F  # "auto": marks the SQLite file as an autos ledger

FILE_KINDS = ("edital_consolidado", "edital_individual_pdf", "edital_individual_docx", "caderno")

_SCHEMA = """
CREATE TABLE editais (
    id INTEGER PRIMARY KEY,
    lei TEXT NOT NULL,                 -- rules id, e.g. timoteo-mg/lei-3844-2022 (one series per law)
    ano INTEGER NOT NULL,
    numero INTEGER NOT NULL CHECK (numero > 0),
    data_publicacao TEXT NOT NULL,     -- AAAA-MM-DD (official press)
    data_jornal TEXT,                  -- AAAA-MM-DD (local newspaper, when the law requires it)
    data_edital TEXT NOT NULL,         -- AAAA-MM-DD, the date the edital bears (issued on)
    veiculo TEXT NOT NULL,             -- official press the edital is published in
    jornal TEXT,                       -- local newspaper, when the law requires it
    estado TEXT NOT NULL CHECK (estado IN ('reservado', 'publicado')),
    saida TEXT NOT NULL,               -- output folder, relative to the ledger's folder (file paths are relative to it)
    reservado_em TEXT NOT NULL,        -- ISO 8601 with offset, also the "gerado em" printed
    publicado_em TEXT,
    UNIQUE (lei, ano, numero)
);
CREATE TABLE casos (
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,
    caso TEXT NOT NULL UNIQUE,         -- "<lei>#<número do auto>": a case is published once
    auto_numero TEXT NOT NULL,
    arquivo TEXT NOT NULL,             -- the case file as found
    sha256_caso TEXT NOT NULL,         -- of the case file's bytes
    texto_caso TEXT NOT NULL,          -- the case file as read (restart renders from it)
    motivo TEXT NOT NULL,              -- why edital (domicile unknown, AR returned and why)
    PRIMARY KEY (edital_id, ordem)
);
CREATE TABLE arquivos (
    id INTEGER PRIMARY KEY,
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    caso TEXT,                         -- NULL for the consolidated edital and the gazette file
    tipo TEXT NOT NULL CHECK (tipo IN ('edital_consolidado', 'edital_individual_pdf',
                                       'edital_individual_docx', 'caderno')),
    caminho TEXT NOT NULL,             -- relative to editais.saida
    codigo TEXT UNIQUE,                -- verification code printed on the PDF (NULL for DOCX)
    sha256 TEXT,                       -- NULL while the edital is only reserved
    bytes INTEGER,
    UNIQUE (edital_id, caminho)
);
CREATE INDEX arquivos_sha256 ON arquivos (sha256);
"""

#: what each format adds to the one before it (format 1 is :data:`_SCHEMA`): plain SQL both backends run, applied
#: in order — by a SQLite ledger when it is opened for writing (as the register does), by ``autos banco migrar`` on
#: PostgreSQL (recorded in ``schema_migrations``). A step PostgreSQL must run differently goes in
#: ``_MIGRATIONS_POSTGRESQL`` under the same number.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    # 2 — corrections of a published edital, as SEI records them:
    #   * an edital may correct another (``tipo`` retificacao | republicacao, ``corrige``: the edital corrected,
    #     ``motivo``; a retificação keeps what changed in ``alteracoes``, JSON). Its number is the next of the same
    #     series, like any edital;
    #   * a published edital may be cancelled (``cancelamentos``: one row per cancelled edital, never deleted);
    #   * so a case may be in more than one edital (the edital and its corrections; an edital cancelled and a new
    #     one): ``casos.caso`` is no longer UNIQUE (SQLite cannot drop a constraint: the table is rebuilt, same
    #     columns in the same order). "A case is published once" is kept by the ledger's code (:meth:`Ledger.reserve`,
    #     :meth:`Ledger.problems`): at most one live (not cancelled) edital of kind ``edital`` per case.
    2: (
        """CREATE TABLE casos_v2 (
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE,
    ordem INTEGER NOT NULL,
    caso TEXT NOT NULL,                -- "<lei>#<número do auto>"
    auto_numero TEXT NOT NULL,
    arquivo TEXT NOT NULL,
    sha256_caso TEXT NOT NULL,
    texto_caso TEXT NOT NULL,
    motivo TEXT NOT NULL,
    PRIMARY KEY (edital_id, ordem)
)""",
        "INSERT INTO casos_v2 (edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo) "
        "SELECT edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo FROM casos",
        "DROP TABLE casos",
        "ALTER TABLE casos_v2 RENAME TO casos",
        "CREATE INDEX casos_caso ON casos (caso)",
        "ALTER TABLE editais ADD COLUMN tipo TEXT NOT NULL DEFAULT 'edital' "
        "CHECK (tipo IN ('edital', 'retificacao', 'republicacao'))",
        "ALTER TABLE editais ADD COLUMN corrige INTEGER REFERENCES editais(id)",
        "ALTER TABLE editais ADD COLUMN motivo TEXT",
        "ALTER TABLE editais ADD COLUMN alteracoes TEXT",
        """CREATE TABLE cancelamentos (
    edital_id INTEGER PRIMARY KEY REFERENCES editais(id),
    data TEXT NOT NULL,                -- AAAA-MM-DD, the date of the cancellation
    motivo TEXT NOT NULL,
    cancelado_em TEXT NOT NULL         -- ISO 8601 with offset
)""",
    ),
}

#: a step of :data:`_MIGRATIONS` that PostgreSQL runs differently (same number): none so far
_MIGRATIONS_POSTGRESQL: dict[int, tuple[str, ...]] = {}


def schema_statements() -> tuple[str, ...]:
    """Format 1 (:data:`_SCHEMA`) as one statement each."""
    return tuple(st.strip() for st in _SCHEMA.split(";") if st.strip())

_EDITAL = ("e.id, e.lei, e.ano, e.numero, e.data_publicacao, e.data_jornal, e.data_edital, e.veiculo, e.jornal, "
           "e.estado, e.saida, e.reservado_em, e.publicado_em, e.tipo, e.corrige, e.motivo, e.alteracoes, c.data, "
           "c.motivo, c.cancelado_em")
_EDITAL_FROM = "editais e LEFT JOIN cancelamentos c ON c.edital_id = e.id"
_FILE = "tipo, caminho, caso, codigo, sha256, bytes"
_CASE = "ordem, caso, auto_numero, arquivo, sha256_caso, motivo"

#: every query the ledger runs, with ``?`` parameters (PostgreSQL runs them once ``Store.sql`` converts them)
_SQL = {
    "max_number": "SELECT max(numero) FROM editais WHERE lei = ? AND ano = ?",
    "max_edital_id": "SELECT max(id) FROM editais",
    "max_file_id": "SELECT max(id) FROM arquivos",
    "insert_edital": "INSERT INTO editais (id, lei, ano, numero, data_publicacao, data_jornal, data_edital, veiculo, "
                     "jornal, estado, saida, reservado_em, tipo, corrige, motivo, alteracoes) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'reservado', ?, ?, ?, ?, ?, ?)",
    "insert_case": "INSERT INTO casos (edital_id, ordem, caso, auto_numero, arquivo, sha256_caso, texto_caso, motivo) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "insert_file": "INSERT INTO arquivos (id, edital_id, caso, tipo, caminho, codigo) VALUES (?, ?, ?, ?, ?, ?)",
    "state": "SELECT estado FROM editais WHERE id = ?",
    "planned_paths": "SELECT caminho FROM arquivos WHERE edital_id = ?",
    "set_hash": "UPDATE arquivos SET sha256 = ?, bytes = ? WHERE edital_id = ? AND caminho = ?",
    "publish": "UPDATE editais SET estado = 'publicado', publicado_em = ? WHERE id = ?",
    "series_of": "SELECT lei, ano, numero, estado FROM editais WHERE id = ?",
    "delete_edital": "DELETE FROM editais WHERE id = ?",
    "edital": f"SELECT {_EDITAL} FROM {_EDITAL_FROM} WHERE e.id = ?",
    "pending": f"SELECT {_EDITAL} FROM {_EDITAL_FROM} WHERE e.estado = 'reservado' ORDER BY e.id",
    "edital_by_number": "SELECT id FROM editais WHERE lei = ? AND ano = ? AND numero = ?",
    "corrections_of": "SELECT id FROM editais WHERE corrige = ? ORDER BY id",
    "insert_cancellation": "INSERT INTO cancelamentos (edital_id, data, motivo, cancelado_em) VALUES (?, ?, ?, ?)",
    "ids_cancelled_on": "SELECT e.id FROM editais e JOIN cancelamentos c ON c.edital_id = e.id "
                        "WHERE c.data = ? ORDER BY e.lei, e.ano, e.numero",
    "ids": "SELECT id FROM editais ORDER BY lei, ano, numero",
    "ids_on": "SELECT id FROM editais WHERE data_publicacao = ? ORDER BY lei, ano, numero",
    "cases_of": f"SELECT {_CASE} FROM casos WHERE edital_id = ? ORDER BY ordem",
    "cases_with_text_of": f"SELECT {_CASE}, texto_caso FROM casos WHERE edital_id = ? ORDER BY ordem",
    "files_of": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? ORDER BY id",
    "case": f"SELECT edital_id, {_CASE} FROM casos WHERE caso = ? ORDER BY edital_id",
    "case_with_text": f"SELECT edital_id, {_CASE}, texto_caso FROM casos WHERE caso = ? ORDER BY edital_id",
    "case_keys": "SELECT caso FROM casos ORDER BY edital_id, ordem",
    "live_case_keys": "SELECT s.caso, e.tipo, e.id FROM casos s JOIN editais e ON e.id = s.edital_id "
                      "WHERE NOT EXISTS (SELECT 1 FROM cancelamentos c WHERE c.edital_id = e.id) "
                      "ORDER BY s.edital_id, s.ordem",
    "files_by_sha256": f"SELECT edital_id, {_FILE} FROM arquivos WHERE sha256 = ? ORDER BY id",
    "files_by_code": f"SELECT edital_id, {_FILE} FROM arquivos WHERE codigo = ? ORDER BY id",
    "sibling": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? AND caso = ? AND tipo = ?",
    "sibling_of_edital": f"SELECT {_FILE} FROM arquivos WHERE edital_id = ? AND caso IS NULL AND tipo = ?",
    "series": "SELECT lei, ano, count(*), count(DISTINCT numero), max(numero) FROM editais GROUP BY lei, ano",
    "unhashed": "SELECT a.caminho FROM arquivos a JOIN editais e ON e.id = a.edital_id "
                "WHERE e.estado = 'publicado' AND a.sha256 IS NULL",
}


class LedgerError(AutosError):
    """The ledger cannot be opened, is busy, or would be left inconsistent."""


def postgres_component() -> Component:
    """The ledger as :mod:`autos.store.postgres` keeps it: its queries, its numbered schema steps (1: the tables,
    then :data:`_MIGRATIONS`; a ``_MIGRATIONS_POSTGRESQL`` entry replaces a step on PostgreSQL), its advisory
    locks (the second one: the publication's run lock)."""
    from autos.store.postgres import Component

    steps: dict[int, tuple[str, ...]] = {1: schema_statements(), **_MIGRATIONS}
    steps.update(_MIGRATIONS_POSTGRESQL)
    return Component("livro", "o livro de editais", "--livro", _SQL, steps, LedgerError, 0x6175746F, 0x6175746F + 1)


@dataclass(frozen=True)
class PlannedCase:
    ordem: int
    caso: str
    auto_numero: str
    arquivo: str
    sha256_caso: str
    texto_caso: str
    motivo: str = ""


@dataclass(frozen=True)
class FileRecord:
    tipo: str
    caminho: str
    caso: str | None = None
    codigo: str | None = None
    sha256: str | None = None
    bytes: int | None = None


@dataclass(frozen=True)
class Cancellation:
    """A published edital cancelled (``autos cancelar-edital``): when, why, and when the ledger recorded it."""

    data: date
    motivo: str
    cancelado_em: datetime


@dataclass(frozen=True)
class Correction:
    """What a new edital corrects (:meth:`Ledger.reserve`): the edital, the kind of correction and why;
    ``alteracoes``: what a retificação changes (JSON, written by :mod:`autos.app.editais.corrections`)."""

    tipo: str  # 'retificacao' | 'republicacao'
    corrige: int  # ledger id of the edital corrected
    motivo: str
    alteracoes: str | None = None


#: the kinds of edital in the ledger, as the documents and the messages name them
EDITAL_KINDS = {"edital": "edital", "retificacao": "retificação", "republicacao": "republicação"}


@dataclass
class EditalRecord:
    id: int
    lei: str
    ano: int
    numero: int
    data_publicacao: date
    data_jornal: date | None
    data_edital: date
    veiculo: str
    jornal: str | None
    estado: str
    saida: Path
    reservado_em: datetime
    publicado_em: datetime | None
    casos: list[PlannedCase] = field(default_factory=list)
    arquivos: list[FileRecord] = field(default_factory=list)
    tipo: str = "edital"  # 'edital' | 'retificacao' | 'republicacao'
    corrige: int | None = None  # the edital this one corrects (ledger id)
    motivo: str | None = None  # why the correction
    alteracoes: str | None = None  # what a retificação changed (JSON)
    cancelamento: Cancellation | None = None

    @property
    def rotulo(self) -> str:
        """``Nº 3/2026``."""
        return f"Nº {self.numero}/{self.ano}"

    @property
    def cancelado(self) -> bool:
        return self.cancelamento is not None

    @property
    def publication_phrase(self) -> str:
        """``publicado em 6 de outubro de 2026 (Quadro …) e em 8 de outubro de 2026 (Jornal …)``: where and when."""
        text = f"publicado em {ptbr.format_date(self.data_publicacao)} ({self.veiculo})"
        if self.jornal and self.data_jornal:
            text += f" e em {ptbr.format_date(self.data_jornal)} ({self.jornal})"
        return text


@dataclass(frozen=True)
class Match:
    """A ledger file row with the edital it belongs to (``autos conferir``)."""

    arquivo: FileRecord
    edital: EditalRecord


def case_key(lei: str, auto_numero: str) -> str:
    """The identity of a case in the ledger: its law and the canonical number of its auto (``031/2026`` and
    ``31/2026`` are the same auto: :func:`autos.processo.case.document_key`). The number as typed is kept apart
    (``casos.auto_numero``) and is what the documents print."""
    numero, ano = document_key(auto_numero)
    return f"{lei}#{numero}/{ano}"


def _canonical_key(caso: str) -> str:
    """The canonical form of a key already in a ledger (older ledgers stored the number as typed)."""
    lei, sep, numero = caso.rpartition("#")
    if not sep:
        return caso
    try:
        return case_key(lei, numero)
    except ValueError:
        return caso


# --------------------------------------------------------------------------------------------------
# the run lock


#: lock file descriptors held by this process; a forked child closes its copies (they are not its locks)
_HELD_LOCK_FDS: set[int] = set()


def _close_inherited_locks() -> None:
    for fd in list(_HELD_LOCK_FDS):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD_LOCK_FDS.clear()


if hasattr(os, "register_at_fork"):  # POSIX; on Windows children are spawned and inherit no descriptor
    os.register_at_fork(after_in_child=_close_inherited_locks)


class RunLock:
    """An exclusive, non-blocking lock on a file, held by this process only.

    POSIX: ``flock`` (released by the kernel when the last descriptor of the open file closes, so when this
    process dies, because forked children close their copies at once); Windows: ``msvcrt.locking`` on the
    first byte (released when the handle closes or the process ends). The descriptor is not inheritable
    (Python's default), so programs this process executes do not get it either.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; ``False`` if another process holds it. ``OSError`` if the file cannot be opened."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
                import msvcrt

                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # BlockingIOError (POSIX) or PermissionError (Windows): held by another process
            os.close(fd)
            return False
        self._fd = fd
        _HELD_LOCK_FDS.add(fd)
        return True

    def release(self) -> None:
        if self._fd is not None:
            _HELD_LOCK_FDS.discard(self._fd)
            os.close(self._fd)  # releases the lock
            self._fd = None


def now_local() -> datetime:
    return datetime.now().astimezone().replace(microsecond=0)


class SqliteLedgerStore:
    """The ledger in one SQLite file (:class:`autos.store.register.Store`). ``readonly`` never writes (a missing
    file reads as an empty ledger, in memory)."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        try:
            if readonly:
                if self.path.is_file():
                    self.db = sqlite3.connect(f"file:{self.path.resolve()}?mode=ro", uri=True)
                else:
                    self.db = sqlite3.connect(":memory:")
                    for statement in schema_statements() + tuple(st for n in sorted(_MIGRATIONS)
                                                                 for st in _MIGRATIONS[n]):
                        self.db.execute(statement)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(FileExistsError):  # it keeps the text of published cases: personal data
                    os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                self.db = sqlite3.connect(str(self.path), isolation_level=None, timeout=30)
        except OSError as exc:
            raise LedgerError(f"não foi possível abrir o livro de editais ({os_error_pt(exc)}).", file=self.path,
                              hint="confira o caminho de --ledger, o espaço em disco e a permissão de escrita na "
                              "pasta.") from None
        except sqlite3.Error as exc:
            raise LedgerError(f"não foi possível abrir o livro de editais ({_cause(exc)}).", file=self.path,
                              hint="confira o caminho de --ledger, o espaço em disco e a permissão de escrita na "
                              "pasta.") from None
        try:
            self._setup()
        except sqlite3.OperationalError as exc:  # the file is fine, writing it is not (full, read-only, I/O)
            self.db.close()
            raise LedgerError(f"não foi possível usar o livro de editais ({_cause(exc)}).", file=self.path,
                              hint="libere espaço ou corrija a permissão do livro e da sua pasta e rode de novo; "
                              "nada foi publicado.") from None
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise LedgerError(f"o arquivo não é um livro de editais válido ({_cause(exc)}).", file=self.path,
                              hint="indique o livro certo com --ledger.") from None

    def _setup(self) -> None:
        if self.readonly:
            self.db.execute("PRAGMA foreign_keys = ON")
            self._check_version()
            if self.path.is_file() and self.db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                self._migrated_copy()  # an older ledger is read, never written: migrate a copy in memory
            return
        self.db.execute("PRAGMA synchronous = FULL")  # a committed edital survives a power cut
        # the migrations rebuild a table (``casos``): foreign keys are checked after them, not during (SQLite
        # ignores this pragma inside a transaction, so it is set before it)
        self.db.execute("PRAGMA foreign_keys = OFF")
        self.db.execute("BEGIN IMMEDIATE")  # two runs creating the same ledger: one waits for the other
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if tables:
                    raise OwnDatabaseError("o banco já tem tabelas que não são do autos")
                for statement in schema_statements():
                    self.db.execute(statement)
                self.db.execute("PRAGMA user_version = 1")
                self.db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
                version = 1
            if 1 <= version < SCHEMA_VERSION and self._is_ours():  # a ledger of an older format: migrated here
                _migrate(self.db, version)
            self.db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        self.db.execute("PRAGMA foreign_keys = ON")
        self._check_version()

    def _migrated_copy(self) -> None:
        """Replace the read-only connection by an in-memory copy of the ledger migrated to this version."""
        mem = sqlite3.connect(":memory:")
        self.db.backup(mem)
        self.db.close()
        mem.execute("PRAGMA foreign_keys = OFF")
        mem.execute("BEGIN")
        _migrate(mem, mem.execute("PRAGMA user_version").fetchone()[0])
        mem.execute("COMMIT")
        mem.execute("PRAGMA foreign_keys = ON")
        self.db = mem

    def _rollback(self) -> None:
        """Roll back the open transaction, if SQLite has not done it already (it does on a full disk or an I/O
        error); a failing rollback never hides the error that caused it."""
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")

    def _is_ours(self) -> bool:
        return bool(self.db.execute("PRAGMA application_id").fetchone()[0] == _APPLICATION_ID)

    def _check_version(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        app = self.db.execute("PRAGMA application_id").fetchone()[0]
        if not self.path.is_file():
            return
        if app == _APPLICATION_ID and version > SCHEMA_VERSION:
            raise LedgerError(f"o livro de editais é de uma versão mais nova do autos (formato {version}; esta versão "
                              f"lê até o formato {SCHEMA_VERSION}); nada foi lido nem gravado.", file=self.path,
                              hint="atualize o autos nesta máquina (todas as que usam o livro devem ter a mesma "
                              "versão).")
        ok = version == SCHEMA_VERSION or (self.readonly and 1 <= version < SCHEMA_VERSION)
        if not ok or app != _APPLICATION_ID:
            raise OwnDatabaseError(f"versão {version}, identificação {app:#x}")

    # --- the interface ---------------------------------------------------------------------------
    def sql(self, name: str) -> str:
        return _SQL[name]  # sqlite3's paramstyle is qmark: the queries are already in it

    def rows(self, name: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in self.db.execute(self.sql(name), tuple(params)).fetchall()]
        except sqlite3.Error as exc:
            raise LedgerError(f"não foi possível ler o livro de editais ({_cause(exc)}).", file=self.path,
                              hint="confira o caminho de --ledger e a permissão do arquivo.") from None

    def run(self, name: str, params: Sequence[object] = ()) -> None:
        self.db.execute(self.sql(name), tuple(params))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), rolled back on any exception; an SQLite
        failure becomes a :class:`LedgerError` with its cause (nothing of the transaction is recorded). Only one
        run writes at a time (:meth:`Ledger.lock`), so ids taken as the largest plus one cannot collide."""
        if self.readonly:
            raise LedgerError("livro aberto só para leitura.", file=self.path)  # pragma: no cover - programming error
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        except sqlite3.IntegrityError as exc:
            keep_original(exc, "livro de editais")
            raise LedgerError("o livro recusou a gravação: ela repetiria um caso, um arquivo ou um código já "
                              "registrados; nada desta operação foi registrado.", file=self.path,
                              hint="é um defeito: guarde o livro e o log e chame o suporte; não apague nem edite "
                              "o livro.") from None
        except sqlite3.Error as exc:
            raise LedgerError(f"não foi possível gravar no livro de editais ({_cause(exc)}); nada desta "
                              "operação foi registrado.", file=self.path,
                              hint="libere espaço ou corrija a permissão do livro e da sua pasta e rode de novo "
                              "com a mesma --data (veja docs/runbook-editais.md).") from None

    def alive(self) -> bool:
        return True  # a file: nothing to lose between two operations

    def close(self) -> None:
        self.db.close()


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Run every step of :data:`_MIGRATIONS` after ``version``, inside the caller's transaction, and record the
    version reached; a foreign key the steps broke fails the whole migration (nothing of it is kept)."""
    for step in range(version + 1, SCHEMA_VERSION + 1):
        for statement in _MIGRATIONS[step]:
            db.execute(statement)
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise OwnDatabaseError(f"referências quebradas depois da migração: {broken[:3]}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _file(r: Sequence[Any]) -> FileRecord:
    """A row of ``_FILE`` columns."""
    return FileRecord(tipo=r[0], caminho=r[1], caso=r[2], codigo=r[3], sha256=r[4], bytes=r[5])


class Ledger:
    """An open ledger over a :class:`Store` (by default :class:`SqliteLedgerStore` at ``path``). ``readonly``
    never writes (a missing file reads as an empty ledger)."""

    def __init__(self, path: str | Path | DatabaseUrl, *, readonly: bool = False, store: Store | None = None) -> None:
        self.location: Path | DatabaseUrl = path if isinstance(path, DatabaseUrl) else Path(path)
        self.readonly = readonly
        self._lock: RunLock | None = None
        self._server_lock = False
        self.store: Store
        if store is not None:
            self.store = store
        elif isinstance(self.location, DatabaseUrl):
            from autos.store.postgres import PostgresStore

            self.store = PostgresStore(self.location, postgres_component(), readonly=readonly)
        else:
            self.store = SqliteLedgerStore(self.location, readonly=readonly)
        self._legacy: dict[str, str] = self._legacy_keys()  # canonical key → key as stored by an older version

    @property
    def path(self) -> Path:
        """The SQLite file (messages name :attr:`location`, which may be a database)."""
        if isinstance(self.location, DatabaseUrl):
            return Path(os.sep)
        return self.location

    @property
    def on_server(self) -> bool:
        """On PostgreSQL the output folders are recorded by their absolute paths (every machine mounts them at the
        same path); in a SQLite file, relative to its folder."""
        return isinstance(self.location, DatabaseUrl)

    def _saida_text(self, saida: Path) -> str:
        if self.on_server:
            return Path(saida).resolve().as_posix()
        return os.path.relpath(saida, self.path.resolve().parent)

    def _saida_path(self, text: str) -> Path:
        if self.on_server:
            return Path(text).resolve()
        return (self.path.resolve().parent / text).resolve()

    @property
    def db(self) -> sqlite3.Connection:
        """The SQLite connection of the default store (tests, maintenance)."""
        assert isinstance(self.store, SqliteLedgerStore)
        return self.store.db

    def _legacy_keys(self) -> dict[str, str]:
        """Keys stored as typed by older versions (``lei#031/2026``), by their canonical form."""
        out: dict[str, str] = {}
        for (caso,) in self.store.rows("case_keys"):
            canonical = _canonical_key(caso)
            if canonical != caso:
                out.setdefault(canonical, caso)
        return out

    # --- lifetime --------------------------------------------------------------------------------
    def close(self) -> None:
        self.unlock()
        self.store.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def identity(self) -> str | None:
        """The database's identity on PostgreSQL (None for a SQLite file, named by its path)."""
        identity = getattr(self.store, "identity", None)
        return str(identity()) if identity is not None else None

    def lock(self) -> None:
        """Exclusive lock for a whole publication run; :class:`LedgerError` if another run holds it (on
        PostgreSQL: a session advisory lock, released when this process's connection ends)."""
        try_run_lock = getattr(self.store, "try_run_lock", None)
        if try_run_lock is not None:
            if not try_run_lock():
                raise LedgerError("outra execução (nesta ou em outra máquina) está publicando editais com este livro "
                                  "neste momento.", file=str(self.location),
                                  hint="aguarde o fim da outra execução e rode de novo.")
            self._server_lock = True
            return
        lock = RunLock(self.path.with_name(self.path.name + ".lock"))
        try:
            taken = lock.acquire()
        except OSError as exc:
            raise LedgerError(f"não foi possível criar a trava do livro ({os_error_pt(exc)}).",
                              file=lock.path) from None
        if not taken:
            raise LedgerError("outra execução está publicando editais com este livro neste momento.",
                              file=self.path, hint="aguarde o fim da outra execução e rode de novo.")
        self._lock = lock

    def unlock(self) -> None:
        if self._server_lock:
            release = getattr(self.store, "release_run_lock", None)
            if release is not None:
                release()
            self._server_lock = False
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # --- numbering and the state machine ---------------------------------------------------------
    def next_number(self, lei: str, ano: int) -> int:
        return int(self.store.rows("max_number", (lei, ano))[0][0] or 0) + 1

    def reserve(self, lei: str, data_publicacao: date, data_jornal: date | None, data_edital: date, veiculo: str,
                jornal: str | None, saida: Path, casos: Sequence[PlannedCase],
                files_for: Callable[[int], list[FileRecord]], *, now: datetime | None = None,
                correction: Correction | None = None) -> EditalRecord:
        """Take the next number of ``lei``'s series for the year of ``data_publicacao`` and record the plan.

        ``files_for(numero)`` names the files (paths and codes depend on the number). A case already
        in a live edital makes the whole reservation fail (:class:`LedgerError`), nothing recorded — except in
        a ``correction`` (retificação, republicação) of the live edital that has it: the edital corrected must be
        published and not cancelled.
        """
        ano = data_publicacao.year
        stamp = now or now_local()
        s = self.store
        with s.transaction():
            if correction is not None:
                target = self.edital(correction.corrige)
                if target is None or target.estado != "publicado" or target.cancelado:
                    raise LedgerError(f"o edital {correction.corrige} do livro não está publicado (ou foi cancelado); "
                                      "nada foi reservado.", file=self.path)
            for c in casos:  # the publisher checked already; the ledger does not rely on it
                found = self.case_edital(c.caso)
                if found is not None and (correction is None or not self._in_chain(found[0].id, correction.corrige)):
                    raise LedgerError(f"o auto {c.auto_numero} ({lei}) já está no edital {found[0].rotulo} de "
                                      f"{found[0].data_publicacao:%d/%m/%Y}; um auto é publicado uma única vez e "
                                      "nada foi reservado.", file=str(self.location))
            numero = self.next_number(lei, ano)
            edital_id = int(s.rows("max_edital_id")[0][0] or 0) + 1
            s.run("insert_edital", (edital_id, lei, ano, numero, data_publicacao.isoformat(),
                                    data_jornal.isoformat() if data_jornal else None, data_edital.isoformat(), veiculo,
                                    jornal, self._saida_text(saida), stamp.isoformat(),
                                    correction.tipo if correction else "edital",
                                    correction.corrige if correction else None,
                                    correction.motivo if correction else None,
                                    correction.alteracoes if correction else None))
            for c in casos:
                s.run("insert_case", (edital_id, c.ordem, c.caso, c.auto_numero, c.arquivo, c.sha256_caso,
                                      c.texto_caso, c.motivo))
            file_id = int(s.rows("max_file_id")[0][0] or 0)
            for f in files_for(numero):
                file_id += 1
                s.run("insert_file", (file_id, edital_id, f.caso, f.tipo, f.caminho, f.codigo))
        record = self.edital(edital_id)
        assert record is not None
        return record

    def commit(self, edital_id: int, hashes: dict[str, tuple[str, int]], *, now: datetime | None = None) -> None:
        """Record every file's SHA-256 and size and mark the edital published — all or nothing."""
        s = self.store
        with s.transaction():
            row = s.rows("state", (edital_id,))
            if not row or row[0][0] != "reservado":
                raise LedgerError(f"edital {edital_id} não está reservado; nada foi gravado.", file=str(self.location))
            planned = {r[0] for r in s.rows("planned_paths", (edital_id,))}
            if planned != set(hashes):
                missing = sorted(planned - set(hashes))
                extra = sorted(set(hashes) - planned)
                raise LedgerError(f"arquivos do edital não conferem com a reserva (faltam {missing}, sobram {extra}).",
                                  file=str(self.location))
            for path, (sha, size) in sorted(hashes.items()):
                s.run("set_hash", (sha, size, edital_id, path))
            s.run("publish", ((now or now_local()).isoformat(), edital_id))

    def undo(self, edital_id: int) -> None:
        """Remove a reservation that never got published. Only the last number of a series may go."""
        s = self.store
        with s.transaction():
            rows = s.rows("series_of", (edital_id,))
            if not rows:
                return
            lei, ano, numero, estado = rows[0]
            if estado != "reservado":
                raise LedgerError(f"o edital Nº {numero}/{ano} já foi publicado e não pode ser desfeito.",
                                  file=str(self.location))
            last = s.rows("max_number", (lei, ano))[0][0]
            if last != numero:
                raise LedgerError(f"a reserva do edital Nº {numero}/{ano} não é a última da série; desfazê-la "
                                  "abriria um buraco na numeração.", file=str(self.location),
                                  hint="conclua a reserva rodando a publicação de novo (veja o runbook).")
            s.run("delete_edital", (edital_id,))

    def cancel(self, edital_id: int, data: date, motivo: str, *, now: datetime | None = None) -> EditalRecord:
        """Mark a published edital cancelled (never deleted: its number, cases and files stay). Its cases are no
        longer live in it (:meth:`case_edital`). :class:`LedgerError`, nothing recorded, if it is not published or
        is already cancelled."""
        s = self.store
        with s.transaction():
            rec = self.edital(edital_id)
            if rec is None or rec.estado != "publicado":
                raise LedgerError("só um edital publicado pode ser cancelado; nada foi gravado.", file=self.path)
            if rec.cancelamento is not None:
                c = rec.cancelamento
                raise LedgerError(f"o edital {rec.rotulo} ({rec.lei}) já foi cancelado em "
                                  f"{c.data:%d/%m/%Y} (motivo: {c.motivo}); nada foi gravado.", file=self.path)
            s.run("insert_cancellation", (edital_id, data.isoformat(), motivo, (now or now_local()).isoformat()))
        out = self.edital(edital_id)
        assert out is not None
        return out

    def _in_chain(self, edital_id: int, root: int) -> bool:
        """``edital_id`` is ``root`` or corrects it, directly or through other corrections."""
        seen: set[int] = set()
        current: int | None = edital_id
        while current is not None and current not in seen:
            if current == root:
                return True
            seen.add(current)
            rows = self.store.rows("edital", (current,))
            current = rows[0][14] if rows else None
        return False

    # --- queries ---------------------------------------------------------------------------------
    def _edital_from_row(self, row: Sequence[Any], *, details: bool = True, text: bool = False) -> EditalRecord:
        """The edital (a row of ``_EDITAL`` columns); ``details``: its cases and files; ``text``: with each case's
        YAML text (recovery only — the texts of a large edital are megabytes)."""
        (id_, lei, ano, numero, data_publicacao, data_jornal, data_edital, veiculo, jornal, estado, saida,
         reservado_em, publicado_em, tipo, corrige, motivo, alteracoes, c_data, c_motivo, c_em) = row
        rec = EditalRecord(
            id=id_, lei=lei, ano=ano, numero=numero, data_publicacao=date.fromisoformat(data_publicacao),
            data_jornal=date.fromisoformat(data_jornal) if data_jornal else None,
            data_edital=date.fromisoformat(data_edital), veiculo=veiculo, jornal=jornal, estado=estado,
            saida=self._saida_path(saida), reservado_em=datetime.fromisoformat(reservado_em),
            publicado_em=datetime.fromisoformat(publicado_em) if publicado_em else None,
            tipo=tipo, corrige=corrige, motivo=motivo, alteracoes=alteracoes,
            cancelamento=(Cancellation(date.fromisoformat(c_data), c_motivo, datetime.fromisoformat(c_em))
                          if c_data else None),
        )
        if details:
            rec.casos = [PlannedCase(r[0], r[1], r[2], r[3], r[4], r[6] if text else "", r[5])
                         for r in self.store.rows("cases_with_text_of" if text else "cases_of", (rec.id,))]
            rec.arquivos = [_file(r) for r in self.store.rows("files_of", (rec.id,))]
        return rec

    def edital(self, edital_id: int, *, text: bool = False) -> EditalRecord | None:
        """The edital with its cases and files; ``text``: with each case's YAML text as recorded."""
        rows = self.store.rows("edital", (edital_id,))
        return self._edital_from_row(rows[0], text=text) if rows else None

    def pending(self) -> list[EditalRecord]:
        """Reserved editais not yet published (a previous run stopped), oldest first."""
        return [self._edital_from_row(r, text=True) for r in self.store.rows("pending")]

    def editais(self, *, data_publicacao: date | None = None) -> list[EditalRecord]:
        """Every edital (or those published on one date), in order of law, year and number."""
        return list(self.iter_editais(data_publicacao=data_publicacao))

    def iter_editais(self, *, data_publicacao: date | None = None) -> Iterator[EditalRecord]:
        """As :meth:`editais`, one at a time (a date's manifest is written without holding every edital)."""
        ids = (self.store.rows("ids") if data_publicacao is None
               else self.store.rows("ids_on", (data_publicacao.isoformat(),)))
        for (edital_id,) in ids:
            rec = self.edital(edital_id)
            assert rec is not None
            yield rec

    def case_edital(self, caso: str, *, text: bool = False) -> tuple[EditalRecord, PlannedCase] | None:
        """The live edital a case (key of :func:`case_key`) was published (or reserved) in, if any: the latest
        edital that has it and is not cancelled (a retificação or republicação of its edital is later), so a case
        whose every edital was cancelled is free to be published again. Also finds a key an older version stored
        with the number as typed. ``text``: with the case's YAML text as that edital recorded it."""
        query = "case_with_text" if text else "case"
        rows = self.store.rows(query, (caso,))
        if not rows and caso in self._legacy:
            rows = self.store.rows(query, (self._legacy[caso],))
        for row in reversed(rows):
            edital_id, ordem, key, auto_numero, arquivo, sha256_caso, motivo = row[:7]
            rec = self._edital_from_row(self.store.rows("edital", (edital_id,))[0], details=False)
            if rec.cancelado:
                continue
            return rec, PlannedCase(ordem, key, auto_numero, arquivo, sha256_caso, row[7] if text else "", motivo)
        return None

    def find(self, ref: str, lei: str | None) -> EditalRecord | None:
        """An edital by its ledger id (``7``) or by its number in ``lei``'s series (``3/2026``)."""
        ref = ref.strip()
        if "/" in ref:
            numero, _, ano = ref.partition("/")
            if lei is None or not numero.strip().isdigit() or not ano.strip().isdigit():
                return None
            rows = self.store.rows("edital_by_number", (lei, int(ano), int(numero)))
            return self.edital(rows[0][0]) if rows else None
        return self.edital(int(ref)) if ref.isdigit() else None

    def corrections(self, edital_id: int) -> list[EditalRecord]:
        """The editais that correct ``edital_id`` (retificações, republicações), oldest first."""
        out = []
        for (i,) in self.store.rows("corrections_of", (edital_id,)):
            rec = self.edital(i)
            assert rec is not None
            out.append(rec)
        return out

    def cancelled_on(self, data: date) -> list[EditalRecord]:
        """The editais cancelled on ``data`` (the manifest of that date lists them)."""
        out = []
        for (i,) in self.store.rows("ids_cancelled_on", (data.isoformat(),)):
            rec = self.edital(i)
            assert rec is not None
            out.append(rec)
        return out

    def _matches(self, query: str, value: str) -> list[Match]:
        out: list[Match] = []
        for r in self.store.rows(query, (value,)):
            ed = self.store.rows("edital", (r[0],))[0]
            out.append(Match(_file(r[1:]), self._edital_from_row(ed, details=False)))
        return out

    def sibling(self, match: Match, tipo: str) -> Match | None:
        """Another file of the same edital and case (the DOCX of an individual edital's PDF)."""
        caso = match.arquivo.caso
        rows = (self.store.rows("sibling", (match.edital.id, caso, tipo)) if caso is not None
                else self.store.rows("sibling_of_edital", (match.edital.id, tipo)))
        return Match(_file(rows[0]), match.edital) if rows else None

    def by_hash(self, sha256: str) -> list[Match]:
        return self._matches("files_by_sha256", sha256)

    def by_code(self, codigo: str) -> list[Match]:
        return self._matches("files_by_code", codigo)

    def problems(self) -> list[str]:
        """Integrity check: gaps or duplicates in a series, a case in two editais, published files without hash."""
        out: list[str] = []
        for lei, ano, n, distinct, largest in self.store.rows("series"):
            if n != distinct:
                out.append(f"{lei} {ano}: números repetidos")
            if largest != n:
                out.append(f"{lei} {ano}: buraco na numeração (maior {largest}, {n} editais)")
        for (caminho,) in self.store.rows("unhashed"):
            out.append(f"arquivo publicado sem hash: {caminho}")
        seen: dict[str, str] = {}  # a case in two live editais of kind 'edital' (its corrections may repeat it)
        for caso, tipo, _id in self.store.rows("live_case_keys"):
            if tipo != "edital":
                continue
            canonical = _canonical_key(caso)
            if canonical in seen:
                out.append(f"o mesmo auto está em mais de um edital: {seen[canonical]} e {caso}")
            seen.setdefault(canonical, caso)
        return out
