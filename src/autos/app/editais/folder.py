"""The output folder of a publication: one run writes in it at a time, it belongs to one ledger, it must be
writable before the ledger is touched, the files the workers wrote in it are read back before the commit, and its
renames reach the disk (fsync of the folder)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from autos.app.editais.jobs import Written, output_error, write_tmp
from autos.app.editais.manifest import file_sha256
from autos.errors import LedgerError, OutputError, os_error_pt
from autos.store.database import DatabaseUrl, Location
from autos.store.ledger_store import RunLock

#: in the output folder: the run lock of the folder, and which ledger numbers the editais written in it
FOLDER_LOCK_NAME = ".publicacao-editais.lock"
FOLDER_LEDGER_NAME = ".livro-editais"


def _lock_folder(folder: Path) -> RunLock:
    """Only one run writes into an output folder at a time, whatever ledger it uses."""
    lock = RunLock(folder / FOLDER_LOCK_NAME)
    try:
        taken = lock.acquire()
    except OSError as exc:
        raise output_error(exc, lock.path) from None
    if not taken:
        raise LedgerError("outra execução está publicando editais nesta pasta de saída neste momento (talvez com "
                          "outro livro).", file=folder, hint="aguarde o fim da outra execução e rode de novo.")
    return lock


def _claim_folder(folder: Path, ledger_path: Location, *, write: bool, identity: str | None = None) -> None:
    """One output folder, one ledger: two ledgers would number the same ``edital-0001`` and overwrite each
    other's published files. The folder records its ledger (path relative to the folder, so folder and ledger
    can move together; a ledger on PostgreSQL by the database's identity, the same whatever address a machine
    reaches it by) the first time it is used; another ledger is refused."""
    marker = folder / FOLDER_LEDGER_NAME
    here = (f"{_SERVER_MARK}{identity}" if isinstance(ledger_path, DatabaseUrl)
            else os.path.relpath(ledger_path.resolve(), folder.resolve()))
    try:
        recorded = marker.read_text(encoding="utf-8").strip() if marker.is_file() else None
    except (OSError, UnicodeDecodeError):
        recorded = None
    if recorded is not None and recorded != here:
        owner: object = ("outro banco PostgreSQL" if recorded.startswith(_SERVER_MARK)
                         else (folder / recorded).resolve())
        raise LedgerError(
            f"a pasta de saída é do livro {owner}, não deste ({ledger_path}); dois livros na mesma pasta "
            "numerariam os mesmos editais e um gravaria por cima dos arquivos publicados do outro.", file=folder,
            hint=f"use o livro da pasta (--livro {owner}) ou outra pasta de saída; se o livro mudou de lugar, "
            f"confira que é o mesmo e apague o arquivo {marker} (veja docs/runbook-editais.md).")
    if recorded is None and write:
        tmp = folder / f".{FOLDER_LEDGER_NAME}.tmp"
        write_tmp(tmp, (here + "\n").encode())  # OutputError with the cause in Portuguese (disk full…)
        try:
            os.replace(tmp, marker)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise output_error(exc, marker) from None


#: how a folder's marker names a ledger on PostgreSQL (then the database's identity)
_SERVER_MARK = "postgresql:"


def _ensure_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".autos-escrita-{os.getpid()}.tmp"
        try:
            with open(probe, "wb") as fh:
                fh.write(b"ok")
        finally:  # also when the write fails (a full disk fails the close that flushes it)
            with contextlib.suppress(OSError):
                probe.unlink()
    except OSError as exc:
        raise OutputError(f"a pasta de saída não pode ser usada ({os_error_pt(exc)}).", file=folder,
                          hint="escolha uma pasta em que você tenha permissão de escrita (-o PASTA); nada foi "
                          "publicado e o livro não foi alterado.") from None



def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _recheck(written: dict[str, Written], tmp_of: dict[str, Path]) -> None:
    """The coordinator reads back every file the workers wrote (on the shared filesystem, with ``--dask``) and
    compares its SHA-256 and size with what the worker declared: the ledger records only what is on disk."""
    for caminho, w in written.items():
        tmp = tmp_of[caminho]
        try:
            sha, size = file_sha256(tmp), tmp.stat().st_size
        except OSError as exc:
            raise output_error(exc, tmp) from None
        if (sha, size) != (w.sha256, w.bytes):
            raise OutputError(
                f"o arquivo gravado pelo trabalhador não é o que ele gerou (SHA-256 {sha[:12]}…, {size} bytes; "
                f"esperado {w.sha256[:12]}…, {w.bytes} bytes); o edital em curso foi desfeito.", file=tmp,
                hint="confira a pasta compartilhada (montagem NFS, espaço, outro processo gravando nela) e rode de "
                "novo (docs/runbook-distribuido.md).")
