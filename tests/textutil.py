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


#: SHA-256 of a PDF → its folded text and the folded text of its page bodies (:func:`pdf_body_text`). pypdf's
#: extraction costs about as much CPU as WeasyPrint's rendering (it parses every text operator of every page in
#: Python), and some bytes are read by several tests of one process (rendering is deterministic): a pure function of
#: the bytes, computed once per process, both texts in the same pass (≈ 7 % of a suite run's reads are of bytes read
#: before).
_PDF_TEXTS: dict[bytes, tuple[str, str]] = {}

#: the top and bottom page margins of templates/html/base.css (``@page { margin: 22mm 18mm 22mm 22mm }``), in points:
#: the running header, the footer line and "Página X de Y" are drawn there
_MARGIN_PT = 22 * 72 / 25.4
#: text smaller than this is not read by a person: the 1 pt carrier of the footer line (``.rodape-texto``)
_SMALLEST_PT = 2.0


def _pdf_texts(data: bytes) -> tuple[str, str]:
    key = hashlib.sha256(data).digest()
    found = _PDF_TEXTS.get(key)
    if found is None:
        reader = PdfReader(io.BytesIO(data))
        pages, body, seen = [], [], set()
        for n, page in enumerate(reader.pages):
            top = float(page.mediabox.top)
            lines: list[tuple[float, list[str]]] = []  # runs of text drawn on one baseline, in drawing order

            def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float,
                      top: float = top, lines: list[tuple[float, list[str]]] = lines) -> None:
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                if not text.strip() or abs(size * (cm[3] or 1) * (tm[3] or 1)) < _SMALLEST_PT:
                    return
                if not _MARGIN_PT - 1 < y < top - _MARGIN_PT + 1:
                    return
                if lines and lines[-1][0] == round(y, 1):
                    lines[-1][1].append(text)
                else:
                    lines.append((round(y, 1), [text]))

            pages.append(page.extract_text(visitor_text=visit) or "")
            texts = [" ".join(parts) for _y, parts in lines]
            keys = [re.sub(r"\s+", "", t) for t in texts]
            if n and keys and keys[0] in seen:  # a table header WeasyPrint repeats at the top of the page
                texts, keys = texts[1:], keys[1:]
            seen.update(keys)
            body.extend(texts)
        found = _PDF_TEXTS[key] = (fold(" ".join(pages)), fold(" ".join(body)))
    return found


def pdf_text(data: bytes) -> str:
    return _pdf_texts(data)[0]


def pdf_body_text(data: bytes) -> str:
    """What a PDF says on its pages, without what the page margins repeat (running header, footer line, page
    numbers), without text too small to read, and without the copy of a table's header that WeasyPrint draws at
    the top of a page the table continues on."""
    return _pdf_texts(data)[1]


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


def docx_body_text(data: bytes) -> str:
    """What a DOCX says in its body, in document order (paragraphs and each table's cells, row by row), without its
    headers and footers."""
    from docx.oxml.ns import qn

    body = docx.Document(io.BytesIO(data)).element.body
    parts = ["".join(t.text or "" for t in p.iter(qn("w:t"))) for p in body.iter(qn("w:p"))]
    return fold(" ".join(parts))


def docx_letterhead_text(data: bytes) -> str:
    """The letterhead of a DOCX: the text of its first section's header."""
    return fold(" ".join(p.text for p in docx.Document(io.BytesIO(data)).sections[0].header.paragraphs))


def docx_pdf_differences(docx_data: bytes, pdf_data: bytes) -> list[str]:
    """Where the DOCX and the PDF of one document say different things: the body of each (page headers and
    footers left out), the PDF's first-page letterhead matched against the DOCX's header, compared with whitespace
    removed (pypdf's and python-docx's spacing differ); each difference as words, empty when they say the same."""
    import difflib

    head, text, pdf = docx_letterhead_text(docx_data), docx_body_text(docx_data), pdf_body_text(pdf_data)
    if not pdf.startswith(head):
        return [f"timbre: DOCX {head!r}, PDF {pdf[:len(head) + 40]!r}"]
    pdf = pdf[len(head):].strip()
    if re.sub(r"\s+", "", text) == re.sub(r"\s+", "", pdf):
        return []
    a, b = text.split(" "), pdf.split(" ")
    found = [f"DOCX {' '.join(a[i1:i2])!r} ≠ PDF {' '.join(b[j1:j2])!r}"
             for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
             if op != "equal" and re.sub(r"\s+", "", " ".join(a[i1:i2])) != re.sub(r"\s+", "", " ".join(b[j1:j2]))]
    return found or [f"DOCX {text!r} ≠ PDF {pdf!r}"]
