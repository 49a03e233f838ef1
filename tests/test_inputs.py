"""Bad input: each file gives one Portuguese message with file, YAML path and line (data-driven)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from autos.errors import InputError, RulesError
from autos.pipeline import Autos
from autos.rules import load_rules
from autos.yamlio import parse_yaml

from .conftest import DATA

INVALID = DATA / "invalid"
EXPECT = yaml.safe_load((INVALID / "expectations.yaml").read_text(encoding="utf-8"))


def test_every_invalid_fixture_has_an_expectation() -> None:
    files = {p.name for p in INVALID.glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_invalid_case_is_refused_with_located_message(autos: Autos, name: str) -> None:
    exp = EXPECT[name]
    with pytest.raises(InputError) as info:
        autos.check(autos.load(INVALID / name))
    err = info.value
    text = str(err)
    assert name in text
    if "linha" in exp:
        assert err.line == exp["linha"], text
        assert f"linha {exp['linha']}" in text
    for words in exp["contem"]:
        assert words in text, f"{words!r} not in {text!r}"


def test_validate_reports_unreadable_case_instead_of_raising(autos: Autos) -> None:
    report = autos.validate(INVALID / "cpf-invalido.yaml")
    assert report.error is not None and not report.ok


def test_missing_rules_folder(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="pasta de regras não encontrada"):
        load_rules(tmp_path / "nao-existe")


def test_unknown_key_in_rules_names_file_key_and_line(tmp_path: Path) -> None:
    src = (DATA.parent.parent / "rules" / "timoteo-mg" / "lei-3844-2022.yaml").read_text(encoding="utf-8")
    broken = src.replace("arredondamento:\n  casas: 2\n", "arredondamento:\n  casas: 2\n  centavos: sim\n")
    folder = tmp_path / "regras" / "timoteo-mg"
    folder.mkdir(parents=True)
    (folder / "lei-3844-2022.yaml").write_text(broken, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "regras")
    text = str(info.value)
    assert "lei-3844-2022.yaml" in text and "campo desconhecido 'centavos'" in text
    assert info.value.line == broken.splitlines().index("  centavos: sim") + 1


def test_duplicate_key_in_rules(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="chave duplicada 'sigla'"):
        parse_yaml("unidade_fiscal:\n  sigla: A\n  sigla: B\n", tmp_path / "x.yaml", RulesError)


def test_plain_scalars_are_kept_as_typed() -> None:
    """YAML 1.1 would turn 14:30 into 870 and 0123 into 83; nothing a user typed is changed."""
    doc = parse_yaml("hora: 14:30\nnumero: 0123\nsim: yes\n", "x.yaml")
    assert doc.data == {"hora": "14:30", "numero": "0123", "sim": "yes"}


@pytest.mark.parametrize(("old", "new", "words"), [
    # Lei 3.844/2022 (Timóteo), arts. 20 § 2º and 21 § 1º: the signature check quotes them from the rules
    ('          recusa: {artigo: "21", paragrafo: "1"}    # recusa certificada na presença de uma testemunha\n', "",
     ["TIM-20-1-VII", "'citacoes'", "'recusa'"]),
    ("          ciencia: {artigo: \"21\"}", "          intimacao: {artigo: \"21\"}", ["citacoes", "intimacao"]),
])
def test_signature_check_needs_its_citations(tmp_path: Path, old: str, new: str, words: list[str]) -> None:
    src = (DATA.parent.parent / "rules" / "timoteo-mg" / "lei-3844-2022.yaml").read_text(encoding="utf-8")
    assert old in src
    folder = tmp_path / "regras" / "timoteo-mg"
    folder.mkdir(parents=True)
    (folder / "lei-3844-2022.yaml").write_text(src.replace(old, new), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "regras")
    for w in words:
        assert w in str(info.value)
