"""``autos gerar PROCESSO.yaml [--ato N]``: the document of each act, as of its date, checked by extracted
text (pypdf, python-docx): it states the facts of its date and not later ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT
from .textutil import docx_text, pdf_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_processo_gerar")

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
DOCS = DATA / "processo" / "documentos"
FV_AR = DOCS / "fv-ruido-ar.yaml"
TIM_EDITAL = DOCS / "tim-edital.yaml"
STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-005377"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    out = tmp_path_factory.mktemp("gerar")
    code, text = run("gerar", str(FV_AR), "-o", str(out))
    return code, text, out


def test_every_act_with_a_document_is_written_with_processo_and_act_in_the_name(
        generated: tuple[int, str, Path]) -> None:
    code, out, folder = generated
    assert code == 0, out
    assert sorted(p.name for p in folder.iterdir()) == [
        f"auto-de-infracao-{STEM}-ato-01.docx", f"auto-de-infracao-{STEM}-ato-01.pdf",
        f"notificacao-ar-{STEM}-ato-02.docx", f"notificacao-ar-{STEM}-ato-02.pdf"]


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ar_letter_states_its_date_and_not_the_later_receipt(generated: tuple[int, str, Path], ext: str) -> None:
    _, _, folder = generated
    data = (folder / f"notificacao-ar-{STEM}-ato-02.{ext}").read_bytes()
    text = pdf_text(data) if ext == "pdf" else docx_text(data)
    assert "19 de outubro de 2026" in text  # the letter's date: its posting
    assert "Auto de Infração nº 260/2026" in text and "16 de outubro de 2026" in text
    # Ferraz art. 77, II: notified on the receipt (22/10/2026), not known on 19/10 — nor the terms' ends
    # (art. 78, recurso: 03/11/2026; art. 80, pagamento: 10 business days from 22/10)
    for later in ("22 de outubro", "22/10/2026", "03/11/2026", "3 de novembro"):
        assert later not in text, later
    # the terms are stated without dates (art. 78: 10 days; art. 80: 10 business days)
    assert "10 (dez) dias corridos" in text and "10 (dez) dias úteis" in text


def test_auto_does_not_know_the_later_notice(generated: tuple[int, str, Path]) -> None:
    _, _, folder = generated
    text = pdf_text((folder / f"auto-de-infracao-{STEM}-ato-01.pdf").read_bytes())
    assert "16 de outubro de 2026" in text or "16/10/2026" in text
    for later in ("19 de outubro", "19/10/2026", "22 de outubro", "22/10/2026"):
        assert later not in text, later


def test_auto_with_a_same_day_notice_states_it_and_its_deadline(tmp_path: Path) -> None:
    text = FV_AR.read_text(encoding="utf-8").split("  - tipo: notificacao_ar")[0] + (
        '  - {tipo: notificacao_pessoal, data: 2026-10-16, referente: "260/2026"}\n')
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    code, out = run("gerar", str(file), "--ato", "1", "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert code == 0, out
    doc = pdf_text((tmp_path / "out" / f"auto-de-infracao-{STEM}-ato-01.pdf").read_bytes())
    # Ferraz art. 78: recurso in 10 days from the notice of 16/10/2026 (Friday) → 26/10/2026 (Monday)
    assert "26/10/2026" in doc or "26 de outubro de 2026" in doc


def test_only_act_n(tmp_path: Path) -> None:
    code, out = run("gerar", str(FV_AR), "--ato", "2", "--formato", "docx", "-o", str(tmp_path))
    assert code == 0, out
    assert [p.name for p in tmp_path.iterdir()] == [f"notificacao-ar-{STEM}-ato-02.docx"]


def test_act_without_document_or_out_of_range_exits_2(tmp_path: Path) -> None:
    text = FV_AR.read_text(encoding="utf-8") + (
        '  - {tipo: pagamento, data: 2026-10-26, valor: "9371.61"}\n')  # a payment has no document (a recurso
    file = tmp_path / "p.yaml"                                            # has its protocol)
    file.write_text(text, encoding="utf-8")
    code, out = run("gerar", str(file), "--ato", "3", "-o", str(tmp_path / "out"))
    assert code == 2
    assert "o ato 3 (pagamento) não tem documento a gerar" in out and "1, 2" in out
    code, out = run("gerar", str(file), "--ato", "7", "-o", str(tmp_path / "out"))
    assert code == 2 and "não há ato 7" in out
    assert not (tmp_path / "out").exists()


def test_refused_act_names_the_act_and_the_processo_field(tmp_path: Path) -> None:
    code, out = run("gerar", str(TIM_EDITAL), "--ato", "1", "-o", str(tmp_path))
    assert code == 1
    # Timóteo art. 20, § 1º, VI: the auto identifies the official veterinarian (matrícula)
    assert "ato 1 (Auto de Infração de 12/05/2026)" in out
    assert "campo 'atos[0].agente.matricula'" in out
    assert not list(tmp_path.iterdir())  # nothing written


def test_minuta_of_the_edital_lists_what_is_missing_and_not_the_later_publication(tmp_path: Path) -> None:
    code, out = run("gerar", str(TIM_EDITAL), "--ato", "3", "--minuta", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    # act 3 has two documents: the edital (dated its first publication, 02/06) and the certificate of its
    # publication (dated the last, 03/06); --minuta makes both drafts
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "certidao-publicacao-edital-timoteo-mg-sim-2026-000188-ato-03-MINUTA.pdf",
        "edital-notificacao-timoteo-mg-sim-2026-000188-ato-03-MINUTA.pdf"]
    pdf = tmp_path / "edital-notificacao-timoteo-mg-sim-2026-000188-ato-03-MINUTA.pdf"
    text = pdf_text(pdf.read_bytes())
    assert "MINUTA" in text
    assert "2 de junho de 2026" in text or "02/06/2026" in text  # the official publication, its own date
    # art. 21, § 3º: the newspaper publication of 03/06/2026 is after the edital's date: not stated
    assert "3 de junho de 2026" not in text and "03/06/2026" not in text
    assert "Jornal Diário do Aço" not in text
    # nor the date of the notice, counted from the later publication: the certificate of publication states it
    assert "é atestada na certidão de publicação deste edital" in text
    assert "TIM-21-3-PUBLICACAO" not in text


def test_arquivo_embeds_the_processo_file(tmp_path: Path) -> None:
    import io

    from pypdf import PdfReader

    code, out = run("gerar", str(FV_AR), "--ato", "2", "--arquivo", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    reader = PdfReader(io.BytesIO((tmp_path / f"notificacao-ar-{STEM}-ato-02.pdf").read_bytes()))
    assert reader.attachments == {FV_AR.name: [FV_AR.read_bytes()]}


def test_an_error_about_a_later_act_does_not_block_an_earlier_document(tmp_path: Path) -> None:
    # Ferraz art. 80: 10 business days to pay from the notice (22/10/2026); a dívida ativa of 26/10 is early
    text = FV_AR.read_text(encoding="utf-8") + (
        "  - {tipo: inscricao_divida_ativa, numero: CDA-1/2026, data: 2026-10-26, valor: \"9371.61\"}\n")
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    code, out = run("validar", str(file))
    assert code == 1 and "PRAZO-NAO-VENCIDO" in out and "campo 'atos[2].data'" in out
    code, out = run("gerar", str(file), "--formato", "docx", "-o", str(tmp_path / "out"))
    # the auto (16/10) and the letter (19/10) do not depend on an act of 26/10: both are written; the error of the
    # act without a document is listed and the processo is not complete (exit 1, as validar)
    assert len(list((tmp_path / "out").iterdir())) == 2
    assert code == 1 and "PRAZO-NAO-VENCIDO" in out and "campo 'atos[2].data'" in out, out


# --- errors that no document carries: exit 1, with the findings ---------------------------------------------------
SEM_DEFESA = ROOT / "samples" / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"


def test_an_error_in_an_act_without_document_is_reported_and_exits_1(tmp_path: Path) -> None:
    """The auto and the apprehension are complete and their documents are written as of their dates; an act the
    law does not provide for (Timóteo: no 'oficio' in the rite), after them, has no document to refuse — gerar
    still says the processo has an error, as validar does, and exits 1."""
    file = tmp_path / "oficio-depois.yaml"
    file.write_text(SEM_DEFESA.read_text(encoding="utf-8") + "  - {tipo: oficio, data: 2026-10-02}\n", encoding="utf-8")
    out = tmp_path / "saida"
    code, text = run("gerar", str(file), "--formato", "docx", "-o", str(out))
    assert code == 1, text
    assert sorted(p.name for p in out.iterdir()) == [
        "auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.docx",
        "termo-apreensao-timoteo-mg-sim-2026-000171-ato-02.docx"]
    assert "o processo tem 1 erro que nenhum documento mostra" in text
    assert "[ERRO · nulidade] ATO-NAO-PREVISTO: a Lei nº 3.844/2022 não prevê o ato 'oficio'." in text
    line = len(SEM_DEFESA.read_text(encoding="utf-8").splitlines()) + 1  # the act appended after the sample's lines
    assert f"linha {line}, campo 'atos[3].tipo'" in text


def test_a_processo_whose_failing_act_replaces_the_auto_exits_1_with_the_findings(tmp_path: Path) -> None:
    """An 'oficio' where the auto should be: no act has a document (the notice cites no auto), nothing is written,
    and the timeline's errors are the answer (Timóteo art. 20: every processo starts with the auto)."""
    text = SEM_DEFESA.read_text(encoding="utf-8").replace("  - tipo: auto\n", "  - tipo: oficio\n")
    start, end = text.index("  - tipo: apreensao\n"), text.index("  - tipo: notificacao_pessoal\n")
    file = tmp_path / "oficio.yaml"
    file.write_text(text[:start] + text[end:], encoding="utf-8")
    code, out = run("gerar", str(file), "-o", str(tmp_path / "saida"))
    assert code == 1, out
    assert not (tmp_path / "saida").exists()
    for words in ("[ERRO · nulidade] SEM-AUTO: o processo não tem auto de infração", "(Lei nº 3.844/2022, art. 20)",
                  "[ERRO · nulidade] ATO-NAO-PREVISTO", "campo 'atos[0].tipo'", "Como corrigir: corrija-os"):
        assert words in out, (words, out)
    code, _ = run("gerar", str(file), "--minuta", "-o", str(tmp_path / "saida"))
    assert code == 0  # a minuta is asked for despite the pendências: nothing is refused
