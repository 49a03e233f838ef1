"""``autos validar`` and ``autos multa`` on processo files: one report per processo (timeline + each act's
document as of its date), the same exit codes and JSON shape as a case's report; the fine of the processo."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.cli import main

from .conftest import CASOS, DATA, ROOT, SAMPLES

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
DOCS = DATA / "processo" / "documentos"
TIM_EDITAL = DOCS / "tim-edital.yaml"
FV_AR = DOCS / "fv-ruido-ar.yaml"
SIM150 = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.stdout if "--json" in args else result.output  # JSON is stdout; notices go to stderr


def _line(file: Path, text: str) -> int:
    return next(n for n, x in enumerate(file.read_text(encoding="utf-8").splitlines(), 1) if text in x)


def test_validar_processo_reports_the_element_findings_of_the_auto_act() -> None:
    code, out = run("validar", str(TIM_EDITAL))
    assert code == 1, out
    # Timóteo art. 20, § 1º, VI: the auto identifies the official veterinarian (matrícula missing)
    assert "TIM-20-1-VI: ato 1 (Auto de Infração de 12/05/2026)" in out
    assert f"linha {_line(TIM_EDITAL, 'agente:')}, campo 'atos[0].agente.matricula'" in out
    assert "art. 20, § 1º, inciso VI" in out
    # art. 21, § 3º: the edital of 02/06 does not state the newspaper publication of 03/06 — its certificate of
    # publication, dated 03/06, states both; neither is a finding
    assert "TIM-21-3-PUBLICACAO" not in out and "TIM-CP-" not in out
    assert "VALOR-EXEMPLO" not in out  # the official UPFMT of the test municipality (valores-oficiais.yaml)


def test_validar_processo_includes_the_timeline_findings(tmp_path: Path) -> None:
    # the processo rules: an appeal answers a decision (Timóteo: recurso after julgamento)
    text = (DATA / "processo" / "invalidos" / "recurso-sem-julgamento.yaml").read_text(encoding="utf-8")
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    code, out = run("validar", str(file))
    assert code == 1
    # Lei nº 3.844/2022, art. 31, parágrafo único, j (by analogy, Lei 9.784/1999): the appeal follows a decision
    line = next(x for x in out.splitlines() if "[ERRO · vício sanável] FORA-DE-ORDEM" in x)
    assert "recurso nº P-1" in line and "julgamento" in line and f"linha {_line(file, 'tipo: recurso')}" in line
    # and the auto act's document is checked too (Timóteo art. 20, § 1º, II: local of the auto)
    assert "TIM-20-1-II: ato 1 (Auto de Infração de 01/10/2026)" in out


def test_validar_complete_processo_exits_0() -> None:
    code, out = run("validar", str(FV_AR))
    assert code == 0, out
    assert "0 erros" in out


def test_validar_json_has_the_shape_of_a_case_report() -> None:
    code, out = run("validar", "--json", str(TIM_EDITAL), str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml"))
    assert code == 1
    proc, case = json.loads(out)
    assert set(case) <= set(proc)  # same keys, plus the processo's
    assert proc["processo"] == "SIM-2026/000188" and proc["valido"] is False
    assert set(proc["achados"][0]) == set(case["achados"][0]) if case["achados"] else True
    f = next(a for a in proc["achados"] if a["codigo"] == "TIM-20-1-VI")
    assert f["caminho"] == "atos[0].agente.matricula" and f["linha"] == _line(TIM_EDITAL, "agente:")
    assert [(d["ato"], d["documento"], d["data"]) for d in proc["documentos"]] == [
        (1, "auto_de_infracao", "2026-05-12"), (3, "edital_notificacao", "2026-06-02"),
        (3, "certidao_publicacao_edital", "2026-06-03")]  # the certificate is dated the last publication


def test_validar_folder_with_processos_and_cases(tmp_path: Path) -> None:
    shutil.copy(FV_AR, tmp_path / "processo.yaml")
    shutil.copy(CASOS / "timoteo-mg" / "auto-pj-completo.yaml", tmp_path / "caso.yaml")
    code, out = run("validar", str(tmp_path))
    assert code == 0, out
    assert "2 casos verificados; 0 com erro." in out


def test_validar_unreadable_processo_exits_2(tmp_path: Path) -> None:
    file = tmp_path / "p.yaml"
    file.write_text(FV_AR.read_text(encoding="utf-8").replace("    hora: \"23:40\"\n", "    hora: \"25:40\"\n"),
                    encoding="utf-8")
    code, out = run("validar", str(file))
    assert code == 2, out
    assert "25:40" in out


def test_multa_processo_says_which_amount_is_final_and_by_which_act() -> None:
    code, out = run("multa", str(SIM150))
    assert code == 0, out
    # Timóteo art. 16, II and § 5º: 1.500 UPFMT, halved for the small-scale industry = 750 UPFMT × R$ 5,077 (the
    # rules' EXAMPLE value for 2026) = R$ 3.807,75
    assert "R$ 3.807,75" in out
    # the appeal decision fixes the fine in the law's unit: 500 UPFMT × R$ 5,077 = R$ 2.538,50
    assert "reduzida para 500 UPFMT = R$ 2.538,50" in out
    assert ("Valor final: R$ 2.538,50 (dois mil quinhentos e trinta e oito reais e cinquenta centavos) — fixado por "
            "decisão do recurso nº DEC-9/2026 de 20/10/2026 (ato 8).") in out
    assert "Pagamento (ato 10) em 13/11/2026: R$ 2.538,50" in out


def test_multa_processo_without_decision_keeps_the_autos_amount() -> None:
    code, out = run("multa", "--json", str(TIM_EDITAL))
    assert code == 0
    data = json.loads(out)
    # art. 16, II: 2.000 UPFMT × R$ 5,077 = R$ 10.154,00
    assert data["valor_final"] == "10154.000" or data["valor_final"].rstrip("0").rstrip(".") == "10154"
    assert data["valor_final_por"] is None and data["decisoes"] == [] and data["auto"] == 1
    code, out = run("multa", str(TIM_EDITAL))
    assert "Valor em vigor: R$ 10.154,00 (dez mil cento e cinquenta e quatro reais) — o do auto (ato 1)" in out


def test_multa_processo_cancelled(tmp_path: Path) -> None:
    text = SIM150.read_text(encoding="utf-8").replace("    resultado: reduzida\n    valor_base: \"500\"\n",
                                                      "    resultado: cancelada\n")
    text = text.split("  - tipo: notificacao_pessoal\n    data: 2026-10-22")[0]
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    code, out = run("multa", str(file))
    assert code == 0, out
    assert "Valor final: nenhum — multa cancelada por decisão do recurso nº DEC-9/2026 de 20/10/2026 (ato 8)." in out


def test_old_case_files_unchanged() -> None:
    result = CliRunner().invoke(main, [*BASE, "multa", str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml")])
    assert result.exit_code == 0 and result.stdout.startswith("Memória de cálculo")
    assert "arquivo antigo" in result.stderr  # read as before, with the notice
    code, out = run("validar", str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml"))
    assert code == 0, out


def test_auto_with_absent_autuado_states_the_later_notice_by_ar_art21(tmp_path: Path) -> None:
    # Timóteo art. 20, § 1º, VII and art. 21: the autuado absent at the lavratura is given notice later, by AR
    # (or edital); the auto, checked as of its own date, knows the form the processo records for that act
    sample = SAMPLES / "editais" / "sim-2026-000232-ar-desconhecido.yaml"
    code, out = run("validar", str(sample))
    assert code == 0, out
    assert "TIM-20-1-VII: ato 1 (Auto de Infração de 10/09/2026): autuado ausente na lavratura; a ciência será " \
           "por carta com AR (art. 21)" in out
    # without the later notice act, the auto has no notice at all: an error, as for a single-document case
    text = sample.read_text(encoding="utf-8")
    only = tmp_path / "so-o-auto.yaml"
    only.write_text(text[: text.index("  - tipo: notificacao_ar")], encoding="utf-8")
    code, out = run("validar", str(only))
    assert code == 1, out
    assert "autuado ausente na lavratura e sem notificação por AR ou edital registrada" in out


# --- a processo with many acts: the work grows with the number of acts, not with its square --------------------
_CYCLE = (  # after the sample's own acts, each citing what the rite makes it cite (as bench/bench_processo.py --atos)
    '  - {{tipo: notificacao_ar, numero: "AR-{i}/2026", postagem: {d}, recebimento: {d}, juntada: {d}, '
    'referente: "10/2026", local: "Timóteo/MG"}}',
    '  - {{tipo: defesa, numero: "PROT-{i}/2026", data: {d}, referente: "10/2026", agente: {{nome: Cláudia Regina Matos, '
    'cargo: Agente Administrativo — Protocolo do SIM, matricula: "20.602"}}, argumentos: [{{id: "1", texto: "Pede o '
    'cancelamento do auto."}}]}}',
    '  - {{tipo: julgamento, numero: "DEC-{i}/2026", data: {d}, referente: "10/2026", resultado: mantida, '
    'autoridade: "Coordenador do SIM", razoes: [{{argumento: "1", conclusao: rejeitado, fatos: "O fato está provado '
    'no auto.", fundamentos: "Lei nº 3.844/2022, art. 15."}}]}}',
    '  - {{tipo: notificacao_pessoal, data: {d}, referente: "DEC-{j}/2026"}}',
    '  - {{tipo: recurso, numero: "REC-{i}/2026", data: {d}, referente: "DEC-{k}/2026", agente: {{nome: Cláudia Regina '
    'Matos, cargo: Agente Administrativo — Protocolo do SIM, matricula: "20.602"}}, argumentos: [{{id: "1", texto: '
    '"Reitera a defesa."}}]}}',
    '  - {{tipo: pagamento, data: {d}, valor: "1.00"}}',
)


def _many_acts(folder: Path, n: int) -> Path:
    text = SIM150.read_text(encoding="utf-8").rstrip("\n")
    first, span = date(2026, 11, 13), 15  # from the sample's last act to the day before the reference date
    lines = [text, *(_CYCLE[i % 6].format(i=i, d=first + timedelta(days=i * span // n), j=i - 1, k=i - 2)
                     for i in range(n))]
    target = folder / f"processo-{n}.yaml"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _python_calls(fn: Callable[[], object]) -> int:
    """How many Python functions ``fn`` calls (a measure of work that no other process on the machine changes)."""
    count = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def test_checking_a_processo_is_linear_in_its_acts(autos: Autos, tmp_path: Path) -> None:
    """Twice the acts, about twice the work: the timeline and every act's document (what ``validar`` checks, and
    what ``gerar`` checks before rendering). Each act used to look at every other (the act it cites, the
    deadlines, the acts before it), so 2,000 acts took 4.5 s and 10,000 ran past 300 s; the figures are in
    ``bench/bench_processo.py --atos``, this counts calls, not seconds."""
    autos.validate(SIM150)  # every code path once, before counting
    small, large = _many_acts(tmp_path, 120), _many_acts(tmp_path, 240)
    report = autos.validate(large)
    assert report.error is None and not report.errors, report.errors[:3]  # a sound processo: every deadline counted
    for work in (autos.validate, autos.processo_documents):
        ratio = _python_calls(lambda f=large, w=work: w(f)) / _python_calls(lambda f=small, w=work: w(f))
        assert ratio < 2.3, (work.__name__, ratio)  # linear: 1.9; it was 3.1 (validate) from 120 to 240 acts
