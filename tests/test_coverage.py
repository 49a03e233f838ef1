"""The coverage table of each law (``rules/<mun>/<lei>.cobertura.yaml``): every dispositivo of the statute text
is accounted for, every place in the rules exists, every test named exists — and the checks fail when not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.verification.coverage import coverage_report, read_statute_text, statute_text_file
from autos.cli import main
from autos.errors import RulesError
from autos.rules.coverage import (
    check_against_text,
    check_onde,
    check_testes,
    coverage_file,
    load_coverage,
)
from autos.rules.statute import load_rules
from autos.rules.statute_text import Dispositivo, parse_dispositivos

from .conftest import ROOT

RULES = ROOT / "rules"
SHARED = Path("/work/shared/statutes")
CUIABA = "cuiaba-mt/lei-3666-1997"
TIMOTEO = "timoteo-mg/lei-3844-2022"
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
#: the laws whose table must exist (each law's table is written article by article, then listed here, one a line)
LAWS_WITH_TABLE = [
    CUIABA,
    TIMOTEO,
    FERRAZ,
]
TEXTS = {
    CUIABA: "cuiaba-mt-lei-3666-1997-zoonoses.txt",
    TIMOTEO: "timoteo-mg-lei-3844-2022-sim.txt",
    FERRAZ: "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt",
}


def _found(lei: str) -> list[Dispositivo]:
    rules = load_rules(RULES)
    return [f.dispositivo for f in read_statute_text(statute_text_file(rules, lei))]


def _kinds(found: list[Dispositivo]) -> dict[str, int]:
    out = {"artigos": 0, "paragrafos": 0, "incisos": 0, "alineas": 0}
    for d in found:
        key = ("alineas" if d.alinea else "incisos" if d.inciso else "paragrafos" if d.paragrafo else "artigos")
        out[key] += 1
    return out


# --- the statute texts and the parser -----------------------------------------------------------------


@pytest.mark.parametrize("lei", sorted(TEXTS))
def test_statute_text_beside_the_rules_is_the_published_text(lei: str) -> None:
    copy = RULES / lei.split("/")[0] / TEXTS[lei]
    assert statute_text_file(load_rules(RULES), lei) == copy
    if not SHARED.is_dir():
        pytest.skip("a pasta das leis (shared/statutes) não está nesta máquina")
    assert copy.read_bytes() == (SHARED / TEXTS[lei]).read_bytes()


# counted by reading each text: Cuiabá arts. 1–43, paragraphs (7 p.u./§§ of arts. 7, 9, 11, 12, 17, 20, 24–26,
# 28, 29, 32, 34, 36, 37, 41), incisos (art. 3º: 17; 4º, 5º: 2 each; 9: 5; 10: 2; 11: 5 + § 4º: 3; 35: 4; 36: 3);
# Timóteo arts. 1–33, 20 paragraphs (arts. 5, 6, 14 (3), 16 (5), 20 (3), 21 (3), 23, 26 (2), 31), 35 incisos
# (arts. 3, 5, 16, 20 § 1º: 7 each; 16 § 2º: 2; 21: 3; 29: 2), 34 alíneas (art. 2º: 5; 16, V: 3, VI: 2, § 2º, I: 5,
# II: 7; 31, p.u.: 12); Ferraz arts. 1–81, 54 paragraphs (two "parágrafo único" in art. 37), 61 incisos.
@pytest.mark.parametrize(("lei", "expected"), [
    (CUIABA, {"artigos": 43, "paragrafos": 26, "incisos": 43, "alineas": 0}),
    (TIMOTEO, {"artigos": 33, "paragrafos": 20, "incisos": 35, "alineas": 34}),
    (FERRAZ, {"artigos": 81, "paragrafos": 54, "incisos": 61, "alineas": 0}),
])
def test_parser_counts_every_dispositivo(lei: str, expected: dict[str, int]) -> None:
    found = _found(lei)
    assert _kinds(found) == expected
    arts = [int(d.artigo) for d in found if d.paragrafo is None and d.inciso is None and d.alinea is None]
    assert arts == list(range(1, expected["artigos"] + 1))
    assert len(set(found)) == len(found)


def test_parser_reads_timoteo_ocr_forms_by_their_place() -> None:
    rules = load_rules(RULES)
    found = {f.dispositivo: f for f in read_statute_text(statute_text_file(rules, TIMOTEO))}
    # art. 3º: "| —", "Il —", "Il —", "IV —": the second "Il" is inciso III (line 47, the pescado)
    third = found[Dispositivo("3", inciso="III")]
    assert third.linha == 47 and "pescado" in third.inicio and third.leitura is not None
    assert "'Il' lido como inciso III" in third.leitura
    assert found[Dispositivo("5", inciso="III")].inicio.startswith("ll —")  # "ll" is III by its place
    assert found[Dispositivo("16", paragrafo="3")].inicio.startswith("S$ 3º Se a interdição")
    assert found[Dispositivo("20", paragrafo="3")].inicio.startswith("83º O auto de infração")
    assert found[Dispositivo("20", paragrafo="1", inciso="II")].inicio.startswith("Il-o local")
    assert found[Dispositivo("20", paragrafo="1", inciso="V")].inicio.startswith("V-—o prazo")
    assert found[Dispositivo("21", paragrafo="1")].inicio.startswith("& 1º")
    assert found[Dispositivo("26", paragrafo="1")].inicio.startswith("$1º")
    g = found[Dispositivo("16", paragrafo="2", inciso="II", alinea="g")]
    assert g.linha == 210 and g.inicio.startswith("9) a infração afetar")
    ell = found[Dispositivo("31", paragrafo="unico", alinea="l")]
    assert ell.inicio.startswith("1) o trânsito")
    # alíneas straight under the caput (art. 2º) and under the paragraph (art. 31)
    assert Dispositivo("2", alinea="e") in found and Dispositivo("31", paragrafo="unico", alinea="a") in found
    # page headers are not dispositivos, and no inciso is invented
    assert Dispositivo("3", inciso="VIII") not in found and Dispositivo("16", inciso="VIII") not in found
    assert Dispositivo("21", inciso="IV") not in found


def test_parser_ferraz_art37_has_two_sole_paragraphs() -> None:
    rules = load_rules(RULES)
    found = [f for f in read_statute_text(statute_text_file(rules, FERRAZ)) if f.dispositivo.artigo == "37"]
    assert [f.dispositivo for f in found] == [
        Dispositivo("37"), Dispositivo("37", paragrafo="unico"), Dispositivo("37", paragrafo="unico", ocorrencia=2)]
    assert found[1].inicio.startswith("Parágrafo única. O Alvará de Reforma")
    assert found[2].inicio.startswith("Parágrafo único. O não atendimento")
    assert found[2].dispositivo.short() == "art. 37, parágrafo único (2ª ocorrência no texto)"


def test_parser_cuiaba_incisos_of_a_paragraph_and_article_numbers_from_ten() -> None:
    found = _found(CUIABA)
    assert [d for d in found if d.artigo == "11" and d.paragrafo == "4"] == [
        Dispositivo("11", "4"), Dispositivo("11", "4", "I"), Dispositivo("11", "4", "II"),
        Dispositivo("11", "4", "III")]
    assert Dispositivo("3", inciso="XVII") in found and Dispositivo("3", inciso="XVIII") not in found
    assert Dispositivo("10") in found and Dispositivo("43") in found


def test_parser_small_text() -> None:
    text = ("LEI Nº 1\nI. not an inciso (before the first article)\nArt. 1º Caput.\nI- um;\nII- dois.\n"
            "§ 1º Primeiro:\na) letra;\nb) outra.\nwww.exemplo.gov.br\nParágrafo único: fim.\nArt. 2. Outro.\n")
    found = [f.dispositivo for f in parse_dispositivos(text)]
    assert found == [Dispositivo("1"), Dispositivo("1", inciso="I"), Dispositivo("1", inciso="II"),
                     Dispositivo("1", "1"), Dispositivo("1", "1", alinea="a"), Dispositivo("1", "1", alinea="b"),
                     Dispositivo("1", "unico"), Dispositivo("2")]


# --- the tables of the laws ---------------------------------------------------------------------------


def test_every_required_law_has_a_table() -> None:
    for lei in LAWS_WITH_TABLE:
        assert coverage_file(RULES, lei).is_file(), lei


@pytest.mark.parametrize("lei", LAWS_WITH_TABLE)
def test_every_dispositivo_of_the_text_is_in_the_table(lei: str) -> None:
    table = load_coverage(coverage_file(RULES, lei), lei)
    rules = load_rules(RULES)
    text = statute_text_file(rules, lei)
    problems = check_against_text(table, read_statute_text(text), text.name)
    assert not problems, "\n".join(p.render() for p in problems)


@pytest.mark.parametrize("lei", LAWS_WITH_TABLE)
def test_every_place_in_the_rules_exists(lei: str) -> None:
    problems = check_onde(load_coverage(coverage_file(RULES, lei), lei))
    assert not problems, "\n".join(p.render() for p in problems)


@pytest.mark.parametrize("lei", LAWS_WITH_TABLE)
def test_every_test_named_exists(lei: str) -> None:
    problems = check_testes(load_coverage(coverage_file(RULES, lei), lei), ROOT)
    assert not problems, "\n".join(p.render() for p in problems)


# --- the checks fail when they must -------------------------------------------------------------------


def _generated_table(lei: str, skip: set[Dispositivo] | None = None, extra: str = "") -> str:
    """A complete table of ``lei`` (every dispositivo fora_do_escopo), minus ``skip``, plus ``extra``."""
    lines = [f"lei: {lei}", "dispositivos:"]
    for d in _found(lei):
        if skip and d in skip:
            continue
        fields = [f'artigo: "{d.artigo}"']
        fields += [f'{k}: "{v}"' for k, v in (("paragrafo", d.paragrafo), ("inciso", d.inciso),
                                               ("alinea", d.alinea)) if v is not None]
        if d.ocorrencia > 1:
            fields.append(f"ocorrencia: {d.ocorrencia}")
        lines += [f"  - dispositivo: {{{', '.join(fields)}}}", "    papel: fora_do_escopo",
                  '    motivo: "tabela gerada pelo teste"']
    return "\n".join(lines) + "\n" + extra


@pytest.fixture()
def rules_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(RULES, folder)
    return folder


def _run(rules_dir: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--regras", str(rules_dir), "regras", "cobertura", *args])
    return result.exit_code, result.stdout if "--json" in args else result.output


@pytest.mark.parametrize("lei", [CUIABA, TIMOTEO, FERRAZ])
def test_a_complete_table_passes_and_a_missing_dispositivo_fails(rules_copy: Path, lei: str) -> None:
    file = coverage_file(rules_copy, lei)
    file.write_text(_generated_table(lei), encoding="utf-8")
    assert not coverage_report(load_rules(rules_copy), lei).problems
    missing = _found(lei)[5]
    file.write_text(_generated_table(lei, skip={missing}), encoding="utf-8")
    problems = coverage_report(load_rules(rules_copy), lei).problems
    assert [(p.codigo, p.dispositivo) for p in problems] == [("ausente", missing.short())]
    assert "está no texto da lei" in problems[0].mensagem and "linha" in problems[0].mensagem
    code, out = _run(rules_copy, lei)
    assert code == 1 and missing.short() in out and "SEM ENTRADA NA TABELA" in out


def test_an_entry_for_a_dispositivo_absent_from_the_text_fails(rules_copy: Path) -> None:
    file = coverage_file(rules_copy, CUIABA)
    extra = ('  - dispositivo: {artigo: "36", paragrafo: "4"}\n    papel: fora_do_escopo\n'
             '    motivo: "não existe"\n')
    file.write_text(_generated_table(CUIABA, extra=extra), encoding="utf-8")
    problems = coverage_report(load_rules(rules_copy), CUIABA).problems
    assert [(p.codigo, p.dispositivo) for p in problems] == [("inexistente", "art. 36, § 4º")]
    assert problems[0].linha == file.read_text(encoding="utf-8").count("\n") - 2


def test_onde_and_testes_that_do_not_exist_fail(rules_copy: Path) -> None:
    file = coverage_file(rules_copy, CUIABA)
    text = _generated_table(CUIABA).replace(
        '- dispositivo: {artigo: "36"}\n    papel: fora_do_escopo\n    motivo: "tabela gerada pelo teste"',
        '- dispositivo: {artigo: "36"}\n    papel: penalidade\n'
        '    onde: ["lei-3666-1997.yaml#penalidades/multa", "lei-3666-1997.yaml#penalidades/multa-inventada",\n'
        '           "lei-3666-1997.processo.yaml#atos/auto", "nao-existe.yaml#a",\n'
        '           "lei-3666-1997.yaml#documentos/auto_de_infracao/elementos/CBA-37-AGENTE",\n'
        '           "lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/0",\n'
        '           "lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/99"]\n'
        '    testes: ["tests/test_coverage.py::test_parser_small_text", "tests/test_coverage.py::test_inventado",\n'
        '             "tests/nao_existe.py::test_x"]')
    assert 'papel: penalidade' in text
    file.write_text(text, encoding="utf-8")
    table = load_coverage(file, CUIABA)
    onde = check_onde(table)
    assert [p.mensagem for p in onde] == [
        "'lei-3666-1997.yaml#penalidades/multa-inventada': a chave 'penalidades/multa-inventada' não existe em "
        "lei-3666-1997.yaml",
        "'nao-existe.yaml#a': o arquivo de regras nao-existe.yaml não pode ser lido (arquivo não encontrado.)",
        "'lei-3666-1997.yaml#documentos/termo_apreensao/clausulas/99': a chave "
        "'documentos/termo_apreensao/clausulas/99' não existe em lei-3666-1997.yaml"]
    assert all(p.dispositivo == "art. 36, caput" and p.linha is not None for p in onde)
    testes = check_testes(table, ROOT)
    assert [p.mensagem for p in testes] == [
        "'tests/test_coverage.py::test_inventado': não há teste 'test_inventado' em tests/test_coverage.py",
        "'tests/nao_existe.py::test_x': o arquivo de testes tests/nao_existe.py não existe"]
    code, out = _run(rules_copy, CUIABA)
    assert code == 1 and "multa-inventada" in out


@pytest.mark.parametrize(("yaml_text", "words"), [
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n"
     "    motivo: x\n    cor: azul\n", ["campo desconhecido 'cor'", "linha 6"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n"
     "    motivo: x\n    motivo: y\n", ["chave duplicada 'motivo'", "linha 6"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n",
     ["exige 'motivo'", "linha 3"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: definicao\n",
     ["falta 'onde'", "pendente"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: definicao\n"
     "    pendente: true\n", ["'pendente: true' exige 'motivo'"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: definicao\n"
     "    onde: [\"lei.yaml\"]\n    testes: [\"tests/t.py::t\"]\n", ["não é um lugar nas regras"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: multa\n",
     ["valor inválido 'multa'"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\", inciso: \"4\"}\n"
     "    papel: fora_do_escopo\n    motivo: x\n", ["inciso"]),
    ("lei: cuiaba-mt/lei-3666-1997\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n"
     "    motivo: x\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n    motivo: y\n",
     ["art. 1º, caput já tem uma entrada (linha 3)", "linha 6"]),
    ("lei: timoteo-mg/lei-3844-2022\ndispositivos:\n  - dispositivo: {artigo: \"1\"}\n    papel: fora_do_escopo\n"
     "    motivo: x\n", ["declara a lei 'timoteo-mg/lei-3844-2022'", "lei: cuiaba-mt/lei-3666-1997"]),
])
def test_loader_is_strict(tmp_path: Path, yaml_text: str, words: list[str]) -> None:
    file = tmp_path / "lei-3666-1997.cobertura.yaml"
    file.write_text(yaml_text, encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_coverage(file, CUIABA)
    text = str(err.value)
    assert str(file) in text
    for word in words:
        assert word in text, text


def test_command_prints_the_table_and_the_summary(rules_copy: Path) -> None:
    file = coverage_file(rules_copy, CUIABA)
    text = _generated_table(CUIABA).replace(
        '- dispositivo: {artigo: "36", paragrafo: "1"}\n    papel: fora_do_escopo\n'
        '    motivo: "tabela gerada pelo teste"',
        '- dispositivo: {artigo: "36", paragrafo: "1"}\n    papel: condicao_penalidade\n    pendente: true\n'
        '    motivo: "reincidência ainda não lida do histórico"')
    file.write_text(text, encoding="utf-8")
    code, out = _run(rules_copy, CUIABA)
    assert code == 0, out
    assert "art. 36, § 1º [texto, linha 283] — condição de penalidade — PENDENTE" in out
    assert "motivo: reincidência ainda não lida do histórico" in out
    assert "fora do escopo dos autos: 111" in out and "condição de penalidade: 1" in out and "pendentes: 1" in out
    code, out = _run(rules_copy, CUIABA, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["dispositivos_no_texto"] == 112 and data["pendentes"] == 1 and data["problemas"] == []
    assert data["resumo"]["fora_do_escopo"] == 111
    row = next(r for r in data["dispositivos"] if r["dispositivo"] == "art. 36, § 1º")
    assert row["pendente"] is True and row["papel"] == "condicao_penalidade" and row["linha_texto"] == 283


def test_command_without_table_is_unusable_input(rules_copy: Path) -> None:
    coverage_file(rules_copy, FERRAZ).unlink(missing_ok=True)
    code, out = _run(rules_copy, FERRAZ)
    assert code == 2 and "não tem tabela de cobertura" in out


@pytest.mark.parametrize("lei", LAWS_WITH_TABLE)
def test_command_on_the_shipped_table(lei: str) -> None:
    table = load_coverage(coverage_file(RULES, lei), lei)
    pending = sum(1 for e in table.entries if e.pendente)
    code, out = _run(RULES, lei)
    assert code == 0, out
    assert f"pendentes: {pending}" in out and "Nenhum problema" in out
    assert "SEM ENTRADA NA TABELA" not in out and "NÃO ESTÁ NO TEXTO" not in out
    code, out = _run(RULES, lei, "--json")
    data = json.loads(out)
    assert code == 0 and data["pendentes"] == pending and data["problemas"] == []
    assert data["dispositivos_no_texto"] == len(_found(lei)) == sum(data["resumo"].values())


def _param_ids() -> dict[str, set[str]]:
    """The parameter ids of the data-driven tests the tables name most (read from the same data the tests use)."""
    from . import test_deadlines, test_fines, test_render, test_statute_citations, test_validate

    quotes = {f"{lei.split('/')[0]}:{where.split('#', 1)[1]}"
              for lei, items in test_statute_citations.QUOTES.items() for where in items}
    return {
        "tests/test_statute_citations.py::test_rule_cites_the_dispositivo_that_says_it": quotes,
        "tests/test_fines.py::test_vector": {p.id for p in test_fines._vectors()},
        "tests/test_validate.py::test_findings": set(test_validate.EXPECT),
        "tests/test_render.py::test_art20_element_values_are_in_the_document": set(test_render.PJ_ELEMENTS),
        "tests/test_deadlines.py::test_deadline_vector": {p.id for p in test_deadlines.DEADLINE_VECTORS},
        "tests/test_deadlines.py::test_notice_vector": {p.id for p in test_deadlines.NOTICE_VECTORS},
    }


@pytest.mark.parametrize("lei", LAWS_WITH_TABLE)
def test_parametrized_test_ids_named_by_the_table_exist(lei: str) -> None:
    """``check_testes`` reads the function names; for the data-driven tests above, the id in brackets must name a
    parameter the test really has (``test_vector[cuiaba-art36-I-leve]``)."""
    ids = _param_ids()
    wrong = []
    for entry in load_coverage(coverage_file(RULES, lei), lei).entries:
        for item in entry.testes:
            name, bracket, rest = item.partition("[")
            if bracket and name in ids and rest.rstrip("]") not in ids[name]:
                wrong.append(f"{entry.dispositivo.dispositivo().short()}: {item}")
    assert not wrong, "\n".join(wrong)
