"""Signing through a real PKCS#11 token: SoftHSM2 (Debian's softhsm2, installed by .ci/run), a token made in a
temporary folder with the test signer's key (softhsm2-util --import) and certificate (python-pkcs11). Skipped only
when SoftHSM2 is missing and AUTOS_SOFTHSM_OBRIGATORIO is not 1 (CI sets it: there the tests fail instead)."""

from __future__ import annotations

import hashlib

import pytest
from click.testing import CliRunner

from autos.app.signing import SignerSpec, assinar
from autos.cli import main
from tests.signhelp import Token, block_texts, make_token, pki, plain_pdf, require_softhsm, validate  # noqa: F401

pytestmark = pytest.mark.xdist_group("softhsm")  # one token folder per process; kept on one worker


@pytest.fixture(scope="module")
def token(pki, tmp_path_factory) -> Token:  # noqa: F811
    require_softhsm()
    return make_token(tmp_path_factory.mktemp("softhsm"), pki.signer)


def _spec(token: Token, **kw) -> SignerSpec:
    return SignerSpec(segredo=kw.pop("pin", token.pin), pkcs11=token.lib, token=kw.pop("label", token.label),
                      chave=kw.pop("chave", token.key_label), **kw)


def test_signs_through_the_token(pki, plain_pdf, token, tmp_path):  # noqa: F811
    out = tmp_path / "token.pdf"
    info = assinar(plain_pdf, _spec(token, cargo="Fiscal de Posturas"), out)
    assert info.signatario == "MARIA DA SILVA"
    [v] = validate(pki, out.read_bytes())
    assert v.intact and v.valid and v.trusted and v.bottom_line
    assert v.signer_cn == "MARIA DA SILVA:12345678909"
    assert block_texts(out.read_bytes())[0].splitlines()[1:3] == ["MARIA DA SILVA", "Fiscal de Posturas"]


def test_token_then_a1_second_signer(pki, plain_pdf, token, tmp_path):  # noqa: F811
    first, second = tmp_path / "1.pdf", tmp_path / "2.pdf"
    assinar(plain_pdf, _spec(token), first)
    assinar(first, SignerSpec(segredo="senha-de-teste", certificado=pki.chefia.p12, adicionar=True), second)
    assert [v.bottom_line for v in validate(pki, second.read_bytes())] == [True, True]


@pytest.mark.parametrize(("change", "words"), [
    ({"pin": "000000"}, ["PIN incorreto", "bloqueado"]),
    ({"label": "token-que-nao-existe"}, ["nenhum token com o rótulo 'token-que-nao-existe'", "conecte"]),
    ({"chave": "outra-chave"}, ["'outra-chave' não está no token"]),
    ({"lib": "/nao/existe/libeTPkcs11.so"}, ["biblioteca PKCS#11", "não foi encontrada"]),
], ids=["pin-errado", "token-ausente", "chave-ausente", "biblioteca-ausente"])
def test_token_problems_exit_2(pki, plain_pdf, token, tmp_path, change, words):  # noqa: F811
    before = hashlib.sha256(plain_pdf.read_bytes()).hexdigest()
    pin_file = tmp_path / "pin.txt"
    pin_file.write_text(change.get("pin", token.pin) + "\n")
    out = tmp_path / "o.pdf"
    result = CliRunner().invoke(main, [
        "assinar", str(plain_pdf), "--pkcs11", str(change.get("lib", token.lib)),
        "--token", change.get("label", token.label), "--chave", change.get("chave", token.key_label),
        "--senha-arquivo", str(pin_file), "--saida", str(out)])
    assert result.exit_code == 2, result.output
    for w in words:
        assert w in result.output, (w, result.output)
    assert not out.exists()
    assert hashlib.sha256(plain_pdf.read_bytes()).hexdigest() == before


def test_cli_pin_from_environment(pki, plain_pdf, token, tmp_path):  # noqa: F811
    out = tmp_path / "env.pdf"
    result = CliRunner().invoke(main, ["assinar", str(plain_pdf), "--pkcs11", str(token.lib), "--token",
                                       token.label, "--chave", token.key_label, "--saida", str(out)],
                                env={"AUTOS_SENHA_CERTIFICADO": token.pin})
    assert result.exit_code == 0, result.output
    assert validate(pki, out.read_bytes())[0].bottom_line


def test_batch_through_the_token_in_a_process_pool(pki, token, tmp_path):  # noqa: F811
    """publicar-editais --assinar --pkcs11 with 2 worker processes: each forked worker initialises the PKCS#11
    library again and opens its own session (once), and every PDF is signed through the token."""
    from autos.app.editais.publish import Publisher
    from autos.store.ledger import Ledger
    from tests.test_publish import options

    out = tmp_path / "editais"
    result = Publisher(options(out, workers=2, assinar=_spec(token, cargo="Diretor"))).run()
    assert result.erro is None and result.publicados
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        pdfs = [e.saida / f.caminho for e in led.editais() for f in e.arquivos if f.caminho.endswith(".pdf")]
    assert pdfs
    for pdf in pdfs:
        [v] = validate(pki, pdf.read_bytes())
        assert v.bottom_line and v.signer_cn == "MARIA DA SILVA:12345678909", pdf
