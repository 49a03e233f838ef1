"""The provisions a legal review found missing from the documents, each read
against the statute texts (../shared/statutes/) and checked in the generated documents by their extracted text
(pypdf, python-docx). The article each test checks is quoted in its name or comment."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from autos import Autos
from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options, PublishResult, place_option
from autos.cli import main

from .conftest import CASOS, DATA, ROOT, SAMPLES, TODAY
from .textutil import document_text

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
CUI = SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-0090-divida-ativa.yaml"
CUI_STEM = "cuiaba-mt-ccz-2026-0090"
FV = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0412-recurso-pago.yaml"
FV_STEM = "ferraz-de-vasconcelos-sp-fv-2026-0412"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def act_text(tmp_path: Path, file: Path, ato: str, name: str, ext: str = "pdf") -> str:
    code, out = run("gerar", str(file), "--ato", ato, "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    return document_text(tmp_path / f"{name}.{ext}")


# --- item 8: Cuiabá, Lei nº 3.666/1997 — the law is silent on defence and appeal (art. 39 leaves the rest to a
# regulation); the Constitution's art. 5º, LV, guarantees both, and the rules adopt Lei federal nº 9.784/1999
# by analogy: defence in 10 days of the notice (art. 44), appeal in 10 days of the notice of the decision
# (art. 59), addressed to the authority that decided, which forwards it to its superior (art. 56, § 1º).


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_auto_states_defence_and_appeal_by_analogy_cf_art_5_lv(tmp_path: Path, ext: str) -> None:
    text = act_text(tmp_path, CUI, "1", f"auto-de-infracao-{CUI_STEM}-ato-01", ext)
    # the defence term of the rite (lei-3666-1997.processo.yaml), as every auto states its terms
    assert "Prazo para apresentar defesa contra o auto de infração: 10 (dez) dias corridos" in text
    # printed between parentheses with none of its own (no stacked parentheses)
    assert "(Lei nº 3.666/1997, art. 39, omissa quanto à defesa, e Lei federal nº 9.784/1999, art. 44, prazo das " \
        "alegações, aplicado por analogia à defesa)" in text
    # the appeal: its term and the authority it is addressed to
    assert "10 (dez) dias contados da ciência da decisão" in text
    assert "dirigido à autoridade que proferiu a decisão" in text and "autoridade superior" in text
    assert "art. 56, § 1º" in text and "art. 59" in text
    assert "Constituição Federal, art. 5º, LV" in text


def test_cuiaba_choice_of_the_analogy_is_recorded_and_shown() -> None:
    code, out = run("regras", "mostrar", "cuiaba-mt/lei-3666-1997")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "defesa-e-recurso-por-analogia" in flat
    assert "Constituição Federal, art. 5º, LV" in flat and "art. 56, § 1º" in flat


# --- item 9: Ferraz, Lei nº 3.240/2015, art. 79: "O recurso será dirigido ao Prefeito, que terá o prazo de 30
# (trinta) dias corridos, contados do seu recebimento, para proferir sua decisão."


@pytest.mark.parametrize(("ato", "name"), [("1", f"auto-de-infracao-{FV_STEM}-ato-01"),
                                           ("5", f"demonstrativo-debito-{FV_STEM}-ato-05")])
def test_ferraz_auto_and_statement_state_the_appeal_to_the_prefeito_art_79(tmp_path: Path, ato: str,
                                                                            name: str) -> None:
    text = act_text(tmp_path, FV, ato, name)
    assert "O recurso será dirigido ao Prefeito" in text
    assert "30 (trinta) dias corridos, contados do seu recebimento" in text
    assert "(Lei nº 3.240/2015, art. 79)" in text
    # art. 79, parágrafo único: the delegation by decree to the Secretário Municipal de Segurança
    assert "Secretário Municipal de Segurança" in text


# --- item 15: Timóteo, Lei nº 3.844/2022, art. 16, II ("multa, no valor de cem (100) a trinta mil (30.000)
# UPFMT") and § 5º ("A multa sofrerá redução de cinquenta por cento (50%) no caso de se tratar de indústria de
# pequeno porte"): 150 UPFMT reduced to 75, below the floor. Said in the memo the document prints.


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_auto_says_the_p5_reduction_goes_below_the_art_16_ii_floor(tmp_path: Path, ext: str) -> None:
    src = (CASOS / "timoteo-mg" / "auto-pj-completo.yaml").read_text(encoding="utf-8")
    assert 'valor_base: "1500"' in src
    case = tmp_path / "auto.yaml"
    case.write_text(src.replace('valor_base: "1500"', 'valor_base: "150"'), encoding="utf-8")
    out = tmp_path / "saida"
    code, output = run("gerar", str(case), "--formato", ext, "-o", str(out))
    assert code == 0, output
    (doc,) = out.glob(f"*.{ext}")
    text = document_text(doc)
    assert "75 (setenta e cinco) UPFMT" in text
    assert "abaixo do mínimo de 100 UPFMT do art. 16, inciso II" in text
    assert "pequeno-porte-abaixo-do-minimo" in text


def test_timoteo_defence_term_delegation_is_art_31_sole_paragraph_j() -> None:
    # art. 10 only charges the SIM with enforcing the law; the regulation of "o processamento das infrações e
    # seus recursos" is delegated by art. 31, parágrafo único, alínea j
    code, out = run("prazos", str(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"))
    assert code == 0, out
    flat = " ".join(out.split())
    assert "art. 31, parágrafo único, alínea j" in flat, out
    assert "decreto regulamentador (art. 10)" not in flat


# --- item 14: what each law says about reincidência, the rounding of a fraction of a block, the doubling without
# a cap, and the defects of the Ferraz text — each recorded in the law's rules and shown by `autos regras mostrar`.

STATUTES = ROOT.parent.parent / "shared" / "statutes"
FERRAZ_TEXT = STATUTES / "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt"
# the defective wording of the published Ferraz text, and the id under which the rules record each reading
FERRAZ_DEFECTS = {  # id: (wording of the text, the words the recorded problem quotes)
    "art77-iii-populacao": ("contado este da data da afixação ou da população", "da população"),  # art. 77, III
    "art70-pu-caput-proprio": ("infringirem por 3 (três) vezes o disposto no “caput” deste artigo",
                               "caput deste artigo"),  # art. 70, parágrafo único
    "art69-p1-sem-verbo": ("show musical e/ou instrumental, quanto à multa a que alude o caput deste artigo.",
                           "quanto à multa"),  # art. 69, § 1º
    "art4-distritos": ("depósito de lixo ou distritos de qualquer espécie", "distritos"),  # art. 4º
}


def shown(lei: str) -> str:
    code, out = run("regras", "mostrar", lei)
    assert code == 0, out
    return " ".join(out.split())


@pytest.mark.parametrize(("ident", "wording", "quoted"), [(k, *v) for k, v in sorted(FERRAZ_DEFECTS.items())])
def test_ferraz_text_defect_is_recorded_and_shown(ident: str, wording: str, quoted: str) -> None:
    if FERRAZ_TEXT.exists():  # the defect is in the published text (the statutes folder sits beside the repo)
        assert wording in " ".join(FERRAZ_TEXT.read_text(encoding="utf-8").split())
    flat = shown("ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert f"{ident} (Lei nº 3.240/2015" in flat
    problem = flat.split(f"{ident} (", 1)[1].split(" escolha: ", 1)[0]
    assert quoted in problem  # the problem quotes the defective words


def test_reincidencia_is_recorded_for_each_law_whose_fines_double() -> None:
    # Cuiabá art. 36, § 1º ("Na reincidência, a multa será aplicada em dobro"); Ferraz art. 2º, § 5º, and others
    cui = shown("cuiaba-mt/lei-3666-1997")
    assert "reincidencia (Lei nº 3.666/1997, art. 36, § 1º)" in cui and "prazo de depuração" in cui
    fv = shown("ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert "reincidencia (Lei nº 3.240/2015, art. 2º, § 5º)" in fv and "prazo de depuração" in fv
    # Timóteo art. 16, I and § 2º, II, a: primário / reincidência
    assert "advertencia-primario" in shown("timoteo-mg/lei-3844-2022")


def test_ferraz_doubling_states_it_has_no_cap_art_43_period_10() -> None:
    # art. 43, parágrafo único: 50 UFM "duplicada a cada 30 (trinta) dias"; 10th period = 50 × 2⁹ = 25.600 UFM
    flat = shown("ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert "25.600 UFM" in flat and "não cria teto" in flat


def test_ferraz_fraction_of_a_block_is_charged_in_proportion_not_as_a_whole_block_art4() -> None:
    # art. 4º: "5 UFMs … para cada 100 metros quadrados": the strict reading of a sanction charges the area found
    # (350 m² = 17,5 UFM), never a fraction as a whole block against the autuado; the other reading is named
    flat = shown("ferraz-de-vasconcelos-sp/lei-3240-2015")
    part = flat.split("fracao-proporcional (", 1)[1].split(" metro-linear-proporcional (", 1)[0]
    assert "17,5 UFM" in part and "leitura estrita" in part and "'unidade_inteira'" in part


# --- item 16: the counting rule of each law (its prazos file, `contagem`: none of the three laws says how to
# count, and the rules adopt Lei federal nº 9.784/1999, art. 66) is stated in every document that prints a
# deadline; a date whose count skipped a calendar day marked "(exemplo — conferir)" says so next to it.

FV_ED = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-005102-edital.yaml"


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_documents_state_the_counting_rule_lei_9784_art_66(tmp_path: Path, ext: str) -> None:
    text = act_text(tmp_path, CUI, "1", f"auto-de-infracao-{CUI_STEM}-ato-01", ext)
    assert ("Contagem dos prazos: exclui-se o dia do começo e inclui-se o do vencimento; o prazo que vence em dia "
            "sem expediente, ou em que o expediente termina antes da hora normal, prorroga-se até o primeiro dia "
            "útil seguinte") in text
    assert "(Lei federal nº 9.784/1999, art. 66, aplicada porque a Lei nº 3.666/1997 não regula a contagem)" in text
    # no date of this auto rests on an unconfirmed calendar day
    assert "exemplo — conferir" not in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_date_resting_on_an_example_calendar_day_says_so(tmp_path: Path, ext: str, shipped_examples: None) -> None:
    # Ferraz art. 80: 10 dias úteis from the notice by edital; the count skips Wednesday 14/10/2026 (municipal
    # anniversary) and Wednesday 28/10/2026 (Dia do Servidor Público), both "exemplo: true" in the shipped
    # calendar: the certidão is a MINUTA and says on which days its date rests
    text = act_text(tmp_path, FV_ED, "4",  # after the AR returned and the search for the domicile (art. 76, III)
                    "certidao-publicacao-edital-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04-MINUTA", ext)
    assert ("ATENÇÃO: esta data depende dos dias 14/10/2026, 28/10/2026, que o calendário das regras lista como "
            "sem expediente só como exemplo (exemplo — conferir)") in text
    assert "Contagem dos prazos: exclui-se o dia do começo" in text


# --- item 11: the consolidated edital is signed by a named person, with the post, from the rules of each law
# (`edital_assinatura`); a law without it has its cases refused with the file and the key to fill in. Timóteo's
# art. 21, § 3º, wants the edital published "em jornal de grande circulação local": without --jornal naming it,
# the Timóteo cases are refused (an unnamed newspaper cannot be certified), never printed as "jornal de grande
# circulação local".

PUB_CASES = DATA / "publish" / "casos"


def publish_samples(saida: Path, rules: Path = ROOT / "rules", jornais: tuple[str, ...] = ("Jornal Diário do Aço",),
                    ) -> PublishResult:
    return Publisher(Options(
        casos=PUB_CASES, data=date(2026, 10, 6), saida=saida, data_jornal=date(2026, 10, 7), workers=1,
        rules_dir=rules, templates_dir=ROOT / "templates", today=TODAY,
        veiculos=place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                               "Quadro de Editais do Paço Municipal"]),
        jornais=place_option(list(jornais)))).run()


def consolidated(out: Path, municipio: str) -> str:
    (pdf,) = (p for p in (out / municipio).rglob("edital-*.pdf") if "-auto-" not in p.name)
    return document_text(pdf)


def test_consolidated_edital_is_signed_by_a_named_person_and_post(tmp_path: Path) -> None:
    result = publish_samples(tmp_path)
    assert result.erro is None and len(result.publicados) == 2
    autos = Autos(ROOT / "rules")
    for municipio, lei in (("ferraz-de-vasconcelos-sp", "lei-3240-2015"), ("timoteo-mg", "lei-3844-2022")):
        # the signer is the holder of the post the register of authorities gives the consolidated edital
        signer = autos.rules.get(f"{municipio}/{lei}").edital_assinatura
        assert signer is not None
        text = consolidated(tmp_path, municipio)
        assert f"{signer.nome} {signer.cargo}" in text, text[-400:]
        if signer.exemplo:
            assert "nome e o cargo de quem assina este edital são EXEMPLOS" in text


def test_law_without_the_signer_has_its_cases_refused(tmp_path: Path) -> None:
    rules = tmp_path / "regras"
    shutil.copytree(ROOT / "rules", rules)
    file = rules / "ferraz-de-vasconcelos-sp" / "autoridades.yaml"  # nobody with the competence to sign it
    text = file.read_text(encoding="utf-8")
    assert "atos: [edital_consolidado, " in text
    file.write_text(text.replace("atos: [edital_consolidado, ", "atos: ["), encoding="utf-8")
    out = tmp_path / "editais"
    result = publish_samples(out, rules=rules)
    assert [e.lei for e in result.publicados] == ["timoteo-mg/lei-3844-2022"]
    refused = {Path(c.arquivo).name: " ".join(c.motivos) for c in result.recusados}
    msg = refused["auto-301-domicilio-desconhecido.yaml"]
    assert "quem assina o edital" in msg and "autoridades.yaml" in msg and "lei-3240-2015.yaml" in msg
    assert not (out / "ferraz-de-vasconcelos-sp").exists()


def test_timoteo_without_the_newspaper_is_refused_art_21_p3(tmp_path: Path) -> None:
    result = publish_samples(tmp_path, jornais=())
    assert [e.lei for e in result.publicados] == ["ferraz-de-vasconcelos-sp/lei-3240-2015"]
    refused = {Path(c.arquivo).name: " ".join(c.motivos) for c in result.recusados}
    msg = refused["auto-31-pj-local-incerto.yaml"]
    assert "--jornal" in msg and "art. 21, III, e § 3º" in msg
    for pdf in tmp_path.rglob("*.pdf"):
        assert "jornal de grande circulação local" not in document_text(pdf)


# --- item 13: `gerar --arquivo` on an edital embeds only what its purpose needs (LGPD, Lei federal nº
# 13.709/2018, art. 6º, III — necessity): the data the edital publishes (name, CPF masked, auto, provision,
# amount, publications, notice date, deadlines) and the SHA-256 of the processo file, never the file itself
# with the full CPF, the occupation and the facts. Other documents still embed the file they came from.


def test_archived_edital_embeds_only_the_published_data_lgpd_art_6_iii(tmp_path: Path) -> None:
    import hashlib
    import io

    from pypdf import PdfReader

    code, out = run("gerar", str(FV_ED), "--ato", "4", "--arquivo", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    pdf = tmp_path / "edital-notificacao-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04.pdf"
    attachments = dict(PdfReader(io.BytesIO(pdf.read_bytes())).attachments)
    assert list(attachments) == ["dados-publicados-pm-fv-2026-005102-edital.yaml"]
    (data,) = attachments["dados-publicados-pm-fv-2026-005102-edital.yaml"]
    text = data.decode("utf-8")
    embedded = yaml.safe_load(text)
    source = FV_ED.read_bytes()
    assert embedded["arquivo_do_processo"] == {"nome": FV_ED.name, "sha256": hashlib.sha256(source).hexdigest()}
    assert embedded["notificado"]["nome"] == "Edson Luiz Barreto"
    assert embedded["notificado"]["documento"] == "***.614.958-**"
    # what the case file has and the edital does not publish
    for secret in ("372.614.958-91", "pedreiro", "entulho de construção civil no leito", "Kaoru Hiramatsu"):
        assert secret not in text, secret
    assert secret.encode() in source  # (the processo file does have them)
    # the PDF itself publishes the same data
    printed = document_text(pdf)
    assert "***.614.958-**" in printed and "372.614.958-91" not in printed


def test_consolidated_edital_states_the_counting_rule_on_confirmed_days(tmp_path: Path) -> None:
    # Ferraz, published 06/10/2026: art. 80 counts 10 dias úteis from 13/10 and skips Wednesday 14/10 (municipal
    # anniversary) and Wednesday 28/10 (Dia do Servidor Público), both confirmed by a decree in the test official
    # values; an edital resting on an example day is never published (test_official_values)
    publish_samples(tmp_path)
    text = consolidated(tmp_path, "ferraz-de-vasconcelos-sp")
    assert "Contagem dos prazos: exclui-se o dia do começo e inclui-se o do vencimento" in text
    assert "(Lei federal nº 9.784/1999, art. 66, aplicada porque a Lei nº 3.240/2015 não regula a contagem)" in text
    assert "até 29 de outubro de 2026" in text
    assert "exemplo — conferir" not in text and "ATENÇÃO: esta data depende" not in text


def test_a_document_without_a_deadline_states_no_counting_rule(tmp_path: Path) -> None:
    # Cuiabá, art. 11, I: the termo de resgate states the rescue, not a deadline
    text = act_text(tmp_path, SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-000391-caes-pago.yaml", "5",
                    "termo-restituicao-cuiaba-mt-ccz-2026-000391-ato-05")
    assert "Prazo" not in text and "Contagem dos prazos" not in text
