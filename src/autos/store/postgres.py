"""The register and the editais ledger on a PostgreSQL server (``--banco postgresql://…``), with psycopg 3.

Both live in one database (their tables do not share a name) and implement the register's small interface
(:class:`autos.store.register_store.Store`) with the same named queries (:data:`autos.store.register_schema._SQL`,
:data:`autos.store.ledger_schema._SQL`), their ``?`` parameters turned into psycopg's ``%s`` once, here. Each of the two
describes itself (:class:`Component`: queries, numbered schema steps, error class, locks) to this module, which
imports neither; :mod:`autos.store.banco` puts them together for ``autos banco migrar``.

**Numbering across machines.** Every write transaction of a component first takes a transaction-level advisory
lock of that component (``pg_advisory_xact_lock``): the register's writes (a number reserved, a processo indexed,
an audit entry) run one at a time whichever machine or clerk asks, as SQLite's file lock makes them run on one
machine, so "the largest plus one" taken inside the transaction is never taken twice and a transaction that fails
leaves no row behind: no duplicate, no gap. The lock waits at most :data:`autos.store.register_store.LOCK_TIMEOUT`
seconds (``lock_timeout``), then the operation fails with a clear message, nothing written. The editais
publication's run lock (a file lock beside a SQLite ledger) is a session advisory lock here: it is released the
moment the publishing process's connection ends, however the process died.

**Schema versions.** Each component's schema is a numbered list of SQL steps (step 1 the tables, then each
migration) recorded in ``schema_migrations`` (component, version, when). :func:`migrate` (``autos banco
migrar``) applies the missing steps, all in one transaction under an advisory lock; opening a database whose
schema is older (or absent) refuses with the command to run, and one from a newer version of autos refuses too:
migrations are explicit on PostgreSQL, where several machines share the database. The database must sort text
byte by byte (collation ``C``) so that every listing comes in the same order as from SQLite.

**Fork safety.** A rendering worker forked from the coordinator inherits its connection's socket; the child
points its copy at ``/dev/null`` at once (``os.register_at_fork``), so it can never write on the coordinator's
session nor keep it alive after the coordinator died.

psycopg is the ``postgresql`` extra (``pip install 'autos[postgresql]'``): it is imported only when a
``postgresql://`` URL is used, with a clear message when it is missing.
"""

from __future__ import annotations

import contextlib
import os
import uuid
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from autos.errors import AutosError, keep_original
from autos.store.database import DatabaseUrl

if TYPE_CHECKING:
    import psycopg

__all__ = ["Component", "PostgresStore", "SchemaState", "migrate", "schema_state"]

#: collations that compare text byte by byte (code point order), as SQLite does
_BYTE_COLLATIONS = frozenset({"C", "POSIX", "C.UTF-8", "C.utf8", "ucs_basic"})

#: advisory lock held while migrating (one migration at a time on a database)
_MIGRATE_KEY = 0x6D696772  # "migr"

_BOOTSTRAP = (
    """CREATE TABLE IF NOT EXISTS schema_migrations (
    componente TEXT NOT NULL,          -- registro, livro
    versao INTEGER NOT NULL CHECK (versao > 0),
    aplicada_em TEXT NOT NULL,         -- ISO 8601 with offset
    PRIMARY KEY (componente, versao)
)""",
    """CREATE TABLE IF NOT EXISTS autos_banco (
    identidade TEXT PRIMARY KEY        -- random, made once: an output folder records which ledger it belongs to
)""",
)


@dataclass(frozen=True)
class Component:
    """One of the two things autos keeps in the database."""

    name: str                          # as recorded in schema_migrations
    noun: str                          # "o registro", "o livro de editais"
    option: str                        # the option that names it for SQLite (messages)
    queries: dict[str, str]
    steps: dict[int, tuple[str, ...]]  # 1: the tables; then each migration
    error: type[AutosError]
    lock_key: int                      # advisory lock of its write transactions
    run_lock_key: int                  # advisory lock of a whole run (the ledger's publication)

    @property
    def version(self) -> int:
        return max(self.steps)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise AutosError("o suporte a PostgreSQL não está instalado (falta o pacote psycopg).", path="--banco",
                         hint="instale-o com pip install 'autos[postgresql]' (ou pip install 'psycopg[binary]'), "
                         "ou use o registro e o livro em arquivos SQLite (sem --banco).") from None
    return psycopg


#: libpq's words (lower case) → what they mean
_CAUSES = (
    ("password authentication failed", "o servidor recusou o usuário ou a senha"),
    ("no password supplied", "o servidor pede uma senha e nenhuma foi dada"),
    ("authentication failed", "o servidor recusou a autenticação"),
    ("role", "o usuário não existe no servidor"),
    ("database", "o banco não existe no servidor"),
    ("could not translate host name", "o nome do servidor não foi encontrado"),
    ("name or service not known", "o nome do servidor não foi encontrado"),
    ("connection refused", "o servidor não aceitou a conexão (ele está parado ou o endereço ou a porta estão "
     "errados)"),
    ("no such file or directory", "o servidor não aceitou a conexão (ele está parado ou a pasta do socket está "
     "errada)"),
    ("timeout expired", "o servidor não respondeu a tempo"),
    ("server closed the connection", "o servidor encerrou a conexão"),
    ("terminating connection", "o servidor encerrou a conexão"),
    ("permission denied", "o usuário não tem permissão para esta operação"),
    ("lock timeout", "outro programa segura a trava há tempo demais"),
    ("canceling statement due to lock timeout", "outro programa segura a trava há tempo demais"),
)


def _cause(exc: BaseException) -> str:
    """What went wrong, in Portuguese alone (libpq's and the server's wording go to the log)."""
    keep_original(exc, "PostgreSQL")
    folded = " ".join(str(exc).split()).casefold()
    for key, why in _CAUSES:
        if key in folded and not (key in ("role", "database") and "does not exist" not in folded):
            return why
    code = getattr(exc, "sqlstate", None)
    return f"erro do servidor PostgreSQL, código SQLSTATE {code}" if code else "erro de comunicação com o PostgreSQL"


#: open connections of this process: a forked child detaches from them (see the module's docstring)
_OPEN: weakref.WeakSet[PostgresStore] = weakref.WeakSet()


def _detach_inherited() -> None:
    for store in list(_OPEN):
        store._detach()
    _OPEN.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_detach_inherited)


def _connect(url: DatabaseUrl, component: Component | None, lock_timeout: float) -> psycopg.Connection[Any]:
    psycopg = _psycopg()
    error = component.error if component is not None else AutosError
    noun = component.noun if component is not None else "o banco"
    try:
        conn = psycopg.connect(url.url, autocommit=True, connect_timeout=10, application_name="autos")
        conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{int(lock_timeout * 1000)}ms",))
    except psycopg.Error as exc:
        raise error(f"não foi possível conectar ao banco PostgreSQL de {noun[2:]} ({_cause(exc)}); nada foi lido "
                    "nem gravado.", file=url.masked,
                    hint="confira o endereço de --banco (ou da variável AUTOS_BANCO): servidor, porta, banco e "
                    "usuário; a senha vem do ~/.pgpass ou da variável PGPASSWORD; e se o servidor está no ar e "
                    "aceita conexões desta máquina (pg_hba.conf).") from None
    return conn  # type: ignore[no-any-return]


@dataclass(frozen=True)
class SchemaState:
    """What :func:`schema_state` found: each component's version in the database and in this autos."""

    componente: str
    no_banco: int
    nesta_versao: int


def _versions(conn: psycopg.Connection[Any]) -> dict[str, int]:
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return {}
    return {str(c): int(v) for c, v in conn.execute(
        "SELECT componente, max(versao) FROM schema_migrations GROUP BY componente").fetchall()}


def schema_state(url: DatabaseUrl, components: Sequence[Component]) -> list[SchemaState]:
    """Each component's schema version in the database (0: never migrated) and the one this autos uses."""
    conn = _connect(url, None, 30)
    try:
        found = _versions(conn)
    finally:
        conn.close()
    return [SchemaState(c.name, found.get(c.name, 0), c.version) for c in components]


def _newer(url: DatabaseUrl, c: Component, found: int) -> AutosError:
    return c.error(f"{c.noun} no banco é de uma versão mais nova do autos (formato {found}; esta versão usa o "
                   f"formato {c.version}); nada foi lido nem gravado.", file=url.masked,
                   hint="atualize o autos nesta máquina: todas as máquinas que usam o banco devem ter a mesma "
                   "versão.")


def migrate(url: DatabaseUrl, components: Sequence[Component], *,
            lock_timeout: float = 30) -> list[tuple[str, int, int]]:
    """Bring every component's schema to this version (``autos banco migrar``): ``(component, from, to)`` each.

    One transaction under an advisory lock: two machines migrating at once apply each step once; a failing step
    leaves the database as it was. A database whose text does not sort byte by byte is refused before anything
    is created."""
    psycopg = _psycopg()
    conn = _connect(url, None, lock_timeout)
    done: list[tuple[str, int, int]] = []
    try:
        collation = conn.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()").fetchone()
        if collation is None or str(collation[0]) not in _BYTE_COLLATIONS:
            raise AutosError(f"o banco ordena textos pela regra '{collation[0] if collation else '?'}', não byte a "
                             "byte: as listagens sairiam em outra ordem que a do SQLite; nada foi criado.",
                             file=url.masked, hint="crie o banco com CREATE DATABASE autos TEMPLATE template0 "
                             "LOCALE 'C' ENCODING 'UTF8' OWNER autos (veja o README, seção PostgreSQL).")
        stamp = datetime.now().astimezone().replace(microsecond=0).isoformat()
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATE_KEY,))
            for statement in _BOOTSTRAP:
                conn.execute(statement)
            if conn.execute("SELECT identidade FROM autos_banco").fetchone() is None:
                conn.execute("INSERT INTO autos_banco (identidade) VALUES (%s)", (str(uuid.uuid4()),))
            found = _versions(conn)
            for c in components:
                before = found.get(c.name, 0)
                if before > c.version:
                    raise _newer(url, c, before)
                for step in range(before + 1, c.version + 1):
                    for statement in c.steps[step]:
                        conn.execute(statement.replace("%", "%%"))
                    conn.execute("INSERT INTO schema_migrations (componente, versao, aplicada_em) VALUES (%s, %s, %s)",
                                 (c.name, step, stamp))
                done.append((c.name, before, c.version))
    except psycopg.Error as exc:
        raise AutosError(f"a migração do banco falhou ({_cause(exc)}); nada foi alterado.", file=url.masked,
                         hint="confira a permissão do usuário (ele deve poder criar tabelas no banco) e rode de "
                         "novo.") from None
    finally:
        conn.close()
    return done


def _qmark_to_format(sql: str) -> str:
    """``?`` parameters as psycopg's ``%s`` (the named queries have no ``?`` inside a string literal)."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresStore:
    """A component (register or ledger) on PostgreSQL: :class:`autos.store.register_store.Store`, plus the run lock."""

    def __init__(self, url: DatabaseUrl, component: Component, *, readonly: bool = False,
                 lock_timeout: float = 30) -> None:
        self.path = url  # every message names it, with the password masked
        self.url = url
        self.component = component
        self.readonly = readonly
        self.lock_timeout = lock_timeout
        self._sql = {name: _qmark_to_format(q) for name, q in component.queries.items()}
        self._psycopg = _psycopg()
        self.conn: psycopg.Connection[Any] | None = _connect(url, component, lock_timeout)
        _OPEN.add(self)
        try:
            self._check_version()
        except BaseException:
            self.close()
            raise

    def _check_version(self) -> None:
        c = self.component
        try:
            found = _versions(self._conn).get(c.name, 0)
        except self._psycopg.Error as exc:
            raise self._failure("ler", exc) from None
        if found > c.version:
            raise _newer(self.url, c, found)
        if found < c.version:
            state = "não tem as tabelas do autos" if found == 0 else f"está no formato {found}"
            raise c.error(f"{c.noun} no banco {state}; esta versão do autos usa o formato {c.version}. Nada foi "
                          "lido nem gravado.", file=self.url.masked,
                          hint=f"rode autos banco migrar --banco '{self.url.masked}' (com a senha) uma vez, depois "
                          "de atualizar o autos em todas as máquinas que usam o banco.")

    @property
    def _conn(self) -> psycopg.Connection[Any]:
        if self.conn is None:  # pragma: no cover - programming error
            raise self.component.error("a conexão com o banco já foi fechada.", file=self.url.masked)
        return self.conn

    def _failure(self, verb: str, exc: BaseException) -> AutosError:
        c = self.component
        if isinstance(exc, self._psycopg.errors.LockNotAvailable):
            return c.error(f"{c.noun} está em uso por outro programa há mais de {self.lock_timeout:g} s (outra "
                           "máquina reservando números ou publicando); nada foi gravado.", file=self.url.masked,
                           hint="espere a outra operação terminar e rode de novo.")
        if isinstance(exc, self._psycopg.IntegrityError):
            keep_original(exc, "PostgreSQL")
            return c.error(f"{c.noun} recusou a gravação, que repetiria um registro já existente; nada desta operação "
                           "foi gravado.", file=self.url.masked,
                           hint="é um defeito: guarde o log e chame o suporte; não edite as tabelas à mão.")
        extra = "; nada desta operação foi gravado" if verb == "gravar" else ""
        return c.error(f"não foi possível {verb} {c.noun} no banco ({_cause(exc)}){extra}.", file=self.url.masked,
                       hint="confira se o servidor PostgreSQL está no ar e aceita conexões desta máquina e rode de "
                       "novo.")

    # --- the interface ---------------------------------------------------------------------------
    def sql(self, name: str) -> str:
        return self._sql[name]

    def rows(self, name: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in self._conn.execute(self._sql[name], tuple(params)).fetchall()]
        except self._psycopg.Error as exc:
            raise self._failure("ler", exc) from None

    def run(self, name: str, params: Sequence[object] = ()) -> None:
        self._conn.execute(self._sql[name], tuple(params))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction under the component's advisory lock (see the module's docstring)."""
        if self.readonly:  # pragma: no cover - programming error
            raise self.component.error("aberto só para leitura.", file=self.url.masked)
        try:
            # pipeline mode: the statements of the transaction go to the server without waiting for each one's
            # answer (a read waits for what was sent before it); an error still rolls the whole transaction back
            with self._conn.pipeline(), self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.component.lock_key,))
                yield
        except self._psycopg.Error as exc:
            raise self._failure("gravar", exc) from None

    def try_run_lock(self) -> bool:
        """The session lock of a whole run (the ledger's publication); ``False`` if another session holds it."""
        try:
            row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (self.component.run_lock_key,)).fetchone()
        except self._psycopg.Error as exc:
            raise self._failure("travar", exc) from None
        return bool(row and row[0])

    def release_run_lock(self) -> None:
        if self.conn is not None and not self.conn.closed:
            with contextlib.suppress(self._psycopg.Error):
                self.conn.execute("SELECT pg_advisory_unlock(%s)", (self.component.run_lock_key,))

    def alive(self) -> bool:
        """``SELECT 1`` answered: one round trip. A server restarted (or a connection ended by the administrator)
        since the last operation makes it ``False``; this connection is then useless and the holder opens a new one."""
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            return False
        try:
            conn.execute("SELECT 1")
        except self._psycopg.Error:
            return False
        return True

    def identity(self) -> str:
        """The database's identity (made by the first migration)."""
        rows = self._conn.execute("SELECT identidade FROM autos_banco").fetchall()
        return str(rows[0][0]) if rows else ""

    def close(self) -> None:
        _OPEN.discard(self)
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None

    def _detach(self) -> None:
        """In a forked child: the socket copy points at ``/dev/null`` and the connection is forgotten (never
        closed here: closing would end the parent's session)."""
        conn, self.conn = self.conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            fd = conn.pgconn.socket
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, fd)
            os.close(null)
        _LEAKED.append(conn)  # kept alive: its finalizer must never run in the child


#: connections inherited by a forked child (never finalized there)
_LEAKED: list[Any] = []
