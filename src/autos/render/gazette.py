"""The gazette file and the verification codes of published editais (pypdf): merge the documents with one
bookmark each, stamp continuous folio numbers, and read back the codes a published file prints."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autos.render.verification import DOC_CODE_LABEL, with_verification

_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
_CODE_CHARS = "[0-9A-HJKMNP-TV-Z]"
CODE_RE = re.compile(rf"\b({_CODE_CHARS}{{4}}-{_CODE_CHARS}{{4}}-{_CODE_CHARS}{{4}})\b")
GAZETTE_CODE_LABEL = "código do caderno:"


def verification_code(*parts: str) -> str:
    """A short code (60 bits, ``7KQ2-M9XA-3FDP``) naming one published file; deterministic, so a
    restarted run prints the same code. It identifies; the SHA-256 in the ledger authenticates."""
    digest = hashlib.sha256("\x1f".join(("autos-edital", *parts)).encode()).digest()
    n = int.from_bytes(digest[:8], "big") >> 4
    chars = []
    for _ in range(12):
        chars.append(_CODE_ALPHABET[n & 31])
        n >>= 5
    s = "".join(reversed(chars))
    return f"{s[:4]}-{s[4:8]}-{s[8:]}"



def with_code(ctx: dict[str, Any], codigo: str) -> dict[str, Any]:
    """The context with the verification code at the end of the footer line (``rodape``, printed on every
    page of the PDF and in the DOCX footer by the templates) and in the QR code (it replaces the code the
    document context already had: :func:`autos.render.verification.with_verification`)."""
    return with_verification(ctx, codigo)



class GazetteBuilder:
    """The gazette (pypdf), built part by part as the documents arrive: merge in order with one bookmark each;
    at the end stamp every page with ``folio(i, n)`` (continuous numbering of the merged document, 1-based)."""

    def __init__(self) -> None:
        from pypdf import PdfWriter

        self.writer = PdfWriter()

    def add(self, title: str, path: Path) -> None:
        from pypdf import PdfReader

        start = len(self.writer.pages)
        reader = PdfReader(path)
        _without_signatures(reader)
        self.writer.append(reader, import_outline=False)
        self.writer.add_outline_item(title=title, page_number=start)

    def finish(self, folio: Callable[[int, int], str], metadata: dict[str, str]) -> bytes:
        total = len(self.writer.pages)
        _stamp(self.writer, [folio(i + 1, total) for i in range(total)])
        self.writer.add_metadata(metadata)
        buf = io.BytesIO()
        self.writer.write(buf)
        return buf.getvalue()


def _without_signatures(reader: Any) -> None:
    """A part signed on its own (``--assinar``) brings its signature fields: in the gazette they would cover bytes
    of another file (broken signatures), and the gazette is signed as a whole. The part's signature widgets and its
    form are taken out of the part as read, in memory, *before* it is merged: pypdf copies only what the pages and
    the form reach, so the signature dictionaries (with their certificates), their appearance streams and fonts
    never enter the gazette. Dropping them from the merged pages instead left them in the file, unreferenced —
    which validators that scan the objects (endesive: "Invalid ByteRange markers") reject."""
    from pypdf.generic import ArrayObject, NameObject

    def is_signature(annot: Any) -> bool:
        annot = annot.get_object()
        parent = annot.get("/Parent")
        return bool(annot.get("/FT") == "/Sig" or (parent is not None and parent.get_object().get("/FT") == "/Sig"))

    for page in reader.pages:
        annots = page.get("/Annots")
        if annots is None:
            continue
        kept = [a for a in annots.get_object() if not is_signature(a)]
        if len(kept) != len(annots.get_object()):
            page[NameObject("/Annots")] = ArrayObject(kept)
    reader.root_object.pop(NameObject("/AcroForm"), None)


def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _stamp(writer: Any, texts: list[str]) -> None:
    """Draw one line of text at the top edge of each page, above the running header (Helvetica, WinAnsi),
    after the page's own content."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"), NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
    })
    font_ref = writer._add_object(font)
    push = DecodedStreamObject()
    push.set_data(b"q\n")
    push_ref = writer._add_object(push)
    for page, text in zip(writer.pages, texts, strict=True):
        resources = page.get("/Resources")
        if resources is None:
            resources = DictionaryObject()
            page[NameObject("/Resources")] = resources
        resources = resources.get_object()
        fonts = resources.get("/Font")
        if fonts is None:
            fonts = DictionaryObject()
            resources[NameObject("/Font")] = fonts
        fonts.get_object()[NameObject("/FAutosCaderno")] = font_ref
        box = page.mediabox
        x, y = float(box.left) + 62.36, float(box.top) - 17.0  # 22 mm from the left, 6 mm from the top
        ops = (b"\nQ q BT /FAutosCaderno 6.5 Tf 0.2 g " + f"{x:.2f} {y:.2f} Td ".encode() + _pdf_string(text)
               + b" Tj ET Q\n")
        stamp = DecodedStreamObject()
        stamp.set_data(ops)
        contents = page.raw_get("/Contents") if "/Contents" in page else None
        arr = ArrayObject([push_ref])
        if isinstance(contents, ArrayObject):
            arr.extend(contents)
        elif contents is not None:
            arr.append(contents)
        arr.append(writer._add_object(stamp))
        page[NameObject("/Contents")] = arr


def printed_text(data: bytes) -> str:
    """The text of a PDF (pages read until one shows a code: a gazette has one on every page) or of a DOCX's
    footers (where the code is printed); empty for anything unreadable."""
    if data[:4] == b"PK\x03\x04":
        import zipfile

        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                parts = [z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.startswith("word/footer")]
        except Exception:  # a damaged DOCX (bad zip, corrupt deflate data, CRC, encryption…) has no readable code
            return ""
        return re.sub(r"<[^>]+>", " ", " ".join(parts))
    try:
        from pypdf import PdfReader

        texts: list[str] = []
        for page in PdfReader(io.BytesIO(data)).pages:
            texts.append(page.extract_text() or "")
            if CODE_RE.search(texts[-1]):
                break
        return " ".join(texts)
    except Exception:  # any unreadable or non-PDF file simply has no readable code
        return ""


def claimed_codes(data: bytes) -> list[tuple[str, str]]:
    """Verification codes printed in a file: the gazette's if any, else each document's (in order, once)."""
    text = re.sub(r"\s+", " ", printed_text(data))
    out: list[tuple[str, str]] = []
    for code in dict.fromkeys(re.findall(re.escape(GAZETTE_CODE_LABEL) + r"\s*" + CODE_RE.pattern, text)):
        out.append(("código do caderno", code))
    for code in dict.fromkeys(re.findall(re.escape(DOC_CODE_LABEL) + r"\s*" + CODE_RE.pattern, text)):
        if ("código do caderno", code) not in out:
            out.append(("código de verificação", code))
    if any(label == "código do caderno" for label, _ in out):
        out = [c for c in out if c[0] == "código do caderno"]
    return out
