"""Extract the text of rendered documents (pypdf for PDF, python-docx for DOCX), whitespace-folded."""

from __future__ import annotations

import hashlib
import io
import re
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
