"""PIX "copia e cola" of the demonstrativo de débito: the static BR Code per the Banco Central's
Manual de Padrões para Iniciação do Pix, the keys accepted, the configuration refused with the file and the key,
and the block in the document (checked by extracted text; the QR by the payload handed to segno)."""

from __future__ import annotations

import binascii
import shutil
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main
from autos.documents.pix import (
    PixConfig,
    PixKey,
    amount_text,
    br_code,
    crc16_ccitt_false,
    parse_config,
    parse_key,
    txid_of,
)
from autos.errors import PixConfigError
from autos.render.verification import qr_png

from .conftest import ROOT, SAMPLES
from .textutil import document_text

SAMPLE = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml"
#: the example of a static BR Code in the Banco Central's manual (random key, no amount, no txid): the payload
#: and its CRC as published (also quoted by brazilian-utils' isValidPixPayload documentation)
BCB_EXAMPLE = ("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
               "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D")


def test_crc16_ccitt_false_check_value_and_an_independent_implementation() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1  # the catalogue's check value of CRC-16/CCITT-FALSE
    for data in (b"", b"6304", BCB_EXAMPLE.encode()):
        assert crc16_ccitt_false(data) == binascii.crc_hqx(data, 0xFFFF)  # the stdlib's CCITT CRC, init 0xFFFF


def test_the_central_bank_manual_example_is_reproduced() -> None:
    config = PixConfig(PixKey("123e4567-e12b-12d1-a456-426655440000", "chave aleatória"), "Fulano de Tal", "BRASILIA")
    assert br_code(config, None, "***") == BCB_EXAMPLE


def test_a_br_code_worked_out_by_hand() -> None:
    """Timóteo's CNPJ key, R$ 2.500,00 and the processo SIM-2026/000150, field by field."""
    config = parse_config("18.299.446/0001-24", "Município de Timóteo", "Timóteo")
    fields = ["000201",
              "2636" + "0014br.gov.bcb.pix" + "011418299446000124",
              "52040000", "5303986", "54072500.00", "5802BR",
              "5920Municipio de Timoteo",  # name without accents (the BR Code is ASCII), 20 characters
              "6007TIMOTEO",  # city without accents, in capitals (as the manual recommends)
              "6217" + "0513SIM2026000150",  # txid: the processo's letters and digits
              "6304"]
    head = "".join(fields)
    crc = f"{binascii.crc_hqx(head.encode(), 0xFFFF):04X}"
    assert br_code(config, Decimal("2500"), txid_of("SIM-2026/000150")) == head + crc


@pytest.mark.parametrize(("valor", "texto"), [
    (Decimal("2500"), "2500.00"), (Decimal("0.01"), "0.01"), (Decimal("10.005"), "10.01"),
    (Decimal("10.0049"), "10.00"), (Decimal("6247.745"), "6247.75"), (Decimal("9999999999.99"), "9999999999.99"),
])
def test_amount_has_two_decimals_rounded_half_up(valor: Decimal, texto: str) -> None:
    assert amount_text(valor) == texto


@pytest.mark.parametrize("valor", [Decimal("0"), Decimal("-1"), Decimal("0.004"), Decimal("10000000000")])
def test_amount_out_of_range_is_refused(valor: Decimal) -> None:
    with pytest.raises(ValueError):
        amount_text(valor)


@pytest.mark.parametrize(("typed", "valor", "tipo"), [
    ("251.983.460-98", "25198346098", "CPF"),
    ("25198346098", "25198346098", "CPF"),
    ("18.299.446/0001-24", "18299446000124", "CNPJ"),
    ("tesouraria@timoteo.mg.gov.br", "tesouraria@timoteo.mg.gov.br", "e-mail"),
    ("+5531999998888", "+5531999998888", "telefone"),
    ("+553138481000", "+553138481000", "telefone"),
    ("123e4567-e12b-12d1-a456-426655440000", "123e4567-e12b-12d1-a456-426655440000", "chave aleatória"),
])
def test_keys_accepted(typed: str, valor: str, tipo: str) -> None:
    assert parse_key(typed) == PixKey(valor, tipo)


@pytest.mark.parametrize(("typed", "words"), [
    ("251.983.460-97", "não é um CPF válido"),
    ("18.299.446/0001-25", "não é um CNPJ válido"),
    ("1829944600012", "13 algarismos"),
    ("(31) 99999-8888", "não é CPF, CNPJ, e-mail, telefone"),
    ("5531999998888", "13 algarismos"),
    ("+1415555010", "não é um telefone no formato do PIX"),
    ("+55319999988881", "não é um telefone"),
    ("tesouraria@", "não é um e-mail válido"),
    ("123e4567-e12b-12d1-a456-42665544000", "não é CPF, CNPJ"),
    ("", "vazia"),
])
def test_keys_refused_in_portuguese(typed: str, words: str) -> None:
    with pytest.raises(PixConfigError) as err:
        parse_key(typed)
    assert words in str(err.value) and err.value.key == "chave"


def test_name_and_city_limits_are_refused_never_cut() -> None:
    assert parse_config("25198346098", "Fundo Municipal de Saúde", "São Gonçalo").cidade == "SAO GONCALO"
    with pytest.raises(PixConfigError) as err:
        parse_config("25198346098", "Prefeitura Municipal de Ferraz de Vasconcelos", "Ferraz")
    assert err.value.key == "nome" and "até 25" in str(err.value)
    with pytest.raises(PixConfigError) as err:
        parse_config("25198346098", "PMFV", "Ferraz de Vasconcelos")
    assert err.value.key == "cidade" and "até 15" in str(err.value)


def test_txid_is_the_processo_letters_and_digits() -> None:
    assert txid_of("SIM-2026/000150") == "SIM2026000150"
    assert txid_of("PM-FV-2026/005377") == "PMFV2026005377"
    assert txid_of("") == "***"
    assert len(txid_of("X" * 40)) == 25


# --------------------------------------------------------------------------------------------------
# the demonstrativo


TIMBRE = """pix:
  chave: "18.299.446/0001-24"
  nome: Município de Timóteo
  cidade: Timóteo
"""


def _templates(tmp: Path, timbre: str) -> Path:
    folder = tmp / "modelos"
    shutil.copytree(ROOT / "templates", folder)
    (folder / "html" / "timbre" / "timoteo-mg").mkdir(parents=True)
    (folder / "html" / "timbre" / "timoteo-mg" / "timbre.yaml").write_text(timbre, encoding="utf-8")
    return folder


def _official_rules(tmp: Path) -> Path:
    """The rules with the UPFMT of 2026 as if the Municipality had fixed it (the shipped one is an EXAMPLE, and an
    amount computed with it gets no payment code)."""
    folder = tmp / "regras"
    shutil.copytree(ROOT / "rules", folder)
    law = folder / "timoteo-mg" / "lei-3844-2022.yaml"
    text = law.read_text(encoding="utf-8")
    old = ('      fonte: "Valor de exemplo — substituir pelo valor da UPFMT fixado por decreto municipal para 2026"\n'
           "      exemplo: true\n")
    assert old in text
    new = '      fonte: "Decreto municipal da UPFMT de 2026 (teste)"\n      exemplo: false\n'
    law.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _gerar(tmp: Path, modelos: Path | None, ato: int, regras: Path | None = None) -> tuple[int, str, Path]:
    out = tmp / f"saida-{ato}"
    args = ["--regras", str(regras or ROOT / "rules"), "--hoje", "2026-11-30"]
    if modelos is not None:
        args += ["--modelos", str(modelos)]
    result = CliRunner().invoke(main, [*args, "gerar", str(SAMPLE), "--ato", str(ato), "-o", str(out)],
                                env={"AUTOS_REGISTRO": None})
    return result.exit_code, result.output, out


@pytest.fixture(scope="module")
def modelos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _templates(tmp_path_factory.mktemp("pix"), TIMBRE)


def test_demonstrativo_after_a_reduced_fine_carries_the_br_code_and_its_qr(modelos: Path, tmp_path: Path) -> None:
    """Act 8 of the sample: the demonstrativo after the appeal reduced the fine to 500 UPFMT (its amount in the law's
    unit, art. 16, II), with the UPFMT of 2026 fixed by the Municipality: 500 × R$ 5,0770 = R$ 2.538,50."""
    code, out, folder = _gerar(tmp_path, modelos, 8, _official_rules(tmp_path))
    assert code == 0, out
    expected = br_code(parse_config("18.299.446/0001-24", "Município de Timóteo", "Timóteo"), Decimal("2538.50"),
                       "SIM2026000150")
    paths = sorted(folder.glob("demonstrativo-*"))
    assert [p.suffix for p in paths] == [".docx", ".pdf"]
    for path in paths:
        text = document_text(path)
        assert "PAGAMENTO POR PIX" in text and "PIX copia e cola:" in text, path.name
        # the payload, whole (a PDF line break inside it comes back from pypdf as a space)
        assert expected.replace(" ", "") in text.replace(" ", ""), path.name
        assert "Chave PIX (CNPJ): 18299446000124" in text and "Identificador (processo): SIM2026000150" in text
        assert "Recebedor: Municipio de Timoteo — TIMOTEO" in text
    docx_file = next(folder.glob("demonstrativo-*.docx"))
    media = [zipfile.ZipFile(docx_file).read(n) for n in zipfile.ZipFile(docx_file).namelist()
             if n.startswith("word/media/")]
    assert qr_png(expected) in media  # the PIX QR is the BR Code, byte for byte


def test_demonstrativo_with_an_example_unit_value_gets_no_payment_code(modelos: Path, tmp_path: Path,
                                                                      shipped_examples: None) -> None:
    """Act 4: the amount computed with the EXAMPLE value of the UPFMT is not the Municipality's: no code."""
    code, out, folder = _gerar(tmp_path, modelos, 4)
    assert code == 0, out
    paths = sorted(folder.glob("demonstrativo-*"))
    assert [p.suffix for p in paths] == [".docx", ".pdf"]
    for path in paths:
        text = document_text(path)
        # a MINUTA (the example UPFMT named on its face) carries no payment code
        assert "MINUTA" in path.name and "valor da UPFMT de 2026 é de exemplo" in text, path.name
        assert "PIX copia e cola" not in text and "br.gov.bcb.pix" not in text, path.name


def test_a_reduction_converted_at_an_example_unit_value_gets_no_payment_code(modelos: Path, tmp_path: Path,
                                                                              shipped_examples: None) -> None:
    """Act 7 with the shipped rules: the reduced 500 UPFMT in reais is computed with the EXAMPLE UPFMT: no code."""
    code, out, folder = _gerar(tmp_path, modelos, 8)
    assert code == 0, out
    for path in sorted(folder.glob("demonstrativo-*")):
        text = document_text(path)
        assert "valor da UPFMT de 2026 é de exemplo" in text and "br.gov.bcb.pix" not in text, path.name
        assert "500 (quinhentas) UPFMT" in text, path.name


def test_no_key_configured_no_pix_block(tmp_path: Path) -> None:
    code, out, folder = _gerar(tmp_path, None, 8)
    assert code == 0, out
    for path in sorted(folder.iterdir()):
        assert "PIX" not in document_text(path), path.name


@pytest.mark.parametrize(("timbre", "words"), [
    ('pix:\n  chave: "251.983.460-97"\n  nome: PMT\n  cidade: Timóteo\n', ["pix.chave", "não é um CPF válido"]),
    ('pix:\n  chave: "25198346098"\n  nome: Prefeitura Municipal de Timóteo MG\n  cidade: Timóteo\n',
     ["pix.nome", "até 25"]),
    ('pix:\n  chave: "25198346098"\n  nome: PMT\n', ["pix", "'chave', 'nome' e 'cidade'"]),
    ('pix:\n  chave: "+55 31 99999-8888"\n  nome: PMT\n  cidade: Timóteo\n', ["pix.chave", "telefone", "+55"]),
    ('pix:\n  chave: "25198346098"\n  nome: PMT\n  cidade: Ferraz de Vasconcelos\n', ["pix.cidade", "até 15"]),
    ('url_verificacao: "https://www.timoteo.mg.gov.br/verificar"\n', ["url_verificacao", "{codigo}"]),
    ('url_verificacao: "ftp://timoteo/{codigo}"\n', ["url_verificacao", "http://"]),
])
def test_bad_configuration_is_refused_with_file_key_and_line(tmp_path: Path, timbre: str, words: list[str]) -> None:
    code, out, folder = _gerar(tmp_path, _templates(tmp_path, timbre), 8)
    assert code == 2, out
    assert "timbre.yaml" in out and "linha" in out, out
    for w in words:
        assert w in out, (w, out)
    assert not folder.exists() or not any(folder.iterdir())
