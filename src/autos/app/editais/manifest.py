"""The manifest of a publication date (``manifesto-editais-AAAA-MM-DD.json`` and ``.csv``): every edital published
on it, with its cases and files (SHA-256, size, verification code), from the ledger; then the cases the run refused
and those already published. Written to temporary files renamed into place only when their content changed, so a
re-run with nothing new leaves the manifest exactly as it was."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from autos.store.csv_dialect import CsvTable
from autos.store.ledger import EditalRecord, Ledger

__all__ = ["MANIFEST_CSV_FIELDS", "CaseProblem", "Refusals", "correction_manifest", "edital_manifest", "file_sha256",
           "write_manifest"]


@dataclass
class CaseProblem:
    arquivo: str
    caso: str | None
    motivos: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"arquivo": self.arquivo, "caso": self.caso, "motivos": self.motivos}


class Refusals(Protocol):
    """What the manifest lists of a run besides the ledger's editais (``autos.app.editais.run.PublishResult``)."""

    @property
    def recusados(self) -> list[CaseProblem]: ...

    @property
    def ja_publicados(self) -> list[CaseProblem]: ...


class _Sink:
    """A file written to a temporary name; renamed into place only if its content changed (by SHA-256), so
    a re-run that has nothing new leaves the manifest exactly as it was (same bytes, same mtime)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp")
        self.fh = open(self.tmp, "wb")  # noqa: SIM115 - closed in close() or abort()
        self.digest = hashlib.sha256()

    def write(self, text: str) -> None:
        data = text.encode()
        self.fh.write(data)
        self.digest.update(data)

    def close(self) -> None:
        """Put the file in place; a failure (a full disk at the flush, the fsync, the rename) removes the temporary
        file and raises."""
        try:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
            if self.path.is_file() and file_sha256(self.path) == self.digest.hexdigest():
                self.tmp.unlink()
            else:
                os.replace(self.tmp, self.path)
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        with contextlib.suppress(OSError):  # closing flushes what is buffered: on a full disk, that fails too
            self.fh.close()
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


MANIFEST_CSV_FIELDS = ["situacao", "lei", "edital", "tipo", "caso", "codigo", "caminho", "sha256", "bytes",
                       "arquivo_caso", "motivos"]


def edital_manifest(e: EditalRecord) -> dict[str, Any]:
    return {
        "lei": e.lei,
        "edital": f"{e.numero}/{e.ano}",
        "data_publicacao": e.data_publicacao.isoformat(),
        "data_jornal": e.data_jornal.isoformat() if e.data_jornal else None,
        "data_edital": e.data_edital.isoformat(),
        "veiculo": e.veiculo,
        "jornal": e.jornal,
        "publicado_em": e.publicado_em.isoformat() if e.publicado_em else None,
        "casos": [{"caso": c.caso, "auto": c.auto_numero, "arquivo_caso": c.arquivo, "sha256_caso": c.sha256_caso,
                   "motivo_edital": c.motivo} for c in e.casos],
        "arquivos": [{"tipo": f.tipo, "caminho": f.caminho, "caso": f.caso, "codigo": f.codigo, "sha256": f.sha256,
                      "bytes": f.bytes} for f in e.arquivos],
        **correction_manifest(e),
    }


def correction_manifest(e: EditalRecord) -> dict[str, Any]:
    """The correction fields of an edital's manifest entry (none for an edital never corrected nor cancelled, so
    the manifest of an ordinary publication keeps its bytes): what it corrects and why, what changed, and its
    cancellation."""
    out: dict[str, Any] = {}
    if e.tipo != "edital":
        out["tipo"] = e.tipo
        out["corrige"] = e.corrige
        out["motivo"] = e.motivo
        if e.alteracoes:
            out["alteracoes"] = json.loads(e.alteracoes)
    if e.cancelamento is not None:
        out["cancelamento"] = {"data": e.cancelamento.data.isoformat(), "motivo": e.cancelamento.motivo,
                               "registrado_em": e.cancelamento.cancelado_em.isoformat()}
    return out


def write_manifest(ledger: Ledger, data: date, result: Refusals, saida: Path) -> list[Path]:
    """The date's manifest (JSON and CSV): every published edital of ``data`` — from the ledger, one edital at a
    time, so a re-run writes the same bytes and memory does not grow with the date's size — then the cases
    this run refused and those it found already published on another date or changed since."""
    stem = saida / f"manifesto-editais-{data.isoformat()}"
    js = _Sink(stem.with_suffix(".json"))
    try:
        cs = _Sink(stem.with_suffix(".csv"))
    except BaseException:
        js.abort()
        raise
    try:
        js.write('{\n  "data_publicacao": ' + json.dumps(data.isoformat()) + ',\n  "editais": [')
        table = CsvTable(MANIFEST_CSV_FIELDS)  # the project's CSV dialect (store/csv_dialect.py)
        cs.write(table.header())
        first = True
        for e in ledger.iter_editais(data_publicacao=data):
            if e.estado != "publicado":
                continue
            doc = edital_manifest(e)
            js.write(("\n" if first else ",\n") + _indent(json.dumps(doc, ensure_ascii=False, indent=2), 4))
            first = False
            files_of = {c["caso"]: c["arquivo_caso"] for c in doc["casos"]}
            situacao = "cancelado" if e.cancelamento is not None else (e.tipo if e.tipo != "edital" else "publicado")
            cs.write("".join(table.row({
                "situacao": situacao, "lei": doc["lei"], "edital": doc["edital"], "tipo": f["tipo"], "caso": f["caso"],
                "codigo": f["codigo"], "caminho": f["caminho"], "sha256": f["sha256"], "bytes": f["bytes"],
                "arquivo_caso": files_of.get(f["caso"], ""), "motivos": ""}) for f in doc["arquivos"]))
        js.write("\n  ]" if not first else "]")
        cancelled = ledger.cancelled_on(data)
        if cancelled:  # editais cancelled on this date (each is also in the manifest of its own date, marked)
            listed = json.dumps([{"lei": e.lei, "edital": f"{e.numero}/{e.ano}",
                                  "data_publicacao": e.data_publicacao.isoformat(), **correction_manifest(e)}
                                 for e in cancelled], ensure_ascii=False, indent=2)
            js.write(',\n  "cancelados": ' + _indent(listed, 2).lstrip())
            for e in cancelled:
                assert e.cancelamento is not None
                cs.write(table.row({"situacao": "cancelamento", "lei": e.lei, "edital": f"{e.numero}/{e.ano}",
                                    "motivos": e.cancelamento.motivo}))
        for situacao, key, items in (("recusado", "recusados", result.recusados),
                                     ("ja_publicado", "ja_publicados", result.ja_publicados)):
            listed = json.dumps([c.to_dict() for c in items], ensure_ascii=False, indent=2)
            js.write(f',\n  "{key}": ' + _indent(listed, 2).lstrip())
            for c in items:
                cs.write(table.row({"situacao": situacao, "caso": c.caso, "arquivo_caso": c.arquivo,
                                    "motivos": " | ".join(c.motivos)}))
        js.write("\n}\n")
        js.close()
        cs.close()
    except BaseException:  # no temporary file survives (each close removes its own on failure; abort is idempotent)
        js.abort()
        cs.abort()
        raise
    return [js.path, cs.path]


def _indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line for line in text.splitlines())


# --------------------------------------------------------------------------------------------------
# command line (``autos publicar-editais``): progress, log lines and the summary
