"""PAdES signing with an A1 certificate (PKCS#12) of the test PKI (tests/pki.py), through the library
(autos.sign.pades, autos.app.signing) and ``autos assinar``; every output judged by pyHanko's validator trusting
the test root, the visible block read back by its extracted text."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.signing import SignerSpec, assinar, load_signer, settings
from autos.cli import main
from autos.errors import SignatureError
from autos.sign import pades
from tests.pki import P12_PASSWORD
from tests.signhelp import block_texts, pdfa_pdf, pki, plain_pdf, validate  # noqa: F401 - fixtures

PASSWORD = P12_PASSWORD.decode()


def spec(identity, **kw) -> SignerSpec:
    return SignerSpec(segredo=kw.pop("segredo", PASSWORD), certificado=identity.p12, **kw)


def test_signs_with_a1_certificate_pades_b_b(pki, plain_pdf, tmp_path):
    out = tmp_path / "assinado.pdf"
    before = hashlib.sha256(plain_pdf.read_bytes()).hexdigest()
    info = assinar(plain_pdf, spec(pki.signer, cargo="Fiscal de Posturas"), out)
    assert hashlib.sha256(plain_pdf.read_bytes()).hexdigest() == before  # the original is never changed
    data = out.read_bytes()
    assert info.nivel == "PAdES B-B" and info.signatario == "MARIA DA SILVA"
    assert info.sha256 == hashlib.sha256(data).hexdigest()
    [v] = validate(pki, data)
    assert (v.intact, v.valid, v.trusted, v.bottom_line) == (True, True, True, True)
    assert v.signer_cn == "MARIA DA SILVA:12345678909" and v.coverage == "ENTIRE_FILE"
    assert b"/SubFilter /ETSI.CAdES.detached" in data  # PAdES, not adbe.pkcs7.detached
    assert data.startswith(plain_pdf.read_bytes())  # an incremental update: the original bytes come first
    [block] = block_texts(data)
    lines = block.splitlines()
    assert lines[:3] == ["Documento assinado digitalmente por", "MARIA DA SILVA", "Fiscal de Posturas"]
    assert re.fullmatch(r"em \d{1,2}º? de [a-zç]+ de \d{4}, às \d\d:\d\d \(UTC[+-]\d\d:\d\d\)", lines[3]), lines[3]
    assert "12345678909" not in block  # the CPF of the e-CPF's CN is not printed


def test_untrusted_root_is_signed_but_not_trusted_by_the_validator(pki, plain_pdf, tmp_path):
    """The validator is a real judge: a signature under a root it does not trust is intact but not trusted."""
    out = tmp_path / "assinado.pdf"
    assinar(plain_pdf, spec(pki.untrusted), out)
    [v] = validate(pki, out.read_bytes())
    assert v.intact and v.valid and not v.trusted and not v.bottom_line


def test_two_signers_in_order_keep_the_first_valid(pki, plain_pdf, tmp_path):
    first, second = tmp_path / "fiscal.pdf", tmp_path / "chefia.pdf"
    assinar(plain_pdf, spec(pki.signer, cargo="Fiscal de Posturas"), first)
    assinar(first, spec(pki.chefia, cargo="Chefe do Departamento de Fiscalização", adicionar=True), second)
    data = second.read_bytes()
    assert data.startswith(first.read_bytes())
    verdicts = validate(pki, data)
    assert [v.signer_cn for v in verdicts] == ["MARIA DA SILVA:12345678909", "JOSÉ DE SOUZA:98765432100"]
    assert all(v.intact and v.valid and v.trusted and v.bottom_line for v in verdicts)
    # the first covers its own revision; what came after is a signature only (form filling), not a change
    assert verdicts[0].coverage == "ENTIRE_REVISION" and verdicts[0].modification == "FORM_FILLING"
    assert verdicts[1].coverage == "ENTIRE_FILE"
    blocks = block_texts(data)
    assert [b.splitlines()[1:3] for b in blocks] == [["MARIA DA SILVA", "Fiscal de Posturas"],
                                                      ["JOSÉ DE SOUZA", "Chefe do Departamento de Fiscalização"]]


def test_blocks_of_several_signers_do_not_overlap(pki, plain_pdf, tmp_path):
    from pypdf import PdfReader

    path = plain_pdf
    for i, who in enumerate((pki.signer, pki.chefia, pki.signer)):
        out = tmp_path / f"{i}.pdf"
        assinar(path, spec(who, adicionar=True), out)
        path = out
    rects = [[float(x) for x in a.get_object()["/Rect"]] for a in PdfReader(path).pages[-1]["/Annots"]
             if a.get_object().get("/FT") == "/Sig"]
    assert len(rects) == 3
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert all(v.bottom_line for v in validate(pki, path.read_bytes()))


def test_pdfa_stays_pdfa(pki, pdfa_pdf, tmp_path):
    """What is checked of PDF/A-3b after signing (there is no veraPDF here): the XMP still declares pdfaid part 3,
    conformance B; the output intent is still there; the Info dictionary and the XMP agree on producer and
    modification date (pyHanko alone would leave them different); the block's font is embedded (TrueType subset
    with ToUnicode, CIDToGIDMap); the widget is printable; the original bytes are untouched (incremental update)."""
    from pypdf import PdfReader

    out = tmp_path / "pdfa-assinado.pdf"
    assinar(pdfa_pdf, spec(pki.signer, cargo="Fiscal"), out)
    data = out.read_bytes()
    assert data.startswith(pdfa_pdf.read_bytes())
    reader = PdfReader(io.BytesIO(data))
    root = reader.trailer["/Root"]
    xmp = root["/Metadata"].get_object().get_data().decode()
    assert re.search(r'pdfaid:part(="|>)3', xmp) and re.search(r'pdfaid:conformance(="|>)B', xmp)
    assert "/OutputIntents" in root and "/AF" in root  # the case file stays attached
    producer = re.search(r'pdf:Producer(?:="|>)([^"<]+)', xmp).group(1)
    assert reader.metadata["/Producer"] == producer
    mod = re.search(r'xmp:ModifyDate(?:="|>)([^"<]+)', xmp).group(1)
    assert dt.datetime.fromisoformat(mod) == reader.metadata.modification_date.replace(
        tzinfo=reader.metadata.modification_date.tzinfo or dt.UTC)
    [widget] = [a.get_object() for a in reader.pages[-1]["/Annots"] if a.get_object().get("/FT") == "/Sig"]
    assert int(widget["/F"]) & 4  # print
    fonts = widget["/AP"]["/N"].get_object()["/Resources"]["/Font"]
    for font in fonts.values():
        font = font.get_object()
        assert "/ToUnicode" in font
        descendant = font["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
        assert descendant["/CIDToGIDMap"] == "/Identity"
    [v] = validate(pki, data)
    assert v.bottom_line


def test_signature_policy_reference_is_in_the_signed_attributes(pki, plain_pdf, tmp_path):
    from pyhanko.pdf_utils.reader import PdfFileReader

    digest = hashlib.sha256(b"politica de teste").hexdigest()
    policy = f"2.16.76.1.7.1.11.1.1,sha256:{digest},http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_1.der"
    out = tmp_path / "politica.pdf"
    assinar(plain_pdf, spec(pki.signer, politica=policy), out)
    [sig] = PdfFileReader(io.BytesIO(out.read_bytes())).embedded_signatures
    attrs = {a["type"].native: a["values"][0] for a in sig.signer_info["signed_attrs"]}
    pid = attrs["signature_policy_identifier"].chosen
    assert pid["sig_policy_id"].dotted == "2.16.76.1.7.1.11.1.1"
    assert pid["sig_policy_hash"]["digest"].native.hex() == digest
    assert pid["sig_policy_hash"]["digest_algorithm"]["algorithm"].native == "sha256"
    assert pid["sig_policy_qualifiers"][0]["sig_qualifier"].native.endswith("PA_PAdES_AD_RB_v1_1.der")
    assert validate(pki, out.read_bytes())[0].bottom_line


@pytest.mark.parametrize(("text", "words"), [
    ("2.16.76.1.7.1.11.1.1", "ilegível"),
    ("abc,sha256:00", "ilegível"),
    ("2.16.76.1.7.1.11.1.1,sha256:abcd", "hash da política"),
    ("2.16.76.1.7.1.11.1.1,md5:" + "0" * 32, "hash da política"),
])
def test_bad_policy_is_refused(text, words):
    with pytest.raises(SignatureError, match=words):
        pades.SignaturePolicy.parse(text)


def test_timestamp_gives_b_t_and_validation_info_b_lt(pki, plain_pdf, tmp_path):
    """B-T with a TSA (pyHanko's in-process TSA, with a timestamping certificate of the test intermediate) and
    B-LT when trust anchors are given: the signature carries the timestamp token, the DSS the CRL."""
    from asn1crypto import keys
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

    from tests.signhelp import asn1

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    now = dt.datetime.now(dt.UTC)
    tsa = (x509.CertificateBuilder()
           .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Carimbo do Tempo de Teste")]))
           .issuer_name(pki.intermediate.cert.subject).public_key(key.public_key())
           .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
           .not_valid_after(now + dt.timedelta(days=30))
           .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
           .sign(pki.intermediate.key, hashes.SHA256()))
    from asn1crypto import x509 as ax509

    stamper = DummyTimeStamper(
        tsa_cert=ax509.Certificate.load(tsa.public_bytes(serialization.Encoding.DER)),
        tsa_key=keys.PrivateKeyInfo.load(key.private_bytes(serialization.Encoding.DER,
                                                           serialization.PrivateFormat.PKCS8,
                                                           serialization.NoEncryption())),
        certs_to_embed=[asn1(pki.intermediate)])
    loaded = load_signer(spec(pki.signer))
    try:
        crl = pki.crl_der.read_bytes()
        vc = pades.validation_context([pki.root_pem], [crl], fetch=False, others=loaded.chain)
        data = plain_pdf.read_bytes()
        b_t = pades.sign_pdf(data, loaded, pades.SignSettings(timestamper=stamper))
        b_lt_settings = pades.SignSettings(timestamper=stamper, validation=vc)
        b_lt = pades.sign_pdf(data, loaded, b_lt_settings)
    finally:
        loaded.close()
    assert b_lt_settings.level == "PAdES B-LT"
    for signed in (b_t, b_lt):
        [sig] = PdfFileReader(io.BytesIO(signed)).embedded_signatures
        unsigned = {a["type"].native for a in sig.signer_info["unsigned_attrs"]}
        assert "signature_time_stamp_token" in unsigned  # the signature timestamp (B-T)
        assert validate(pki, signed)[0].intact
    reader = PdfFileReader(io.BytesIO(b_lt))
    assert "/DSS" in reader.root and "/CRLs" in reader.root["/DSS"]
    assert "/DSS" not in PdfFileReader(io.BytesIO(b_t)).root


def test_revoked_in_a_given_crl_is_refused_with_trust_anchors_too(pki, plain_pdf):
    """The autos' own check of the CRLs given (pyHanko's signing-time validation, in soft-fail mode, does not look
    up the revocation of a certificate that names no distribution point, as the test PKI's)."""
    loaded = pades.load_pkcs12(pki.revoked.p12, P12_PASSWORD)
    vc = pades.validation_context([pki.root_pem], [pki.crl_der.read_bytes()], fetch=False, others=loaded.chain)
    with pytest.raises(SignatureError, match="REVOGADO"):
        pades.sign_pdf(plain_pdf.read_bytes(), loaded, pades.SignSettings(validation=vc,
                                                                          crls=(pki.crl_der.read_bytes(),)))


# --- bad input: a clear message in Portuguese, exit 2, the original unchanged ------------------------------


def _encrypted(plain: Path, folder: Path) -> Path:
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter(clone_from=PdfReader(plain))
    w.encrypt("usuario", "dono")
    out = folder / "criptografado.pdf"
    with open(out, "wb") as fh:
        w.write(fh)
    return out


def _damaged(plain: Path, folder: Path) -> Path:
    data = plain.read_bytes()
    out = folder / "danificado.pdf"
    out.write_bytes(data[:200] + b"\x00" * 50 + data[len(data) // 2:len(data) // 2 + 300])
    return out


def _signed(pki, plain: Path, folder: Path) -> Path:
    out = folder / "ja-assinado.pdf"
    assinar(plain, spec(pki.signer), out)
    return out


def _not_pdf(plain: Path, folder: Path) -> Path:
    out = folder / "texto.pdf"
    out.write_text("isto não é um PDF\n")
    return out


BAD = [
    # (id, certificate, password, pdf maker, extra options, words of the message)
    ("senha-errada", "signer", "senha-errada", None, [], ["senha do certificado está errada"]),
    ("vencido", "expired", None, None, [], ["venceu em", "certificado vencido", "ANTÔNIO VENCIDO"]),
    ("revogado-lcr", "revoked", None, None, ["--lcr", "{crl}"], ["REVOGADO", "PEDRO REVOGADO"]),
    ("sem-uso-de-assinatura", "no_signing_usage", None, None, [], ["não permite assinatura digital"]),
    ("criptografado", "signer", None, _encrypted, [], ["protegido por senha"]),
    ("danificado", "signer", None, _damaged, [], ["danificado"]),
    ("nao-e-pdf", "signer", None, _not_pdf, [], ["não é um PDF"]),
    ("ja-assinado", "signer", None, "signed", [], ["já está assinado", "--adicionar"]),
    ("politica-ilegivel", "signer", None, None, ["--politica", "1.2.3"], ["política de assinatura"]),
    ("certificado-ausente", "missing", None, None, [], ["não pode ser lido"]),
    ("raiz-nao-confiavel", "untrusted", None, None, ["--confianca", "{root}", "--sem-busca-revogacao"],
     ["âncora de confiança"]),
]


@pytest.mark.parametrize(("who", "password", "maker", "extra", "words"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_bad_input_refused_with_exit_2(pki, plain_pdf, tmp_path, who, password, maker, extra, words):
    pdf = plain_pdf
    if maker == "signed":
        pdf = _signed(pki, plain_pdf, tmp_path)
    elif maker is not None:
        pdf = maker(plain_pdf, tmp_path)
    before = pdf.read_bytes()
    cert = tmp_path / "nao-existe.p12" if who == "missing" else getattr(pki, who).p12
    secret = tmp_path / "senha.txt"
    secret.write_text((password or PASSWORD) + "\n")
    out = tmp_path / "saida.pdf"
    args = ["assinar", str(pdf), "--certificado", str(cert), "--senha-arquivo", str(secret), "--saida", str(out),
            *[a.format(crl=pki.crl_der, root=pki.root_pem) for a in extra]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    for w in words:
        assert w in result.output, (w, result.output)
    assert "Como corrigir" in result.output
    assert pdf.read_bytes() == before
    assert not out.exists() and not list(tmp_path.glob(".*.tmp"))


def test_refuses_to_overwrite_the_input(pki, plain_pdf, tmp_path):
    copy = tmp_path / "doc.pdf"
    copy.write_bytes(plain_pdf.read_bytes())
    result = CliRunner().invoke(main, ["assinar", str(copy), "--certificado", str(pki.signer.p12), "--saida",
                                       str(copy)], env={"AUTOS_SENHA_CERTIFICADO": PASSWORD})
    assert result.exit_code == 2 and "por cima do original" in result.output
    assert copy.read_bytes() == plain_pdf.read_bytes()


def test_cli_password_from_environment_and_default_output(pki, plain_pdf, tmp_path):
    copy = tmp_path / "doc.pdf"
    copy.write_bytes(plain_pdf.read_bytes())
    result = CliRunner().invoke(main, ["assinar", str(copy), "--certificado", str(pki.signer.p12), "--cargo",
                                       "Fiscal"], env={"AUTOS_SENHA_CERTIFICADO": PASSWORD})
    assert result.exit_code == 0, result.output
    out = tmp_path / "doc-assinado.pdf"
    assert f"assinado: {out}" in result.output and "MARIA DA SILVA" in result.output
    assert "PAdES B-B" in result.output
    assert validate(pki, out.read_bytes())[0].bottom_line


def test_cli_has_no_password_option():
    """The password never goes on the command line (it would be in the shell history and in ps)."""
    from autos.cli.signing import assinar as command

    names = {opt for p in command.params for opt in getattr(p, "opts", [])}
    assert not names & {"--senha", "--password", "--pin"}
    result = CliRunner().invoke(main, ["assinar", "x.pdf", "--senha", "x"])
    assert result.exit_code == 2 and "--senha" in result.output


def test_cli_without_terminal_or_secret_says_how(pki, plain_pdf, tmp_path):
    result = CliRunner().invoke(main, ["assinar", str(plain_pdf), "--certificado", str(pki.signer.p12), "--saida",
                                       str(tmp_path / "o.pdf")], env={"AUTOS_SENHA_CERTIFICADO": ""})
    assert result.exit_code == 2 and "--senha-arquivo" in result.output


def test_signer_loaded_once_signs_many(pki, plain_pdf):
    loaded = load_signer(spec(pki.signer))
    how = settings(spec(pki.signer), loaded)
    outs = [pades.sign_pdf(plain_pdf.read_bytes(), loaded, how) for _ in range(3)]
    assert all(validate(pki, o)[0].bottom_line for o in outs)


def _text_baselines(data: bytes) -> list[float]:
    """Baselines of the last page's text, from pypdf's own text extraction (its matrices, not the signer's)."""
    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(data)).pages[-1]
    ys: list[float] = []

    def seen(text, cm, tm, _fd, _fs):
        if text.strip():
            ys.append(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])

    page.extract_text(visitor_text=seen)
    return ys


def test_blocks_cover_no_text_of_the_page(pki, pdfa_pdf, tmp_path):
    """On a generated document (footer with the page number, text ending mid-page) the blocks of two signers sit
    between the footer and the end of the text: no line of the page's text runs through a block."""
    from pypdf import PdfReader

    first, second = tmp_path / "1.pdf", tmp_path / "2.pdf"
    assinar(pdfa_pdf, spec(pki.signer, cargo="Fiscal"), first)
    assinar(first, spec(pki.chefia, cargo="Chefe", adicionar=True), second)
    data = second.read_bytes()
    baselines = _text_baselines(pdfa_pdf.read_bytes())
    rects = [[float(v) for v in a.get_object()["/Rect"]] for a in PdfReader(io.BytesIO(data)).pages[-1]["/Annots"]
             if a.get_object().get("/FT") == "/Sig"]
    assert len(rects) == 2
    for x1, y1, x2, y2 in rects:
        inside = [y for y in baselines if y1 - 2 <= y <= y2 + 8]
        assert not inside, (y1, y2, inside)
        assert y1 > min(baselines)  # above the footer, not at the page's edge


def test_signs_inside_a_running_event_loop(pki, plain_pdf):
    """pyHanko's synchronous API uses asyncio.run: called from a coroutine (a web handler) it would fail; the signer
    then runs it in a thread of its own."""
    import asyncio

    loaded = load_signer(spec(pki.signer))

    async def inside() -> bytes:
        return pades.sign_pdf(plain_pdf.read_bytes(), loaded, pades.SignSettings())

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:  # a thread of its own: the test's loop is the only one there
        data = pool.submit(lambda: asyncio.run(inside())).result()
    assert validate(pki, data)[0].bottom_line


def test_a_font_subset_that_cannot_be_written_leaves_no_temporary_file(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """No room for the block's font subset (a full temporary folder): the whole font is used, nothing is left."""
    import tempfile

    from fontTools.ttLib import TTFont

    font = next((f for f in pades._FONT_CANDIDATES if Path(f).is_file()), None)
    if font is None:
        pytest.skip("DejaVu Sans não instalada")

    def full(self: TTFont, file: object, *args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(TTFont, "save", full)
    monkeypatch.setattr(pades, "_SUBSETS", {})
    assert pades._latin_subset(font) == font
    assert list(tmp_path.iterdir()) == []
