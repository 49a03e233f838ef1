"""The grade of each finding (nulidade, vício sanável, estilo) is data: rules/achados.yaml and
rules/<municipio>/achados.yaml. Every code the checks can emit has one, each with its ground; the reports put
nullity first (Lei federal nº 9.784/1999, arts. 50, 53 and 55, por analogia: a void act is annulled, a curable
defect convalidated)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main
from autos.errors import RulesError
from autos.rules.grades import load_grades

from .conftest import ROOT, SAMPLES

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
SRC = ROOT / "src" / "autos"
TABLE = load_grades(ROOT / "rules")

#: upper-case string literals of the scanned modules that are not finding codes (names, acronyms)
NOT_CODES = {"ACOLHIDO", "REJEITADO", "CNPJ", "CRMV", "COLUMNS", "DECIDE-SE", "DECISIONS", "NFKD", "PAPEIS", "RECEIPTS",
             "RIISPOA", "TEXTO", "WEEKDAYS", "XVII"}
CODE_LITERAL = re.compile(r'"([A-Z][A-Z0-9]{3,}(?:-[A-Z0-9]+)*)"')


def _verify_json(folder: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*BASE, "verificar", "--json", "--sem-registro", str(folder)])
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _codes_in_source() -> set[str]:
    found: set[str] = set()
    for layer in ("checks", "compute", "app", "processo", "documents"):
        for file in (SRC / layer).rglob("*.py"):
            found |= set(CODE_LITERAL.findall(file.read_text(encoding="utf-8")))
    return found - NOT_CODES


def _codes_in_rules() -> set[str]:
    found: set[str] = set()

    def walk(x: Any, parent: str | None) -> None:
        if isinstance(x, dict):
            if parent in ("elementos", "pressupostos") and isinstance(x.get("codigo"), str):
                found.add(x["codigo"])
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, parent)

    for file in (ROOT / "rules").glob("*/lei-*.yaml"):
        walk(yaml.safe_load(file.read_text(encoding="utf-8")), None)
    return found


def test_every_code_literal_of_the_checks_has_a_grade() -> None:
    codes = _codes_in_source()
    assert {"IMPEDIMENTO", "COMPETENCIA-AUSENTE", "CAMPO-FALTANDO", "INTEMPESTIVO"} <= codes  # the scan works
    assert sorted(c for c in codes if TABLE.get(c) is None) == []


def test_every_requirement_and_precondition_code_of_the_rules_has_a_grade() -> None:
    codes = _codes_in_rules()
    assert {"TIM-20-1-IV", "EDITAL-SEM-TENTATIVA", "FER-79-AUTORIDADE"} <= codes
    assert sorted(c for c in codes if TABLE.get(c) is None) == []


@pytest.mark.parametrize("folder", ["verificacao", "pendentes", "processos"])
def test_every_code_emitted_over_the_samples_has_a_grade(folder: str) -> None:
    data = _verify_json(SAMPLES / folder)
    emitted = {(a["codigo"], a["grau"]) for c in data["casos"] for a in c["achados"]}
    emitted |= {(a["codigo"], a["grau"]) for a in data["entre_processos"]}
    assert emitted
    assert sorted(code for code, grau in emitted if grau is None) == []
    assert all(TABLE.get(code) is not None and TABLE.get(code).grau == grau for code, grau in emitted)  # type: ignore[union-attr]


def test_every_grade_has_its_ground() -> None:
    assert all(e.fundamento.strip() for e in TABLE.entries.values())
    assert {e.grau for e in TABLE.entries.values()} == {"nulidade", "vicio_sanavel", "estilo"}


# --- one sample per grade (samples/verificacao/README.md) ---------------------------------------------------
@pytest.mark.parametrize(("sample", "code", "label", "ground"), [
    # the agent who drew up the auto judges the defence: impediment, Lei 9.784/1999, art. 18
    ("timoteo-mg/06-autuante-julga-a-defesa.yaml", "IMPEDIMENTO", "nulidade", "art. 18"),
    # a decision silent on an argument of the defence: no reasons, art. 50, § 1º
    ("timoteo-mg/04-julgamento-sem-resposta.yaml", "ARGUMENTO-SEM-RESPOSTA", "nulidade", "art. 50"),
    # the appeal decided by whom art. 79 of Lei 3.240/2015 does not make competent
    ("ferraz-de-vasconcelos-sp/05-recurso-decidido-pelo-fiscal.yaml", "COMPETENCIA-AUSENTE", "nulidade", "art"),
    # an edital without the search for the domicile: Lei 9.784/1999, art. 26, § 4º
    ("cuiaba-mt/07-edital-sem-diligencia.yaml", "EDITAL-SEM-DILIGENCIA", "nulidade", "art. 26, § 4º"),
    # the interdiction without the conditions of lifting: a datum to complete (Lei 3.844/2022, art. 5º, IV)
    ("timoteo-mg/12-interdicao-sem-condicoes.yaml", "CAMPO-FALTANDO", "vício sanável", "art. 55"),
    # the hour of the auto, which Lei 3.666/1997, art. 35, does not require
    ("cuiaba-mt/04-recurso-decidido-pelo-secretario.yaml", "CBA-35-HORA", "estilo", "não é exigida"),
])
def test_sample_finding_carries_its_grade(sample: str, code: str, label: str, ground: str) -> None:
    file = SAMPLES / "verificacao" / sample
    result = CliRunner().invoke(main, [*BASE, "validar", str(file)])
    assert re.search(rf"\[(ERRO|AVISO) · {label}\] {code}:", result.output), result.output
    data = _verify_json(file)
    found = [a for a in data["casos"][0]["achados"] if a["codigo"] == code]
    assert found and ground in found[0]["grau_fundamento"]


def test_reports_put_nullity_first() -> None:
    data = _verify_json(SAMPLES / "verificacao")
    order = {"nulidade": 0, "vicio_sanavel": 1, "estilo": 2}
    mixed = 0
    for case in data["casos"]:
        grades = [order[a["grau"]] for a in case["achados"]]
        assert grades == sorted(grades), case["arquivo"]
        mixed += len(set(grades)) > 1
    assert mixed  # some sample has findings of two grades
    codes = [order[c["grau"]] for c in data["por_codigo"]]
    assert codes == sorted(codes)


def test_text_and_html_reports_show_the_grade(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    result = CliRunner().invoke(main, [*BASE, "verificar", "--sem-registro", "--html", str(html),
                                       str(SAMPLES / "verificacao" / "timoteo-mg")])
    assert "[ERRO · nulidade] IMPEDIMENTO:" in result.output
    text = html.read_text(encoding="utf-8")
    assert "vício sanável" in text and "Grau: impedimento de quem decide" in text


# --- the strict loader -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("top", "municipal", "words"), [
    ("achados:\n  X-1: {grau: nulidade, fundamento: f, artigo: '1'}\n", None, ["artigo", "achados.yaml"]),
    ("achados:\n  X-1: {grau: grave, fundamento: f}\n", None, ["grau", "achados.yaml"]),
    ("achados:\n  X-1: {grau: nulidade, fundamento: f}\n  X-1: {grau: estilo, fundamento: g}\n", None,
     ["X-1", "achados.yaml"]),
    ("achados:\n  X-1: {grau: nulidade, fundamento: f}\n", "achados:\n  X-1: {grau: estilo, fundamento: g}\n",
     ["X-1", "já tem gravidade", "m-uf"]),
])
def test_grade_table_refuses_unknown_and_repeated_keys(tmp_path: Path, top: str, municipal: str | None,
                                                       words: list[str]) -> None:
    (tmp_path / "achados.yaml").write_text(top, encoding="utf-8")
    if municipal:
        (tmp_path / "m-uf").mkdir()
        (tmp_path / "m-uf" / "achados.yaml").write_text(municipal, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_grades(tmp_path)
    text = str(info.value)
    assert all(w in text for w in words), text
