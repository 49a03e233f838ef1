"""Build the shipped DOCX templates (docxtpl/Jinja tags) with python-docx.

The .docx files in ``templates/docx/`` are what clerks edit in Word or LibreOffice; this script is how
the shipped versions were made, so a change to their structure is reviewable as code. Every kind is
built from the same parts as its HTML twin (``templates/html/base.html`` + ``_partes.html``): the
letterhead, MINUTA and footer of :func:`_base`, and shared blocks (identification, provisions, deadlines,
calculation memo, the law's clauses, signatures). Both read the same context (``autos.documents.context``).

Every paragraph has a named style (:data:`STYLES`: Title, Subtitle, Heading 1/2, Body Text, Quote…) and the
look lives in those styles, not in direct formatting, so that a clerk who edits a document in Word keeps its
look (a new paragraph after a heading is "Body Text", a pasted clause can be set to "Quote"). The letterhead
in the header carries the neutral brasão (``templates/html/timbre/padrao.png``, drawn by :func:`neutral_brasao`);
a Municipality puts its own in the header of its copy of the templates. Run:

    python tools/build_docx_templates.py
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

from docx import Document
from docx.enum.section import WD_ORIENT
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Mm, Pt, RGBColor
from PIL import Image, ImageDraw

from autos.render.verification import PLACEHOLDERS

OUT = Path(__file__).resolve().parent.parent / "templates" / "docx"
BRASAO = Path(__file__).resolve().parent.parent / "templates" / "html" / "timbre" / "padrao.png"
RED = RGBColor(0xB0, 0x00, 0x00)
Doc = Document  # the type python-docx returns (a factory function, so annotations say Doc)
Body = Callable[[Doc], None]


# --- low-level helpers ---------------------------------------------------------------------------


def _field(paragraph, instr: str) -> None:  # type: ignore[no-untyped-def]
    fld = OxmlElement("w:fldSimple")
    fld.set(qn("w:instr"), instr)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    fld.append(run)
    paragraph._p.append(fld)


def _p(doc, text: str = "", *, bold: bool = False, size: float | None = None, center: bool = False,  # type: ignore[no-untyped-def]
       right: bool = False, color: RGBColor | None = None, style: str = "Body Text"):
    p = doc.add_paragraph(style=style)
    if center:
        p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    elif right:
        p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    if text:
        r = p.add_run(text)
        r.bold = bold
        if size:
            r.font.size = Pt(size)
        if color is not None:
            r.font.color.rgb = color
    return p


def _tag(doc, tag: str) -> None:  # type: ignore[no-untyped-def]
    """A docxtpl paragraph tag (``{%p … %}``): the paragraph disappears from the output."""
    doc.add_paragraph("{%p " + tag + " %}", style="Body Text")


def _if(doc, cond: str, body: Body) -> None:  # type: ignore[no-untyped-def]
    _tag(doc, f"if {cond}")
    body(doc)
    _tag(doc, "endif")


def _for(doc, loop: str, body: Body) -> None:  # type: ignore[no-untyped-def]
    _tag(doc, f"for {loop}")
    body(doc)
    _tag(doc, "endfor")


def _labelled(doc, label: str, value: str) -> None:  # type: ignore[no-untyped-def]
    p = doc.add_paragraph(style="Body Text")
    p.add_run(label).bold = True
    p.add_run(" " + value)


def _heading(doc, text: str, level: int = 1) -> None:  # type: ignore[no-untyped-def]
    """A section heading (style "Heading 1"), in capitals (Jinja tags in it are kept as they are)."""
    p = doc.add_paragraph(style=f"Heading {level}")
    p.add_run(re.sub(r"(\{\{.*?\}\}|\{%.*?%\})|([^{]+)", lambda m: m.group(1) or m.group(2).upper(), text)
              if level == 1 else text)


def _numbered(doc, title: str) -> None:  # type: ignore[no-untyped-def]
    """A numbered section heading: the number counts the sections printed so far (``secao``, see
    :func:`_numbering`), so an optional section leaves no gap (1, 2, 3, never 1, 2, 4)."""
    _heading(doc, "{% set secao.n = secao.n + 1 %}{{ secao.n }}. " + title)


def _numbering(doc) -> None:  # type: ignore[no-untyped-def]
    _tag(doc, "set secao = namespace(n=0)")


def _small(doc, text: str) -> None:  # type: ignore[no-untyped-def]
    _p(doc, text, style="Body Text 2")


def _loop_table(doc, headers: list[str], loop: str, cells: list[str]) -> None:  # type: ignore[no-untyped-def]
    """A table whose body rows repeat with ``{%tr for … %}`` (one row per item)."""
    table = doc.add_table(rows=3, cols=len(headers))
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for cell, text in zip(table.rows[0].cells, headers, strict=True):
        cell.paragraphs[0].add_run(text).bold = True
    table.rows[1].cells[0].paragraphs[0].add_run("{%tr for " + loop + " %}")
    for cell, text in zip(table.rows[2].cells, cells, strict=True):
        cell.paragraphs[0].add_run(text)
    table.add_row().cells[0].paragraphs[0].add_run("{%tr endfor %}")


def _pairs_table(doc, rows: list[tuple[str, str]]) -> None:  # type: ignore[no-untyped-def]
    """A two-column label/value table (the edital's data box)."""
    table = doc.add_table(rows=len(rows), cols=2)
    table.style = "Table Grid"
    for row, (label, value) in zip(table.rows, rows, strict=True):
        row.cells[0].paragraphs[0].add_run(label).bold = True
        row.cells[1].paragraphs[0].add_run(value)


# --- shared parts ----------------------------------------------------------------------------------


#: the look of each named style: (font size in points, bold, alignment, space before, space after, colour)
STYLES: dict[str, tuple[float, bool, WD_ALIGN_PARAGRAPH | None, float, float, RGBColor | None]] = {
    "Normal": (11, False, None, 0, 3, None),
    "Body Text": (11, False, WD_ALIGN_PARAGRAPH.JUSTIFY, 0, 3, None),
    "Body Text 2": (9, False, WD_ALIGN_PARAGRAPH.JUSTIFY, 0, 3, None),  # notes in small print
    "Quote": (9.5, False, WD_ALIGN_PARAGRAPH.JUSTIFY, 2, 2, None),  # the law's clauses, quoted
    "Intense Quote": (11, True, None, 3, 3, RED),  # warnings: example value, MINUTA
    "Title": (15, True, WD_ALIGN_PARAGRAPH.CENTER, 6, 0, None),
    "Subtitle": (11, True, WD_ALIGN_PARAGRAPH.CENTER, 0, 4, None),  # number and processo
    "Heading 1": (11, True, None, 8, 3, None),
    "Heading 2": (10.5, True, None, 4, 2, None),
    "Header": (9, False, WD_ALIGN_PARAGRAPH.CENTER, 0, 0, None),
    "Footer": (7.5, False, None, 0, 0, None),
    "List Bullet": (11, False, None, 0, 2, None),
}


def _styles(doc) -> None:  # type: ignore[no-untyped-def]
    """Give the named styles the documents' look: Times New Roman, black, the sizes of :data:`STYLES`, no
    borders or theme colours (Word's default Title has a rule under it; its headings are blue)."""
    for name, (size, bold, align, before, after, color) in STYLES.items():
        style = doc.styles[name]
        font = style.font
        font.name = "Times New Roman"
        rpr = style.element.get_or_add_rPr()
        fonts = rpr.find(qn("w:rFonts"))
        if fonts is not None:  # theme fonts (Calibri Light) would win over the name
            for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
                fonts.attrib.pop(qn(attr), None)
            fonts.set(qn("w:ascii"), "Times New Roman")
            fonts.set(qn("w:hAnsi"), "Times New Roman")
        font.size = Pt(size)
        font.bold = bold
        font.italic = False
        font.color.rgb = color if color is not None else RGBColor(0, 0, 0)
        fmt = style.paragraph_format
        if align is not None:
            fmt.alignment = align
        fmt.space_before, fmt.space_after = Pt(before), Pt(after)
        fmt.line_spacing = 1.1
        fmt.left_indent = fmt.right_indent = Mm(8) if name == "Quote" else None
        ppr = style.element.get_or_add_pPr()
        border = ppr.find(qn("w:pBdr"))
        if border is not None:
            ppr.remove(border)
        spacing = rpr.find(qn("w:spacing"))  # Title's letter spacing
        if spacing is not None:
            rpr.remove(spacing)


def neutral_brasao() -> bytes:
    """The neutral default brasão: a plain grey shield outline with an inner line — no emblem of any
    Municipality, only a mark of where the coat of arms goes. PNG, deterministic bytes."""
    w, h = 240, 280
    img = Image.new("RGBA", (w, h), (255, 255, 255, 0))
    draw = ImageDraw.Draw(img)

    def shield(inset: int) -> list[tuple[float, float]]:
        top, left, right = 10 + inset, 12 + inset, w - 12 - inset
        points = [(left, top), (right, top), (right, h * 0.55)]
        steps = 24
        for i in range(1, steps + 1):  # the two lower curves meet at the point of the shield
            t = i / steps
            points.append((right - (right - w / 2) * t, h * 0.55 + (h - 12 - inset - h * 0.55) * t ** 0.7))
        for i in range(1, steps):
            t = 1 - i / steps
            points.append((left + (w / 2 - left) * t, h * 0.55 + (h - 12 - inset - h * 0.55) * t ** 0.7))
        points.append((left, h * 0.55))
        return points

    draw.polygon(shield(0), fill=(242, 242, 242, 255), outline=(90, 90, 90, 255), width=6)
    draw.line(shield(16) + [shield(16)[0]], fill=(150, 150, 150, 255), width=2)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _base(fundamento: str | None = "Com fundamento na {{ documento.fundamento }}.",
          title: bool = True) -> Doc:
    """Page, metadata, styles, letterhead with the brasão, footer (document and "Página X de Y"), MINUTA block,
    title and example warning."""
    doc = Document()
    props = doc.core_properties
    props.title = "{{ metadados.titulo }}"
    props.author = "{{ metadados.autor }}"
    props.subject = "{{ metadados.assunto }}"
    props.keywords = "{{ metadados.palavras_chave }}"
    props.comments = "Gerado por autos a partir do caso em YAML."
    sec = doc.sections[0]
    sec.orientation = WD_ORIENT.PORTRAIT
    sec.page_width, sec.page_height = Mm(210), Mm(297)
    sec.top_margin, sec.bottom_margin = Mm(20), Mm(20)
    sec.left_margin, sec.right_margin = Mm(22), Mm(18)
    _styles(doc)
    # letterhead (every page: the municipality once), with the MINUTA mark when the document is a draft
    hdr = sec.header.paragraphs[0]
    hdr.style = doc.styles["Header"]
    hdr.add_run().add_picture(io.BytesIO(BRASAO.read_bytes()), height=Mm(16))
    p = sec.header.add_paragraph(style="Header")
    r = p.add_run("{{ cabecalho.linhas[0] }}")
    r.bold = True
    r.font.size = Pt(13)
    # the other lines of the letterhead (line breaks within one paragraph), then the department
    sec.header.add_paragraph('{{ cabecalho.linhas[1:] | join("\n") }}', style="Header")
    sec.header.add_paragraph("{{ cabecalho.orgao }}", style="Header")
    p = sec.header.add_paragraph(style="Header")
    r = p.add_run("{% if minuta %}MINUTA — SEM VALOR LEGAL{% endif %}")
    r.bold = True
    r.font.color.rgb = RED
    # footer: which document, and "Página X de Y"
    ftr = sec.footer.paragraphs[0]
    ftr.style = doc.styles["Footer"]
    ftr.add_run("{{ rodape }}")
    p = sec.footer.add_paragraph(style="Footer")
    p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    p.add_run("Página ")
    _field(p, "PAGE")
    p.add_run(" de ")
    _field(p, "NUMPAGES")

    def draft(d: Doc) -> None:
        _p(d, "MINUTA — SEM VALOR LEGAL", size=28, center=True, style="Intense Quote")
        _p(d, "Este documento não pode ser assinado, publicado nem entregue enquanto houver pendências:",
           style="Intense Quote")
        _for(d, "pend in pendencias", lambda d2: _p(d2, "{{ pend }}", style="List Bullet"))
    _if(doc, "minuta", draft)
    if title:
        _p(doc, "{{ documento.titulo_upper }}", style="Title")
        _p(doc, "{% if documento.numero %}Nº {{ documento.numero }}{% if documento.processo %} — {% endif %}"
                "{% endif %}{% if documento.processo %}Processo {{ documento.processo }}{% endif %}", style="Subtitle")
    if fundamento:
        _p(doc, fundamento, center=True, style="Body Text 2")
    _if(doc, "exemplo_aviso", lambda d: _p(d, "{{ exemplo_aviso }}", style="Intense Quote"))
    return doc


def _identificacao(doc, label: str = "Nome / razão social:") -> None:  # type: ignore[no-untyped-def]
    _labelled(doc, label, "{{ autuado.nome }}{% if autuado.nome_fantasia %} ({{ autuado.nome_fantasia }}){% endif %}")
    _labelled(doc, "{{ autuado.tipo }} — {{ autuado.documento_rotulo }}:", "{{ autuado.documento }}")
    _if(doc, "autuado.qualificacao", lambda d: _labelled(d, "Qualificação:", "{{ autuado.qualificacao }}"))
    _labelled(doc, "Endereço:", "{{ autuado.endereco }}")
    _if(doc, "autuado.registro", lambda d: _labelled(d, "Registro:", "{{ autuado.registro }}"))
    _if(doc, "autuado.porte", lambda d: _labelled(d, "Enquadramento:", "{{ autuado.porte }}"))
    _if(doc, "autuado.representado", lambda d: _labelled(d, "Responsável legal:", "{{ autuado.responsavel }}"))


def _infracoes(doc, var: str = "infracoes") -> None:  # type: ignore[no-untyped-def]
    _for(doc, f"i in {var}", lambda d: _p(d, "{{ i.citacao }} — {{ i.descricao }}{% if i.complemento %}; "
                                              "{{ i.complemento }}{% endif %}."))


def _penalidades(doc) -> None:  # type: ignore[no-untyped-def]
    def one(d: Doc) -> None:
        p = d.add_paragraph(style="Body Text")
        p.add_run("{{ pen.nome }}").bold = True
        p.add_run(" ({{ pen.citacao }}){% if pen.itens %}: {{ pen.itens | join('; ') }}{% endif %}"
                  "{% if pen.fiel_depositario %}. Fiel depositário: {{ pen.fiel_depositario }}{% endif %}"
                  "{% if pen.observacao %}. {{ pen.observacao }}{% endif %}.")
        _if(d, "pen.motivo_valor", lambda d2: _p(d2, "Circunstâncias consideradas e motivo do valor: "
                                                      "{{ pen.motivo_valor }}"))
        _if(d, "pen.motivo_nao_advertencia", lambda d2: _p(d2, "Por que não a advertência: "
                                                                "{{ pen.motivo_nao_advertencia }}"))
    _for(doc, "pen in penalidades", one)


def _valor_multa(doc, label: str = "Valor da multa: ") -> None:  # type: ignore[no-untyped-def]
    p = doc.add_paragraph(label, style="Body Text")
    p.add_run("{{ multa.unidades }}").bold = True
    p.add_run(", correspondente a ")
    p.add_run("{{ multa.reais }}").bold = True
    p.add_run(".")


def _memoria(doc, var: str = "multa.memoria", header: str = "Memória de cálculo") -> None:  # type: ignore[no-untyped-def]
    _loop_table(doc, [header, "Base legal", "Resultado"], f"s in {var}",
                ["{{ s.descricao }}", "{{ s.base_legal }}", "{{ s.resultado }}"])


def _prazos(doc, var: str = "prazos") -> None:  # type: ignore[no-untyped-def]
    def one(d: Doc) -> None:
        p = d.add_paragraph(style="Body Text")
        p.add_run("{{ d.descricao }}:").bold = True
        p.add_run(" {{ d.prazo }}{% if d.data %}, {{ d.rotulo_data }} {{ d.data }}{% endif %} ({{ d.base_legal }})."
                  "{% if d.dias_pulados %} {{ d.dias_pulados }}{% endif %}")
    _for(doc, f"d in {var}", one)


def _clausulas(doc) -> None:  # type: ignore[no-untyped-def]
    _for(doc, "c in clausulas", lambda d: _p(d, "{{ c.texto }} ({{ c.citacao }})", style="Quote"))


def _block(box, lines: list[str], first=None) -> None:  # type: ignore[no-untyped-def]
    """One signature block, as the HTML's ``assinatura`` macro: a line each, the first under the rule one signs on
    (a border, as the PDF draws it, not underscores that only the DOCX would print). A line ``{%p if … %}text`` is
    printed only when its condition holds; ``first``: a table cell's own first paragraph."""
    pending = [first] if first is not None else []

    def para(text: str):  # type: ignore[no-untyped-def]
        p = pending.pop() if pending else box.add_paragraph(style="Body Text")
        p.add_run(text)
        return p
    for i, line in enumerate(lines):
        cond, _, text = line.partition("%}") if line.startswith("{%p if") else ("", "", line)
        if cond:
            para(cond + "%}")
        p = para(text)
        if i == 0:
            p.paragraph_format.space_before = Pt(24)
            ppr = p._p.get_or_add_pPr()  # pBdr right after pStyle: the schema's order, which Word enforces
            ppr.insert(1, parse_xml(f'<w:pBdr {nsdecls("w")}><w:top w:val="single" w:sz="4" w:space="1" '
                                    'w:color="000000"/></w:pBdr>'))
        if cond:
            para("{%p endif %}")


def _signatures(doc, blocks: list[list[str]], witnesses: bool = True,  # type: ignore[no-untyped-def]
                place: bool = True, competence: bool = False) -> None:
    """As the HTML's ``assinaturas``: place and date (unless printed above), a signature column per block, then
    (``competence``) the act that gives the signer competence, then each witness's block (name, CPF,
    "Testemunha")."""
    if place:
        _p(doc, "{{ local_data_assinatura }}")
    table = doc.add_table(rows=1, cols=len(blocks))
    for cell, lines in zip(table.rows[0].cells, blocks, strict=True):
        cell.paragraphs[0].style = doc.styles["Body Text"]
        _block(cell, lines, first=cell.paragraphs[0])
    if competence:
        _if(doc, "signatario.linha", lambda d: _small(d, "{{ signatario.linha }}"))
    if witnesses:
        _for(doc, "t in testemunhas", lambda d: _block(d, WITNESS))


def _titled(doc, cond: str, title: str, body: Body, level: int = 1) -> None:  # type: ignore[no-untyped-def]
    """A section printed only when ``cond`` holds: its heading, then ``body``."""
    _if(doc, cond, lambda d: (_heading(d, title, level), body(d)))


def _observacoes(doc) -> None:  # type: ignore[no-untyped-def]
    _if(doc, "observacoes", lambda d: _text_section(d, "Observações", "{{ observacoes }}"))


def _closing(doc) -> None:  # type: ignore[no-untyped-def]
    """The law's clauses, then the observations: how each kind's HTML ends before its signatures."""
    _clausulas(doc)
    _observacoes(doc)


def _termo_ciencia(doc, measure: bool = True) -> None:  # type: ignore[no-untyped-def]
    """As ``ciencia_termo`` in ``_partes.html``: the termo's own certified refusal (a termo of a ``measure``), or what
    the auto drawn up with it records of the responsible person (absent; refused, as certified on the auto)."""
    own = "(medida and medida.certificacao)" if measure else "False"
    if measure:
        _if(doc, "autuado.nome and medida and medida.certificacao", lambda d: _small(
            d, "Certificação: {{ medida.certificacao }}"))
    _if(doc, f"autuado.nome and ausente and not {own}", lambda d: _small(
        d, "Responsável ausente na lavratura deste termo; a ciência lhe será dada na forma da lei, com a do auto de "
           "infração."))
    _if(doc, f"autuado.nome and recusa and not ausente and not {own}", lambda d: _small(
        d, "O responsável recusou-se a assinar {% if auto_ref and auto_ref.texto %}o {{ auto_ref.texto }}{% else %}o "
           "auto de infração{% endif %}, como nele certificado, e não assinou a ciência deste termo."))


def _termo_signatures(doc) -> None:  # type: ignore[no-untyped-def]
    """As ``ciencia_termo`` and ``assinatura_termo`` in ``_partes.html``: the responsible person's ciência of a termo
    drawn up with the auto, as the auto records it (absent: no signature line; refused: as certified on the auto)."""
    _termo_ciencia(doc)
    _signatures(doc, [[*SIGNATARIO, "Agente responsável"],
                      ["{%p if autuado.nome and not ausente %}{{ autuado.nome }}",
                       "{%p if autuado.nome and not ausente and autuado.representado and autuado.responsavel_nome %}"
                       "por {{ autuado.responsavel_nome }}",
                       "{%p if autuado.nome and not ausente %}Responsável — {% if recusa %}RECUSOU-SE A ASSINAR"
                       "{% else %}ciente{% endif %}"]],
                witnesses=False, competence=True)
    # the witness before whom the termo's own refusal was certified (Timóteo art. 21, § 1º)
    _if(doc, "medida and medida.certificacao", lambda d: _for(d, "t in testemunhas", lambda d2: _block(d2, WITNESS)))


def _if_named(lines: list[str]) -> list[str]:
    """The autuado's signature block, printed only when the autuado is named (as the HTML's termos)."""
    return ["{%p if autuado.nome %}" + line for line in lines]


WITNESS = ["{{ t.nome }}", "{%p if t.cpf %}CPF {{ t.cpf }}", "Testemunha"]
AGENTE = ["{{ agente.nome }}", "{{ agente.cargo }}",
          "Matrícula {{ agente.matricula }}{% if agente.crmv %} — {{ agente.crmv }}{% endif %}"]
#: who signs, as the register of authorities knows them (``signatario``), else the agent as the act names them — the
#: twin of ``agente_assina`` in ``_partes.html``; the competence line follows the signatures (:func:`_signatures`)
SIGNATARIO = [
    "{% if signatario.nome %}{{ signatario.nome }}{% else %}{{ agente.nome }}{% endif %}",
    "{% if signatario.nome %}{{ signatario.cargo }}{% else %}{{ agente.cargo }}{% endif %}",
    "{% if signatario.nome %}{% if signatario.matricula %}Matrícula {{ signatario.matricula }}{% if signatario.crmv %}"
    " — {{ signatario.crmv }}{% endif %}{% else %}{{ signatario.crmv }}{% endif %}{% else %}Matrícula "
    "{{ agente.matricula }}{% if agente.crmv %} — {{ agente.crmv }}{% endif %}{% endif %}",
    "{%p if signatario.nome and signatario.orgao %}{{ signatario.orgao }}",
]


# --- the kinds -------------------------------------------------------------------------------------


def _local_data_hora(doc: Doc) -> None:
    _labelled(doc, "Local:", "{{ lavratura.local }}")
    _labelled(doc, "Data:", "{{ lavratura.data }} ({{ lavratura.data_extenso }})")
    _if(doc, "lavratura.hora", lambda d: _labelled(d, "Hora:", "{{ lavratura.hora }}"))


def auto_de_infracao() -> Doc:
    doc = _base(fundamento="Lavrado com fundamento na {{ documento.fundamento }}.")
    _p(doc, "{{ abertura }}, o agente autuante abaixo identificado lavrou o presente {{ documento.titulo }} contra:")
    _heading(doc, "1. Autuado")
    _identificacao(doc)
    _heading(doc, "2. Local, data e hora da lavratura")
    _local_data_hora(doc)
    _labelled(doc, "Data da infração:", "{{ data_infracao }}")
    _text_section(doc, "3. Descrição do fato infracional", "{{ fatos }}")
    _if(doc, "notificacao_citada", lambda d: _p(d, "{{ notificacao_citada }}"))
    _heading(doc, "4. Dispositivo legal ou regulamentar infringido")
    _infracoes(doc)

    _titled(doc, "circunstancias", "Circunstâncias consideradas", lambda d: _for(
        d, "c in circunstancias", lambda d2: _p(d2, "{{ c.tipo }}: {{ c.descricao }} ({{ c.citacao }}).")), level=2)
    _heading(doc, "5. Penalidades e medidas aplicadas")
    _penalidades(doc)

    def fine(d: Doc) -> None:
        _valor_multa(d)
        _memoria(d)
    _if(doc, "multa", fine)

    def costs(d: Doc) -> None:  # Cuiabá art. 38: the costs, owed on top of the penalties, with their own total
        _p(d, "{{ despesas.nome }}, devidas sem prejuízo das penalidades ({{ despesas.citacao }})", bold=True)

        def value(d2: Doc) -> None:
            p = _p(d2, "Total das despesas: ")
            p.add_run("{{ despesas.valor.unidades }}").bold = True
            p.add_run(", correspondente a ")
            p.add_run("{{ despesas.valor.reais }}").bold = True
            p.add_run(".")
            _memoria(d2, "despesas.valor.memoria", "Memória de cálculo das despesas")
        _if(d, "despesas.valor", value)
    _if(doc, "despesas", costs)
    _heading(doc, "6. Prazos")
    _prazos(doc)
    _if(doc, "notificacao", lambda d: _labelled(d, "Ciência:", "{{ notificacao.forma }}{% if notificacao.data %}, "
                                                "efetivada em {{ notificacao.data }}{% endif %}."))
    _clausulas(doc)

    _observacoes(doc)
    _small(doc, "{{ assinatura_autuado }}")
    _if(doc, "documento.nulidade", lambda d: _small(d, "Este auto não contém emendas, rasuras ou omissões "
                                                    "({{ documento.nulidade }})."))
    # an autuado absent at the lavratura has no signature line (Timóteo art. 20, § 3º: no contradiction)
    _signatures(doc, [[*SIGNATARIO, "Agente autuante"],
                      ["{%p if not ausente %}{{ autuado.nome }}",
                       "{%p if autuado.representado and not ausente %}por {{ autuado.responsavel_nome }}",
                       "{%p if not ausente %}Autuado{% if recusa %} — RECUSOU-SE A ASSINAR{% endif %}"]],
                competence=True)
    return doc


def edital_notificacao() -> Doc:
    """Only the published data: the context of this kind has nothing else (autos.documents.edital.edital_sections)."""
    doc = _base(fundamento=None)
    p = _p(doc, "O MUNICÍPIO DE {{ lei.municipio | upper }}, pela autoridade abaixo identificada, com fundamento "
               "na {{ documento.base_legal }}, {{ edital.hipotese }}, ")
    p.add_run("NOTIFICA").bold = True
    p.add_run(", pelo presente edital, a pessoa abaixo indicada da lavratura do auto de infração e dos prazos que "
              "dela decorrem.")
    _pairs_table(doc, [
        ("Notificado", "{{ edital.notificado.nome }}"),
        ("{{ edital.notificado.documento_rotulo }}", "{{ edital.notificado.documento }}"),
        ("Auto de infração", "nº {{ auto_ref.numero }}, lavrado em {{ auto_ref.data }}"),
        ("Dispositivo infringido", "{% for i in edital.infracoes %}{{ i.citacao }} — {{ i.descricao }}"
                                   "{% if i.complemento %}; {{ i.complemento }}{% endif %}. {% endfor %}"),
        ("Valor da multa", "{% if edital.multa %}{{ edital.multa.unidades }}, correspondente a "
                           "{{ edital.multa.reais }}{% else %}sem multa{% endif %}"),
    ])

    def attempts(d: Doc) -> None:  # the failed forms and the search that make the domicile unknown
        _heading(d, "Tentativas de notificação anteriores ao edital")
        _for(d, "t in edital.tentativas", lambda e: _p(e, "{{ t }}"))
    _if(doc, "edital.tentativas", attempts)
    _heading(doc, "Publicação e data da notificação")
    _for(doc, "pub in edital.publicacoes", lambda d: _labelled(d, "Publicado em:", "{{ pub.veiculo }}, em "
                                                                 "{{ pub.data }}."))
    _p(doc, "{{ edital.efeito }}")

    def known(d: Doc) -> None:
        p = _p(d, "Data em que a notificação se considera feita: ")
        p.add_run("{{ edital.data_notificacao }}").bold = True
        p.add_run(".")
    _if(doc, "edital.data_notificacao", known)
    _if(doc, "edital.data_notificacao and edital.prorrogacao", lambda d: _small(d, "{{ edital.prorrogacao }}"))
    _if(doc, "not edital.data_notificacao", lambda d: _p(d, "A data em que a notificação se considera feita, "
                                                           "contada da última publicação, é atestada na certidão "
                                                           "de publicação deste edital."))
    _heading(doc, "Prazos")
    _prazos(doc)
    _clausulas(doc)
    _p(doc, "A íntegra do auto de infração está à disposição do notificado na repartição responsável "
            "({{ cabecalho.orgao }}).")
    _if(doc, "edital.mascara", lambda d: _small(d, "{{ edital.mascara }}"))
    _signatures(doc, [[*SIGNATARIO, "Autoridade que expede o edital"]], witnesses=False, competence=True)
    return doc


def notificacao_preliminar() -> Doc:
    doc = _base()
    p = _p(doc, "{{ abertura }}, o agente fiscal abaixo identificado, no exercício do poder de polícia do Município, "
               "constatou a irregularidade descrita nesta notificação e ")
    p.add_run("NOTIFICA").bold = True
    p.add_run(" a pessoa abaixo identificada a regularizá-la no prazo da lei:")
    _heading(doc, "1. Notificado")
    _identificacao(doc)
    _heading(doc, "2. Local, data e hora da constatação")
    _local_data_hora(doc)
    _text_section(doc, "3. Irregularidade constatada", "{{ fatos }}")
    _heading(doc, "4. Providência exigida e prazo para cumpri-la")
    p = _p(doc, "Fica o notificado obrigado a ")
    p.add_run("{{ exigencia.descricao }}").bold = True
    p.add_run(".")
    _prazos(doc, "exigencia.prazos")
    _if(doc, "notificacao", lambda d: _labelled(d, "Ciência:", "{{ notificacao.forma }}{% if notificacao.data %}, em "
                                                "{{ notificacao.data }}{% endif %}."))
    _if(doc, "not notificacao", lambda d: _p(d, "O prazo conta-se da data em que esta notificação for recebida, "
                                                "lançada no recibo abaixo."))
    _heading(doc, "5. Consequência do não atendimento")
    _p(doc, "Não atendida esta notificação no prazo, o notificado será autuado, com aplicação da penalidade "
            "prevista em:")
    _infracoes(doc)
    _for(doc, "pen in penalidades", lambda d: _labelled(d, "Penalidade:", "{{ pen.nome }} ({{ pen.citacao }})."))
    _for(doc, "r in exigencia.repeticao", lambda d: _p(d, "{{ r }}"))

    def fine(d: Doc) -> None:
        _valor_multa(d, "Multa cominada, calculada com os valores em vigor na data desta notificação: ")
        _memoria(d)
    _if(doc, "multa", fine)
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Agente fiscal"],
                      ["{{ autuado.nome }}", "Notificado — recebi a 1ª via em {{ notificacao.data if notificacao and "
                       "notificacao.data else '____/____/______' }}"]], competence=True)
    return doc


def notificacao_ar() -> Doc:
    doc = _base(fundamento=None)
    _p(doc, "{{ local_data_assinatura }}", right=True)
    _if(doc, "destinatario.linha", lambda d: _p(d, "{{ destinatario.linha }}", style="Body Text"))
    _p(doc, "{{ autuado.nome }}{% if autuado.nome_fantasia %} ({{ autuado.nome_fantasia }}){% endif %}", bold=True)
    _if(doc, "autuado.representado", lambda d: _p(d, "A/C {{ autuado.responsavel_nome }}"))
    _p(doc, "{{ autuado.documento_rotulo }} {{ autuado.documento }}")
    _p(doc, "{{ autuado.endereco }}")
    _p(doc, "Assunto: notificação da lavratura do {{ auto_ref.texto }}.", bold=True)
    _if(doc, "destinatario.vocativo", lambda d: _p(d, "{{ destinatario.vocativo }}"))
    p = _p(doc, "O Município de {{ lei.municipio }}, pela presente carta, registrada com aviso de recebimento (AR), e "
                "com fundamento na {{ documento.base_legal }}, ")
    p.add_run("NOTIFICA {{ destinatario.tratamento }}").bold = True
    p.add_run(" da lavratura do {{ auto_ref.texto }}, cuja cópia segue anexa, pelos fatos e com as penalidades abaixo "
              "resumidos.{% if carta.anexos_frase %} {{ carta.anexos_frase }}{% endif %}")
    _pairs_table(doc, [
        ("Data da infração", "{{ data_infracao }}"),
        ("Fato", "{{ fatos }}"),
        ("Dispositivo infringido", "{% for i in infracoes %}{{ i.citacao }} — {{ i.descricao }}{% if i.complemento %}; "
                                   "{{ i.complemento }}{% endif %}. {% endfor %}"),
        ("Penalidades", "{% for pen in penalidades %}{{ pen.nome }} ({{ pen.citacao }}){% if pen.itens %}: "
                        "{{ pen.itens | join('; ') }}{% endif %}. {% endfor %}"),
        ("Valor da multa", "{% if multa %}{{ multa.unidades }}, correspondente a {{ multa.reais }}{% else %}sem multa"
                           "{% endif %}"),
    ])
    _heading(doc, "Data da notificação e prazos")
    _p(doc, "{{ carta.efeito }}")

    def known(d: Doc) -> None:
        p = _p(d, "Aviso de recebimento assinado em {{ carta.recebimento }}{% if carta.juntada %} e juntado aos autos "
                  "em {{ carta.juntada }}{% endif %}: notificação considerada feita em ")
        p.add_run("{{ carta.data_notificacao }}").bold = True
        p.add_run(".")
    _if(doc, "carta.data_notificacao", known)
    _if(doc, "not carta.data_notificacao", lambda d: _p(d, "Cada prazo abaixo corre da data em que a notificação se "
                                                           "considerar feita, na forma acima."))
    _prazos(doc)
    _clausulas(doc)
    _p(doc, "Atenciosamente,")
    _signatures(doc, [[*SIGNATARIO, "Responsável pela notificação"]], witnesses=False, place=False,  # dated above
                competence=True)
    _small(doc, "{{ carta.anexo_linha }}{% if carta.postagem %} Carta postada em {{ carta.postagem }}."
                "{% endif %}{% if documento.processo %} Processo {{ documento.processo }}.{% endif %}")
    return doc


def termo_apreensao() -> Doc:
    doc = _base()
    _p(doc, "{{ abertura }}, o agente abaixo identificado, com fundamento na {{ documento.base_legal }}, lavrou o "
            "presente {{ documento.titulo }}{% if auto_ref.texto %}, relativo ao {{ auto_ref.texto }}{% endif %}, nos "
            "termos seguintes.")
    _heading(doc, "Proprietário ou responsável")
    _if(doc, "autuado.nome", _identificacao)
    _if(doc, "not autuado.nome", lambda d: _p(d, "Não identificado no ato da apreensão."))

    def animals(d: Doc) -> None:
        _heading(d, "Apreensão")
        _labelled(d, "Data:", "{{ apreensao.data }}")
        _labelled(d, "Hora:", "{{ apreensao.hora }}")
        _labelled(d, "Local:", "{{ apreensao.local }}")
        _heading(d, "Animais apreendidos", level=2)
        _loop_table(d, ["Espécie", "Porte", "Quantidade"], "a in animais",
                    ["{{ a.especie }}", "{{ a.porte }}{% if a.porte_citacao %} ({{ a.porte_citacao }}){% endif %}",
                     "{{ a.quantidade }}"])
        _labelled(d, "Descrição:", "{{ apreensao.descricao }}")
    _if(doc, "apreensao", animals)

    def goods(d: Doc) -> None:
        _heading(d, "Bens apreendidos — {{ b.medida | upper }} ({{ b.citacao }})")
        _loop_table(d, ["Descrição", "Quantidade", "Lote / identificação"], "i in b.itens",
                    ["{{ i.descricao }}", "{{ i.quantidade }}", "{{ i.lote }}"])
        _if(d, "b.local_deposito", lambda d2: _labelled(d2, "Local de depósito:", "{{ b.local_deposito }}"))
        _if(d, "b.depositario", lambda d2: _labelled(
            d2, "Fiel depositário:", "{{ b.depositario.nome }}, CPF {{ b.depositario.cpf }}"
            "{% if b.depositario.qualificacao %}, {{ b.depositario.qualificacao }}{% endif %}"
            "{% if b.depositario.endereco %}, {{ b.depositario.endereco }}{% endif %}"))
    _for(doc, "b in bens", goods)
    _text_section(doc, "Motivo da apreensão", "{{ fatos }}")
    _infracoes(doc)
    _heading(doc, "Penalidades e medidas")
    _for(doc, "pen in penalidades", lambda d: _labelled(d, "{{ pen.nome }}", "({{ pen.citacao }})."))
    _if(doc, "multa", lambda d: _p(d, "Valor da multa: {{ multa.unidades }}, correspondente a {{ multa.reais }}"
                                      "{% if auto_ref.texto %} ({{ auto_ref.texto }}){% endif %}."))

    def rescue(d: Doc) -> None:
        _heading(d, "Recolhimento e prazo para resgate")
        _labelled(d, "Recolhido em:", "{{ apreensao.recolhimento }}{% if apreensao.local_recolhimento %}, ao "
                  "{{ apreensao.local_recolhimento }}{% endif %}.")
        _prazos(d, "prazos_documento")
    _if(doc, "apreensao", rescue)

    def costs(d: Doc) -> None:
        _heading(d, "Despesas para o resgate, por dia de guarda")
        _loop_table(d, ["Retirada no", "Diárias devidas", "Total em unidades fiscais", "Total em reais"],
                    "c in custas.dias", ["{{ c.dia }}", "{{ c.diarias }}", "{{ c.unidades }}", "{{ c.reais }}"])
        _memoria(d, "custas.memoria", "Memória de cálculo (retirada no último dia)")
    _if(doc, "custas", costs)

    _titled(doc, "prazos", "Prazos", _prazos)
    _closing(doc)
    _termo_ciencia(doc, measure=False)
    _signatures(doc, [[*SIGNATARIO, "Agente responsável pela apreensão"],
                      ["{%p if autuado.nome and not ausente %}{{ autuado.nome }}",
                       "{%p if autuado.nome and not ausente %}Proprietário ou responsável{% if recusa %} — RECUSOU-SE A "
                       "ASSINAR{% endif %}"]], witnesses=False, competence=True)
    _for(doc, "b in bens", lambda d: _if(d, "b.depositario", lambda d2: _block(
        d2, ["{{ b.depositario.nome }}", "Fiel depositário — aceito o encargo"])))
    _for(doc, "t in testemunhas", lambda d: _block(d, WITNESS))
    return doc


def demonstrativo_debito() -> Doc:
    doc = _base()
    _p(doc, "Demonstrativo do débito decorrente do {{ auto_ref.texto }}, calculado em {{ debito.data_calculo }}"
            "{% if multa %} com o valor da unidade fiscal em vigor na data da infração ({{ multa.data_referencia }})"
            "{% endif %}.")
    _numbering(doc)
    _numbered(doc, "Devedor")
    _identificacao(doc)
    _numbered(doc, "Infração")
    _labelled(doc, "Data da infração:", "{{ data_infracao }}")
    _infracoes(doc)

    def fine(d: Doc) -> None:
        def parts(d2: Doc) -> None:
            _numbered(d2, "Composição do débito")
            _loop_table(d2, ["Parcela", "Base legal", "Unidades fiscais", "Reais"], "i in multa.itens",
                        ["{{ i.descricao }}", "{{ i.base_legal }}", "{{ i.unidades }}", "{{ i.reais }}"])
        _if(d, "multa.itens | length > 1", parts)
        _numbered(d, "Memória de cálculo")
        _memoria(d)
        _numbered(d, "{% if debito.devido and debito.devido.antes %}Débito do auto, antes da decisão{% else %}"
                     "Total do débito{% endif %}")
        p = _p(d, "Total em unidades fiscais: ")
        p.add_run("{{ multa.unidades }}").bold = True
        p = _p(d, "Total em reais: ")
        p.add_run("{{ multa.reais }}").bold = True
        _labelled(d, "Valor da unidade fiscal:", "{{ multa.valor_unidade }} — {{ multa.fonte_unidade }}")
        _if(d, "debito.pago", lambda d2: (_labelled(d2, "(–) Despesas já pagas ({{ debito.pago.texto }}):", "{{ debito.pago.valor }}"),
                                           _labelled(d2, "Saldo do débito do auto:", "{{ debito.pago.saldo }}")))
        _for(d, "a in multa.avisos", lambda d2: _small(d2, "Atenção: {{ a }}"))
    _if(doc, "multa", fine)
    _if(doc, "not multa and minuta", lambda d: _p(d, "[VALOR NÃO CALCULADO]"))

    def decided(d: Doc) -> None:
        _numbered(d, "Decisão")
        _p(d, "{{ debito.decisao.texto }}")
        p = _p(d, "Valor devido após a decisão: ")
        p.add_run("{{ debito.decisao.valor }}").bold = True
    _if(doc, "debito.decisao", decided)

    def due(d: Doc) -> None:
        _numbered(d, "Total devido")
        p = _p(d, "Total devido: ")
        p.add_run("{{ debito.devido.valor }}").bold = True
        _labelled(d, "Vencimento:", "{{ debito.devido.vencimento }}")
        _labelled(d, "Meio de pagamento:", "{% if pix is defined and pix and pix.payload %}PIX, pelo código abaixo"
                                           "{% else %}{{ debito.devido.meio_sem_pix }}{% endif %}")
    _if(doc, "debito.devido", due)

    def pix(d: Doc) -> None:
        _numbered(d, "Pagamento por PIX")

        def code(d2: Doc) -> None:
            _qr_picture(d2, "pix", 32)
            _labelled(d2, "Valor:", "{{ pix.valor }}")
            _labelled(d2, "Recebedor:", "{{ pix.nome }} — {{ pix.cidade }}")
            _labelled(d2, "Chave PIX ({{ pix.tipo_chave }}):", "{{ pix.chave }}")
            _labelled(d2, "Identificador (processo):", "{{ pix.txid }}")
            _p(d2, "PIX copia e cola:", bold=True)
            _p(d2, "{{ pix.payload }}", style="Body Text 2")
        _if(d, "pix.payload", code)
        _if(d, "not pix.payload", lambda d2: _p(d2, "{{ pix.aviso }}"))
    _if(doc, "pix is defined and pix", pix)

    def deadlines(d: Doc) -> None:
        _numbered(d, "Notificação e prazos")
        _if(d, "notificacao", lambda d2: _labelled(d2, "Notificação do auto:", "{{ notificacao.forma }}"
                                                   "{% if notificacao.data %}, efetivada em {{ notificacao.data }}"
                                                   "{% endif %}."))
        _prazos(d)
    _if(doc, "prazos or notificacao", deadlines)
    _closing(doc)
    _signatures(doc, [[*AGENTE, "Responsável pelo cálculo"]], witnesses=False)
    return doc


def decisao() -> Doc:
    """Relatório, razões (each argument and its answer) and dispositivo, what lies against the decision, who decides
    and on what competence (Lei federal nº 9.784/1999, art. 50, by analogy)."""
    doc = _base()

    def body(d: Doc) -> None:
        _p(d, "Decisão de {{ decisao.instancia }}{% if decisao.numero %} nº {{ decisao.numero }}{% endif %}, "
              "proferida em {{ decisao.data }}{% if documento.processo %}, no Processo Administrativo nº "
              "{{ documento.processo }}{% endif %}, referente ao {{ auto_ref.texto }}.")
        _numbering(d)
        _numbered(d, "Autuado")
        _labelled(d, "Nome / razão social:", "{{ autuado.nome }}")
        _labelled(d, "{{ autuado.documento_rotulo }}:", "{{ autuado.documento }}")
        _numbered(d, "Infração")
        _infracoes(d)
        _numbered(d, "Relatório")
        _for(d, "r in decisao.relatorio", lambda d2: _p(d2, "{{ r }}"))
        _numbered(d, "Razões")

        def answer(d2: Doc) -> None:
            p = _p(d2, "Argumento {{ r.argumento }}{% if r.alegacao %} — {{ r.alegacao }}{% endif %}: ")
            p.runs[0].bold = True
            p.add_run("{{ r.conclusao }}").bold = True
            p.add_run(".")
            _p(d2, "Fatos: {{ r.fatos }}")
            _p(d2, "Fundamentos: {{ r.fundamentos }}")
        _for(d, "r in decisao.razoes", answer)
        _if(d, "decisao.fundamentacao", lambda d2: _p(d2, "{{ decisao.fundamentacao }}"))
        _numbered(d, "Dispositivo")
        _p(d, "{{ decisao.dispositivo }}", bold=True)
        _p(d, "{{ decisao.recurso }}")

        def deadlines(d2: Doc) -> None:
            _numbered(d2, "Prazos")
            _prazos(d2, "prazos_documento")
        _if(d, "prazos_documento", deadlines)
    _if(doc, "decisao", body)
    _closing(doc)
    _signatures(doc, [["{% if signatario.nome %}{{ signatario.nome }}{% elif decisao %}{{ decisao.autoridade }}"
                       "{% endif %}",
                       "{%p if signatario.nome and signatario.cargo %}{{ signatario.cargo }}",
                       "{%p if signatario.nome and signatario.orgao %}{{ signatario.orgao }}",
                       "{%p if signatario.matricula %}Matrícula {{ signatario.matricula }}",
                       "Autoridade julgadora"]], witnesses=False, competence=True)
    return doc


def certidao_juntada_ar() -> Doc:
    doc = _base()
    p = _p(doc, "")
    p.add_run("CERTIFICO").bold = True
    p.add_run(", para os devidos fins, que em {{ certidao.juntada }} foi juntado aos autos do Processo "
              "Administrativo nº {{ documento.processo }} o aviso de recebimento (AR) da carta registrada postada em "
              "{{ certidao.postagem }}{% if auto_ref.texto %}, com a notificação do {{ auto_ref.texto }}{% endif %}, "
              "destinada a {{ autuado.nome }}{% if not autuado.nome.endswith('.') %}.{% endif %}")
    _if(doc, "certidao.devolvido", lambda d: _p(d, "O aviso de recebimento voltou SEM ENTREGA, com o motivo lançado "
                                                   "pelos Correios: {{ certidao.motivo }}. A notificação por via "
                                                   "postal não se efetivou."))

    def received(d: Doc) -> None:
        _p(d, "O aviso de recebimento foi datado e assinado pelo destinatário em {{ certidao.recebimento }}.")
        p2 = _p(d, "{{ certidao.efeito }}{% if certidao.data_notificacao %} Notificação considerada feita em "
                   "{% endif %}")
        p2.add_run("{% if certidao.data_notificacao %}{{ certidao.data_notificacao }}.{% endif %}").bold = True
    _if(doc, "not certidao.devolvido", received)
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Responsável pela juntada"]], witnesses=False, competence=True)
    return doc


def certidao_publicacao_edital() -> Doc:
    doc = _base()
    p = _p(doc, "")
    p.add_run("CERTIFICO").bold = True
    p.add_run(", para os devidos fins, que o edital de notificação {{ certidao_edital.objeto }}, expedido no Processo "
              "Administrativo nº {{ documento.processo }} e destinado a {{ autuado.nome }}, foi publicado:")
    _for(doc, "x in certidao_edital.publicacoes",
         lambda d: _p(d, "— em {{ x.data }}, {{ x.meio }}{% if x.veiculo %} ({{ x.veiculo }}){% endif %}"
                         "{{ '.' if loop.last else ';' }}"))
    _if(doc, "minuta and not certidao_edital.publicacoes", lambda d: _p(d, "[PUBLICAÇÃO NÃO INFORMADA]"))
    p2 = _p(doc, "{{ certidao_edital.efeito }}{% if certidao_edital.data_notificacao %} {{ certidao_edital.feita_em }} "
                 "{% endif %}")
    p2.add_run("{% if certidao_edital.data_notificacao %}{{ certidao_edital.data_notificacao }}."
               "{% endif %}").bold = True
    _if(doc, "certidao_edital.prorrogacao", lambda d: _small(d, "{{ certidao_edital.prorrogacao }}"))

    _titled(doc, "prazos_documento", "Prazos que correm da notificação", lambda x: _prazos(x, "prazos_documento"))
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Responsável pela certidão"]], witnesses=False, competence=True)
    return doc


def notificacao_decisao() -> Doc:
    """The notification of a decision with the elements of Lei federal nº 9.784/1999, art. 26, § 1º (by analogy)."""
    doc = _base()
    _p(doc, "Fica {{ autuado.nome }}{% if autuado.documento %} ({{ autuado.documento_rotulo }} "
            "{{ autuado.documento }}){% endif %} NOTIFICAD{{ 'A' if autuado.feminino else 'O' }} "
            "{{ notif_decisao.objeto }}, no Processo Administrativo nº {{ documento.processo }}, referente ao {{ auto_ref.texto }}.")
    _labelled(doc, "Órgão:", "{{ notif_decisao.orgao }}.")
    _if(doc, "notif_decisao.finalidade", lambda d: _labelled(d, "Finalidade:", "{{ notif_decisao.finalidade }}"))
    _heading(doc, "1. Decisão")
    _p(doc, "{{ notif_decisao.resultado }}", bold=True)
    _if(doc, "notif_decisao.dispositivo", lambda d: _p(d, "{{ notif_decisao.dispositivo }}"))
    _for(doc, "r in notif_decisao.razoes", lambda d: _p(d, "Argumento {{ r.argumento }}{% if r.alegacao %} "
                                                          "({{ r.alegacao }}){% endif %}: {{ r.conclusao }} — "
                                                          "{{ r.fundamentos }}"))
    _if(doc, "notif_decisao.teor", lambda d: _p(d, "{{ notif_decisao.teor }}"))
    _if(doc, "notif_decisao.recurso", lambda d: _p(d, "{{ notif_decisao.recurso }}", bold=True))
    _if(doc, "notif_decisao.comparecimento",
        lambda d: _p(d, "{{ notif_decisao.comparecimento }} {{ notif_decisao.continuidade }}"))
    _heading(doc, "2. Notificação")
    _labelled(doc, "Forma:", "{{ notif_decisao.forma }}.")
    _if(doc, "notif_decisao.postagem", lambda d: _labelled(d, "Carta postada em:", "{{ notif_decisao.postagem }}."))
    p2 = _p(doc, "{{ notif_decisao.efeito }}{% if notif_decisao.data_notificacao %} {{ notif_decisao.feita_em }} "
                 "{% endif %}")
    p2.add_run("{% if notif_decisao.data_notificacao %}{{ notif_decisao.data_notificacao }}.{% endif %}").bold = True

    _titled(doc, "prazos_documento", "3. Prazos", lambda x: _prazos(x, "prazos_documento"))
    _if(doc, "not prazos_documento and not notif_decisao.devida", lambda d: _p(d, "Não há multa a recolher."))
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Responsável pela notificação"]], witnesses=False, competence=True)
    receiver = ["{{ autuado.nome }}", "{%p if autuado.representado and autuado.responsavel %}por {{ autuado.responsavel }}",
                "Notificado"]
    _if(doc, "notif_decisao.recibo", lambda d: (_p(d, "{{ notif_decisao.recibo }}"), _block(d, receiver)))
    return doc


def protocolo() -> Doc:
    doc = _base()

    def body(d: Doc) -> None:
        p = _p(d, "Recebid{{ protocolo.artigo }} em ")
        p.add_run("{{ protocolo.data }}").bold = True
        p.add_run("{% if protocolo.numero %}, sob o nº {{ protocolo.numero }}{% endif %}, {{ protocolo.artigo }} "
                  "{{ protocolo.nome | lower }} de {{ autuado.nome }}{% if autuado.documento %} "
                  "({{ autuado.documento_rotulo }} {{ autuado.documento }}){% endif %} contra {{ protocolo.contra }}, "
                  "no Processo Administrativo nº {{ documento.processo }}.")
        _if(d, "protocolo.situacao", lambda d2: _p(d2, "{{ protocolo.situacao }}"))

        _titled(d, "prazos_documento", "Prazo da decisão", lambda x: _prazos(x, "prazos_documento"))
    _if(doc, "protocolo", body)
    _closing(doc)
    _signatures(doc, [["{% if signatario.nome %}{{ signatario.nome }}{% else %}{{ agente.nome }}{% endif %}",
                       "{%p if signatario.nome and signatario.cargo %}{{ signatario.cargo }}",
                       "{%p if signatario.matricula %}Matrícula {{ signatario.matricula }}",
                       "Responsável pelo protocolo"]], witnesses=False, competence=True)
    return doc


def despacho_encaminhamento() -> Doc:
    """Despacho de não reconsideração e encaminhamento do recurso (Lei 9.784/1999, art. 56, § 1º, by analogy), as
    ``despacho_encaminhamento.html``."""
    doc = _base()

    def body(d: Doc) -> None:
        p = _p(d, "Recebido {{ despacho.recurso }}, de {{ autuado.nome }}{% if autuado.documento %} "
                  "({{ autuado.documento_rotulo }} {{ autuado.documento }}){% endif %}, contra {{ despacho.decisao }}, "
                  "no Processo Administrativo nº {{ documento.processo }}, a autoridade abaixo identificada, que "
                  "proferiu a decisão recorrida, ")
        p.add_run("NÃO A RECONSIDERA").bold = True
        p.add_run(" e ")
        p.add_run("ENCAMINHA o recurso").bold = True
        p.add_run(" ao {{ despacho.destino }}, autoridade competente para decidi-lo ({{ despacho.base }}).")
        _text_section(d, "Razões da não reconsideração", "{{ despacho.razoes }}")
        _titled(d, "prazos_documento", "Prazo", lambda x: _prazos(x, "prazos_documento"))
    _if(doc, "despacho", body)
    _closing(doc)
    _signatures(doc, [["{%p if signatario.nome %}{{ signatario.nome }}",
                       "{%p if signatario.nome and signatario.cargo %}{{ signatario.cargo }}",
                       "{%p if signatario.nome and signatario.orgao %}{{ signatario.orgao }}",
                       "{%p if signatario.matricula %}Matrícula {{ signatario.matricula }}",
                       "Autoridade que proferiu a decisão recorrida"]], witnesses=False, competence=True)
    return doc


def _prazos_section(doc: Doc, title: str) -> None:
    _heading(doc, title)
    _prazos(doc, "prazos_documento")


def _text_section(doc: Doc, title: str, text: str) -> None:
    _heading(doc, title)
    _p(doc, text)


def _medida(d: Doc) -> None:
    """The measure a termo imposes: what it imposes, the termo's number, the description."""
    _heading(d, "Medida")
    _p(d, "{{ medida.impoe }}", bold=True)
    _if(d, "medida.numero", lambda d2: _labelled(d2, "Termo nº:", "{{ medida.numero }}"))
    _if(d, "medida.descricao", lambda d2: _labelled(d2, "Descrição:", "{{ medida.descricao }}"))


def _termo_opening(doc: Doc) -> None:
    _p(doc, "{{ abertura }}, o agente abaixo identificado, com fundamento na {{ documento.base_legal }}, lavrou o "
            "presente {{ documento.titulo }}{% if auto_ref.texto %}, relativo ao {{ auto_ref.texto }}{% endif %}, "
            "nos termos seguintes.")
    _heading(doc, "Responsável")
    _identificacao(doc)


def termo_medida() -> Doc:
    """Termo de embargo or de interdição: the measure, its reason, its term (with the date it ends), the clauses."""
    doc = _base()
    _termo_opening(doc)

    def measure(d: Doc) -> None:  # the measure, and the conditions for lifting an interdiction (Timóteo art. 5º, IV)
        _medida(d)
        _if(d, "condicoes_levantamento", lambda d2: _labelled(d2, "Condições para o levantamento:",
                                                             "{{ condicoes_levantamento }}"))
    _if(doc, "medida", measure)
    _text_section(doc, "Motivo", "{{ fatos }}")
    _infracoes(doc)
    _if(doc, "prazos_documento", lambda d: _prazos_section(d, "Prazo"))
    _closing(doc)
    _termo_signatures(doc)
    return doc


def termo_levantamento() -> Doc:
    """Termo de levantamento (embargo, interdição) or de restituição: the measure ended, the decision it depends
    on, the date it ends, the term the measure had."""
    doc = _base()
    _termo_opening(doc)

    def measure(d: Doc) -> None:
        _heading(d, "Medida encerrada")
        _if(d, "medida.descricao", lambda d2: _labelled(d2, "Descrição:", "{{ medida.descricao }}"))
        _if(d, "medida.itens", lambda d2: _loop_table(d2, ["Descrição", "Quantidade", "Lote / identificação"],
                                                      "i in medida.itens",
                                                      ["{{ i.descricao }}", "{{ i.quantidade }}", "{{ i.lote }}"]))
        _if(d, "medida.local_deposito", lambda d2: _labelled(d2, "Local de depósito:", "{{ medida.local_deposito }}"))
        _if(d, "pagamento_registrado", lambda d2: _labelled(d2, "Pagamento:", "{{ pagamento_registrado }}"))
        _if(d, "medida.constatacao", lambda d2: _labelled(d2, "Constatação:", "{{ medida.constatacao }}"))
        _if(d, "decisao_base", lambda d2: _text_section(d2, "Decisão", "{{ decisao_base }}"))
        _p(d, "{{ medida.encerra }}", bold=True)
        _if(d, "medida.no_prazo", lambda d2: _p(d2, "{{ medida.no_prazo }}"))
    _if(doc, "medida", measure)
    _if(doc, "prazos_documento", lambda d: _prazos_section(d, "Prazo da medida"))
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Agente responsável"],
                      _if_named(["{{ autuado.nome }}", "Responsável — {% if medida and medida.tipo == 'apreensao' %}"
                                 "recebi{% else %}ciente{% endif %}"])], witnesses=False, competence=True)
    return doc


def termo_condenacao() -> Doc:
    """Termo de condenação e inutilização (Timóteo art. 16, IV): termo_medida with the items condemned and the
    inutilização or final destination given to them."""
    doc = _base()
    _termo_opening(doc)

    def measure(d: Doc) -> None:
        _medida(d)
        _loop_table(d, ["Descrição", "Quantidade", "Lote / identificação"], "i in medida.itens",
                    ["{{ i.descricao }}", "{{ i.quantidade }}", "{{ i.lote }}"])
        _labelled(d, "Inutilização ou destinação final:", "{{ medida.destino }}")
    _if(doc, "medida", measure)
    _text_section(doc, "Motivo", "{{ fatos }}")
    _infracoes(doc)
    _closing(doc)
    _termo_signatures(doc)
    return doc


def advertencia_escrita() -> Doc:
    """Advertência escrita (Ferraz art. 3º, § 1º, I): the person warned, where and when the burning was found, the
    fact, the warning, the clauses (§ 1º, II: the fine if the conduct persists) and who received it."""
    doc = _base()
    _p(doc, "{{ abertura }}, o agente fiscal abaixo identificado, tendo constatado a queima de resíduos descrita nesta "
            "advertência, com fundamento na {{ documento.base_legal }}, ADVERTE por escrito a pessoa abaixo "
            "identificada.")
    _heading(doc, "Advertido")
    _identificacao(doc)
    _heading(doc, "Local e data da constatação")
    _labelled(doc, "Local:", "{{ lavratura.local }}")
    _labelled(doc, "Data:", "{{ lavratura.data }}")
    _text_section(doc, "Fato constatado", "{{ fatos }}")
    _infracoes(doc)
    _heading(doc, "Advertência")
    _p(doc, "{{ advertencia.texto }}", bold=True)
    _clausulas(doc)
    _if(doc, "advertencia.ciencia", lambda d: _p(d, "{{ advertencia.ciencia }}"))
    _observacoes(doc)
    _signatures(doc, [[*SIGNATARIO, "Agente fiscal"], ["{{ autuado.nome }}", "Advertido — recebi a 1ª via em "
                                                       "____/____/______"]], witnesses=False, competence=True)
    return doc


def termo_ocorrencia() -> Doc:
    """Termo de Ocorrência (Ferraz art. 53, § 1º): the Guarda Civil Municipal agent who draws it up in 2 copies, the
    damaging event identified (where, when, what), its author when identified, and the clauses (the first copy
    starts the assessment of the replacement cost, with the defence of arts. 78 and 79)."""
    doc = _base()
    _p(doc, "{{ abertura }}, o agente da Guarda Civil Municipal abaixo identificado, com fundamento na "
            "{{ documento.base_legal }}, lavra o presente TERMO DE OCORRÊNCIA, em 2 (duas) vias, do evento danoso "
            "descrito abaixo.")
    _heading(doc, "Autor identificado")
    _identificacao(doc)
    _heading(doc, "Local e data do evento")
    _labelled(doc, "Local:", "{{ lavratura.local }}")
    _labelled(doc, "Data:", "{{ lavratura.data }}")
    _text_section(doc, "Evento danoso", "{{ fatos }}")
    _infracoes(doc)
    _closing(doc)
    _signatures(doc, [[*SIGNATARIO, "Agente da Guarda Civil Municipal"],
                      ["{{ autuado.nome }}", "{%p if autuado.representado %}por {{ autuado.responsavel_nome }}",
                       "Autor — recebi a 2ª via em ____/____/______"]], witnesses=False, competence=True)
    return doc


KINDS: dict[str, Callable[[], Doc]] = {
    "auto_de_infracao": auto_de_infracao,
    "notificacao_preliminar": notificacao_preliminar,
    "notificacao_ar": notificacao_ar,
    "edital_notificacao": edital_notificacao,
    "termo_apreensao": termo_apreensao,
    "demonstrativo_debito": demonstrativo_debito,
    "decisao": decisao,
    "certidao_juntada_ar": certidao_juntada_ar,
    "certidao_publicacao_edital": certidao_publicacao_edital,
    "notificacao_decisao": notificacao_decisao,
    "protocolo": protocolo,
    "despacho_encaminhamento": despacho_encaminhamento,
    "termo_medida": termo_medida,
    "termo_levantamento": termo_levantamento,
    "termo_condenacao": termo_condenacao,
    "advertencia_escrita": advertencia_escrita,
    "termo_ocorrencia": termo_ocorrencia,
}


def _qr_picture(doc: Doc, name: str, mm: int) -> None:
    """The placeholder picture of a QR code (:data:`autos.render.verification.PLACEHOLDERS`), which the renderer
    replaces by the document's QR (as docxtpl's ``replace_media`` does)."""
    p = doc.add_paragraph(style="Body Text 2")
    p.add_run().add_picture(io.BytesIO(PLACEHOLDERS[name]), width=Mm(mm), height=Mm(mm))


def _verification(doc: Doc) -> None:
    """At the end of every document: the QR code of its verification code, the code and where to check it."""
    def block(d: Doc) -> None:
        _qr_picture(d, "verificacao", 20)
        p = _p(d, "Código de verificação: ", style="Body Text 2")
        p.runs[0].bold = True
        p.add_run("{{ verificacao.codigo }}")
        _p(d, "{% if verificacao.url %}Confira a autenticidade deste documento em {{ verificacao.url }}{% else %}"
              "Confira a autenticidade deste documento pelo código, junto ao órgão emissor.{% endif %}",
           style="Body Text 2")
    _if(doc, "verificacao is defined and verificacao", block)


def _save(doc: Doc, path: Path) -> None:
    """Save with fixed zip timestamps, so rebuilding an unchanged template gives the same bytes."""
    raw = io.BytesIO()
    doc.save(raw)
    out = io.BytesIO()
    with zipfile.ZipFile(raw) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            data = src.read(item.filename)
            if item.filename == "docProps/core.xml":  # python-docx takes only datetimes for these two
                data = re.sub(rb"(<dcterms:(created|modified) [^>]*>)[^<]*(</dcterms:)",
                              rb"\1{{ metadados.criado_em }}\3", data)
            dst.writestr(info, data)
    path.write_bytes(out.getvalue())


def main() -> None:
    BRASAO.parent.mkdir(parents=True, exist_ok=True)
    BRASAO.write_bytes(neutral_brasao())
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in KINDS.items():
        doc = build()
        _verification(doc)
        _save(doc, OUT / f"{name}.docx")
    print(f"modelos DOCX gravados em {OUT}: {', '.join(KINDS)}")


if __name__ == "__main__":
    main()
