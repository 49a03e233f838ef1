"""Stage 4a — render DOCX: docxtpl template (Jinja sandbox, XML escaping) → editable Word document.

A template is prepared once per process with docxtpl itself (its tag cleaning of Word's XML, ``patch_xml``)
and every Jinja source is compiled once. Rendering a document then touches only the parts that hold Jinja
tags — the body, headers, footers, footnotes and the core properties — with docxtpl's own post-processing
(``resolve_listing``, ``fix_tables``, ``fix_docpr_ids``); the other parts of the package (styles, theme,
numbering, ~800 kB of XML) are copied as they were compressed once. The result is the document docxtpl
writes (``tests/test_render_docx.py`` compares both, part by part, for every sample), in about a tenth of the
time, and byte-identical for the same context (the ZIP entries keep the template's dates).

Templates are text-only: pictures and sub-documents (docxtpl's ``InlineImage``/``Subdoc``) need the
python-docx object model and are not supported. A picture that changes per document (the QR codes) is
docxtpl's ``replace_media``: the template carries a placeholder picture (:data:`autos.render.verification.
PLACEHOLDERS`) and the context's ``midias_docx`` gives the PNG that replaces every media file with the
placeholder's bytes (matched by CRC, as docxtpl does; the PNG is made only here, when a DOCX is rendered); the
picture keeps the size the template gives it.

One deliberate difference from docxtpl: its escaped tags ``{_{ }_}`` / ``{_% %_}`` (literal ``{{ }}`` /
``{% %}`` in the document) are turned into literal text in the template's source, before rendering, instead of
being replaced in the rendered XML — where docxtpl also rewrote them inside the case's text (a ``fatos`` with
``{_{ x }_}`` came out as ``{{ x }}``). Nothing a user typed is changed.

A template is untrusted input (``--modelos``): it is read only from inside its folder (symlinks resolved), its
ZIP members are size-checked before anything is inflated, it may not include other files, and it renders in
the bounded sandbox of :mod:`autos.render.sandbox`.
"""

from __future__ import annotations

import io
import os
import re
import struct
import threading
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from docxtpl import DocxTemplate
from lxml import etree

from autos.errors import RenderError, keep_original
from autos.render.sandbox import BoundedEnvironment, NoIncludesLoader, template_error

_FOOTNOTES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
_BODY_MARK = b"<!--autos:body-->"


#: bytes of a .docx template file, of one member once inflated, of all members inflated; number of members
MAX_DOCX_BYTES = 50_000_000
MAX_MEMBER_BYTES = 50_000_000
MAX_INFLATED_BYTES = 150_000_000
MAX_MEMBERS = 2_000

#: lxml parser for the template's XML: no entity expansion, no network, no huge trees
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)

#: docxtpl's escaped tags, written as literal text of the template (Jinja ``raw`` blocks, ``}}``/``%}`` are text)
_LITERAL_TAGS = re.compile(r"\{_\{|\}_\}|\{_%|%_\}")
_LITERAL_TEXT = {"{_{": "{% raw %}{{{% endraw %}", "}_}": "}}", "{_%": "{% raw %}{%{% endraw %}", "%_}": "%}"}


#: the code compiled from each DOCX part's source (and the part's name), for the whole process: every
#: CompileOnceEnvironment is configured alike, so another renderer of the same templates does not compile again
_CODE: dict[tuple[str, str | None], Any] = {}
_CODE_KEPT = 256
_CODE_LOCK = threading.Lock()


class CompileOnceEnvironment(BoundedEnvironment):
    """The bounded sandbox (strict, autoescaping) for DOCX templates; compiles each template source once and
    names it after its XML part (errors then say in which part the line is). Includes nothing."""

    def __init__(self) -> None:
        super().__init__(loader=NoIncludesLoader())
        self._compiled: dict[str, jinja2.Template] = {}
        self.part_names: dict[str, str] = {}

    def from_string(self, source: Any, globals: Any = None, template_class: Any = None) -> jinja2.Template:
        if globals is not None or template_class is not None or not isinstance(source, str):
            return super().from_string(source, globals, template_class)
        compiled = self._compiled.get(source)
        if compiled is None:
            filename = self.part_names.get(source)
            code = _CODE.get((source, filename))
            if code is None:
                code = self.compile(source, filename=filename)
                with _CODE_LOCK:
                    while len(_CODE) >= _CODE_KEPT:
                        _CODE.pop(next(iter(_CODE)))
                    _CODE[(source, filename)] = code
            compiled = self._compiled[source] = self.template_class.from_code(self, code, self.make_globals(None))
        return compiled


def _literal_tags(source: str) -> str:
    """``source`` with docxtpl's escaped tags turned into literal text of the template (see the module doc)."""
    return _LITERAL_TAGS.sub(lambda m: _LITERAL_TEXT[m.group(0)], source)


def _read_package(data: bytes) -> tuple[dict[str, zipfile.ZipInfo], dict[str, bytes]]:
    """The members of a .docx, inflated only after their declared sizes were checked, and read with a cap so
    that a member larger than it says (a ZIP bomb) stops at the limit."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        if len(infos) > MAX_MEMBERS:
            raise _TooBig(f"o modelo tem {len(infos)} partes; o limite é {MAX_MEMBERS}.")
        for info in infos:
            if info.file_size > MAX_MEMBER_BYTES:
                raise _TooBig(f"a parte '{info.filename}' do modelo tem {info.file_size:,} bytes descompactada; "
                              f"o limite é {MAX_MEMBER_BYTES:,}.".replace(",", "."))
        if sum(i.file_size for i in infos) > MAX_INFLATED_BYTES:
            raise _TooBig(f"o modelo descompactado passa de {MAX_INFLATED_BYTES:,} bytes.".replace(",", "."))
        raw: dict[str, bytes] = {}
        for info in infos:
            with z.open(info) as fh:
                content = fh.read(MAX_MEMBER_BYTES + 1)
            if len(content) > MAX_MEMBER_BYTES:
                raise _TooBig(f"a parte '{info.filename}' do modelo passa de {MAX_MEMBER_BYTES:,} bytes "
                              "descompactada.".replace(",", "."))
            raw[info.filename] = content
    return {i.filename: i for i in infos}, raw


class _TooBig(Exception):
    """A .docx template past the size limits (message in Portuguese)."""


@dataclass(frozen=True)
class _Member:
    """One ZIP entry, already deflated (raw DEFLATE, as stored in a ZIP file)."""

    name: bytes
    dos_time: int
    dos_date: int
    crc: int
    size: int
    data: bytes

    @classmethod
    def deflate(cls, info: zipfile.ZipInfo, raw: bytes) -> _Member:
        y, mo, d, h, mi, s = info.date_time
        packer = zlib.compressobj(6, zlib.DEFLATED, -15)
        return cls(info.filename.encode("ascii"), (h << 11) | (mi << 5) | (s // 2), ((y - 1980) << 9) | (mo << 5) | d,
                   zlib.crc32(raw), len(raw), packer.compress(raw) + packer.flush())


def _zip(members: list[_Member]) -> bytes:
    """A ZIP archive of already-deflated members (PKWARE APPNOTE 4.3: local headers, central directory,
    end record; no ZIP64 — a DOCX template is far below its limits)."""
    out = io.BytesIO()
    central = io.BytesIO()
    for m in members:
        offset = out.tell()
        fields = (20, 0, 8, m.dos_time, m.dos_date, m.crc, len(m.data), m.size, len(m.name))
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields, 0) + m.name + m.data)
        central.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, *fields, 0, 0, 0, 0, 0, offset) + m.name)
    start = out.tell()
    cd = central.getvalue()
    out.write(cd + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(cd), start, 0))
    return out.getvalue()


def _xml_part(xml: str, encoding: str = "utf-8") -> bytes:
    """A rendered XML part, parsed (a malformed result is an error, as in python-docx) and serialized the
    way python-docx writes parts."""
    element = etree.fromstring(xml.encode(encoding), _PARSER)
    data = etree.tostring(element, encoding="UTF-8", standalone=True)
    assert isinstance(data, bytes)
    return data


class CompiledDocx:
    """One DOCX template, prepared once: which parts carry Jinja, their patched sources, the rest deflated."""

    def __init__(self, data: bytes, env: CompileOnceEnvironment) -> None:
        self.env = env
        infos, raw = _read_package(data)  # before python-docx inflates anything
        self.tpl = DocxTemplate(io.BytesIO(data))
        self.tpl.render_init()
        docx = self.tpl.docx
        self.order = list(infos)
        self.infos = infos
        # body: docxtpl's patched source, rendered into the document part around the <w:body> element
        doc_name = docx.part.partname.lstrip("/")
        self.body_src = self._source(self.tpl.get_xml(), doc_name)
        root = etree.fromstring(raw[doc_name], _PARSER)
        body = root.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}body")
        assert body is not None
        body.addprevious(etree.Comment("autos:body"))
        root.remove(body)
        whole = etree.tostring(root, encoding="UTF-8", standalone=True)
        self.doc_name = doc_name
        self.doc_prefix, self.doc_suffix = whole.split(_BODY_MARK)
        # headers, footers and footnotes: (zip name, patched source, part, encoding)
        self.parts: list[tuple[str, str, Any, str]] = []
        for uri in (DocxTemplate.HEADER_URI, DocxTemplate.FOOTER_URI):
            for _key, part in self.tpl.get_headers_footers(uri):
                xml = self.tpl.get_part_xml(part)
                name = part.partname.lstrip("/")
                self.parts.append((name, self._source(xml, name), part, self.tpl.get_headers_footers_encoding(xml)))
        for part in docx.part.package.parts:
            if part.content_type == _FOOTNOTES_TYPE:
                name = part.partname.lstrip("/")
                self.parts.append((name, self._source(part.blob.decode("utf-8"), name), part, "utf-8"))
        # core properties: the whole part is one template (docxtpl renders only some of its fields)
        self.core_name = "docProps/core.xml" if "docProps/core.xml" in raw else None
        self.core_src = _literal_tags(raw["docProps/core.xml"].decode("utf-8")) if self.core_name else ""
        if self.core_name:
            env.part_names[self.core_src] = self.core_name
        rendered = {doc_name, *(name for name, *_ in self.parts)} | ({self.core_name} if self.core_name else set())
        self.fixed = {name: _Member.deflate(infos[name], raw[name]) for name in self.order if name not in rendered}
        #: media files by the CRC of their bytes (the placeholders that ``midias_docx`` replaces)
        self.media: dict[int, list[str]] = {}
        for name in self.order:
            if name.startswith("word/media/"):
                self.media.setdefault(infos[name].CRC, []).append(name)

    def _source(self, xml: str, name: str) -> str:
        """The Jinja source of an XML part: docxtpl's tag cleaning (``patch_xml``), its line split before each
        paragraph (done here once rather than per render), and its escaped tags as literal text."""
        source = re.sub(r"<w:p([ >])", r"\n<w:p\1", _literal_tags(self.tpl.patch_xml(xml)))
        self.env.part_names[source] = name
        return source

    def _render_part(self, source: str, part: Any, context: dict[str, Any]) -> str:
        """docxtpl's ``render_xml_part`` without its replacement of ``{_{``/``}_}``/``{_%``/``%_}`` in the
        rendered XML (which also rewrote the case's text; those tags are literal text of the source here)."""
        self.tpl.current_rendering_part = part
        xml = self.env.from_string(source).render(context)
        result = self.tpl.resolve_listing(re.sub(r"\n<w:p([ >])", r"<w:p\1", xml))
        assert isinstance(result, str)
        return result

    def render(self, context: dict[str, Any]) -> bytes:
        tpl = self.tpl
        tpl.docx_ids_index = 1000
        body = self._render_part(self.body_src, tpl.docx.part, context)
        tree = tpl.fix_tables(body)
        tpl.fix_docpr_ids(tree)
        new: dict[str, bytes] = {
            self.doc_name: self.doc_prefix + etree.tostring(tree, encoding="UTF-8") + self.doc_suffix,
        }
        for name, source, part, encoding in self.parts:
            new[name] = _xml_part(self._render_part(source, part, context), encoding)
        if self.core_name:
            new[self.core_name] = _xml_part(self.env.from_string(self.core_src).render(context))
        replaced = self._media(context)
        members = [replaced[name] if name in replaced else self.fixed[name] if name in self.fixed
                   else _Member.deflate(self.infos[name], new[name]) for name in self.order]
        return _zip(members)

    def _media(self, context: dict[str, Any]) -> dict[str, _Member]:
        """The placeholder pictures of the template replaced by the context's PNGs (``midias_docx``)."""
        from autos.render.verification import DOCX_MEDIA, PLACEHOLDERS

        out: dict[str, _Member] = {}
        for key, make in (context.get(DOCX_MEDIA) or {}).items():
            placeholder = PLACEHOLDERS.get(key)
            png = make() if callable(make) else make
            if placeholder is None or not isinstance(png, bytes):
                continue
            for name in self.media.get(zlib.crc32(placeholder), []):
                out[name] = _Member.deflate(self.infos[name], png)
        return out


class DocxRenderer:
    """Renders the DOCX templates of one templates folder (each template is prepared once)."""

    def __init__(self, templates_dir: Path) -> None:
        self.folder = (templates_dir / "docx").resolve()
        if not self.folder.is_dir():
            raise RenderError("pasta de modelos DOCX não encontrada.", file=self.folder,
                              hint="indique a pasta de modelos com --modelos (ou --templates).")
        self._env = CompileOnceEnvironment()
        self._compiled: dict[str, CompiledDocx] = {}

    def _template(self, name: str) -> CompiledDocx:
        compiled = self._compiled.get(name)
        if compiled is None:
            path = self.folder / f"{name}.docx"
            real = os.path.realpath(path)
            if os.path.commonpath([real, str(self.folder)]) != str(self.folder):
                raise RenderError(f"o modelo '{path.name}' aponta para fora da pasta de modelos ({real}).", file=path,
                                  hint="copie o modelo para dentro da pasta docx/ em vez de usar um link simbólico.")
            try:
                size = os.path.getsize(real)
                if size > MAX_DOCX_BYTES:
                    raise _TooBig(f"o modelo tem {size:,} bytes; o limite é {MAX_DOCX_BYTES:,}.".replace(",", "."))
                with open(real, "rb") as fh:
                    data = fh.read()
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
                raise RenderError(f"modelo '{path.name}' não encontrado.", file=path) from None
            except _TooBig as exc:
                raise RenderError(str(exc), file=path, hint="reduza o modelo (imagens menores).") from None
            try:
                compiled = self._compiled[name] = CompiledDocx(data, self._env)
            except _TooBig as exc:
                raise RenderError(f"{exc} Um modelo assim é recusado para não esgotar a memória.", file=path,
                                  hint="salve o modelo de novo no Word, com imagens menores.") from None
            except Exception as exc:  # an untrusted file: whatever python-docx or lxml raise on it is its fault
                keep_original(exc, f"modelo {path}")
                raise RenderError(f"o modelo não é um documento Word válido ({_docx_fault(exc)}).", file=path,
                                  hint="salve o modelo de novo no Word como .docx.") from None
        return compiled

    def docx(self, template: str, context: dict[str, Any]) -> bytes:
        compiled = self._template(template)
        where = self.folder / f"{template}.docx"
        try:
            return compiled.render(context)
        except etree.XMLSyntaxError as exc:
            keep_original(exc, f"modelo {where}")
            raise RenderError(f"o modelo produziu um XML inválido (linha {exc.lineno} do XML do documento).",
                              file=where,
                              hint="confira as marcas {% %} que abrem e fecham parágrafos e tabelas.") from None
        except Exception as exc:  # a template is untrusted: whatever it raises is its error, exit 2
            raise template_error(exc, where, docx=True) from None


def _docx_fault(exc: BaseException) -> str:
    """What is wrong with a file that is not a usable .docx, in Portuguese (zipfile's and lxml's words go to the
    log)."""
    if isinstance(exc, etree.XMLSyntaxError):
        return f"XML malformado na linha {exc.lineno} de uma das suas partes"
    if isinstance(exc, KeyError):
        return "falta uma parte obrigatória, como word/document.xml"
    if isinstance(exc, zipfile.BadZipFile | EOFError | zlib.error):
        return "não é um arquivo .docx íntegro (o ZIP está truncado, corrompido ou não é um ZIP)"
    return "faltam partes do documento ou elas estão malformadas"
