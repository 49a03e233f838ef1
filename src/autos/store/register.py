"""The register ("registro"): one SQLite file beside the processos that indexes them and numbers their acts.

What it holds:

- **the index** — every processo file (law, number, autuado with the CPF/CNPJ reduced to its digits, the
  infractions, the outcome) and every act (kind, number, date, the act it refers to, result, amount). It is
  always rebuildable from the files (:meth:`Register.rebuild`, ``autos registro reconstruir``);
- **the numbers it reserved** (``numeros``) — per law, act kind and year, from 1, never twice, never with a
  gap: the next number is the largest reserved (or used by an indexed act) plus one, taken inside one write
  transaction; a reservation is never deleted, an abandoned one is marked ``cancelado`` with its reason.
  These rows cannot be rebuilt from the files and are kept by a rebuild;
- **the documents written** (``documentos``) — the SHA-256 of every document ``autos gerar`` wrote, with its
  processo, act and time, so ``autos conferir`` can say whether a file is the one issued. Also kept by a rebuild.

Storage sits behind one small interface (:class:`~autos.store.register_store.Store`, with the tables and the
queries in :mod:`autos.store.register_schema`): plain SQL that PostgreSQL also runs (no ``PRAGMA``,
``INSERT OR …``, ``AUTOINCREMENT`` or ``IS ?`` in the queries; natural primary keys; dates as ISO text), written
with ``?`` parameters that :meth:`Store.sql` turns into the backend's style in one place. :class:`SqliteStore`
(:mod:`autos.store.register_store`) is the only implementation: WAL, ``synchronous=FULL``,
``application_id``/``user_version`` checked on opening, and every write transaction (``BEGIN IMMEDIATE``) taken
under an exclusive lock on ``<registro>.lock`` (`filelock <https://py-filelock.readthedocs.io>`_: ``fcntl.flock``
on POSIX, ``msvcrt.locking`` on Windows), so that several clerks (processes, machines sharing a folder) never get
the same number.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf
from stdnum.exceptions import ValidationError as StdnumError

from autos.errors import RegisterError
from autos.store.database import DEFAULT_REGISTER_NAME, DatabaseUrl
from autos.store.register_schema import _MIGRATIONS, _MIGRATIONS_POSTGRESQL, _SCHEMA, _SQL, SCHEMA_VERSION
from autos.store.register_store import LOCK_TIMEOUT, LOCK_TIMEOUT_ENV, SqliteStore, Store

if TYPE_CHECKING:  # a clerk's process that only reserves numbers does not load the case models (start-up)
    from autos.processo.load import LoadedProcesso
    from autos.store.postgres import Component

__all__ = [
    "DEFAULT_REGISTER_NAME", "ActEntry", "AuditEntry", "DocumentRecord", "IndexDiff", "IndexEntry", "Register",
    "Reservation", "ReviewRecord", "SessionRow", "UserRow", "index_entry", "normalize_document", "sha256_of",
]


def postgres_component() -> Component:
    """The register as :mod:`autos.store.postgres` keeps it: its queries, its numbered schema steps (1: the
    tables, then :data:`_MIGRATIONS`; a ``_MIGRATIONS_POSTGRESQL`` entry replaces a step on PostgreSQL), its
    advisory locks."""
    from autos.store.postgres import Component

    steps: dict[int, tuple[str, ...]] = {1: _SCHEMA, **_MIGRATIONS}
    steps.update(_MIGRATIONS_POSTGRESQL)
    return Component("registro", "o registro", "--registro", _SQL, steps, RegisterError, 0x72656769, 0x72656769 + 1)


# --------------------------------------------------------------------------------------------------
# records


def normalize_document(value: str) -> str:
    """A CPF or CNPJ as its digits only (``123.456.789-09`` and ``12345678909`` are the same person);
    :class:`ValueError` in Portuguese when its check digits do not match."""
    digits = stdnum_cnpj.compact(value)  # removes dots, slash, dash and spaces
    try:
        if len(digits) == 11:
            return str(stdnum_cpf.validate(digits))
        if len(digits) == 14:
            return str(stdnum_cnpj.validate(digits))
    except StdnumError:
        pass
    raise ValueError(f"'{value}' não é um CPF (11 dígitos) nem um CNPJ (14 dígitos) com dígitos verificadores "
                     "corretos")


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class ActEntry:
    ordem: int
    tipo: str
    numero: str | None
    data: str | None
    referente: str | None
    resultado: str | None
    valor: str | None

    @property
    def key(self) -> tuple[int, int] | None:
        """``(N, AAAA)`` of an ``N/AAAA`` number, else None."""
        if not self.numero:
            return None
        from autos.processo.case import document_key

        try:
            return document_key(self.numero)
        except ValueError:
            return None


@dataclass(frozen=True)
class IndexEntry:
    """What the register keeps of one processo file."""

    arquivo: str
    lei: str
    numero: str
    autuado_tipo: str
    autuado_documento: str | None
    autuado_nome: str | None
    data_infracao: str | None
    infracoes: tuple[tuple[str, bool | None], ...]
    atos: tuple[ActEntry, ...]
    sha256: str

    @property
    def ultimo_ato(self) -> str:
        return self.atos[-1].tipo

    @property
    def resultado(self) -> str | None:
        return next((a.resultado for a in reversed(self.atos) if a.resultado), None)


def index_entry(loaded: LoadedProcesso, arquivo: str, sha256: str) -> IndexEntry:
    """The index row of a loaded processo (``arquivo``: its path relative to the register)."""
    p = loaded.processo
    documento = p.autuado.documento
    atos = tuple(ActEntry(i + 1, a.tipo, a.numero, a.data_do_ato.isoformat() if a.data_do_ato else None,
                          a.referente, a.resultado, str(a.valor) if a.valor is not None else None)
                 for i, a in enumerate(p.atos))
    first = next((a.data for a in atos if a.data), None)
    return IndexEntry(
        arquivo=arquivo, lei=p.lei, numero=p.numero, autuado_tipo=p.autuado.tipo,
        autuado_documento=normalize_document(documento) if documento else None, autuado_nome=p.autuado.nome,
        data_infracao=p.data_infracao.isoformat() if p.data_infracao else first,
        infracoes=tuple((i.regra, i.reincidente) for i in p.infracoes), atos=atos, sha256=sha256)


@dataclass(frozen=True)
class IndexedProcesso:
    """What ``autos verificar`` reads of an indexed processo: file, law, number, autuado (digits), date of the
    infraction, infraction rule ids and numbered acts ``(ordem, tipo, numero)``."""

    arquivo: str
    lei: str
    numero: str
    autuado_documento: str | None
    data_infracao: str | None
    infracoes: tuple[str, ...]
    atos: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class Reservation:
    lei: str
    tipo: str
    ano: int
    numero: int
    estado: str
    processo: str | None
    arquivo: str | None
    reservado_em: str
    motivo: str | None = None
    cancelado_em: str | None = None

    @property
    def rotulo(self) -> str:
        return f"{self.numero}/{self.ano}"


@dataclass(frozen=True)
class DocumentRecord:
    caminho: str
    sha256: str
    bytes: int
    arquivo: str
    lei: str
    processo: str
    ato: int
    documento: str
    gravado_em: str
    #: the verification code the document prints (format 3; None for one recorded before)
    codigo: str | None = None


@dataclass
class IndexDiff:
    """What a rebuild changed: files new to the index, gone from it, changed, moved (same law and processo
    number, another file)."""

    novos: list[str] = field(default_factory=list)
    removidos: list[str] = field(default_factory=list)
    alterados: list[str] = field(default_factory=list)
    movidos: list[tuple[str, str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.novos or self.removidos or self.alterados or self.movidos)


@dataclass(frozen=True)
class UserRow:
    """An account of the web application (never its password hash)."""

    login: str
    nome: str
    papel: str
    matricula: str | None
    departamento: str | None
    ativo: bool
    criado_em: str
    desativado_em: str | None


@dataclass(frozen=True)
class SessionRow:
    login: str
    csrf: str
    expira_em: str


@dataclass(frozen=True)
class AuditEntry:
    id: int
    quando: str
    login: str | None
    acao: str
    objeto: str | None
    detalhe: str | None


@dataclass(frozen=True)
class ReviewRecord:
    """A procurador's "de acordo" or parecer on a processo."""

    id: int
    lei: str
    processo: str
    arquivo: str
    tipo: str
    texto: str | None
    login: str
    nome: str
    registrado_em: str


def _user(row: tuple[Any, ...]) -> UserRow:
    login, nome, papel, matricula, departamento, ativo, criado, desativado = row
    return UserRow(str(login), str(nome), str(papel), matricula, departamento, bool(ativo), str(criado), desativado)


def _now() -> str:
    return datetime.now().astimezone().replace(microsecond=0).isoformat()


class Register:
    """An open register over a :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, path: str | Path | DatabaseUrl, *, create: bool = False, readonly: bool = False,
             lock_timeout: float | None = None) -> Register:
        """Open (``create``: or create) the register at ``path`` (a SQLite file, or a PostgreSQL database: then
        ``create`` does not apply, its schema is made by ``autos banco migrar``); ``lock_timeout`` defaults to the
        variable ``AUTOS_REGISTRO_ESPERA`` or :data:`LOCK_TIMEOUT`."""
        if lock_timeout is None:
            try:
                lock_timeout = float(os.environ.get(LOCK_TIMEOUT_ENV, LOCK_TIMEOUT))
            except ValueError:
                raise RegisterError(f"a variável {LOCK_TIMEOUT_ENV} deve ser um número de segundos.") from None
        if isinstance(path, DatabaseUrl):
            from autos.store.postgres import PostgresStore

            return cls(PostgresStore(path, postgres_component(), readonly=readonly, lock_timeout=lock_timeout))
        return cls(SqliteStore(Path(path), create=create, readonly=readonly, lock_timeout=lock_timeout))

    @property
    def path(self) -> Path | DatabaseUrl:
        """The SQLite file, or the database (printed with its password masked)."""
        return self.store.path

    @property
    def on_server(self) -> bool:
        """On PostgreSQL: files are recorded by their absolute paths (every machine mounts the shared folder at the
        same path); in a SQLite file, relative to its folder (folder and register move together)."""
        return isinstance(self.store.path, DatabaseUrl)

    @property
    def folder(self) -> Path:
        path = self.store.path
        return Path(os.sep).resolve() if not isinstance(path, Path) else path.resolve().parent

    def relative(self, file: str | Path) -> str:
        """A file's path as the register stores it: relative to the register's folder, '/' separators (on
        PostgreSQL: absolute)."""
        if self.on_server:
            return Path(file).resolve().as_posix()
        return Path(os.path.relpath(Path(file).resolve(), self.folder)).as_posix()

    def absolute(self, arquivo: str) -> Path:
        return Path(os.path.normpath(self.folder / arquivo))

    def alive(self) -> bool:
        """Whether this register's connection still answers; a long-lived holder (the web application's threads)
        asks before reusing it and opens a new one when not — after a PostgreSQL restart, for instance."""
        return self.store.alive()

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Register:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- numbering -------------------------------------------------------------------------------
    def reserve(self, lei: str, tipo: str, ano: int, *, processo: str | None = None, arquivo: str | None = None,
                now: str | None = None) -> Reservation:
        """The next number of ``lei``/``tipo``/``ano``: one more than the largest reserved or used by an
        indexed act; recorded before this returns, so no other clerk can get it."""
        s = self.store
        with s.transaction():
            reserved = s.rows("max_reserved", (lei, tipo, ano))[0][0] or 0
            used = s.rows("max_used", (lei, tipo, ano))[0][0] or 0
            numero = max(int(reserved), int(used)) + 1
            stamp = now or _now()
            s.run("insert_number", (lei, tipo, ano, numero, processo, arquivo, stamp))
        return Reservation(lei, tipo, ano, numero, "reservado", processo, arquivo, stamp)

    def cancel(self, lei: str, tipo: str, numero: int, ano: int, motivo: str, *, now: str | None = None) -> Reservation:
        """Mark a reserved number *cancelado* with its reason (it stays in the register: no gap unrecorded)."""
        if not motivo.strip():
            raise RegisterError("o cancelamento de um número precisa de um motivo.", file=self.path,
                                hint='informe --motivo "…" (p. ex. "auto lavrado em papel, anulado").')
        s = self.store
        with s.transaction():
            found = self._reservation(lei, tipo, ano, numero)
            if found is None:
                raise RegisterError(f"o número {numero}/{ano} ({tipo}, {lei}) não foi reservado neste registro; "
                                    "nada foi cancelado.", file=self.path,
                                    hint="confira o número, o tipo de ato (--ato) e a lei (autos registro numeros).")
            if found.estado == "cancelado":
                raise RegisterError(f"o número {numero}/{ano} ({tipo}, {lei}) já foi cancelado em "
                                    f"{found.cancelado_em}: {found.motivo}", file=self.path)
            users = s.rows("users", (lei, tipo, ano, numero))
            if users:
                raise RegisterError(f"o número {numero}/{ano} ({tipo}) está em uso no processo {users[0][1]} "
                                    f"({self.absolute(users[0][0])}, ato {users[0][2]}); um número usado não é "
                                    "cancelado.", file=self.path,
                                    hint="corrija o processo (ou mova o arquivo) e rode autos registro reconstruir.")
            s.run("cancel", (motivo.strip(), now or _now(), lei, tipo, ano, numero))
        cancelled = self.reservation(lei, tipo, ano, numero)
        assert cancelled is not None
        return cancelled

    def _reservation(self, lei: str, tipo: str, ano: int, numero: int) -> Reservation | None:
        rows = self.store.rows("number", (lei, tipo, ano, numero))
        return Reservation(*rows[0]) if rows else None

    def reservation(self, lei: str, tipo: str, ano: int, numero: int) -> Reservation | None:
        return self._reservation(lei, tipo, ano, numero)

    def reservations(self) -> list[Reservation]:
        return [Reservation(*r) for r in self.store.rows("numbers")]

    def reservations_at(self, ano: int, numero: int) -> list[Reservation]:
        """Every reservation of ``numero/ano``, whatever its law and act kind."""
        return [Reservation(*r) for r in self.store.rows("numbers_at", (ano, numero))]

    def reserved_for(self, lei: str, processo: str) -> list[Reservation]:
        return [Reservation(*r) for r in self.store.rows("numbers_for", (lei, processo))]

    def users(self, lei: str, tipo: str, ano: int, numero: int) -> list[tuple[str, str, int]]:
        """``(arquivo, processo number, act)`` of every indexed act with this number."""
        return [(str(a), str(p), int(o)) for a, p, o in self.store.rows("users", (lei, tipo, ano, numero))]

    def processo_files(self, lei: str, numero: str) -> list[str]:
        return [str(r[0]) for r in self.store.rows("processo_by_number", (lei, numero))]

    # --- the index -------------------------------------------------------------------------------
    def _insert(self, e: IndexEntry, stamp: str) -> None:
        s = self.store
        s.run("insert_processo", (e.arquivo, e.lei, e.numero, e.autuado_tipo, e.autuado_documento, e.autuado_nome,
                                  e.data_infracao, e.ultimo_ato, e.resultado, e.sha256, stamp))
        for i, (regra, reincidente) in enumerate(e.infracoes, start=1):
            s.run("insert_infraction", (e.arquivo, i, regra, None if reincidente is None else int(reincidente)))
        for a in e.atos:
            key = a.key
            s.run("insert_act", (e.arquivo, a.ordem, a.tipo, a.numero, key[0] if key else None,
                                 key[1] if key else None, a.data, a.referente, a.resultado, a.valor))

    def index(self, entry: IndexEntry) -> None:
        """Index (or re-index) one processo file."""
        s = self.store
        with s.transaction():
            for name in ("delete_acts", "delete_infractions", "delete_processo"):
                s.run(name, (entry.arquivo,))
            self._insert(entry, _now())

    def indexed(self) -> dict[str, tuple[str, str, str]]:
        """``arquivo → (lei, processo number, sha256)`` of every indexed processo."""
        return {str(a): (str(lei), str(n), str(h)) for a, lei, n, h in self.store.rows("processos")}

    def rebuild(self, entries: Sequence[IndexEntry]) -> IndexDiff:
        """Replace the whole index by ``entries`` (one transaction) and say what differs from before; the
        reserved numbers follow a processo that was moved or renamed; documents are kept."""
        s = self.store
        diff = IndexDiff()
        with s.transaction():
            before = self.indexed()
            new = {e.arquivo: e for e in entries}
            by_number = {(e.lei, e.numero): e.arquivo for e in entries}
            for arquivo, (lei, numero, sha) in sorted(before.items()):
                if arquivo in new:
                    if new[arquivo].sha256 != sha:
                        diff.alterados.append(arquivo)
                    continue
                target = by_number.get((lei, numero))
                if target is not None and target not in before:
                    diff.movidos.append((arquivo, target))
                    s.run("move_numbers", (target, arquivo))
                else:
                    diff.removidos.append(arquivo)
            moved_to = {t for _, t in diff.movidos}
            diff.novos = sorted(a for a in new if a not in before and a not in moved_to)
            for name in ("delete_all_acts", "delete_all_infractions", "delete_all_processos"):
                s.run(name)
            stamp = _now()
            for e in entries:
                self._insert(e, stamp)
        return diff

    def indexed_processos(self) -> list[IndexedProcesso]:
        """Every indexed processo with its infractions and numbered acts, read in three queries (``autos
        verificar``'s checks across processos)."""
        s = self.store
        infractions: dict[str, list[str]] = {}
        for arquivo, regra in s.rows("index_infractions"):
            infractions.setdefault(str(arquivo), []).append(str(regra))
        acts: dict[str, list[tuple[int, str, str]]] = {}
        for arquivo, ordem, tipo, numero in s.rows("index_numbered_acts"):
            acts.setdefault(str(arquivo), []).append((int(ordem), str(tipo), str(numero)))
        return [IndexedProcesso(str(a), str(lei), str(n), doc, data, tuple(infractions.get(str(a), ())),
                                tuple(acts.get(str(a), ())))
                for a, lei, n, doc, data in s.rows("index_processos")]

    def processos_of(self, documento: str) -> list[tuple[str, ...]]:
        """Processos of one autuado, by CPF/CNPJ typed with or without dots (``ValueError`` if invalid)."""
        return [tuple("" if v is None else str(v) for v in r)
                for r in self.store.rows("by_person", (normalize_document(documento),))]

    def processos_of_person(self, documento: str, lei: str) -> list[tuple[str, str, str | None]]:
        """``(arquivo, processo number, infraction date)`` of every indexed processo of one autuado (CPF/CNPJ
        with or without dots; ``ValueError`` if invalid) under ``lei``, oldest first (reincidência)."""
        return [(str(a), str(n), None if d is None else str(d))
                for a, n, d in self.store.rows("by_person_and_law", (normalize_document(documento), lei))]

    # --- documents written -----------------------------------------------------------------------
    def record_documents(self, records: Sequence[DocumentRecord]) -> None:
        """Record the documents one ``autos gerar`` wrote (all or nothing); one already recorded is kept."""
        s = self.store
        with s.transaction():
            for r in records:
                if s.rows("document_exists", (r.caminho, r.sha256))[0][0]:
                    continue
                s.run("insert_document", (r.caminho, r.sha256, r.bytes, r.arquivo, r.lei, r.processo, r.ato,
                                          r.documento, r.gravado_em, r.codigo))

    def documents_with(self, sha256: str) -> list[DocumentRecord]:
        return [DocumentRecord(*r) for r in self.store.rows("documents_by_hash", (sha256,))]

    def documents_by_code(self, codigo: str) -> list[DocumentRecord]:
        """Every document recorded with this verification code (its PDF and DOCX, every version), newest first;
        none in a register of a format before 3, read as it is (``readonly``), which recorded no codes."""
        if getattr(self.store, "format", SCHEMA_VERSION) < 3:
            return []
        return [DocumentRecord(*r) for r in self.store.rows("documents_by_code", (codigo,))]

    def documents_of(self, arquivo: str) -> list[DocumentRecord]:
        """Every document recorded as generated from a processo file (relative, as :meth:`relative` gives it), by
        act and kind, newest first."""
        return [DocumentRecord(*r) for r in self.store.rows("documents_of", (arquivo,))]

    def documents_at(self, caminho: str) -> list[DocumentRecord]:
        """Every document recorded at a path, newest first."""
        return [DocumentRecord(*r) for r in self.store.rows("documents_at", (caminho,))]

    # --- the web application: accounts, sessions, audit log, reviews (format 2) --------------------
    def add_user(self, login: str, nome: str, papel: str, matricula: str | None, departamento: str | None,
                 senha_hash: str, *, now: str | None = None) -> UserRow:
        """A new account (``RegisterError`` if the login exists)."""
        s = self.store
        with s.transaction():
            if s.rows("user", (login,)):
                raise RegisterError(f"já existe um usuário com o login '{login}'; nada foi gravado.", file=self.path,
                                    hint="escolha outro login (autos usuarios listar mostra os existentes).")
            s.run("insert_user", (login, nome, papel, matricula, departamento, senha_hash, now or _now()))
        found = self.user(login)
        assert found is not None
        return found

    def user(self, login: str) -> UserRow | None:
        rows = self.store.rows("user", (login,))
        return _user(rows[0]) if rows else None

    def users_all(self) -> list[UserRow]:
        return [_user(r) for r in self.store.rows("users_all")]

    def password_hash(self, login: str) -> str | None:
        rows = self.store.rows("user_hash", (login,))
        return str(rows[0][0]) if rows else None

    def set_password_hash(self, login: str, senha_hash: str) -> None:
        with self.store.transaction():
            self.store.run("user_set_hash", (senha_hash, login))

    def deactivate_user(self, login: str, *, now: str | None = None) -> None:
        """Mark the account inactive (kept, with its audit trail) and end its sessions."""
        s = self.store
        with s.transaction():
            s.run("user_deactivate", (now or _now(), login))
            s.run("delete_sessions_of", (login,))

    def add_session(self, session_hash: str, login: str, csrf: str, criada_em: str, expira_em: str) -> None:
        """A new session; the expired ones of every account are removed in the same transaction."""
        s = self.store
        with s.transaction():
            s.run("delete_expired_sessions", (criada_em,))
            s.run("insert_session", (session_hash, login, csrf, criada_em, expira_em))

    def session(self, session_hash: str) -> SessionRow | None:
        """The session (of an active account), expired or not: the caller compares ``expira_em``."""
        rows = self.store.rows("session", (session_hash,))
        return SessionRow(str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def delete_session(self, session_hash: str) -> None:
        with self.store.transaction():
            self.store.run("delete_session", (session_hash,))

    def audit(self, login: str | None, acao: str, objeto: str | None = None, detalhe: str | None = None, *,
              now: str | None = None) -> AuditEntry:
        """Append one entry to the audit log (who did what to what, when)."""
        s = self.store
        stamp = now or _now()
        with s.transaction():
            new_id = int(s.rows("max_audit")[0][0] or 0) + 1
            s.run("insert_audit", (new_id, stamp, login, acao, objeto, detalhe))
        return AuditEntry(new_id, stamp, login, acao, objeto, detalhe)

    def audit_recent(self, limit: int = 200) -> list[AuditEntry]:
        return [AuditEntry(*r) for r in self.store.rows("audit_recent", (limit,))]

    def audit_of(self, objeto: str) -> list[AuditEntry]:
        return [AuditEntry(*r) for r in self.store.rows("audit_of", (objeto,))]

    def add_review(self, lei: str, processo: str, arquivo: str, tipo: str, texto: str | None, login: str, nome: str,
                   *, audit_object: str | None = None, now: str | None = None) -> ReviewRecord:
        """Record a review and its audit entry in one transaction (both or neither)."""
        s = self.store
        stamp = now or _now()
        with s.transaction():
            new_id = int(s.rows("max_review")[0][0] or 0) + 1
            s.run("insert_review", (new_id, lei, processo, arquivo, tipo, texto, login, nome, stamp))
            audit_id = int(s.rows("max_audit")[0][0] or 0) + 1
            s.run("insert_audit", (audit_id, stamp, login, "revisou", audit_object or arquivo,
                                   "de acordo" if tipo == "de_acordo" else "parecer"))
        return ReviewRecord(new_id, lei, processo, arquivo, tipo, texto, login, nome, stamp)

    def reviews_of(self, lei: str, processo: str) -> list[ReviewRecord]:
        return [ReviewRecord(*r) for r in self.store.rows("reviews_of", (lei, processo))]
