"""A library's own wording (SQLite, libpq, zipfile and lxml, tomllib, csv, asn1crypto, pypdf, Python's exception
names) never reaches the user: each failure below is told by a Portuguese message alone, which names what went wrong;
the original stays in the log (``autos`` logger, DEBUG), for support. Data-driven: each case makes the real failure
and gives the words its message must contain."""

from __future__ import annotations

import logging
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from autos.app.forms.importing import read_sheet
from autos.app.server import load_config
from autos.errors import AutosError, case_failure
from autos.render.docx import DocxRenderer
from autos.sign.validate import load_trust, open_pdf
from autos.store import postgres
from autos.store.register import Register
from autos.store.sqlite_errors import OwnDatabaseError, sqlite_cause

#: fragments of the libraries' own messages (and of Python's), none of which may be shown
ENGLISH = ["readonly database", "attempt to", "not a database", "file is not", "constraint", "Expected", "Invalid",
           "invalid", "line contains", "NUL", "Bad", "zip file", "Error", "error:", "Traceback", "refused",
           "Connection", "unsupported", "ValueError", "KeyError", "boom", "(at line", "column 5)", "missing",
           "while parsing", "not found", "startxref"]


def _message(fn: Callable[[], object]) -> str:
    try:
        fn()
    except AutosError as exc:
        return exc.render()
    raise AssertionError("no error")  # pragma: no cover


def _readonly_write(tmp_path: Path) -> str:
    db = tmp_path / "livro.sqlite3"
    sqlite3.connect(db).execute("CREATE TABLE t (a)").connection.commit()
    ro = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        ro.execute("INSERT INTO t VALUES (1)")
    except sqlite3.OperationalError as exc:  # "attempt to write a readonly database"
        return sqlite_cause(exc, "livro")
    raise AssertionError("the read-only database took a write")  # pragma: no cover


def _garbage_register(tmp_path: Path) -> str:
    path = tmp_path / "registro.sqlite3"
    path.write_bytes(b"isto nao e um banco " * 300)
    return _message(lambda: Register.open(path, readonly=True))


def _bad_toml(tmp_path: Path) -> str:
    config = tmp_path / "autos.toml"
    config.write_text("[servidor]\nporta = \n", encoding="utf-8")
    return _message(lambda: load_config(config))


def _csv_field_too_long(tmp_path: Path) -> str:
    sheet = tmp_path / "mutirao.csv"
    sheet.write_bytes(b"processo;fatos\nFV-1;" + b"x" * 140_000 + b"\n")  # csv's limit: 131,072 characters
    return _message(lambda: read_sheet(sheet))


def _trust_anchor_not_a_certificate(tmp_path: Path) -> str:
    anchor = tmp_path / "raiz.crt"
    anchor.write_bytes(b"\x30\x03\x02\x01\x05")  # DER, but not a certificate
    return _message(lambda: load_trust([anchor]))


def _damaged_pdf(tmp_path: Path) -> str:
    return _message(lambda: open_pdf(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF", tmp_path / "auto.pdf"))


def _docx_not_a_zip(tmp_path: Path) -> str:
    folder = tmp_path / "modelos" / "docx"
    folder.mkdir(parents=True)
    (folder / "auto_de_infracao.docx").write_bytes(b"not a zip")
    return _message(lambda: DocxRenderer(tmp_path / "modelos").docx("auto_de_infracao", {}))


def _docx_without_its_document(tmp_path: Path) -> str:
    folder = tmp_path / "modelos" / "docx"
    folder.mkdir(parents=True)
    with zipfile.ZipFile(folder / "auto_de_infracao.docx", "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
    return _message(lambda: DocxRenderer(tmp_path / "modelos").docx("auto_de_infracao", {}))


class _PgError(Exception):
    sqlstate = "XX001"


CASES: list[tuple[str, Callable[[Path], str], list[str]]] = [
    ("sqlite-somente-leitura", _readonly_write, ["o livro (ou a sua pasta) está somente para leitura"]),
    ("registro-que-nao-e-banco", _garbage_register, ["o arquivo está corrompido ou não é um banco SQLite"]),
    ("sqlite-erro-do-autos", lambda _p: sqlite_cause(OwnDatabaseError("o banco já tem tabelas que não são do autos"),
                                                     "registro"), ["o banco já tem tabelas que não são do autos"]),
    ("toml-malformado", _bad_toml, ["autos.toml, linha 2", "não é TOML válido (coluna 9)"]),
    ("csv-campo-longo", _csv_field_too_long, ["CSV malformado na linha 2", "campo longo demais"]),
    ("ancora-que-nao-e-certificado", _trust_anchor_not_a_certificate,
     ["raiz.crt", "não é um certificado X.509 legível em PEM ou DER"]),
    ("pdf-danificado", _damaged_pdf, ["auto.pdf", "o PDF está danificado e não pode ser lido"]),
    ("modelo-docx-que-nao-e-zip", _docx_not_a_zip, ["não é um documento Word válido", "não é um arquivo .docx íntegro"]),
    ("modelo-docx-sem-documento", _docx_without_its_document,
     ["não é um documento Word válido", "faltam partes do documento ou elas estão malformadas"]),
    ("postgresql-conexao-recusada", lambda _p: postgres._cause(Exception('connection to server at "db" failed: '
                                                                          "Connection refused")),
     ["o servidor não aceitou a conexão"]),
    ("postgresql-erro-desconhecido", lambda _p: postgres._cause(_PgError("data corrupted")),
     ["erro do servidor PostgreSQL, código SQLSTATE XX001"]),
    ("defeito-ao-tratar-um-caso", lambda _p: case_failure(ValueError("boom"), "ler e validar o caso"),
     ["não foi possível ler e validar o caso: erro interno ao tratar este caso"]),
]


@pytest.mark.parametrize(("make", "words"), [(m, w) for _n, m, w in CASES], ids=[n for n, _m, _w in CASES])
def test_a_library_failure_is_told_in_portuguese_alone(tmp_path: Path, make: Callable[[Path], str],
                                                       words: list[str], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="autos"):
        text = make(tmp_path)
    for w in words:
        assert w in text, (w, text)
    shown = [e for e in ENGLISH if e in text]
    assert not shown, (shown, text)


def test_the_original_wording_stays_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="autos"):
        _readonly_write(tmp_path)
    assert "attempt to write a readonly database" in caplog.text
