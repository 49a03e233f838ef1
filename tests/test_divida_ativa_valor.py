"""The amount inscribed in dívida ativa is the debt the processo computes: the fine
in force — the auto's, or the one the last decision set — to the cent. The samples that end in dívida ativa inscribe
it (hand-worked below); the invalid fixtures give DIVIDA-ATIVA-VALOR with the words of the finding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT, SAMPLES, expected_finding

FIXTURES = DATA / "divida_ativa"
EXPECT: dict[str, list[dict[str, Any]]] = yaml.safe_load((FIXTURES / "expectations.yaml").read_text(encoding="utf-8"))


def findings(file: Path) -> list[dict[str, Any]]:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", "validar", "--json",
                                       str(file)])
    found: list[dict[str, Any]] = json.loads(result.stdout)[0]["achados"]
    return found


def test_every_fixture_has_its_expectation() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.yaml") if p.name != "expectations.yaml") == sorted(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_inscription_of_another_amount_is_refused(name: str) -> None:
    found = findings(FIXTURES / name)
    for exp in EXPECT[name]:
        match = expected_finding(found, exp)
        assert match["severidade"] == "erro"


# The samples, by hand:
# - fv-2026-0388 (Ferraz, art. 4º): 350 m² × 5 UFM ÷ 100 m² = 17,5 UFM (in proportion: choice
#   fracao-proporcional); × R$ 156,1935 (2026, example) = R$ 2.733,38625 → R$ 2.733,39. It inscribed R$ 1.800,00
#   before.
# - ccz-2026-0090 (Cuiabá, art. 36, I, leve): 3 UPF × R$ 107,3327 = R$ 321,9981 → R$ 322,00 (half up). It inscribed
#   R$ 321,99 before (and cited art. 6º, animal solto, for 14 dogs in a house: art. 28 is the provision).
# - sim-2026-000157 (Timóteo, art. 16, II): 800 UPFMT × R$ 5,077 = R$ 4.061,60, kept on appeal.
@pytest.mark.parametrize(("sample", "valor"), [
    ("ferraz-de-vasconcelos-sp/fv-2026-0388-divida-ativa.yaml", "2733.39"),
    ("cuiaba-mt/ccz-2026-0090-divida-ativa.yaml", "322.00"),
    ("timoteo-mg/sim-2026-000157-divida-ativa.yaml", "4061.60"),
])
def test_samples_inscribe_the_debt_they_compute(sample: str, valor: str) -> None:
    file = SAMPLES / "processos" / sample
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    (act,) = [a for a in data["atos"] if a["tipo"] == "inscricao_divida_ativa"]
    assert str(act["valor"]) == valor
    found = findings(file)
    assert not [f for f in found if f["severidade"] == "erro"], found
