"""The dispositivos of a statute's published text: every article (caput), paragraph (parágrafo único too),
inciso and alínea, in the order of the text.

Pure: the text comes in, the list comes out (no file is read here). The texts are plain text copied from
the official publication (``rules/<municipio>-<uf>/<fonte_texto>``); the Timóteo one was scanned, so the
reader accepts the OCR forms its README lists, and says so for each one it had to read by position:

* paragraph signs ``8 1º``, ``S 1º``, ``$ 1º``, ``S$ 1º``, ``& 1º``, ``83º`` are ``§ 1º``/``§ 3º``;
* roman numerals made of strokes (``|``, ``l``, ``Il``, ``ll``, ``Ill``) are read by their place in the
  sequence: the Timóteo art. 3º lists ``| — … Il — … Il — … IV —``, and the second ``Il`` is inciso III;
* alíneas written as digits (``9)`` for ``g)``, ``1)`` for ``l)``) are the next letter of the sequence.

A dispositivo that appears twice with the same label (Ferraz de Vasconcelos, art. 37, has two "Parágrafo
único") is told apart by :attr:`Dispositivo.ocorrencia` (2 for the second).

Page headers and footers of the scan ("PREFEITURA DE TIMÓTEO …", "www.timoteo.mg.gov.br") never start a
dispositivo, so they are ignored; a dispositivo starts only at the beginning of a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}

_ARTICLE = re.compile(r"^Art\.\s*(\d+)(?:\s*[º°o])?\.?(?=\s|$)")
_SOLE_PARAGRAPH = re.compile(r"^Par[áa]grafo\s+[úu]nic[oa]\b", re.IGNORECASE)
# "§ 1º", "§ 10." (true sign: ordinal optional) or the scan's "8 1º", "S 1º", "$ 1º", "S$ 3º", "& 1º", "83º"
_PARAGRAPH = re.compile(r"^(?:§\s*(\d+)\s*[º°]?|(?:S\$|\$|S|&|8)\s*(\d)\s*[º°])(?=[\s.:-]|$)")
# "I. ", "II- ", "| — ", "Il-o local", "V-—o prazo", "Ill - por edital"
_INCISO = re.compile(r"^([IVXLC|l]+)\s*[.\-—–]+\s*(?=\S)")
_ALINEA = re.compile(r"^([a-z]|\d)\)\s")


@dataclass(frozen=True)
class Dispositivo:
    """One dispositivo: ``artigo`` alone is the caput; ``paragrafo`` is ``"1"``… or ``"unico"``."""

    artigo: str
    paragrafo: str | None = None
    inciso: str | None = None
    alinea: str | None = None
    ocorrencia: int = 1

    def short(self) -> str:
        """``art. 11, § 3º``, ``art. 16, § 2º, inciso I, alínea a``, ``art. 37, parágrafo único (2º)``."""
        parts = [f"art. {_ordinal(self.artigo)}"]
        if self.paragrafo == "unico":
            parts.append("parágrafo único")
        elif self.paragrafo is not None:
            parts.append(f"§ {_ordinal(self.paragrafo)}")
        if self.inciso is not None:
            parts.append(f"inciso {self.inciso}")
        if self.alinea is not None:
            parts.append(f"alínea {self.alinea}")
        if self.paragrafo is None and self.inciso is None and self.alinea is None:
            parts.append("caput")
        text = ", ".join(parts)
        return text + (f" ({self.ocorrencia}ª ocorrência no texto)" if self.ocorrencia > 1 else "")


@dataclass(frozen=True)
class FoundDispositivo:
    """A dispositivo, where it starts in the text, its own text (up to the next dispositivo, lines joined by
    spaces, page headers of the scan included) and, for an OCR form, how it was read (``leitura``)."""

    dispositivo: Dispositivo
    linha: int
    inicio: str
    leitura: str | None = None
    texto: str = ""


def _ordinal(number: str) -> str:
    return f"{number}º" if number.isdigit() and int(number) <= 9 else number


def roman_value(numeral: str) -> int:
    """``"XVII"`` → 17 (subtractive notation included)."""
    total = 0
    values = [_ROMAN_VALUES[c] for c in numeral]
    for i, v in enumerate(values):
        total += -v if i + 1 < len(values) and values[i + 1] > v else v
    return total


def to_roman(number: int) -> str:
    """17 → ``"XVII"`` (1 to 399)."""
    out = ""
    for value, sign in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                        (4, "IV"), (1, "I")):
        while number >= value:
            out += sign
            number -= value
    return out


class _Reader:
    """The state of a top-down reading: the current article, paragraph and inciso."""

    def __init__(self) -> None:
        self.found: list[FoundDispositivo] = []
        self.seen: dict[tuple[str, str | None, str | None, str | None], int] = {}
        self.artigo: str | None = None
        self.paragrafo: str | None = None
        self.inciso: str | None = None
        self.last_inciso = 0  # value of the last inciso under the current caput or paragraph
        self.last_alinea = 0  # 1 for a), under the current inciso, paragraph or caput

    def add(self, linha: int, line: str, leitura: str | None, paragrafo: str | None = None,
            inciso: str | None = None, alinea: str | None = None) -> None:
        assert self.artigo is not None
        label = (self.artigo, paragrafo, inciso, alinea)
        self.seen[label] = self.seen.get(label, 0) + 1
        disp = Dispositivo(self.artigo, paragrafo, inciso, alinea, self.seen[label])
        self.found.append(FoundDispositivo(disp, linha, line[:70], leitura))

    def article(self, linha: int, line: str, number: str) -> None:
        self.artigo, self.paragrafo, self.inciso = str(int(number)), None, None
        self.last_inciso = self.last_alinea = 0
        self.add(linha, line, None)

    def paragraph(self, linha: int, line: str, number: str, leitura: str | None) -> None:
        self.paragrafo, self.inciso = number, None
        self.last_inciso = self.last_alinea = 0
        self.add(linha, line, leitura, number)

    def inciso_at(self, linha: int, line: str, token: str) -> None:
        expected = self.last_inciso + 1
        leitura = None
        if set(token) & {"|", "l"}:  # strokes of the scan: the place in the sequence says which numeral
            value = expected
            leitura = f"'{token}' lido como inciso {to_roman(value)} (OCR, pela sequência)"
        else:
            value = roman_value(token)
        self.inciso = to_roman(value)
        self.last_inciso = value
        self.last_alinea = 0
        self.add(linha, line, leitura, self.paragrafo, self.inciso)

    def alinea_at(self, linha: int, line: str, token: str) -> None:
        expected = chr(ord("a") + self.last_alinea)
        leitura = None
        letter = token
        if not token.isalpha():
            letter = expected
            leitura = f"'{token})' lido como alínea {expected}) (algarismo do OCR, pela sequência)"
        self.last_alinea = ord(letter) - ord("a") + 1
        self.add(linha, line, leitura, self.paragrafo, self.inciso, letter)


def parse_dispositivos(text: str) -> list[FoundDispositivo]:
    """Every dispositivo of ``text``, in the order of the text (see the module docstring)."""
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = _ARTICLE.match(line)
        if m is not None:
            reader.article(number, line, m.group(1))
            continue
        if reader.artigo is None:
            continue  # the preamble: title, ementa, chapter headings
        if _SOLE_PARAGRAPH.match(line):
            reader.paragraph(number, line, "unico", None)
            continue
        m = _PARAGRAPH.match(line)
        if m is not None:
            digits = m.group(1) or m.group(2)
            leitura = None if line.startswith("§") else f"'{m.group(0).strip()}' lido como § {digits}º (OCR)"
            reader.paragraph(number, line, str(int(digits)), leitura)
            continue
        m = _INCISO.match(line)
        if m is not None:
            reader.inciso_at(number, line, m.group(1))
            continue
        m = _ALINEA.match(line)
        if m is not None:
            reader.alinea_at(number, line, m.group(1))
    return _with_texts(reader.found, text.splitlines())


def _with_texts(found: list[FoundDispositivo], lines: list[str]) -> list[FoundDispositivo]:
    out = []
    for i, f in enumerate(found):
        end = found[i + 1].linha - 1 if i + 1 < len(found) else len(lines)
        texto = " ".join(" ".join(line.split()) for line in lines[f.linha - 1:end] if line.strip())
        out.append(FoundDispositivo(f.dispositivo, f.linha, f.inicio, f.leitura, texto))
    return out
