"""Build the shipped DOCX templates (docxtpl/Jinja tags) with python-docx.

The .docx files in ``templates/docx/`` are what clerks edit in Word or LibreOffice; this script is how
the shipped versions were made, so a change to their structure is reviewable as code. Run:

    python tools/build_docx_templates.py
"""

from __future__ import annotations

from pathlib import Path

from docx import Document
from docx.enum.section import WD_ORIENT
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor

OUT = Path(__file__).resolve().parent.parent / "templates" / "docx"


def _field(paragraph, instr: str) -> None:  # type: ignore[no-untyped-def]
    fld = OxmlElement("w:fldSimple")
    fld.set(qn("w:instr"), instr)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "1"
    run.append(text)
    fld.append(run)
    paragraph._p.append(fld)


def _base() -> Document:
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
    style = doc.styles["Normal"]
    style.font.name = "Times New Roman"
    style.font.size = Pt(11)
    # letterhead
    hdr = sec.header.paragraphs[0]
    hdr.alignment = WD_ALIGN_PARAGRAPH.CENTER
    r = hdr.add_run("{{ cabecalho.prefeitura }}")
    r.bold = True
    r.font.size = Pt(13)
    for text in ("{{ cabecalho.estado }}", "{{ cabecalho.orgao }}"):
        p = sec.header.add_paragraph()
        p.alignment = WD_ALIGN_PARAGRAPH.CENTER
        p.add_run(text).font.size = Pt(9)
    # footer: identification and "Página X de Y"
    ftr = sec.footer.paragraphs[0]
    ftr.add_run("{{ rodape }}").font.size = Pt(7)
    p = sec.footer.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    p.add_run("Página ")
    _field(p, "PAGE")
    p.add_run(" de ")
    _field(p, "NUMPAGES")
    return doc


def _labelled(doc: Document, label: str, value: str) -> None:
    p = doc.add_paragraph()
    p.add_run(label).bold = True
    p.add_run(" " + value)


def _heading(doc: Document, text: str) -> None:
    p = doc.add_paragraph()
    r = p.add_run(text.upper())
    r.bold = True
    p.paragraph_format.space_before = Pt(8)


def auto_de_infracao() -> None:
    doc = _base()
    p = doc.add_paragraph("{%p if minuta %}")
    p = doc.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    r = p.add_run("MINUTA — SEM VALOR LEGAL")
    r.bold = True
    r.font.size = Pt(28)
    r.font.color.rgb = RGBColor(0xC0, 0x00, 0x00)
    doc.add_paragraph("Este documento não pode ser assinado nem entregue ao autuado enquanto houver pendências:")
    doc.add_paragraph("{%p for pend in pendencias %}")
    doc.add_paragraph("• {{ pend }}")
    doc.add_paragraph("{%p endfor %}")
    doc.add_paragraph("{%p endif %}")

    p = doc.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    r = p.add_run("{{ documento.titulo_upper }}")
    r.bold = True
    r.font.size = Pt(15)
    p = doc.add_paragraph()
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    p.add_run("Nº {{ documento.numero }}{% if documento.processo %} — Processo {{ documento.processo }}{% endif %}").bold = True
    p = doc.add_paragraph("Lavrado com fundamento na {{ documento.base_legal }} ({{ lei.ementa }})")
    p.runs[0].font.size = Pt(9)

    doc.add_paragraph("{%p if exemplo_aviso %}")
    p = doc.add_paragraph()
    r = p.add_run("{{ exemplo_aviso }}")
    r.bold = True
    r.font.color.rgb = RGBColor(0xB0, 0x00, 0x00)
    doc.add_paragraph("{%p endif %}")

    doc.add_paragraph("{{ abertura }}, o agente autuante abaixo identificado lavrou o presente "
                      "{{ documento.titulo }} contra:")
    _heading(doc, "1. Autuado")
    _labelled(doc, "Nome / razão social:",
              "{{ autuado.nome }}{% if autuado.nome_fantasia %} ({{ autuado.nome_fantasia }}){% endif %}")
    _labelled(doc, "{{ autuado.tipo }} — {{ autuado.documento_rotulo }}:", "{{ autuado.documento }}")
    _labelled(doc, "Qualificação:", "{{ autuado.qualificacao }}")
    _labelled(doc, "Endereço:", "{{ autuado.endereco }}")
    doc.add_paragraph("{%p if autuado.registro %}")
    _labelled(doc, "Registro:", "{{ autuado.registro }}")
    doc.add_paragraph("{%p endif %}")
    doc.add_paragraph("{%p if autuado.pj %}")
    _labelled(doc, "Responsável legal:", "{{ autuado.responsavel_nome }}, CPF {{ autuado.responsavel_cpf }}, "
              "{{ autuado.responsavel_qualificacao }}")
    doc.add_paragraph("{%p endif %}")

    _heading(doc, "2. Local, data e hora da lavratura")
    _labelled(doc, "Local:", "{{ lavratura.local }}")
    _labelled(doc, "Data:", "{{ lavratura.data }} ({{ lavratura.data_extenso }})")
    _labelled(doc, "Hora:", "{{ lavratura.hora }}")
    _labelled(doc, "Data da infração:", "{{ data_infracao }}")

    _heading(doc, "3. Descrição do fato infracional")
    doc.add_paragraph("{{ fatos }}")

    _heading(doc, "4. Dispositivo legal ou regulamentar infringido")
    doc.add_paragraph("{%p for i in infracoes %}")
    doc.add_paragraph("{{ i.citacao }} — {{ i.descricao }}{% if i.complemento %}; {{ i.complemento }}{% endif %}.")
    doc.add_paragraph("{%p endfor %}")
    doc.add_paragraph("{%p if circunstancias %}")
    doc.add_paragraph().add_run("Circunstâncias consideradas").bold = True
    doc.add_paragraph("{%p for c in circunstancias %}")
    doc.add_paragraph("{{ c.tipo }}: {{ c.descricao }} ({{ c.citacao }}).")
    doc.add_paragraph("{%p endfor %}")
    doc.add_paragraph("{%p endif %}")

    _heading(doc, "5. Penalidades e medidas aplicadas")
    doc.add_paragraph("{%p for pen in penalidades %}")
    p = doc.add_paragraph()
    p.add_run("{{ pen.nome }}").bold = True
    p.add_run(" ({{ pen.citacao }}){% if pen.itens %}: {{ pen.itens | join('; ') }}{% endif %}"
              "{% if pen.fiel_depositario %}. Fiel depositário: {{ pen.fiel_depositario }}{% endif %}"
              "{% if pen.observacao %}. {{ pen.observacao }}{% endif %}.")
    doc.add_paragraph("{%p endfor %}")
    doc.add_paragraph("{%p if multa %}")
    p = doc.add_paragraph("Valor da multa: ")
    p.add_run("{{ multa.unidades }}").bold = True
    p.add_run(", correspondente a ")
    p.add_run("{{ multa.reais }}").bold = True
    p.add_run(".")
    table = doc.add_table(rows=3, cols=3)
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for cell, text in zip(table.rows[0].cells, ("Memória de cálculo", "Base legal", "Resultado"), strict=True):
        cell.paragraphs[0].add_run(text).bold = True
    row = table.rows[1].cells
    row[0].paragraphs[0].add_run("{%tr for s in multa.memoria %}")
    row = table.rows[2].cells
    row[0].paragraphs[0].add_run("{{ s.descricao }}")
    row[1].paragraphs[0].add_run("{{ s.base_legal }}")
    row[2].paragraphs[0].add_run("{{ s.resultado }}")
    new = table.add_row().cells
    new[0].paragraphs[0].add_run("{%tr endfor %}")
    doc.add_paragraph("{%p endif %}")

    _heading(doc, "6. Prazos")
    doc.add_paragraph("{%p for d in prazos %}")
    p = doc.add_paragraph()
    p.add_run("{{ d.descricao }}:").bold = True
    p.add_run(" {{ d.prazo }}{% if d.data %}, até {{ d.data }}{% endif %} ({{ d.base_legal }}).")
    doc.add_paragraph("{%p endfor %}")
    doc.add_paragraph("{%p if notificacao %}")
    _labelled(doc, "Ciência:", "{{ notificacao.forma }}{% if notificacao.data %}, efetivada em "
              "{{ notificacao.data }}{% endif %}.")
    doc.add_paragraph("{%p endif %}")

    doc.add_paragraph("{%p if observacoes %}")
    _heading(doc, "Observações")
    doc.add_paragraph("{{ observacoes }}")
    doc.add_paragraph("{%p endif %}")

    p = doc.add_paragraph("{{ assinatura_autuado }}")
    p.runs[0].font.size = Pt(9)
    doc.add_paragraph("{%p if documento.nulidade %}")
    p = doc.add_paragraph("Este auto não contém emendas, rasuras ou omissões ({{ documento.nulidade }}).")
    p.runs[0].font.size = Pt(9)
    doc.add_paragraph("{%p endif %}")

    doc.add_paragraph("{{ local_data_assinatura }}")
    sig = doc.add_table(rows=1, cols=2)
    left, right = sig.rows[0].cells
    left.paragraphs[0].add_run("\n\n______________________________________")
    left.add_paragraph("{{ agente.nome }}")
    left.add_paragraph("{{ agente.cargo }}")
    left.add_paragraph("Matrícula {{ agente.matricula }}{% if agente.crmv %} — {{ agente.crmv }}{% endif %}")
    left.add_paragraph("Agente autuante")
    right.paragraphs[0].add_run("\n\n______________________________________")
    right.add_paragraph("{{ autuado.nome }}{% if autuado.pj %} — por {{ autuado.responsavel_nome }}{% endif %}")
    right.add_paragraph("Autuado{% if recusa %} — RECUSOU-SE A ASSINAR{% endif %}")
    doc.add_paragraph("{%p for t in testemunhas %}")
    doc.add_paragraph("\n______________________________________")
    doc.add_paragraph("{{ t.nome }}{% if t.cpf %} — CPF {{ t.cpf }}{% endif %} — Testemunha")
    doc.add_paragraph("{%p endfor %}")
    doc.save(OUT / "auto_de_infracao.docx")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    auto_de_infracao()
    print(f"modelos DOCX gravados em {OUT}")
