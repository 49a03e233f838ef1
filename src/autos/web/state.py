"""What every request of the application shares: the configuration, the library
(:class:`~autos.app.generation.pipeline.Autos`, rules read once), the secret key and one register connection per
thread.

Route modules reach it with :func:`web_state` (``web_state(request).config``, ``.autos``) and the register with
:func:`register` (``register(request).audit(...)``)."""

from __future__ import annotations

import contextlib
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from autos.app.generation.pipeline import Autos
from autos.app.register.preview import PreviewCache, PreviewPool
from autos.app.server import WebConfig
from autos.errors import InputError, os_error_pt
from autos.store.register import Register

__all__ = ["WebState", "register", "web_state", "with_register"]

T = TypeVar("T")


@dataclass
class WebState:
    config: WebConfig
    autos: Autos
    secret: bytes
    previews: PreviewCache = field(default_factory=PreviewCache)  # this server's recent previews
    #: the processes that render previews (started with the application: its lifespan); None: rendered in the
    #: request's thread (an application driven without its lifespan, e.g. a TestClient not used as a context)
    render_pool: PreviewPool | None = None
    _local: threading.local = field(default_factory=threading.local, repr=False)
    _opened: list[Register] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def today(self) -> date:
        """The reference date: the configuration's ``hoje``, else today's date (kept current in the library's
        object, which a long-running server otherwise would leave at the day it started)."""
        if self.config.hoje is not None:
            return self.config.hoje
        now = date.today()
        if self.autos.today != now:
            self.autos.today = now
        return now

    def register(self) -> Register:
        """This thread's connection to the register (SQLite connections stay in the thread that opened them); on
        PostgreSQL, a connection that no longer answers (the server restarted) is replaced by a new one, so that the
        application goes on without a restart of its own."""
        reg: Register | None = getattr(self._local, "register", None)
        if reg is not None and not reg.alive():
            with self._lock:
                if reg in self._opened:
                    self._opened.remove(reg)
            with contextlib.suppress(Exception):  # already broken: closing only frees it
                reg.close()
            reg = None
        if reg is None:
            reg = Register.open(self.config.registro_local)
            self._local.register = reg
            with self._lock:
                self._opened.append(reg)
        return reg

    def close(self) -> None:
        """Close every connection (at shutdown; a connection of another thread is closed from here)."""
        with self._lock:
            for reg in self._opened:
                with contextlib.suppress(Exception):  # closing at shutdown: nothing else to do
                    reg.close()
            self._opened.clear()


def load_secret(file: Path) -> bytes:
    """The application's secret key (signs the sign-in form's token and the notices): read from ``file``, created
    with 32 random bytes, readable only by its owner, when missing."""
    try:
        return bytes.fromhex(file.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        pass
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        why = os_error_pt(exc) if isinstance(exc, OSError) else "não contém uma chave hexadecimal"
        raise InputError(f"não foi possível ler a chave secreta da aplicação web ({why}).", file=file,
                         hint="apague o arquivo: uma nova chave é criada (as sessões abertas continuam).") from None
    key = secrets.token_bytes(32)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_secret(file)  # another worker created it first
    except OSError as exc:
        raise InputError(f"não foi possível criar a chave secreta da aplicação web ({os_error_pt(exc)}).", file=file,
                         hint="indique em [servidor] chave um arquivo numa pasta com permissão de escrita.") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key.hex() + "\n")
    except OSError as exc:  # a full disk: no empty or half-written key is left for the next start to refuse
        with contextlib.suppress(OSError):
            file.unlink()
        raise InputError(f"não foi possível gravar a chave secreta da aplicação web ({os_error_pt(exc)}).",
                         file=file, hint="libere espaço no disco ou indique em [servidor] chave um arquivo noutro "
                         "disco.") from None
    return key


def web_state(request: Request) -> WebState:
    state: WebState = request.app.state.autos_web
    return state


def register(request: Request) -> Register:
    """The register, through this thread's connection."""
    return web_state(request).register()


async def with_register(request: Request, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(register, *args, **kwargs)`` in a worker thread, with that thread's register connection (an ``async``
    handler — one that reads a form — calls the library this way; a plain ``def`` handler already runs in a worker
    thread and calls ``register(request)`` directly)."""
    return await run_in_threadpool(lambda: fn(register(request), *args, **kwargs))
