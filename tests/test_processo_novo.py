"""``autos novo``: a new processo file with every field the auto needs, commented in Portuguese; it loads,
``autos validar`` lists what is blank as findings (never a load error), and once filled it validates clean."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main
from autos.processo.load import load_processo

from .conftest import ROOT

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
TIM = "timoteo-mg/lei-3844-2022"
CBA = "cuiaba-mt/lei-3666-1997"
FER = "ferraz-de-vasconcelos-sp/lei-3240-2015"

#: one infraction per law (Ferraz: two, a fine by quantity repeated by period and one with a caução)
CHOICES = [
    (TIM, ["inobservancia-normas-sanitarias"], False),
    (TIM, ["fiscalizacao-previa"], True),
    (CBA, ["animal-solto"], False),
    # passeio-mau-estado (art. 17, § 3º): a fine by quantity repeated by period that needs no earlier notice — the
    # art. 4º fine (terreno-sem-limpeza) needs the notificação preliminar before the auto, which a new file lacks
    (FER, ["passeio-mau-estado", "show-ao-ar-livre-madrugada"], False),
]

AUTO_DATE = date(2026, 11, 16)
#: a valid value for each blank the generator writes, by field name (the auto's own ``numero`` by path)
VALUES: dict[str, Any] = {
    "nome": "Maria Aparecida dos Santos", "cpf": "251.983.460-98", "cnpj": "11.222.333/0001-81",
    "qualificacao": "brasileira, comerciante", "logradouro": "Rua das Flores", "numero": "120",
    "bairro": "Centro", "municipio": "Cidade", "uf": "MG", "cep": "35180-000", "local": "Rua das Flores, 120",
    "fatos": "Constatado, em inspeção, o fato descrito no auto.", "complemento": "art. 5º do Decreto nº 1/2023",
    "artigo": "23", "paragrafo": "unico", "regulamento": None,  # the rule of conduct: art. 23, p.u. (Timóteo art. 15)
    "quantidade": "200", "periodo": 1, "capacidade": 300, "caucao_depositada": False, "reincidente": False,
    "gravidade": "leve", "advertencia_previa": True, "data": AUTO_DATE, "hora": "10:30", "cargo": "Fiscal",
    "matricula": "12345", "crmv": "CRMV-MG 1234", "medico_veterinario_oficial": True, "valor_base": "1500",
    "situacao": "assinou", "nome_de_quem_assinou": "Maria Aparecida dos Santos",
    "motivo_valor": "Produto perecível sem refrigeração exposto à venda: gravidade e risco à saúde (art. 16, § 2º).",
    "motivo_nao_advertencia": "O risco à saúde do consumidor não se afasta com a advertência (art. 16, § 2º).",
}
#: the auto's agent: a holder of the municipality's register of authorities (rules/<municipio>/autoridades.yaml),
#: competent for the auto on its date
AGENTS = {"MG": ("Dr. João Batista Ferreira", "20.315"), "MT": ("Fábio Henrique Duarte", "31.208"),
          "SP": ("Márcia Regina Tavares", "4.712")}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def novo(tmp_path: Path, lei: str, infracoes: list[str], juridica: bool = False, name: str = "p.yaml") -> Path:
    target = tmp_path / name
    args = ["novo", lei, "--numero", "PROC-2026/1", "-o", str(target)]
    for i in infracoes:
        args += ["--infracao", i]
    code, out = run(*args, *(["--juridica"] if juridica else []))
    assert code == 0, out
    return target


def blanks(node: Any, path: tuple[str | int, ...] = ()) -> set[str]:
    """Dotted paths (``atos[0].agente.nome``) of the blank values of a parsed file."""
    out: set[str] = set()
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for k, v in items:
        p = (*path, k)
        if v is None:
            out.add("".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in p).lstrip("."))
        else:
            out |= blanks(v, p)
    return out


def fill(node: Any, uf: str, path: tuple[str | int, ...] = ()) -> None:
    items = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
    for k, v in items:
        p = (*path, k)
        if v is None:
            value = VALUES[str(k)]
            if p == ("atos", 0, "numero"):
                value = "7/2026"
            if k == "cargo" and uf == "MT":  # Cuiabá art. 3º, II–III, and art. 37: the post as the law names it
                value = "Agente de Controle de Zoonoses"
            if p[:3] == ("atos", 0, "agente") and k in ("nome", "matricula"):
                value = AGENTS[uf][0 if k == "nome" else 1]
            node[k] = uf if k == "uf" else value
        else:
            fill(v, uf, p)


def about_a_blank(path: str, empty: set[str]) -> bool:
    """The finding points at a blank field, or at the field that holds blanks (``atos[0].agente``)."""
    return any(b == path or b.startswith((path + ".", path + "[")) for b in empty)


def findings(out: str) -> list[dict[str, Any]]:
    """The errors of the one report (warnings about the rules themselves, such as an example fiscal-unit
    value, point at no field of the processo)."""
    reports = json.loads(out)
    assert len(reports) == 1
    return [f for f in reports[0]["achados"] if f["severidade"] == "erro"]


@pytest.mark.parametrize(("lei", "infracoes", "juridica"), CHOICES)
def test_new_processo_loads_lists_its_blanks_and_validates_clean_once_filled(
        tmp_path: Path, lei: str, infracoes: list[str], juridica: bool) -> None:
    target = novo(tmp_path, lei, infracoes, juridica)
    text = target.read_text(encoding="utf-8")
    loaded = load_processo(target)  # a processo, not a load error
    assert loaded.processo.lei == lei
    assert [i.regra for i in loaded.processo.infracoes] == infracoes
    assert [a.tipo for a in loaded.processo.atos] == ["auto"]
    data = yaml.safe_load(text)
    empty = blanks(data)
    # validar: findings (exit 1), each about a field the new file left blank for the clerk
    code, out = run("validar", "--json", str(target))
    assert code == 1, out
    found = findings(out)
    assert found
    for f in found:
        assert about_a_blank(f["caminho"], empty), f
    # once the date of the auto is filled, the auto's own elements are checked too, still on the blanks
    dated = tmp_path / "datado.yaml"
    data["atos"][0]["data"] = AUTO_DATE
    dated.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    code, out = run("validar", "--json", str(dated))
    assert code == 1, out
    later = findings(out)
    assert len(later) > len(found) - 1
    for f in later:
        assert about_a_blank(f["caminho"], empty), f
    # every blank filled: the processo validates clean
    uf = {TIM: "MG", CBA: "MT", FER: "SP"}[lei]
    fill(data, uf)
    filled = tmp_path / "preenchido.yaml"
    filled.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, out = run("validar", str(filled))
    assert code == 0, out


def test_new_processo_comments_say_what_to_write_and_the_article(tmp_path: Path) -> None:
    text = novo(tmp_path, TIM, ["inobservancia-normas-sanitarias"], juridica=True).read_text(encoding="utf-8")
    lines = text.splitlines()

    def comment_before(key: str) -> str:
        i = next(n for n, x in enumerate(lines) if x.strip() == f"{key}:")
        assert lines[i - 1].lstrip().startswith("# ")
        return lines[i - 1]

    assert "art. 20, § 1º, inciso VI" in comment_before("crmv")
    assert "art. 6º" in comment_before("medico_veterinario_oficial")
    assert "art. 20, § 1º, inciso II" in comment_before("hora")
    assert "responsável legal" in comment_before("responsavel_legal")
    assert "art. 20, § 1º, inciso VII" in comment_before("situacao")
    assert "art. 20, § 1º, inciso IV" in comment_before("norma")  # art. 15 only defines: the rule of conduct
    assert "entre 100 e 30000" in comment_before("valor_base")
    # every field line is preceded by a comment
    for n, line in enumerate(lines):
        if line.strip() and not line.lstrip().startswith("#"):
            assert lines[n - 1].lstrip().startswith("#"), line


def test_formula_fields_are_written_for_the_infraction_that_needs_them(tmp_path: Path) -> None:
    text = novo(tmp_path, FER, ["terreno-sem-limpeza", "show-ao-ar-livre-madrugada"]).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    first, second = data["infracoes"]
    assert set(first) == {"regra", "quantidade", "periodo"}
    assert set(second) == {"regra", "caucao_depositada", "capacidade", "reincidente"}
    assert "m²" in text and "art. 70" in text
    cba = yaml.safe_load(novo(tmp_path, CBA, ["animal-solto"], name="c.yaml").read_text(encoding="utf-8"))
    assert set(cba["infracoes"][0]) == {"regra", "gravidade", "reincidente"}


def test_existing_file_is_kept_unless_substituir(tmp_path: Path) -> None:
    target = tmp_path / "p.yaml"
    target.write_text("conteúdo do usuário\n", encoding="utf-8")
    code, out = run("novo", TIM, "--infracao", "fiscalizacao-previa", "--numero", "1", "-o", str(target))
    assert code == 2
    assert "já existe" in out and "--substituir" in out
    assert target.read_text(encoding="utf-8") == "conteúdo do usuário\n"
    code, out = run("novo", TIM, "--infracao", "fiscalizacao-previa", "--numero", "1", "-o", str(target),
                    "--substituir")
    assert code == 0, out
    assert "regra: fiscalizacao-previa" in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["p.yaml"]  # no temporary file left


@pytest.mark.parametrize(("lei", "infracao", "words"), [
    ("nada/lei-1", "x", ["lei 'nada/lei-1' não encontrada", TIM, CBA, FER]),
    (TIM, "nao-existe", ["infração 'nao-existe' não existe", "inobservancia-normas-sanitarias",
                         "fiscalizacao-previa"]),
])
def test_unknown_law_or_infraction_lists_the_valid_ids(tmp_path: Path, lei: str, infracao: str,
                                                       words: list[str]) -> None:
    target = tmp_path / "p.yaml"
    code, out = run("novo", lei, "--infracao", infracao, "--numero", "1", "-o", str(target))
    assert code == 2, out
    for w in words:
        assert w in out
    assert not target.exists()
