"""Stage 4b — render PDF: HTML/CSS template (Jinja sandbox, autoescape) → WeasyPrint.

The renderer fetches nothing from the network and nothing outside the templates folder. For archiving,
:meth:`PdfRenderer.pdf` also takes a PDF variant (``pdf/a-3b``), embedded files and identifying metadata
(WeasyPrint writes them to the Info dictionary and to the XMP stream, with the PDF/A identification).

A PDF/A is also rendered with :data:`PDFA_CSS`: WeasyPrint writes ``/Interpolate true`` on every image (and its
soft mask) whose CSS ``image-rendering`` is ``auto``, the initial value, and PDF/A-2/3 (ISO 19005-2, § 6.2.8)
forbid it; any other value gives ``/Interpolate false`` (Kozea/WeasyPrint#1661, #2278).
"""

from __future__ import annotations

import io
import mimetypes
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from hashlib import md5
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit
from urllib.request import url2pathname

import jinja2
from weasyprint import CSS, HTML, Attachment
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from autos.errors import RenderError
from autos.render.sandbox import strict_html_env, template_error

#: Added to a PDF/A as a user stylesheet: a user ``!important`` declaration wins over every author one (CSS
#: Cascade, § 6.2), so a municipality's own templates (``--modelos``) cannot turn interpolation back on.
#: ``image-rendering`` is inherited, so the page-margin boxes get it from the root.
PDFA_CSS = "html, *, *::before, *::after { image-rendering: crisp-edges !important; }"


class _LocalOnlyFetcher(URLFetcher):  # type: ignore[misc]
    """Serves ``file:`` URLs whose real path (symlinks resolved) is inside the templates folder, and ``data:``
    URLs; refuses everything else (no network). The file is read here, from the path that was checked, so no
    difference between this parsing of the URL and urllib's can open another file.

    WeasyPrint catches a fetcher's errors and leaves the resource out; the refused URLs are kept in
    :attr:`refused` so that the renderer can refuse the document (:meth:`PdfRenderer.pdf_from_html`)."""

    #: bytes of one resource (image, stylesheet, font) of the templates folder
    MAX_BYTES = 50_000_000

    def __init__(self, root: Path) -> None:
        super().__init__(allowed_protocols=["file", "data"])
        self.root = os.path.realpath(root)
        self.refused: list[str] = []

    def _refuse(self, url: str, why: str) -> NoReturn:
        self.refused.append(f"{url} ({why})")
        raise ValueError(f"recurso recusado: {url} ({why})")

    def fetch(self, url: str, headers: Any = None) -> Any:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file" or parts.netloc not in ("", "localhost"):
            self._refuse(url, "só arquivos da pasta de modelos são lidos")
        real = os.path.realpath(url2pathname(parts.path))
        if os.path.commonpath([real, self.root]) != self.root:
            self._refuse(url, f"fora da pasta de modelos: {real}")
        with open(real, "rb") as fh:
            data = fh.read(self.MAX_BYTES + 1)
        if len(data) > self.MAX_BYTES:
            self._refuse(url, f"maior que {self.MAX_BYTES // 1_000_000} MB")
        mime = mimetypes.guess_type(real)[0] or "application/octet-stream"
        return URLFetcherResponse(url, data, {"Content-Type": mime})


@dataclass(frozen=True)
class PdfMetadata:
    """Identifying metadata of a PDF; it replaces what the template's ``<title>``/``<meta>`` say."""

    titulo: str
    autor: str
    assunto: str
    palavras_chave: list[str]
    criado_em: datetime | None = None


@dataclass(frozen=True)
class EmbeddedFile:
    """A file embedded in the PDF, associated with the document (PDF/A-3 "associated file")."""

    name: str
    data: bytes
    mime: str
    description: str
    relationship: str = "Source"  # ISO 32000-2, 7.11.3: Source, Data, Alternative, Supplement, Unspecified
    when: datetime | None = None

    def attachment(self) -> Attachment:
        return Attachment(file_obj=io.BytesIO(self.data), name=self.name, description=self.description,
                          relationship=self.relationship, created=self.when, modified=self.when)


def _sfnt_with_fixed_date(font: bytes) -> bytes:
    """``font`` (TrueType/OpenType) with ``head.modified`` set to ``head.created`` and its checksums redone.

    WeasyPrint subsets fonts with HarfBuzz-Subset when the system has it, and otherwise with fontTools, whose
    ``TTFont.save`` stamps ``head.modified`` with the current second (``recalcTimestamp``): the same page
    rendered a second later had other bytes, and the hash of a re-rendered edital changed. A font whose
    tables cannot be read is returned as it is."""
    if len(font) < 12:
        return font
    num_tables = struct.unpack_from(">H", font, 4)[0]
    for i in range(num_tables):
        record = 12 + 16 * i
        if record + 16 > len(font):
            return font
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", font, record)
        if tag != b"head":
            continue
        if length < 36 or offset + length > len(font):
            return font
        data = bytearray(font)
        data[offset + 28:offset + 36] = data[offset + 20:offset + 28]  # modified := created
        data[offset + 8:offset + 12] = bytes(4)  # checkSumAdjustment is 0 while checksums are computed
        struct.pack_into(">I", data, record + 4, _sfnt_checksum(bytes(data[offset:offset + length])))
        struct.pack_into(">I", data, offset + 8, (0xB1B0AFBA - _sfnt_checksum(bytes(data))) & 0xFFFFFFFF)
        return bytes(data)
    return font


def _sfnt_checksum(data: bytes) -> int:
    """OpenType table checksum: the sum of big-endian uint32 words, zero-padded, modulo 2**32."""
    padded = data + bytes(-len(data) % 4)
    total: int = sum(struct.unpack(f">{len(padded) // 4}I", padded))
    return total & 0xFFFFFFFF


def _finisher(files: list[EmbeddedFile]) -> Callable[[Any, Any], None]:
    """Post-process WeasyPrint's PDF before it is written.

    - every embedded font gets a fixed ``head.modified`` (:func:`_sfnt_with_fixed_date`): the same document
      gives the same bytes on both of WeasyPrint's font-subsetting paths;
    - each embedded file gets its MIME type (WeasyPrint guesses from the name and falls back to
      application/octet-stream), and each associated file is listed once in the catalog's /AF array
      (WeasyPrint's PDF/A code adds every file spec twice)."""
    mimes = {f"<{md5(f.data, usedforsecurity=False).hexdigest()}>": f.mime for f in files}

    def finisher(_document: Any, pdf: Any) -> None:
        for obj in pdf.objects:
            extra = getattr(obj, "extra", None)
            if not isinstance(extra, dict):
                continue
            if "Length1" in extra or extra.get("Subtype") == "/OpenType":
                chunks = getattr(obj, "stream", None)
                if isinstance(chunks, list) and len(chunks) == 1 and isinstance(chunks[0], bytes):
                    chunks[0] = _sfnt_with_fixed_date(chunks[0])
            elif extra.get("Type") == "/EmbeddedFile":
                mime = mimes.get(extra.get("Params", {}).get("CheckSum"))
                if mime:
                    extra["Subtype"] = "/" + mime.replace("/", "#2f")
        af = pdf.catalog.get("AF")
        if af is not None:
            af[:] = list(dict.fromkeys(af))

    return finisher


class PdfRenderer:
    """Renders HTML templates of one templates folder. Reuse it across documents: the font configuration and
    the parsed template stylesheet are built once: a PDF then costs what WeasyPrint itself needs for the page, with
    the same reuse (median 1.00×, 0.75–1.27× over the kinds of document; bench/bench_documents.py, bench/pdf_floor.py),
    about 0.76× a fresh ``weasyprint.HTML(...).write_pdf()`` of it (bench/bench_preview.py)."""

    _LINK = re.compile(r'<link rel="stylesheet" href="([A-Za-z0-9_.-]+\.css)">')

    def __init__(self, templates_dir: Path) -> None:
        self.folder = (templates_dir / "html").resolve()
        if not self.folder.is_dir():
            raise RenderError("pasta de modelos HTML não encontrada.", file=self.folder,
                              hint="indique a pasta de modelos com --modelos (ou --templates).")
        self.env = strict_html_env(self.folder)
        self.fetcher = _LocalOnlyFetcher(self.folder)
        self._fonts: FontConfiguration | None = None
        self._css: dict[str, Any] = {}
        self._pdfa_css: Any = None

    @property
    def fonts(self) -> FontConfiguration:
        if self._fonts is None:
            self._fonts = FontConfiguration()
        return self._fonts

    def html(self, template: str, context: dict[str, Any]) -> str:
        name = f"{template}.html"
        try:
            return self.env.get_template(name).render(context)
        except jinja2.TemplateNotFound as exc:
            if exc.name == name:
                raise RenderError(f"modelo '{name}' não encontrado.", file=self.folder / name) from None
            raise template_error(exc, self.folder / name) from None
        except Exception as exc:  # a template is untrusted: whatever it raises is its error, exit 2
            raise template_error(exc, self.folder / name) from None

    def _stylesheet(self, name: str) -> Any:
        """A stylesheet of the templates folder, parsed once (read through the local-only fetcher); ``None``
        when it is missing (WeasyPrint then reports it as for any link) or has ``!important`` declarations
        (see :meth:`_document`)."""
        if name not in self._css:
            path = self.folder / name
            inside = os.path.commonpath([os.path.realpath(path), str(self.folder)]) == str(self.folder)
            usable = inside and path.is_file() and \
                "!important" not in path.read_text(encoding="utf-8", errors="replace")
            self._css[name] = CSS(url=path.as_uri(), url_fetcher=self.fetcher,
                                  font_config=self.fonts) if usable else None
        return self._css[name]

    def _document(self, source: str) -> tuple[Any, list[Any]]:
        """WeasyPrint's document for ``source`` and the stylesheets to pass with it.

        A page whose only stylesheet is one ``<link>`` to a file of the templates folder (and no ``<style>``)
        gets that stylesheet pre-parsed instead. WeasyPrint applies it as a user stylesheet rather than an
        author one; with no other sheet on the page the only difference would be in ``!important`` rules
        against ``style`` attributes, so a stylesheet with ``!important`` is always linked."""
        sheets: list[Any] = []
        links = self._LINK.findall(source)
        if len(links) == 1 and "<style" not in source and source.count("<link") == 1:
            parsed = self._stylesheet(links[0])
            if parsed is not None:
                source = self._LINK.sub("", source, count=1)
                sheets.append(parsed)
        return HTML(string=source, base_url=str(self.folder) + "/", url_fetcher=self.fetcher), sheets

    def pdf(self, template: str, context: dict[str, Any], *, attachments: list[Any] | None = None,
            pdf_variant: str | None = None, metadata: PdfMetadata | None = None) -> bytes:
        """The PDF of ``template``; ``attachments`` are :class:`EmbeddedFile` (or ``weasyprint.Attachment``)."""
        return self.pdf_from_html(self.html(template, context), attachments=attachments, pdf_variant=pdf_variant,
                                  metadata=metadata)

    def pdf_from_html(self, source: str, *, attachments: list[Any] | None = None, pdf_variant: str | None = None,
                      metadata: PdfMetadata | None = None) -> bytes:
        """The PDF of an HTML page rendered from this folder's templates (see :meth:`html`).

        A page that asks for a resource outside the templates folder (or on the network) is refused."""
        self.fetcher.refused.clear()
        doc, sheets = self._document(source)
        kwargs: dict[str, Any] = {}
        if attachments:
            kwargs["attachments"] = [a.attachment() if isinstance(a, EmbeddedFile) else a for a in attachments]
        finisher = _finisher([a for a in attachments or [] if isinstance(a, EmbeddedFile)])
        if pdf_variant:
            kwargs["pdf_variant"] = pdf_variant
            if pdf_variant.startswith("pdf/a"):
                if self._pdfa_css is None:
                    self._pdfa_css = CSS(string=PDFA_CSS, font_config=self.fonts)
                sheets.append(self._pdfa_css)
        if metadata is None:
            data = doc.write_pdf(finisher=finisher, stylesheets=sheets, font_config=self.fonts, **kwargs)
        else:
            rendered = doc.render(font_config=self.fonts, stylesheets=sheets, **kwargs)
            meta = rendered.metadata
            meta.title = metadata.titulo
            meta.authors = [metadata.autor]
            meta.description = metadata.assunto
            meta.keywords = list(metadata.palavras_chave)
            meta.generator = "autos"
            if metadata.criado_em is not None:
                stamp = metadata.criado_em.isoformat(timespec="seconds")
                meta.created = meta.modified = stamp
            data = rendered.write_pdf(finisher=finisher, **kwargs)
        assert isinstance(data, bytes)
        if self.fetcher.refused:
            raise RenderError("o modelo pede recurso fora da pasta de modelos: " + "; ".join(self.fetcher.refused)
                              + ".", file=self.folder,
                              hint="coloque imagens, folhas de estilo e fontes dentro da pasta html/ dos modelos "
                              "(sem links simbólicos para fora dela) e use caminhos relativos.")
        return data
