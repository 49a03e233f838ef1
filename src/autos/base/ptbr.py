"""Brazilian-Portuguese (pt_BR) formatting for legal documents.

Autos de infração, notificações and editais must write amounts, quantities,
dates and times following the *norma culta*: an error in the written amount
can void the administrative act, so every function here is strict:

* Money and quantities are :class:`~decimal.Decimal` (or ``int``).  ``float``
  and ``bool`` are rejected with :class:`TypeError`; ``str`` is not accepted
  anywhere.  NaN and infinities raise :class:`ValueError`.
* Nothing is rounded silently.  Money functions require at most two decimal
  places (trailing zeros do not count: ``Decimal("1.500")`` is R$ 1,50) and
  raise :class:`ValueError` otherwise; use :func:`round_money` explicitly.

Number words
------------
The integer-to-words conversion is written here rather than delegated to
``num2words`` (``lang="pt_BR"``), because num2words 0.5.x has these defects
for legal use:

* it puts commas between groups: ``1234`` -> "mil, duzentos e trinta e
  quatro", ``1234567`` -> "um milhão, duzentos e trinta e quatro mil,
  quinhentos e sessenta e sete";
* it has no feminine forms (no ``gender`` argument), needed for "duzentas e
  uma Unidades Padrão Fiscais", "duas horas";
* currency: ``0.01`` -> "zero reais e um centavo", ``0`` -> "zero reais";
* it silently rounds: ``Decimal("1.005")`` -> "um real", and it accepts
  ``float`` (``0.1 + 0.2`` -> "zero reais e trinta centavos");
* decimals are read digit by digit: ``0.75`` -> "zero vírgula sete cinco".

Its 0..999 words are right (apart from choosing "catorze"), so the only thing
it would contribute is a table of twenty words; the package keeps it as a
dependency and the test-suite uses it as an independent oracle.

Choices where Brazilian usage varies (documented, applied consistently):

* **14 is "quatorze"** (both "catorze" and "quatorze" are in the VOLP).
* **Singular below two**: the noun is singular when the quantity is less than
  2 ("zero real", "zero hora", "um inteiro e cinco décimos de Unidade Padrão
  Fiscal"),
  following the rule that agreement goes with the integer part ("1,5
  milhão").  Hence 0 is written **"zero real"**.
* **"e" between groups** only before the last non-zero group, and only when
  that group is below 100 or a round hundred: "mil e um", "dois mil e
  quinhentos", "um milhão e duzentos mil", "mil duzentos e trinta e quatro",
  "dois milhões cento e um".  "mil", never "um mil".  Some sources (and num2words) also put "e" before an
  inner group below 100 ("um milhão e vinte mil e trezentos"); we do not ("um
  milhão vinte mil e trezentos", "um milhão mil e dois").
* **Feminine** agrees in the units and thousands groups ("duzentas e uma
  mil"); "mil" is invariable; "milhão"/"bilhão" are masculine nouns, so their
  group stays masculine ("dois milhões de unidades").
* **Fractional quantities** (e.g. 9,5 UPF) are read in the legal style, as
  a number of wholes and a number of tenths, hundredths, thousandths…:
  9,5 -> "nove inteiros e cinco décimos", 1,05 -> "um inteiro e cinco
  centésimos", 0,75 -> "setenta e cinco centésimos" (no "zero inteiro"),
  2,125 -> "dois inteiros e cento e vinte e cinco milésimos", 0,0001 -> "um
  décimo de milésimo".  Trailing zeros are dropped (9,50 is 9,5).  "inteiro"
  and "décimo" are masculine nouns, so a fraction is read in the masculine
  even for a feminine unit (1,5 UPF: "um inteiro e cinco décimos"); the
  feminine applies to whole quantities ("duas UPF", "duzentas e uma").
  Places beyond the fourth: "centésimos de milésimo", "milionésimos",
  "décimos de milionésimo"… up to twelve ("trilionésimos").
* **Counts of things** (``count_noun``: 1 bloco, 3 blocos, 0 casos) take the
  plural for every number but 1 — unlike quantities of money and units above.
* **Places** (``in_place``): "em" contracts with the article the first word
  of the place asks for — "na Rua…", "no Centro de Controle…", "na Av.…" —
  from a table of address and place words (``PLACE_GENDER``); a place that
  starts with another word (a city, "Feira livre", a number) keeps "em",
  and a place that starts with a preposition ("junto à…", "em frente…") is
  written as typed.
* **Dates**: day 1 is the ordinal "1º" / "primeiro", as in legal style ("1º de
  março de 2022", "Ao primeiro dia do mês de março...").
* **Times**: "14h30", "14h" on the hour, "9h05" (no leading zero on the
  hour); seconds are truncated.  Words: "quatorze horas e trinta minutos",
  "uma hora", "zero hora".
"""

from __future__ import annotations

import re
from datetime import date, time
from decimal import ROUND_HALF_UP, Decimal, localcontext

__all__ = [
    "MAX_INT_WORDS",
    "MAX_MONEY",
    "PLACE_GENDER",
    "count_noun",
    "date_words",
    "date_words_opening",
    "format_brl",
    "format_date",
    "format_date_short",
    "format_decimal",
    "format_time",
    "in_place",
    "int_to_words",
    "money_full",
    "money_words",
    "number_words",
    "round_money",
    "time_words",
    "units_full",
    "units_words",
    "unnest_parentheses",
]

MAX_INT_WORDS = 999_999_999_999
MAX_MONEY = Decimal("999999999.99")

_UNITS: tuple[str, ...] = (
    "zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
    "dez", "onze", "doze", "treze", "quatorze", "quinze", "dezesseis", "dezessete",
    "dezoito", "dezenove",
)  # fmt: skip
_TENS: tuple[str, ...] = (
    "", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa",
)  # fmt: skip
_HUNDREDS: tuple[str, ...] = (
    "", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
    "setecentos", "oitocentos", "novecentos",
)  # fmt: skip
_FEMININE_UNITS = {1: "uma", 2: "duas"}

# (scale, singular, plural) for the groups above the thousands.
_BIG_SCALES: tuple[tuple[int, str, str], ...] = (
    (1_000_000_000, "bilhão", "bilhões"),
    (1_000_000, "milhão", "milhões"),
)


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------


def _as_decimal(value: object, what: str = "value") -> Decimal:
    """Return ``value`` as a finite Decimal; reject float, bool, str, others."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise TypeError(f"{what} must be Decimal or int, not {type(value).__name__}")
    if isinstance(value, int):
        return Decimal(value)
    if not value.is_finite():
        raise ValueError(f"{what} must be finite, got {value}")
    return value


def _split(value: Decimal) -> tuple[bool, int, str]:
    """Split a finite Decimal exactly into (negative, integer part, decimal digits).

    The decimal digits have trailing zeros removed.  Works on the exact
    string form, so no arithmetic context (precision) is involved.
    """
    text = format(value, "f")
    negative = text.startswith("-")
    text = text.lstrip("-")
    int_text, _, frac_text = text.partition(".")
    frac_text = frac_text.rstrip("0")
    integer = int(int_text)
    if integer == 0 and not frac_text:
        negative = False  # -0 is zero
    return negative, integer, frac_text


def _money_cents(value: object) -> int:
    """Validate a money amount and return it in centavos (exact)."""
    dec = _as_decimal(value, "money value")
    negative, integer, frac = _split(dec)
    if negative:
        raise ValueError(f"money value must not be negative, got {dec}")
    if len(frac) > 2:
        raise ValueError(
            f"money value must have at most 2 decimal places, got {dec}; use round_money() explicitly"
        )
    return integer * 100 + int(frac.ljust(2, "0"))


# ---------------------------------------------------------------------------
# Numbers in words
# ---------------------------------------------------------------------------


def _under_thousand(n: int, feminine: bool) -> str:
    """Words for 1 <= n <= 999."""
    hundreds, rest = divmod(n, 100)
    parts: list[str] = []
    if hundreds:
        if n == 100:
            return "cem"
        word = _HUNDREDS[hundreds]
        if feminine and hundreds >= 2:
            word = word[:-2] + "as"  # duzentos -> duzentas
        parts.append(word)
    if rest:
        if rest < 20:
            parts.append(_FEMININE_UNITS.get(rest, _UNITS[rest]) if feminine else _UNITS[rest])
        else:
            tens, unit = divmod(rest, 10)
            words = _TENS[tens]
            if unit:
                unit_word = _FEMININE_UNITS.get(unit, _UNITS[unit]) if feminine else _UNITS[unit]
                words = f"{words} e {unit_word}"
            parts.append(words)
    return " e ".join(parts)


def int_to_words(n: int, *, feminine: bool = False) -> str:
    """Write ``0 <= n <= 999_999_999_999`` in Brazilian-Portuguese words.

    >>> int_to_words(1234)
    'mil duzentos e trinta e quatro'
    >>> int_to_words(1_200_000)
    'um milhão e duzentos mil'
    >>> int_to_words(201_000, feminine=True)
    'duzentas e uma mil'
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be int, not {type(n).__name__}")
    if not 0 <= n <= MAX_INT_WORDS:
        raise ValueError(f"n must be between 0 and {MAX_INT_WORDS}, got {n}")
    if n == 0:
        return "zero"

    # (group value, words) for every non-zero group, most significant first.
    groups: list[tuple[int, str]] = []
    rest = n
    for scale, singular, plural in _BIG_SCALES:
        value, rest = divmod(rest, scale)
        if value:
            # milhão/bilhão are masculine nouns: their multiplier is masculine.
            noun = singular if value == 1 else plural
            groups.append((value, f"{_under_thousand(value, False)} {noun}"))
    thousands, units = divmod(rest, 1000)
    if thousands:
        words = "mil" if thousands == 1 else f"{_under_thousand(thousands, feminine)} mil"
        groups.append((thousands, words))
    if units:
        groups.append((units, _under_thousand(units, feminine)))

    result = groups[0][1]
    for index, (value, words) in enumerate(groups[1:], start=1):
        is_last = index == len(groups) - 1
        joiner = " e " if is_last and (value < 100 or value % 100 == 0) else " "
        result += joiner + words
    return result


def _ends_with_big_scale(n: int) -> bool:
    """True when the words of ``n`` end in milhão/milhões/bilhão/bilhões ("de" needed)."""
    return n > 0 and n % 1_000_000 == 0


#: names of the decimal places, by number of places: (singular, plural); past the fourth, "de milésimo"…
_FRACTION_NAMES: dict[int, tuple[str, str]] = {
    1: ("décimo", "décimos"),
    2: ("centésimo", "centésimos"),
    3: ("milésimo", "milésimos"),
    4: ("décimo de milésimo", "décimos de milésimo"),
    5: ("centésimo de milésimo", "centésimos de milésimo"),
    6: ("milionésimo", "milionésimos"),
    7: ("décimo de milionésimo", "décimos de milionésimo"),
    8: ("centésimo de milionésimo", "centésimos de milionésimo"),
    9: ("bilionésimo", "bilionésimos"),
    10: ("décimo de bilionésimo", "décimos de bilionésimo"),
    11: ("centésimo de bilionésimo", "centésimos de bilionésimo"),
    12: ("trilionésimo", "trilionésimos"),
}


def number_words(value: Decimal | int, *, feminine: bool = False) -> str:
    """Write a non-negative Decimal/int quantity in words; a fraction in the legal style (wholes and tenths,
    hundredths, thousandths…, always masculine: see the module notes).

    >>> number_words(Decimal("9.5"))
    'nove inteiros e cinco décimos'
    >>> number_words(Decimal("0.75"), feminine=True)
    'setenta e cinco centésimos'
    >>> number_words(Decimal("2"), feminine=True)
    'duas'
    """
    dec = _as_decimal(value)
    negative, integer, frac = _split(dec)
    if negative:
        raise ValueError(f"value must not be negative, got {dec}")
    if not frac:
        return int_to_words(integer, feminine=feminine)
    if len(frac) > len(_FRACTION_NAMES):
        raise ValueError(f"value has too many decimal places to be written in words: {dec}")
    numerator = int(frac)
    singular, plural = _FRACTION_NAMES[len(frac)]
    part = f"{int_to_words(numerator)} {singular if numerator == 1 else plural}"
    if integer == 0:
        return part
    wholes = "inteiro" if integer == 1 else "inteiros"
    if _ends_with_big_scale(integer):
        wholes = "de " + wholes
    return f"{int_to_words(integer)} {wholes} e {part}"


def count_noun(n: int, singular: str, plural: str) -> str:
    """A count of things with its noun agreed: ``1 bloco``, ``3 blocos``, ``0 casos`` (figures, thousands
    separated: ``1.200 casos``).

    >>> count_noun(1, "dia", "dias")
    '1 dia'
    >>> count_noun(0, "problema", "problemas")
    '0 problemas'
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be int, not {type(n).__name__}")
    return f"{_group_thousands(n) if n >= 0 else '-' + _group_thousands(-n)} {singular if n == 1 else plural}"


#: the grammatical gender of the first word of a place or an address ("f": "na", "m": "no"), lower case; the
#: abbreviations as written in addresses. A place whose first word is not here keeps "em" ("em Cuiabá").
PLACE_GENDER: dict[str, str] = {
    **dict.fromkeys((
        "rua", "r.", "avenida", "av.", "av", "praça", "pça.", "pç.", "travessa", "tv.", "trav.", "estrada",
        "estr.", "rodovia", "rod.", "alameda", "al.", "ladeira", "vila", "quadra", "qd.", "viela", "via",
        "passagem", "servidão", "praia", "fazenda", "chácara", "granja", "sede", "sala", "loja", "feira",
        "escola", "unidade", "secretaria", "prefeitura", "área", "zona", "comunidade", "colônia", "gleba",
        "quitanda", "padaria", "mercearia", "peixaria", "casa", "residência", "obra", "empresa", "indústria",
        "fábrica", "distribuidora", "lanchonete", "churrascaria", "pastelaria", "banca", "barraca", "agência",
        "cooperativa", "associação", "igreja", "creche", "feira-livre", "marginal", "vicinal",
    ), "f"),
    **dict.fromkeys((
        "centro", "largo", "beco", "parque", "bairro", "conjunto", "loteamento", "sítio", "mercado", "terreno",
        "lote", "estabelecimento", "galpão", "açougue", "posto", "distrito", "residencial", "condomínio",
        "setor", "núcleo", "jardim", "bosque", "campo", "caminho", "acesso", "anel", "viaduto", "trevo",
        "pátio", "cais", "porto", "balneário", "local", "imóvel", "edifício", "prédio", "shopping",
        "supermercado", "restaurante", "bar", "hotel", "km", "quilômetro", "contorno", "calçadão", "terminal",
        "abatedouro", "frigorífico", "laticínio", "entreposto", "depósito", "armazém", "canil", "canteiro",
        "escritório", "hospital", "cemitério", "estádio", "ginásio", "clube", "pavilhão", "box", "boxe",
        "quiosque", "trailer", "mercadão", "matadouro", "haras", "rancho", "assentamento", "povoado",
        "condomínio", "recanto", "morro", "sobrado", "salão", "comércio", "empório", "armazém", "hortifrúti",
    ), "m"),
}

#: first words after which a place is written as typed: it already says where ("na", "junto à", "em frente")
_PLACE_PREPOSITIONS = frozenset((
    "em", "no", "na", "nos", "nas", "num", "numa", "ao", "à", "aos", "às", "junto", "perto", "próximo",
    "próxima", "defronte", "diante", "dentro", "fora", "sob", "sobre", "entre", "ante", "após", "atrás",
    "frente", "nesta", "neste", "nessa", "nesse", "naquela", "naquele", "defronte",
))


def in_place(place: str) -> str:
    """``place`` after the preposition "em", contracted with the article its first word asks for.

    >>> in_place("Rua Sete, 12")
    'na Rua Sete, 12'
    >>> in_place("Centro de Controle de Zoonoses")
    'no Centro de Controle de Zoonoses'
    >>> in_place("Cuiabá/MT")
    'em Cuiabá/MT'
    >>> in_place("junto ao nº 40 da Rua Sete")
    'junto ao nº 40 da Rua Sete'
    """
    text = place.strip()
    if not text:
        return text
    first = text.split(maxsplit=1)[0].lower() if text else ""
    if first in _PLACE_PREPOSITIONS:
        return text
    first = first.rstrip(",;:")
    gender = PLACE_GENDER.get(first) or (PLACE_GENDER.get(first.rstrip(".")) if first.endswith(".") else None)
    return {"f": "na", "m": "no"}.get(gender or "", "em") + " " + text


_INNER_PARENTHESES = re.compile(r"\s+\(([^()]*)\)(\s*)(?=(.?))")


def unnest_parentheses(text: str) -> str:
    """``text`` ready to be printed inside parentheses: each parenthetical of its own becomes an apposition
    between commas, so that no parentheses are stacked. Parentheses glued to a word are kept ("dB(A)").

    >>> unnest_parentheses("Lei federal nº 9.784/1999, art. 59, § 1º (por analogia)")
    'Lei federal nº 9.784/1999, art. 59, § 1º, por analogia'
    >>> unnest_parentheses("redução de cinquenta por cento (50%) para indústria")
    'redução de cinquenta por cento, 50%, para indústria'

    Before a closing dash the apposition takes no comma of its own (the dash closes it):

    >>> unnest_parentheses("art. 68 — multa em dobro na reincidência (art. 2º, § 5º) —, combinado com o art. 75")
    'art. 68 — multa em dobro na reincidência, art. 2º, § 5º —, combinado com o art. 75'
    """
    def apposition(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        after = m.group(3)
        if not inner:
            return m.group(2) if after else ""
        if not after or after in ",;.:)":
            return ", " + inner
        if after == "—":
            return ", " + inner + (m.group(2) or " ")
        return ", " + inner + "," + (m.group(2) or " ")

    previous = None
    while previous != text:
        previous, text = text, _INNER_PARENTHESES.sub(apposition, text)
    return re.sub(r",\s*,", ",", text)


# ---------------------------------------------------------------------------
# Money
# ---------------------------------------------------------------------------


def round_money(value: Decimal | int) -> Decimal:
    """Round to centavos with ROUND_HALF_UP (ties away from zero).

    The only place where money is rounded; negative values are allowed here.

    >>> round_money(Decimal("1.005"))
    Decimal('1.01')
    """
    dec = _as_decimal(value)
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, dec.adjusted() + 4)
        return dec.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _group_thousands(integer: int) -> str:
    return f"{integer:,}".replace(",", ".")


def format_brl(value: Decimal | int) -> str:
    """Format money as ``"R$ 1.234,56"`` (ordinary space, always two decimals).

    Non-negative, at most two decimal places, no upper limit.
    """
    cents = _money_cents(value)
    reais, centavos = divmod(cents, 100)
    return f"R$ {_group_thousands(reais)},{centavos:02d}"


def money_words(value: Decimal | int) -> str:
    """Write a money amount (0 .. 999.999.999,99) in words.

    >>> money_words(Decimal("1234.56"))
    'mil duzentos e trinta e quatro reais e cinquenta e seis centavos'
    >>> money_words(Decimal("0.01"))
    'um centavo'
    >>> money_words(Decimal("1000000.10"))
    'um milhão de reais e dez centavos'
    """
    cents = _money_cents(value)
    if cents > 99_999_999_999:
        raise ValueError(f"money value must be at most {MAX_MONEY}, got {value}")
    reais, centavos = divmod(cents, 100)
    if cents == 0:
        return "zero real"
    parts: list[str] = []
    if reais:
        noun = "real" if reais == 1 else "reais"
        if _ends_with_big_scale(reais):
            noun = "de " + noun
        parts.append(f"{int_to_words(reais)} {noun}")
    if centavos:
        noun = "centavo" if centavos == 1 else "centavos"
        parts.append(f"{int_to_words(centavos)} {noun}")
    return " e ".join(parts)


def money_full(value: Decimal | int) -> str:
    """``"R$ 1.234,56 (mil duzentos e trinta e quatro reais e cinquenta e seis centavos)"``."""
    words = money_words(value)
    return f"{format_brl(value)} ({words})"


# ---------------------------------------------------------------------------
# Decimal numbers and quantities of units
# ---------------------------------------------------------------------------


def format_decimal(value: Decimal | int, places: int | None = None) -> str:
    """Format with pt_BR separators: ``"1.234,5"``.

    Without ``places`` the exact value is written without trailing zeros
    (babel.numbers.format_decimal is not used: it rounds to 3 decimals by
    default).  With ``places`` the decimals are padded with zeros to exactly
    that many; a value needing more places raises ValueError (no silent
    rounding).  Negative values get a leading "-".
    """
    dec = _as_decimal(value)
    if places is not None and (isinstance(places, bool) or not isinstance(places, int)):
        raise TypeError(f"places must be int or None, not {type(places).__name__}")
    if places is not None and places < 0:
        raise ValueError(f"places must be >= 0, got {places}")
    negative, integer, frac = _split(dec)
    if places is not None:
        if len(frac) > places:
            raise ValueError(f"{dec} has more than {places} decimal places; round it explicitly")
        frac = frac.ljust(places, "0")
    text = _group_thousands(integer)
    if frac:
        text += "," + frac
    return ("-" if negative else "") + text


def _quantity_is_plural(value: Decimal) -> bool:
    """Plural from 2 upward; 0, 1 and anything below 2 take the singular."""
    return value >= 2


def units_words(value: Decimal | int, singular: str, plural: str, *, feminine: bool = True) -> str:
    """Quantity in words followed by the noun.

    >>> units_words(Decimal(201), "Unidade Padrão Fiscal", "Unidades Padrão Fiscais")
    'duzentas e uma Unidades Padrão Fiscais'
    >>> units_words(Decimal(1_000_000), "Unidade Padrão Fiscal", "Unidades Padrão Fiscais")
    'um milhão de Unidades Padrão Fiscais'
    """
    dec = _as_decimal(value)
    words = number_words(dec, feminine=feminine)
    noun = plural if _quantity_is_plural(dec) else singular
    _, integer, frac = _split(dec)
    if frac or _ends_with_big_scale(integer):
        noun = "de " + noun  # "nove inteiros e cinco décimos de Unidades…", "um milhão de Unidades…"
    return f"{words} {noun}"


def units_full(value: Decimal | int, abbrev: str, *, feminine: bool = True) -> str:
    """``"1.500 (mil e quinhentas) UPFMT"``, ``"9,5 (nove inteiros e cinco décimos) UPF"``."""
    dec = _as_decimal(value)
    words = number_words(dec, feminine=feminine)
    return f"{format_decimal(dec)} ({words}) {abbrev}"


# ---------------------------------------------------------------------------
# Dates and times
# ---------------------------------------------------------------------------


def _check_date(d: object) -> date:
    if not isinstance(d, date):
        raise TypeError(f"expected datetime.date, not {type(d).__name__}")
    return d


#: the months' names in Portuguese, as babel's pt_BR ``MMMM`` writes them, lower case (tests/test_ptbr.py checks
#: both give the same names); a table, not babel, so that a command that prints a long date does not import
#: babel and load its locale data (~0.02 s of start-up)
_MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro")


def _month_name(d: date) -> str:
    return _MONTHS[d.month - 1]


def format_date(d: date) -> str:
    """``"16 de março de 2022"``; day 1 is written ``"1º de março de 2022"``."""
    d = _check_date(d)
    day = "1º" if d.day == 1 else str(d.day)
    return f"{day} de {_month_name(d)} de {d.year}"


def format_date_short(d: date) -> str:
    """``"16/03/2022"``."""
    d = _check_date(d)
    return f"{d.day:02d}/{d.month:02d}/{d.year:04d}"


def _day_words(day: int) -> str:
    return "primeiro" if day == 1 else int_to_words(day)


def date_words(d: date) -> str:
    """``"dezesseis de março de dois mil e vinte e dois"`` (day 1: ``"primeiro de ..."``)."""
    d = _check_date(d)
    return f"{_day_words(d.day)} de {_month_name(d)} de {int_to_words(d.year)}"


def date_words_opening(d: date) -> str:
    """Opening of a legal act: ``"Aos dezesseis dias do mês de março do ano de dois mil e vinte e dois"``.

    Day 1: ``"Ao primeiro dia do mês de ..."``.
    """
    d = _check_date(d)
    head = "Ao primeiro dia" if d.day == 1 else f"Aos {int_to_words(d.day)} dias"
    return f"{head} do mês de {_month_name(d)} do ano de {int_to_words(d.year)}"


def _check_time(t: object) -> time:
    if not isinstance(t, time):
        raise TypeError(f"expected datetime.time, not {type(t).__name__}")
    return t


def format_time(t: time) -> str:
    """``"14h30"``, ``"14h"`` on the hour, ``"9h05"``; seconds are truncated."""
    t = _check_time(t)
    return f"{t.hour}h" if t.minute == 0 else f"{t.hour}h{t.minute:02d}"


def time_words(t: time) -> str:
    """``"quatorze horas e trinta minutos"``, ``"uma hora"``, ``"zero hora"``; seconds are truncated."""
    t = _check_time(t)
    hours = f"{int_to_words(t.hour, feminine=True)} {'horas' if t.hour >= 2 else 'hora'}"
    if t.minute == 0:
        return hours
    minutes = f"{int_to_words(t.minute)} {'minutos' if t.minute >= 2 else 'minuto'}"
    return f"{hours} e {minutes}"
