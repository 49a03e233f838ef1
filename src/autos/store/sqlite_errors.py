"""The cause of an SQLite failure in Portuguese, for the two SQLite files autos keeps (the editais ledger and the
register of processos): one table, worded for the file it is about."""

from __future__ import annotations

__all__ = ["sqlite_cause"]

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
)


def sqlite_cause(exc: BaseException, noun: str) -> str:
    """``noun``: "livro" or "registro". The library's own text follows in parentheses."""
    text = str(exc)
    folded = text.casefold()
    for key, why in _CAUSES:
        if key in folded:
            return f"{why.format(noun)} ({text})"
    return text
