"""The decision document (julgamento, decisão do recurso) of a processo act, as of its date, checked by the
extracted text (pypdf, python-docx): the defence or appeal it decides (protocol date, tempestivo or
intempestivo as the timeline says), the result, the authority and what follows — and nothing after its date.
Expected values are worked out by hand from the statutes (articles named at each assertion)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT
from .textutil import document_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_processo_decisao")

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
DOCS = DATA / "processo" / "documentos"
FV = DOCS / "fv-decisao-recurso.yaml"
TIM = DOCS / "tim-julgamento.yaml"
FV_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-005377"
TIM_STEM = "timoteo-mg-sim-2026-000201"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def ferraz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("decisao-fv")
    code, text = run("gerar", str(FV), "-o", str(out))
    assert code == 0, text
    return out


def _variant(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    file = tmp_path / source.name
    file.write_text(text.replace(old, new), encoding="utf-8")
    return file


def test_decision_act_has_its_document_and_the_later_notice_its_own(ferraz: Path) -> None:
    names = sorted(p.name for p in ferraz.iterdir())
    assert f"decisao-{FV_STEM}-ato-04.pdf" in names and f"decisao-{FV_STEM}-ato-04.docx" in names
    # the notice of the decision is a document of its own act (5), not part of the decision's (4)
    assert [n for n in names if "ato-05" in n] == [f"notificacao-decisao-{FV_STEM}-ato-05.docx",
                                                   f"notificacao-decisao-{FV_STEM}-ato-05.pdf"]


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_decision_on_appeal_reduces_the_fine_as_of_its_date(ferraz: Path, ext: str) -> None:
    text = document_text(ferraz / f"decisao-{FV_STEM}-ato-04.{ext}")
    assert "DECISÃO DO RECURSO" in text
    assert "D-12/2026" in text and "20 de novembro de 2026" in text
    assert "Processo Administrativo nº PM-FV 2026/005377" in text
    assert "Auto de Infração nº 260/2026, lavrado em 16 de outubro de 2026" in text
    # art. 78: 10 dias corridos from the AR's receipt (22/10/2026, art. 77, II) → the appeal of 29/10 is on time
    assert "Recurso nº P-77/2026 protocolado em 29 de outubro de 2026, tempestivo" in text
    # art. 68: 30 UFM, "em dobro em caso de reincidência" — the reincidência set aside, 30 UFM × R$ 156,1935
    # (UFM of 2026, example value of the rules) = R$ 4.685,805 → R$ 4.685,81; the amount in the law's unit
    assert "REDUZIDA a multa para 30 (trinta) UFM, correspondentes a R$ 4.685,81" in text
    # the appeal partly granted: the decision on it says so before what follows (Lei 9.784/1999, art. 64, by analogy:
    # the deciding organ confirms, modifies, annuls or revokes the decision "total ou parcialmente")
    assert "conhecido o recurso, DÁ-SE-LHE PARCIAL PROVIMENTO: MANTIDO o auto de infração e REDUZIDA" in text
    # Lei 9.784/1999, art. 50 (by analogy): each argument of the appeal answered with facts and grounds
    assert "Argumento 1 — A multa do Auto nº 112/2026 ainda está em recurso: não há reincidência: ACOLHIDO" in text
    assert "Fundamentos: A dobra do art. 68 pressupõe reincidência" in text
    # art. 79 and its sole paragraph: the Prefeito, or the Secretário de Segurança by delegation — the decision
    # says it is taken by delegation and cites the published decree (Lei 9.784/1999, art. 14, § 3º, by analogy)
    assert "Lei nº 3.240/2015, art. 79, parágrafo único" in text
    assert "Joaquim Pereira Lima Secretário Municipal de Segurança" in text
    assert "Decide por delegação do Prefeito Municipal" in text and "Decreto nº 7.015/2025" in text
    # no further appeal in the law (arts. 78 and 79): the instance is closed
    assert "Esta decisão encerra a instância administrativa" in text
    # art. 80: 10 dias úteis from the notificação final — the notice of this decision, a later act
    assert "10 (dez) dias úteis" in text and "Lei nº 3.240/2015, art. 80" in text
    # the notice of 24/11/2026 and the payment's end (10 business days from it, in December) are unknown on 20/11
    # (the footer's "gerado em DD/MM/AAAA HH:MM por autos" is the clock of the run, not a date of the processo)
    facts = re.sub(r"\d{2}/\d{2}/\d{4} \d{2}:\d{2} por autos", "", text)
    for later in ("24 de novembro", "24/11/2026", "dezembro de 2026", "/12/2026"):
        assert later not in facts, later


def test_appeal_decision_cancelling_the_fine_states_no_payment_term(tmp_path: Path) -> None:
    file = _variant(tmp_path, FV, "    resultado: reduzida\n    valor_base: \"30\"\n", "    resultado: cancelada\n")
    file.write_text(file.read_text(encoding="utf-8").split("  - {tipo: notificacao_pessoal, data: 2026-11-24")[0],
                    encoding="utf-8")
    code, out = run("gerar", str(file), "--ato", "4", "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert code == 0, out
    text = document_text(tmp_path / "out" / f"decisao-{FV_STEM}-ato-04.pdf")
    assert "DÁ-SE-LHE PROVIMENTO: CANCELADO o auto de infração e a multa dele decorrente" in text
    assert "Prazo para recolher a multa" not in text  # art. 80 applies to a fine still due


def test_missing_authority_is_a_finding_citing_art_79_and_refuses_the_document(tmp_path: Path) -> None:
    file = _variant(tmp_path, FV, "    autoridade: Joaquim Pereira Lima, Secretário Municipal de Segurança\n", "")
    code, out = run("gerar", str(file), "--ato", "4", "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert code == 1, out
    assert "FER-79-AUTORIDADE" in out and "art. 79, parágrafo único" in out
    assert not (tmp_path / "out" / f"decisao-{FV_STEM}-ato-04.pdf").exists()
    code, out = run("gerar", str(file), "--ato", "4", "--formato", "pdf", "--minuta", "-o", str(tmp_path / "m"))
    assert code == 0, out
    assert "[NÃO INFORMADO]" in document_text(tmp_path / "m" / f"decisao-{FV_STEM}-ato-04-MINUTA.pdf")


def test_reduced_without_the_new_amount_is_a_finding(tmp_path: Path) -> None:
    file = _variant(tmp_path, FV, "    valor_base: \"30\"\n", "")
    code, out = run("gerar", str(file), "--ato", "4", "--formato", "pdf", "-o", str(tmp_path / "out"))
    assert code == 1, out
    assert "FER-DEC-VALOR" in out and "REDUCAO-EM-REAIS" in out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_judgement_of_a_late_defence(tmp_path: Path, ext: str) -> None:
    code, out = run("gerar", str(TIM), "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"decisao-{TIM_STEM}-ato-04.{ext}")
    assert "Decisão de primeira instância nº J-3/2026, proferida em 30 de outubro de 2026" in text
    # art. 20, § 1º, V (15 dias corridos, EXEMPLO of the rules) from the personal notice of 01/10/2026 → 16/10
    assert ("Defesa nº P-501/2026 protocolada em 19 de outubro de 2026, INTEMPESTIVA: o prazo venceu em "
            "16 de outubro de 2026.") in text
    assert "MANTIDA a multa" in text
    # the law leaves the procedure to the regulation (art. 31, p.u., j): Lei 9.784/1999 by analogy
    assert "por analogia" in text and "art. 31, parágrafo único, alínea j" in text
    # the first instance is judged by the Coordenadora do SIM (art. 5º, V, and art. 6º, p.u.; choice
    # julgamento-primeira-instancia), and a late defence is not known by the deciding authority
    assert "Dra. Mariana Lopes Ferreira" in text and "não conhecida a defesa, por intempestiva" in text
    assert "DECIDE-SE: MANTIDO" in text  # a defence is not granted or refused: the auto is judged
    for later in ("5 de novembro", "05/11/2026"):  # the notice of the judgement is a later act
        assert later not in text, later


def test_cuiaba_decision_on_appeal_by_analogy(tmp_path: Path) -> None:
    # act 11 also has a debit statement, refused here (the auto proposes no penalty): the decision is written
    run("gerar", str(DOCS / "cui-decisao-recurso.yaml"), "--ato", "11", "--formato", "pdf", "-o", str(tmp_path))
    text = document_text(tmp_path / "decisao-cuiaba-mt-ccz-2026-0077-ato-11.pdf")
    assert "Decisão de recurso nº DEC-CCZ-20/2026, proferida em 26 de outubro de 2026" in text
    # Lei 9.784/1999, art. 59, by analogy: 10 days from the AR's receipt of the judgement (21/09) → 01/10/2026
    assert "Recurso nº PROT-CCZ-60/2026 protocolado em 28 de setembro de 2026, tempestivo" in text
    assert "MANTIDA a multa" in text and "por analogia" in text and "Lei nº 3.666/1997, art. 39" in text
    assert "conhecido o recurso, NEGA-SE-LHE PROVIMENTO: MANTIDO o auto de infração" in text  # art. 64, by analogy
    # the Centro de Controle de Zoonoses is an organ of the Fundação de Saúde de Cuiabá (art. 2º): its President
    # decides the appeal (choice recurso-fundacao; Lei 9.784/1999, art. 56, § 1º, by analogy)
    assert "Eduardo Martins Leite Presidente da Fundação de Saúde de Cuiabá" in text
    assert "29 de outubro" not in text and "29/10/2026" not in text  # the notice of the decision is later
    # Lei 9.784/1999, art. 56, § 1º, by analogy: the appeal reached the President through the despacho of the
    # authority that judged, which did not reconsider (act 10, dated before this decision)
    assert "não a reconsiderou e encaminhou o recurso" in text and "DESP-CCZ-" in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_despacho_does_not_reconsider_and_forwards_the_appeal_lei9784_art56_p1(tmp_path: Path, ext: str) -> None:
    code, out = run("gerar", str(DOCS / "cui-decisao-recurso.yaml"), "--ato", "10", "--formato", ext, "-o",
                    str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"despacho-encaminhamento-cuiaba-mt-ccz-2026-0077-ato-10.{ext}")
    # the appeal received (its protocol of 28/09/2026) against the judgement of 15/09/2026 it contests
    assert "Recebido o Recurso nº PROT-CCZ-60/2026, protocolado em 28 de setembro de 2026" in text
    assert "contra a Decisão de primeira instância nº DEC-CCZ-12/2026, proferida em 15 de setembro de 2026" in text
    # art. 56, § 1º: the authority that gave the decision does not reconsider it and forwards the appeal upwards —
    # in Cuiabá to the President of the Fundação de Saúde, of which the Centro is an organ (art. 2º; recurso-fundacao)
    assert "NÃO A RECONSIDERA" in text and "ENCAMINHA o recurso ao Presidente da Fundação de Saúde de Cuiabá" in text
    assert "Lei federal nº 9.784/1999, art. 56, § 1º, por analogia" in text
    assert "Razões da não reconsideração".upper() in text.upper() and "não traz fato nem prova" in text
    # signed by the Coordenadora do CCZ, who judged (art. 3º, IV; choice julgamento-primeira-instancia)
    assert "Coordenadora do Centro de Controle de Zoonoses" in text and "art. 3º, inciso IV" in text
    assert "26 de outubro" not in text  # the decision on the appeal is a later act


def test_validar_checks_the_decision_document(tmp_path: Path) -> None:
    file = _variant(tmp_path, FV, "    autoridade: Joaquim Pereira Lima, Secretário Municipal de Segurança\n", "")
    code, out = run("validar", str(file))
    assert code == 1, out
    assert "FER-79-AUTORIDADE" in out and "Decisão do Recurso de 20/11/2026" in out
    code, out = run("validar", str(FV))
    assert code == 0, out
