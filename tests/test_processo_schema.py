"""``autos schema --processo``: the JSON Schema of the processo file, with the laws, act kinds, infraction and
penalty ids of the rules (if/then on ``lei``) and a Portuguese description on every property."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES

PROCESSOS = sorted((SAMPLES / "processos").rglob("*.yaml"))


class _EditorLoader(yaml.SafeLoader):
    """YAML as a language server sees it: dates stay text (JSON has no date type)."""


_EditorLoader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _load(file: Path) -> Any:
    return yaml.load(file.read_text(encoding="utf-8"), Loader=_EditorLoader)  # noqa: S506 - a SafeLoader


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "schema", "--processo"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def _errors(schema: dict[str, Any], data: Any) -> list[str]:
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]


def test_samples_exist() -> None:
    assert len(PROCESSOS) >= 3


@pytest.mark.parametrize("file", PROCESSOS, ids=lambda p: p.name)
def test_every_sample_processo_validates(schema: dict[str, Any], file: Path) -> None:
    assert _errors(schema, _load(file)) == []


def test_law_enum_and_one_branch_per_law(schema: dict[str, Any]) -> None:
    laws = schema["properties"]["lei"]["enum"]
    assert laws == ["cuiaba-mt/lei-3666-1997", "ferraz-de-vasconcelos-sp/lei-3240-2015", "timoteo-mg/lei-3844-2022"]
    assert [b["if"]["properties"]["lei"]["const"] for b in schema["allOf"]] == laws


def test_wrong_act_kind_infraction_or_penalty_for_the_law_fails(schema: dict[str, Any]) -> None:
    sample = _load(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    assert _errors(schema, sample) == []
    wrong_act = copy.deepcopy(sample)
    wrong_act["atos"][1]["tipo"] = "embargo"  # Ferraz has embargo; Timóteo has not
    assert any("embargo" in e for e in _errors(schema, wrong_act))
    wrong_inf = copy.deepcopy(sample)
    wrong_inf["infracoes"][0]["regra"] = "animal-solto"  # a Cuiabá infraction
    assert any("animal-solto" in e for e in _errors(schema, wrong_inf))
    wrong_pen = copy.deepcopy(sample)
    wrong_pen["atos"][0]["penalidades"][0]["tipo"] = "despesas-apreensao"  # a Cuiabá penalty
    assert any("despesas-apreensao" in e for e in _errors(schema, wrong_pen))
    wrong_law = copy.deepcopy(sample)
    wrong_law["lei"] = "timoteo-mg/lei-0000"
    assert any("timoteo-mg/lei-0000" in e for e in _errors(schema, wrong_law))
    unknown = copy.deepcopy(sample)
    unknown["atos"][0]["hroa"] = "10:30"
    assert any("hroa" in e for e in _errors(schema, unknown))


def _properties(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            if isinstance(v, dict):
                out.append((f"{where}.{k}", v))
        for k, v in node.items():
            if k != "properties" and k not in ("if", "then", "allOf"):
                out += _properties(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _properties(v, f"{where}[{i}]")
    return out


def test_every_property_has_a_portuguese_description(schema: dict[str, Any]) -> None:
    props = _properties(schema)
    assert len(props) > 80
    for where, prop in props:
        assert prop.get("description"), where
        assert "title" not in prop, where
    infracao = schema["$defs"]["Infracao"]["properties"]
    assert "regra" in infracao and "complemento" in infracao and "reincidente" in infracao
    assert "período" in infracao["periodo"]["description"]
    kinds = schema["allOf"][2]["then"]["properties"]["atos"]["items"]["properties"]["tipo"]
    assert {"const": "auto", "description": "auto de infração (Lei nº 3.844/2022, art. 20)"} in kinds["oneOf"]


def test_a_new_processo_fits_the_schema_once_numbered(schema: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "novo.yaml"
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "novo", "cuiaba-mt/lei-3666-1997",
                                       "--infracao", "animal-solto", "--numero", "CCZ-1", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert _errors(schema, _load(target)) == []


def test_the_reasons_of_acts_are_in_the_schema_with_their_descriptions(schema: dict[str, Any]) -> None:
    """Lei 9.784/1999, art. 50 (by analogy): the defence's arguments, the decision's answers, its amount in the
    law's unit — in the schema the editor offers, described in Portuguese, with the answer's conclusions closed."""
    ato = schema["$defs"]["Ato"]["properties"]
    for name in ("argumentos", "relatorio", "razoes", "dispositivo", "valor_base", "motivo_valor"):
        assert ato[name]["description"], name
    razao = schema["$defs"]["Razao"]["properties"]
    assert razao["conclusao"]["enum"] == ["acolhido", "acolhido_em_parte", "rejeitado"]
    sample = _load(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    wrong = copy.deepcopy(sample)
    wrong["atos"][3]["razoes"][0]["conclusao"] = "improcedente"
    assert any("improcedente" in e for e in _errors(schema, wrong))
    wrong["atos"][3]["razoes"][0] = {"argumento": "1", "conclusao": "rejeitado", "motivo": "x"}
    assert any("motivo" in e for e in _errors(schema, wrong))
