"""The preconditions of each act, as data ('pressupostos' of the rules): what the law requires to be in the processo
before an act for the act to be valid, read from the statutes.

* Ferraz de Vasconcelos, Lei nº 3.240/2015: art. 76, III ("por edital ... se desconhecido o domicílio fiscal do
  infrator"); art. 4º and the other articles that fine the unanswered notice ("Não sendo atendida a notificação,
  serão os responsáveis autuados"), art. 37 among them ("ficando a obra embargada"; the fine only after the 8 dias
  úteis); art. 69, § 2º ("terá sua atividade suspensa": a penalty the law imposes).
* Timóteo, Lei nº 3.844/2022: art. 21, III and § 2º (the edital "se estiver em local incerto ou desconhecido"; the
  AR received at the auto's address, or one in the public registers, is valid); art. 20, § 1º, IV (the provision
  infringed) and § 3º (no omissions, "sob pena de nulidade"); art. 16, § 4º (the owner of the goods is the
  depositary); art. 5º, IV (lifting the interdiction).
* Cuiabá, Lei nº 3.666/1997: art. 11, § 2º ("mediante pagamento de multa e taxa"); art. 28 (more than 10 animals
  "com idade superior a 90 (noventa) dias"); silent on notice, Lei nº 9.784/1999, art. 26, § 4º, by analogy.

Each invalid processo is paired with the words its finding must hold; the valid ones validate. The void examples of
samples/verificacao are checked against their README. The loader refuses malformed preconditions with the file, the
key and the line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos import Autos
from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.errors import RulesError
from autos.processo.load import load_processo, parse_processo
from autos.rules.procedure import load_procedure

from .conftest import DATA, ROOT, SAMPLES, TODAY, expected_finding

FIXTURES = DATA / "pressupostos"
EXPECT: dict[str, list[dict[str, Any]]] = yaml.safe_load(
    (FIXTURES / "invalidos" / "expectations.yaml").read_text(encoding="utf-8"))
VOID: dict[str, list[dict[str, Any]]] = yaml.safe_load((FIXTURES / "verificacao.yaml").read_text(encoding="utf-8"))
VALID = sorted(p.name for p in (FIXTURES / "validos").glob("*.yaml"))
STATUTES = {
    "ferraz": ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt",
    "timoteo": ROOT / "rules" / "timoteo-mg" / "timoteo-mg-lei-3844-2022-sim.txt",
    "cuiaba": ROOT / "rules" / "cuiaba-mt" / "cuiaba-mt-lei-3666-1997-zoonoses.txt",
}
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"


def findings(autos: Autos, file: Path) -> list[dict[str, Any]]:
    report = autos.validate(file)
    assert report.error is None, report.error
    return [f.to_dict() for f in report.findings]


def law_says(law: str, *quotes: str) -> None:
    text = " ".join(STATUTES[law].read_text(encoding="utf-8").split())
    for q in quotes:
        assert q in text, q


def test_the_statutes_say_what_the_preconditions_encode() -> None:
    law_says("ferraz", "III- por edital, com prazo de 5 (cinco) dias corridos, se desconhecido o domicílio fiscal",
             "Não sendo atendida a notificação, serão os responsáveis autuados",
             "no prazo de 8 (oito) dias úteis, ficando a obra embargada",
             "O estabelecimento comercial que reincidir no descumprimento ao artigo 64, terá sua atividade suspensa")
    law_says("timoteo", "Ill - por edital, se estiver em local incerto ou desconhecido.",
             "bastando ser recebida no endereço constante do auto de infração ou indicado em algum dos cadastros",
             "IV — o dispositivo legal ou regulamentar infringido;",
             "O auto de infração não poderá conter emendas, rasuras ou omissões, sob pena de nulidade.",
             "o proprietário ou responsável pelos produtos será o fiel depositário do produto")
    law_says("cuiaba", "mediante pagamento de multa e taxa referentes a transporte, alimentação, permanência e outras",
             "mais de 10 (dez) animais, no total, das espécies canina ou felina, com idade superior a 90 (noventa) "
             "dias")


def test_every_invalid_fixture_has_its_expectation() -> None:
    assert sorted(p.name for p in (FIXTURES / "invalidos").glob("*.yaml") if p.name != "expectations.yaml") == \
        sorted(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_an_act_without_its_precondition_is_an_error_with_the_article(autos: Autos, name: str) -> None:
    found = findings(autos, FIXTURES / "invalidos" / name)
    for exp in EXPECT[name]:
        assert expected_finding(found, exp)["severidade"] == "erro"


@pytest.mark.parametrize("name", VALID)
def test_an_act_with_its_preconditions_validates(autos: Autos, name: str) -> None:
    errors = [f for f in findings(autos, FIXTURES / "validos" / name) if f["severidade"] == "erro"]
    assert not errors, errors


def test_every_void_example_of_the_readme_is_checked() -> None:
    readme = (SAMPLES / "verificacao" / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Atos sem os seus pressupostos"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section else section  # up to the next section
    rows = {m[0]: set(re.findall(r"`([A-Z][A-Z0-9-]+)`", m[1]))
            for m in re.findall(r"^\| `([^`]+\.yaml)` \| ([^|]+) \|", section, re.M)}
    assert rows and set(rows) == set(VOID)
    for name, codes in rows.items():
        assert codes == {e["codigo"] for e in VOID[name]}, name


@pytest.mark.parametrize("name", sorted(VOID))
def test_void_example_raises_the_finding_the_readme_lists(autos: Autos, name: str) -> None:
    found = findings(autos, SAMPLES / "verificacao" / name)
    for exp in VOID[name]:
        assert expected_finding(found, exp)["severidade"] == "erro"


def test_the_error_blocks_the_final_document_of_the_act(tmp_path: Path) -> None:
    # Ferraz art. 4º: the auto of the day of the notice is refused as final; its document is only a MINUTA
    file = SAMPLES / "verificacao" / "ferraz-de-vasconcelos-sp" / "06-auto-no-dia-da-notificacao.yaml"
    result = CliRunner().invoke(main, ["--hoje", "2026-11-30", "gerar", str(file), "--ato", "2", "--formato", "pdf",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "AUTO-SEM-NOTIFICACAO-PREVIA" in result.output and not list(tmp_path.iterdir())


def test_a_notice_precedes_the_infraction_it_warns_of_but_an_apprehension_does_not(autos: Autos) -> None:
    # the notificação preliminar of 10/08/2026 is before the infraction (10/09/2026, the day after its term) and is
    # no ANTES-DA-INFRACAO; an act the rules do not mark so still is
    sample = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-004417-terreno.yaml"
    assert not [f for f in findings(autos, sample) if f["severidade"] == "erro"]
    cabras = SAMPLES / "verificacao" / "cuiaba-mt" / "01-apreensao-cabras-sem-dono.yaml"
    text = cabras.read_text(encoding="utf-8").replace("\nlocal: Rua Seis",
                                                      "\ndata_infracao: 2026-11-24\nlocal: Rua Seis")
    t = ProcessoService(ROOT / "rules").check(parse_processo(text, cabras), TODAY)
    assert "ANTES-DA-INFRACAO" in {f.codigo for f in t.achados}


def test_the_mandatory_suspension_gives_way_to_the_cassation_art69_p3(autos: Autos) -> None:
    # art. 69, § 3º: a new infraction after the suspension cancels the licence — the cassação takes the suspension's
    # place (substituida_por), so the auto that applies it needs no suspension
    codes = {f["codigo"] for f in findings(autos, DATA / "processo" / "documentos" / "fv-cassacao.yaml")}
    assert "PENALIDADE-OBRIGATORIA" not in codes


def test_publisher_refuses_an_edital_for_a_known_address_without_the_letter_art21_iii(tmp_path: Path) -> None:
    folder = tmp_path / "editais"
    folder.mkdir()
    src = (SAMPLES / "verificacao" / "timoteo-mg" / "13-edital-sem-carta.yaml").read_text(encoding="utf-8")
    text = src[:src.index("  - tipo: edital")].replace("  primario: true\n",
                                                        "  primario: true\n  endereco_desconhecido: true\n")
    (folder / "sem-carta.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--hoje", "2026-10-27", "publicar-editais", str(folder), "--data", "2026-10-27",
                                       "--data-jornal", "2026-10-27", "-o", str(tmp_path / "out"), "--dry-run"])
    assert result.exit_code == 1, result.output
    refusal = " ".join(next(x for x in result.output.splitlines() if x.startswith("recusado:")).split())
    for words in ("sem o pressuposto da Lei nº 3.844/2022, art. 21, inciso III", "endereço constante do auto",
                  "edital-local-incerto", "ato notificacao_ar"):
        assert words in refusal, (words, refusal)


def test_regras_mostrar_lists_each_acts_preconditions_with_the_article() -> None:
    def show(lei: str) -> str:
        result = CliRunner().invoke(main, ["regras", "mostrar", lei])
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split())

    timoteo = show("timoteo-mg/lei-3844-2022")
    assert "[AUTO-OMISSO] Lei nº 3.844/2022, art. 20, § 3º" in timoteo
    assert "(o auto lista a penalidade 'apreensao')" in timoteo
    assert "[DEPOSITARIO-NAO-RESPONSAVEL] Lei nº 3.844/2022, art. 16, § 4º" in timoteo
    assert "[DISPOSITIVO-SEM-NORMA] Lei nº 3.844/2022, art. 20, § 1º, inciso IV" in timoteo
    assert ("riispoa — Decreto federal nº 9.013, de 29/03/2017 (RIISPOA) — Regulamenta a Lei nº 1.283" in timoteo
            and "(aplica-se pela Lei nº 3.844/2022, art. 7º; publicação: Diário Oficial da União de 30/03/2017"
            in timoteo)
    assert "decreto-municipal-5123-2022 — Decreto municipal nº 5.123, de 01/09/2022 [EXEMPLO: não confirmado" in timoteo
    assert "condicoes_levantamento (Lei nº 3.844/2022, art. 5º, inciso IV)" in timoteo
    ferraz = show(FERRAZ)
    assert "[AUTO-SEM-NOTIFICACAO-PREVIA] Lei nº 3.240/2015, art. 37, parágrafo único" in ferraz
    assert "de prazo plantas_alvara_art37, vencido antes do auto" in ferraz
    assert ("só quando reincidencia-art64: o estabelecimento comercial reincidiu no descumprimento do art. 64 (sons "
            "acima do limite) (Lei nº 3.240/2015, art. 69, § 2º) — obrigatória nesse caso") in ferraz
    assert "precede a infração (a infração é não atendê-lo)" in ferraz
    cuiaba = show("cuiaba-mt/lei-3666-1997")
    assert "[RESGATE-SEM-PAGAMENTO] Lei nº 3.666/1997, art. 11, § 2º" in cuiaba
    assert "[FATO-DA-INFRACAO] Lei nº 3.666/1997, art. 28" in cuiaba
    assert "infracoes[].idade_minima_dias (a idade, em dias, do mais novo dos animais contados) maior que 90" in cuiaba
    for out in (timoteo, ferraz, cuiaba):  # the choices behind them are shown too
        assert "Escolhas" in out


# --- the strict loader ------------------------------------------------------------------------------------------


def _rules_copy(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    return rules


@pytest.mark.parametrize("old, new, words", [
    ("          ato_anterior: {tipos: [diligencia], depois_da_devolucao: true}\n",
     "          ato_anterior: {tipos: [busca], depois_da_devolucao: true}\n",
     ["ato 'busca' não está em 'atos'", "atos.edital.pressupostos[1].exige.ato_anterior.tipos[0]"]),
    ("          ato_anterior: {tipos: [diligencia], depois_da_devolucao: true}\n",
     "          ato_anterior: {tipos: [diligencia], depois_da_devolucao: true}\n          penalidade_no_auto: multa\n",
     ["exatamente um predicado", "há 2"]),
    ("        quando: {endereco_conhecido: true}\n", "        quando: {endereco_conhecido: true, urgente: true}\n",
     ["urgente"]),
    ("      - id: diligencia-de-localizacao\n", "      - id: carta-devolvida\n",
     ["dois pressupostos com o id 'carta-devolvida'"]),
])
def test_a_malformed_precondition_is_refused_with_file_key_and_line(tmp_path: Path, old: str, new: str,
                                                                     words: list[str]) -> None:
    rules = _rules_copy(tmp_path)
    file = rules / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.processo.yaml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_procedure(rules, FERRAZ)
    msg = str(err.value)
    assert "lei-3240-2015.processo.yaml" in msg and "linha" in msg, msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.parametrize("old, new, words", [
    ("          notificacao_nao_atendida: {ato: notificacao_preliminar, prazos: [limpeza_terreno_art4]}\n",
     "          notificacao_nao_atendida: {ato: intimacao, prazos: [limpeza_terreno_art4]}\n",
     ["o pressuposto 'notificacao-nao-atendida' cita o ato 'intimacao', que o rito da lei não tem",
      "infracoes.terreno-sem-limpeza.pressupostos[0]"]),
    ("          notificacao_nao_atendida: {ato: notificacao_preliminar, prazos: [limpeza_terreno_art4]}\n",
     "          notificacao_nao_atendida: {ato: notificacao_preliminar, prazos: [limpeza_art4]}\n",
     ["cita o prazo 'limpeza_art4', que o rito da lei não tem"]),
])
def test_a_precondition_of_an_infraction_naming_what_the_rite_lacks_is_refused(tmp_path: Path, old: str, new: str,
                                                                               words: list[str]) -> None:
    rules = _rules_copy(tmp_path)
    file = rules / "ferraz-de-vasconcelos-sp" / "lei-3240-2015.yaml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    sample = load_processo(SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-004417-terreno.yaml")
    with pytest.raises(RulesError) as err:
        Autos(rules, ROOT / "templates", today=TODAY).processos.check(sample, TODAY)
    msg = str(err.value)
    assert "lei-3240-2015.yaml" in msg and "linha" in msg, msg
    for w in words:
        assert w in msg, (w, msg)


def test_custody_days_counted_by_a_term_the_law_lacks_are_refused_cuiaba_art11(tmp_path: Path) -> None:
    """Cuiabá art. 11, §§ 2º–3º: the table's diárias are the days of the retrieval term (prazo_diarias, choice
    art11-diarias); a term id the law's prazos file does not have is a rules error with file, key and line."""
    rules = _rules_copy(tmp_path)
    file = rules / "cuiaba-mt" / "lei-3666-1997.yaml"
    text = file.read_text(encoding="utf-8")
    old = "      prazo_diarias: resgate_art11_p2"
    assert old in text
    file.write_text(text.replace(old, "      prazo_diarias: resgate_art11", 1), encoding="utf-8")
    sample = load_processo(SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-000391-caes-pago.yaml")
    with pytest.raises(RulesError) as err:
        Autos(rules, ROOT / "templates", today=TODAY).processos.check(sample, TODAY)
    msg = str(err.value)
    for w in ("lei-3666-1997.yaml", "linha", "penalidades.despesas-apreensao.calculo.prazo_diarias",
              "as diárias da penalidade 'despesas-apreensao' contam-se pelo prazo 'resgate_art11', que a lei não tem", "resgate_art11_p2"):
        assert w in msg, (w, msg)


def test_an_unconfirmed_regulation_needs_no_publication_but_a_confirmed_one_does(tmp_path: Path) -> None:
    rules = _rules_copy(tmp_path)
    file = rules / "timoteo-mg" / "lei-3844-2022.yaml"
    text = file.read_text(encoding="utf-8")
    old = "    publicacao: Diário Oficial da União de 30/03/2017\n"
    assert old in text
    file.write_text(text.replace(old, ""), encoding="utf-8")
    with pytest.raises(RulesError) as err:
        Autos(rules, ROOT / "templates", today=TODAY)
    assert "publicacao" in str(err.value) and "lei-3844-2022.yaml" in str(err.value)
