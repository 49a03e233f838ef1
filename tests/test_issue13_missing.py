"""Issue 13, the provisions the legal review found missing from the documents (items 8, 9, 11–16), each read
against the statute texts (../shared/statutes/) and checked in the generated documents by their extracted text
(pypdf, python-docx). The article each test checks is quoted in its name or comment."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES
from .textutil import document_text

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
CUI = SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-0090-divida-ativa.yaml"
CUI_STEM = "cuiaba-mt-ccz-2026-0090"
FV = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0412-recurso-pago.yaml"
FV_STEM = "ferraz-de-vasconcelos-sp-fv-2026-0412"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def act_text(tmp_path: Path, file: Path, ato: str, name: str, ext: str = "pdf") -> str:
    code, out = run("gerar", str(file), "--ato", ato, "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    return document_text(tmp_path / f"{name}.{ext}")


# --- item 8: Cuiabá, Lei nº 3.666/1997 — the law is silent on defence and appeal (art. 39 leaves the rest to a
# regulation); the Constitution's art. 5º, LV, guarantees both, and the rules adopt Lei federal nº 9.784/1999
# by analogy: defence in 10 days of the notice (art. 44), appeal in 10 days of the notice of the decision
# (art. 59), addressed to the authority that decided, which forwards it to its superior (art. 56, § 1º).


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_auto_states_defence_and_appeal_by_analogy_cf_art_5_lv(tmp_path: Path, ext: str) -> None:
    text = act_text(tmp_path, CUI, "1", f"auto-de-infracao-{CUI_STEM}-ato-01", ext)
    # the defence term of the rite (lei-3666-1997.processo.yaml), as every auto states its terms
    assert "Prazo para apresentar defesa contra o auto de infração: 10 (dez) dias corridos" in text
    assert "Lei federal nº 9.784/1999, art. 44 (por analogia" in text
    # the appeal: its term and the authority it is addressed to
    assert "10 (dez) dias contados da ciência da decisão" in text
    assert "dirigido à autoridade que proferiu a decisão" in text and "autoridade superior" in text
    assert "art. 56, § 1º" in text and "art. 59" in text
    assert "Constituição Federal, art. 5º, LV" in text


def test_cuiaba_choice_of_the_analogy_is_recorded_and_shown() -> None:
    code, out = run("regras", "mostrar", "cuiaba-mt/lei-3666-1997")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "defesa-e-recurso-por-analogia" in flat
    assert "Constituição Federal, art. 5º, LV" in flat and "art. 56, § 1º" in flat


# --- item 9: Ferraz, Lei nº 3.240/2015, art. 79: "O recurso será dirigido ao Prefeito, que terá o prazo de 30
# (trinta) dias corridos, contados do seu recebimento, para proferir sua decisão."


@pytest.mark.parametrize(("ato", "name"), [("1", f"auto-de-infracao-{FV_STEM}-ato-01"),
                                           ("5", f"demonstrativo-debito-{FV_STEM}-ato-05")])
def test_ferraz_auto_and_statement_state_the_appeal_to_the_prefeito_art_79(tmp_path: Path, ato: str,
                                                                            name: str) -> None:
    text = act_text(tmp_path, FV, ato, name)
    assert "O recurso será dirigido ao Prefeito" in text
    assert "30 (trinta) dias corridos, contados do seu recebimento" in text
    assert "(Lei nº 3.240/2015, art. 79)" in text
    # art. 79, parágrafo único: the delegation by decree to the Secretário Municipal de Segurança
    assert "Secretário Municipal de Segurança" in text
