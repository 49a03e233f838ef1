"""Portuguese legal style, letterhead and DOCX styles of the generated documents.

Each sample processo chosen below is generated once (PDF and DOCX); every check reads the documents' extracted
text (pypdf, python-docx), never their bytes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import docx
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from autos.cli import main

from .conftest import ROOT, SAMPLES
from .textutil import document_text, docx_pdf_differences, fold

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_style")

PROCESSOS = SAMPLES / "processos"
CHOSEN = [
    PROCESSOS / "ferraz-de-vasconcelos-sp" / "fv-2026-0388-divida-ativa.yaml",  # auto, AR letter to a person
    PROCESSOS / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-005377-ruido-bar.yaml",  # AR letter to a company
    PROCESSOS / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml",  # costs in tenths of UPF, demonstrativos, CCZ
    PROCESSOS / "timoteo-mg" / "sim-2026-000203-ar-mel.yaml",  # termo de apreensão with the fine, personal notice
    PROCESSOS / "timoteo-mg" / "sim-2026-000180-interdicao.yaml",  # termo de interdição: no value at all
]
BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]


@pytest.fixture(scope="session")  # once per xdist worker, even when its tests are not consecutive
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("estilo")
    result = CliRunner().invoke(main, [*BASE, "gerar", *map(str, CHOSEN), "-o", str(out), "--processos", "1"])
    assert result.exit_code == 0, result.output
    files = {p.name: p for p in sorted(out.iterdir()) if p.suffix in (".pdf", ".docx")}
    assert len(files) > 20
    return files


@pytest.fixture(scope="session")
def texts(generated: dict[str, Path]) -> dict[str, str]:
    return {name: document_text(path) for name, path in generated.items()}


def test_docx_and_pdf_of_each_document_say_the_same(generated: dict[str, Path]) -> None:
    """The clerk edits the DOCX; the PDF is what is signed, published and archived. Both come from one context and
    say the same — every label, heading, citation and signature block, in the same order, in the same case; only
    the page furniture differs (the PDF's running header and footer, the DOCX's header and footer)."""
    pairs = sorted(n for n in generated if n.endswith(".docx"))
    assert len({n.split("-ferraz")[0].split("-cuiaba")[0].split("-timoteo")[0] for n in pairs}) >= 10  # kinds
    for name in pairs:
        pdf = generated[name.removesuffix(".docx") + ".pdf"]
        assert docx_pdf_differences(generated[name].read_bytes(), pdf.read_bytes()) == [], name


def _one(texts: dict[str, str], prefix: str, suffix: str = ".pdf") -> str:
    found = [t for n, t in texts.items() if n.startswith(prefix) and n.endswith(suffix)]
    assert found, prefix
    return found[0]


# --- item 17: Portuguese legal style --------------------------------------------------------------

ABBREVIATED_AGREEMENT = re.compile(r"\b\w+\((?:s|a|as|os|es|is|ns|A|AS|S)\)")


def test_no_noun_or_gender_in_parentheses(texts: dict[str, str]) -> None:
    for name, text in texts.items():
        found = [m for m in ABBREVIATED_AGREEMENT.findall(text) if m != "dB(A)"]
        assert not found, (name, found)
        assert "Sr(a)" not in text and "Senhor(a)" not in text, name


def test_decimals_in_legal_words(texts: dict[str, str]) -> None:
    for name, text in texts.items():
        assert "vírgula" not in text, name
    auto = _one(texts, "termo-apreensao-cuiaba-mt")
    assert "(seis inteiros e cinco décimos) UPF" in auto or "(nove inteiros e cinco décimos) UPF" in auto, auto


ADDRESS_WORDS = ("Rua", "Avenida", "Av.", "Praça", "Travessa", "Estrada", "Rodovia", "Centro", "Feira", "Largo")


def test_place_contracted_with_its_article(texts: dict[str, str]) -> None:
    for name, text in texts.items():
        for word in ADDRESS_WORDS:
            assert f" em {word} " not in text, (name, word)
    auto = _one(texts, "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0388")
    assert "(nove horas e trinta minutos), na Rua Romeu Tortima" in auto
    cuiaba = _one(texts, "auto-de-infracao-cuiaba-mt-ccz-2026-0077")
    assert " no Centro de Controle de Zoonoses" in cuiaba or " na " in cuiaba


def test_letter_addresses_company_and_person(texts: dict[str, str]) -> None:
    company = _one(texts, "notificacao-ar-ferraz-de-vasconcelos-sp-pm-fv-2026-005377")
    assert "À empresa" in company and "Prezados Senhores," in company
    assert "NOTIFICA V. Sas." in company
    person = _one(texts, "notificacao-ar-ferraz-de-vasconcelos-sp-fv-2026-0388")
    assert "Prezado" not in person and "À empresa" not in person  # no recorded treatment: the neutral form
    assert "NOTIFICA V. Sa." in person
    for name in (n for n in texts if n.startswith("notificacao-ar")):
        assert "NOTIFICADO(A)" not in texts[name] and "Ao(À)" not in texts[name]


def test_ementa_is_a_clause_not_a_parenthesis(texts: dict[str, str]) -> None:
    auto = _one(texts, "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0388")
    # the basis is the provisions the auto applies (arts. 3º and 4º), not art. 76, the article of the notice
    assert "Lei nº 3.240/2015, arts. 3º e 4º — lei que confere nova redação à Lei nº 1.408/1983" in auto
    for name, text in texts.items():
        assert "(Confere" not in text and "(Dispõe" not in text and "(Institui" not in text, name


NESTED = re.compile(r"\([^()]*\([^()]*\)")


def test_no_stacked_parentheses_in_what_the_rules_say(texts: dict[str, str]) -> None:
    for name, text in texts.items():
        found = [m for m in NESTED.findall(text.replace("dB(A)", "dBA"))]
        assert not found, (name, found)


def test_no_empty_labels(texts: dict[str, str]) -> None:
    for name, text in texts.items():
        assert not re.search(r"Qualificação: (Endereço|Pessoa|Registro|\d\.)", text), name
        assert not re.search(r"Hora: (Data|\d\.)", text), name


def _section_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?:^|\s)(\d)\. [A-ZÇÃÕÁÉÍÓÚ]{3,}", text)]


def test_section_numbers_are_consecutive(texts: dict[str, str]) -> None:
    checked = 0
    for name, text in texts.items():
        numbers = _section_numbers(text)
        if numbers:
            checked += 1
            assert numbers == list(range(1, len(numbers) + 1)), (name, numbers)
    assert checked > 5


def test_termo_without_values_has_no_example_banner(texts: dict[str, str]) -> None:
    for name in ("termo-interdicao-timoteo-mg-sim-2026-000180", "certidao-juntada-ar-ferraz-de-vasconcelos-sp-pm-fv-2026-005377"):
        for suffix in (".pdf", ".docx"):
            assert "VALOR DE EXEMPLO" not in _one(texts, name, suffix), name
    for name in ("auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0388",  # a value at the official unit: no banner
                 "termo-apreensao-cuiaba-mt-ccz-2026-0077"):
        assert "R$" in _one(texts, name) and "VALOR DE EXEMPLO" not in _one(texts, name), name
    # a warning and an apprehension (Timóteo art. 16, I and III): no amount, no banner
    text = _one(texts, "termo-apreensao-timoteo-mg-sim-2026-000203")
    assert "R$" not in text and "VALOR DE EXEMPLO" not in text


# --- item 18: letterhead --------------------------------------------------------------------------


def test_prefeitura_once_per_page_and_a_sober_footer(generated: dict[str, Path]) -> None:
    pdfs = [p for n, p in generated.items() if n.endswith(".pdf")]
    for path in pdfs:
        reader = PdfReader(io.BytesIO(path.read_bytes()))
        for i, page in enumerate(reader.pages, 1):
            text = fold(page.extract_text() or "")
            # the letterhead's line, in capitals (a clause of the law may name the Prefeitura in its text)
            assert text.count("PREFEITURA MUNICIPAL DE") == 1, (path.name, i, text[:300])
            assert "por autos" not in text and "gerado em" not in text, (path.name, i)
            assert f"Página {i} de {len(reader.pages)}" in text, (path.name, i)
    for path in (p for n, p in generated.items() if n.endswith(".docx")):
        text = document_text(path)
        assert "por autos" not in text and "gerado em" not in text, path.name


def test_brasao_on_the_first_page(generated: dict[str, Path]) -> None:
    path = next(p for n, p in generated.items() if n.startswith("auto-de-infracao") and n.endswith(".pdf"))
    page = PdfReader(io.BytesIO(path.read_bytes())).pages[0]
    assert len(page.images) >= 1
    d = docx.Document(io.BytesIO(generated[path.name.replace(".pdf", ".docx")].read_bytes()))
    header = d.sections[0].header
    assert header._element.xpath(".//pic:pic"), "the DOCX letterhead has the brasão picture"


# --- item 19: DOCX named styles ------------------------------------------------------------------


def test_docx_paragraphs_carry_named_styles(generated: dict[str, Path]) -> None:
    for name, path in generated.items():
        if not name.endswith(".docx"):
            continue
        d = docx.Document(io.BytesIO(path.read_bytes()))
        styles = {p.style.name for p in d.paragraphs if p.text.strip()}
        assert "Title" in styles, (name, styles)
        assert "Body Text" in styles, (name, styles)
        normal = [p.text for p in d.paragraphs if p.text.strip() and p.style.name == "Normal"]
        assert not normal, (name, normal[:5])
        if name.startswith(("auto-de-infracao", "demonstrativo-debito")):
            headings = [p.text for p in d.paragraphs if p.style.name == "Heading 1"]
            assert headings and headings[0].startswith("1. "), (name, headings)


# --- item 17: the command line -------------------------------------------------------------------

CASOS = Path(__file__).resolve().parent / "data" / "casos"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.stdout


def test_prazos_pending_term_reads_contados_da_data() -> None:
    code, out = _cli("prazos", str(CASOS / "pendentes" / "timoteo-auto-incompleto.yaml"))
    assert "contados a partir da data em que se considera feita a ciência" in out, out
    assert "contados data" not in out


def test_example_deadline_raises_a_warning(shipped_examples: None) -> None:
    """A deadline whose term is an EXAMPLE of the rules (Timóteo's defence, art. 20, § 1º, V) is announced as the
    example money values are: an aviso with the provision, so that nobody signs it unknowingly."""
    code, out = _cli("validar", str(PROCESSOS / "timoteo-mg" / "sim-2026-000203-ar-mel.yaml"))
    assert "PRAZO-EXEMPLO" in out, out
    assert "Prazo para apresentação de defesa contra o auto de infração" in out.split("PRAZO-EXEMPLO", 1)[1]
    code, out = _cli("validar", str(PROCESSOS / "ferraz-de-vasconcelos-sp" / "fv-2026-0388-divida-ativa.yaml"))
    assert "PRAZO-EXEMPLO" not in out, out  # Ferraz's deadlines are the law's own


def test_verificar_names_each_kind_by_its_own_law_and_agrees_nouns() -> None:
    code, out = _cli("verificar", str(CASOS / "timoteo-mg"), str(CASOS / "cuiaba-mt"))
    assert "(s)" not in out and "(is)" not in out, [x for x in out.splitlines() if "(s)" in x or "(is)" in x][:5]
    lines = out.splitlines()
    timoteo_termo = [x for x in lines if "termo-apreensao-queijo.yaml" in x and x.startswith(("✓", "✗"))]
    assert timoteo_termo and "Termo de Apreensão de Animal" not in timoteo_termo[0], timoteo_termo
    code, out = _cli("verificar", str(PROCESSOS / "timoteo-mg"))
    assert "processo (processo)" not in out
    assert "Processo administrativo:" in out, out


# --- item 18: a Municipality's own letterhead, from its templates folder ----------------------------

def _own_templates(tmp_path: Path, timbre: str, image: bytes | None = None) -> Path:
    import shutil

    folder = tmp_path / "modelos"
    shutil.copytree(ROOT / "templates", folder)
    own = folder / "html" / "timbre" / "timoteo-mg"
    own.mkdir(parents=True)
    (own / "timbre.yaml").write_text(timbre, encoding="utf-8")
    if image is not None:
        (own / "brasao.png").write_bytes(image)
    return folder


OWN_TIMBRE = """\
brasao: brasao.png
linhas:
  - PREFEITURA MUNICIPAL DE TIMÓTEO
  - Estado de Minas Gerais
  - Secretaria Municipal de Desenvolvimento Econômico, Turismo e Agricultura
orgao: Serviço de Inspeção Municipal (SIM)
assinantes:
  edital: {nome: Fulana de Tal, cargo: Secretária Municipal de Desenvolvimento Econômico}
"""


def test_own_letterhead_lines_and_brasao_in_pdf_and_docx(tmp_path: Path) -> None:
    brasao = (ROOT / "templates" / "html" / "timbre" / "padrao.png").read_bytes()
    folder = _own_templates(tmp_path, OWN_TIMBRE, brasao)
    out = tmp_path / "saida"
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(folder), "--hoje",
                                       "2026-11-30", "gerar", str(CHOSEN[3]), "--ato", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    for path in sorted(out.iterdir()):
        text = document_text(path)
        assert "Secretaria Municipal de Desenvolvimento Econômico, Turismo e Agricultura" in text, path.name
        assert "Serviço de Inspeção Municipal (SIM)" in text, path.name
        assert text.count("PREFEITURA MUNICIPAL DE TIMÓTEO") == (1 if path.suffix == ".docx" else
                                                                  len(PdfReader(path).pages)), path.name
    pdf = next(p for p in out.iterdir() if p.suffix == ".pdf")
    assert PdfReader(pdf).pages[0].images  # the Municipality's brasão, read from its folder


@pytest.mark.parametrize(("timbre", "words"), [
    ("brasao: ../../../../etc/passwd\n", "brasão"),
    ("cor: azul\n", "chave desconhecida"),
    ("linhas: PREFEITURA\n", "linhas"),
    ("assinantes:\n  edital: {nome: Fulana}\n", "nome"),
])
def test_bad_letterhead_is_refused_with_file_and_line(tmp_path: Path, timbre: str, words: str) -> None:
    folder = _own_templates(tmp_path, timbre)
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(folder), "--hoje",
                                       "2026-11-30", "gerar", str(CHOSEN[3]), "--ato", "1", "-o",
                                       str(tmp_path / "saida")])
    assert result.exit_code == 2, result.output
    assert "timbre.yaml" in result.output and words in result.output, result.output
    assert not (tmp_path / "saida").exists() or not any((tmp_path / "saida").iterdir())


def test_consolidated_edital_uses_the_letterhead_and_its_signer(tmp_path: Path) -> None:
    """The edital of ``autos publicar-editais``: the Municipality's letterhead and the signer it names for the
    edital; the law's ementa as an apposition; a sober footer."""
    import shutil

    from autos.app.editais.publish import Publisher
    from autos.app.editais.run import Options, place_option

    from .conftest import DATA, TODAY

    folder = _own_templates(tmp_path, OWN_TIMBRE, (ROOT / "templates" / "html" / "timbre" / "padrao.png").read_bytes())
    casos = tmp_path / "casos"
    shutil.copytree(DATA / "publish" / "casos", casos)
    out = tmp_path / "editais"
    from datetime import date

    result = Publisher(Options(casos=casos, data=date(2026, 10, 6), saida=out, data_jornal=date(2026, 10, 7),
                               workers=1, rules_dir=ROOT / "rules", templates_dir=folder, today=TODAY,
                               veiculos=place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                                                      "Quadro de Editais do Paço Municipal"]),
                               jornais=place_option(["Jornal Diário do Aço"]))).run()
    assert result.erro is None, result.erro
    assert len(result.publicados) == 2, result
    timoteo = document_text(next(out.rglob("edital-timoteo-mg-lei-3844-2022-2026-0001.pdf")))
    assert "Fulana de Tal Secretária Municipal de Desenvolvimento Econômico" in timoteo
    assert "Serviço de Inspeção Municipal (SIM)" in timoteo
    assert "lei que dispõe sobre o Serviço de Inspeção" in timoteo and "(Lei nº 3.844/2022: Dispõe" not in timoteo
    assert "por autos" not in timoteo and "gerado em" not in timoteo
    ferraz = document_text(next(out.rglob("edital-ferraz-de-vasconcelos-sp-lei-3240-2015-2026-0001.pdf")))
    assert "Fulana de Tal" not in ferraz  # Ferraz has no letterhead of its own: the neutral default
    assert ferraz.count("PREFEITURA MUNICIPAL DE FERRAZ DE VASCONCELOS") == len(
        PdfReader(next(out.rglob("edital-ferraz-de-vasconcelos-sp-lei-3240-2015-2026-0001.pdf"))).pages)


def test_brasao_symlinked_out_of_the_templates_folder_is_refused(tmp_path: Path) -> None:
    folder = _own_templates(tmp_path, "brasao: brasao.png\n")
    outside = tmp_path / "fora.png"
    outside.write_bytes((ROOT / "templates" / "html" / "timbre" / "padrao.png").read_bytes())
    (folder / "html" / "timbre" / "timoteo-mg" / "brasao.png").symlink_to(outside)
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(folder), "--hoje",
                                       "2026-11-30", "gerar", str(CHOSEN[3]), "--ato", "1", "-o",
                                       str(tmp_path / "saida")])
    assert result.exit_code == 2 and "brasão" in result.output, result.output


def test_memo_and_skipped_days_have_no_stacked_parentheses() -> None:
    """A text of the rules printed inside parentheses — the reduction's description in the memo (Timóteo art. 16,
    § 5º) — carries no parentheses of its own."""
    code, out = _cli("multa", str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml"))
    assert "Redução de 50% (redução de cinquenta por cento, 50%, para indústria de pequeno porte)" in out, out
    assert not NESTED.search(out.replace("dB(A)", "dBA")), out
