"""Extract the text of rendered documents (pypdf for PDF, python-docx for DOCX), whitespace-folded."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from decimal import Decimal
from pathlib import Path

import docx
from pypdf import PdfReader


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


#: SHA-256 of a PDF → its folded text. pypdf's extraction costs about as much CPU as WeasyPrint's rendering (it
#: parses every text operator of every page in Python), and some bytes are read by several tests of one process
#: (rendering is deterministic): a pure function of the bytes, computed once per process (≈ 7 % of a suite run's
#: reads are of bytes read before).
_PDF_TEXTS: dict[bytes, str] = {}


def pdf_text(data: bytes) -> str:
    key = hashlib.sha256(data).digest()
    found = _PDF_TEXTS.get(key)
    if found is None:
        reader = PdfReader(io.BytesIO(data))
        found = _PDF_TEXTS[key] = fold(" ".join(page.extract_text() or "" for page in reader.pages))
    return found


def docx_text(data: bytes) -> str:
    d = docx.Document(io.BytesIO(data))
    parts = [p.text for p in d.paragraphs]
    for table in d.tables:
        for row in table.rows:
            parts.extend(cell.text for cell in row.cells)
    for section in d.sections:
        parts.extend(p.text for p in section.header.paragraphs)
        parts.extend(p.text for p in section.footer.paragraphs)
    return fold(" ".join(parts))


def document_text(path: Path) -> str:
    """The text of a generated PDF (pypdf) or DOCX (python-docx) file, by its extension."""
    return pdf_text(path.read_bytes()) if path.suffix == ".pdf" else docx_text(path.read_bytes())


def spreadsheet_rows(data: bytes, columns: list[str] | tuple[str, ...] | None = None) -> list[dict[str, str]]:
    """The records of a CSV that autos wrote, read back as a spreadsheet in pt-BR (Excel, LibreOffice) opens it,
    after checking the dialect it needs (README, "Arquivos CSV"): a UTF-8 BOM (else the accents break), every line
    ending in CRLF, ``;`` between cells (the header splits into ``columns``, when given, or into more than one
    cell). The tests' CSVs have no line break inside a cell, so every LF must be part of a CRLF."""
    assert data.startswith(b"\xef\xbb\xbf"), data[:20]
    assert data.endswith(b"\r\n") and b"\n" not in data.replace(b"\r\n", b""), data[:200]
    text = data.decode("utf-8-sig")
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=";")
    header = list(reader.fieldnames or [])
    assert header == list(columns) if columns is not None else len(header) > 1, header
    return list(reader)


_PT_NUMBER = re.compile(r"-?\d+(,\d+)?")


def pt_number(cell: str) -> Decimal:
    """A number as a pt-BR spreadsheet reads it: digits with a decimal comma, no point, no thousands separator."""
    assert _PT_NUMBER.fullmatch(cell), cell
    return Decimal(cell.replace(",", "."))
