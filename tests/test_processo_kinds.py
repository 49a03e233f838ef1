"""New document kinds the laws call for, so that every article is accounted for, on the processo
timeline: each act has its document as of its date, with the elements the law's rules file lists, checked by the
extracted text of the PDF and the DOCX (``tests/textutil.py``). Dates and amounts are worked out by hand below.

1. Cuiabá (Lei nº 3.666/1997) notice of the auto by AR letter and by edital. The law is silent on notice (art. 39
   leaves the rite to a regulation never issued): Lei federal nº 9.784/1999, art. 26, by analogy — the letter only
   to a known address, effective on the receipt date of the AR (§ 3º); the edital only for the autuado unknown or
   with undefined domicile, in the official press, effective on the publication date (§ 4º); contents of § 1º.
2. Cuiabá apprehension without an auto (arts. 8º, 9º, 11 and 35: the agents "poderão" apply the penalties): a
   processo of the apprehension alone, its termo and the animal's other destination (art. 11, § 5º).
3. Timóteo (Lei nº 3.844/2022), art. 16: termos of condenação e inutilização (IV), suspensão da atividade (V) and
   its levantamento (art. 5º, IV), cassação do registro (VII).
4. Ferraz de Vasconcelos (Lei nº 3.240/2015): advertência escrita (art. 3º, § 1º, I), the first penalty for burning
   waste on one's own land; the fine if the conduct persists (§ 1º, II).
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options
from autos.cli import main

from .conftest import DATA, ROOT
from .textutil import document_text, docx_pdf_differences

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_processo_kinds")

RULES = ["--regras", str(ROOT / "rules")]
KINDS = DATA / "processo" / "kinds"
INVALID = KINDS / "invalidos"
DOCS = DATA / "processo" / "documentos"
_EXPECT = yaml.safe_load((INVALID / "expectations.yaml").read_text(encoding="utf-8"))


def run(hoje: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*RULES, "--hoje", hoje, *args])
    return result.exit_code, result.output


_GENERATED: dict[tuple[Path, str], Path] = {}


def generated(tmp: Path, file: Path, hoje: str = "2026-11-30") -> Path:
    """The folder of the documents generated from ``file`` as of ``hoje``: once per test process (the PDF and DOCX
    cases of a test read the same folder)."""
    if (file, hoje) not in _GENERATED:
        code, out = run(hoje, "gerar", str(file), "-o", str(tmp))
        assert code == 0, out
        _GENERATED[(file, hoje)] = tmp
    return _GENERATED[(file, hoje)]


@pytest.mark.parametrize("name", ["fv-advertencia.yaml", "tim-condenacao-suspensao.yaml", "cui-apreensao-sem-auto.yaml",
                                  "cui-ar.yaml", "tim-cassacao.yaml"])
def test_docx_and_pdf_of_each_act_say_the_same(tmp_path: Path, name: str) -> None:
    """The documents this module reads (advertência escrita, termos de condenação and de medida, a termo de
    apreensão without a known owner, AR letter, cassação): each DOCX says what its PDF says (page headers and
    footers aside), the signature blocks included — a block the PDF leaves out, the DOCX leaves out."""
    folder = generated(tmp_path, DOCS / name)
    docs = sorted(folder.glob("*.docx"))
    assert docs
    for doc in docs:
        assert docx_pdf_differences(doc.read_bytes(), doc.with_suffix(".pdf").read_bytes()) == [], doc.name


def report(hoje: str, file: Path) -> dict[str, object]:
    _code, out = run(hoje, "validar", "--json", str(file))
    found: dict[str, object] = json.loads(out)[0]
    return found


# --- the fixtures: valid ones validate, invalid ones are refused with the words of their finding --------------


#: the valid processos of the new kinds (in the documents folder, with the other acts' documents)
VALID = ["cui-ar.yaml", "cui-apreensao-sem-auto.yaml", "tim-condenacao-suspensao.yaml", "tim-cassacao.yaml",
         "fv-advertencia.yaml"]


@pytest.mark.parametrize("name", VALID)
def test_valid_fixture_has_no_error(name: str) -> None:
    code, out = run("2026-11-30", "validar", str(DOCS / name))
    assert code == 0, out


def test_every_invalid_fixture_has_an_expectation() -> None:
    assert {p.name for p in INVALID.glob("*.yaml")} - {"expectations.yaml"} == set(_EXPECT)


@pytest.mark.parametrize("name", sorted(_EXPECT))
def test_invalid_fixture_is_refused_with_its_finding(name: str) -> None:
    exp = _EXPECT[name]
    rep = report("2026-11-30", INVALID / name)
    assert rep["valido"] is False
    found = [a for a in rep["achados"] if a["codigo"] == exp["codigo"] and a["severidade"] == "erro"]  # type: ignore[attr-defined]
    assert found, [a["codigo"] for a in rep["achados"]]  # type: ignore[attr-defined]
    f = found[0]
    assert f["linha"] == exp["linha"], f
    for words in exp["contem"]:
        assert words in f["mensagem"] or words in (f["citacao"] or ""), (words, f)
    code, _out = run("2026-11-30", "validar", str(INVALID / name))
    assert code == 1


# --- 1. Cuiabá: AR letter and edital, by analogy to Lei federal nº 9.784/1999, art. 26 ------------------------


@pytest.fixture(scope="module")
def cui_ar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory.mktemp("cui-ar"), DOCS / "cui-ar.yaml")


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_ar_letter_lei9784_art26_p3(cui_ar: Path, ext: str) -> None:
    text = document_text(cui_ar / f"notificacao-ar-cuiaba-mt-ccz-2026-0140-ato-02.{ext}")
    assert "NOTIFICAÇÃO DE AUTUAÇÃO Nº AR-77/2026" in text
    assert "Lei nº 3.666/1997, art. 39 (omissa; Lei federal nº 9.784/1999, art. 26, § 3º, por analogia)" in text
    # § 1º, I, II, VI: who is notified, of what, the facts and the provision
    assert "Rosângela Maria Figueiredo" in text and "CPF 251.983.460-98" in text and "Rua Treze de Junho, 210" in text
    assert "Auto de Infração nº 140/2026, lavrado em 14 de setembro de 2026" in text
    assert "Acúmulo de pneus velhos e sucata" in text and "Lei nº 3.666/1997, art. 21" in text
    # art. 36, II (grave): 5 UPF × R$ 107,3327 (example value for 2026) = R$ 536,6635 → R$ 536,66
    assert "5 (cinco) UPF, correspondente a R$ 536,66" in text
    # § 3º: effective on the receipt date of the AR; § 1º, V: the processo goes on without the notified
    assert "a notificação considera-se feita na data de recebimento lançada no AR" in text
    assert "prosseguirá independentemente do comparecimento" in text and "art. 26, § 1º, V" in text
    # the letter is dated its posting (16/09/2026): it does not know the receipt of 21/09/2026
    assert "Cuiabá/MT, 16 de setembro de 2026" in text
    assert "21 de setembro" not in text and "considerada feita em" not in text


def test_cuiaba_ar_notice_takes_effect_on_the_receipt() -> None:
    code, out = run("2026-11-30", "prazos", "--json", str(DOCS / "cui-ar.yaml"))
    assert code == 0, out
    t = json.loads(out)
    assert t["atos"][1]["efetiva"] == "2026-09-21"  # Lei 9.784/1999, art. 26, § 3º: the receipt lançada no AR
    # defence (art. 44 by analogy): 10 calendar days from 21/09 → 01/10/2026, a Thursday
    d = next(p for p in t["prazos"] if p["id"] == "defesa_lei9784_art44")
    assert (d["inicio"], d["fim"]) == ("2026-09-21", "2026-10-01")


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_edital_lei9784_art26_p4(tmp_path: Path, ext: str) -> None:
    code, out = run("2026-11-30", "gerar", str(DOCS / "cui-edital.yaml"), "--ato", "3", "--formato", ext,
                    "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"edital-notificacao-cuiaba-mt-ccz-2026-0101-ato-03.{ext}")
    assert "EDITAL DE NOTIFICAÇÃO Nº 3/2026" in text
    assert "Lei nº 3.666/1997, art. 39 (omissa; Lei federal nº 9.784/1999, art. 26, § 4º, por analogia)" in text
    # LGPD, art. 6º, III: the CPF 333.666.999-57 masked; no address, qualification or facts published
    assert "***.666.999-**" in text and "333.666.999-57" not in text
    assert "Joaquim Murtinho" not in text and "reincidindo" not in text
    assert "Auto de infração nº 101/2026, lavrado em 1º de julho de 2026" in text
    assert "Lei nº 3.666/1997, art. 6º" in text
    # art. 36, I (leve): 3 UPF × R$ 107,3327 = R$ 321,9981 → R$ 322,00
    assert "3 (três) UPF, correspondente a R$ 322,00" in text
    # § 4º: the official publication of 10/07/2026 is the notice date (no newspaper, which the law does not ask)
    assert "Gazeta Municipal de Cuiabá, edição 2.050, em 10 de julho de 2026" in text
    assert "Data em que a notificação se considera feita: 10 de julho de 2026" in text


def test_cuiaba_publishes_its_individual_edital(tmp_path: Path) -> None:
    casos = tmp_path / "processos"
    shutil.copytree(KINDS / "publicar", casos)
    out = tmp_path / "editais"
    result = Publisher(Options(casos=casos, data=date(2026, 10, 6), saida=out, workers=1,
                               rules_dir=ROOT / "rules", templates_dir=ROOT / "templates",
                               today=date(2026, 10, 6))).run()
    assert result.erro is None and not result.recusados, [c.motivos for c in result.recusados]
    assert [(e.lei, e.numero) for e in result.publicados] == [("cuiaba-mt/lei-3666-1997", 1)]
    pdf = out / "cuiaba-mt/lei-3666-1997/2026/edital-0001/edital-cuiaba-mt-lei-3666-1997-2026-0001-auto-2026-0150.pdf"
    text = document_text(pdf)
    assert "art. 26, § 4º" in text and "***.444.777-**" in text and "Comandante Costa" not in text
    assert "Data em que a notificação se considera feita: 6 de outubro de 2026" in text
    # the edital act written into the processo is one the Cuiabá rite takes (with its 'local'): the timeline counts
    # the defence from the publication, 06/10 + 10 days → 16/10/2026 (Friday); the judgement 30 days after,
    # 15/11/2026 (Sunday) → 16/11/2026
    code, js = run("2026-10-20", "prazos", "--json", str(casos / "ccz-2026-0150-domicilio-desconhecido.yaml"))
    assert code == 0, js
    t = json.loads(js)
    assert not t["achados"], t["achados"]
    fins = {p["id"]: p["fim"] for p in t["prazos"]}
    assert fins["defesa_lei9784_art44"] == "2026-10-16" and fins["julgamento_lei9784_art49"] == "2026-11-16"


def test_without_the_individual_edital_in_the_rules_the_case_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    law = rules / "cuiaba-mt" / "lei-3666-1997.yaml"
    data = yaml.safe_load(law.read_text(encoding="utf-8"))
    del data["documentos"]["edital_notificacao"]
    law.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    casos = tmp_path / "processos"
    shutil.copytree(KINDS / "publicar", casos)
    result = Publisher(Options(casos=casos, data=date(2026, 10, 6), saida=tmp_path / "editais", workers=1,
                               rules_dir=rules, templates_dir=ROOT / "templates", today=date(2026, 10, 6))).run()
    assert not result.publicados
    assert "não definem o edital individual" in " ".join(result.recusados[0].motivos)


# --- 2. Cuiabá: apprehension without an auto (arts. 8º, 9º, 11, 35 and 38) -----------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_termo_de_apreensao_without_an_auto_art9_i(tmp_path: Path, ext: str) -> None:
    out = generated(tmp_path, DOCS / "cui-apreensao-sem-auto.yaml")
    assert [p.name for p in sorted(out.glob(f"*.{ext}"))] == [f"termo-apreensao-cuiaba-mt-ccz-2026-000600-ato-01.{ext}"]
    text = document_text(out / f"termo-apreensao-cuiaba-mt-ccz-2026-000600-ato-01.{ext}")
    assert "TERMO DE APREENSÃO DE ANIMAL Nº TA-610/2026" in text and "Lei nº 3.666/1997, art. 9º" in text
    assert "Auto de Infração" not in text  # none was drawn up
    assert "(art. 9º, I)" in text and "Lei nº 3.666/1997, art. 6º" in text
    # art. 11, § 2º: 3 business days from the recolhimento on Monday 23/11/2026 → 24, 25, 26 → 26/11/2026;
    # § 5º: another destination from the day after, 27/11/2026
    assert "até 26 de novembro de 2026" in text and "a partir de 27 de novembro de 2026" in text
    # art. 11, §§ 3º and 4º, I (canine: small): transport 0,25 + table fine 0,50 = 0,75 UPF, plus the daily fees
    # 1,00 / 1,50 / 2,00: withdrawal on day 1 = 1,75 UPF, day 2 = 3,25, day 3 = 5,25; × R$ 107,3327 =
    # R$ 187,832225 → 187,83; R$ 348,831275 → 348,83; R$ 563,496675 → 563,50 (art. 38: due without any fine)
    for amount in ("R$ 187,83", "R$ 348,83", "R$ 563,50"):
        assert amount in text, amount


def test_cuiaba_apprehension_without_an_auto_on_the_timeline() -> None:
    code, out = run("2026-11-30", "prazos", "--json", str(DOCS / "cui-apreensao-sem-auto.yaml"))
    assert code == 0, out
    t = json.loads(out)
    assert not [f for f in t["achados"] if f["severidade"] == "erro"], t["achados"]
    d = next(p for p in t["prazos"] if p["id"] == "resgate_art11_p2")
    assert (d["inicio"], d["fim"], d["estado"]) == ("2026-11-23", "2026-11-26", "prejudicado")
    ids = {p["id"] for p in t["prazos"]}
    assert "notificacao_auto_lei9784_art24" not in ids and "defesa_lei9784_art44" not in ids  # no auto, no rite


# --- 3. Timóteo, art. 16, IV, V and VII -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tim_medidas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated(tmp_path_factory.mktemp("tim-medidas"), DOCS / "tim-condenacao-suspensao.yaml")


TIM_STEM = "timoteo-mg-sim-2026-000250"


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_termo_de_condenacao_art16_iv(tim_medidas: Path, ext: str) -> None:
    text = document_text(tim_medidas / f"termo-condenacao-{TIM_STEM}-ato-03.{ext}")
    assert "TERMO DE CONDENAÇÃO E INUTILIZAÇÃO Nº 7/2026" in text and "Lei nº 3.844/2022, art. 16, inciso IV" in text
    assert "relativo ao Auto de Infração nº 52/2026, lavrado em 5 de outubro de 2026" in text
    assert "Ficam CONDENADOS, em 5 de outubro de 2026, os itens abaixo descritos" in text
    assert "leite cru refrigerado" in text and "1.200 litros" in text and "tanque 2" in text
    assert "queijo minas frescal sem rótulo" in text and "35 unidades" in text
    # art. 5º, IV: the inutilização or final destination given to the items
    assert "Inutilização ou destinação final: desnaturados com corante e descartados em aterro sanitário" in text
    assert "não apresentem condições higiênico-sanitárias adequadas" in text
    assert "Lei nº 3.844/2022, art. 5º, inciso IV" in text and "(Lei nº 3.844/2022, art. 17)" in text
    assert "CRMV-MG 15.847" in text  # art. 20, § 1º, VI; art. 6º


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_termo_de_suspensao_art16_v(tim_medidas: Path, ext: str) -> None:
    text = document_text(tim_medidas / f"termo-suspensao-{TIM_STEM}-ato-04.{ext}")
    assert "TERMO DE SUSPENSÃO DA ATIVIDADE Nº 8/2026" in text and "Lei nº 3.844/2022, art. 16, inciso V" in text
    assert ("Fica SUSPENSA a atividade abaixo descrita, do estabelecimento situado em Avenida Acesita, 1500, "
            "Centro-Norte, Timóteo/MG, a partir de 5 de outubro de 2026.") in text
    assert "recepção de leite cru e envase de leite pasteurizado" in text
    # art. 16, V, a–c: the cases that allow it, stated; no term (the law gives the suspension none)
    assert "risco ou ameaça à saúde, constatação ou indícios de fraude, ou embaraço à ação fiscalizadora" in text
    assert "PRAZO" not in text
    for later in ("26 de outubro", "LEVANTADA", "9/2026"):  # the levantamento is later
        assert later not in text, later


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_termo_de_levantamento_da_suspensao_art5_iv(tim_medidas: Path, ext: str) -> None:
    text = document_text(tim_medidas / f"termo-levantamento-suspensao-{TIM_STEM}-ato-05.{ext}")
    assert "TERMO DE LEVANTAMENTO DA SUSPENSÃO Nº 9/2026" in text and "Lei nº 3.844/2022, art. 5º, inciso IV" in text
    assert ("Fica LEVANTADA a suspensão da atividade do estabelecimento situado em Avenida Acesita, 1500, "
            "Centro-Norte, Timóteo/MG, imposta em 5 de outubro de 2026, termo nº 8/2026, em 26 de outubro de "
            "2026.") in text
    assert "Compete ao SIM suspender estabelecimentos e levantar a suspensão" in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_termo_de_cassacao_art16_vii(tmp_path: Path, ext: str) -> None:
    out = generated(tmp_path, DOCS / "tim-cassacao.yaml")
    text = document_text(out / f"termo-cassacao-timoteo-mg-sim-2026-000260-ato-03.{ext}")
    assert "TERMO DE CASSAÇÃO DO REGISTRO Nº 11/2026" in text and "Lei nº 3.844/2022, art. 16, inciso VII" in text
    assert "Fica CASSADO, a partir de 16 de setembro de 2026, o registro junto ao SIM abaixo descrito." in text
    assert 'registro SIM nº 031/2023 do produto "Mel de abelha Serra Azul, 500 g"' in text
    assert "relativo ao Auto de Infração nº 61/2026, lavrado em 14 de setembro de 2026" in text
    assert "Lei nº 3.844/2022, art. 16, § 3º" in text  # the other way to the cassação: interdiction over 12 months


def test_timoteo_cassacao_not_in_the_auto_is_a_warning_art16_p3(tmp_path: Path) -> None:
    # art. 16, § 3º: the registration is also cancelled when an interdiction passes 12 months, with no new auto; a
    # cassação the auto did not apply is pointed out, not refused
    data = yaml.safe_load((DOCS / "tim-cassacao.yaml").read_text(encoding="utf-8"))
    data["atos"][0]["penalidades"] = [{"tipo": "multa", "valor_base": "3000", **{
        k: v for k, v in data["atos"][0]["penalidades"][0].items() if k.startswith("motivo")}}]
    f = tmp_path / "p.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    rep = report("2026-11-30", f)
    assert rep["valido"] is True
    warn = [a for a in rep["achados"] if a["codigo"] == "TIM-CAS-PENALIDADE"]  # type: ignore[attr-defined]
    assert warn and warn[0]["severidade"] == "aviso" and "art. 16, § 3º" in warn[0]["mensagem"]


# --- 4. Ferraz de Vasconcelos: advertência escrita (art. 3º, § 1º, I) ---------------------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_advertencia_escrita_art3_p1_i(tmp_path: Path, ext: str) -> None:
    out = generated(tmp_path, DOCS / "fv-advertencia.yaml")
    text = document_text(out / f"advertencia-escrita-ferraz-de-vasconcelos-sp-pm-fv-2026-006100-ato-01.{ext}")
    assert "ADVERTÊNCIA ESCRITA Nº 44/2026" in text and "Lei nº 3.240/2015, art. 3º, § 1º, inciso I" in text
    assert "Valdir Aparecido Moreira" in text and "CPF: 390.533.447-05" in text
    assert "Local: Rua Bruno Altieri, 322, Vila Romanópolis, Ferraz de Vasconcelos/SP" in text
    assert "Data: 3 de novembro de 2026" in text and "às 15h20" in text
    assert "Queima de restos de poda" in text and "Lei nº 3.240/2015, art. 3º, § 1º —" in text
    assert "ADVERTIDA por escrito" in text
    # art. 3º, caput, and § 1º, II: the prohibition, and the fine if the conduct persists (no fine now)
    assert "sendo proibida a queima de resíduos sólidos urbanos" in text
    assert "Persistindo a conduta, será aplicada a multa no valor equivalente a 5 UFMs" in text
    assert "e em dobro na reincidência. (Lei nº 3.240/2015, art. 3º, § 1º, inciso II)" in text
    assert "R$" not in text  # a warning prices nothing
    assert "O advertido recebeu a 1ª via desta advertência em 3 de novembro de 2026." in text


def test_ferraz_advertencia_opens_the_processo_before_the_auto() -> None:
    code, out = run("2026-11-30", "prazos", "--json", str(DOCS / "fv-advertencia.yaml"))
    assert code == 0, out
    t = json.loads(out)
    assert not t["achados"], t["achados"]  # no SEM-AUTO: the warning comes before any auto (§ 1º, I then II)
    assert t["atos"][0]["base_legal"] == "Lei nº 3.240/2015, art. 3º, § 1º, inciso I"


# --- the choices are data, shown by `autos regras mostrar` ---------------------------------------------------


@pytest.mark.parametrize(("lei", "words"), [
    ("cuiaba-mt/lei-3666-1997", ["Lei federal nº 9.784/1999, art. 26", "O edital não exige jornal",
                                 "O processo pode ser só o da apreensão"]),
    ("timoteo-mg/lei-3844-2022", ["executada em ato próprio do processo", "a lei não dá duração à suspensão"]),
])
def test_new_kind_choices_are_shown(lei: str, words: list[str]) -> None:
    code, out = run("2026-11-30", "regras", "mostrar", lei)
    assert code == 0, out
    flat = " ".join(out.split())
    for w in words:
        assert w in flat, w
