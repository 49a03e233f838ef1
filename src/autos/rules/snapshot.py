"""Rules already validated, kept on disk between runs.

Every command reads the rules folder strictly: each YAML file parsed, validated against its model and built into
the objects the checks use. For a command that renders nothing that is most of its start-up. What a loader
builds depends only on bytes: the files of the municipality's folder and the top of the rules folder, its official
values (which may come from ``AUTOS_VALORES_OFICIAIS``), and the code of ``autos`` and of the libraries that
build it. :func:`kept` runs the loader once for given bytes and keeps its result, pickled, in a cache folder; a
later run with the same bytes unpickles it instead of reading the files again. A change to any of those bytes is
another key: that run reads and validates the files as if there were no cache, so a broken file still stops every
command with the same message, and a failed load is never kept.

The cache folder is ``AUTOS_CACHE`` when set (``0``, ``off`` or ``não`` turns the cache off), else
``$XDG_CACHE_HOME/autos``, else ``~/.cache/autos``. It is created private to the user (``0700``), and a cached file
is read only when that user owns it and no one else may write to it or to its folder (a pickle runs code when
read: the same trust Python gives its own ``__pycache__``). A cache that cannot be read or written is not an
error: the rules are read from their files, as without it. At most :data:`KEPT` results are kept; the oldest go.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import pickle
import stat
import sys
import threading
from collections.abc import Callable, Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: the cache folder; ``0``/``off``/``não``/``nao`` (or empty) turns the cache off
CACHE_ENV = "AUTOS_CACHE"
_OFF = {"", "0", "off", "nao", "não", "no", "false"}
#: results kept at most; when a write passes it, the least recently used go
KEPT = 256
_SUBFOLDER = "regras"
_log = logging.getLogger(__name__)
_LOCK = threading.Lock()
_CODE: list[bytes] = []
#: the libraries whose classes a cached result holds or whose code builds it
_LIBRARIES = ("pydantic", "pydantic_core", "holidays", "yaml", "stdnum", "babel", "dateutil")


def cache_folder() -> Path | None:
    """Where results are kept, or ``None`` when the cache is off."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in _OFF else Path(env) / _SUBFOLDER
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache" if "HOME" in os.environ else None)
    return Path(base) / "autos" / _SUBFOLDER if base else None


def _modules(package: str) -> list[tuple[str, os.stat_result]]:
    """Every ``.py`` file under ``package``: its path relative to it and its status, sorted by path. Walked with
    :func:`os.scandir` (``Path.rglob`` costs ~10 ms of every command's start-up for the same list)."""
    found: list[tuple[str, os.stat_result]] = []
    folders = [""]
    while folders:
        rel = folders.pop()
        with os.scandir(os.path.join(package, rel)) as entries:
            for entry in entries:
                name = os.path.join(rel, entry.name)
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        folders.append(name)
                elif entry.name.endswith(".py"):
                    found.append((name, entry.stat()))
    found.sort(key=lambda item: item[0].split(os.sep))
    return found


def _code_key() -> bytes:
    """The code a result depends on: every module of ``autos`` (path, size, modification time), the Python
    version and the libraries' own files. A changed module (an edited checkout, an upgrade) is another key."""
    with _LOCK:
        if not _CODE:
            h = hashlib.blake2b(digest_size=32)
            h.update(sys.version.encode())
            for name, st in _modules(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))):
                h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
            for name in _LIBRARIES:
                spec = find_spec(name)
                origin = spec.origin if spec is not None else None
                if origin:
                    st = os.stat(origin)
                    h.update(f"{name}\0{Path(origin).parent}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
            _CODE.append(h.digest())
        return _CODE[0]


_DIGESTS: dict[tuple[str, int, int, int, int], bytes] = {}


def _digest(file: Path) -> bytes:
    """The file's bytes, hashed; remembered in this process while the file is the same (inode, size, time)."""
    try:
        st = os.stat(file)
    except OSError:
        return b"\1absent"
    memo = (os.path.abspath(file), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    found = _DIGESTS.get(memo)
    if found is None:
        try:
            found = hashlib.blake2b(file.read_bytes(), digest_size=32).digest()
        except OSError:
            return b"\1unreadable"
        if len(_DIGESTS) > 4096:
            _DIGESTS.clear()
        _DIGESTS[memo] = found
    return found


def _key(kind: str, inputs: Iterable[Path], salt: str) -> str:
    h = hashlib.blake2b(_code_key(), digest_size=24)
    h.update(f"{kind}\0{salt}\0{os.getcwd()}\0".encode())
    for file in inputs:  # the path as given (a result holds it, relative or not) and the bytes it names
        h.update(f"{file}\0".encode() + _digest(file))
    return h.hexdigest()


def _trusted(path: Path, st: os.stat_result) -> bool:
    if st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    folder = path.parent.stat()
    return folder.st_uid == os.getuid() and not folder.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read(file: Path) -> tuple[bool, object]:
    try:
        with open(file, "rb") as fh:
            if not _trusted(file, os.fstat(fh.fileno())):
                return False, None
            collecting = gc.isenabled()
            gc.disable()  # unpickling makes thousands of objects: each collection would walk every module's too
            try:
                value = pickle.load(fh)  # a private folder of this user only (see the module's docstring)
            finally:
                if collecting:
                    gc.enable()
        os.utime(file)  # used: the last to go
        return True, value
    except FileNotFoundError:
        return False, None
    except Exception as exc:  # a damaged or stale file: the rules are read from their files
        _log.debug("cache %s ignorado: %s", file, exc)
        return False, None


def _write(folder: Path, file: Path, value: object) -> None:
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # what cannot be pickled is not kept
        _log.debug("resultado de %s não guardado: %s", file.name, exc)
        return
    try:
        import tempfile  # only a run that writes the cache needs it

        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(folder)
    except OSError as exc:
        _log.debug("cache em %s não gravado: %s", folder, exc)


def _prune(folder: Path) -> None:
    entries = list(folder.glob("*.pickle"))
    if len(entries) <= KEPT:
        return
    aged: list[tuple[float, Path]] = []
    for p in entries:
        try:
            aged.append((p.stat().st_mtime, p))
        except OSError:
            continue
    aged.sort()
    for _t, p in aged[: len(aged) - KEPT]:
        p.unlink(missing_ok=True)


def kept(kind: str, inputs: Iterable[Path], build: Callable[[], T], salt: str = "") -> T:
    """``build()``'s result for these input files' paths and bytes (and ``salt``, any other argument it depends
    on): unpickled from the cache when an earlier run built it from the same bytes with the same code, else built
    (any error propagates, nothing is kept) and kept."""
    folder = cache_folder()
    if folder is None:
        return build()
    file = folder / f"{kind}-{_key(kind, inputs, salt)}.pickle"
    found, value = _read(file)
    if found:
        return value  # type: ignore[return-value]
    result = build()
    _write(folder, file, result)
    return result
