"""The measures of a processo and their ends, as acts with documents: termo de embargo and de
levantamento do embargo (Ferraz arts. 37 and 38), termo de interdição and de levantamento (Timóteo art. 16, VI
and § 3º, art. 5º, IV; Cuiabá art. 35, III), termo de apreensão and de devolução/restituição/resgate (Ferraz
art. 60, p.u.; Timóteo art. 16, III; Cuiabá arts. 9º and 11). Each document is checked by its extracted text
(pypdf, python-docx): it states what was known on its date, with the article, and the date its term ends,
worked out by hand below from the statute text. The timeline (``autos prazos``/``autos pendencias``) shows the
running measure, its end and what follows when it passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT
from .textutil import document_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_processo_medidas")

RULES = ["--regras", str(ROOT / "rules")]
DOCS = DATA / "processo" / "documentos"
SAMPLES = ROOT / "samples" / "processos"
FV_EMBARGO = DOCS / "fv-embargo.yaml"
FV_STEM = "ferraz-de-vasconcelos-sp-fv-2026-0600"
TIM_INTERDICAO = DOCS / "tim-interdicao.yaml"
TIM_STEM = "timoteo-mg-sim-2026-000230"


def run(hoje: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*RULES, "--hoje", hoje, *args])
    return result.exit_code, result.output


def generate(tmp: Path, file: Path, ato: int, hoje: str = "2026-12-20") -> Path:
    code, out = run(hoje, "gerar", str(file), "--ato", str(ato), "-o", str(tmp))
    assert code == 0, out
    return tmp


def variant(tmp_path: Path, file: Path, edit: dict[int, dict[str, object] | None]) -> Path:
    """A copy of a processo with some acts changed (``None``: the act removed)."""
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    atos = []
    for i, a in enumerate(data["atos"]):
        if i in edit:
            if edit[i] is None:
                continue
            a = {**a, **edit[i]}  # type: ignore[dict-item]
        atos.append(a)
    data["atos"] = atos
    out = tmp_path / file.name
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def deadline(timeline: dict[str, object], pid: str) -> dict[str, object]:
    found = [p for p in timeline["prazos"] if p["id"] == pid]  # type: ignore[attr-defined,index]
    assert len(found) == 1, timeline["prazos"]
    return found[0]  # type: ignore[no-any-return]


# --- 1. embargo (Ferraz de Vasconcelos, arts. 37 and 38) ------------------------------------------------------


@pytest.fixture(scope="module")
def fv_embargo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("embargo")
    code, text = run("2026-12-20", "gerar", str(FV_EMBARGO), "-o", str(out))
    assert code == 0, text
    return out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_embargo_states_the_30_days_of_art37_pu_and_the_art38_fine(fv_embargo: Path, ext: str) -> None:
    text = document_text(fv_embargo / f"termo-embargo-{FV_STEM}-ato-03.{ext}")
    assert "TERMO DE EMBARGO Nº 12/2026" in text and "Lei nº 3.240/2015, art. 37" in text
    assert "relativo ao Auto de Infração nº 600/2026, lavrado em 10 de novembro de 2026" in text
    assert ("Fica EMBARGADA a obra situada na Rua Santos Dumont, 15, Vila Correa, Ferraz de Vasconcelos/SP, "
            "a partir de 10 de novembro de 2026.") in text
    # art. 37, p.u. (second): 30 calendar days from the embargo of 10/11/2026, the start day excluded:
    # 11/11–30/11 = 20 days, 01/12–10/12 = 10 more → 10/12/2026, a Thursday with office hours (no extension)
    assert "30 (trinta) dias corridos" in text and "até 10 de dezembro de 2026" in text
    assert "art. 37, parágrafo único, segundo, e art. 38" in text  # the inner parenthesis unstacked
    # art. 38: what happens when the 30 days pass without the project being filed
    assert "Expirado o prazo de embargo de 30 (trinta) dias" in text and "multa de 200 UFMs" in text
    assert "a cada 30 (trinta) dias, até a solução final" in text and "(Lei nº 3.240/2015, art. 38)" in text
    for later in ("4 de dezembro", "LEVANTADO"):  # the levantamento (nº 3/2026) comes later
        assert later not in text, later


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_levantamento_do_embargo(fv_embargo: Path, ext: str) -> None:
    text = document_text(fv_embargo / f"termo-levantamento-embargo-{FV_STEM}-ato-05.{ext}")
    assert "TERMO DE LEVANTAMENTO DO EMBARGO Nº 3/2026" in text
    assert ("Fica LEVANTADO o embargo da obra situada na Rua Santos Dumont, 15, Vila Correa, Ferraz de "
            "Vasconcelos/SP, imposto em 10 de novembro de 2026, termo nº 12/2026, em 4 de dezembro de 2026.") in text
    assert "até 10 de dezembro de 2026" in text  # the embargo's term, as above (art. 37, p.u.)
    assert "A medida termina em 4 de dezembro de 2026, dentro do prazo, que terminava em 10 de dezembro de 2026" in text
    assert "art. 37 (segundo parágrafo único)" in text


def test_levantamento_after_the_30_days_says_so_and_the_art38_fine_stays_due(tmp_path: Path) -> None:
    # levantamento on 15/12/2026, after the end of the 30 days (10/12/2026, as above)
    f = variant(tmp_path, FV_EMBARGO, {4: {"data": "2026-12-15"}})
    out = generate(tmp_path / "out", f, 5)
    text = document_text(out / f"termo-levantamento-embargo-{FV_STEM}-ato-05.pdf")
    assert "em 15 de dezembro de 2026." in text
    assert "A medida termina em 15 de dezembro de 2026, depois do fim do prazo, que terminou em 10 de dezembro" in text
    code, js = run("2026-12-20", "prazos", "--json", str(f))
    assert code == 0, js
    t = json.loads(js)
    assert deadline(t, "embargo_art37_pu")["estado"] == "perdido"
    assert any("multa de 200 UFMs" in p["acao"] and p["vence"] == "2026-12-10" for p in t["pendencias"])


def test_levantamento_meets_the_embargo_term(tmp_path: Path) -> None:
    code, out = run("2026-12-20", "prazos", "--json", str(FV_EMBARGO))
    assert code == 0, out
    d = deadline(json.loads(out), "embargo_art37_pu")
    assert (d["inicio"], d["fim"], d["estado"], d["cumprido_por"]) == ("2026-11-10", "2026-12-10", "cumprido", 4)


def test_running_embargo_shows_its_end_date() -> None:
    # the sample: embargo of 10/11/2026, no levantamento; on 01/12 the 30 days (to 10/12) are still running
    code, out = run("2026-12-01", "prazos", str(SAMPLES / "ferraz-de-vasconcelos-sp" /
                                                "fv-2026-0531-embargo-ar-postado.yaml"))
    assert code == 0, out
    assert "Prazo do embargo da obra para dar entrada no projeto" in out
    assert "30 dias corridos de 10/11/2026 a 10/12/2026 — EM CURSO" in out


def test_embargo_past_30_days_is_overdue_with_the_art38_fine() -> None:
    sample = SAMPLES / "ferraz-de-vasconcelos-sp" / "fv-2026-0531-embargo-ar-postado.yaml"
    code, out = run("2026-12-20", "prazos", "--json", str(sample))
    assert code == 0, out
    t = json.loads(out)
    d = deadline(t, "embargo_art37_pu")
    assert (d["fim"], d["estado"]) == ("2026-12-10", "perdido")
    nxt = t["proximo"]
    assert nxt["quem"] == "administracao" and nxt["vence"] == "2026-12-10" and nxt["urgencia"] == "vencido"
    assert "multa de 200 UFMs" in nxt["acao"] and "art. 38" in nxt["acao"]
    code, out = run("2026-12-20", "pendencias", str(sample))
    assert code == 0, out
    assert "== VENCIDO ==" in out
    assert "10/12/2026  FV-2026/0531  aplicar a multa de 200 UFMs e repeti-la a cada 30 dias" in out


def test_embargo_term_ending_on_a_saturday_moves_to_monday(tmp_path: Path) -> None:
    # embargo of 05/11/2026 (Thursday): +30 calendar days = 05/12/2026, a Saturday; the term is for filing
    # the project at the Secretaria, so it moves to the next business day, Monday 07/12/2026 (the law's
    # counting rule: Lei federal nº 9.784/1999, art. 66, § 1º, adopted in lei-3240-2015.prazos.yaml)
    # the notice to present plans and permit (art. 37) on 21/10: its 8 business days (28/10 and 02/11 without office
    # hours) end on 04/11, and the auto of the fine is of the day after (choice auto-apos-notificacao-preliminar)
    signed = {"autuado": {"situacao": "assinou", "data": "2026-10-21", "nome_de_quem_assinou": "Antônio Ferreira Lopes"}}
    f = variant(tmp_path, FV_EMBARGO, {0: {"data": "2026-10-21", "assinaturas": signed}, 1: {"data": "2026-11-05"},
                                       2: {"data": "2026-11-05"}, 3: {"data": "2026-11-05"}, 4: None})
    f.write_text(f.read_text(encoding="utf-8").replace("data_infracao: 2026-11-10", "data_infracao: 2026-11-05"),
                 encoding="utf-8")
    code, out = run("2026-12-20", "prazos", "--json", str(f))
    assert code == 0, out
    d = deadline(json.loads(out), "embargo_art37_pu")
    assert (d["fim"], d["estado"]) == ("2026-12-07", "perdido")


# --- 2. interdiction (Timóteo art. 16, VI and § 3º; Cuiabá art. 35, III) ------------------------------------


@pytest.fixture(scope="module")
def tim_interdicao(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("interdicao")
    code, text = run("2026-11-30", "gerar", str(TIM_INTERDICAO), "-o", str(out))
    assert code == 0, text
    return out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_interdicao_states_the_12_month_limit_of_art16_p3(tim_interdicao: Path, ext: str) -> None:
    text = document_text(tim_interdicao / f"termo-interdicao-{TIM_STEM}-ato-02.{ext}")
    assert "TERMO DE INTERDIÇÃO Nº 5/2026" in text and "Lei nº 3.844/2022, art. 16, inciso VI" in text
    assert ("Fica INTERDITADO, em interdição PARCIAL, o estabelecimento situado na Rua Quinze de Novembro, 40, "
            "Centro, Timóteo/MG, a partir de 31 de outubro de 2026.") in text
    assert "sala de envase e câmara fria" in text
    # art. 16, § 3º: 12 months counted date to date (Lei 9.784/1999, art. 66, § 3º) from 31/10/2026 →
    # 31/10/2027, a Sunday, not moved (the interdiction lasts on days without office hours)
    assert "12 (doze) meses" in text and "até 31 de outubro de 2027" in text
    assert "1º de novembro de 2027" not in text and "1 de novembro de 2027" not in text
    assert "Se a interdição ultrapassar doze (12) meses, será cassado o registro" in text
    assert "Lei nº 3.844/2022, art. 16, § 3º" in text
    for later in ("20 de novembro", "LEVANTADA"):
        assert later not in text, later


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_termo_de_levantamento_da_interdicao(tim_interdicao: Path, ext: str) -> None:
    text = document_text(tim_interdicao / f"termo-levantamento-interdicao-{TIM_STEM}-ato-04.{ext}")
    assert "TERMO DE LEVANTAMENTO DA INTERDIÇÃO Nº 6/2026" in text
    assert "Lei nº 3.844/2022, art. 5º, inciso IV" in text  # the SIM lifts the interdiction
    assert ("Fica LEVANTADA a interdição PARCIAL do estabelecimento situado na Rua Quinze de Novembro, 40, "
            "Centro, Timóteo/MG, imposta em 31 de outubro de 2026, termo nº 5/2026, em 20 de novembro de 2026.") in text
    assert "até 31 de outubro de 2027" in text  # the limit it had (art. 16, § 3º)
    assert "A medida termina em 20 de novembro de 2026, dentro do prazo, que terminava em 31 de outubro de 2027" in text


def test_interdiction_limit_in_prazos_and_pendencias(tmp_path: Path) -> None:
    code, out = run("2026-11-30", "prazos", "--json", str(TIM_INTERDICAO))
    assert code == 0, out
    d = deadline(json.loads(out), "cassacao_por_interdicao_art16_p3")
    assert (d["inicio"], d["fim"], d["estado"]) == ("2026-10-31", "2027-10-31", "cumprido")
    # without the levantamento: running until 31/10/2027; from 01/11/2027 the registration is to be cancelled
    f = variant(tmp_path, TIM_INTERDICAO, {3: None})
    code, out = run("2027-10-31", "prazos", str(f))
    assert code == 0, out
    assert "12 meses de 31/10/2026 a 31/10/2027 — EM CURSO" in out, out
    code, out = run("2027-11-01", "prazos", "--json", str(f))
    assert code == 0, out
    t = json.loads(out)
    d = deadline(t, "cassacao_por_interdicao_art16_p3")
    assert (d["fim"], d["estado"]) == ("2027-10-31", "perdido")
    cassar = [p for p in t["pendencias"] if p["prazo"] == "cassacao_por_interdicao_art16_p3"]
    assert cassar and cassar[0]["quem"] == "administracao" and cassar[0]["vence"] == "2027-10-31"
    assert "cassar o registro" in cassar[0]["acao"] and cassar[0]["urgencia"] == "vencido"
    code, out = run("2027-11-01", "pendencias", str(f))
    assert code == 0, out
    assert "31/10/2027  SIM-2026/000230  cassar o registro do estabelecimento ou do produto junto ao SIM" in out, out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_cuiaba_termos_de_interdicao_have_no_term(tmp_path: Path, ext: str) -> None:
    code, out = run("2026-11-30", "gerar", str(DOCS / "cui-interdicao.yaml"), "--formato", ext, "-o", str(tmp_path))
    assert code == 0, out
    stem = "cuiaba-mt-ccz-2026-0102"
    text = document_text(tmp_path / f"termo-interdicao-{stem}-ato-02.{ext}")
    assert "Lei nº 3.666/1997, art. 35, inciso III" in text
    assert "Fica INTERDITADO, em interdição PARCIAL, o estabelecimento situado na Avenida Fernando Corrêa" in text
    assert "temporária ou permanente" in text
    assert "PRAZO" not in text and "17 de novembro" not in text  # no limit in the law; the levantamento is later
    text = document_text(tmp_path / f"termo-levantamento-interdicao-{stem}-ato-04.{ext}")
    assert "imposta em 3 de novembro de 2026, termo nº 9/2026, em 17 de novembro de 2026." in text


# --- 3. apprehension and its end ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fv_apreensao(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("apreensao")
    code, text = run("2026-11-30", "gerar", str(DOCS / "fv-ruido-apreensao.yaml"), "-o", str(out))
    assert code == 0, text
    return out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_termo_de_apreensao_art60_pu(fv_apreensao: Path, ext: str) -> None:
    text = document_text(fv_apreensao / f"termo-apreensao-ferraz-de-vasconcelos-sp-pm-fv-2026-005400-ato-02.{ext}")
    assert "TERMO DE APREENSÃO Nº 31/2026" in text and "Lei nº 3.240/2015, art. 60, parágrafo único" in text
    assert "caixa de som amplificada JBL PartyBox 310" in text and "mesa de som de 8 canais" in text
    assert "Depósito Municipal, Rua Bruno Altieri, 100" in text
    assert "devolvidos somente após o julgamento do recurso administrativo" in text and "leiloados" in text
    for later in ("D-14/2026", "13 de novembro", "18 de novembro", "P-80/2026"):
        assert later not in text, later


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_termo_de_devolucao_after_the_appeal_decision(fv_apreensao: Path, ext: str) -> None:
    text = document_text(fv_apreensao / f"termo-restituicao-ferraz-de-vasconcelos-sp-pm-fv-2026-005400-ato-06.{ext}")
    assert "TERMO DE DEVOLUÇÃO DOS BENS APREENDIDOS Nº 32/2026" in text
    assert ("Decisão do recurso nº D-14/2026, de 13 de novembro de 2026: MANTIDO o auto de infração e REDUZIDA a "
            "multa.") in text
    assert ("Ficam RESTITUÍDOS ao proprietário ou responsável os bens acima descritos, apreendidos em 16 de "
            "outubro de 2026, termo nº 31/2026, em 18 de novembro de 2026.") in text
    assert "caixa de som amplificada JBL PartyBox 310" in text
    assert "Lei nº 3.240/2015, art. 60, parágrafo único" in text


def test_ferraz_devolucao_after_the_appeal_is_dismissed_is_refused(tmp_path: Path) -> None:
    # art. 60, p.u.: "no indeferimento do recurso serão leiloados" — the fine kept, no devolução
    f = variant(tmp_path, DOCS / "fv-ruido-apreensao.yaml", {4: {"resultado": "mantida", "valor": None}})
    data = yaml.safe_load(f.read_text(encoding="utf-8"))
    del data["atos"][4]["valor"]
    f.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, out = run("2026-11-30", "validar", str(f))
    assert code == 1, out
    assert "FER-DEV-DEFERIDO" in out and "vale 'mantida'" in out and "leilão" in out
    assert "Lei nº 3.240/2015, art. 60, parágrafo único" in out and str(f) in out
    line = next(n for n, t in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if "mantida" in t)
    assert f"linha {line}, campo 'atos[4].resultado'" in out
    code, out = run("2026-11-30", "gerar", str(f), "--ato", "6", "-o", str(tmp_path / "out"))
    assert code == 1 and not list((tmp_path / "out").glob("termo-restituicao-*")), out


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_timoteo_termo_de_restituicao(tmp_path: Path, ext: str) -> None:
    code, out = run("2026-11-30", "gerar", str(DOCS / "tim-apreensao-restituicao.yaml"), "--formato", ext,
                    "-o", str(tmp_path))
    assert code == 0, out
    stem = "timoteo-mg-sim-2026-000240"
    text = document_text(tmp_path / f"termo-restituicao-{stem}-ato-04.{ext}")
    assert "TERMO DE RESTITUIÇÃO DOS BENS APREENDIDOS Nº 13/2026" in text
    assert ("Ficam RESTITUÍDOS ao proprietário ou responsável os bens acima descritos, apreendidos em 5 de outubro "
            "de 2026, termo nº 12/2026, em 26 de outubro de 2026.") in text
    assert "queijo minas padrão sem rótulo" in text and "fiel depositário" in text
    text = document_text(tmp_path / f"termo-apreensao-{stem}-ato-02.{ext}")
    assert "queijo minas padrão sem rótulo" in text and "26 de outubro" not in text


def test_cuiaba_termo_de_resgate(tmp_path: Path) -> None:
    sample = SAMPLES / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"
    code, out = run("2026-11-30", "gerar", str(sample), "--ato", "4", "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / "termo-restituicao-cuiaba-mt-ccz-2026-0077-ato-04.pdf")
    assert "TERMO DE RESGATE DO ANIMAL" in text and "Lei nº 3.666/1997, art. 11, inciso I" in text
    assert "cavalo castanho, adulto, sem identificação" in text
    assert ("Fica RESTITUÍDO ao proprietário ou responsável o que foi apreendido em 10 de agosto de 2026, termo nº "
            "TA-201/2026, conforme descrito acima, em 12 de agosto de 2026.") in text
    assert "não mais subsistem as causas ensejadoras da apreensão" in text and "art. 9º, § 1º" in text
    # art. 11, § 2º: retrieved "mediante pagamento de multa e taxa": the termo states the payment recorded before it
    # (equine, large size, restituted on the 2nd business day of the term of § 2º: 1 + 2 + 3 + 3,5 = 9,5 UPF ×
    # R$ 107,3327, example 2026, = R$ 1.019,66)
    assert ("Pagamento: Pagamento do resgate (tabela do art. 11, § 3º) nº DAM-5310/2026, de 12 de agosto de 2026: "
            "R$ 1.019,66.") in " ".join(text.split())
    for later in ("PROT-CCZ-45", "DEC-CCZ"):  # the defence and the decisions are later
        assert later not in text, later


# --- the choices are data, shown by `autos regras mostrar` ---------------------------------------------------


@pytest.mark.parametrize(("lei", "words"), [
    ("ferraz-de-vasconcelos-sp/lei-3240-2015", ["no indeferimento do recurso", "reduz a multa"]),
    ("timoteo-mg/lei-3844-2022", ["embargar estabelecimentos", "sem prorrogação para dia útil"]),
    ("cuiaba-mt/lei-3666-1997", ["temporária ou permanente"]),
])
def test_measure_choices_are_shown(lei: str, words: list[str]) -> None:
    code, out = run("2026-11-30", "regras", "mostrar", lei)
    assert code == 0, out
    for w in words:
        assert w in " ".join(out.split()), w
