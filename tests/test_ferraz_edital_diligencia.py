"""Ferraz de Vasconcelos (Lei nº 3.240/2015), art. 76, III: "por edital, com prazo de 5 (cinco) dias corridos, se
desconhecido o domicílio fiscal do infrator". An AR returned "mudou-se" (or "desconhecido",
"endereço insuficiente"…) shows the infractor is not at the letter's address, not that the domicile is unknown. The
rules record what the municipality must try first (choice edital-domicilio-desconhecido, printed), the processo
records it (act 'diligencia' after the return), `autos validar` refuses an edital that follows only the return, and
`autos publicar-editais` does not publish it. Valid fixtures validate; invalid ones give the finding with its words."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT, expected_finding

FIXTURES = DATA / "ferraz_edital"
VALID = sorted(p.name for p in (FIXTURES / "validos").glob("*.yaml"))
EXPECT: dict[str, list[dict[str, Any]]] = yaml.safe_load(
    (FIXTURES / "invalidos" / "expectations.yaml").read_text(encoding="utf-8"))
STATUTE = ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt"
SAMPLE = ROOT / "samples" / "editais" / "pm-fv-2026-006002-ar-mudou-se.yaml"


def run(*args: str, hoje: str = "2026-11-30") -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
                                       "--hoje", hoje, *args])
    return result.exit_code, result.output


def findings(file: Path) -> list[dict[str, Any]]:
    _code, out = run("validar", "--json", str(file))
    found: list[dict[str, Any]] = json.loads(out)[0]["achados"]
    return found


def test_the_statute_admits_the_edital_only_for_an_unknown_domicile_art76_iii() -> None:
    text = " ".join(STATUTE.read_text(encoding="utf-8").split())
    assert ("III- por edital, com prazo de 5 (cinco) dias corridos, se desconhecido o domicílio fiscal do infrator."
            in text)


def test_every_invalid_fixture_has_its_expectation() -> None:
    assert sorted(p.name for p in (FIXTURES / "invalidos").glob("*.yaml") if p.name != "expectations.yaml") == \
        sorted(EXPECT)


@pytest.mark.parametrize("name", VALID)
def test_ferraz_art76_iii_valid_fixture_has_no_error(name: str) -> None:
    errors = [f for f in findings(FIXTURES / "validos" / name) if f["severidade"] == "erro"]
    assert not errors, errors


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_ferraz_art76_iii_edital_after_a_returned_ar_without_the_search_is_refused(name: str) -> None:
    found = findings(FIXTURES / "invalidos" / name)
    for exp in EXPECT[name]:
        match = expected_finding(found, exp)
        assert match["severidade"] == "erro"
        assert match["citacao"] == "Lei nº 3.240/2015, art. 76, inciso III"


def test_ferraz_art76_iii_the_rules_print_what_must_be_tried_first_and_the_search_act() -> None:
    code, out = run("regras", "mostrar", "ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "edital-domicilio-desconhecido" in flat
    assert "consultar o cadastro imobiliário e mobiliário do Município" in flat
    assert ("[EDITAL-SEM-DILIGENCIA] Lei nº 3.240/2015, art. 76, inciso III — a carta devolvida mostra que o infrator "
            "não está no endereço dela, não que o seu domicílio seja desconhecido") in flat
    assert ("(ato anterior 'diligencia' (diligência de localização do domicílio), registrado depois da última "
            "devolução do AR; escolha edital-domicilio-desconhecido)") in flat
    assert ("[EDITAL-SEM-TENTATIVA] Lei nº 3.240/2015, art. 76, inciso III" in flat
            and "só se o processo conhece o endereço do autuado" in flat)


def test_ferraz_art76_iii_publisher_refuses_the_edital_until_the_search_is_recorded(tmp_path: Path) -> None:
    folder = tmp_path / "editais"
    folder.mkdir()
    src = SAMPLE.read_text(encoding="utf-8")
    without = src[:src.index("  - tipo: diligencia")]
    (folder / "sem-diligencia.yaml").write_text(without, encoding="utf-8")
    shutil.copy(SAMPLE, folder / "com-diligencia.yaml")
    code, out = run("publicar-editais", str(folder), "--data", "2026-10-06", "-o", str(tmp_path / "out"),
                    "--dry-run", hoje="2026-10-06")
    assert code == 1, out  # one case refused
    flat = " ".join(out.split())
    assert "com 1 caso: auto 302/2026" in flat  # the count agrees with its noun (base/ptbr.count_noun)
    refusal = next(x for x in out.splitlines() if x.startswith("recusado:") and "sem-diligencia.yaml" in x)
    for words in ("'Mudou-se'", "não que o seu domicílio seja desconhecido", "art. 76, inciso III",
                  "edital-domicilio-desconhecido", "o ato 'diligencia'"):
        assert words in refusal, (words, refusal)
