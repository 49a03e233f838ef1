"""The bridge from a processo act to the document machinery: the act's case as of its date, paths and lines
in the processo file (src/autos/checks/acts.py)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from autos.app.generation.pipeline import Autos
from autos.checks.acts import ActDocument, act_document, document_acts
from autos.processo.load import LoadedProcesso, load_processo, parse_processo
from autos.processo.load_case import parse_case
from autos.rules.procedure import load_procedure

from .conftest import DATA, ROOT, SAMPLES

DOCS = DATA / "processo" / "documentos"
FERRAZ_AR = DOCS / "fv-ruido-ar.yaml"
TIMOTEO_EDITAL = DOCS / "tim-edital.yaml"


def _line(file: Path, text: str, after: str | None = None) -> int:
    """1-based line of the first line containing ``text`` (after the first containing ``after``)."""
    lines = file.read_text(encoding="utf-8").splitlines()
    start = next(i for i, x in enumerate(lines) if after in x) if after else 0
    return next(i for i, x in enumerate(lines) if i >= start and text in x) + 1


def _doc(autos: Autos, loaded: LoadedProcesso, i: int) -> ActDocument:
    lei = loaded.processo.lei
    doc = act_document(loaded, i, load_procedure(ROOT / "rules", lei), autos.rules.get(lei))
    assert doc is not None
    return doc


def test_acts_with_a_document_kind(autos: Autos) -> None:
    loaded = load_processo(FERRAZ_AR)
    lei = loaded.processo.lei
    assert document_acts(loaded, load_procedure(ROOT / "rules", lei), autos.rules.get(lei)) == [
        (0, "auto_de_infracao"), (1, "notificacao_ar")]
    # the personal notice of the auto has no document of its own (the auto states it); the defence and the
    # appeal their protocol; the despacho that forwards the appeal its own (Lei 9.784/1999, art. 56, § 1º); the judgement and the decision on appeal their decision and, keeping or reducing
    # the fine, a debit statement; the notices of the decisions (by AR, in person) the notice of the decision;
    # the payment none
    sample = load_processo(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    lei = sample.processo.lei
    assert document_acts(sample, load_procedure(ROOT / "rules", lei), autos.rules.get(lei)) == [
        (0, "auto_de_infracao"), (2, "protocolo"), (3, "decisao"), (3, "demonstrativo_debito"),
        (4, "notificacao_decisao"), (5, "protocolo"), (6, "despacho_encaminhamento"), (7, "decisao"),
        (7, "demonstrativo_debito"), (8, "notificacao_decisao")]


def test_ar_letter_as_of_its_posting_does_not_know_the_receipt(autos: Autos) -> None:
    # Ferraz art. 77, II: notified on the date of receipt (22/10); the letter is of 19/10
    doc = _doc(autos, load_processo(FERRAZ_AR), 1)
    case = doc.loaded.case
    assert doc.as_of == date(2026, 10, 19)
    assert case.lavratura.data == date(2026, 10, 19)
    assert case.notificacao is None  # AR not back by the letter's date: no notice in effect
    assert case.auto is not None and case.auto.numero == "260/2026" and case.auto.data == date(2026, 10, 16)
    cd = autos.deadlines(doc.loaded)
    assert cd.notice is None and cd.following == []  # the terms go without dates


def test_ar_act_dated_after_the_receipt_states_it(autos: Autos) -> None:
    # an AR act whose own date is after the receipt knows it; the letter's date must still precede the
    # posting (art. 77, II: carta, postagem, recebimento in this order), which the validator reports
    text = FERRAZ_AR.read_text(encoding="utf-8").replace(
        "    postagem: 2026-10-19\n", "    data: 2026-10-23\n    postagem: 2026-10-19\n")
    doc = _doc(autos, parse_processo(text, FERRAZ_AR), 1)
    case = doc.loaded.case
    assert case.notificacao is not None and case.notificacao.ar is not None
    assert case.notificacao.ar.data_recebimento == date(2026, 10, 22)
    cd = autos.deadlines(doc.loaded)
    assert cd.notice is not None and cd.notice.fim == date(2026, 10, 22)  # art. 77, II
    recurso = next(d for d in cd.following if "78" in d.base_legal)
    # art. 78: 10 days from 22/10 → 01/11 (Sunday); 02/11 Finados → 03/11/2026
    assert recurso.fim == date(2026, 11, 3)
    assert "FER-76-II-DATAS" in {f.codigo for f in autos.check(doc.loaded).errors}


def test_auto_as_of_its_date_knows_no_later_notice(autos: Autos) -> None:
    doc = _doc(autos, load_processo(FERRAZ_AR), 0)
    assert doc.loaded.case.notificacao is None
    assert doc.loaded.case.lavratura.hora is not None


def test_edital_states_only_publications_up_to_its_date(autos: Autos) -> None:
    doc = _doc(autos, load_processo(TIMOTEO_EDITAL), 2)
    assert doc.as_of == date(2026, 6, 2)  # the act's date: its first publication
    ato = doc.loaded.case.ato
    assert ato is not None and ato.forma == "edital"
    assert [(x.data, x.meio) for x in ato.publicacoes] == [(date(2026, 6, 2), "oficial")]  # 03/06 is later
    # Timóteo art. 21, § 3º: the notice takes effect ten days after the edital is published in the official
    # press AND in a local newspaper; on 02/06 the newspaper's of 03/06 is still to come, so no notice is in
    # effect yet (as with an AR not yet back) — the certificate of publication, dated 03/06, states it
    assert doc.loaded.case.notificacao is None
    report = autos.check(doc.loaded)
    # the only error is the fixture's agent without matrícula (art. 20, § 1º, VI, on purpose)
    assert {x.codigo for x in report.errors} == {"TIM-21-III-EXPEDICAO"}
    assert not {"TIM-21-3-PUBLICACAO", "TIM-21-III-DATAS-JORNAL"} & {x.codigo for x in report.findings}


def test_one_document_edital_still_needs_both_publications(autos: Autos) -> None:
    # a case file of one document (no processo) has no certificate of publication: art. 21, § 3º applies to it
    case = DATA / "casos" / "timoteo-mg" / "edital-pj-local-incerto.yaml"
    text = case.read_text(encoding="utf-8")
    without = "\n".join(x for x in text.split("\n") if "data_publicacao_jornal" not in x)
    assert without != text
    assert "TIM-21-3-PUBLICACAO" in {x.codigo for x in autos.check(parse_case(without, case)).errors}


def test_edital_dated_after_both_publications_states_both(autos: Autos) -> None:
    text = TIMOTEO_EDITAL.read_text(encoding="utf-8").replace(
        '    numero: "4/2026"\n', '    numero: "4/2026"\n    data: 2026-06-03\n')
    doc = _doc(autos, parse_processo(text, TIMOTEO_EDITAL), 2)
    ed = doc.loaded.case.notificacao
    assert ed is not None and ed.edital is not None
    assert ed.edital.data_publicacao_jornal == date(2026, 6, 3)
    assert not [x for x in autos.check(doc.loaded).findings if x.codigo == "TIM-21-3-PUBLICACAO"]


def test_findings_of_the_auto_point_into_the_processo_file(autos: Autos) -> None:
    # Timóteo art. 20, § 1º, VI: the auto names the agent with matrícula; the auto act has none
    doc = _doc(autos, load_processo(TIMOTEO_EDITAL), 0)
    report = autos.check(doc.loaded)
    f = next(doc.finding(x) for x in report.findings if x.codigo == "TIM-20-1-VI")
    assert f.severidade == "erro"
    assert f.citacao == "Lei nº 3.844/2022, art. 20, § 1º, inciso VI"
    assert f.caminho == "atos[0].agente.matricula"
    assert f.linha == _line(TIMOTEO_EDITAL, "agente:")  # the nearest line the file has
    assert f.arquivo == str(TIMOTEO_EDITAL)


def test_paths_of_a_termo_point_at_the_apprehension_act(autos: Autos) -> None:
    # Timóteo art. 16, § 4º: the termo names the fiel depositário and where the goods stay
    sample = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
    text = sample.read_text(encoding="utf-8")  # the sample is complete: take the place of deposit away
    without = "\n".join(line for line in text.split("\n") if not line.startswith("    local_deposito:"))
    assert without != text
    doc = _doc(autos, parse_processo(without, sample), 1)
    assert doc.kind == "termo_apreensao"
    report = autos.check(doc.loaded)
    f = next(doc.finding(x) for x in report.findings if x.codigo == "TIM-16-4-DEPOSITARIO")
    assert f.caminho == "atos[1].local_deposito"
    assert f.linha == text.split("\n").index("  - tipo: apreensao") + 1  # the act, not the auto's penalty


@pytest.mark.parametrize("path, expected", [
    ("agente.matricula", "atos[0].agente.matricula"),
    ("autuado.endereco", "autuado.endereco"),
    ("infracoes[0].regra", "infracoes[0].regra"),
    ("lavratura.local", "atos[0].local"),
    ("penalidades[0].valor_base", "atos[0].penalidades[0].valor_base"),
    ("exigencia.descricao", "atos[0]"),
])
def test_translate(autos: Autos, path: str, expected: str) -> None:
    assert _doc(autos, load_processo(FERRAZ_AR), 0).translate_text(path) == expected
