"""A procurador's review of the documents (defects 1–7 and 10 of its parecer), each re-read against the statute text it quotes
(/work/shared/statutes): the documents are checked by their extracted text (pypdf, python-docx), the findings by
their code, and every choice the law leaves is printed where it is applied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.cli import main
from autos.rules.statute import load_rules

from .conftest import CASOS, ROOT, SAMPLES
from .textutil import document_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_legal_review")

RULES = ["--regras", str(ROOT / "rules")]
PROCESSOS = SAMPLES / "processos"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*RULES, "--hoje", "2026-12-20", *args])
    return result.exit_code, result.output


_GENERATED: dict[tuple[Path, int | None, bool], dict[str, str]] = {}


def texts(tmp: Path, file: Path, ato: int | None = None, *, draft: bool = False) -> dict[str, str]:
    """The text of each document generated from ``file`` (PDF and DOCX), by file name; generated once per test
    process for the same file, act and draft flag (the PDF and DOCX cases of a test share it)."""
    key = (file, ato, draft)
    if key not in _GENERATED:
        args = ["gerar", str(file), "-o", str(tmp)] + (["--ato", str(ato)] if ato else []) + (
            ["--minuta"] if draft else [])
        code, out = run(*args)
        assert code == 0, out
        _GENERATED[key] = {p.name: document_text(p) for p in sorted(tmp.iterdir()) if p.suffix in (".pdf", ".docx")}
    return _GENERATED[key]


def case_file(tmp: Path, base: Path, name: str, **changes: Any) -> Path:
    data = yaml.safe_load(base.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    out = tmp / name
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def codes(autos: Autos, file: Path) -> dict[str, str]:
    return {f.codigo: f.severidade for f in autos.validate(file).findings}


# --- 1. Cuiabá art. 38: the costs of art. 11, § 3º are apart from the penalties ---------------------------------
# "Art. 38 Sem prejuízo das penalidades previstas no Artigo 35, o proprietário do animal apreendido ficará sujeito
# ao pagamento de despesas a que se refere o artigo 11 da presente lei."


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_auto_keeps_art11_costs_out_of_the_fine_art38(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, PROCESSOS / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml", 2)
    text = docs[f"auto-de-infracao-cuiaba-mt-ccz-2026-0077-ato-02.{ext}"]
    assert "Valor da multa: 3 (três) UPF, correspondente a R$ 322,00" in text
    assert "12,5" not in text  # 3 UPF of fine + 9,5 UPF of costs are never added up as one fine
    assert ("Despesas do animal apreendido (transporte, multa e diárias), devidas sem prejuízo das penalidades "
            "(Lei nº 3.666/1997, art. 11, § 3º, combinado com o art. 38)") in text
    # 2 diárias (restituted on the 2nd business day of the term of art. 11, § 2º): 1 + 2 + 3 + 3,5 = 9,5 UPF
    assert "Total das despesas: 9,5 (nove inteiros e cinco décimos) UPF, correspondente a R$ 1.019,66" in text
    penalties = text.split("5. PENALIDADES E MEDIDAS APLICADAS")[1].split("Valor da multa")[0]
    assert "Despesas" not in penalties  # not listed as a penalty


def test_each_conversion_cites_the_article_of_the_amount_converted(autos: Autos) -> None:
    """Cuiabá costs: art. 11, § 3º (not the art. 36 fine); Ferraz: the article of each fine (art. 4º, art. 68),
    not art. 2º, § 1º (the rubbish fine)."""
    def conversions(file: Path) -> list[str]:
        fines = autos.fines_of(file)
        assert fines is not None
        return [s.base_legal or "" for i in fines.itens for s in i.steps if s.descricao.startswith("Conversão")]
    cba = CASOS / "cuiaba-mt"
    with_costs = next(f for f in sorted(cba.glob("*.yaml")) if "despesas-apreensao" in f.read_text(encoding="utf-8"))
    cites = conversions(with_costs)
    assert "Lei nº 3.666/1997, art. 11, § 3º" in cites
    fv = CASOS / "ferraz-de-vasconcelos-sp"
    assert conversions(fv / "auto-terreno-sem-limpeza.yaml") == ["Lei nº 3.240/2015, art. 4º"]
    assert conversions(fv / "demonstrativo-ruido-bar.yaml") == ["Lei nº 3.240/2015, art. 68"]


# --- 2. Ferraz art. 68: the noise fine and its doubling are cited, with art. 75 ---------------------------------
# "Art. 68. O infrator ao disposto nos artigos 60, 61, 64, 65 e 67 fica sujeito à multa no valor equivalente a 30
# UFMs ..., aplicada em dobro em caso de reincidência"


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_noise_letter_and_auto_cite_art68_with_art75(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, PROCESSOS / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-005377-ruido-bar.yaml")
    line = ("Multa (Lei nº 3.240/2015, art. 68 — multa de 30 UFM, aplicada em dobro na reincidência —, combinado "
            "com o art. 75)")
    for name in (f"notificacao-ar-ferraz-de-vasconcelos-sp-pm-fv-2026-005377-ato-02.{ext}",
                 f"auto-de-infracao-ferraz-de-vasconcelos-sp-pm-fv-2026-005377-ato-01.{ext}"):
        assert line in docs[name], name


# --- 3. Timóteo art. 16, V, c and VI, a: conditions of a penalty, not rules of conduct --------------------------
# "V — suspensão da atividade nos casos em que: ... c) haja embaraço a ação fiscalizadora. VI — interdição total ou
# parcial do estabelecimento, quando: a) a infração consistir na adulteração ou falsificação habitual do produto"


def test_timoteo_rules_cite_no_penalty_condition_as_the_provision_infringed() -> None:
    st = load_rules(ROOT / "rules").get("timoteo-mg/lei-3844-2022")
    cited = {(r.citacao.artigo, r.citacao.inciso, r.citacao.alinea) for r in st.infracoes.values()}
    assert ("16", "V", "c") not in cited and ("16", "VI", "a") not in cited
    assert st.penalidades["suspensao"].condicoes["embaraco-fiscalizacao"].citacao.alinea == "c"
    assert st.penalidades["interdicao"].condicoes["adulteracao-habitual"].citacao.inciso == "VI"


def test_timoteo_suspension_needs_its_case_of_art16_v(tmp_path: Path, autos: Autos) -> None:
    base = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
    data = yaml.safe_load(base.read_text(encoding="utf-8"))
    pens = [*data["penalidades"], {"tipo": "suspensao"}]
    bare = case_file(tmp_path, base, "sem-condicao.yaml", penalidades=pens)
    assert codes(autos, bare).get("PENALIDADE-SEM-CONDICAO") == "erro"
    pens[-1] = {"tipo": "suspensao", "condicao": "embaraco-fiscalizacao"}
    named = case_file(tmp_path, base, "com-condicao.yaml", penalidades=pens)
    assert "PENALIDADE-SEM-CONDICAO" not in codes(autos, named)
    out = tmp_path / "out"
    docs = texts(out, named, draft=True)
    pdf = next(t for n, t in docs.items() if n.endswith(".pdf"))
    assert ("Suspensão da atividade (Lei nº 3.844/2022, art. 16, inciso V, alínea c: haja embaraço à ação "
            "fiscalizadora)") in pdf


# --- 4. Timóteo art. 21, § 1º: certify the refusal before a witness AND deliver the auto ------------------------
# "o agente autuante certificará o ocorrido na presença de uma testemunha e o entregará ao autuado, que será
# considerado notificado para todos os efeitos."


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_refusal_states_the_witness_and_the_delivery_art21_p1(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, PROCESSOS / "timoteo-mg" / "sim-2026-000157-divida-ativa.yaml", 1)
    text = docs[f"auto-de-infracao-timoteo-mg-sim-2026-000157-ato-01.{ext}"]
    # "o entregará ao autuado": the certificate names to whom the copy was delivered (here the autuado himself)
    assert ("o agente autuante certifica o ocorrido na presença da testemunha abaixo identificada e entrega a cópia "
            "do auto a José Carlos Pereira; com a entrega, o autuado é considerado notificado para todos os efeitos "
            "(Lei nº 3.844/2022, art. 21, § 1º)") in text
    assert "recusa certificada pelo agente na presença de uma testemunha e entrega do auto ao autuado" in text


# --- 5. Ferraz arts. 76, I, and 77, I: a refused receipt is no personal notice; no witness claimed -------------
# "I- pessoalmente, ... mediante entrega da cópia ... contra-recibo datado no original"; "I- quando pessoal, na
# data do recibo"


def _ferraz_refusal(tmp: Path, forma: str) -> Path:
    base = CASOS / "ferraz-de-vasconcelos-sp" / "auto-terreno-sem-limpeza.yaml"
    return case_file(tmp, base, f"recusa-{forma}.yaml",
                     assinaturas={"autuado": {"situacao": "recusou"}},
                     notificacao={"forma": forma, "data": "2026-09-15"} if forma == "pessoal" else None)


def test_ferraz_refusal_with_personal_notice_is_an_error_art76_i(tmp_path: Path, autos: Autos) -> None:
    assert codes(autos, _ferraz_refusal(tmp_path, "pessoal")).get("RECUSA-NAO-NOTIFICA") == "erro"
    assert codes(autos, _ferraz_refusal(tmp_path, "nenhuma")).get("RECUSA-NAO-NOTIFICA") == "aviso"


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_refusal_without_witness_claims_none_and_states_the_law(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, _ferraz_refusal(tmp_path, "pessoal"), draft=True)
    text = next(t for n, t in docs.items() if n.endswith(ext))
    assert "testemunha abaixo identificada" not in text
    assert ("O autuado recusou-se a assinar o recibo da cópia deste auto; o agente autuante registra o ocorrido. "
            "Sem o recibo datado, a notificação pessoal não se perfaz") in text
    # the choice of the rules (recusa-sem-recibo) in the act's words, without its id
    assert "a recusa fica registrada, mas não vale como notificação" in text and "recusa-sem-recibo" not in text


# --- 6. Ferraz art. 76, III: edital "se desconhecido o domicílio fiscal do infrator" ---------------------------


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_edital_says_desconhecido_and_prints_what_must_be_tried_first(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, PROCESSOS / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-005102-edital.yaml", 4)
    text = docs[f"edital-notificacao-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04.{ext}"]
    assert "art. 76, inciso III, desconhecido o domicílio fiscal do infrator, NOTIFICA" in text
    assert "incerto" not in text
    assert "Escolha interpretativa" not in text  # a published edital prints no choice of the rules (autos regras)
    # what was tried first, as the processo records it: the AR returned "Mudou-se", then the search for the domicile
    assert "TENTATIVAS DE NOTIFICAÇÃO ANTERIORES AO EDITAL" in text
    assert ("Notificação por AR nº AR-248/2026, postada em 23 de setembro de 2026, devolvida sem entrega em 30 de "
            "setembro de 2026, motivo: “Mudou-se”.") in text
    assert "Diligência de localização do domicílio, em 2 de outubro de 2026" in text


# --- 7. Ferraz notificação preliminar: arts. 3º and 4º, every 30 days, arts. 76–77 by analogy -----------------
# Art. 4º: "os respectivos responsáveis, previstos no artigo 3º desta Lei, serão notificados para proceder a limpeza
# no prazo de 30 (trinta) dias ... multa ... a cada 30 (trinta) dias, até seu efetivo atendimento."


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_preliminar_cites_its_articles_and_the_30_day_repetition(tmp_path: Path, ext: str) -> None:
    docs = texts(tmp_path, PROCESSOS / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-004417-terreno.yaml", 1)
    text = docs[f"notificacao-preliminar-ferraz-de-vasconcelos-sp-pm-fv-2026-004417-ato-01.{ext}"]
    assert "Com fundamento na Lei nº 3.240/2015, arts. 3º e 4º — lei que" in text  # the ementa as an apposition
    assert "arts. 6º, 8º, 13" not in text
    assert ("a multa é aplicada de novo, no mesmo valor, a cada 30 (trinta) dias, até o efetivo atendimento (Lei nº "
            "3.240/2015, art. 4º)") in text
    assert "(arts. 76 e 77, por analogia)" in text
    assert "art. 76, I, e art. 77, I, aplicados por analogia" in text
    # the choice of the rules (preliminar-analogia-76-77) in the act's words, without its id
    assert "Aplicam-se a esta notificação, por analogia, as formas de notificação do art. 76" in text
    assert "preliminar-analogia-76-77" not in text and "Escolha interpretativa" not in text


# --- 10. Ferraz art. 69, §§ 2º and 3º, and art. 70, p.u. --------------------------------------------------------
# "§ 2º O estabelecimento comercial que reincidir no descumprimento ao artigo 64, terá sua atividade suspensa por 30
# (trinta) dias, mediante fechamento administrativo, com lacração de todas as entradas do estabelecimento."
# Art. 70, p.u.: "Os estabelecimentos comerciais que infringirem por 3 (três) vezes o disposto no 'caput' deste
# artigo" — the caput of art. 70 is the deduction of the deposit: the paragraph refers to its own caput.


def _noise_auto(tmp: Path, name: str, **changes: Any) -> Path:
    base = CASOS / "ferraz-de-vasconcelos-sp" / "demonstrativo-ruido-bar.yaml"
    fields: dict[str, Any] = {"documento": "auto_de_infracao", "auto": None, "numero": "260/2026",
                              "lavratura": {"local": "Rua Rui Barbosa, 745, Centro", "data": "2026-10-16",
                                            "hora": "23:40"},
                              "assinaturas": {"autuado": {"situacao": "assinou", "data": "2026-10-16"}},
                              "notificacao": {"forma": "pessoal", "data": "2026-10-16"}}
    fields.update(changes)
    return case_file(tmp, base, name, **fields)


def test_ferraz_suspension_on_a_repeat_of_art64_art69_p2(tmp_path: Path, autos: Autos) -> None:
    ok = _noise_auto(tmp_path, "suspensao.yaml", penalidades=[
        {"tipo": "multa"}, {"tipo": "suspensao", "condicao": "reincidencia-art64"}])
    found = codes(autos, ok)
    assert not {c for c in found if c.startswith("PENALIDADE")}, found
    first = _noise_auto(tmp_path, "primeira.yaml", penalidades=[
        {"tipo": "multa"}, {"tipo": "suspensao", "condicao": "reincidencia-art64"}],
        infracoes=[{"regra": "ruido-acima-do-limite", "reincidente": False}])
    assert codes(autos, first).get("PENALIDADE-CONDICAO-REINCIDENCIA") == "erro"
    docs = texts(tmp_path / "out", ok)
    text = next(t for n, t in docs.items() if n.endswith(".pdf"))
    assert ("Suspensão da atividade por 30 dias, com fechamento administrativo e lacração de todas as entradas (Lei "
            "nº 3.240/2015, art. 69, § 2º: o estabelecimento comercial reincidiu no descumprimento do art. 64") in text
    assert "A suspensão decorre da reincidência do estabelecimento comercial na infração do art. 64" in text
    assert "art69-2-reincidencia" not in text


def test_ferraz_art70_pu_text_defect_is_recorded_and_printed(tmp_path: Path, autos: Autos) -> None:
    st = load_rules(ROOT / "rules").get("ferraz-de-vasconcelos-sp/lei-3240-2015")
    it = next(i for i in st.interpretacoes if i.id == "art70-pu-remissao")
    assert it.citacao.artigo == "70" and "próprio caput" in " ".join(it.problema.split())
    show = _noise_auto(tmp_path, "show.yaml", penalidades=[
        {"tipo": "multa"}, {"tipo": "suspensao", "condicao": "terceira-infracao-art66"}],
        infracoes=[{"regra": "show-ao-ar-livre-madrugada", "reincidente": True, "caucao_depositada": False}])
    assert not {c for c in codes(autos, show) if c.startswith("PENALIDADE")}
    docs = texts(tmp_path / "out", show)
    text = next(t for n, t in docs.items() if n.endswith(".pdf"))
    assert "A remissão lê-se como feita ao espetáculo ou show ao ar livre" in text
    assert "art70-pu-remissao" not in text
    assert "o parágrafo remete ao seu próprio caput" in text
