"""What the sample processos' documents state of the facts the law asks for, read from their extracted text (pypdf,
python-docx): the notice before the infraction says only what was found that day, the edital says which attempts
failed, an absent autuado has no signature line, the appeal decision's notice states what it decided of the
suspension, and the notified is named in the right gender."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES
from .textutil import document_text, fold

# one worker generates these documents once (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_samples_state_the_facts")

PROCESSOS = SAMPLES / "processos"
FV = "ferraz-de-vasconcelos-sp"
CHOSEN = [PROCESSOS / FV / "fv-2026-0388-divida-ativa.yaml", PROCESSOS / FV / "pm-fv-2026-005102-edital.yaml",
          PROCESSOS / FV / "pm-fv-2026-005377-ruido-bar.yaml", PROCESSOS / "timoteo-mg" / "sim-2026-000188-edital.yaml",
          PROCESSOS / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"]
BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fatos")
    result = CliRunner().invoke(main, [*BASE, "gerar", *map(str, CHOSEN), "-o", str(out), "--processos", "1"])
    assert result.exit_code == 0, result.output
    return out


def _texts(out: Path, stem: str) -> list[str]:
    files = [out / f"{stem}.pdf", out / f"{stem}.docx"]
    assert all(f.exists() for f in files), stem
    return [fold(document_text(f)) for f in files]


def test_preliminary_notice_states_only_what_was_found_on_its_day_ferraz_art4(generated: Path) -> None:
    # art. 4º: the notice orders the cleaning in 30 days; not answered, the auto follows — the inspection of
    # 06/07/2026 that found the land unchanged is the auto's fact, not the notice's of 01/06/2026
    for text in _texts(generated, "notificacao-preliminar-ferraz-de-vasconcelos-sp-fv-2026-0388-ato-01"):
        assert "constatado em 01/06/2026, às 10h15" in text
        assert "06/07/2026" not in text and "não o fez" not in text
    for text in _texts(generated, "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0388-ato-02"):
        assert "Na vistoria de 06/07/2026" in text


@pytest.mark.parametrize(("stem", "expected"), [
    # Ferraz art. 76, III: the edital only "se desconhecido o domicílio fiscal": the AR that came back and the search
    ("edital-notificacao-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04",
     ["Notificação por AR nº AR-248/2026, postada em 23 de setembro de 2026, devolvida sem entrega em 30 de setembro "
      "de 2026, motivo: “Mudou-se”.", "Diligência de localização do domicílio, em 2 de outubro de 2026"]),
    # Timóteo art. 21, III: "por edital, se estiver em local incerto ou desconhecido"
    ("edital-notificacao-timoteo-mg-sim-2026-000188-ato-04",
     ["Notificação por AR nº AR-24/2026, postada em 13 de maio de 2026, devolvida sem entrega em 28 de maio de 2026",
      "Diligência de localização do autuado, em 29 de maio de 2026"]),
])
def test_edital_states_the_attempts_that_failed_before_it(generated: Path, stem: str, expected: list[str]) -> None:
    for text in _texts(generated, stem):
        assert "TENTATIVAS DE NOTIFICAÇÃO ANTERIORES AO EDITAL" in text.upper()
        for words in expected:
            assert words in text, words


def test_absent_autuado_has_no_signature_line(generated: Path) -> None:
    # Timóteo art. 20, § 3º (no contradiction in the auto): absent at the lavratura, nobody signs as the autuado
    for text in _texts(generated, "auto-de-infracao-timoteo-mg-sim-2026-000188-ato-01"):
        assert "Autuado ausente no ato da lavratura" in text
        assert "Gilberto Antunes Rocha Autuado" not in text and "— Autuado" not in text
        assert not text.rstrip().endswith("Autuado")


def test_appeal_decision_notice_states_what_was_decided_of_the_suspension_ferraz_art69_p2(generated: Path) -> None:
    # Lei 9.784/1999, art. 26, § 1º, VI, by analogy: the notice states what the decision decided — the suspension too
    for text in _texts(generated, "notificacao-decisao-ferraz-de-vasconcelos-sp-pm-fv-2026-005377-ato-05"):
        assert "Mantida também a suspensão da atividade do estabelecimento por 30 (trinta) dias" in text
        assert "NOTIFICADA da Decisão de recurso" in text  # a company (a sociedade): feminine


def test_a_woman_is_notified_in_the_feminine(generated: Path) -> None:
    # Lei 9.784/1999, art. 26, § 1º, I (the notified correctly identified): Cláudia, tratamento: senhora
    for text in _texts(generated, "notificacao-decisao-cuiaba-mt-ccz-2026-0077-ato-08"):
        assert "Cláudia Fernandes Lima (CPF 736.204.815-71) NOTIFICADA" in text
