"""The cause of an SQLite failure in Portuguese, for the two SQLite files autos keeps (the editais ledger and the
register of processos): one table, worded for the file it is about. SQLite's own (English) wording is kept in the
log, never in the message."""

from __future__ import annotations

import sqlite3

from autos.errors import keep_original

__all__ = ["OwnDatabaseError", "sqlite_cause"]


class OwnDatabaseError(sqlite3.DatabaseError):
    """What autos itself found wrong in an SQLite file (not ours, another format, broken references), worded in
    Portuguese: shown as it is."""


#: SQLite's own message (lower case) → what it means, for "o livro" / "o registro"
_CAUSES = (
    ("disk is full", "disco cheio: não há espaço para gravar o {0}"),
    ("readonly database", "o {0} (ou a sua pasta) está somente para leitura"),
    ("read-only", "o {0} (ou a sua pasta) está somente para leitura"),
    ("unable to open database file", "não foi possível abrir o {0} ou criar o seu diário (journal/WAL) na pasta"),
    ("disk i/o error", "erro de entrada/saída do disco ao gravar o {0}"),
    ("database is locked", "o {0} está em uso por outro programa há tempo demais"),
    ("not a database", "o arquivo está corrompido ou não é um banco SQLite"),
    ("malformed", "o arquivo do {0} está corrompido"),
    ("no such table", "o arquivo não tem as tabelas do {0}"),
    ("no such column", "o arquivo não tem as colunas desta versão do {0}"),
    ("constraint failed", "a gravação repetiria um registro que já existe no {0}"),
    ("out of memory", "memória insuficiente"),
    ("interrupted", "a operação foi interrompida"),
    ("closed database", "o {0} já foi fechado"),
)


def sqlite_cause(exc: BaseException, noun: str) -> str:
    """``noun``: "livro" or "registro". In Portuguese alone: SQLite's wording goes to the log."""
    if isinstance(exc, OwnDatabaseError):
        return str(exc)
    keep_original(exc, f"SQLite ({noun})")
    folded = str(exc).casefold()
    for key, why in _CAUSES:
        if key in folded:
            return why.format(noun)
    code = getattr(exc, "sqlite_errorcode", None)
    return f"erro do SQLite nº {code}" if code is not None else "erro do SQLite"
