"""The files of ``autos gerar``: the case files below the paths given, the exact bytes a processo was read from,
the stem of a processo's document and its acts chosen with ``--ato``, and the rendered documents written (never
over a different one)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from autos.base.ptbr import count_noun
from autos.base.yamlio import walk_yaml_files
from autos.errors import (
    InputError,
    OutputError,
    ReplaceRefusedError,
    os_error_pt,
)
from autos.processo.load import LoadedProcesso, load_processo
from autos.store.files import write_atomic


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_documents(rendered: list[tuple[Path, bytes]], replace: bool) -> list[Path]:
    """Write every rendered document (all rendered before anything is written); return those already there with
    the same bytes, left untouched. A different file already at one of the paths stops the whole set, nothing
    written (:class:`ReplaceRefusedError`), unless ``replace``."""
    unchanged: list[Path] = []
    different: list[Path] = []
    for path, data in rendered:
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                unchanged.append(path)
            else:
                different.append(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise OutputError(f"não foi possível ler o documento que já está no destino ({os_error_pt(exc)}).",
                              file=path, hint="confira a permissão da pasta de saída.") from None
    if different and not replace:
        names = " e ".join(str(p) for p in different)
        raise ReplaceRefusedError(
            f"já existe {names} com conteúdo diferente do documento gerado agora; nada foi gravado nem substituído.",
            file=different[0], hint="confira qual é o documento emitido (autos conferir ARQUIVO --registro R); para "
            "substituí-lo, rode de novo com --substituir (o registro guarda o SHA-256 de cada versão), ou gere em "
            "outra pasta (-o).")
    for path, data in rendered:
        if path not in unchanged:
            write_atomic(path, data)
    return unchanged


def expand_case_paths(paths: list[Path]) -> list[Path]:
    """Files as given; folders become every ``*.yaml``/``*.yml`` below them, sorted."""
    return list(iter_case_paths(paths))


def iter_case_paths(paths: list[Path]) -> Iterator[Path]:
    """:func:`expand_case_paths` one path at a time: only one folder's listing is held at once, so a folder of
    100,000 cases costs no more memory than one of 1,000."""
    for given in paths:
        if Path(given).is_dir():
            yield from walk_yaml_files(Path(given))
        else:
            yield Path(given)


def _read_source(file: str | Path) -> bytes:
    """The exact bytes of a processo file (the archive embeds what was validated)."""
    try:
        raw = Path(file).read_bytes()
        raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        load_processo(file)  # raises the error with its Portuguese message
        raise InputError("o arquivo mudou durante a leitura.", file=file, hint="tente de novo.") from None
    return raw


def _processo_stem(loaded: LoadedProcesso, kind: str) -> str:
    """``notificacao-ar-ferraz-de-vasconcelos-sp-pm-fv-2026-005377``: document kind, municipality, processo."""
    p = loaded.processo
    numero = unicodedata.normalize("NFKD", p.numero).encode("ascii", "ignore").decode().lower()
    return f"{kind.replace('_', '-')}-{p.lei.split('/', 1)[0]}-{re.sub(r'[^a-z0-9]+', '-', numero).strip('-')}"


def _only_act(loaded: LoadedProcesso, acts: list[tuple[int, str]], ato: int) -> list[tuple[int, str]]:
    """``--ato N``: act N (1-based) must exist and have a document."""
    n = len(loaded.processo.atos)
    if not 1 <= ato <= n:
        raise InputError(f"o processo tem {count_noun(n, 'ato', 'atos')}; não há ato {ato}.", file=loaded.file,
                         path="atos", line=loaded.line_of(("atos",)),
                         hint="numere os atos a partir de 1, como em autos prazos.")
    chosen = [(i, k) for i, k in acts if i == ato - 1]
    if not chosen:
        a = loaded.processo.atos[ato - 1]
        with_doc = ", ".join(str(i + 1) for i, _ in acts) or "nenhum"
        raise InputError(f"o ato {ato} ({a.tipo}) não tem documento a gerar.", file=loaded.file,
                         path=f"atos[{ato - 1}]", line=loaded.line_of(("atos", ato - 1)),
                         hint=f"atos com documento neste processo: {with_doc}.")
    return chosen
