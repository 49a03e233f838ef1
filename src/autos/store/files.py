"""Atomic file output: write to a temporary file in the target folder, then rename.

A failure (bad input, full disk, unwritable folder) leaves no partial file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from autos.errors import OutputError, os_error_pt

_UMASK = os.umask(0)
os.umask(_UMASK)


def ensure_dir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"não foi possível criar a pasta de saída ({os_error_pt(exc)}).", file=folder,
                          hint="escolha uma pasta em que você tenha permissão de escrita (-o PASTA).") from None
    if not os.access(folder, os.W_OK):
        raise OutputError("a pasta de saída não permite escrita.", file=folder,
                          hint="escolha uma pasta em que você tenha permissão de escrita (-o PASTA).")


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` all at once or not at all."""
    with open_atomic(target) as fh:
        fh.write(data)


def write_new_atomic(target: Path, data: bytes) -> bool:
    """Write ``data`` to ``target`` all at once, only if ``target`` does not exist (never overwrites, even
    when another program creates it meanwhile). ``False``: it exists, nothing written."""
    ensure_dir(target.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, target)  # atomic, and fails if the target exists
        except FileExistsError:
            return False
        return True
    except OSError as exc:
        raise OutputError(f"não foi possível gravar o arquivo ({os_error_pt(exc)}).", file=target,
                          hint="verifique o espaço em disco e a permissão de escrita na pasta.") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


@contextlib.contextmanager
def open_atomic(target: Path) -> Iterator[BinaryIO]:
    """A file to write ``target`` piece by piece: it appears, complete, when the block ends without error;
    otherwise nothing is left behind."""
    ensure_dir(target.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; a document gets the usual permissions
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"não foi possível gravar o arquivo ({os_error_pt(exc)}).", file=target,
                          hint="verifique o espaço em disco e a permissão de escrita na pasta.") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
