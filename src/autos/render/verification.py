"""The verification code and QR code every document prints, and the PIX QR of the demonstrativo de débito (segno).

**The code.** ``7KQ2-M9XA-3FDX``: Crockford's base-32 alphabet (no I, L, O, U: nothing to confuse with 1 and
0), three groups of four, as the editais' codes (:func:`autos.render.gazette.verification_code`), so that a
clerk reads and types both the same way and ``autos conferir`` finds both with one pattern. A document's code is
deterministic: the SHA-256 of what identifies the document (law, processo, act, document kind — never its date
or bytes), so the same act re-generated prints the same code and the register keeps every version under it.
Eleven characters (55 bits) come from the hash and the twelfth is a check character (Luhn mod 32), which catches
every single mistyped character and every swap of two neighbours except that of 0 and Z: a code typed wrong is
refused as mistyped before it is looked up. The editais keep their own 12-character codes, already recorded
in the ledgers (no check character; they are read from the file, not typed).

**The QR.** It carries the code; when the Municipality configures a verification URL (``url_verificacao`` in its
``timbre.yaml``, with ``{codigo}`` where the code goes), it carries that URL with the code. The PDF gets the
QR as inline SVG (nothing for WeasyPrint to fetch), the DOCX as a PNG that replaces the template's placeholder
picture (docxtpl's ``replace_media``: see :mod:`autos.render.docx`).
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import struct
import zlib
from typing import Any

from markupsafe import Markup

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
DOC_CODE_LABEL = "Código de verificação:"
#: where the code goes in the Municipality's verification URL
URL_CODE = "{codigo}"
_N = len(ALPHABET)
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
#: Crockford's decoding of characters a person may type for a digit
_TYPED = str.maketrans({"O": "0", "I": "1", "L": "1"})


def _luhn_sum(chars: str, first_factor: int) -> int:
    factor, total = first_factor, 0
    for c in reversed(chars):
        addend = factor * _VALUE[c]
        total += addend // _N + addend % _N
        factor = 1 if factor == 2 else 2
    return total


def check_char(body: str) -> str:
    """The Luhn mod 32 check character of ``body`` (characters of :data:`ALPHABET`)."""
    return ALPHABET[(_N - _luhn_sum(body, 2) % _N) % _N]


def document_code(*parts: str) -> str:
    """The verification code of the document identified by ``parts``: 11 characters of their SHA-256 and a check
    character, in three groups of four."""
    digest = hashlib.sha256("\x1f".join(("autos-documento", *parts)).encode()).digest()
    n = int.from_bytes(digest[:7], "big") >> 1  # 55 bits
    body = "".join(ALPHABET[(n >> (5 * i)) & 31] for i in reversed(range(11)))
    s = body + check_char(body)
    return f"{s[:4]}-{s[4:8]}-{s[8:]}"


def typed_code(text: str) -> str | None:
    """A code as a person typed it (lower case, spaces, without hyphens, O for 0, I or L for 1) in its printed
    form, or None when it is not 12 characters of the alphabet or its check character does not match."""
    s = re.sub(r"[\s-]", "", text).upper().translate(_TYPED)
    if len(s) != 12 or any(c not in _VALUE for c in s) or _luhn_sum(s, 1) % _N:
        return None
    return f"{s[:4]}-{s[4:8]}-{s[8:]}"


def verification_url(template: str, code: str) -> str:
    """The Municipality's verification URL with ``code`` in place of ``{codigo}``."""
    return template.replace(URL_CODE, code)


# --------------------------------------------------------------------------------------------------
# QR images


@functools.lru_cache(maxsize=64)
def _qr(text: str) -> Any:
    """segno's QR of ``text`` (error correction M), made once for the SVG and the PNG of the same document."""
    import segno

    return segno.make(text, error="m", micro=False)


def qr_svg(text: str) -> Markup:
    """The QR of ``text`` as an inline ``<svg>`` element (sized by the stylesheet: no width nor height)."""
    svg = _qr(text).svg_inline(scale=1, border=2, omitsize=True, dark="#000", svgclass="qr", lineclass=None)
    return Markup(svg)  # segno's own markup: the text is only in the drawn modules


def qr_png(text: str) -> bytes:
    """The QR of ``text`` as a PNG (4 pixels per module, ~150 dpi at the size the templates print it; quiet zone
    of 2 modules) for the DOCX."""
    out = io.BytesIO()
    _qr(text).save(out, kind="png", scale=4, border=2)
    return out.getvalue()


def placeholder_png(shade: int) -> bytes:
    """A one-pixel grey PNG, written byte by byte (always the same bytes): the picture a DOCX template carries
    where a QR goes; the renderer recognises it by its CRC, as docxtpl's ``replace_media`` does."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)  # 1×1, 8-bit greyscale
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes([0, shade]), 9))
            + chunk(b"IEND", b""))


#: the placeholder picture of each QR in the DOCX templates (``tools/build_docx_templates.py`` puts them there)
PLACEHOLDERS: dict[str, bytes] = {"verificacao": placeholder_png(0xC8), "pix": placeholder_png(0xDC)}
#: the context key with the PNGs that replace the placeholders (name of :data:`PLACEHOLDERS` → a function giving the
#: PNG bytes, called only when a DOCX is rendered)
DOCX_MEDIA = "midias_docx"


def with_verification(ctx: dict[str, Any], code: str) -> dict[str, Any]:
    """The context with the verification code: at the end of the footer line (every page of the PDF, the DOCX
    footer) and in ``verificacao`` (the code, the URL when the letterhead configures one, the QR as SVG) and its
    PNG for the DOCX. Applied again (an edital gets its ledger's code), the new code replaces the old."""
    base = ctx.get("rodape_base", ctx["rodape"])
    template = (ctx.get("cabecalho") or {}).get("url_verificacao") or ""
    url = verification_url(template, code) if template else ""
    content = url or code
    return {**ctx, "rodape_base": base, "rodape": f"{base} — {DOC_CODE_LABEL} {code}",
            "verificacao": {"codigo": code, "url": url, "qr_texto": content, "qr_svg": qr_svg(content)},
            DOCX_MEDIA: {**ctx.get(DOCX_MEDIA, {}), "verificacao": functools.partial(qr_png, content)}}


def with_pix_qr(ctx: dict[str, Any]) -> dict[str, Any]:
    """The context with the QR of the PIX payload, when the document carries one (``pix.payload``)."""
    pix = ctx.get("pix")
    if not pix or not pix.get("payload"):
        return ctx
    return {**ctx, "pix": {**pix, "qr_svg": qr_svg(pix["payload"])},
            DOCX_MEDIA: {**ctx.get(DOCX_MEDIA, {}), "pix": functools.partial(qr_png, pix["payload"])}}
