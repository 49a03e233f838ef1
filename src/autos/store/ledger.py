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

Only one run may write at a time: :meth:`Ledger.lock` takes an exclusive lock
(:class:`~autos.store.ledger_store.RunLock`: ``flock`` on POSIX, ``msvcrt.locking`` on Windows) on a sidecar
``<ledger>.lock`` file (the ledger itself stays one SQLite file; SQLite's own locks are not disturbed); the
publisher takes a second one on its output folder. The locks belong to the process that took them: a process forked
from it (a rendering worker) closes its inherited copy at once (``os.register_at_fork``), so the lock is released
the moment the run's main process dies, whatever happens to its workers.

Every SQLite failure of a write is reported as a :class:`~autos.store.ledger_store.LedgerError` with the cause in
Portuguese (disk full, read-only file or folder, I/O error), never masked by a failing ``ROLLBACK``.

Storage sits behind the register's small interface (:class:`autos.store.register_store.Store`): every query is in
:data:`autos.store.ledger_schema._SQL`, plain SQL that PostgreSQL also runs (``?`` parameters turned into the
backend's style by ``Store.sql``; no ``PRAGMA``, ``INSERT OR``, ``AUTOINCREMENT``, ``IS ?`` or ``lastrowid``: the
ids of a new edital and of its files are the largest plus one, taken inside the write transaction, which one run at
a time holds). :class:`~autos.store.ledger_store.SqliteLedgerStore` is the only implementation, the ledger as it
always was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autos.base import ptbr
from autos.errors import LedgerError, os_error_pt
from autos.processo.case import document_key
from autos.store.database import DatabaseUrl
from autos.store.ledger_schema import _MIGRATIONS, _MIGRATIONS_POSTGRESQL, _SQL, schema_statements
from autos.store.ledger_store import RunLock, SqliteLedgerStore
from autos.store.register_store import Store

if TYPE_CHECKING:
    from autos.store.postgres import Component


#: file name of the ledger when ``--ledger`` is not given: inside the output folder
DEFAULT_LEDGER_NAME = "livro-editais.sqlite3"

FILE_KINDS = ("edital_consolidado", "edital_individual_pdf", "edital_individual_docx", "caderno")


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


def now_local() -> datetime:
    return datetime.now().astimezone().replace(microsecond=0)


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
