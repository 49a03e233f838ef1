"""Nothing 'de exemplo' in a final document: a document that uses an example value of the rules (the fiscal unit's
value, a deadline the law leaves to a regulation, a calendar day not checked against the decree, a fictitious
signer, an example regulation) is a MINUTA with the reason on its face; the Municipality sets its official values,
each with its act, in ``rules/<municipio>/valores-oficiais.yaml``; ``autos regras exemplos`` lists what is left."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.cli import main
from autos.errors import RulesError
from autos.rules.official import FILE_NAME, OfficialAct, OfficialValues, load_official

from .conftest import OFFICIAL_VALUES, ROOT, SAMPLES, TODAY

#: one processo of each law (generating all the samples twice costs a minute of the suite)
PROCESSOS = [SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0520-prazo-de-recurso.yaml",
             SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml",
             SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"]


def _text(pdf: Path) -> str:
    return " ".join(" ".join((p.extract_text() or "").split()) for p in pypdf.PdfReader(pdf).pages)


def _bare(text: str) -> str:
    """``text`` without any white space: a line of the PDF may break a file name after its hyphen."""
    return re.sub(r"\s+", "", text)


@pytest.fixture
def official_rules(tmp_path: Path, shipped_examples: None) -> Path:
    """A copy of the shipped rules with the test municipalities' official values in each municipality's folder."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    for mun in OFFICIAL_VALUES.iterdir():
        shutil.copy(mun / FILE_NAME, rules / mun.name / FILE_NAME)
    return rules


@pytest.mark.parametrize("processo", PROCESSOS, ids=lambda p: p.stem)
def test_a_document_that_uses_an_example_value_is_a_minuta_saying_which(processo: Path, tmp_path: Path,
                                                                         shipped_examples: None) -> None:
    # every holder of the shipped registers is fictitious (exemplo: true), and so is every fiscal-unit value
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    acts = autos.generate_processo(processo, tmp_path, "pdf")
    assert acts
    for _n, done in acts:
        assert not isinstance(done, Exception), done
        assert done.draft and done.exemplos
        for f in done.files:
            assert f.stem.endswith("-MINUTA")
            text = _text(f)
            assert "MINUTA" in text
            for reason in done.exemplos:  # each example by name, with its file, on the face
                assert _bare(reason) in _bare(text), (reason, f)
            assert "valores-oficiais.yaml" in text


def test_the_auto_with_an_example_fiscal_unit_names_the_unit_year_and_file(tmp_path: Path,
                                                                           shipped_examples: None) -> None:
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    done = dict(autos.generate_processo(PROCESSOS[0], tmp_path, "pdf", ato=1))[1]
    assert not isinstance(done, Exception)
    text = _bare(_text(done.files[0]))
    assert _bare("valor da UFM de 2026 é de exemplo — rules/ferraz-de-vasconcelos-sp/lei-3240-2015.yaml; o Município "
                 "fixa o valor oficial em rules/ferraz-de-vasconcelos-sp/valores-oficiais.yaml") in text


@pytest.mark.parametrize("processo", PROCESSOS, ids=lambda p: p.stem)
def test_with_the_official_values_every_document_is_final(processo: Path, tmp_path: Path,
                                                          official_rules: Path) -> None:
    autos = Autos(official_rules, ROOT / "templates", today=TODAY)
    for _n, done in autos.generate_processo(processo, tmp_path, "pdf"):
        assert not isinstance(done, Exception), done
        assert not done.draft and not done.exemplos
        for f in done.files:
            assert not f.stem.endswith("MINUTA")
            assert "MINUTA" not in _text(f)


def test_the_fine_is_computed_with_the_official_value_of_the_fiscal_unit(tmp_path: Path,
                                                                         official_rules: Path) -> None:
    # Lei nº 3.240/2015 (Ferraz), art. 2º, II, § 2º: entulho em via pública, multa de 30 UFM; the test official value
    # of the UFM for 2026 is R$ 156,1935 (Decreto nº 125/2025 of the fixture): 30 × 156,1935 = 4.685,805, rounded half
    # up to the cent (arredondamento of the rules) = R$ 4.685,81
    autos = Autos(official_rules, ROOT / "templates", today=TODAY)
    done = dict(autos.generate_processo(PROCESSOS[0], tmp_path, "pdf", ato=1))[1]
    assert not isinstance(done, Exception) and not done.draft
    text = _bare(_text(done.files[0]))
    assert _bare("30 (trinta) UFM, correspondente a R$ 4.685,81 (quatro mil seiscentos e oitenta e cinco reais e "
                 "oitenta e um centavos)") in text
    assert _bare("Decreto nº 125/2025") in text
    assert "EXEMPLO" not in text


def test_gerar_prints_minuta_with_the_examples_and_exits_0(tmp_path: Path, shipped_examples: None) -> None:
    result = CliRunner().invoke(main, ["--hoje", TODAY.isoformat(), "gerar", str(PROCESSOS[1]), "-o", str(tmp_path),
                                       "--formato", "pdf", "--processos", "1"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert lines and all(x.startswith("minuta: ") and "-MINUTA.pdf (valores de exemplo: " in x for x in lines)
    # Lei nº 3.844/2022 (Timóteo), art. 20, § 1º, V: the auto states the term of defence, which the law leaves to the
    # regulation (art. 31): the rules' 15 days are an example
    assert any('o prazo "Prazo para apresentação de defesa contra o auto de infração" (defesa_art20_p1_v) é de exemplo '
               "— rules/timoteo-mg/lei-3844-2022.prazos.yaml" in x for x in lines)


# --- the strict loader -------------------------------------------------------------------------------------------

_ACT = '{especie: Decreto, numero: "1/2026", data: 2026-01-05, publicacao: "Diário Oficial, de 06/01/2026"}'
BAD = [
    ("chave-desconhecida", "municipio: timoteo-mg\nvalor_unidade: 3\n", ["valor_unidade", "desconhecido"]),
    ("chave-repetida", "municipio: timoteo-mg\nmunicipio: timoteo-mg\n", ["municipio", "linha 2"]),
    ("ato-sem-publicacao", "municipio: timoteo-mg\nunidade_fiscal:\n  lei-3844-2022:\n    - {ano: 2026, valor: \"5\", "
     "ato: {especie: Decreto, numero: \"1/2026\", data: 2026-01-05}}\n", ["publicacao", "linha 4"]),
    ("ano-repetido", f"municipio: timoteo-mg\nunidade_fiscal:\n  lei-3844-2022:\n    - {{ano: 2026, valor: \"5\", "
     f"ato: {_ACT}}}\n    - {{ano: 2026, valor: \"6\", ato: {_ACT}}}\n", ["2026", "duas vezes", "linha 5"]),
    ("outro-municipio", "municipio: cuiaba-mt\n", ["cuiaba-mt", "timoteo-mg", "municipio"]),
    ("data-invalida", "municipio: timoteo-mg\ncalendario:\n  - {nome: Carnaval, ato: {especie: Decreto, numero: \"1\", "
     "data: 2026-02-30, publicacao: x}}\n", ["data", "linha 3"]),
]


@pytest.mark.parametrize(("text", "words"), [(t, w) for _i, t, w in BAD], ids=[i for i, _t, _w in BAD])
def test_the_official_values_loader_refuses_bad_input_naming_file_and_key(text: str, words: list[str],
                                                                          tmp_path: Path) -> None:
    folder = tmp_path / "timoteo-mg"
    folder.mkdir()
    (folder / FILE_NAME).write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_official(folder)
    message = str(err.value)
    assert FILE_NAME in message
    for w in words:
        assert w in message, (w, message)


def test_every_field_of_the_official_values_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Valores oficiais do Município", 1)[1].split("\n### ", 1)[0]
    models: list[type] = [OfficialValues, OfficialAct]
    seen: set[type] = set()
    while models:
        m = models.pop()
        if m in seen:
            continue
        seen.add(m)
        for name, info in m.model_fields.items():  # type: ignore[attr-defined]
            assert f"`{name}`" in section or f"{name}:" in section, f"{m.__name__}.{name} not in the README"
            for arg in re.findall(r"\b([A-Z][A-Za-z]+)\b", str(info.annotation)):
                sub = sys.modules["autos.rules.official"].__dict__.get(arg)
                if isinstance(sub, type) and hasattr(sub, "model_fields"):
                    models.append(sub)
    assert len(seen) >= 7


# --- autos regras exemplos ---------------------------------------------------------------------------------------

def test_regras_exemplos_lists_each_example_with_file_line_and_fix(shipped_examples: None) -> None:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "regras", "exemplos", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    ufm = [r for r in rows
           if r["caminho"].startswith("unidade_fiscal") and r["municipio"] == "ferraz-de-vasconcelos-sp"]
    lines = (ROOT / "rules/ferraz-de-vasconcelos-sp/lei-3240-2015.yaml").read_text(encoding="utf-8").splitlines()
    assert {r["o_que"][:33] for r in ufm} == {"valor da unidade fiscal de 2024 (", "valor da unidade fiscal de 2025 (",
                                              "valor da unidade fiscal de 2026 ("}
    for r in rows:  # the line given is the example's own 'exemplo: true'
        text = (ROOT / r["arquivo"]).read_text(encoding="utf-8").splitlines()[r["linha"] - 1]
        assert "exemplo: true" in text, r
        assert "valores-oficiais.yaml" in r["como_corrigir"]
    assert any(r["caminho"] == "prazos.pagamento_exemplo.novo" for r in rows)
    assert any(r["caminho"] == "regulamentos.decreto-municipal-5123-2022" for r in rows)
    assert lines  # the file read
    text = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "regras", "exemplos", "timoteo-mg/lei-3844-2022"])
    assert text.exit_code == 0
    assert "rules/timoteo-mg/lei-3844-2022.yaml, linha 65 (unidade_fiscal.valores[4]): valor da unidade fiscal de " \
           "2026" in text.output
    assert "cuiaba-mt" not in text.output


def test_regras_exemplos_lists_only_what_the_official_values_leave_an_example(official_rules: Path) -> None:
    # the test municipalities set every official value but Timóteo's example decree (a decree that does not exist:
    # an auto citing it is refused, Lei 3.844 art. 20, § 1º, IV); it is the one example left
    result = CliRunner().invoke(main, ["--regras", str(official_rules), "regras", "exemplos"])
    assert result.exit_code == 0
    assert "timoteo-mg: 1 valor de exemplo" in result.output
    assert "regulamentos.decreto-municipal-5123-2022" in result.output
    assert "cuiaba-mt" not in result.output and "ferraz-de-vasconcelos-sp" not in result.output
    shown = CliRunner().invoke(main, ["--regras", str(official_rules), "regras", "mostrar", "cuiaba-mt/lei-3666-1997"])
    assert "Valores de exemplo: nenhum." in shown.output


def test_regras_mostrar_counts_the_examples_of_the_law(shipped_examples: None) -> None:
    n = len(json.loads(CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "regras", "exemplos",
                                                 "timoteo-mg/lei-3844-2022", "--json"]).output))
    shown = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "regras", "mostrar", "timoteo-mg/lei-3844-2022"])
    assert f"Valores de exemplo: {n} (veja autos regras exemplos timoteo-mg/lei-3844-2022" in shown.output


# --- the night: an edital that uses an example is not published -------------------------------------------------

def test_publicar_editais_refuses_an_edital_that_uses_an_example(tmp_path: Path, shipped_examples: None) -> None:
    cases = tmp_path / "editais"
    shutil.copytree(SAMPLES / "editais", cases)
    env = {k: v for k, v in __import__("os").environ.items() if k != "AUTOS_VALORES_OFICIAIS"}
    run = subprocess.run([str(Path(sys.executable).parent / "autos"), "--hoje", "2026-12-02", "publicar-editais",
                          str(cases / "sim-2026-000231-pj-local-incerto.yaml"), "--data", "2026-12-03", "--veiculo",
                          "Diário Oficial", "--jornal", "Jornal", "-o", str(tmp_path / "out")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert ("edital não publicado: usaria valores de EXEMPLO das regras e seria uma MINUTA (uma minuta não é "
            "publicada): quem assina o edital (Dra. Mariana Lopes Ferreira") in run.stdout
    assert not list((tmp_path / "out").rglob("*.pdf"))


def test_an_interpretive_choice_is_not_printed_in_the_published_edital(tmp_path: Path) -> None:
    # the processo whose edital is published (Timóteo, art. 21, § 2º); validar and regras mostrar keep the choices
    processo = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000188-edital.yaml"
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    editais = [done for _n, done in autos.generate_processo(processo, tmp_path, "pdf")
               if not isinstance(done, Exception) and done.documento == "edital_notificacao"]
    assert editais
    for done in editais:
        assert "Escolha interpretativa" not in _text(done.files[0])
    shown = CliRunner().invoke(main, ["regras", "mostrar", "timoteo-mg/lei-3844-2022"])
    assert "escolha" in shown.output.lower()
