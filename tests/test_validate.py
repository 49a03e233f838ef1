"""Validator findings, data-driven from tests/data/findings (expected codes and lines by hand)."""

from __future__ import annotations

import pytest
import yaml

from autos.app.generation.pipeline import Autos

from .conftest import CASOS, DATA, ROOT, TODAY

FINDINGS = DATA / "findings"
EXPECT = yaml.safe_load((FINDINGS / "expectations.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_findings(autos: Autos, name: str) -> None:
    report = autos.check(autos.load(FINDINGS / name))
    for exp in EXPECT[name]:
        matches = [f for f in report.findings if f.codigo == exp["codigo"] and f.linha == exp["linha"]]
        assert matches, f"{exp['codigo']} at line {exp['linha']} not in {[f.render() for f in report.findings]}"
        text = matches[0].render()
        for words in exp["contem"]:
            assert words in text, f"{words!r} not in {text!r}"
        assert matches[0].severidade == exp.get("severidade", "erro")


# Lei 3.844/2022, art. 20, § 1º: every inciso missing from the incomplete sample is named.
INCOMPLETE_EXPECTED = {
    "TIM-20-1-I": "inciso I",
    "TIM-20-1-I-PJ": "inciso I",
    "TIM-20-1-II": "inciso II",
    "TIM-20-1-III": "inciso III",
    "TIM-20-1-IV": "inciso IV",
    "TIM-20-1-VI": "inciso VI",
    "TIM-20-1-VII": "inciso VII",
    "TIM-6-VET": "art. 6º",
}


def test_incomplete_sample_names_every_missing_art20_element(autos: Autos) -> None:
    report = autos.validate(CASOS / "pendentes" / "timoteo-auto-incompleto.yaml")
    codes = {f.codigo: f for f in report.errors}
    for code, inciso in INCOMPLETE_EXPECTED.items():
        assert code in codes, f"{code} missing from {sorted(codes)}"
        assert inciso in (codes[code].citacao or "")
        assert codes[code].linha is not None


@pytest.mark.parametrize("sample", ["auto-pj-completo.yaml", "auto-pf-recusa-testemunha.yaml"])
def test_complete_samples_have_no_errors(autos: Autos, sample: str) -> None:
    report = autos.validate(CASOS / "timoteo-mg" / sample)
    assert report.ok, [f.render() for f in report.errors]
    assert not any(f.codigo == "VALOR-EXEMPLO" for f in report.warnings)  # the official UPFMT of the test values


@pytest.mark.parametrize("sample", ["auto-pj-completo.yaml", "auto-pf-recusa-testemunha.yaml"])
def test_the_example_fiscal_unit_value_is_always_flagged(sample: str, shipped_examples: None) -> None:
    report = Autos(ROOT / "rules", ROOT / "templates", today=TODAY).validate(CASOS / "timoteo-mg" / sample)
    assert report.ok, [f.render() for f in report.errors]
    assert any(f.codigo == "VALOR-EXEMPLO" for f in report.warnings)
