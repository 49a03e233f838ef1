"""Rendered documents checked by their extracted text (python-docx, pypdf), never by bytes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from autos.app.generation.pipeline import Autos
from autos.errors import OutputError, RefusedError, RenderError

from .conftest import CASOS
from .textutil import docx_text, pdf_text

TIMOTEO = CASOS / "timoteo-mg"

# Lei 3.844/2022, art. 20, § 1º — the value of every element of the complete PJ sample, as printed.
PJ_ELEMENTS = {
    "I — nome e qualificação do autuado": [
        "Laticínios Vale do Aço Ltda.", "11.222.333/0001-81",
        "sociedade empresária limitada, estabelecimento de beneficiamento de leite e derivados",
        "Avenida Acesita, 1500 — Centro-Norte — Timóteo / MG — CEP 35180-000",
    ],
    "I — responsável legal da PJ": ["Maria Aparecida dos Santos", "251.983.460-98",
                                    "brasileira, casada, empresária, sócia-administradora"],
    "II — local, data e hora": ["Avenida Acesita, 1500, Centro-Norte, Timóteo/MG", "16 de março de 2026", "14h30"],
    "III — fato": ["120 kg de queijo minas frescal sem identificação de lote"],
    "IV — dispositivo": ["Lei nº 3.844/2022, art. 15", "Decreto municipal nº 5.123/2022, art. 45, inciso II"],
    # V: notice in person on 16/03/2026 (art. 21, I); 15 dias corridos (example term in the prazos rules):
    # 17/03 is day 1, 31/03/2026 (a Tuesday, business day) is day 15.
    "V — prazo para defesa": ["Prazo para apresentação de defesa", "15 (quinze) dias corridos",
                              "até 31 de março de 2026", "prazo fixado no Decreto nº 118/2025"],
    "VI — veterinário oficial": ["Dr. João Batista Ferreira", "CRMV-MG 15.847", "Matrícula 20.315"],
    "VII — assinatura do autuado": ["Recebi a cópia deste auto em 16 de março de 2026."],
}
# Art. 16, II and § 5º: 1.500 UPFMT − 50% = 750 UPFMT; × R$ 5,0770 (example value for 2026) = R$ 3.807,75.
PJ_FINE = ["750 (setecentas e cinquenta) UPFMT",
           "R$ 3.807,75 (três mil oitocentos e sete reais e setenta e cinco centavos)"]
PJ_DATES = ["Aos dezesseis dias do mês de março do ano de dois mil e vinte e seis",
            "dezesseis de março de dois mil e vinte e seis",
            "quatorze horas e trinta minutos"]


@pytest.fixture(scope="module")
def pj_docs(autos: Autos, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("pj")
    result = autos.generate(TIMOTEO / "auto-pj-completo.yaml", out, "ambos")
    assert not result.draft
    by_ext = {p.suffix: p.read_bytes() for p in result.files}
    return {"docx": docx_text(by_ext[".docx"]), "pdf": pdf_text(by_ext[".pdf"]), "pdf_bytes": by_ext[".pdf"]}  # type: ignore[dict-item]


@pytest.mark.parametrize("fmt", ["docx", "pdf"])
@pytest.mark.parametrize("element", sorted(PJ_ELEMENTS))
def test_art20_element_values_are_in_the_document(pj_docs: dict[str, str], fmt: str, element: str) -> None:
    for value in PJ_ELEMENTS[element]:
        assert value in pj_docs[fmt], f"{element}: {value!r} missing from {fmt}"


@pytest.mark.parametrize("fmt", ["docx", "pdf"])
def test_fine_in_figures_and_words_and_dates_in_words(pj_docs: dict[str, str], fmt: str) -> None:
    for value in PJ_FINE + PJ_DATES:
        assert value in pj_docs[fmt], f"{value!r} missing from {fmt}"


@pytest.mark.parametrize("fmt", ["docx", "pdf"])
def test_the_official_unit_value_is_final_and_names_no_example(pj_docs: dict[str, str], fmt: str) -> None:
    # the test municipality's official UPFMT of 2026 (valores-oficiais.yaml, Decreto nº 124/2025): a final auto
    # (no MINUTA, no example warning); the example values' MINUTA is tested in test_official_values
    assert "VALOR DE EXEMPLO" not in pj_docs[fmt] and "MINUTA" not in pj_docs[fmt]


def test_pdf_has_page_numbers_letterhead_and_metadata(pj_docs: dict[str, object]) -> None:
    text = pj_docs["pdf"]
    assert isinstance(text, str)
    assert "PREFEITURA MUNICIPAL DE TIMÓTEO" in text
    reader = PdfReader(io.BytesIO(pj_docs["pdf_bytes"]))  # type: ignore[arg-type]
    n = len(reader.pages)
    assert f"Página 1 de {n}" in text and f"Página {n} de {n}" in text
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "Auto de Infração nº 17/2026 — Timóteo/MG"
    assert "Dr. João Batista Ferreira" in (meta.author or "")
    assert "Lei nº 3.844/2022" in (meta.subject or "")
    assert not [p for p in reader.pages if "/Annots" in p]  # no links


def test_refusal_with_witness_is_certified(autos: Autos, tmp_path: Path) -> None:
    result = autos.generate(TIMOTEO / "auto-pf-recusa-testemunha.yaml", tmp_path, "pdf")
    text = pdf_text(result.files[0].read_bytes())
    assert "recusou-se a assinar" in text
    assert "Rita de Cássia Lopes" in text and "390.533.447-05" in text  # art. 21, § 1º
    assert "111.444.777-35" in text
    # art. 21, § 1º: notified on the certified refusal, 09/04/2026; + 15 dias corridos = 24/04/2026 (Friday)
    assert "efetivada em 9 de abril de 2026" in text and "até 24 de abril de 2026" in text


def test_incomplete_case_is_refused_and_writes_nothing(autos: Autos, tmp_path: Path) -> None:
    with pytest.raises(RefusedError) as info:
        autos.generate(CASOS / "pendentes" / "timoteo-auto-incompleto.yaml", tmp_path, "ambos")
    assert "TIM-20-1-III" in str(info.value) and "--minuta" in str(info.value)
    assert list(tmp_path.iterdir()) == []


def test_draft_is_marked_and_lists_what_is_missing(autos: Autos, tmp_path: Path) -> None:
    result = autos.generate(CASOS / "pendentes" / "timoteo-auto-incompleto.yaml", tmp_path, "ambos", draft=True)
    assert result.draft and all("MINUTA" in p.name for p in result.files)
    for path in result.files:
        data = path.read_bytes()
        text = pdf_text(data) if path.suffix == ".pdf" else docx_text(data)
        assert "MINUTA" in text
        assert "TIM-20-1-III" in text and "descrição do fato infracional" in text
        assert "[NÃO INFORMADO]" in text


def test_unwritable_output_folder(autos: Autos, tmp_path: Path) -> None:
    blocker = tmp_path / "arquivo"
    blocker.write_text("não é pasta")
    with pytest.raises(OutputError, match="não foi possível criar a pasta de saída"):
        autos.generate(TIMOTEO / "auto-pj-completo.yaml", blocker / "sub", "pdf")


def test_template_with_undefined_variable_fails_loudly(autos: Autos, tmp_path: Path) -> None:
    templates = tmp_path / "modelos"
    (templates / "html").mkdir(parents=True)
    (templates / "html" / "auto_de_infracao.html").write_text("<p>{{ autuado.apelido }}</p>", encoding="utf-8")
    custom = Autos(autos.rules.root, templates, today=autos.today)
    with pytest.raises(RenderError) as info:
        custom.generate(TIMOTEO / "auto-pj-completo.yaml", tmp_path / "out", "pdf")
    assert "apelido" in str(info.value) and "auto_de_infracao.html" in str(info.value)
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_html_escapes_case_data(autos: Autos, tmp_path: Path) -> None:
    src = (TIMOTEO / "auto-pj-completo.yaml").read_text(encoding="utf-8")
    evil = src.replace("Queijaria Vale do Aço", "<img src='http://example.com/x.png'>Queijaria")
    case = tmp_path / "caso.yaml"
    case.write_text(evil, encoding="utf-8")
    loaded = autos.load(case)
    ctx = autos.document_context(loaded).context
    html = autos.pdf_renderer.html("auto_de_infracao", ctx)
    # the only image is the letterhead's brasão, from the templates folder; the case's tag is text
    assert "<img src='http" not in html and html.count("<img") == 1 and 'src="timbre/padrao.png"' in html
    assert "&lt;img" in html
    result = autos.generate(case, tmp_path / "out", "ambos")
    docx_bytes = next(p for p in result.files if p.suffix == ".docx").read_bytes()
    assert "<img src='http://example.com/x.png'>Queijaria" in docx_text(docx_bytes)  # XML-escaped, kept as text


def test_documents_get_ordinary_file_permissions(autos: Autos, tmp_path: Path) -> None:
    import os
    import stat

    old = os.umask(0o022)
    os.umask(old)
    result = autos.generate(TIMOTEO / "auto-pj-completo.yaml", tmp_path, "pdf")
    mode = stat.S_IMODE(result.files[0].stat().st_mode)
    assert mode == 0o666 & ~old  # not mkstemp's 0600: other clerks can open the document


def test_template_stylesheet_is_parsed_once_unless_it_has_important_rules(autos: Autos, tmp_path: Path) -> None:
    """The PDF renderer passes base.css pre-parsed (reused across documents); a stylesheet with ``!important``
    stays a <link>, because as a pre-parsed (user) sheet its ``!important`` rules would win over the page's."""
    import shutil

    from autos.render.pdf import PdfRenderer

    page = '<html><head><link rel="stylesheet" href="base.css"></head><body><p>x</p></body></html>'
    shipped = PdfRenderer(autos.templates_dir)
    _doc, sheets = shipped._document(page)
    assert len(sheets) == 1 and shipped._document(page)[1][0] is sheets[0]  # parsed once
    shutil.copytree(autos.templates_dir, tmp_path / "t")
    css = tmp_path / "t" / "html" / "base.css"
    css.write_text(css.read_text(encoding="utf-8") + "\np { color: red !important; }\n", encoding="utf-8")
    custom = PdfRenderer(tmp_path / "t")
    assert custom._document(page)[1] == []
    assert b"%PDF" in custom.pdf_from_html(page)[:8]


def _font_files(data: bytes) -> list[bytes]:
    """The embedded font programs (FontFile2 / FontFile3) of a PDF."""
    reader = PdfReader(io.BytesIO(data))
    found: dict[int, bytes] = {}
    for page in reader.pages:
        for ref in (page["/Resources"].get_object().get("/Font") or {}).values():
            font = ref.get_object()
            for desc in [font.get("/FontDescriptor")] + [d.get_object().get("/FontDescriptor")
                                                         for d in font.get("/DescendantFonts") or []]:
                if desc is None:
                    continue
                desc = desc.get_object()
                for key in ("/FontFile2", "/FontFile3"):
                    if key in desc:
                        found[desc.raw_get(key).idnum] = desc[key].get_object().get_data()
    return list(found.values())


@pytest.mark.parametrize("subsetter", ["harfbuzz", "fonttools"])
def test_same_pdf_again_on_both_font_subsetting_paths(autos: Autos, monkeypatch: pytest.MonkeyPatch,
                                                      subsetter: str) -> None:
    """WeasyPrint subsets fonts with HarfBuzz-Subset, or with fontTools where libharfbuzz-subset0 is missing;
    fontTools stamps each subset font's head.modified with the current second. The clock is made to move
    between renders here: the PDF must still come out byte for byte the same (a re-rendered edital keeps its
    hash), and each embedded font must keep valid checksums."""
    import weasyprint.pdf.fonts as wfonts
    from fontTools.ttLib import TTFont

    from autos.processo.load_case import load_case
    from autos.render.pdf import PdfRenderer

    if subsetter == "fonttools":
        monkeypatch.setattr(wfonts, "harfbuzz_subset", None)
    elif wfonts.harfbuzz_subset is None:
        pytest.skip("libharfbuzz-subset0 não está instalada (o README e .ci/run a instalam)")
    seconds = iter(range(3_800_000_000, 3_900_000_000, 1_000))
    monkeypatch.setattr("fontTools.ttLib.tables._h_e_a_d.timestampNow", lambda: next(seconds))
    doc = autos.document_context(load_case(TIMOTEO / "auto-pj-completo.yaml"))
    renderer = PdfRenderer(autos.templates_dir)
    first = renderer.pdf(doc.template, doc.context)
    assert renderer.pdf(doc.template, doc.context) == first
    assert PdfRenderer(autos.templates_dir).pdf(doc.template, doc.context) == first
    fonts = _font_files(first)
    assert fonts
    for program in fonts:
        font = TTFont(io.BytesIO(program), checkChecksums=2)  # raises on a wrong table checksum
        head = font["head"]
        assert head.modified == head.created
        assert len(font.getGlyphOrder()) > 1 and font["hmtx"].metrics  # the tables still parse
