"""The register of authorities of each municipality (``rules/<municipio>/autoridades.yaml``): read strictly, and
read against the statute text — every organ is one the law names, in the article cited, and every competence by law
cites the article that gives it. Example holders are listed with their lines, so that a municipality sees what it
still has to replace."""

from __future__ import annotations

import functools
import shutil
import unicodedata
from pathlib import Path

import pytest
import yaml

from autos import Autos
from autos.app.processo.service import ProcessoService
from autos.app.verification.coverage import read_statute_text, statute_text_file
from autos.errors import RulesError, RulesFileError
from autos.rules.authorities import load_authorities
from autos.rules.statute import load_rules
from autos.rules.statute_text import Dispositivo

from .conftest import DATA, ROOT

RULES = ROOT / "rules"
HERE = DATA / "autoridades"
INVALID: dict[str, dict[str, object]] = yaml.safe_load((HERE / "expectations.yaml").read_text(encoding="utf-8"))
LAWS = {"timoteo-mg": "timoteo-mg/lei-3844-2022", "cuiaba-mt": "cuiaba-mt/lei-3666-1997",
        "ferraz-de-vasconcelos-sp": "ferraz-de-vasconcelos-sp/lei-3240-2015"}

#: (municipio, post id, act kind) → words of the article the competence cites, as published
COMPETENCE_QUOTES = {
    ("timoteo-mg", "fiscal-sim", "auto"): "competentes para lavrar auto de infração os servidores designados",
    ("timoteo-mg", "fiscal-sim", "apreensao"): "notificar, autuar infracionalmente, apreender produtos",
    ("timoteo-mg", "coordenador-sim", "julgamento"): "aplicar as sanções previstas nesta Lei",
    ("timoteo-mg", "secretario-semdeta", "decisao_recurso"):
        "vinculado à Secretaria Municipal de Desenvolvimento Econômico",
    ("cuiaba-mt", "agente-controle", "auto"): "Agentes Sanitários e Agentes de Controle de Zoonoses são competentes",
    ("cuiaba-mt", "coordenador-ccz", "julgamento"): "ÓRGÃO SANITÁRIO RESPONSÁVEL: O Centro de Controle de Zoonoses",
    ("cuiaba-mt", "presidente-fundacao", "decisao_recurso"):
        "Centro de Controle de Zoonoses da Fundação de Saúde de Cuiabá",
    ("ferraz-de-vasconcelos-sp", "prefeito", "decisao_recurso"): "O recurso será dirigido ao Prefeito",
    ("ferraz-de-vasconcelos-sp", "secretario-seguranca", "decisao_recurso"):
        "delegar ao Secretário Municipal de Segurança, a competência de decidir recursos",
    # the police power of the posturas (art. 1º), exercised by the designated agents (choice fiscalizacao-municipal)
    ("ferraz-de-vasconcelos-sp", "fiscal-posturas", "auto"): "relativas ao Poder de Polícia do Município",
    ("ferraz-de-vasconcelos-sp", "guarda-civil", "termo_ocorrencia"): "lavrarão Termo de Ocorrência",
}


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


@functools.cache
def _texts(lei: str) -> dict[Dispositivo, str]:
    return {f.dispositivo: f.texto for f in read_statute_text(statute_text_file(load_rules(RULES), lei))}


def _text(lei: str, c: object) -> str:
    d = Dispositivo(c.artigo, c.paragrafo, c.inciso, c.alinea)  # type: ignore[attr-defined]
    assert d in _texts(lei), f"{lei}: {d.short()} não existe no texto"
    return _fold(_texts(lei)[d])


@pytest.mark.parametrize("municipio", sorted(LAWS))
def test_every_organ_is_named_by_the_article_it_cites(municipio: str) -> None:
    auth = load_authorities(RULES, municipio)
    assert auth is not None
    own = set(_fold(load_rules(RULES).get(LAWS[municipio]).lei.municipio).split())
    for oid, organ in auth.orgaos.items():
        # every word of the organ's name is in the article it cites (compared by its first six letters, so that the
        # post names the organ: "Secretário Municipal de Segurança" → the Secretaria), but the municipality's name,
        # which the law does not repeat, and short words ("de", "do")
        words = [w for w in _fold(organ.nome).replace("—", " ").split() if len(w) > 3 and w not in own]
        text = _text(organ.lei, organ.citacao)
        missing = [w for w in words if w[:6] not in text]
        assert not missing, (oid, missing, text[:300])


@pytest.mark.parametrize(("key", "words"), sorted(COMPETENCE_QUOTES.items()), ids=lambda x: "-".join(x)
                         if isinstance(x, tuple) else "")
def test_competence_cites_the_article_that_gives_it(key: tuple[str, str, str], words: str) -> None:
    municipio, post, kind = key
    auth = load_authorities(RULES, municipio)
    assert auth is not None
    comps = [c for c in auth.cargos[post].competencias if kind in c.atos]
    assert comps and comps[0].citacao is not None
    assert _fold(words) in _text(comps[0].lei, comps[0].citacao)


@pytest.mark.parametrize("municipio", sorted(LAWS))
def test_the_register_names_only_act_kinds_and_choices_of_the_law(municipio: str) -> None:
    ProcessoService(RULES).authorities(LAWS[municipio])  # check_kinds: raises if not


def test_the_decision_of_the_appeal_in_ferraz_may_be_delegated_only_by_a_published_decree_art79_pu() -> None:
    auth = load_authorities(RULES, "ferraz-de-vasconcelos-sp")
    assert auth is not None
    (c,) = auth.cargos["secretario-seguranca"].competencias
    assert c.por == "delegacao" and c.delegante == "prefeito" and c.ato is not None and c.ato.publicacao
    assert (c.citacao.artigo, c.citacao.paragrafo) == ("79", "unico")  # type: ignore[union-attr]


def test_no_secretary_decides_an_appeal_against_an_organ_of_the_fundacao_de_saude_cuiaba_art2() -> None:
    auth = load_authorities(RULES, "cuiaba-mt")
    assert auth is not None
    posts = auth.competent_posts("cuiaba-mt/lei-3666-1997", "decisao_recurso", __import__("datetime").date(2026, 11, 1))
    assert posts == ["presidente-fundacao"]
    assert auth.cargos["presidente-fundacao"].orgao == "fundacao"


@pytest.mark.parametrize("municipio", sorted(LAWS))
def test_every_fictitious_holder_is_marked_and_listed_with_its_line(municipio: str, shipped_examples: None) -> None:
    auth = load_authorities(RULES, municipio)
    assert auth is not None
    assert all(h.exemplo for h in auth.titulares)  # the shipped holders are examples until the Municipality sets them
    listed = auth.examples()
    text = auth.file.read_text(encoding="utf-8").splitlines()
    for i, h in enumerate(auth.titulares):
        line = auth.doc.line_of(("titulares", i))
        assert (line, f"titular de {auth.cargos[h.cargo].nome}: {h.nome}") in listed
        assert line is not None and h.cargo in text[line - 1]


def test_a_document_signed_by_an_example_holder_knows_it_and_where(shipped_examples: None) -> None:
    autos = Autos(RULES)
    sample = ROOT / "samples" / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml"
    piece = next(p for p in autos.processo_documents(sample) if p.documento == "auto_de_infracao")
    s = piece.loaded.case.signatario
    assert s is not None and s.exemplo
    assert any(f.startswith(str(RULES / "timoteo-mg" / "autoridades.yaml") + ":") for f in s.fontes)


def test_the_edital_signatory_comes_from_the_register(shipped_examples: None) -> None:
    st = Autos(RULES).rules.get("timoteo-mg/lei-3844-2022")
    assert st.edital_assinatura is not None
    assert st.edital_assinatura.nome == "Dra. Mariana Lopes Ferreira"
    assert st.edital_assinatura.cargo == "Coordenadora do Serviço de Inspeção Municipal — SIM"
    assert st.edital_assinatura.ato == "Lei nº 3.844/2022, art. 21, § 3º; designação: Portaria SEMDETA nº 14/2022, " \
        "de 30/03/2022, publicada no Diário Oficial Eletrônico do Município de Timóteo, edição 1.010, de 31/03/2022"
    assert st.edital_assinatura.exemplo


# --- a strict loader -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rules_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rules = tmp_path_factory.mktemp("regras") / "rules"
    shutil.copytree(RULES, rules)
    return rules


def test_the_fixture_register_is_valid(rules_copy: Path) -> None:
    shutil.copy(HERE / "valido.yaml", rules_copy / "timoteo-mg" / "autoridades.yaml")
    assert ProcessoService(rules_copy).authorities("timoteo-mg/lei-3844-2022") is not None


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_register_is_an_error_naming_file_key_and_line(rules_copy: Path, name: str) -> None:
    target = rules_copy / "timoteo-mg" / "autoridades.yaml"
    shutil.copy(HERE / f"{name}.yaml", target)
    with pytest.raises(RulesFileError) as info:
        ProcessoService(rules_copy).authorities("timoteo-mg/lei-3844-2022")
    err = info.value
    exp = INVALID[name]
    assert err.file is not None and Path(err.file) == target
    assert err.line == exp["linha"], (err.line, str(err))
    for words in exp["contem"]:  # type: ignore[attr-defined]
        assert words in str(err), (words, str(err))


def test_every_invalid_fixture_has_an_expectation() -> None:
    assert {p.stem for p in HERE.glob("*.yaml")} - {"expectations", "valido"} == set(INVALID)


def test_the_edital_signatory_in_the_law_rules_and_in_the_register_is_an_error(rules_copy: Path) -> None:
    shutil.copy(RULES / "timoteo-mg" / "autoridades.yaml", rules_copy / "timoteo-mg" / "autoridades.yaml")
    law = rules_copy / "timoteo-mg" / "lei-3844-2022.yaml"
    original = law.read_text(encoding="utf-8")
    law.write_text(original + "\nedital_assinatura: {nome: Fulana, cargo: Coordenadora}\n", encoding="utf-8")
    try:
        with pytest.raises(RulesError) as info:
            Autos(rules_copy)
        assert "em dois lugares" in str(info.value) and "edital_assinatura" in str(info.value)
    finally:
        law.write_text(original, encoding="utf-8")
