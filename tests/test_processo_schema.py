"""``autos schema --processo``: the JSON Schema of the processo file, with the laws, act kinds, infraction and
penalty ids of the rules (if/then on ``lei``) and a Portuguese description on every property."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import check_jsonschema
import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main
from autos.errors import InputError
from autos.processo.load import parse_processo

from .conftest import ROOT, SAMPLES

PROCESSOS = sorted((SAMPLES / "processos").rglob("*.yaml"))
#: every processo file among the samples (samples/**.yaml with a list of acts): what a clerk opens in the editor
SAMPLE_PROCESSOS = sorted(p for p in SAMPLES.rglob("*.yaml") if "\natos:" in p.read_text(encoding="utf-8"))


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


_VALIDATORS: dict[int, jsonschema.Draft202012Validator] = {}


def _errors(schema: dict[str, Any], data: Any) -> list[str]:
    """jsonschema's errors, formats checked (those its format checker knows without extra packages: ``date`` is,
    ``time`` is not — check-jsonschema's own checker, below, knows both). One validator per schema."""
    validator = _VALIDATORS.get(id(schema))
    if validator is None:
        validator = _VALIDATORS[id(schema)] = jsonschema.Draft202012Validator(
            schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    return [e.message for e in validator.iter_errors(data)]


def _check_jsonschema(schema: dict[str, Any], files: list[Path], tmp_path: Path) -> tuple[int, str]:
    """check-jsonschema (an independent validator, as a user or a pre-commit hook runs it: the schema file, YAML
    read by its own parser, formats checked, RFC 3339 ``date`` and ``time`` included) over ``files``, in-process."""
    schema_file = tmp_path / "processo.schema.json"
    schema_file.write_text(json.dumps(schema, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(check_jsonschema.main, ["--schemafile", str(schema_file), *map(str, files)])
    return result.exit_code, result.output


def test_samples_exist() -> None:
    assert len(PROCESSOS) >= 3


@pytest.mark.parametrize("file", PROCESSOS, ids=lambda p: p.name)
def test_every_sample_processo_validates(schema: dict[str, Any], file: Path) -> None:
    assert _errors(schema, _load(file)) == []


def test_every_sample_processo_passes_check_jsonschema_with_formats(schema: dict[str, Any],
                                                                     tmp_path: Path) -> None:
    """Every processo file of samples/ validates with formats checked: ``hora`` is "HH:MM" (what the loader
    accepts), not an RFC 3339 ``time`` ("09:00:00Z"), which an editor would flag on every auto."""
    assert len(SAMPLE_PROCESSOS) >= 30
    assert any('hora: "' in p.read_text(encoding="utf-8") for p in SAMPLE_PROCESSOS)
    code, output = _check_jsonschema(schema, SAMPLE_PROCESSOS, tmp_path)
    assert code == 0, output


#: hora as typed → whether the processo loader accepts it (HH:MM, 00:00 to 23:59)
HORAS = [("09:00", True), ("23:59", True), ("00:00", True), ("24:00", False), ("9:00", False), ("09:00:00Z", False),
         ("9h", False), ("09:60", False)]


def test_hora_is_hh_mm_in_the_schema_as_in_the_loader(schema: dict[str, Any], tmp_path: Path) -> None:
    """The schema accepts for ``hora`` exactly what the processo loader does, in both validators (check-jsonschema
    run once over every variant); an impossible date is refused by both (formats are checked)."""
    sample = _load(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    refused: list[Path] = []
    accepted_files: list[Path] = []
    for i, (hora, accepted) in enumerate(HORAS):
        variant = copy.deepcopy(sample)
        variant["atos"][0]["hora"] = hora
        text = yaml.safe_dump(variant, allow_unicode=True)
        try:
            parse_processo(text)
            loaded = True
        except InputError as exc:
            loaded = False
            assert "HH:MM" in str(exc)
        assert loaded is accepted, hora
        assert (_errors(schema, variant) == []) is accepted, hora
        file = tmp_path / f"hora-{i}.yaml"
        file.write_text(text, encoding="utf-8")
        (accepted_files if accepted else refused).append(file)
    bad_date = copy.deepcopy(sample)
    bad_date["atos"][0]["data"] = "2026-02-30"
    assert _errors(schema, bad_date)
    refused.append(tmp_path / "data-impossivel.yaml")
    refused[-1].write_text(yaml.safe_dump(bad_date, allow_unicode=True), encoding="utf-8")
    code, output = _check_jsonschema(schema, accepted_files + refused, tmp_path)
    assert code != 0
    for file in accepted_files + refused:
        assert (f"{file}::" in output) is (file in refused), (file.name, output)


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


@pytest.mark.parametrize(("numero", "ok"), [("17/2026", True), ("0017/2026", True), ("0/2026", False),
                                          ("31/1899", False), ("31", False), ("../x", False), ("٣١/2026", False)])
def test_the_editor_knows_the_rule_of_the_auto_number(schema: dict[str, Any], numero: str, ok: bool) -> None:
    """The rule applied on reading (autos.processo.case.check_act_number) in the schema: the auto's number is
    N/AAAA, from 1, year from 1900, digits 0–9; another act's may be free text."""
    sample = _load(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    auto = copy.deepcopy(sample)
    auto["atos"][0]["numero"] = numero
    assert (_errors(schema, auto) == []) == ok, _errors(schema, auto)
    other = copy.deepcopy(sample)
    other["atos"][1]["numero"] = f"AR-{numero}"
    assert _errors(schema, other) == []


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
