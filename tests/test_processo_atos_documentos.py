"""Documents the timeline lacked: the certificate of publication of an edital, the notice of a
decision, the protocol of a defence or appeal, the debit statement after a decision — each as of its act's date,
checked by the extracted text (pypdf, python-docx). Every expected date is worked out by hand from the statute and
the calendar in rules/ (article named at each assertion), not taken from the program's output."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.base import ptbr
from autos.cli import main

from .conftest import DATA, ROOT, SAMPLES
from .textutil import document_text, docx_pdf_differences

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
DOCS = DATA / "processo" / "documentos"
FV = DOCS / "fv-decisao-recurso.yaml"
FV_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-005377"
FV_ED = DOCS / "fv-edital-certidao.yaml"
FV_ED_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-004410"
TIM = DOCS / "tim-julgamento.yaml"
TIM_STEM = "timoteo-mg-sim-2026-000201"
CUI = DOCS / "cui-decisao-recurso.yaml"
CUI_STEM = "cuiaba-mt-ccz-2026-0077"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def generate(tmp_path: Path, file: Path, ato: str, ext: str = "pdf") -> Path:
    code, out = run("gerar", str(file), "--ato", ato, "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    return tmp_path


# --- 1. certidão de publicação do edital ----------------------------------------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_certificate_of_publication_art_77_iii(tmp_path: Path, ext: str) -> None:
    generate(tmp_path, FV_ED, "4", ext)  # after the notificação preliminar, the auto and the search (art. 76, III)
    text = document_text(tmp_path / f"certidao-publicacao-edital-{FV_ED_STEM}-ato-04.{ext}")
    assert "CERTIFICO" in text and "Auto de Infração nº 300/2026, lavrado em 1º de setembro de 2026" in text
    assert "em 3 de setembro de 2026, por afixação na sede da Prefeitura (Quadro de editais do Paço Municipal)" in text
    assert ("em 4 de setembro de 2026, no órgão oficial de imprensa (Imprensa Oficial do Município, edição 1.204)"
            in text)
    # dated the last publication: the edital is complete then
    assert "Ferraz de Vasconcelos/SP, 4 de setembro de 2026" in text
    # art. 77, III: at the end of the edital's 5 dias corridos (art. 76, III) from the later of afixação and
    # publicação (04/09/2026, Friday) → 09/09/2026 (Wednesday)
    # the certidão is dated before that day: it says when the notice will count as made
    assert "A notificação considerar-se-á feita em 9 de setembro de 2026" in text
    assert "Lei nº 3.240/2015, art. 76, III, e art. 77, III" in text
    # art. 78: recurso in 10 dias corridos → 19/09 (Saturday) → next business day 21/09/2026 (Monday)
    assert "até 21 de setembro de 2026 (Lei nº 3.240/2015, art. 78)" in text
    # art. 80: 10 dias úteis from 09/09: 10, 11, 14, 15, 16, 17, 18, 21, 22, 23 → 23/09/2026
    assert "até 23 de setembro de 2026 (Lei nº 3.240/2015, art. 80)" in text
    for later in ("25 de setembro", "P-95/2026"):  # the appeal is a later act
        assert later not in text, later


def test_timoteo_certificate_of_publication_art_21_p3(tmp_path: Path) -> None:
    code, out = run("gerar", str(DOCS / "tim-edital-certidao.yaml"), "--ato", "3", "--formato", "pdf",
                    "-o", str(tmp_path))
    # the edital itself is dated its first publication (02/06) and states no notice yet; its certificate,
    # dated the newspaper's publication (03/06, § 3º), states both and the notice: both are final documents
    assert code == 0, out
    edital = document_text(tmp_path / "edital-notificacao-timoteo-mg-sim-2026-000189-ato-03.pdf")
    assert "Diário Oficial Eletrônico do Município de Timóteo, em 2 de junho de 2026" in edital
    assert "3 de junho" not in edital and "15 de junho" not in edital
    assert "é atestada na certidão de publicação deste edital" in edital
    text = document_text(tmp_path / "certidao-publicacao-edital-timoteo-mg-sim-2026-000189-ato-03.pdf")
    assert "em 2 de junho de 2026, no órgão oficial de imprensa" in text
    assert "em 3 de junho de 2026, em jornal de grande circulação local (Jornal Diário do Aço)" in text
    assert "Timóteo/MG, 3 de junho de 2026" in text
    # art. 21, § 3º: ten days after the publication (the later one, 03/06) → 13/06/2026 (Saturday) → 15/06 (Monday)
    assert "A notificação considerar-se-á feita em 15 de junho de 2026" in text  # dated 03/06, before it
    # art. 20, § 1º, V: defence in 15 dias corridos (the decree of the test official values) from 15/06 → 30/06/2026
    assert "até 30 de junho de 2026 (Lei nº 3.844/2022, art. 20, § 1º, V; prazo fixado no Decreto nº 118/2025" in text


SAMPLE_EDITAL = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000188-edital.yaml"
SAMPLE_EDITAL_STEM = "timoteo-mg-sim-2026-000188-ato-04"  # after the AR returned and the registers searched


@pytest.fixture(scope="module")
def sample_edital(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The edital act of the shipped Timóteo sample and its certidão, DOCX and PDF, generated once (the tests that
    read them are one xdist group)."""
    out = tmp_path_factory.mktemp("edital-amostra")
    generate(out, SAMPLE_EDITAL, "4", "ambos")  # the edital follows the AR and the search (art. 21, III, § 2º)
    return out


@pytest.mark.xdist_group("sample_edital")
@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_sample_edital_published_on_two_days_is_final_art_21_p3(sample_edital: Path, ext: str) -> None:
    # the shipped sample: official press on 02/06/2026 (Tuesday), local newspaper on 04/06/2026 (Thursday)
    tmp_path, stem = sample_edital, SAMPLE_EDITAL_STEM
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == f".{ext}") == [
        f"certidao-publicacao-edital-{stem}.{ext}", f"edital-notificacao-{stem}.{ext}"]  # final: no MINUTA
    edital = document_text(tmp_path / f"edital-notificacao-{stem}.{ext}")
    assert "Diário Oficial Eletrônico do Município de Timóteo, em 2 de junho de 2026" in edital
    assert "Timóteo/MG, 2 de junho de 2026" in edital  # dated its first publication
    assert "4 de junho" not in edital and "Jornal Diário do Aço" not in edital  # not known on 02/06
    assert "é atestada na certidão de publicação deste edital" in edital
    certidao = document_text(tmp_path / f"certidao-publicacao-edital-{stem}.{ext}")
    assert "em 2 de junho de 2026, no órgão oficial de imprensa" in certidao
    assert "em 4 de junho de 2026, em jornal de grande circulação local (Jornal Diário do Aço)" in certidao
    assert "Timóteo/MG, 4 de junho de 2026" in certidao
    # § 3º: ten days after the later publication (04/06) → 14/06/2026 (Sunday) → 15/06/2026 (Monday)
    assert "A notificação considerar-se-á feita em 15 de junho de 2026" in certidao  # dated 04/06, before it
    # art. 20, § 1º, V: defence in 15 dias corridos (the decree of the test official values) from 15/06 → 30/06/2026
    assert "até 30 de junho de 2026 (Lei nº 3.844/2022, art. 20, § 1º, V; prazo fixado no Decreto nº 118/2025" \
        in certidao


@pytest.mark.xdist_group("sample_edital")
def test_edital_and_certidao_docx_and_pdf_say_the_same(sample_edital: Path) -> None:
    """The edital de notificação and the certidão de publicação: each DOCX says what its PDF says (page headers
    and footers aside)."""
    docs = sorted(sample_edital.glob("*.docx"))
    assert len(docs) == 2
    for doc in docs:
        assert docx_pdf_differences(doc.read_bytes(), doc.with_suffix(".pdf").read_bytes()) == [], doc.name


def test_cuiaba_certificate_of_publication_by_analogy(tmp_path: Path) -> None:
    generate(tmp_path, DOCS / "cui-edital.yaml", "3")
    text = document_text(tmp_path / "certidao-publicacao-edital-cuiaba-mt-ccz-2026-0101-ato-03.pdf")
    # Lei 3.666/1997 is silent (art. 39): Lei 9.784/1999, art. 26, § 4º, by analogy — notified on the publication
    assert "Lei federal nº 9.784/1999, art. 26, § 4º (por analogia)" in text
    assert "Notificação considerada feita em 10 de julho de 2026" in text
    # Lei 9.784/1999, art. 44 (by analogy): defence in 10 dias corridos → 20/07/2026 (Monday)
    assert "até 20 de julho de 2026" in text and "art. 44, prazo das alegações, aplicado por analogia à defesa" in text


def test_edital_without_publications_has_no_certificate(tmp_path: Path) -> None:
    file = tmp_path / "p.yaml"
    text = FV_ED.read_text(encoding="utf-8")
    head, _, _rest = text.partition("    publicacoes:\n")
    file.write_text(head + "    data: 2026-09-03\n", encoding="utf-8")
    _code, out = run("gerar", str(file), "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert list((tmp_path / "out").glob("auto-de-infracao-*")), out  # the processo was generated
    assert not list((tmp_path / "out").glob("certidao-publicacao-*")), out


# --- 2. notificação da decisão ------------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_notice_of_the_appeal_decision_starts_art_80(tmp_path: Path, ext: str) -> None:
    generate(tmp_path, FV, "5", ext)
    text = document_text(tmp_path / f"notificacao-decisao-{FV_STEM}-ato-05.{ext}")
    # a company (a sociedade) in the feminine: NOTIFICADA (Lei 9.784/1999, art. 26, § 1º, I)
    assert "NOTIFICADA da Decisão de recurso nº D-12/2026, proferida em 20 de novembro de 2026" in text
    # art. 68 without the doubling: 30 UFM × R$ 156,1935 (2026, example value) = R$ 4.685,81, in the law's unit
    assert "REDUZIDA a multa para 30 (trinta) UFM, correspondentes a R$ 4.685,81" in text
    # Lei 9.784/1999, art. 26, § 1º (by analogy): the organ (I), the purpose (II), no appearance (III, IV), the
    # processo goes on regardless (V), the decision and where to read it (VI); no further appeal in the law
    assert "Órgão: Fiscalização Municipal, da Prefeitura Municipal de Ferraz de Vasconcelos" in text
    assert "Finalidade: Dar ciência ao notificado da Decisão de recurso nº D-12/2026" in text
    assert "Argumento 1 (A multa do Auto nº 112/2026 ainda está em recurso: não há reincidência): ACOLHIDO" in text
    assert "O inteiro teor da decisão — relatório, razões e dispositivo — acompanha esta notificação" in text
    assert "Esta notificação não exige comparecimento" in text
    assert "O processo prossegue independentemente de manifestação do notificado" in text
    assert "Esta decisão encerra a instância administrativa" in text
    assert "cópia do auto" not in text
    # art. 77, I: in person, on the date of the receipt (24/11/2026) — the notificação final of art. 80
    assert "Notificação considerada feita em 24 de novembro de 2026" in text
    # art. 80: 10 dias úteis from 24/11 (Tuesday): 25, 26, 27, 30/11, 1, 2, 3, 4, 7, 8/12 → 08/12/2026
    assert "até 8 de dezembro de 2026 (Lei nº 3.240/2015, art. 80)" in text
    assert "apresentar recurso" not in text.split("Todas as multas")[0]  # no further appeal after art. 79


def test_timoteo_notice_of_a_judgement_starts_appeal_and_payment(tmp_path: Path) -> None:
    generate(tmp_path, TIM, "5")
    text = document_text(tmp_path / f"notificacao-decisao-{TIM_STEM}-ato-05.pdf")
    assert "Decisão de primeira instância nº J-3/2026, proferida em 30 de outubro de 2026" in text
    assert "MANTIDA a multa" in text
    # Lei 9.784/1999, art. 59 (by analogy, art. 31, p.u., j): 10 dias corridos from 05/11 → 15/11 (Sunday,
    # Proclamação da República) → 16/11/2026 (Monday)
    assert "até 16 de novembro de 2026" in text and "art. 59, por analogia" in text
    # payment in 30 dias corridos, the term the regulation fixes (art. 31, p.u., j; the test decree) from 05/11 →
    # 05/12 (Saturday) → 07/12/2026 (Monday)
    assert "até 7 de dezembro de 2026 (Lei nº 3.844/2022, art. 31, parágrafo único, alínea j, que remete ao" in text


def test_cuiaba_notice_by_ar_of_a_judgement_knows_no_receipt_on_its_posting(tmp_path: Path) -> None:
    generate(tmp_path, CUI, "8")
    text = document_text(tmp_path / f"notificacao-decisao-{CUI_STEM}-ato-08.pdf")
    assert "Decisão de primeira instância nº DEC-CCZ-12/2026, proferida em 15 de setembro de 2026" in text
    assert "Carta postada em: 16 de setembro de 2026" in text
    # Lei 9.784/1999, art. 26, § 3º (by analogy): notified on the AR's receipt (21/09), unknown on 16/09 —
    # so the appeal (art. 59) and payment terms are stated without an end date
    assert "10 (dez) dias corridos" in text and "Notificação considerada feita" not in text
    for later in ("21 de setembro", "1º de outubro", "28 de setembro"):
        assert later not in text, later


def test_cuiaba_notice_of_the_appeal_decision_payment_by_analogy(tmp_path: Path) -> None:
    generate(tmp_path, CUI, "12")
    text = document_text(tmp_path / f"notificacao-decisao-{CUI_STEM}-ato-12.pdf")
    assert "Decisão de recurso nº DEC-CCZ-20/2026" in text and "MANTIDA a multa" in text
    # payment (EXEMPLO, art. 36): 30 dias corridos from 29/10 → 28/11 (Saturday) → 30/11/2026 (Monday)
    assert "até 30 de novembro de 2026" in text


def test_notice_of_a_cancelled_decision_states_nothing_to_pay(tmp_path: Path) -> None:
    text = FV.read_text(encoding="utf-8").replace("    resultado: reduzida\n    valor_base: \"30\"\n",
                                                  "    resultado: cancelada\n")
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    generate(tmp_path / "out", file, "5")
    doc = document_text(tmp_path / "out" / f"notificacao-decisao-{FV_STEM}-ato-05.pdf")
    assert "CANCELADO o auto de infração" in doc and "Não há multa a recolher." in doc
    assert "dezembro" not in doc
    assert not list((tmp_path / "out").glob("demonstrativo-*"))


# --- 3. protocolo of defesa/recurso -------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_protocol_of_a_timely_appeal_art_79(tmp_path: Path, ext: str) -> None:
    generate(tmp_path, FV, "3", ext)
    text = document_text(tmp_path / f"protocolo-{FV_STEM}-ato-03.{ext}")
    assert "Nº P-77/2026" in text
    assert "Recebido em 29 de outubro de 2026" in text and "contra a multa do Auto de Infração nº 260/2026" in text
    # the receipt records the date; whether the appeal came in time (art. 78) is for the deciding authority (Lei
    # 9.784/1999, art. 63, I, by analogy; choice protocolo-recebimento): the receipt rules on nothing
    assert "tempestivo" not in text.lower()
    assert "Este recibo atesta só a data do recebimento" in text
    # who received it, with the post and the competence (register of authorities)
    assert "Renata Alves Cardoso" in text and "Competência: Lei nº 3.240/2015, art. 79" in text
    # art. 79: the Prefeito decides in 30 dias corridos from receipt: 29/10 + 30 = 28/11 (Saturday) → 30/11/2026
    assert "Prazo para o Prefeito decidir o recurso" in text and "até 30 de novembro de 2026" in text
    assert "Lei nº 3.240/2015, art. 79" in text
    for later in ("20 de novembro", "D-12/2026", "1.500,00"):  # the decision is a later act
        assert later not in text, later


def test_ferraz_protocol_of_a_late_appeal_states_when_the_term_expired(tmp_path: Path) -> None:
    generate(tmp_path, FV_ED, "5")
    text = document_text(tmp_path / f"protocolo-{FV_ED_STEM}-ato-05.pdf")
    # art. 78 from the edital's notice (09/09, art. 77, III) → 21/09/2026; received 25/09: late, but the receipt
    # does not say so — the deciding authority does (Lei 9.784/1999, art. 63, I, by analogy)
    assert "Recebido em 25 de setembro de 2026" in text
    assert "intempestivo" not in text.lower() and "Não produz efeito" not in text
    assert "Prazo para o Prefeito decidir" not in text  # the timeline starts no term for a late preclusive act


def test_protocol_states_no_timeliness_the_timeline_could_not_count(tmp_path: Path) -> None:
    # an act the law does not provide for (Ferraz has no interdição, art. 69, § 2º) stops the deadlines from
    # being counted: the draft protocol says neither tempestivo nor intempestivo
    file = tmp_path / "p.yaml"
    file.write_text(FV.read_text(encoding="utf-8") + "  - {tipo: interdicao, data: 2026-11-25}\n", encoding="utf-8")
    code, out = run("gerar", str(file), "--ato", "3", "--minuta", "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert code == 0, out
    (pdf,) = (tmp_path / "out").iterdir()
    text = document_text(pdf)
    assert "Recebido em 29 de outubro de 2026" in text
    assert "tempestivo" not in text.lower()


def test_timoteo_protocol_of_a_late_defence(tmp_path: Path) -> None:
    generate(tmp_path, TIM, "3")
    text = document_text(tmp_path / f"protocolo-{TIM_STEM}-ato-03.pdf")
    assert "Recebida em 19 de outubro de 2026, sob o nº P-501/2026, a defesa" in text
    # art. 20, § 1º, V: 15 dias corridos (EXEMPLO) from the personal notice of 01/10 → 16/10/2026: late, which the
    # receipt does not say (only the deciding authority rules on timeliness)
    assert "intempestiv" not in text.lower() and "16 de outubro de 2026" not in text


def test_cuiaba_protocol_of_an_appeal_by_analogy(tmp_path: Path) -> None:
    generate(tmp_path, CUI, "9")
    text = document_text(tmp_path / f"protocolo-{CUI_STEM}-ato-09.pdf")
    assert "contra a Decisão de primeira instância nº DEC-CCZ-12/2026" in text
    # Lei 9.784/1999, art. 59 (by analogy): 10 days from the AR's receipt (21/09) → 01/10; received 28/09 — the
    # receipt records the date only
    assert "tempestivo" not in text.lower() and "Recebido em 28 de setembro de 2026" in text
    # art. 59, § 1º: decision in 30 dias corridos from receipt: 28/09 + 30 = 28/10/2026 (Wednesday; the
    # Dia do Servidor is moved to 30/10 in Cuiabá's 2026 calendar)
    assert "até 28 de outubro de 2026" in text


# --- 4. demonstrativo after a decision ----------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_statement_after_a_kept_fine_owes_only_the_fine_the_costs_paid_at_the_rescue(tmp_path: Path,
                                                                                             ext: str) -> None:
    # CCZ-2026/0077: the costs of the rescue (13,5 UPF, art. 11, § 3º) paid by DAM-5310/2026 (art. 11, § 2º); the
    # decision keeps the art. 36, I fine of 3 UPF × R$ 107,3327 = R$ 321,9981 → R$ 322,00: the amount due after the
    # decision is that, said the same in the decision box and in the total due; the 16,5 UPF of the auto's debt
    # is labelled as before the decision (Lei 3.666 art. 38: fine and costs apart)
    sample = ROOT / "samples" / "processos" / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"
    code, out = run("gerar", str(sample), "--ato", "7", "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    text = " ".join(document_text(tmp_path / f"demonstrativo-debito-cuiaba-mt-ccz-2026-0077-ato-07.{ext}").split())
    assert "Valor devido após a decisão: 3 (três) UPF, correspondentes a R$ 322,00" in text
    assert "Total devido: 3 (três) UPF, correspondentes a R$ 322,00" in text
    assert "débito do auto, antes da decisão".upper() in text.upper()
    assert "Valor devido após a decisão: R$ 1.770,99" not in text
    # the costs paid at the rescue are deducted from the auto's debt before what is due: 12,5 UPF = R$ 1.341,66
    # (3 UPF of the fine + 9,5 UPF of the art. 11, § 3º table for a horse retrieved on the 2nd day), less the
    # R$ 1.019,66 of DAM-5310/2026 (12/08/2026) = R$ 322,00, the fine
    assert "(–) Despesas já pagas (nº DAM-5310/2026, em 12 de agosto de 2026): R$ 1.019,66" in text
    assert "Saldo do débito do auto: R$ 322,00 (trezentos e vinte e dois reais)" in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_statement_of_a_reduced_fine_counts_from_the_later_notice(tmp_path: Path, ext: str) -> None:
    code, out = run("gerar", str(FV), "--ato", "4", "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"demonstrativo-debito-{FV_STEM}-ato-04.{ext}")
    assert "Decisão de recurso nº D-12/2026, proferida em 20 de novembro de 2026: REDUZIDA a multa." in text
    assert "Valor devido após a decisão: 30 (trinta) UFM, correspondentes a R$ 4.685,81" in text
    # art. 80: 10 dias úteis from the notificação final — the notice of this decision (24/11), a later act
    assert "Prazo para recolher a multa: 10 (dez) dias úteis" in text
    for later in ("24 de novembro", "8 de dezembro", "Notificação do auto"):
        assert later not in text, later


def test_timoteo_statement_after_a_judgement_that_keeps_the_fine(tmp_path: Path) -> None:
    code, out = run("gerar", str(TIM), "--ato", "4", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"demonstrativo-debito-{TIM_STEM}-ato-04.pdf")
    assert "Decisão de primeira instância nº J-3/2026, proferida em 30 de outubro de 2026: MANTIDA a multa." in text
    # art. 16, § 1º: payment (EXEMPLO) counted from the notice of the judgement, a later act (05/11)
    assert "Prazo para recolher a multa mantida ou reduzida: 30 (trinta) dias corridos" in text
    assert "5 de novembro" not in text and "dezembro" not in text


def test_decision_number_as_typed_in_the_heading(tmp_path: Path) -> None:
    generate(tmp_path, FV, "4")
    text = document_text(tmp_path / f"decisao-{FV_STEM}-ato-04.pdf")
    assert "DECISÃO DO RECURSO Nº D-12/2026 — Processo PM-FV 2026/005377" in text
    assert "Nº —" not in text


def test_an_act_without_number_prints_no_empty_number(tmp_path: Path) -> None:
    generate(tmp_path, FV, "5")
    text = document_text(tmp_path / f"notificacao-decisao-{FV_STEM}-ato-05.pdf")
    assert "NOTIFICAÇÃO DA DECISÃO DO RECURSO Processo PM-FV 2026/005377" in text and "Nº —" not in text


# --- 5. --ato ultimo -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["ultimo", "último", "ÚLTIMO"])
def test_ato_ultimo_generates_the_last_acts_documents(tmp_path: Path, word: str) -> None:
    code, out = run("gerar", str(FV), "--ato", word, "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    assert [p.name for p in tmp_path.iterdir()] == [f"notificacao-decisao-{FV_STEM}-ato-05.pdf"]


def test_ato_ultimo_without_a_document_exits_2(tmp_path: Path) -> None:
    file = tmp_path / "p.yaml"
    file.write_text(FV.read_text(encoding="utf-8")
                    + '  - {tipo: pagamento, data: 2026-12-01, valor: "1500.00"}\n', encoding="utf-8")
    code, out = run("--hoje", "2026-12-02", "gerar", str(file), "--ato", "ultimo", "-o", str(tmp_path / "out"))
    assert code == 2 and "o ato 6 (pagamento) não tem documento a gerar" in out
    code, out = run("gerar", str(FV), "--ato", "penúltimo", "-o", str(tmp_path / "out"))
    assert code == 2 and "nem 'ultimo'" in out
    assert not (tmp_path / "out").exists()


# --- the documents and the clerk's timeline say the same ------------------------------------------------------


def test_documents_state_the_ends_autos_prazos_shows(tmp_path: Path) -> None:
    code, out = run("prazos", str(FV), "--json")
    assert code == 0, out
    ends = {(p["id"], p["iniciado_por"]): p["fim"] for p in json.loads(out)["prazos"]}
    generate(tmp_path, FV, "3")
    generate(tmp_path, FV, "5")
    protocol = document_text(tmp_path / f"protocolo-{FV_STEM}-ato-03.pdf")
    notice = document_text(tmp_path / f"notificacao-decisao-{FV_STEM}-ato-05.pdf")
    # the decision term the protocol (act 3, index 2) states is the one the timeline runs (art. 79)
    assert f"até {ptbr.format_date(date.fromisoformat(ends[('decisao_recurso_art79', 2)]))}" in protocol
    # the payment term the notice of the decision (act 5, index 4) states is the timeline's (art. 80)
    assert f"até {ptbr.format_date(date.fromisoformat(ends[('pagamento_art80', 4)]))}" in notice
