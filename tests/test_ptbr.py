"""Tests for autos.base.ptbr: every expected string is written out by hand."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal

import pytest
from num2words import num2words

from autos.base.ptbr import (
    count_noun,
    date_words,
    date_words_opening,
    format_brl,
    format_date,
    format_date_short,
    format_decimal,
    format_time,
    in_place,
    int_to_words,
    money_full,
    money_words,
    number_words,
    round_money,
    time_words,
    units_full,
    units_words,
    unnest_parentheses,
)

D = Decimal

# ---------------------------------------------------------------------------
# int_to_words: (n, feminine, expected)
# ---------------------------------------------------------------------------

INT_CASES: list[tuple[int, bool, str]] = [
    (0, False, "zero"),
    (0, True, "zero"),
    (1, False, "um"),
    (1, True, "uma"),
    (2, False, "dois"),
    (2, True, "duas"),
    (3, True, "três"),
    (10, False, "dez"),
    (11, False, "onze"),
    (12, True, "doze"),
    (14, False, "quatorze"),
    (16, False, "dezesseis"),
    (17, False, "dezessete"),
    (19, False, "dezenove"),
    (20, False, "vinte"),
    (21, False, "vinte e um"),
    (21, True, "vinte e uma"),
    (22, True, "vinte e duas"),
    (55, False, "cinquenta e cinco"),
    (100, False, "cem"),
    (100, True, "cem"),
    (101, False, "cento e um"),
    (101, True, "cento e uma"),
    (110, False, "cento e dez"),
    (199, False, "cento e noventa e nove"),
    (200, False, "duzentos"),
    (200, True, "duzentas"),
    (201, False, "duzentos e um"),
    (201, True, "duzentas e uma"),
    (300, True, "trezentas"),
    (400, True, "quatrocentas"),
    (500, False, "quinhentos"),
    (500, True, "quinhentas"),
    (600, True, "seiscentas"),
    (700, True, "setecentas"),
    (800, True, "oitocentas"),
    (900, True, "novecentas"),
    (999, False, "novecentos e noventa e nove"),
    (1000, False, "mil"),
    (1000, True, "mil"),
    (1001, False, "mil e um"),
    (1001, True, "mil e uma"),
    (1010, False, "mil e dez"),
    (1099, False, "mil e noventa e nove"),
    (1100, False, "mil e cem"),
    (1101, False, "mil cento e um"),
    (1200, False, "mil e duzentos"),
    (1234, False, "mil duzentos e trinta e quatro"),
    (1500, False, "mil e quinhentos"),
    (1500, True, "mil e quinhentas"),
    (1997, False, "mil novecentos e noventa e sete"),
    (2000, False, "dois mil"),
    (2000, True, "duas mil"),
    (2022, False, "dois mil e vinte e dois"),
    (2100, False, "dois mil e cem"),
    (2500, False, "dois mil e quinhentos"),
    (10000, False, "dez mil"),
    (21000, True, "vinte e uma mil"),
    (30000, True, "trinta mil"),
    (100000, False, "cem mil"),
    (101000, False, "cento e um mil"),
    (200000, True, "duzentas mil"),
    (201000, True, "duzentas e uma mil"),
    (1000000, False, "um milhão"),
    (1000000, True, "um milhão"),
    (1000001, False, "um milhão e um"),
    (1000100, False, "um milhão e cem"),
    (1001000, False, "um milhão e mil"),
    (1120000, False, "um milhão cento e vinte mil"),
    (1200000, False, "um milhão e duzentos mil"),
    (1200000, True, "um milhão e duzentas mil"),
    (1200300, False, "um milhão duzentos mil e trezentos"),
    (1001002, False, "um milhão mil e dois"),
    (1020300, False, "um milhão vinte mil e trezentos"),
    (2035400, False, "dois milhões trinta e cinco mil e quatrocentos"),
    (1234567, False, "um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete"),
    (2000000, True, "dois milhões"),
    (2000101, False, "dois milhões cento e um"),
    (2500000, False, "dois milhões e quinhentos mil"),
    (200000000, True, "duzentos milhões"),
    (
        999999999,
        False,
        "novecentos e noventa e nove milhões novecentos e noventa e nove mil novecentos e noventa e nove",
    ),
    (1000000000, False, "um bilhão"),
    (1200000000, False, "um bilhão e duzentos milhões"),
    (2000000001, False, "dois bilhões e um"),
    (
        999999999999,
        False,
        "novecentos e noventa e nove bilhões novecentos e noventa e nove milhões "
        "novecentos e noventa e nove mil novecentos e noventa e nove",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("n", "feminine", "expected"), INT_CASES)
def test_int_to_words(n: int, feminine: bool, expected: str) -> None:
    assert int_to_words(n, feminine=feminine) == expected


@pytest.mark.parametrize("bad", [1.0, True, False, D(5), "5", None])
def test_int_to_words_rejects_non_int(bad: object) -> None:
    with pytest.raises(TypeError):
        int_to_words(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1_000_000_000_000])
def test_int_to_words_range(bad: int) -> None:
    with pytest.raises(ValueError):
        int_to_words(bad)


SAMPLE = [
    *range(0, 2101),
    *range(9_990, 10_010),
    *range(99_990, 101_010, 7),
    *range(999_000, 1_002_000, 13),
    1_234_567, 2_000_000, 2_000_100, 10_000_001, 100_100_100, 999_999_999, 1_000_000_000,
    123_456_789_012, 999_999_999_999,
]  # fmt: skip


@pytest.mark.parametrize("feminine", [False, True])
def test_words_have_no_comma_or_double_space(feminine: bool) -> None:
    for n in SAMPLE:
        words = int_to_words(n, feminine=feminine)
        assert "," not in words, n
        assert "  " not in words, n
        assert words == words.strip(), n
        # "mil", never "um mil" (but "vinte e um mil" is right)
        assert not re.search(r"(^|(milhão|milhões|bilhão|bilhões) )umas? mil\b", words), n
        assert " e e " not in words, n


def _nonzero_groups(n: int) -> int:
    count = 0
    while n:
        n, group = divmod(n, 1000)
        count += group != 0
    return count


def test_masculine_agrees_with_num2words_without_commas() -> None:
    """Differential check against num2words, after removing its commas and
    spelling "catorze" as "quatorze" (our documented choice).

    Only numbers with at most two non-zero groups are compared: with three or
    more, num2words also puts "e" before an inner group below 100 ("um milhão
    e vinte mil e trezentos"), while we put "e" only before the last group
    ("um milhão vinte mil e trezentos"); those cases are hand-written in
    INT_CASES.
    """
    compared = 0
    for n in SAMPLE:
        if _nonzero_groups(n) > 2:
            continue
        compared += 1
        expected = num2words(n, lang="pt_BR").replace(",", "").replace("catorze", "quatorze")
        assert int_to_words(n) == expected, n
    assert compared > 2000


# ---------------------------------------------------------------------------
# Money
# ---------------------------------------------------------------------------

MONEY_CASES: list[tuple[Decimal | int, str, str]] = [
    (D("0"), "R$ 0,00", "zero real"),
    (D("0.01"), "R$ 0,01", "um centavo"),
    (D("0.02"), "R$ 0,02", "dois centavos"),
    (D("0.50"), "R$ 0,50", "cinquenta centavos"),
    (D("0.5"), "R$ 0,50", "cinquenta centavos"),
    (D("1.00"), "R$ 1,00", "um real"),
    (D("1.01"), "R$ 1,01", "um real e um centavo"),
    (D("1.500"), "R$ 1,50", "um real e cinquenta centavos"),
    (D("2.00"), "R$ 2,00", "dois reais"),
    (D("14.14"), "R$ 14,14", "quatorze reais e quatorze centavos"),
    (D("100.00"), "R$ 100,00", "cem reais"),
    (D("101.99"), "R$ 101,99", "cento e um reais e noventa e nove centavos"),
    (D("1000.00"), "R$ 1.000,00", "mil reais"),
    (D("1000.01"), "R$ 1.000,01", "mil reais e um centavo"),
    (D("1234.56"), "R$ 1.234,56", "mil duzentos e trinta e quatro reais e cinquenta e seis centavos"),
    (D("2500.00"), "R$ 2.500,00", "dois mil e quinhentos reais"),
    (D("1000000.00"), "R$ 1.000.000,00", "um milhão de reais"),
    (D("1000000.10"), "R$ 1.000.000,10", "um milhão de reais e dez centavos"),
    (D("1000001.00"), "R$ 1.000.001,00", "um milhão e um reais"),
    (D("1500000.00"), "R$ 1.500.000,00", "um milhão e quinhentos mil reais"),
    (D("2000000.00"), "R$ 2.000.000,00", "dois milhões de reais"),
    (D("2000000.01"), "R$ 2.000.000,01", "dois milhões de reais e um centavo"),
    (
        D("999999999.99"),
        "R$ 999.999.999,99",
        "novecentos e noventa e nove milhões novecentos e noventa e nove mil "
        "novecentos e noventa e nove reais e noventa e nove centavos",
    ),
    (D("-0.00"), "R$ 0,00", "zero real"),
    (D("1E+3"), "R$ 1.000,00", "mil reais"),
    (7, "R$ 7,00", "sete reais"),
    (1, "R$ 1,00", "um real"),
]


@pytest.mark.parametrize(("value", "brl", "words"), MONEY_CASES)
def test_money(value: Decimal | int, brl: str, words: str) -> None:
    assert format_brl(value) == brl
    assert money_words(value) == words
    assert money_full(value) == f"{brl} ({words})"


def test_money_full_literal() -> None:
    assert (
        money_full(D("1234.56"))
        == "R$ 1.234,56 (mil duzentos e trinta e quatro reais e cinquenta e seis centavos)"
    )


MONEY_FUNCS = [money_words, format_brl, money_full]


@pytest.mark.parametrize("func", MONEY_FUNCS)
@pytest.mark.parametrize("bad", [1.5, 0.1 + 0.2, 1.0, True, False, "1.00", None])
def test_money_rejects_float_bool_str(func: object, bad: object) -> None:
    assert callable(func)
    with pytest.raises(TypeError):
        func(bad)


@pytest.mark.parametrize("func", MONEY_FUNCS)
@pytest.mark.parametrize(
    "bad",
    [
        D("1.005"),
        D("0.001"),
        D("-1"),
        D("-0.01"),
        D("NaN"),
        D("Infinity"),
        D("1.0000000000000000000000000000001"),
    ],
)
def test_money_value_errors(func: object, bad: Decimal) -> None:
    assert callable(func)
    with pytest.raises(ValueError):
        func(bad)


@pytest.mark.parametrize("bad", [D("1000000000.00"), D("999999999.991")])
def test_money_words_upper_limit(bad: Decimal) -> None:
    with pytest.raises(ValueError):
        money_words(bad)


def test_format_brl_has_no_upper_limit() -> None:
    assert format_brl(D("1234567890123.45")) == "R$ 1.234.567.890.123,45"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (D("1.005"), D("1.01")),
        (D("1.004"), D("1.00")),
        (D("0.015"), D("0.02")),
        (D("0.025"), D("0.03")),  # half-up, not banker's rounding
        (D("-1.005"), D("-1.01")),
        (D("2"), D("2.00")),
        (3, D("3.00")),
        (D("123456789012345678901234567890.125"), D("123456789012345678901234567890.13")),
    ],
)
def test_round_money(value: Decimal | int, expected: Decimal) -> None:
    result = round_money(value)
    assert result == expected
    assert result.as_tuple().exponent == -2


@pytest.mark.parametrize("bad", [1.005, True])
def test_round_money_rejects_float(bad: object) -> None:
    with pytest.raises(TypeError):
        round_money(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# format_decimal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "places", "expected"),
    [
        (D("1234.5"), None, "1.234,5"),
        (D("1234.50"), None, "1.234,5"),
        (D("1234.5"), 2, "1.234,50"),
        (D("0.75"), None, "0,75"),
        (D("0.123456789"), None, "0,123456789"),
        (D("1000000"), None, "1.000.000"),
        (D("1E+6"), None, "1.000.000"),
        (D("999"), None, "999"),
        (D("12.000"), None, "12"),
        (D("12"), 0, "12"),
        (D("-1234.5"), 2, "-1.234,50"),
        (D("-0.0"), None, "0"),
        (1500, None, "1.500"),
        (1500, 1, "1.500,0"),
    ],
)
def test_format_decimal(value: Decimal | int, places: int | None, expected: str) -> None:
    assert format_decimal(value, places) == expected


def test_format_decimal_no_silent_rounding() -> None:
    with pytest.raises(ValueError):
        format_decimal(D("1.234"), 2)
    with pytest.raises(ValueError):
        format_decimal(D("1"), -1)
    with pytest.raises(TypeError):
        format_decimal(1.5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Quantities of (feminine) fiscal units
# ---------------------------------------------------------------------------

UPF_S = "Unidade Padrão Fiscal"
UPF_P = "Unidades Padrão Fiscais"


@pytest.mark.parametrize(
    ("value", "feminine", "expected"),
    [
        (D(1), True, "uma Unidade Padrão Fiscal"),
        (D(2), True, "duas Unidades Padrão Fiscais"),
        (D(200), True, "duzentas Unidades Padrão Fiscais"),
        (D(201), True, "duzentas e uma Unidades Padrão Fiscais"),
        (D(1500), True, "mil e quinhentas Unidades Padrão Fiscais"),
        (D(2000), True, "duas mil Unidades Padrão Fiscais"),
        (D(1_000_000), True, "um milhão de Unidades Padrão Fiscais"),
        (D(2_000_000), True, "dois milhões de Unidades Padrão Fiscais"),
        (D(1_000_001), True, "um milhão e uma Unidades Padrão Fiscais"),
        (D("1.5"), True, "um inteiro e cinco décimos de Unidade Padrão Fiscal"),
        (D("0.75"), True, "setenta e cinco centésimos de Unidade Padrão Fiscal"),
        (D("2.50"), True, "dois inteiros e cinco décimos de Unidades Padrão Fiscais"),
        (D(0), True, "zero Unidade Padrão Fiscal"),
        (D(201), False, "duzentos e um Unidades Padrão Fiscais"),
        (7, True, "sete Unidades Padrão Fiscais"),
    ],
)
def test_units_words(value: Decimal | int, feminine: bool, expected: str) -> None:
    assert units_words(value, UPF_S, UPF_P, feminine=feminine) == expected


@pytest.mark.parametrize(
    ("value", "abbrev", "feminine", "expected"),
    [
        (D(200), "UFM", True, "200 (duzentas) UFM"),
        (D(1500), "UPFMT", True, "1.500 (mil e quinhentas) UPFMT"),
        (D("0.75"), "UPF", True, "0,75 (setenta e cinco centésimos) UPF"),
        (D("1.5"), "UPF", True, "1,5 (um inteiro e cinco décimos) UPF"),
        (D("9.5"), "UPF", True, "9,5 (nove inteiros e cinco décimos) UPF"),
        (D("2.05"), "UPF", True, "2,05 (dois inteiros e cinco centésimos) UPF"),
        (D("10.10"), "UFIR", False, "10,1 (dez inteiros e um décimo) UFIR"),
        (D(1_000_000), "UFM", True, "1.000.000 (um milhão) UFM"),
        (D(1), "URM", True, "1 (uma) URM"),
    ],
)
def test_units_full(value: Decimal, abbrev: str, feminine: bool, expected: str) -> None:
    assert units_full(value, abbrev, feminine=feminine) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (D("0.75"), "setenta e cinco centésimos"),
        (D("0.5"), "cinco décimos"),
        (D("0.05"), "cinco centésimos"),
        (D("0.1"), "um décimo"),
        (D("0.01"), "um centésimo"),
        (D("0.001"), "um milésimo"),
        (D("0.002"), "dois milésimos"),
        (D("0.0001"), "um décimo de milésimo"),
        (D("0.0025"), "vinte e cinco décimos de milésimo"),
        (D("0.00001"), "um centésimo de milésimo"),
        (D("0.000001"), "um milionésimo"),
        (D("0.000000001"), "um bilionésimo"),
        (D("0.000000000001"), "um trilionésimo"),
        (D("3.14"), "três inteiros e quatorze centésimos"),
        (D("9.5"), "nove inteiros e cinco décimos"),
        (D("9.50"), "nove inteiros e cinco décimos"),
        (D("1.5"), "um inteiro e cinco décimos"),
        (D("1.05"), "um inteiro e cinco centésimos"),
        (D("1.001"), "um inteiro e um milésimo"),
        (D("2.125"), "dois inteiros e cento e vinte e cinco milésimos"),
        (D("6.5"), "seis inteiros e cinco décimos"),
        (D("13.5"), "treze inteiros e cinco décimos"),
        (D("21.01"), "vinte e um inteiros e um centésimo"),
        (D("100.5"), "cem inteiros e cinco décimos"),
        (D("201.75"), "duzentos e um inteiros e setenta e cinco centésimos"),
        (D("1234.5678"), "mil duzentos e trinta e quatro inteiros e cinco mil seiscentos e setenta e oito "
                         "décimos de milésimo"),
        (D("1000000.5"), "um milhão de inteiros e cinco décimos"),
        (D("0.999"), "novecentos e noventa e nove milésimos"),
        (D("1.000"), "um"),
    ],
)
def test_number_words(value: Decimal, expected: str) -> None:
    assert number_words(value) == expected
    # a fraction counts wholes and tenths (masculine nouns): the same words for a feminine unit
    if value != value.to_integral_value():
        assert number_words(value, feminine=True) == expected


@pytest.mark.parametrize(
    ("value", "feminine", "expected"),
    [
        (D(1), True, "uma"),
        (D(2), True, "duas"),
        (D(2), False, "dois"),
        (D(22), True, "vinte e duas"),
        (D(200), True, "duzentas"),
        (D("2.0"), True, "duas"),  # a whole quantity stays feminine
        (D("2.5"), True, "dois inteiros e cinco décimos"),
        (D("1.2"), True, "um inteiro e dois décimos"),
        (D("0.2"), True, "dois décimos"),
    ],
)
def test_number_words_feminine(value: Decimal, feminine: bool, expected: str) -> None:
    assert number_words(value, feminine=feminine) == expected


@pytest.mark.parametrize("text", ["0.5", "9.5", "21.01", "313.875", "0.0042", "999.9"])
def test_number_words_fraction_parts_match_num2words(text: str) -> None:
    """Independent oracle: the wholes and the numerator are num2words' cardinal (below 1000, where it has no
    commas between groups); the words say which places ("décimos" for 1 place, …)."""
    from num2words import num2words

    whole, _, frac = text.partition(".")
    numerator = int(frac)
    words = number_words(D(text))
    expected_part = num2words(numerator, lang="pt_BR").replace("catorze", "quatorze")
    assert expected_part in words
    if int(whole):
        assert words.startswith(num2words(int(whole), lang="pt_BR") + (" inteiro " if int(whole) == 1 else " inteiros "))
    else:
        assert words.startswith(expected_part)
    assert "vírgula" not in words


def test_number_words_too_many_places() -> None:
    with pytest.raises(ValueError):
        number_words(D("0.0000000000001"))


@pytest.mark.parametrize(
    ("n", "singular", "plural", "expected"),
    [
        (1, "bloco", "blocos", "1 bloco"),
        (4, "bloco", "blocos", "4 blocos"),
        (0, "caso", "casos", "0 casos"),
        (2, "dia", "dias", "2 dias"),
        (1200, "caso", "casos", "1.200 casos"),
        (1, "problema", "problemas", "1 problema"),
    ],
)
def test_count_noun(n: int, singular: str, plural: str, expected: str) -> None:
    assert count_noun(n, singular, plural) == expected


@pytest.mark.parametrize("bad", [1.0, True, "1"])
def test_count_noun_rejects_non_int(bad: object) -> None:
    with pytest.raises(TypeError):
        count_noun(bad, "dia", "dias")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        ("Rua Romeu Tortima, 77, Centro", "na Rua Romeu Tortima, 77, Centro"),
        ("rua Sete", "na rua Sete"),
        ("R. Sete, 10", "na R. Sete, 10"),
        ("Avenida Acesita, 1200", "na Avenida Acesita, 1200"),
        ("Av. Brasil, 5", "na Av. Brasil, 5"),
        ("Praça 1º de Maio", "na Praça 1º de Maio"),
        ("Travessa das Flores", "na Travessa das Flores"),
        ("Estrada Municipal, km 3", "na Estrada Municipal, km 3"),
        ("Rodovia MT-251", "na Rodovia MT-251"),
        ("Alameda Santos", "na Alameda Santos"),
        ("Feira livre da Praça 1º de Maio", "na Feira livre da Praça 1º de Maio"),
        ("Centro de Controle de Zoonoses", "no Centro de Controle de Zoonoses"),
        ("Largo do Rosário", "no Largo do Rosário"),
        ("Beco do Sapo", "no Beco do Sapo"),
        ("Parque Municipal", "no Parque Municipal"),
        ("Bairro Alvorada", "no Bairro Alvorada"),
        ("Sítio Boa Vista", "no Sítio Boa Vista"),
        ("Mercado Municipal, box 4", "no Mercado Municipal, box 4"),
        ("Km 12 da BR-381", "no Km 12 da BR-381"),
        ("Açougue Bom Corte", "no Açougue Bom Corte"),
        ("Cuiabá/MT", "em Cuiabá/MT"),
        ("Timóteo", "em Timóteo"),
        ("123, Rua Sete", "em 123, Rua Sete"),
        ("na Rua Sete", "na Rua Sete"),
        ("em frente ao nº 40", "em frente ao nº 40"),
        ("junto à Praça da Matriz", "junto à Praça da Matriz"),
        ("  Rua Sete ", "na Rua Sete"),
    ],
)
def test_in_place(place: str, expected: str) -> None:
    assert in_place(place) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lei federal nº 9.784/1999, art. 59, § 1º (por analogia)", "Lei federal nº 9.784/1999, art. 59, § 1º, por analogia"),
        ("Lei nº 3.844/2022, art. 16, § 1º (prazo de EXEMPLO, a fixar no regulamento — art. 31)",
         "Lei nº 3.844/2022, art. 16, § 1º, prazo de EXEMPLO, a fixar no regulamento — art. 31"),
        ("redução de cinquenta por cento (50%) para indústria", "redução de cinquenta por cento, 50%, para indústria"),
        ("a (b (c)) d", "a, b, c, d"),
        ("ruído de 70 dB(A)", "ruído de 70 dB(A)"),
        ("sem parênteses", "sem parênteses"),
        ("art. 11 (eqüídeos); art. 12", "art. 11, eqüídeos; art. 12"),
        # Ferraz art. 68's amount between dashes, its doubling cited (art. 2º, § 5º): no ", —" before the closing dash
        ("art. 68 — multa de 30 UFM, aplicada em dobro na reincidência (art. 2º, § 5º) —, combinado com o art. 75",
         "art. 68 — multa de 30 UFM, aplicada em dobro na reincidência, art. 2º, § 5º —, combinado com o art. 75"),
    ],
)
def test_unnest_parentheses(text: str, expected: str) -> None:
    out = unnest_parentheses(text)
    assert out == expected
    assert "((" not in f"({out})" and not re.search(r"\([^()]*\(", f"({out})".replace("dB(A)", ""))


@pytest.mark.parametrize("bad", [1.5, True, "1"])
def test_units_reject_float(bad: object) -> None:
    with pytest.raises(TypeError):
        units_words(bad, UPF_S, UPF_P)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        units_full(bad, "UPF")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [D("-1"), D("NaN"), D("0.0000000000001")])
def test_units_value_errors(bad: Decimal) -> None:
    with pytest.raises(ValueError):
        units_words(bad, UPF_S, UPF_P)


# ---------------------------------------------------------------------------
# Dates and times
# ---------------------------------------------------------------------------

DATE_CASES: list[tuple[date, str, str, str, str]] = [
    (
        date(2022, 3, 16),
        "16 de março de 2022",
        "16/03/2022",
        "dezesseis de março de dois mil e vinte e dois",
        "Aos dezesseis dias do mês de março do ano de dois mil e vinte e dois",
    ),
    (
        date(2022, 3, 1),
        "1º de março de 2022",
        "01/03/2022",
        "primeiro de março de dois mil e vinte e dois",
        "Ao primeiro dia do mês de março do ano de dois mil e vinte e dois",
    ),
    (
        date(2000, 1, 1),
        "1º de janeiro de 2000",
        "01/01/2000",
        "primeiro de janeiro de dois mil",
        "Ao primeiro dia do mês de janeiro do ano de dois mil",
    ),
    (
        date(1997, 10, 22),
        "22 de outubro de 1997",
        "22/10/1997",
        "vinte e dois de outubro de mil novecentos e noventa e sete",
        "Aos vinte e dois dias do mês de outubro do ano de mil novecentos e noventa e sete",
    ),
    (
        date(2026, 12, 31),
        "31 de dezembro de 2026",
        "31/12/2026",
        "trinta e um de dezembro de dois mil e vinte e seis",
        "Aos trinta e um dias do mês de dezembro do ano de dois mil e vinte e seis",
    ),
    (
        date(2100, 2, 2),
        "2 de fevereiro de 2100",
        "02/02/2100",
        "dois de fevereiro de dois mil e cem",
        "Aos dois dias do mês de fevereiro do ano de dois mil e cem",
    ),
    (
        date(2024, 2, 29),
        "29 de fevereiro de 2024",
        "29/02/2024",
        "vinte e nove de fevereiro de dois mil e vinte e quatro",
        "Aos vinte e nove dias do mês de fevereiro do ano de dois mil e vinte e quatro",
    ),
    (
        date(2014, 4, 14),
        "14 de abril de 2014",
        "14/04/2014",
        "quatorze de abril de dois mil e quatorze",
        "Aos quatorze dias do mês de abril do ano de dois mil e quatorze",
    ),
    (
        date(2023, 5, 21),
        "21 de maio de 2023",
        "21/05/2023",
        "vinte e um de maio de dois mil e vinte e três",
        "Aos vinte e um dias do mês de maio do ano de dois mil e vinte e três",
    ),
    (
        date(2025, 6, 10),
        "10 de junho de 2025",
        "10/06/2025",
        "dez de junho de dois mil e vinte e cinco",
        "Aos dez dias do mês de junho do ano de dois mil e vinte e cinco",
    ),
    (
        date(2021, 7, 7),
        "7 de julho de 2021",
        "07/07/2021",
        "sete de julho de dois mil e vinte e um",
        "Aos sete dias do mês de julho do ano de dois mil e vinte e um",
    ),
    (
        date(2020, 8, 30),
        "30 de agosto de 2020",
        "30/08/2020",
        "trinta de agosto de dois mil e vinte",
        "Aos trinta dias do mês de agosto do ano de dois mil e vinte",
    ),
    (
        date(2019, 9, 1),
        "1º de setembro de 2019",
        "01/09/2019",
        "primeiro de setembro de dois mil e dezenove",
        "Ao primeiro dia do mês de setembro do ano de dois mil e dezenove",
    ),
    (
        date(1999, 11, 11),
        "11 de novembro de 1999",
        "11/11/1999",
        "onze de novembro de mil novecentos e noventa e nove",
        "Aos onze dias do mês de novembro do ano de mil novecentos e noventa e nove",
    ),
]


@pytest.mark.parametrize(("d", "long", "short", "words", "opening"), DATE_CASES)
def test_dates(d: date, long: str, short: str, words: str, opening: str) -> None:
    assert format_date(d) == long
    assert format_date_short(d) == short
    assert date_words(d) == words
    assert date_words_opening(d) == opening


def test_month_names_are_babels_pt_br() -> None:
    """The months are a table (a long date does not import babel): the same names babel's pt_BR writes."""
    from babel import dates as babel_dates

    for month in range(1, 13):
        d = date(2026, month, 1)
        expected = babel_dates.format_date(d, format="MMMM", locale="pt_BR").lower()
        assert format_date(d) == f"1º de {expected} de 2026"


def test_dates_accept_datetime_and_reject_str() -> None:
    assert format_date(datetime(2022, 3, 16, 10, 0)) == "16 de março de 2022"
    with pytest.raises(TypeError):
        format_date("2022-03-16")  # type: ignore[arg-type]


TIME_CASES: list[tuple[time, str, str]] = [
    (time(0, 0), "0h", "zero hora"),
    (time(0, 1), "0h01", "zero hora e um minuto"),
    (time(1, 0), "1h", "uma hora"),
    (time(1, 5), "1h05", "uma hora e cinco minutos"),
    (time(2, 2), "2h02", "duas horas e dois minutos"),
    (time(9, 0, 59), "9h", "nove horas"),
    (time(12, 0), "12h", "doze horas"),
    (time(14, 0), "14h", "quatorze horas"),
    (time(14, 30), "14h30", "quatorze horas e trinta minutos"),
    (time(21, 1), "21h01", "vinte e uma horas e um minuto"),
    (time(22, 22), "22h22", "vinte e duas horas e vinte e dois minutos"),
    (time(23, 59, 59), "23h59", "vinte e três horas e cinquenta e nove minutos"),
]


@pytest.mark.parametrize(("t", "short", "words"), TIME_CASES)
def test_times(t: time, short: str, words: str) -> None:
    assert format_time(t) == short
    assert time_words(t) == words
