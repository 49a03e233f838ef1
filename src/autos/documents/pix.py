"""PIX "copia e cola" of the demonstrativo de débito: the static BR Code (EMV® QRCPS–MPM as the Banco Central's
Manual de Padrões para Iniciação do Pix profiles it) with the Municipality's key, the amount and a reference to
the processo. Pure: the key, the receiver and the amount come in, the payload text comes out (the QR image of it
is the renderer's, :mod:`autos.render.verification`).

Payload, in the order of the manual (each field ``ID`` + two-digit length + value)::

    00 02 01                      payload format indicator
    26 .. 00 14 br.gov.bcb.pix    merchant account information: the GUI and
          01 .. <key>             the PIX key
    52 04 0000                    merchant category code (none)
    53 03 986                     currency: real
    54 .. 123.45                  amount: two decimals, rounded half up from the Decimal total
    58 02 BR                      country
    59 .. <name>                  receiver's name, up to 25 characters
    60 .. <CITY>                  receiver's city, up to 15 characters
    62 .. 05 .. <txid>            additional data: the reference (txid), up to 25 letters and digits
    63 04 <CRC>                   CRC16-CCITT-FALSE of everything before it, including "6304", in 4 hex digits
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from autos.errors import PixConfigError

GUI = "br.gov.bcb.pix"
MAX_NAME = 25
MAX_CITY = 15
MAX_TXID = 25
MAX_KEY = 77  # the longest key the DICT registers (an e-mail)
#: the amount field holds at most 13 characters ("9999999999.99")
MAX_AMOUNT = Decimal("9999999999.99")

_EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")
_PHONE = re.compile(r"^\+55[1-9][0-9]9?[0-9]{8}$")  # +55, the area code (DDD), 8 or 9 digits
_EVP = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_CPF_CNPJ = re.compile(r"^[0-9./-]+$")


@dataclass(frozen=True)
class PixKey:
    """A PIX key as the BR Code carries it (CPF/CNPJ: the digits only) and its kind, for the document."""

    valor: str
    tipo: str  # "CPF", "CNPJ", "e-mail", "telefone", "chave aleatória"


@dataclass(frozen=True)
class PixConfig:
    """The Municipality's PIX receiver: key, name and city as the BR Code carries them."""

    chave: PixKey
    nome: str
    cidade: str


def parse_key(typed: str) -> PixKey:
    """The key typed in the configuration, checked: CPF or CNPJ (check digits, python-stdnum; written with or
    without dots, slash and dash, carried as the digits), e-mail, phone (``+55`` + area code + number) or random
    key (EVP, a UUID). Anything else is a :class:`PixConfigError` saying which forms are accepted."""
    from stdnum.br import cnpj, cpf
    from stdnum.exceptions import ValidationError

    key = typed.strip()
    if not key:
        raise PixConfigError("chave", "a chave PIX está vazia.", "escreva a chave PIX da conta do Município.")
    if key.startswith("+"):
        if not _PHONE.match(key):
            raise PixConfigError("chave", f"a chave PIX '{key}' não é um telefone no formato do PIX.",
                                 "escreva +55, o DDD e o número, só com algarismos: +5531999998888.")
        return PixKey(key, "telefone")
    if "@" in key:
        if len(key) > MAX_KEY or not _EMAIL.match(key):
            raise PixConfigError("chave", f"a chave PIX '{key}' não é um e-mail válido (até {MAX_KEY} caracteres).",
                                 "escreva o e-mail cadastrado como chave PIX, p. ex. tesouraria@municipio.gov.br.")
        return PixKey(key, "e-mail")
    if _EVP.match(key):
        return PixKey(key, "chave aleatória")
    if _CPF_CNPJ.match(key):
        digits = re.sub(r"\D", "", key)
        module, kind = (cpf, "CPF") if len(digits) == 11 else (cnpj, "CNPJ") if len(digits) == 14 else (None, "")
        if module is None:
            raise PixConfigError("chave", f"a chave PIX '{key}' tem {len(digits)} algarismos: um CPF tem 11 e um CNPJ "
                                 "tem 14.", "confira a chave; um telefone começa com +55.")
        try:
            module.validate(digits)
        except ValidationError:
            raise PixConfigError("chave", f"a chave PIX '{key}' não é um {kind} válido (dígito verificador).",
                                 f"confira o {kind} cadastrado como chave PIX.") from None
        return PixKey(digits, kind)
    raise PixConfigError("chave", f"a chave PIX '{key}' não é CPF, CNPJ, e-mail, telefone (+55…) nem chave "
                         "aleatória.", "escreva a chave como ela está cadastrada no banco do Município.")


def ascii_text(text: str) -> str:
    """``text`` without accents (NFKD, combining marks dropped) and with runs of spaces made one: the BR Code's
    name and city are plain ASCII. A character with no ASCII form is kept, and refused by :func:`_checked`."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(folded.split())


def _checked(key: str, label: str, value: str, limit: int) -> str:
    """``value`` when it fits the BR Code; ``label`` with its article ("o nome", "a cidade")."""
    if not value:
        raise PixConfigError(key, f"{label} do recebedor do PIX está vazio.", f"escreva {label}.")
    bad = sorted({c for c in value if not (32 <= ord(c) < 127)})
    if bad:
        raise PixConfigError(key, f"{label} do recebedor do PIX tem caracteres que o BR Code não aceita: "
                             f"{' '.join(bad)}.", "use só letras, algarismos, espaço e pontuação comum.")
    if len(value) > limit:
        raise PixConfigError(key, f"{label} do recebedor do PIX tem {len(value)} caracteres ('{value}'); o BR Code "
                             f"admite até {limit}.", f"escreva uma forma abreviada, com até {limit} caracteres.")
    return value


def parse_config(chave: str, nome: str, cidade: str) -> PixConfig:
    """The receiver of the configuration: the key checked (:func:`parse_key`), the name without accents (at most
    25 characters) and the city without accents and in capitals, as the manual recommends (at most 15). A name
    or city too long is refused, never cut."""
    return PixConfig(parse_key(chave), _checked("nome", "o nome", ascii_text(nome), MAX_NAME),
                     _checked("cidade", "a cidade", ascii_text(cidade).upper(), MAX_CITY))


def amount_text(valor: Decimal) -> str:
    """The amount field: two decimals, rounded half up (a fine in reais already has cents; this only makes the
    rounding explicit), with a point. Zero, negative or more than 13 characters is a ``ValueError``."""
    cents = valor.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if cents <= 0 or cents > MAX_AMOUNT:
        raise ValueError(f"valor {valor} fora do que o BR Code admite (de 0,01 a 9.999.999.999,99)")
    return f"{cents:.2f}"


def txid_of(reference: str) -> str:
    """The transaction id (field 62-05) from a reference (the processo number): its letters and digits, without
    accents, at most 25; ``***`` (the manual's "no id") when nothing is left."""
    alnum = re.sub(r"[^A-Za-z0-9]", "", ascii_text(reference))
    return alnum[-MAX_TXID:] if alnum else "***"


def _field(tag: str, value: str) -> str:
    if len(value) > 99:
        raise ValueError(f"campo {tag} do BR Code com {len(value)} caracteres (máximo 99)")
    return f"{tag}{len(value):02d}{value}"


def crc16_ccitt_false(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR (the manual's
    CRC16 of field 63; check value of b"123456789": 0x29B1)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def with_crc(payload_without_crc: str) -> str:
    """``payload_without_crc`` + ``6304`` + its CRC in four upper-case hex digits."""
    head = payload_without_crc + "6304"
    return head + f"{crc16_ccitt_false(head.encode('ascii')):04X}"


def br_code(config: PixConfig, valor: Decimal | None, txid: str) -> str:
    """The static BR Code of a payment of ``valor`` (None: the payer types the amount) to ``config``'s key."""
    if len(txid) > MAX_TXID or not (txid == "***" or txid.isalnum()) or not txid.isascii():
        raise ValueError(f"txid '{txid}' inválido (até {MAX_TXID} letras e algarismos)")
    account = _field("00", GUI) + _field("01", config.chave.valor)
    body = (_field("00", "01") + _field("26", account) + _field("52", "0000") + _field("53", "986")
            + (_field("54", amount_text(valor)) if valor is not None else "") + _field("58", "BR")
            + _field("59", config.nome) + _field("60", config.cidade) + _field("62", _field("05", txid)))
    return with_crc(body)
