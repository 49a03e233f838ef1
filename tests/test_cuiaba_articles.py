"""Cuiabá (Lei nº 3.666/1997): the articles the coverage table still had pending, each encoded in the rules and tested here from the statute text — art. 3º, II and III (the two
posts of art. 37), art. 3º, XI and art. 8º (the cão mordedor vicioso), art. 9º, II and V (grounds of apprehension
that are no conduct), art. 11, § 7º (the sacrifice before the rescue term), art. 20 (a duty that is no autonomous
infraction), art. 27 and art. 34 (duties that are), art. 29, parágrafo único (the exception) and art. 36, § 3º (the
definitive apprehension on reiteration). Valid fixtures validate; invalid ones give the finding with its words."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT, expected_finding
from .textutil import document_text

FIXTURES = DATA / "cuiaba_artigos"
VALID = sorted(p.name for p in (FIXTURES / "validos").glob("*.yaml"))
EXPECT: dict[str, list[dict[str, Any]]] = yaml.safe_load(
    (FIXTURES / "invalidos" / "expectations.yaml").read_text(encoding="utf-8"))
STATUTE = ROOT / "rules" / "cuiaba-mt" / "cuiaba-mt-lei-3666-1997-zoonoses.txt"
LAW = "cuiaba-mt/lei-3666-1997"


def run(*args: str) -> tuple[int, str]:
    """Exit code and standard output (the notice on old one-document files goes to standard error)."""
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", *args])
    return result.exit_code, result.stdout


def findings(file: Path) -> list[dict[str, Any]]:
    _code, out = run("validar", "--json", str(file))
    found: list[dict[str, Any]] = json.loads(out)[0]["achados"]
    return found


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def statute_says(words: str) -> None:
    """The statute text has these words (the rules quote the law, not a paraphrase of it)."""
    assert _fold(words) in _fold(STATUTE.read_text(encoding="utf-8")), words


def test_every_invalid_fixture_has_its_expectation() -> None:
    assert sorted(p.name for p in (FIXTURES / "invalidos").glob("*.yaml") if p.name != "expectations.yaml") == \
        sorted(EXPECT)


@pytest.mark.parametrize("name", VALID)
def test_cuiaba_article_valid_fixture_has_no_error(name: str) -> None:
    errors = [f for f in findings(FIXTURES / "validos" / name) if f["severidade"] == "erro"]
    assert not errors, errors


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_cuiaba_article_invalid_fixture_is_refused_with_its_finding(name: str) -> None:
    found = findings(FIXTURES / "invalidos" / name)
    for exp in EXPECT[name]:
        match = expected_finding(found, exp)
        assert match["severidade"] == "erro"


def test_cuiaba_art3_ii_iii_only_the_two_posts_of_the_law_and_the_agente_sanitario_is_a_veterinarian() -> None:
    statute_says("II. AGENTE SANITÁRIO: Médico Veterinário do Centro de Controle de Zoonoses ou da Fundação de Saúde")
    statute_says("III. AGENTE DE CONTROLE DE ZOONOSES: Funcionário do Centro de Controle de Zoonoses habilitado")
    statute_says("Os Agentes Sanitários e Agentes de Controle de Zoonoses são competentes para aplicação das "
                 "penalidades de que trata o Artigo 35.")
    ok = findings(FIXTURES / "validos" / "cuiaba-art3-ii-art27-agente-sanitario.yaml")
    assert not [f for f in ok if f["codigo"].startswith("CBA-3")], ok


def test_cuiaba_art8_art3_xi_termo_cites_art8_with_the_proof_and_is_no_penalty(tmp_path: Path) -> None:
    statute_says("Art. 8º Serão apreendidos os cães mordedores viciosos, condição esta constatada por agente do Órgão "
                 "Sanitário Responsável e/ou comprovada mediante dois ou mais boletins de ocorrência policial.")
    statute_says("XI. CÃES MORDEDORES VICIOSOS: Os causadores de mordeduras a pessoas ou outros animais em logradouro "
                 "público de forma repetida.")
    code, out = run("gerar", str(FIXTURES / "validos" / "cuiaba-art8-cao-mordedor-vicioso.yaml"), "-o", str(tmp_path))
    assert code == 0, out
    for ext in ("pdf", "docx"):
        (doc,) = tmp_path.glob(f"termo-apreensao-*.{ext}")
        text = _fold(document_text(doc))
        assert "art. 8º — Cão mordedor vicioso" in text, text
        assert "de forma repetida (art. 3º, XI)" in text
        assert "boletins de ocorrência policial nº 5.812/2026 e nº 6.044/2026" in text  # the proof art. 8º asks
        # not a penalty of art. 35, II: the apprehension cites its ground
        assert "Apreensão do animal (Lei nº 3.666/1997, art. 8º — fundamento da apreensão, que não é infração)" in text
        assert "art. 35, inciso II" not in text


def test_cuiaba_art9_ii_and_art11_p7_early_sacrifice_in_an_outbreak_area_is_a_warning_citing_p7() -> None:
    statute_says("II. Suspeito de raiva ou outra zoonose;")
    statute_says("§ 7º O animal capturado em área de foco de zoonoses emergentes graves (raiva, leishmaniose visceral e "
                 "outras) poderá, a critério do Órgão Sanitário Responsável, ser sacrificado sem aguardar o prazo de "
                 "resgate")
    found = findings(FIXTURES / "validos" / "cuiaba-art11-p7-sacrificio-em-area-de-foco.yaml")
    (early,) = [f for f in found if f["codigo"] == "PRAZO-ANTECIPADO"]
    assert early["severidade"] == "aviso"
    assert early["citacao"] == "Lei nº 3.666/1997, art. 11, § 7º"
    assert "26/11/2026" in early["mensagem"] and "área de foco de raiva" in early["mensagem"]


def test_cuiaba_art20_is_no_autonomous_infraction_and_the_choice_is_printed() -> None:
    statute_says("Art. 20 Ao munícipe compete a adoção de medidas necessárias para a manutenção de sua propriedade "
                 "limpa e isenta de animais da fauna sinantrópica.")
    rules = yaml.safe_load((ROOT / "rules" / "cuiaba-mt" / "lei-3666-1997.yaml").read_text(encoding="utf-8"))
    assert not [k for k, v in rules["infracoes"].items() if v["citacao"].get("artigo") == "20"]
    code, out = run("regras", "mostrar", LAW)
    assert code == 0
    assert "art20-dever-generico" in out and "não é infração autônoma" in out
    assert "acumulo-de-lixo-sinantropicos — Lei nº 3.666/1997, art. 21" in out


def test_cuiaba_art27_and_art34_duties_are_infractions_with_their_choices_printed() -> None:
    statute_says("deverá ser prontamente isolado, e a ocorrência notificada ao Centro de Controle de zoonoses")
    statute_says("Art. 34 Deverá o Centro de Controle de Zoonoses da Fundação de Saúde de Cuiabá, ser comunicado pelos "
                 "Médicos Veterinários, da suspeita ou constatação de ocorrência de zoonoses")
    code, out = run("regras", "mostrar", LAW)
    assert code == 0
    assert "raiva-sem-isolamento — Lei nº 3.666/1997, art. 27" in out
    assert "zoonose-nao-comunicada — Lei nº 3.666/1997, art. 34" in out
    assert "art27-dever-do-responsavel" in out and "art34-sem-regulamento" in out
    for name in ("cuiaba-art3-ii-art27-agente-sanitario.yaml", "cuiaba-art34-veterinario-nao-comunicou.yaml"):
        assert not [f for f in findings(FIXTURES / "validos" / name) if f["severidade"] == "erro"]


def test_cuiaba_art29_pu_exception_is_part_of_the_infraction_the_auto_prints() -> None:
    statute_says("Parágrafo único: Excetuam-se da proibição deste artigo, os locais, recintos e estabelecimentos legal "
                 "e adequadamente instalados, destinados à criação, venda, treinamento, competição, alojamento, "
                 "tratamento e abate de animais.")
    code, out = run("regras", "mostrar", LAW)
    assert code == 0
    line = next(x for x in out.splitlines() if x.strip().startswith("animal-em-recinto-coletivo"))
    assert ("legal e adequadamente instalado para criação, venda, treinamento, competição, alojamento, tratamento ou "
            "abate de animais (exceção do art. 29, parágrafo único)") in line
    assert "art29-excecao" in out


def test_cuiaba_art36_p3_definitive_apprehension_needs_the_reiteration() -> None:
    statute_says("§ 3º Independente do disposto nos parágrafos anteriores, a reiteração de infrações de mesma natureza, "
                 "autorizará a definitiva apreensão dos animais")
    ok = findings(FIXTURES / "validos" / "cuiaba-art36-p3-apreensao-definitiva.yaml")
    assert not [f for f in ok if f["severidade"] == "erro"], ok
    code, out = run("regras", "mostrar", LAW)
    assert "reiteracao-mesma-natureza" in out
