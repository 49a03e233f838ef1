"""``autos pendencias`` over folders of any size: what the command prints of each processo is kept on disk, not in
memory, until the whole folder is read.

The list is sorted by urgency across every processo, so nothing can be printed before the last file is read. The
command used to keep every processo's timeline in memory meanwhile (4 to 6 KB each: 72 MB with 1,000 processos,
129 MB with 10,000). :class:`PendingSpool` keeps, for each line of the list, the few fields it prints (and, for
``--html``, each processo's strip) in a private temporary SQLite database — on disk, in SQLite's page cache of a
few MB, deleted when the spool is closed — and reads them back sorted as :meth:`ProcessoService.pending` sorts
them (:meth:`autos.app.processo.service.PendingRow.sort_key`, ties in reading order). The web's list of processos, which
shows one folder at a time, keeps :class:`autos.app.processo.service.PendingReport` in memory.
"""

from __future__ import annotations

import json
import pickle
import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from autos.app.processo.service import ProcessoService
from autos.compute.strip import TimelineStrip, timeline_strip
from autos.compute.timeline import URGENCY_ORDER, Pending, Timeline
from autos.errors import AutosError

__all__ = ["PendingSpool", "pending_row", "spool_pending"]

_NO_DATE = date.max.isoformat()
_SCHEMA = """
CREATE TABLE linhas (seq INTEGER PRIMARY KEY, processo INTEGER NOT NULL, urgencia INTEGER NOT NULL,
                     vence TEXT NOT NULL, numero TEXT NOT NULL, acao TEXT NOT NULL, dados TEXT NOT NULL);
CREATE TABLE processos (id INTEGER PRIMARY KEY, autuado TEXT, arquivo TEXT NOT NULL, faixa BLOB);
"""
_ORDER = "urgencia, vence, numero, acao, seq"


def pending_row(t: Timeline, x: Pending | None) -> dict[str, Any]:
    """One line of the clerk's list, as ``--json`` and ``--csv`` give it (``x`` None: a processo with errors and
    nothing due)."""
    return {
        "urgencia": x.urgencia if x else "com erros", "vence": x.vence.isoformat() if x and x.vence else None,
        "processo": t.numero, "lei": t.lei, "autuado": t.autuado, "agente": t.agente,
        "quem": x.quem if x else None, "acao": x.acao if x else None, "base_legal": x.base_legal if x else None,
        "situacao": t.situacao, "erros": sum(1 for f in t.achados if f.severidade == "erro"),
        "arquivo": str(t.file),
    }


class PendingSpool:
    """The clerk's list of ``hoje``, spooled (a :class:`autos.app.processo.service.PendingSink`): how many processos
    were read, whether any has an error, the files that could not be read, and the lines in order of urgency."""

    def __init__(self, hoje: date, *, strips: bool = False) -> None:
        self.hoje = hoje
        self.falhas: list[AutosError] = []
        self.vazio = False
        self.processos = 0
        self.com_erros = False
        self._strips = strips
        self._db = sqlite3.connect("")  # "": a private temporary database on disk, deleted when closed
        self._db.executescript(_SCHEMA)

    def add(self, t: Timeline) -> None:
        self.processos += 1
        self.com_erros = self.com_erros or t.has_errors
        strip = pickle.dumps(timeline_strip(t)) if self._strips else None
        pid = self._db.execute("INSERT INTO processos (autuado, arquivo, faixa) VALUES (?, ?, ?)",
                               (t.autuado, str(t.file), strip)).lastrowid
        lines: list[Pending | None] = list(t.pendencias) if t.pendencias else [None] if t.has_errors else []
        self._db.executemany(
            "INSERT INTO linhas (processo, urgencia, vence, numero, acao, dados) VALUES (?, ?, ?, ?, ?, ?)",
            [(pid, URGENCY_ORDER[x.urgencia] if x else len(URGENCY_ORDER),
              x.vence.isoformat() if x and x.vence else _NO_DATE, t.numero, x.acao if x else "",
              json.dumps(pending_row(t, x), ensure_ascii=False)) for x in lines])

    def rows(self) -> Iterator[dict[str, Any]]:
        """The lines (:func:`pending_row`), most urgent first."""
        for (dados,) in self._db.execute(f"SELECT dados FROM linhas ORDER BY {_ORDER}"):
            yield json.loads(dados)

    def has_rows(self) -> bool:
        return self._db.execute("SELECT 1 FROM linhas LIMIT 1").fetchone() is not None

    def strips(self) -> Iterator[tuple[TimelineStrip, str | None, str]]:
        """Each processo's strip, autuado and file, once, in the order of its most urgent line, then those with
        nothing due in reading order (only with ``strips=True``)."""
        query = f"""
            WITH primeira AS (SELECT processo, MIN(pos) AS pos FROM
                                (SELECT processo, ROW_NUMBER() OVER (ORDER BY {_ORDER}) AS pos FROM linhas)
                              GROUP BY processo)
            SELECT p.faixa, p.autuado, p.arquivo FROM processos p LEFT JOIN primeira ON primeira.processo = p.id
            ORDER BY primeira.pos IS NULL, primeira.pos, p.id"""
        for faixa, autuado, arquivo in self._db.execute(query):
            strip: TimelineStrip = pickle.loads(faixa)  # written by add() above, in this process's own database
            yield strip, autuado, arquivo

    def exit_code(self) -> int:
        if self.falhas or self.vazio:
            return 2
        return 1 if self.com_erros else 0

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> PendingSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def spool_pending(service: ProcessoService, paths: list[Path], hoje: date, *, lei: str | None = None,
                  agente: str | None = None, strips: bool = False) -> PendingSpool:
    """``autos pendencias``: the processos under ``paths`` read one at a time into a :class:`PendingSpool` (close
    it, or use it as a context manager)."""
    spool = PendingSpool(hoje, strips=strips)
    try:
        service.scan_pending(paths, hoje, spool, lei=lei, agente=agente)
    except BaseException:
        spool.close()
        raise
    return spool
