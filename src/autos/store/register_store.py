"""Where the register is kept (:mod:`autos.store.register`): the small storage interface (:class:`Store`, which the
ledger of editais and :class:`autos.store.postgres.PostgresStore` share) and its SQLite implementation
(:class:`SqliteStore`: WAL, ``synchronous=FULL``, ``application_id``/``user_version`` checked on opening, every write
transaction taken under the exclusive file lock ``<registro>.lock``), with the error the register raises."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from autos.errors import RegisterError, keep_original, os_error_pt
from autos.store.database import DatabaseUrl
from autos.store.register_schema import _APPLICATION_ID, _MIGRATIONS, _SCHEMA, _SQL, SCHEMA_VERSION
from autos.store.sqlite_errors import OwnDatabaseError, sqlite_cause

__all__ = ["LOCK_TIMEOUT", "LOCK_TIMEOUT_ENV", "RegisterError", "SqliteStore", "Store"]


def _cause(exc: BaseException) -> str:
    return sqlite_cause(exc, "registro")


#: seconds a write waits for another clerk's transaction before giving up with a clear error
LOCK_TIMEOUT = 30.0
#: environment variable that changes :data:`LOCK_TIMEOUT` (seconds)
LOCK_TIMEOUT_ENV = "AUTOS_REGISTRO_ESPERA"


# --------------------------------------------------------------------------------------------------
# the storage interface


class Store(Protocol):
    """What the register needs from a database: plain SQL, one transaction at a time.

    :class:`autos.store.postgres.PostgresStore` implements the same five methods on PostgreSQL (``sql`` turning
    ``?`` into ``%s``, a transaction taking an advisory lock where SQLite takes its file lock)."""

    @property
    def path(self) -> Path | DatabaseUrl:
        """The SQLite file, or the database (printed with its password masked)."""

    def sql(self, name: str) -> str:
        """The query ``name`` of :data:`_SQL` in this backend's parameter style."""

    def rows(self, name: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run a query and return every row."""

    def run(self, name: str, params: Sequence[object] = ()) -> None:
        """Run a statement (inside :meth:`transaction`)."""

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """One write transaction, exclusive among every process using the register; all or nothing."""

    def alive(self) -> bool:
        """Whether the connection still answers (a database server restarted since it was opened: ``False``)."""

    def close(self) -> None: ...


_HINT_PATH = "confira o caminho de --registro (ou da variável AUTOS_REGISTRO), o espaço em disco e a permissão."


class SqliteStore:
    """The register in one SQLite file (the default, and for now the only backend)."""

    def __init__(self, path: Path, *, create: bool, readonly: bool = False, lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.path = path
        self.readonly = readonly
        self.lock_timeout = lock_timeout
        from filelock import FileLock  # here, not at import: the commands that only read start faster

        self._lock = FileLock(str(path.with_name(path.name + ".lock")), timeout=lock_timeout)
        if not path.is_file() and not create:
            raise RegisterError("o registro não existe.", file=path,
                                hint="crie-o com autos registro reconstruir PASTA (ou indique o certo com "
                                "--registro).")
        try:
            if readonly:
                self.db = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, isolation_level=None,
                                          timeout=lock_timeout)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(FileExistsError):  # CPF/CNPJ of the autuados: personal data
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                self.db = sqlite3.connect(str(path), isolation_level=None, timeout=lock_timeout)
        except OSError as exc:
            raise RegisterError(f"não foi possível abrir o registro ({os_error_pt(exc)}).", file=path,
                                hint=_HINT_PATH) from None
        except sqlite3.Error as exc:
            raise RegisterError(f"não foi possível abrir o registro ({_cause(exc)}).", file=path,
                                hint=_HINT_PATH) from None
        try:
            self._setup()
        except RegisterError:
            self.db.close()
            raise
        except sqlite3.OperationalError as exc:
            self.db.close()
            raise RegisterError(f"não foi possível usar o registro ({_cause(exc)}).", file=path,
                                hint=_HINT_PATH) from None
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise RegisterError(f"o arquivo não é um registro válido do autos: {_cause(exc)}.", file=path,
                                hint="indique o registro certo com --registro; se ele se corrompeu, restaure a "
                                "cópia de segurança (os números reservados só existem nele) ou, sem cópia, mova-o "
                                "para outro nome e rode autos registro reconstruir PASTA.") from None

    def _setup(self) -> None:
        self.db.execute("PRAGMA foreign_keys = ON")
        if self.readonly:
            self._check_version()
            return
        with self._locked():
            self.db.execute("PRAGMA synchronous = FULL")  # a reserved number survives a power cut
            self.db.execute("BEGIN IMMEDIATE")
            try:
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                if version == 0:
                    if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                        raise OwnDatabaseError("o banco já tem tabelas que não são do autos")
                    for statement in _SCHEMA:
                        self.db.execute(statement)
                    self.db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
                    version = 1
                if 1 <= version < SCHEMA_VERSION and self._is_ours():
                    for step in range(version + 1, SCHEMA_VERSION + 1):
                        for statement in _MIGRATIONS[step]:
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self._check_version()  # a file that is not ours is left exactly as it was
            if self.db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                self.db.execute("PRAGMA journal_mode = WAL")  # readers never wait for a clerk's reservation

    def _is_ours(self) -> bool:
        return bool(self.db.execute("PRAGMA application_id").fetchone()[0] == _APPLICATION_ID)

    def _check_version(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        self.format = version  # a read-only opening of an older format reads only what that format has
        app = self.db.execute("PRAGMA application_id").fetchone()[0]
        if app != _APPLICATION_ID:
            raise OwnDatabaseError(f"identificação {app:#x}, esperada {_APPLICATION_ID:#x}")
        if version > SCHEMA_VERSION:
            raise RegisterError(f"o registro é de uma versão mais nova do autos (formato {version}; esta versão lê "
                                f"até o formato {SCHEMA_VERSION}); nada foi lido nem gravado.", file=self.path,
                                hint="atualize o autos nesta máquina (todos os servidores que usam o registro "
                                "devem ter a mesma versão).")
        if version != SCHEMA_VERSION and not (self.readonly and 1 <= version < SCHEMA_VERSION):
            raise OwnDatabaseError(f"formato {version} desconhecido")

    def _rollback(self) -> None:
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        from filelock import Timeout

        try:
            self._lock.acquire()
        except Timeout:
            raise RegisterError(f"o registro está em uso por outro programa há mais de {self.lock_timeout:g} s "
                                "(outro servidor reservando números ou gerando documentos); nada foi gravado.",
                                file=self.path, hint="espere a outra operação terminar e rode de novo; se nenhuma "
                                f"está em curso, confira a trava {self._lock.lock_file}.") from None
        except OSError as exc:
            raise RegisterError(f"não foi possível criar a trava do registro ({os_error_pt(exc)}).",
                                file=self._lock.lock_file, hint=_HINT_PATH) from None
        try:
            yield
        finally:
            self._lock.release()

    # --- the interface ---------------------------------------------------------------------------
    def sql(self, name: str) -> str:
        return _SQL[name]  # sqlite3's paramstyle is qmark: the queries are already in it

    def rows(self, name: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in self.db.execute(self.sql(name), tuple(params)).fetchall()]
        except sqlite3.Error as exc:
            raise RegisterError(f"não foi possível ler o registro ({_cause(exc)}).", file=self.path,
                                hint=_HINT_PATH) from None

    def run(self, name: str, params: Sequence[object] = ()) -> None:
        self.db.execute(self.sql(name), tuple(params))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self.readonly:  # pragma: no cover - programming error
            raise RegisterError("registro aberto só para leitura.", file=self.path)
        with self._locked():
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                    self.db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            except sqlite3.IntegrityError as exc:
                keep_original(exc, "registro")
                raise RegisterError("o registro recusou a gravação, que repetiria um registro já existente; nada foi "
                                    "gravado.", file=self.path, hint="é um defeito: guarde o registro e chame o "
                                    "suporte; não o apague nem o edite.") from None
            except sqlite3.Error as exc:
                raise RegisterError(f"não foi possível gravar no registro ({_cause(exc)}); nada desta operação foi "
                                    "gravado.", file=self.path, hint=_HINT_PATH) from None

    def alive(self) -> bool:
        return True  # a file: nothing to lose between two operations

    def close(self) -> None:
        self.db.close()
