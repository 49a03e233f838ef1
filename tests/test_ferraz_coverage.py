"""Ferraz de Vasconcelos, Lei nº 3.240/2015: the dispositivos the coverage table had pending, read from the statute
text and checked through the validator and the documents — the exceptions, dispensations and tolerances of arts.
12, 17, 18, 23, 39, 57, 63 and 66 (a finding each, printed on the document), the prohibitions of art. 73 that the
law leaves without a penalty, the notices of arts. 20 to 22 and 51 whose term the law leaves to the notice, and the
verbless art. 69, § 1º."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.cli import main
from autos.compute.timeline import Timeline
from autos.rules.procedure import load_procedure
from autos.rules.statute import load_rules

from .conftest import CASOS, ROOT, TODAY
from .textutil import document_text, docx_pdf_differences

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_ferraz_coverage")

FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
BASE = CASOS / "ferraz-de-vasconcelos-sp"


def _case(tmp: Path, base: str, name: str, **changes: Any) -> Path:
    data = yaml.safe_load((BASE / base).read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    out = tmp / name
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def _auto(tmp: Path, name: str, infracoes: list[dict[str, Any]], **changes: Any) -> Path:
    """An auto de infração of Ferraz (the noise sample made an auto) citing ``infracoes``."""
    fields: dict[str, Any] = {"documento": "auto_de_infracao", "auto": None, "numero": "260/2026",
                              "lavratura": {"local": "Rua Rui Barbosa, 745, Centro", "data": "2026-10-16",
                                            "hora": "23:40"},
                              "assinaturas": {"autuado": {"situacao": "assinou", "data": "2026-10-16"}},
                              "notificacao": {"forma": "pessoal", "data": "2026-10-16"},
                              "infracoes": infracoes}
    fields.update(changes)
    return _case(tmp, "demonstrativo-ruido-bar.yaml", name, **fields)


# --- exceptions, dispensations, authorized situations and tolerances -------------------------------------------
# Each row: finding code → (infraction of the rules, exception id, the dispositivo the finding cites, words of the
# statute text that the finding repeats). Written from the statute text, not read from the rules.
EXCEPTIONS: dict[str, tuple[str, str, str, str]] = {
    # Art. 12. A Prefeitura Municipal poderá dispensar a execução de muro ou fechamento [...] I- quando os
    # terrenos apresentarem acentuado desnível [...]; II- quando junto ao alinhamento existir um curso d'água.
    "FER-12-I": ("muro-irregular", "dispensa-desnivel", "art. 12, inciso I", "acentuado desnível"),
    "FER-12-II": ("muro-irregular", "dispensa-curso-dagua", "art. 12, inciso II", "curso d'água"),
    # Art. 17, § 1º Situação excepcional será analisada e autorizada [...]; § 2º [...] bancos, vasos e outros
    # ornamentos que compõem a característica histórica dos bairros.
    "FER-17-2": ("passeio-mau-estado", "ornamentos-historicos", "art. 17, § 2º", "característica histórica"),
    # Art. 18, § 2º Caracteriza situação excepcional os terrenos que possuem aclive ou declive muito acentuados.
    "FER-18-2": ("degraus-rampas-irregulares", "terreno-muito-inclinado", "art. 18, § 2º", "aclive ou declive"),
    # Art. 23. A Prefeitura poderá dispensar a execução do passeio [...] I / II.
    "FER-23-I": ("passeio-notificacao-nao-atendida", "dispensa-passeio-desnivel", "art. 23, inciso I",
                 "acentuado desnível"),
    "FER-23-II": ("passeio-notificacao-nao-atendida", "dispensa-passeio-curso-dagua", "art. 23, inciso II",
                  "curso d'água"),
    # Art. 39, § 1º Não serão consideradas irregularidades, passíveis de autuação, as pequenas divergências [...];
    # § 2º, I a V.
    "FER-39-2-I": ("obra-em-desacordo", "localizacao-esquadrias", "art. 39, § 2º, inciso I", "esquadrias"),
    "FER-39-2-II": ("obra-em-desacordo", "disposicao-aparelhos-sanitarios", "art. 39, § 2º, inciso II",
                    "aparelhos sanitários"),
    "FER-39-2-III": ("obra-em-desacordo", "deslocacao-paredes", "art. 39, § 2º, inciso III", "5% (cinco por cento)"),
    "FER-39-2-IV": ("obra-em-desacordo", "pe-direito-ate-5", "art. 39, § 2º, inciso IV", "pés-direitos"),
    "FER-39-2-V": ("obra-em-desacordo", "cotas-altimetricas", "art. 39, § 2º, inciso V", "cotas altimétricas"),
    # Art. 57. Serão tolerados serviços de pequenos e rápidos reparos como troca de pneus [...]
    "FER-57": ("veiculo-conserto-permanencia", "pequenos-reparos", "art. 57", "troca de pneus"),
    # Art. 63. Não se compreendem nas proibições do artigo 60, os sons produzidos por: I a XI.
    "FER-63-I": ("perturbacao-sossego", "propaganda-eleitoral", "art. 63, inciso I", "propaganda eleitoral"),
    "FER-63-II": ("perturbacao-sossego", "obras-licenciadas", "art. 63, inciso II", "entre 8 e 17 horas"),
    "FER-63-III": ("perturbacao-sossego", "divertimentos-autorizados", "art. 63, inciso III",
                   "horários previamente autorizados"),
    "FER-63-IV": ("perturbacao-sossego", "explosivos-pedreiras", "art. 63, inciso IV", "pedreiras"),
    "FER-63-V": ("perturbacao-sossego", "sinos-templos", "art. 63, inciso V", "sinos de igrejas"),
    "FER-63-VI": ("perturbacao-sossego", "fanfarras-desfiles", "art. 63, inciso VI", "fanfarras"),
    "FER-63-VII": ("perturbacao-sossego", "sirenes-emergencia", "art. 63, inciso VII", "ambulâncias"),
    "FER-63-VIII": ("perturbacao-sossego", "advertencia-veiculos", "art. 63, inciso VIII",
                    "75 (setenta e cinco) decibéis"),
    "FER-63-IX": ("perturbacao-sossego", "fogos-festas-religiosas", "art. 63, inciso IX", "Calendário Turístico"),
    "FER-63-X": ("perturbacao-sossego", "ensaios-escolas-samba", "art. 63, inciso X", "escola de samba"),
    "FER-63-XI": ("perturbacao-sossego", "apito-guarda-noturno", "art. 63, inciso XI", "guarda noturno"),
    # Art. 66, parágrafo único. Excetuam-se [...] os eventos referentes ao carnaval, festas culturais e
    # religiosas, festas esportivas e festas cívicas.
    "FER-66-PU": ("show-ao-ar-livre-madrugada", "carnaval-festas", "art. 66, parágrafo único", "carnaval"),
}


def _exception_id(code: str) -> str:
    return "art" + code.removeprefix("FER-").replace("-PU", "-pu")


def test_the_rules_have_exactly_the_exceptions_of_the_text() -> None:
    """Every exception of the rules is one of the table above (written from the text), and none is missing."""
    st = load_rules(ROOT / "rules").get(FERRAZ)
    found = {e.codigo: (inf_id, e.id) for inf_id, inf in st.infracoes.items() for e in inf.excecoes}
    assert found == {code: row[:2] for code, row in EXCEPTIONS.items()}


@pytest.mark.parametrize("code", list(EXCEPTIONS), ids=[_exception_id(c) for c in EXCEPTIONS])
def test_exception_gives_its_finding(tmp_path: Path, autos: Autos, code: str) -> None:
    """The case whose facts fall under the exception (infracoes[].excecao) is refused with the exception's own
    finding, citing its dispositivo: the document has no legal basis for that infraction."""
    regra, excecao, dispositivo, words = EXCEPTIONS[code]
    file = _auto(tmp_path, "excecao.yaml", [{"regra": regra, "excecao": excecao, "complemento": "art. 24",
                                             "quantidade": "10", "periodo": 1, "reincidente": False,
                                             "caucao_depositada": False}])
    found = [f for f in autos.validate(file).findings if f.codigo == code]
    assert len(found) == 1, [f.render() for f in autos.validate(file).findings]
    f = found[0]
    assert f.severidade == "erro" and f.caminho == "infracoes[0].excecao" and f.linha is not None
    assert dispositivo in (f.citacao or "")
    assert words in f.mensagem


def test_an_exception_the_law_does_not_have_is_refused(tmp_path: Path, autos: Autos) -> None:
    """Art. 63 lists the sounds outside art. 60; an id that is not one of them, or an exception on an infraction the
    law gives none (art. 65: not even the exceptions apply near hospitals), is an error naming the ones there are."""
    file = _auto(tmp_path, "desconhecida.yaml", [{"regra": "perturbacao-sossego", "excecao": "festa-junina",
                                                  "reincidente": False}])
    found = {f.codigo: f for f in autos.validate(file).findings}
    assert "propaganda-eleitoral (art. 63, inciso I)" in (found["EXCECAO-DESCONHECIDA"].dica or "")
    file = _auto(tmp_path, "sem-excecao.yaml", [{"regra": "ruido-perto-de-reparticoes", "excecao": "sinos-templos",
                                                 "reincidente": False}])
    found = {f.codigo: f for f in autos.validate(file).findings}
    assert "não prevê exceção" in (found["EXCECAO-DESCONHECIDA"].dica or "")


def test_a_case_without_exception_has_none_of_these_findings(autos: Autos) -> None:
    """The noise sample (art. 64, no exception stated) gives no exception finding: the check reads the case."""
    codes = {f.codigo for f in autos.validate(BASE / "demonstrativo-ruido-bar.yaml").findings}
    assert not codes & {*EXCEPTIONS, "EXCECAO-DESCONHECIDA", "INFRACAO-SEM-SANCAO"}


_GENERATED: dict[Path, dict[str, str]] = {}


def _draft_texts(tmp: Path, file: Path) -> dict[str, str]:
    if file not in _GENERATED:
        result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-12-20", "gerar",
                                           str(file), "-o", str(tmp), "--minuta"])
        assert result.exit_code == 0, result.output
        _GENERATED[file] = {p.name: document_text(p) for p in sorted(tmp.iterdir())
                            if p.suffix in (".pdf", ".docx")}
    return _GENERATED[file]


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_the_auto_prints_the_exception_art63_i(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    """Art. 63, I: "vozes ou aparelhos utilizados na propaganda eleitoral de acordo com a legislação própria" — the
    draft auto states the exception recorded in the facts, with its article and the rule of the caput."""
    tmp = tmp_path_factory.mktemp("art63")
    file = _auto(tmp, "art63-i.yaml", [{"regra": "perturbacao-sossego", "excecao": "propaganda-eleitoral",
                                        "reincidente": False}])
    text = next(t for n, t in _draft_texts(tmp / "out", file).items() if n.endswith(f".{ext}"))
    assert "Exceção registrada nos fatos: vozes ou aparelhos utilizados na propaganda eleitoral" in text
    assert "não se compreendem nas proibições do art. 60" in text
    assert "Lei nº 3.240/2015, art. 63, inciso I; art. 63" in text


# --- art. 73: prohibitions without a penalty in this law ------------------------------------------------------
# "Art. 73. Não será permitido o comércio ambulante a varejo dos seguintes artigos: I- medicamentos [...] VI- carnes
# e vísceras. Parágrafo único. A venda de [...] guloseimas, somente será permitida em caixas ou outros receptáculos
# fechados ou cobertos [...]" — no article of the law fixes a fine for it (art. 75: "penalidades legalmente
# previstas").
ART73 = {
    "art73-I": ("ambulante-medicamentos", "art. 73, inciso I"),
    "art73-II": ("ambulante-bebidas-alcoolicas", "art. 73, inciso II"),
    "art73-III": ("ambulante-combustiveis-explosivos", "art. 73, inciso III"),
    "art73-IV": ("ambulante-armas-municoes", "art. 73, inciso IV"),
    "art73-V": ("ambulante-impressos-obscenos", "art. 73, inciso V"),
    "art73-VI": ("ambulante-carnes-visceras", "art. 73, inciso VI"),
    "art73-pu": ("ambulante-guloseimas-descobertas", "art. 73, parágrafo único"),
}


@pytest.mark.parametrize("which", list(ART73))
def test_art73_conduct_without_penalty_is_refused_with_the_choice(tmp_path: Path, autos: Autos, which: str) -> None:
    regra, dispositivo = ART73[which]
    file = _auto(tmp_path, "art73.yaml", [{"regra": regra}])
    found = {f.codigo: f for f in autos.validate(file).findings}
    f = found["INFRACAO-SEM-SANCAO"]
    assert f.severidade == "erro" and f.caminho == "infracoes[0].regra"
    assert dispositivo in (f.citacao or "")
    assert "não fixa penalidade" in f.mensagem and "art73-sem-multa" in f.mensagem
    assert "Leis nºs 1.408/1983, 2.300/1998 e 2.320/1999" in f.mensagem


def test_art73_v_subversive_is_not_applied() -> None:
    """Art. 73, V forbids "folhetos [...] de caráter obsceno ou subversivo": the rules describe only the obscene,
    and the recorded choice says why (Constituição, art. 5º, IX; art. 220)."""
    st = load_rules(ROOT / "rules").get(FERRAZ)
    rule = st.infracoes["ambulante-impressos-obscenos"]
    assert "obsceno" in rule.descricao and rule.sem_sancao == "art73-sem-multa"
    it = next(i for i in st.interpretacoes if i.id == "art73-sem-multa")
    assert "art. 220" in it.problema and "subversivo" in it.escolha


# --- arts. 20 to 22 and 51: the term is the notice's ----------------------------------------------------------
# Art. 27: "Decorridos os prazos fixados nas notificações a que se referem os artigos 20, 21, 22 [...]"; art. 51:
# "será a responsável notificação no prazo nela estabelecido". The rules give 30 days as an EXAMPLE, warned.


@pytest.mark.parametrize(("which", "prazo", "infracao"), [
    pytest.param("art20", "aguas_pluviais_arts20a22", {"regra": "passeio-notificacao-nao-atendida",
                                                       "complemento": "art. 20", "periodo": 1}, id="art20"),
    pytest.param("art21", "aguas_pluviais_arts20a22", {"regra": "passeio-notificacao-nao-atendida",
                                                       "complemento": "art. 21", "periodo": 1}, id="art21"),
    pytest.param("art22", "aguas_pluviais_arts20a22", {"regra": "passeio-notificacao-nao-atendida",
                                                       "complemento": "art. 22", "periodo": 1}, id="art22"),
    pytest.param("art51", "habite_se_art51", {"regra": "ocupacao-sem-certificado", "periodo": 1}, id="art51"),
])
def test_notice_whose_term_the_law_leaves_to_it_uses_the_example_term_and_says_so(
        tmp_path: Path, which: str, prazo: str, infracao: dict[str, Any], shipped_examples: None) -> None:
    file = _case(tmp_path, "notificacao-preliminar-terreno.yaml", f"{which}.yaml",
                 exigencia={"descricao": "regularizar", "prazo": prazo}, infracoes=[infracao])
    report = Autos(ROOT / "rules", ROOT / "templates", today=TODAY).validate(file)  # the shipped example terms
    assert not [f for f in report.errors], [f.render() for f in report.errors]
    warned = [f for f in report.warnings if f.codigo == "PRAZO-EXEMPLO"]
    assert warned and "EXEMPLO" in warned[0].mensagem


# --- art. 69, § 1º: the verbless paragraph ----------------------------------------------------------------------
# "§ 1º O estabelecimento comercial, independentemente da terceirização do espetáculo ou show musical e/ou
# instrumental, quanto à multa a que alude o caput deste artigo." — read as "responde pela multa".


def test_art69_p1_reading_is_warned_on_every_art66_auto(tmp_path: Path, autos: Autos) -> None:
    file = _auto(tmp_path, "show.yaml", [{"regra": "show-ao-ar-livre-madrugada", "reincidente": False,
                                          "caucao_depositada": False}])
    found = [f for f in autos.validate(file).findings if f.codigo == "LEI-TEXTO-DEFEITUOSO"]
    assert any("art69-p1-sem-verbo" in f.mensagem and "responde pela multa" in f.mensagem
               and "art. 69, § 1º" in (f.citacao or "") for f in found), [f.render() for f in found]


# --- art. 69, §§ 2º to 4º: the termos of suspension with lacração, its end, and of cassação ----------------------
# "§ 2º O estabelecimento comercial que reincidir no descumprimento ao artigo 64, terá sua atividade suspensa por 30
# (trinta) dias, mediante fechamento administrativo, com lacração de todas as entradas do estabelecimento. § 3º Se
# ocorrida nova infração, no caso do parágrafo anterior, depois de decorrido prazo da suspensão, a licença de
# funcionamento será cassada. § 4º Desrespeitada a suspensão, a cassação ou a lacração, o órgão da fiscalização
# providenciará o boletim de ocorrência com base no artigo 330 do Código Penal."
DOCS = Path(__file__).resolve().parent / "data" / "processo" / "documentos"
SUS_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-006300"


_FOLDERS: dict[Path, Path] = {}  # where _generated wrote the documents of each file


def _generated(tmp: Path, file: Path) -> dict[str, str]:
    if file not in _GENERATED:
        result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", "gerar",
                                           str(file), "-o", str(tmp)])
        assert result.exit_code == 0, result.output
        _GENERATED[file] = {p.name: document_text(p) for p in sorted(tmp.iterdir())
                            if p.suffix in (".pdf", ".docx")}
        _FOLDERS[file] = tmp
    return _GENERATED[file]


@pytest.mark.parametrize("name", ["fv-suspensao.yaml", "fv-cassacao.yaml"])
def test_suspension_and_cassation_processos_validate(autos: Autos, name: str) -> None:
    report = autos.validate(DOCS / name)
    assert report.ok, [f.render() for f in report.errors]


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_suspensao_e_lacracao_art69_p2_p4(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    """The lacração of 17/10/2026 (Saturday): 30 days counted from it, the end not moved (the term of the measure,
    not of an act of the autuado) — 17/10 + 14 = 31/10; + 16 = 16/11/2026."""
    docs = _generated(tmp_path_factory.mktemp("fv-sus"), DOCS / "fv-suspensao.yaml")
    text = docs[f"termo-suspensao-{SUS_STEM}-ato-03.{ext}"]
    assert "TERMO DE SUSPENSÃO DA ATIVIDADE E LACRAÇÃO Nº 15/2026" in text
    assert "Lei nº 3.240/2015, art. 69, § 2º" in text
    assert "relativo ao Auto de Infração nº 300/2026, lavrado em 16 de outubro de 2026" in text
    assert "Fica SUSPENSA a atividade abaixo descrita" in text and "a partir de 17 de outubro de 2026" in text
    assert "lacração da porta principal (lacre nº 0231)" in text
    assert "até 16 de novembro de 2026" in text
    assert "com lacração de todas as entradas do estabelecimento" in text
    assert "infringirem por 3 (três) vezes" in text and "art. 70, parágrafo único" in text
    assert "a licença de funcionamento será cassada" in text and "art. 69, § 3º" in text
    assert "boletim de ocorrência com base no artigo 330 do Código Penal" in text and "art. 69, § 4º" in text
    assert "17 de novembro" not in text  # the levantamento is later


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_levantamento_da_suspensao_art69_p2(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    docs = _generated(tmp_path_factory.mktemp("fv-sus"), DOCS / "fv-suspensao.yaml")
    text = docs[f"termo-levantamento-suspensao-{SUS_STEM}-ato-05.{ext}"]
    assert "TERMO DE LEVANTAMENTO DA SUSPENSÃO E DA LACRAÇÃO Nº 16/2026" in text
    assert ("Fica LEVANTADA a suspensão da atividade do estabelecimento situado em Rua Rui Barbosa, 745, Centro, "
            "Ferraz de Vasconcelos/SP, imposta em 17 de outubro de 2026, termo nº 15/2026, em 17 de novembro de "
            "2026.") in text
    assert "depois do fim do prazo, que terminou em 16 de novembro de 2026" in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_cassacao_da_licenca_art69_p3(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    docs = _generated(tmp_path_factory.mktemp("fv-cas"), DOCS / "fv-cassacao.yaml")
    text = docs[f"termo-cassacao-ferraz-de-vasconcelos-sp-pm-fv-2026-006580-ato-03.{ext}"]
    assert "TERMO DE CASSAÇÃO DA LICENÇA DE FUNCIONAMENTO Nº 17/2026" in text and "art. 69, § 3º" in text
    assert ("Fica CASSADA, a partir de 28 de novembro de 2026, a licença de funcionamento abaixo descrita, do "
            "estabelecimento situado em Rua Rui Barbosa, 745, Centro, Ferraz de Vasconcelos/SP.") in text
    assert "alvará de licença de funcionamento nº 1.234/2019" in text
    assert "SIM" not in text.split()  # not the Timóteo registry
    assert "boletim de ocorrência com base no artigo 330 do Código Penal" in text


def test_boletim_de_ocorrencia_art69_p4_follows_a_suspension_or_cassation(tmp_path: Path, autos: Autos) -> None:
    """§ 4º: the boletim de ocorrência is the fiscalização's act when the suspension, the cassação or the lacração is
    disrespected — a processo that records it with neither before is refused."""
    data = yaml.safe_load((DOCS / "fv-suspensao.yaml").read_text(encoding="utf-8"))
    data["atos"] = [a for a in data["atos"] if a["tipo"] not in ("suspensao", "levantamento_suspensao")]
    data["atos"][-1].pop("referente")
    file = tmp_path / "bo.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    found = [f for f in autos.validate(file).errors if f.codigo == "FORA-DE-ORDEM"]
    assert found and "boletim de ocorrência" in found[0].mensagem and "art. 69, § 4º" in (found[0].citacao or "")
    assert "suspensão da atividade e lacração" in found[0].mensagem


# --- art. 59, caput: the abandoned vehicle, apprehended and taken to the pátio municipal -----------------------
# "Art. 59. Os veículos que se encontrarem abandonados, ou que o respectivo proprietário não demonstre interesse
# pelo mesmo, serão apreendidos e recolhidos ao pátio municipal. Parágrafo único. Caso o veículo ofereça risco à
# saúde pública será recolhido imediatamente, sem notificação prévia, sujeito à multa [...] 4 UFMs" — the caput has
# no fine, and (a contrario) a notice first: the example term of 5 days (art. 71's prior communication).
VEH_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-005900"


def test_abandoned_vehicle_processo_validates_with_the_example_term_warned(shipped_examples: None) -> None:
    report = Autos(ROOT / "rules", ROOT / "templates", today=TODAY).validate(DOCS / "fv-veiculo-abandonado.yaml")
    assert report.ok, [f.render() for f in report.errors]
    assert any(f.codigo == "PRAZO-EXEMPLO" and "remover o veículo abandonado" in f.mensagem for f in report.warnings)


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_apreensao_do_veiculo_art59(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    docs = _generated(tmp_path_factory.mktemp("fv-veic"), DOCS / "fv-veiculo-abandonado.yaml")
    text = docs[f"termo-apreensao-veiculo-{VEH_STEM}-ato-04.{ext}"]
    assert "TERMO DE APREENSÃO E RECOLHIMENTO DE VEÍCULO Nº 52/2026" in text
    assert "Com fundamento na Lei nº 3.240/2015, art. 59" in text
    assert "relativo ao Auto de Infração nº 240/2026, lavrado em 10 de setembro de 2026" in text
    assert "placa ABC-1D23, chassi 9BWAB05U0EP000001" in text and "Pátio municipal, Rua Dom Pedro II" in text
    assert "serão apreendidos e recolhidos ao pátio municipal" in text
    assert "será recolhido imediatamente, sem notificação prévia" in text and "art. 59, parágrafo único" in text
    # the choice of the rules (art59-notificacao-previa) in the act's own words, without its id
    assert "o recolhimento do veículo foi precedido de notificação para removê-lo" in text
    assert "art59-notificacao-previa" not in text and "Escolha interpretativa" not in text
    assert "recolher a multa" not in text  # art. 80: no fine, nothing to pay
    assert "leiloados" not in text  # not the equipment of art. 60, p.u.


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_auto_that_only_apprehends_the_vehicle_has_no_payment_term_art80(
        tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    """Art. 80 gives the term to pay "as multas"; the auto of art. 59, caput, applies none: it states the appeal
    (art. 78) and no payment term."""
    docs = _generated(tmp_path_factory.mktemp("fv-veic"), DOCS / "fv-veiculo-abandonado.yaml")
    text = docs[f"auto-de-infracao-{VEH_STEM}-ato-02.{ext}"]
    assert "Apreensão e recolhimento do veículo ao pátio municipal (Lei nº 3.240/2015, art. 59)" in text
    assert "art. 78" in text and "até 21 de setembro de 2026" in text
    assert "recolher a multa" not in text and "art. 80" not in text
    # art. 78 speaks of the multa; this auto has none: the appeal is stated without "contra a multa" (the rules'
    # choice on recurso_art78, by analogy and the Constitution's art. 5º, LV)
    assert "Prazo para apresentar recurso" in text and "contra a multa" not in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_vehicle_notice_states_the_term_the_decree_fixes(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    """01/09/2026 (tuesday) + 5 days = 06/09 (sunday) → 07/09 (Independência) → 08/09/2026; the term of
    art. 59 set by the test official values (Decreto nº 122/2025), no longer the rules' example."""
    docs = _generated(tmp_path_factory.mktemp("fv-veic"), DOCS / "fv-veiculo-abandonado.yaml")
    text = docs[f"notificacao-preliminar-{VEH_STEM}-ato-01.{ext}"]
    assert "5 (cinco) dias corridos" in text and "até 8 de setembro de 2026" in text
    assert "prazo fixado no Decreto nº 122/2025" in text and "EXEMPLO" not in text


def test_payment_term_follows_the_fine_in_the_timeline(autos: Autos) -> None:
    """The processo of the vehicle has no payment term of art. 80 (its auto applies no fine); the noise processo,
    with a fine, keeps it."""
    vehicle = autos.deadlines_report(DOCS / "fv-veiculo-abandonado.yaml")
    assert isinstance(vehicle, Timeline)
    ids = {d.id for d in vehicle.prazos}
    assert "recurso_art78" in ids and "pagamento_art80" not in ids
    noise = autos.deadlines_report(DOCS / "fv-suspensao.yaml")
    assert isinstance(noise, Timeline)
    assert "pagamento_art80" in {d.id for d in noise.prazos}


# --- art. 71: execution of the service by the Prefeitura ----------------------------------------------------------
# "Nas hipóteses previstas nos Capítulos III, IV, V, VI e VII da presente Lei, após aplicação da multa e transcorrido
# o prazo recursal e não sendo provido o recurso, [...] mediante avaliação e comunicação prévia de no mínimo 5 (cinco)
# dias, a Prefeitura poderá providenciar a execução dos respectivos serviços e obras [...] mediante cobrança amigável
# ou judicial". The auto of 15/09/2026 was notified the same day: the appeal term ended on 25/09/2026.


def _art71(tmp: Path, name: str, **dates: str) -> Path:
    data = yaml.safe_load((DOCS / "fv-execucao-art71.yaml").read_text(encoding="utf-8"))
    for act in data["atos"]:
        if act["tipo"] in dates:
            act["data"] = dates[act["tipo"]]
    out = tmp / name
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def test_art71_execution_after_the_appeal_term_and_5_days_of_notice(autos: Autos) -> None:
    report = autos.validate(DOCS / "fv-execucao-art71.yaml")
    assert report.ok, [f.render() for f in report.errors]
    timeline = autos.deadlines_report(DOCS / "fv-execucao-art71.yaml")
    assert isinstance(timeline, Timeline)
    wait = next(d for d in timeline.prazos if d.id == "comunicacao_previa_art71")
    assert wait.fim.isoformat() == "2026-10-06" and wait.estado == "prejudicado"  # met by the execution


@pytest.mark.parametrize(("which", "dates", "words"), [
    pytest.param("execucao-no-5o-dia", {"execucao_servico": "2026-10-06"}, "vence em 06/10/2026", id="5-dias"),
    pytest.param("comunicacao-no-prazo-recursal", {"comunicacao_previa_execucao": "2026-09-22"},
                 "vence em 25/09/2026", id="prazo-recursal"),
])
def test_art71_execution_before_its_conditions_is_refused(tmp_path: Path, autos: Autos, which: str,
                                                          dates: dict[str, str], words: str) -> None:
    found = [f for f in autos.validate(_art71(tmp_path, f"{which}.yaml", **dates)).errors
             if f.codigo == "PRAZO-NAO-VENCIDO"]
    assert found and words in found[0].mensagem and "art. 71" in (found[0].citacao or ""), found


def test_art71_only_in_the_chapters_iii_to_vii(tmp_path: Path, autos: Autos) -> None:
    """The noise processo (chapter XV) has no service the Prefeitura may execute under art. 71."""
    data = yaml.safe_load((DOCS / "fv-suspensao.yaml").read_text(encoding="utf-8"))
    data["atos"] = [*data["atos"][:2], {"tipo": "comunicacao_previa_execucao", "data": "2026-11-05",
                                        "descricao": "isolamento acústico"}]
    file = tmp_path / "ruido.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    found = [f for f in autos.validate(file).errors if f.codigo == "ATO-INCABIVEL"]
    assert found and "terreno-sem-limpeza" in found[0].mensagem and "ruido-acima-do-limite" in found[0].mensagem


def test_art71_infractions_are_those_of_chapters_iii_to_vii() -> None:
    """The infractions the act allows are the rules' infractions citing arts. 3 to 27 (chapters III to VII) that leave
    a service or work to do on the property — all but the burning of art. 3º, § 1º and § 2º (an act, not a state
    of the property)."""
    st = load_rules(ROOT / "rules").get(FERRAZ)
    proc = load_procedure(ROOT / "rules", FERRAZ)
    allowed = set(proc.atos["comunicacao_previa_execucao"].so_infracoes)
    chapters = {i for i, r in st.infracoes.items() if 3 <= int(r.citacao.artigo) <= 27}
    assert allowed == chapters - {"queimada-no-proprio-imovel", "queimada-por-terceiro"}


# --- art. 53, §§ 1º and 2º: the Termo de Ocorrência of the Guarda Civil Municipal; the minor who caused the damage --
# "§ 1º Identificados, que o evento danoso, quer seu autor, os agentes encarregados da Guarda Civil Municipal - GCM,
# lavrarão Termo de Ocorrência - TO, em 2 (duas) vias, a primeira das quais servirá para dar início ao patrimônio
# municipal, apuração do custo de reposição ao estado anterior, garantida a oportunidade de defesa, nos termos dos
# artigos 78 e 79 desta Lei. § 2º Se o causador for menor, deverá ser identificado seus responsáveis, informando-se
# as autoridades competentes, nos termos do Estatuto da Criança e do Adolescente [...]"
TO_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-006410"


def test_termo_de_ocorrencia_processo_validates_and_warns_the_communication_art53_p2(autos: Autos) -> None:
    """The TO (12/11, 22h30) comes before the communication to the Conselho Tutelar, recorded in the auto (its
    observacoes): the TO gets the warning, the auto none."""
    report = autos.validate(DOCS / "fv-termo-ocorrencia.yaml")
    assert report.ok, [f.render() for f in report.errors]
    warned = [f for f in report.warnings if f.codigo == "FER-53-2-COMUNICACAO"]
    assert len(warned) == 1 and "Termo de Ocorrência" in warned[0].mensagem
    assert "art. 53, § 2º" in (warned[0].citacao or "")


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_ocorrencia_art53_p1(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    docs = _generated(tmp_path_factory.mktemp("fv-to"), DOCS / "fv-termo-ocorrencia.yaml")
    text = docs[f"termo-ocorrencia-{TO_STEM}-ato-01.{ext}"]
    assert "TERMO DE OCORRÊNCIA Nº TO-0877/2026" in text and "Lei nº 3.240/2015, art. 53, § 1º" in text
    assert "o agente da Guarda Civil Municipal abaixo identificado" in text and "em 2 (duas) vias" in text
    assert "Rogério Alves Teixeira" in text and "Guarda Civil Municipal" in text
    assert "a primeira dá início à apuração do dano ao patrimônio municipal e do custo de reposição" in text
    assert "arts. 78 e 79" in text and "art. 53, § 6º" in text
    # the choice of the rules (art53-1-redacao) in the act's own words, without its id
    assert "identificados quer o evento danoso, quer o seu autor" in text and "art53-1-redacao" not in text
    # § 2º: the minor's legal guardian is identified, and signs for him
    assert "Responsável legal: Sandra Regina Prado, CPF 251.983.460-98" in text
    assert "por Sandra Regina Prado" in text
    # § 1º: the GCM draws the termo up, so the letterhead names it (documentos.termo_ocorrencia.orgao), not the
    # Fiscalização de Posturas of the law's other documents; the auto that follows keeps the law's department
    # (the PDF's text has the letterhead before the title; the DOCX keeps it in the page header)
    if ext == "pdf":
        assert "Guarda Civil Municipal" in text.split("TERMO DE OCORRÊNCIA")[0]
        assert "Fiscalização de Posturas" not in text
        assert "Fiscalização de Posturas" in docs[f"auto-de-infracao-{TO_STEM}-ato-02.{ext}"]


def test_termo_de_ocorrencia_docx_and_pdf_say_the_same(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The termo de ocorrência and the auto that follows it: each DOCX says what its PDF says (page headers and
    footers aside), the minor's guardian signing "por …" on a line of its own in both."""
    _generated(tmp_path_factory.mktemp("fv-to"), DOCS / "fv-termo-ocorrencia.yaml")
    docs = sorted(_FOLDERS[DOCS / "fv-termo-ocorrencia.yaml"].glob("*.docx"))
    assert len(docs) == 2
    for doc in docs:
        assert docx_pdf_differences(doc.read_bytes(), doc.with_suffix(".pdf").read_bytes()) == [], doc.name


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_auto_against_a_minor_names_the_guardian_art53_p2(tmp_path_factory: pytest.TempPathFactory, ext: str) -> None:
    docs = _generated(tmp_path_factory.mktemp("fv-to"), DOCS / "fv-termo-ocorrencia.yaml")
    text = docs[f"auto-de-infracao-{TO_STEM}-ato-02.{ext}"]
    assert "Responsável legal: Sandra Regina Prado, CPF 251.983.460-98" in text and "por Sandra Regina Prado" in text
    assert "Conselho Tutelar de Ferraz de Vasconcelos" in text


def test_minor_without_guardian_is_an_error_art53_p2(tmp_path: Path, autos: Autos) -> None:
    data = yaml.safe_load((DOCS / "fv-termo-ocorrencia.yaml").read_text(encoding="utf-8"))
    data["autuado"].pop("responsavel_legal")
    file = tmp_path / "sem-responsavel.yaml"
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    found = [f for f in autos.validate(file).errors if f.codigo == "FER-53-2-RESPONSAVEIS"]
    assert found and "responsavel_legal" in found[0].mensagem and "art. 53, § 2º" in (found[0].citacao or "")
    # an adult autuado (menor: false, the default) needs no guardian
    data["autuado"].pop("menor")
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert not [f for f in autos.validate(file).findings if f.codigo.startswith("FER-53-2")]
