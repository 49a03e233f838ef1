"""Where the register and the editais ledger live: a SQLite file (the default) or a PostgreSQL database.

``--banco postgresql://usuario:senha@servidor:5432/autos`` (or the variable :data:`BANCO_ENV`, or ``banco`` in the
web configuration) puts both on one PostgreSQL server that several machines share. A :class:`DatabaseUrl` keeps the
URL as typed for connecting and prints it with the password masked (``postgresql://usuario:***@servidor/autos``):
an error message, a log line or a report never shows a password.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from autos.errors import AutosError

__all__ = ["BANCO_ENV", "DEFAULT_REGISTER_NAME", "DatabaseUrl", "Location", "find_register", "mask_url"]

#: file name of the register when ``--registro`` is not given: in the processos folder
DEFAULT_REGISTER_NAME = "registro.sqlite3"

#: environment variable naming the database (as ``--banco``)
BANCO_ENV = "AUTOS_BANCO"

_SCHEMES = ("postgresql", "postgres")


def mask_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``; a URL that does not parse is masked whole after
    its scheme."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        scheme, sep, _ = url.partition("://")
        return f"{scheme}{sep}***" if sep else "***"
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, colon, _password = userinfo.partition(":")
        netloc = f"{user}:***@{host}" if colon else f"{user}@{host}"
    query = parts.query
    if "password=" in query:
        query = "&".join("password=***" if q.startswith("password=") else q for q in query.split("&"))
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class DatabaseUrl:
    """A PostgreSQL URL: :attr:`url` to connect, ``str()`` (and every message) with the password masked."""

    __slots__ = ("url",)

    def __init__(self, url: str) -> None:
        text = url.strip()
        scheme = text.partition("://")[0].lower()
        if scheme not in _SCHEMES or "://" not in text:
            raise AutosError(f"'{mask_url(text)}' não é o endereço de um banco PostgreSQL.", path="--banco",
                             hint="use postgresql://USUARIO@SERVIDOR:PORTA/BANCO (a senha no ~/.pgpass ou na "
                             f"variável PGPASSWORD); sem --banco (nem {BANCO_ENV}), o registro e o livro ficam em "
                             "arquivos SQLite.")
        self.url = text

    @property
    def masked(self) -> str:
        return mask_url(self.url)

    def __str__(self) -> str:
        return self.masked

    def __repr__(self) -> str:
        return f"DatabaseUrl({self.masked!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DatabaseUrl) and other.url == self.url

    def __hash__(self) -> int:
        return hash(self.url)


#: where a register or a ledger is: a SQLite file or a PostgreSQL database
Location = Path | DatabaseUrl


def find_register(start: Path) -> Path | None:
    """``registro.sqlite3`` in ``start`` (a folder, or a file's folder) or the nearest folder above it."""
    folder = start.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        path = candidate / DEFAULT_REGISTER_NAME
        if path.is_file():
            return path
    return None
