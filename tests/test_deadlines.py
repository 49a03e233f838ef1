"""Deadline engine: hand-computed vectors (tests/data/deadlines/*.yaml), bad input, strict rules loading."""

from __future__ import annotations

import functools
import shutil
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from autos.compute.deadlines import (
    Deadline,
    NoticeFacts,
    add_months,
    compute,
    cycle_dates,
    deadlines_after_notice,
    notice_effective,
)
from autos.errors import AutosError, ComputeError, InputError, RulesError
from autos.rules.calendar import MunicipalCalendar, load_calendar
from autos.rules.deadlines import LawDeadlines, load_law_deadlines

#: the vectors are worked out with the values of the shipped rules, examples included (the UFM of each year)
pytestmark = pytest.mark.usefixtures("shipped_examples")

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
DATA = Path(__file__).resolve().parent / "data" / "deadlines"
TEST_RULES = DATA / "rules"
ERRORS = {"InputError": InputError, "RulesError": RulesError, "ComputeError": ComputeError}
LAWS = {
    "ferraz-de-vasconcelos-sp": "lei-3240-2015",
    "timoteo-mg": "lei-3844-2022",
    "cuiaba-mt": "lei-3666-1997",
}


# ---- helpers (independent of the code under test) ---------------------------------------------


def day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def when(text: str) -> date:
    text = str(text)
    return datetime.strptime(text, "%d/%m/%Y %H:%M") if " " in text else day(text)


@functools.cache
def cal(rules_dir: Path, municipio: str) -> MunicipalCalendar:
    return load_calendar(rules_dir, municipio)


@functools.cache
def law(municipio: str, stem: str) -> LawDeadlines:
    return load_law_deadlines(RULES, municipio, stem)


def facts_of(raw: dict[str, Any]) -> NoticeFacts:
    kw: dict[str, Any] = {}
    for key, value in raw.items():
        if key in {"forma", "testemunha", "ar_devolvido"}:
            kw[key] = value
        else:
            kw[key] = day(value)
    return NoticeFacts(**kw)


def _vector_docs() -> list[dict[str, Any]]:
    docs = []
    for f in sorted(DATA.glob("*.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        if "municipio" in doc:
            docs.append(doc)
    return docs


def _params(kind: str) -> list[Any]:
    return [
        pytest.param(doc["municipio"], doc["lei"], v, id=v["id"]) for doc in _vector_docs() for v in doc.get(kind, [])
    ]


DEADLINE_VECTORS = _params("prazos")
NOTICE_VECTORS = _params("notificacoes")
ERROR_VECTORS = [
    pytest.param(v, id=v["id"]) for v in yaml.safe_load((DATA / "erros.yaml").read_text(encoding="utf-8"))["erros"]
]


def _calendar_for(municipio: str, v: dict[str, Any]) -> MunicipalCalendar:
    rules_dir = TEST_RULES if v.get("regras") == "teste" else RULES
    return cal(rules_dir, v.get("calendario", municipio))


def _check_skipped(result: Deadline, v: dict[str, Any], context: str) -> None:
    if "pulados" in v:
        assert [s.date for s in result.dias_pulados] == [day(x) for x in v["pulados"]], context
    if "motivo_contem" in v:
        assert any(v["motivo_contem"] in s.reason for s in result.dias_pulados), context
    lines = result.explicacao()
    for s in result.dias_pulados:
        assert f"{s.date:%d/%m/%Y} — {s.reason}" in lines, context


# ---- the vectors ------------------------------------------------------------------------------


def test_there_are_enough_vectors_and_each_names_its_article() -> None:
    vectors = DEADLINE_VECTORS + NOTICE_VECTORS
    assert len(vectors) >= 35
    for p in vectors + ERROR_VECTORS:
        assert "-art" in p.id, p.id
    for doc in _vector_docs():
        for v in doc.get("prazos", []) + doc.get("notificacoes", []):
            assert v.get("conta"), f"{v['id']}: falta dizer como foi contado"


@pytest.mark.parametrize(("municipio", "lei", "v"), DEADLINE_VECTORS)
def test_deadline_vector(municipio: str, lei: str, v: dict[str, Any]) -> None:
    result = compute(v["prazo"], when(v["inicio"]), law(municipio, lei), _calendar_for(municipio, v))
    context = f"{v['id']}: {v['conta']}\n" + "\n".join(result.explicacao())
    assert result.fim == when(v["esperado"]), context
    assert type(result.fim) is type(when(v["esperado"])), context
    assert result.inicio == when(v["inicio"])
    assert "art." in result.base_legal
    _check_skipped(result, v, context)
    expected = when(v["esperado"])
    shown = expected.strftime("%d/%m/%Y %H:%M" if isinstance(expected, datetime) else "%d/%m/%Y")
    assert any(line.startswith(f"Fim: {shown} (") for line in result.explicacao()), context


@pytest.mark.parametrize(("municipio", "lei", "v"), NOTICE_VECTORS)
def test_notice_vector(municipio: str, lei: str, v: dict[str, Any]) -> None:
    facts = facts_of(v["notificacao"])
    results = deadlines_after_notice(facts, law(municipio, lei), _calendar_for(municipio, v))
    notice = results[0]
    context = f"{v['id']}: {v['conta']}\n" + "\n".join(notice.explicacao())
    assert notice.fim == day(v["esperado"]), context
    assert notice.id == f"notificacao_{facts.forma}"
    _check_skipped(notice, v, context)
    if "explicacao_contem" in v:
        assert any(v["explicacao_contem"] in line for line in notice.explicacao()), context
    got = {d.id: d.fim for d in results[1:]}
    for deadline_id, expected in (v.get("seguintes") or {}).items():
        assert got[deadline_id] == day(expected), f"{v['id']} / {deadline_id}\n" + "\n".join(
            next(d for d in results if d.id == deadline_id).explicacao()
        )
    if v.get("seguintes") == {}:
        assert got == {}


@pytest.mark.parametrize("v", ERROR_VECTORS)
def test_error_vector(v: dict[str, Any]) -> None:
    municipio = v["municipio"]
    the_law = law(municipio, v["lei"])
    the_cal = cal(RULES, v.get("calendario", municipio))
    with pytest.raises(ERRORS[v["erro"]]) as info:
        if "notificacao" in v:
            notice_effective(facts_of(v["notificacao"]), the_law, the_cal)
        else:
            compute(v["prazo"], when(v["inicio"]), the_law, the_cal)
    err = info.value
    assert type(err) is ERRORS[v["erro"]]
    if "caminho" in v:
        assert err.path == v["caminho"]
    for words in v["mensagem_contem"]:
        assert words in str(err), f"{v['id']}: '{words}' não está em: {err}"
    assert err.hint, "toda mensagem de erro diz como corrigir"


# ---- counting details ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2026, 1, 31), 1, date(2026, 2, 28)),  # 31 Jan + 1 month: no 31/02 → last day of February
        (date(2028, 1, 31), 1, date(2028, 2, 29)),  # leap year
        (date(2026, 12, 31), 2, date(2027, 2, 28)),  # across the year
        (date(2026, 3, 31), -1, date(2026, 2, 28)),
        (date(2026, 1, 15), 1, date(2026, 2, 15)),
    ],
)
def test_add_months_date_to_date_last_day_of_month(start: date, months: int, expected: date) -> None:
    assert add_months(start, months) == expected


def test_cycle_dates_every_30_days_art4() -> None:
    # 10/01 + 30 = 09/02; + 30 = 11/03; + 30 = 10/04 (counted by hand); 'until' is inclusive
    assert cycle_dates(date(2026, 1, 10), 30, date(2026, 4, 10)) == [
        date(2026, 2, 9),
        date(2026, 3, 11),
        date(2026, 4, 10),
    ]
    assert cycle_dates(date(2026, 1, 10), 30, date(2026, 2, 8)) == []
    with pytest.raises(ComputeError):
        cycle_dates(date(2026, 1, 10), 0, date(2026, 2, 8))
    ferraz = law("ferraz-de-vasconcelos-sp", "lei-3240-2015")
    assert ferraz.cycle("multa_terreno_art4").a_cada_dias == 30
    assert "art. 4º" in ferraz.cycle("multa_terreno_art4").base_legal
    with pytest.raises(ComputeError, match="não existe"):
        ferraz.cycle("nada")


def test_business_day_explanation_lists_each_skipped_day_with_its_reason() -> None:
    c = cal(RULES, "ferraz-de-vasconcelos-sp")
    # art. 80 from 21/12/2026 (seg): 22(1) 23(2), 24 ponto facultativo, 25 Natal, 26-27, 28(3) 29(4) 30(5),
    # 31 ponto facultativo, 01/01 feriado, 02-03, 04/01/2027(6) ... 08(10)
    r = compute("pagamento_art80", date(2026, 12, 21), law("ferraz-de-vasconcelos-sp", "lei-3240-2015"), c)
    assert r.fim == date(2027, 1, 8)
    lines = r.explicacao()
    assert "25/12/2026 — Natal, feriado nacional" in lines
    assert "26/12/2026 — sábado" in lines
    assert "27/12/2026 — domingo" in lines
    assert any(line.startswith("24/12/2026 — Véspera de Natal, ponto facultativo") for line in lines)
    assert lines[0] == "Prazo para recolher a multa — Lei nº 3.240/2015, art. 80."
    assert "Fim: 08/01/2027 (sexta-feira)." in lines
    assert any("Lei federal nº 9.784/1999, art. 66" in line for line in lines)
    assert any(line.startswith("Escolha adotada:") and "notificação final" in line for line in lines)


def test_moved_end_is_explained() -> None:
    r = compute(
        "recurso_art78",
        date(2026, 6, 29),
        law("ferraz-de-vasconcelos-sp", "lei-3240-2015"),
        cal(RULES, "ferraz-de-vasconcelos-sp"),
    )
    assert r.prorrogado and r.fim_sem_prorrogacao == date(2026, 7, 9)
    lines = r.explicacao()
    assert any("venceria em 09/07/2026" in line for line in lines)
    assert "09/07/2026 — Revolução Constitucionalista, feriado estadual (SP)" in lines
    assert r.prazo_texto() == "10 dias corridos"


def test_48_hours_art72_end_on_sunday_not_moved_and_says_so() -> None:
    r = compute(
        "descarga_materiais_art72",
        datetime(2026, 7, 10, 9, 15),
        law("ferraz-de-vasconcelos-sp", "lei-3240-2015"),
        cal(RULES, "ferraz-de-vasconcelos-sp"),
    )
    assert r.fim == datetime(2026, 7, 12, 9, 15)
    assert not r.prorrogado and r.dias_pulados == []
    text = "\n".join(r.explicacao())
    assert "não é prorrogado" in text and "domingo" in text
    assert "Código Civil, art. 132, § 4º" in text
    assert "Fim: 12/07/2026 09:15 (domingo)." in r.explicacao()


def test_edital_choice_is_in_the_explanation_ferraz_art77_iii() -> None:
    n = notice_effective(
        NoticeFacts("edital", date(2026, 4, 1), edital_publicacao=date(2026, 4, 13)),
        law("ferraz-de-vasconcelos-sp", "lei-3240-2015"),
        cal(RULES, "ferraz-de-vasconcelos-sp"),
    )
    assert n.fim == date(2026, 4, 20)
    assert len(n.escolhas) == 1 and "sábado" in n.escolhas[0]
    text = "\n".join(n.explicacao())
    assert "Escolha adotada:" in text
    assert "desconhecido o domicílio fiscal" in text  # the condition of art. 76, III


def test_timoteo_defence_deadline_is_flagged_as_example_art20() -> None:
    timoteo = law("timoteo-mg", "lei-3844-2022")
    assert timoteo.is_example("defesa_art20_p1_v")
    assert timoteo.examples() == ["defesa_art20_p1_v"]
    # Ferraz: only the terms the law leaves to the notice (arts. 20 to 22 via art. 27; art. 51; art. 59, caput)
    assert law("ferraz-de-vasconcelos-sp", "lei-3240-2015").examples() == [
        "aguas_pluviais_arts20a22", "habite_se_art51", "remocao_veiculo_art59"]
    r = compute("defesa_art20_p1_v", date(2026, 3, 12), timoteo, cal(RULES, "timoteo-mg"))
    assert r.exemplo
    assert any("EXEMPLO" in line for line in r.explicacao())


def test_cuiaba_notice_says_the_law_is_silent() -> None:
    n = notice_effective(
        NoticeFacts("pessoal", date(2026, 5, 5), data_ciencia=date(2026, 5, 6)),
        law("cuiaba-mt", "lei-3666-1997"),
        cal(RULES, "cuiaba-mt"),
    )
    assert n.fim == date(2026, 5, 6)
    assert "Lei federal nº 9.784/1999, art. 26" in n.base_legal
    assert n.explicacao()[1].startswith("A Lei nº 3.666/1997 é omissa quanto à notificação; adotado: por analogia")
    assert n.escolhas and n.escolhas[0].startswith("Lei omissa quanto à notificação")


def test_after_notice_with_explicit_ids_and_refusal_of_other_events() -> None:
    ferraz = law("ferraz-de-vasconcelos-sp", "lei-3240-2015")
    c = cal(RULES, "ferraz-de-vasconcelos-sp")
    facts = NoticeFacts("pessoal", date(2026, 8, 1), data_ciencia=date(2026, 8, 10))
    out = deadlines_after_notice(facts, ferraz, c, ids=["limpeza_terreno_art4"])
    # 10/08 + 30 = 09/09/2026 (qua), counted by hand
    assert [(d.id, d.fim) for d in out] == [
        ("notificacao_pessoal", date(2026, 8, 10)),
        ("limpeza_terreno_art4", date(2026, 9, 9)),
    ]
    with pytest.raises(ComputeError, match="não corre da notificação"):
        deadlines_after_notice(facts, ferraz, c, ids=["decisao_recurso_art79"])


def test_error_location_can_be_given_by_the_caller() -> None:
    with pytest.raises(InputError) as info:
        notice_effective(
            NoticeFacts("ar", date(2026, 3, 2)),
            law("ferraz-de-vasconcelos-sp", "lei-3240-2015"),
            cal(RULES, "ferraz-de-vasconcelos-sp"),
            file="casos/auto-17.yaml",
            paths={"ar_recebimento": "notificacao.aviso.data"},
            lines={"ar_recebimento": 42},
        )
    err = info.value
    assert (err.file, err.path, err.line) == ("casos/auto-17.yaml", "notificacao.aviso.data", 42)
    assert str(err).startswith("casos/auto-17.yaml, linha 42, campo 'notificacao.aviso.data': AR sem data")


def test_timoteo_juntada_on_a_day_without_office_hours_is_flagged() -> None:
    n = notice_effective(
        NoticeFacts("ar", date(2026, 3, 2), ar_recebimento=date(2026, 3, 5), ar_juntada=date(2026, 3, 7)),
        law("timoteo-mg", "lei-3844-2022"),
        cal(RULES, "timoteo-mg"),
    )
    assert n.fim == date(2026, 3, 7)
    assert any("juntada foi registrada em dia sem expediente" in a for a in n.avisos)


# ---- strict loading of the prazos files -----------------------------------------------------------


def _law_copy(tmp_path: Path, municipio: str, edit: tuple[str, str] | None = None, append: str = "") -> Path:
    stem = LAWS[municipio]
    src = RULES / municipio / f"{stem}.prazos.yaml"
    dst = tmp_path / municipio / f"{stem}.prazos.yaml"
    dst.parent.mkdir(parents=True, exist_ok=True)
    text = src.read_text(encoding="utf-8")
    if edit is not None:
        assert edit[0] in text, edit[0]
        text = text.replace(edit[0], edit[1], 1)
    dst.write_text(text + append, encoding="utf-8")
    shutil.copy(RULES / municipio / "calendario.yaml", tmp_path / municipio / "calendario.yaml")
    return dst


def _line_of(file: Path, needle: str) -> int:
    """1-based line where ``needle`` (possibly spanning lines) starts."""
    text = file.read_text(encoding="utf-8")
    return text.count("\n", 0, text.index(needle)) + 1


@pytest.mark.parametrize("municipio", list(LAWS))
def test_shipped_prazos_files_load(municipio: str) -> None:
    the_law = load_law_deadlines(RULES, municipio, LAWS[municipio])
    assert the_law.ibge == cal(RULES, municipio).ibge
    for rule in the_law.prazos.values():
        assert rule.base_legal.startswith(the_law.citacao), rule.id
        assert "art" in rule.id


@pytest.mark.parametrize(
    ("municipio", "edit", "needle", "words"),
    [
        pytest.param(
            "ferraz-de-vasconcelos-sp",
            (
                "    quantidade: 10\n    conta_de: notificacao\n    texto_legal",
                "    quantidad: 10\n    conta_de: notificacao\n    texto_legal",
            ),
            "quantidad: 10",
            ["campo desconhecido 'quantidad'. Seria 'quantidade'?"],
            id="chave-desconhecida",
        ),
        pytest.param(
            "ferraz-de-vasconcelos-sp",
            (
                "    tipo: dias_corridos\n    quantidade: 10\n    conta_de: notificacao\n    texto_legal",
                "    tipo: dias_corridos\n    quantidade: 10\n    quantidade: 11\n    conta_de: notificacao\n"
                "    texto_legal",
            ),
            "quantidade: 11",
            ["chave duplicada 'quantidade'"],
            id="chave-duplicada",
        ),
        pytest.param(
            "timoteo-mg",
            ("    tipo: dias_corridos\n    quantidade: 15", "    tipo: dias_corrido\n    quantidade: 15"),
            "tipo: dias_corrido\n",
            ["valor inválido 'dias_corrido'", "ou 'dia_seguinte'"],
            id="tipo-invalido",
        ),
        pytest.param(
            "cuiaba-mt",
            ("    tipo: dias_uteis\n    quantidade: 3", "    tipo: dias_uteis\n    quantidade: três"),
            "quantidade: três",
            ["'três' não é um número inteiro"],
            id="quantidade-nao-numerica",
        ),
        pytest.param(
            "cuiaba-mt",
            ("    conta_de: recolhimento_do_animal\n    escolha", "    conta_de: apreensao\n    escolha"),
            "conta_de: apreensao",
            ["evento 'apreensao' não está em 'eventos'"],
            id="evento-inexistente",
        ),
        pytest.param(
            "ferraz-de-vasconcelos-sp",
            (
                "apos_notificacao: [recurso_art78, pagamento_art80]",
                "apos_notificacao: [recurso_art78, decisao_recurso_art79]",
            ),
            "apos_notificacao:",
            ["'decisao_recurso_art79' não corre da notificação"],
            id="apos-notificacao-de-outro-evento",
        ),
        pytest.param(
            "ferraz-de-vasconcelos-sp",
            (
                "    prorroga_fim_sem_expediente: false\n    escolha: >-\n      As 48 horas",
                "    prorroga_fim_sem_expediente: false\n    escolha_: >-\n      As 48 horas",
            ),
            "escolha_:",
            ["campo desconhecido 'escolha_'"],
            id="escolha-mal-escrita",
        ),
    ],
)
def test_prazos_file_errors_name_file_key_and_line(
    tmp_path: Path, municipio: str, edit: tuple[str, str], needle: str, words: list[str]
) -> None:
    file = _law_copy(tmp_path, municipio, edit)
    with pytest.raises(RulesError) as info:
        load_law_deadlines(tmp_path, municipio, LAWS[municipio])
    err = info.value
    assert err.file == str(file)
    for w in words:
        assert w in err.message
    if needle != "apos_notificacao:":
        assert err.line == _line_of(file, needle)
    else:
        assert err.line is not None


def test_choice_without_justification_is_refused(tmp_path: Path) -> None:
    file = _law_copy(
        tmp_path,
        "cuiaba-mt",
        (
            "      escolha: A notificação por edital considera-se feita na própria data da publicação oficial.\n"
            "      justificativa: >-\n"
            "        A Lei nº 3.666/1997 não prevê prazo de edital, e a Lei federal nº 9.784/1999 (art. 26, § 4º) "
            "também\n"
            "        não; acrescentar um prazo seria criar regra que nenhuma das duas leis traz.\n",
            "      escolha: A notificação por edital considera-se feita na própria data da publicação oficial.\n",
        ),
    )
    with pytest.raises(RulesError) as info:
        load_law_deadlines(tmp_path, "cuiaba-mt", "lei-3666-1997")
    assert "falta 'justificativa'" in info.value.message
    assert info.value.line == _line_of(file, "    edital:")


def test_override_of_the_default_without_a_choice_is_refused(tmp_path: Path) -> None:
    _law_copy(
        tmp_path,
        "ferraz-de-vasconcelos-sp",
        (
            "    quantidade: 60\n    conta_de: notificacao\n",
            "    quantidade: 60\n    conta_de: notificacao\n    prorroga_fim_sem_expediente: false\n",
        ),
    )
    with pytest.raises(RulesError, match="explique com 'escolha' e 'justificativa'"):
        load_law_deadlines(tmp_path, "ferraz-de-vasconcelos-sp", "lei-3240-2015")


def test_missing_prazos_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="arquivo não encontrado"):
        load_law_deadlines(tmp_path, "timoteo-mg", "lei-3844-2022")


def test_errors_are_autos_errors_with_portuguese_render() -> None:
    with pytest.raises(AutosError) as info:
        compute("defesa_art20_p1_v", date(2027, 12, 16), law("timoteo-mg", "lei-3844-2022"), cal(RULES, "timoteo-mg"))
    rendered = str(info.value)
    assert "calendario.yaml" in rendered and "campo 'anos'" in rendered and "Como corrigir:" in rendered
