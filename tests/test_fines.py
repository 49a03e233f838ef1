"""Fines and fees of the three laws.

The vectors live in ``tests/data/fines/*.yaml``: each is a small case, the article in its id, and the
units and reais computed BY HAND from the law text (the arithmetic is in the comments). Nothing
expected here is produced by the code under test.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from autos.app.processo.service import is_processo_file
from autos.base.schema import build_model
from autos.base.yamlio import load_yaml
from autos.checks.fines import fine_findings
from autos.checks.validate import validate_case
from autos.compute.fines import FineResult, compute_fines
from autos.errors import ComputeError, RulesError
from autos.processo.load_case import LoadedCase, load_case, parse_case
from autos.rules.infractions import CircumstanceEffect
from autos.rules.statute import Statute

from .conftest import TODAY, load_shipped_rules

#: the vectors are worked out with the values of the shipped rules, examples included (the UFM of each year)
pytestmark = pytest.mark.usefixtures("shipped_examples")

ROOT = Path(__file__).resolve().parents[1]
CASOS = ROOT / "tests" / "data" / "casos"  # the old per-document case files
DATA = ROOT / "tests" / "data" / "fines"
RULES = load_shipped_rules()
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
CUIABA = "cuiaba-mt/lei-3666-1997"
TIMOTEO = "timoteo-mg/lei-3844-2022"


def _read(name: str) -> Any:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


def _vectors() -> list[Any]:
    out = []
    for name in ("ferraz.yaml", "cuiaba.yaml", "timoteo.yaml"):
        doc = _read(name)
        for vec in doc["vetores"]:
            out.append(pytest.param(doc["lei"], vec.get("data", doc["data"]), vec, id=f"{name[:-5]}-{vec['id']}"))
    return out


def _errors() -> list[Any]:
    return [pytest.param(v, id=v["id"]) for v in _read("erros.yaml")["erros"]]


def _case(lei: str, day: Any, vec: dict[str, Any]) -> LoadedCase:
    doc: dict[str, Any] = {
        "lei": lei,
        "autuado": vec.get("autuado", {"tipo": "pessoa_fisica", "nome": "Fulano de Tal"}),
        "data_infracao": day,
        "infracoes": vec["infracoes"],
        "penalidades": [p if isinstance(p, dict) else {"tipo": p} for p in vec.get("penalidades", ["multa"])],
    }
    if "circunstancias" in vec:
        doc["circunstancias"] = vec["circunstancias"]
    return parse_case(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), f"{vec['id']}.yaml")


def _statute(lei: str, vec: dict[str, Any]) -> Statute:
    statute = RULES.get(lei)
    effect = vec.get("efeito_circunstancias")
    if effect is None:
        return statute
    pen = statute.penalidades["multa"]
    new_pen = pen.model_copy(update={"efeito_circunstancias": CircumstanceEffect.model_validate(effect)})
    return statute.model_copy(update={"penalidades": {**statute.penalidades, "multa": new_pen}})


def _memo_text(result: FineResult) -> str:
    return "\n".join(f"{s.descricao} | {s.base_legal or ''} | {s.resultado}" for s in result.memo())


@pytest.mark.parametrize(("lei", "day", "vec"), _vectors())
def test_vector(lei: str, day: Any, vec: dict[str, Any]) -> None:
    loaded = _case(lei, day, vec)
    result = compute_fines(loaded.case, _statute(lei, vec))
    if vec.get("sem_multa"):
        assert result is None
        return
    assert result is not None
    assert result.total_unidades == Decimal(vec["unidades"])
    assert result.total_reais == Decimal(vec["reais"])
    if "itens" in vec:
        assert [(i.unidades, i.reais) for i in result.itens] == [(Decimal(u), Decimal(r)) for u, r in vec["itens"]]
    if "unidades_texto" in vec:
        assert result.unidades_texto() == vec["unidades_texto"]
    if "reais_texto" in vec:
        assert result.reais_texto() == vec["reais_texto"]
    expected = vec.get("avisos", [])
    assert len(result.avisos) == len(expected)
    for ident in expected:
        assert any(f"({ident})" in a for a in result.avisos), (ident, result.avisos)
    memo = _memo_text(result)
    for text in vec.get("memo_contem", []):
        assert text in memo, (text, memo)
    # every item: a step citing the law for the amount, the conversion marked as example value
    for item in result.itens:
        assert item.steps[0].base_legal and item.base_legal.startswith("Lei nº")
        conversion = [s for s in item.steps if s.descricao.startswith("Conversão")]
        assert len(conversion) == 1 and "VALOR DE EXEMPLO" in conversion[0].descricao
        assert item.steps[-1].resultado.startswith("R$ ") and "(" in item.steps[-1].resultado


@pytest.mark.parametrize("vec", _errors())
def test_bad_input(vec: dict[str, Any]) -> None:
    loaded = _case(vec["lei"], vec.get("data", "2026-03-10"), vec)
    with pytest.raises(ComputeError) as info:
        compute_fines(loaded.case, RULES.get(vec["lei"]))
    err = info.value
    assert err.path == vec["caminho"]
    text = str(err)
    for words in vec["contem"]:
        assert words in text, (words, text)
    assert err.hint  # every error says how to fix it


# --- memo contents -----------------------------------------------------------------------------------


def test_memo_steps_cite_articles_in_order() -> None:
    vec = {"id": "x", "infracoes": [{"regra": "terreno-alagadico-sem-aterro", "periodo": 3}]}
    result = compute_fines(_case(FERRAZ, "2026-03-10", vec).case, RULES.get(FERRAZ))
    assert result is not None
    steps = result.memo()
    assert [s.base_legal for s in steps[:2]] == ["Lei nº 3.240/2015, art. 9º"] * 2
    assert steps[0].resultado == "10 (dez) UFM"
    assert steps[1].resultado == "40 (quarenta) UFM"
    assert "3º período" in steps[1].descricao
    assert steps[-1].resultado == "R$ 6.247,74 (seis mil duzentos e quarenta e sete reais e setenta e quatro centavos)"
    assert any(e.startswith("dobra-periodica:") for e in result.escolhas)
    assert any(e.startswith("art9-valor:") for e in result.escolhas)
    # choices tied to formulas not applied are not listed
    assert not any(e.startswith("fracao-proporcional:") for e in result.escolhas)
    data = result.to_dict()
    assert data["avisos"] == result.avisos and data["itens"][0]["infracao"] == "terreno-alagadico-sem-aterro"


def test_rounding_step_shown_only_when_needed() -> None:
    vec = {"id": "x", "infracoes": [{"regra": "lixo-fora-do-horario", "reincidente": False}]}
    result = compute_fines(_case(FERRAZ, "2026-03-10", vec).case, RULES.get(FERRAZ))
    assert result is not None
    descr = [s.descricao for s in result.memo()]
    assert descr[-1].startswith("Arredondamento")
    assert result.memo()[-2].resultado == "R$ 312,387"  # 2 × 156,1935, before rounding
    vec = {"id": "y", "infracoes": [{"regra": "lixo-domiciliar", "reincidente": False}]}
    result = compute_fines(_case(FERRAZ, "2026-03-10", vec).case, RULES.get(FERRAZ))
    assert result is not None
    assert not any(s.descricao.startswith("Arredondamento") for s in result.memo())


def test_timoteo_sample_unchanged() -> None:
    loaded = load_case(CASOS / "timoteo-mg" / "auto-pj-completo.yaml")
    result = compute_fines(loaded.case, RULES.get(TIMOTEO))
    assert result is not None
    assert result.reais_texto() == "R$ 3.807,75 (três mil oitocentos e sete reais e setenta e cinco centavos)"
    assert result.unidades_texto() == "750 (setecentas e cinquenta) UPFMT"
    assert result.avisos == []


# --- validator findings (extra_checks) ----------------------------------------------------------------

_FINDINGS_CASE = """\
lei: ferraz-de-vasconcelos-sp/lei-3240-2015
autuado:
  tipo: pessoa_fisica
  nome: Fulano de Tal
lavratura:
  data: 2026-03-10
infracoes:
  - regra: terreno-sem-limpeza
  - regra: terreno-alagadico-sem-aterro
    periodo: 2
  - regra: nao-existe
penalidades:
  - tipo: multa
"""


def test_fine_findings_errors_and_text_defects() -> None:
    loaded = parse_case(_FINDINGS_CASE, "caso.yaml")
    statute = RULES.get(FERRAZ)
    findings = fine_findings(loaded, statute)
    by_code = {f.codigo: f for f in findings}
    assert set(by_code) == {"MULTA-INCALCULAVEL", "LEI-TEXTO-DEFEITUOSO"}
    missing = by_code["MULTA-INCALCULAVEL"]
    assert (missing.severidade, missing.caminho, missing.linha) == ("erro", "infracoes[0].quantidade", 8)
    defect = by_code["LEI-TEXTO-DEFEITUOSO"]
    assert (defect.severidade, defect.caminho, defect.linha) == ("aviso", "infracoes[1].regra", 9)
    assert "art9-valor" in defect.mensagem and "dez" in defect.mensagem
    # the unknown rule is reported once, by the validator itself
    report = validate_case(loaded, RULES, extra_checks=[fine_findings])
    codes = [f.codigo for f in report.findings]
    assert codes.count("REGRA-DESCONHECIDA") == 1
    assert codes.count("MULTA-INCALCULAVEL") == 1


@pytest.mark.parametrize(("regra", "extra", "ident"), [
    ("lixo-domiciliar", {"reincidente": False}, "art2-inciso-do-caput"),
    ("terreno-alagadico-sem-aterro", {"periodo": 1}, "art9-valor"),
    ("obra-sem-plantas-alvara", {}, "art37-paragrafo-unico"),
    ("templo-poluicao-sonora", {"capacidade": 100, "reincidente": False}, "art62-1-redacao"),
])
def test_text_defect_warned_whenever_applied(regra: str, extra: dict[str, Any], ident: str) -> None:
    loaded = _case(FERRAZ, "2026-03-10", {"id": regra, "infracoes": [{"regra": regra, **extra}]})
    findings = fine_findings(loaded, RULES.get(FERRAZ))
    assert [(f.codigo, f.severidade) for f in findings] == [("LEI-TEXTO-DEFEITUOSO", "aviso")]
    assert f"({ident})" in findings[0].mensagem


@pytest.mark.parametrize("sample", sorted(CASOS.glob("*/*.yaml")), ids=lambda p: p.stem)
def test_samples_fines_compute_without_findings(sample: Path) -> None:
    if sample.parent.name == "pendentes":
        pytest.skip("casos pendentes são incompletos de propósito")
    if is_processo_file(sample):  # a processo (samples/editais): the auto's fine, as of its date, computes
        from autos.app.generation.pipeline import Autos

        fine = Autos(ROOT / "rules", ROOT / "templates", TODAY).processo_fine_of(sample)
        assert fine.calculo is not None and fine.final is not None and fine.final > 0
        return
    loaded = load_case(sample)
    statute = RULES.get(loaded.case.lei)
    assert [f for f in fine_findings(loaded, statute) if f.severidade == "erro"] == []
    report = validate_case(loaded, RULES, extra_checks=[fine_findings])
    assert [f.render() for f in report.errors if f.codigo not in ("TIM-20-1-V",)] == []


def test_new_samples_have_fines() -> None:
    for folder in ("ferraz-de-vasconcelos-sp", "cuiaba-mt"):
        files = sorted((CASOS / folder).glob("*.yaml"))
        assert files, folder
        for f in files:
            loaded = load_case(f)
            result = compute_fines(loaded.case, RULES.get(loaded.case.lei))
            assert result is not None and result.total_reais > 0


# --- the rules model refuses inconsistent fine data -----------------------------------------------------


def _rules_error(path: Path, change: Any) -> RulesError:
    doc = load_yaml(path, RulesError)
    data = copy.deepcopy(doc.data)
    change(data)
    with pytest.raises(RulesError) as info:
        build_model(Statute, doc, RulesError, data=data)
    return info.value


def test_rules_costs_total_must_match_the_sum() -> None:
    def change(d: Any) -> None:
        d["penalidades"]["despesas-apreensao"]["calculo"]["portes"]["pequeno"]["total"] = "0.80"
    err = _rules_error(ROOT / "rules" / "cuiaba-mt" / "lei-3666-1997.yaml", change)
    assert "transporte" in err.message and "0.80" in err.message


def test_rules_unknown_interpretation() -> None:
    def change(d: Any) -> None:
        d["infracoes"]["terreno-alagadico-sem-aterro"]["interpretacao"] = "nao-existe"
    err = _rules_error(ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.yaml", change)
    assert "interpretação desconhecida 'nao-existe'" in err.message


def test_rules_infraction_without_formula() -> None:
    def change(d: Any) -> None:
        del d["infracoes"]["mercadoria-no-solo"]["multa"]
    err = _rules_error(ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.yaml", change)
    assert "mercadoria-no-solo" in err.message and "calcul" in err.message


def test_rules_brackets_in_order() -> None:
    def change(d: Any) -> None:
        d["infracoes"]["templo-poluicao-sonora"]["multa"]["faixas"][1]["ate"] = 100
    err = _rules_error(ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.yaml", change)
    assert "ordem crescente" in err.message


def test_rules_unknown_formula_kind() -> None:
    def change(d: Any) -> None:
        d["infracoes"]["mercadoria-no-solo"]["multa"]["tipo"] = "progressiva"
    err = _rules_error(ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.yaml", change)
    assert "progressiva" in err.message
