"""Where the ledger is kept and how one run at a time writes it (:mod:`autos.store.ledger`): the ledger in one SQLite
file (:class:`SqliteLedgerStore`, behind the register's :class:`autos.store.register_store.Store` interface), the run
lock (:class:`RunLock`: ``flock`` on POSIX, ``msvcrt.locking`` on Windows, closed at once in a forked child), and the
error the ledger raises, with the SQLite cause in Portuguese."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from autos.errors import LedgerError, keep_original, os_error_pt
from autos.store.ledger_schema import _APPLICATION_ID, _MIGRATIONS, _SQL, SCHEMA_VERSION, schema_statements
from autos.store.sqlite_errors import OwnDatabaseError, sqlite_cause


def _cause(exc: BaseException) -> str:
    return sqlite_cause(exc, "livro")


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


class SqliteLedgerStore:
    """The ledger in one SQLite file (:class:`autos.store.register_store.Store`). ``readonly`` never writes (a missing
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
