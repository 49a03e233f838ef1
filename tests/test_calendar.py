"""Municipal business-day calendars (rules/<municipio>/calendario.yaml)."""

from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from autos.errors import RulesError
from autos.rules.calendar import MunicipalCalendar, brazil_module_alone, load_calendar, package_brazil

#: the calendars as shipped: the days not yet checked against the decree say "(exemplo — conferir)"
pytestmark = pytest.mark.usefixtures("shipped_examples")

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
TEST_RULES = Path(__file__).resolve().parent / "data" / "deadlines" / "rules"


@functools.cache
def cal(municipio: str, rules_dir: Path = RULES) -> MunicipalCalendar:
    return load_calendar(rules_dir, municipio)


@pytest.mark.parametrize(
    ("municipio", "nome", "uf", "ibge"),
    [
        ("timoteo-mg", "Timóteo", "MG", "3168705"),
        ("ferraz-de-vasconcelos-sp", "Ferraz de Vasconcelos", "SP", "3515707"),
        ("cuiaba-mt", "Cuiabá", "MT", "5103403"),
    ],
)
def test_identity_and_years(municipio: str, nome: str, uf: str, ibge: str) -> None:
    c = cal(municipio)
    assert (c.municipio, c.uf, c.ibge, c.municipio_dir) == (nome, uf, ibge, municipio)
    assert {2024, 2025, 2026, 2027} <= set(c.anos)
    assert c.half_day_is_business_day is False and "9.784/1999" in c.half_day_justification


@pytest.mark.parametrize(
    ("municipio", "when", "reason"),
    [
        ("ferraz-de-vasconcelos-sp", date(2026, 12, 25), "Natal, feriado nacional"),
        ("ferraz-de-vasconcelos-sp", date(2026, 7, 9), "Revolução Constitucionalista, feriado estadual (SP)"),
        ("ferraz-de-vasconcelos-sp", date(2026, 7, 11), "sábado"),
        ("ferraz-de-vasconcelos-sp", date(2026, 7, 12), "domingo"),
        ("ferraz-de-vasconcelos-sp", date(2027, 12, 25), "Natal, feriado nacional (sábado)"),
        (
            "timoteo-mg",
            date(2026, 4, 21),
            "Tiradentes, feriado nacional; Execução de Tiradentes, feriado estadual (MG)",
        ),
        ("cuiaba-mt", date(2026, 11, 20), "Dia Nacional de Zumbi e da Consciência Negra, feriado nacional"),
        (
            "cuiaba-mt",
            date(2026, 12, 8),
            "Imaculada Conceição, feriado municipal (Lei municipal nº 5.576, de 24 de agosto de 2012)",
        ),
        (
            "cuiaba-mt",
            date(2026, 10, 30),
            "Dia do Servidor Público (transferido de 28/10), ponto facultativo (Decreto nº 11.585/2025)",
        ),
        ("cuiaba-mt", date(2026, 2, 16), "Carnaval, ponto facultativo (Decreto nº 11.585/2025)"),
        ("cuiaba-mt", date(2026, 12, 24), "Véspera de Natal, ponto facultativo (Decreto nº 11.585/2025)"),
    ],
)
def test_reasons(municipio: str, when: date, reason: str) -> None:
    c = cal(municipio)
    assert not c.is_business_day(when)
    assert c.reason(when) == reason


def test_unconfirmed_entries_say_exemplo_conferir() -> None:
    why = cal("ferraz-de-vasconcelos-sp").reason(date(2026, 10, 14))
    assert why is not None
    assert why.startswith("Aniversário do município, feriado municipal (")
    assert why.endswith("(exemplo — conferir)")
    assert all(off.exemplo for off in cal("ferraz-de-vasconcelos-sp").days_off(date(2026, 10, 14)))


def test_half_day_is_not_a_business_day_and_says_why() -> None:
    c = cal("ferraz-de-vasconcelos-sp")
    why = c.reason(date(2026, 2, 18))
    assert why is not None and "Quarta-feira de Cinzas" in why and "meio expediente" in why
    assert "tratado como dia sem expediente" in why


@pytest.mark.parametrize(
    ("municipio", "when", "business"),
    [
        ("cuiaba-mt", date(2025, 12, 24), True),  # Decreto nº 10.775/2024 does not list it
        ("cuiaba-mt", date(2025, 12, 31), True),
        ("cuiaba-mt", date(2026, 12, 24), False),  # Decreto nº 11.585/2025
        ("cuiaba-mt", date(2026, 10, 28), True),  # Dia do Servidor moved to 30/10 in 2026
        ("cuiaba-mt", date(2025, 10, 28), False),
        ("ferraz-de-vasconcelos-sp", date(2026, 12, 24), False),
        ("ferraz-de-vasconcelos-sp", date(2024, 12, 30), False),  # closure by the Prefeitura
        ("ferraz-de-vasconcelos-sp", date(2026, 3, 10), True),
        ("timoteo-mg", date(2026, 4, 29), False),
        ("timoteo-mg", date(2026, 7, 9), True),  # 9 July is a holiday in SP only
    ],
)
def test_business_days(municipio: str, when: date, business: bool) -> None:
    c = cal(municipio)
    assert c.is_business_day(when) is business
    assert (c.reason(when) is None) is business
    assert c.is_business_day(datetime.combine(when, datetime.min.time()).replace(hour=15)) is business


def test_mt_has_no_state_only_holiday_in_the_package_2024_2027() -> None:
    c = cal("cuiaba-mt")
    d = date(2024, 1, 1)
    while d.year <= 2027:
        assert all(off.kind != "estadual" for off in c.days_off(d)), d
        d += timedelta(days=1)


@pytest.mark.parametrize("uf", [None, "MG", "SP", "MT", "RJ"])
@pytest.mark.parametrize("category", ["public", "optional"])
def test_the_brazil_module_loaded_alone_gives_the_days_of_country_holidays(uf: str | None, category: str) -> None:
    """The calendars read the package's Brazil module alone (start-up): the same dates and names, in the same order,
    as ``holidays.country_holidays("BR", ...)``, the package's documented way."""
    import holidays

    years = list(range(2020, 2031))
    alone = brazil_module_alone()
    assert alone is not None and alone is not holidays.country_holidays("BR").__class__
    official = holidays.country_holidays("BR", subdiv=uf, years=years, categories=(category,), language="pt_BR")
    for brazil in (alone, package_brazil()):
        ours = brazil(subdiv=uf, years=years, categories=(category,), language="pt_BR")
        assert list(ours.items()) == list(official.items())
        assert {d: ours.get_list(d) for d in ours} == {d: official.get_list(d) for d in official}
        assert len(ours) >= (40 if category == "optional" else 80)
        with pytest.raises(NotImplementedError):
            brazil(subdiv="XX", years=years)


def test_next_business_day_and_listing() -> None:
    c = cal("ferraz-de-vasconcelos-sp")
    assert c.next_business_day(date(2026, 12, 23)) == date(2026, 12, 28)
    assert [d for d, _ in c.non_business_days(date(2026, 12, 23), date(2026, 12, 28))] == [
        date(2026, 12, 24),
        date(2026, 12, 25),
        date(2026, 12, 26),
        date(2026, 12, 27),
    ]


def test_injected_municipal_holiday_in_a_test_calendar() -> None:
    c = cal("timoteo-mg", TEST_RULES)
    assert c.reason(date(2026, 3, 16)) == (
        "Feriado municipal de teste (injetado), feriado municipal (Lei municipal de teste nº 1/2026)"
    )
    assert cal("timoteo-mg").is_business_day(date(2026, 3, 16))


def test_year_not_covered_is_an_error_naming_the_year() -> None:
    c = cal("timoteo-mg")
    with pytest.raises(RulesError) as info:
        c.is_business_day(date(2029, 3, 5))
    err = info.value
    assert "o calendário de Timóteo (MG) não cobre o ano de 2029" in err.message
    assert err.hint is not None and "acrescente 2029" in err.hint
    assert err.path == "anos" and err.file is not None and err.file.endswith("calendario.yaml")
    assert err.line is not None
    with pytest.raises(RulesError, match="2023"):
        c.reason(date(2023, 12, 31))


# ---- editing a calendar file ------------------------------------------------------------------------


def _copy(tmp_path: Path, municipio: str, old: str | None = None, new: str = "", append: str = "") -> Path:
    text = (RULES / municipio / "calendario.yaml").read_text(encoding="utf-8")
    if old is not None:
        assert old in text, old
        text = text.replace(old, new, 1)
    dst = tmp_path / municipio / "calendario.yaml"
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(text + append, encoding="utf-8")
    return dst


def test_clerk_adds_a_closure_and_a_range(tmp_path: Path) -> None:
    _copy(
        tmp_path,
        "ferraz-de-vasconcelos-sp",
        "sem_expediente:\n",
        "sem_expediente:\n"
        "  - nome: Recesso de fim de ano\n"
        "    de: 21/12/2026\n"
        "    ate: 23/12/2026\n"
        "    ato: Decreto nº 9.999, de 1º de dezembro de 2026\n",
    )
    c = load_calendar(tmp_path, "ferraz-de-vasconcelos-sp")
    for d in (21, 22, 23):
        assert (
            c.reason(date(2026, 12, d))
            == "Recesso de fim de ano, ponto facultativo (Decreto nº 9.999, de 1º de dezembro de 2026)"
        )
    assert c.is_business_day(date(2026, 12, 18))


def test_com_expediente_cancels_an_optional_day(tmp_path: Path) -> None:
    _copy(
        tmp_path,
        "ferraz-de-vasconcelos-sp",
        "com_expediente: []\n",
        "com_expediente:\n  - data: 24/12/2026\n    motivo: expediente normal\n    ato: Decreto nº 9.998/2026\n",
    )
    c = load_calendar(tmp_path, "ferraz-de-vasconcelos-sp")
    assert c.is_business_day(date(2026, 12, 24))
    assert not c.is_business_day(date(2025, 12, 24))


def test_half_day_may_be_counted_as_business_day(tmp_path: Path) -> None:
    _copy(tmp_path, "cuiaba-mt", "  conta_como_dia_util: false", "  conta_como_dia_util: true")
    c = load_calendar(tmp_path, "cuiaba-mt")
    assert c.is_business_day(date(2025, 3, 5))  # Ash Wednesday, ponto facultativo até as 14h
    assert not c.is_business_day(date(2025, 3, 4))


@pytest.mark.parametrize(
    ("old", "new", "append", "words", "needle"),
    [
        pytest.param(
            None,
            "",
            "  - nome: X\n    data: 31/02/2026\n    ato: Decreto nº 1\n",
            "data inválida '31/02/2026'",
            "31/02/2026",
            id="data-invalida",
        ),
        pytest.param(
            None,
            "",
            "  - nome: X\n    data: 24/12/2031\n    ato: Decreto nº 1\n",
            "fora dos anos cobertos",
            "24/12/2031",
            id="ano-fora",
        ),
        pytest.param("uf: SP", "uf: MG", "", "não confere com a pasta", "uf: MG", id="uf-da-pasta"),
        pytest.param('ibge: "3515707"', 'ibge: "35157"', "", "código IBGE inválido", "ibge:", id="ibge"),
        pytest.param(
            "meio_expediente:",
            "meio_expedient:",
            "",
            "campo desconhecido 'meio_expedient'",
            "meio_expedient:",
            id="chave-desconhecida",
        ),
        pytest.param(
            None,
            "",
            "  - nome: X\n    data: 30/12/2024\n    ato: Decreto nº 1\n",
            "já está em 'sem_expediente'",
            "data: 30/12/2024\n    ato: Decreto",
            id="data-repetida",
        ),
        pytest.param(
            None,
            "",
            "  - nome: X\n    data: 22/12/2026\n",
            "falta o campo obrigatório 'ato'",
            "  - nome: X",
            id="falta-ato",
        ),
        pytest.param(
            "com_expediente: []",
            "com_expediente:\n  - data: 25/12/2026\n    motivo: m\n    ato: a",
            "",
            "não é ponto facultativo",
            "data: 25/12/2026",
            id="com-expediente-em-feriado",
        ),
        pytest.param(
            "    anual: 14/10",
            "    movel: Festa da Uva",
            "",
            "não traz 'Festa da Uva'",
            "movel: Festa da Uva",
            id="movel-desconhecido",
        ),
        pytest.param(
            "    anual: 14/10",
            "    anual: 14/10\n    data: 14/10/2026",
            "",
            "exatamente um de",
            "  - nome: Aniversário",
            id="duas-formas-de-data",
        ),
    ],
)
def test_calendar_file_errors(tmp_path: Path, old: str | None, new: str, append: str, words: str, needle: str) -> None:
    if old is None:
        # a new item at the end of the 'sem_expediente' list
        old, new = "\ncom_expediente: []\n", append + "\ncom_expediente: []\n"
    file = _copy(tmp_path, "ferraz-de-vasconcelos-sp", old, new)
    with pytest.raises(RulesError) as info:
        load_calendar(tmp_path, "ferraz-de-vasconcelos-sp")
    err = info.value
    assert words in err.message
    assert err.file == str(file)
    assert err.line == _line_of(file, needle)


def _line_of(file: Path, needle: str) -> int:
    """1-based line where ``needle`` (possibly spanning two lines) starts."""
    text = file.read_text(encoding="utf-8")
    index = text.index(needle)
    return text.count("\n", 0, index) + 1
