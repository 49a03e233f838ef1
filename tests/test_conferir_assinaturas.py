"""``autos conferir DOC.pdf``: every signature the PDF carries.

Data-driven: each case is a PDF built here (signed with pyHanko's Python API, or with pyHanko's own command line —
"a PDF signed by a different tool"), the trust given to ``conferir``, the exit code and the words the text must
contain; the same run with ``--json`` must agree with it. The PKI is made at test time (tests/pki.py)."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from click.testing import CliRunner
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import signers
from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper
from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from autos.cli import main
from autos.errors import InputError
from autos.sign.validate import Changes, Revocation, load_trust, split_icp_name, validate_signatures
from autos.store.ledger import Ledger
from tests.pki import P12_PASSWORD, Identity, Pki, build_pki

T = TypeVar("T")


def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` in a thread of its own. pyHanko's synchronous signing calls asyncio.run(), which fails in a
    thread where an event loop is running — as in the xdist worker that ran the browser tests (Playwright's sync
    API keeps its loop running for the whole session)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args).result()


def make_pdf(text: str = "AUTO DE INFRACAO 17/2026") -> bytes:
    """A one-page PDF whose page shows ``text`` (Helvetica), unsigned."""
    w = PdfWriter()
    page = w.add_blank_page(595, 842)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): w._add_object(font)})})
    content = DecodedStreamObject()
    content.set_data(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode())
    page[NameObject("/Contents")] = w._add_object(content)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def sign(data: bytes, who: Identity, field_name: str = "Sig1") -> bytes:
    """Sign ``data`` with pyHanko's Python API (the PKCS#12 file of ``who``), as an incremental update."""
    assert who.p12 is not None
    signer = signers.SimpleSigner.load_pkcs12(str(who.p12), passphrase=P12_PASSWORD)
    assert signer is not None
    out = off_loop(lambda: signers.sign_pdf(IncrementalPdfFileWriter(io.BytesIO(data)),
                                            signers.PdfSignatureMetadata(field_name=field_name), signer=signer))
    return out.getvalue()


def sign_with_pyhanko_cli(data: bytes, who: Identity, folder: Path) -> bytes:
    """Sign with pyHanko's own command line (``pyhanko sign addsig … pkcs12``), PAdES: another tool's output."""
    assert who.p12 is not None
    src, dst, passfile = folder / "cli-in.pdf", folder / "cli-out.pdf", folder / "cli-pass.txt"
    src.write_bytes(data)
    passfile.write_bytes(P12_PASSWORD)
    subprocess.run([sys.executable, "-m", "pyhanko", "sign", "addsig", "--field", "Sig1", "--use-pades", "pkcs12",
                    "--passfile", str(passfile), str(src), str(dst), str(who.p12)], check=True, capture_output=True)
    return dst.read_bytes()


def change_page_after_signing(data: bytes) -> bytes:
    """Append an incremental update that adds text to the first page's content (a change after the signature)."""
    w = IncrementalPdfFileWriter(io.BytesIO(data))
    page = w.root["/Pages"]["/Kids"][0].get_object()
    extra = w.add_object(generic.StreamObject(stream_data=b"BT /F1 12 Tf 72 690 Td (MULTA ALTERADA) Tj ET"))
    page["/Contents"] = generic.ArrayObject([page.raw_get("/Contents"), extra])
    w.update_container(page)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def corrupt_signature_container(data: bytes) -> bytes:
    """Zero the first bytes of the signature's CMS container (/Contents): the PDF reads, the signature does not."""
    out = bytearray(data)
    start = out.index(b"/Contents <") + len(b"/Contents <")
    out[start:start + 8] = b"00000000"
    return bytes(out)


def encrypt(data: bytes) -> bytes:
    w = PdfWriter(clone_from=io.BytesIO(data))
    w.encrypt("senha-do-pdf", algorithm="AES-128")
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def _tsa(issuer: Identity, cn: str = "ACT de Teste") -> DummyTimeStamper:
    """A timestamp authority (RFC 3161) whose certificate ``issuer`` signs: pyHanko's in-process test TSA."""
    now = dt.datetime.now(dt.UTC)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)]))
            .issuer_name(issuer.cert.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1000)).not_valid_after(now + dt.timedelta(days=1000))
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
            .sign(issuer.key, hashes.SHA256()))

    def der(c: x509.Certificate) -> asn1_x509.Certificate:
        return asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))

    key_info = asn1_keys.PrivateKeyInfo.load(key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return DummyTimeStamper(der(cert), key_info, [der(issuer.cert), *(der(c) for c in issuer.chain)])


def sign_with_timestamp(data: bytes, who: Identity, tsa: DummyTimeStamper,
                        when: dt.datetime | None = None) -> bytes:
    """Sign with a signature timestamp token from ``tsa`` (at ``when``, if given: a token from the past)."""
    assert who.p12 is not None
    signer = signers.SimpleSigner.load_pkcs12(str(who.p12), passphrase=P12_PASSWORD)
    assert signer is not None
    tsa.fixed_dt = when
    pdf_signer = signers.PdfSigner(signers.PdfSignatureMetadata(field_name="Sig1"), signer=signer, timestamper=tsa)
    return off_loop(lambda: pdf_signer.sign_pdf(IncrementalPdfFileWriter(io.BytesIO(data)))).getvalue()


def add_document_timestamp(data: bytes, tsa: DummyTimeStamper) -> bytes:
    tsa.fixed_dt = None
    out = off_loop(lambda: signers.PdfTimeStamper(tsa).timestamp_pdf(IncrementalPdfFileWriter(io.BytesIO(data)),
                                                                     "sha256"))
    return out.getvalue()


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return build_pki(tmp_path_factory.mktemp("pki"))


@dataclass
class Case:
    id: str
    build: Callable[[Pki, Path], bytes]
    code: int
    words: list[str]
    #: --confiar / --lcr: "root" is the test root, "crl" the intermediate's CRL
    crl: bool = False
    #: per signature: (valid, chain, revocation, changes after it)
    json_sigs: list[tuple[bool, str, str, str]] = field(default_factory=list)
    changed_after_last: bool = False


def _base(pki: Pki, folder: Path) -> bytes:
    return make_pdf()


CASES = [
    Case("valida", lambda p, f: sign(_base(p, f), p.signer), 0,
         ["Assinatura 1 de 1 (campo Sig1): VÁLIDA — MARIA DA SILVA (CPF 123.456.789-09)", "íntegra",
          "certificado emitido por AC Intermediária de Teste", "cadeia confiável até AC Raiz de Teste",
          "certificado válido na data da assinatura", "revogação: não verificada (sem LCR configurada)",
          "(horário de Brasília, declarado pelo signatário)", "cobre o documento inteiro",
          "O documento não foi alterado depois da última assinatura.", "CONFERE: 1 assinatura válida"],
         json_sigs=[(True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("valida-com-lcr", lambda p, f: sign(_base(p, f), p.signer), 0,
         ["VÁLIDA — MARIA DA SILVA", "LCR: intermediaria.crl",
          "revogação: certificado do signatário não revogado segundo a LCR"], crl=True,
         json_sigs=[(True, "confiavel", "signatario_nao_revogado", "nenhuma")]),
    Case("outra-ferramenta-cli-pyhanko", lambda p, f: sign_with_pyhanko_cli(_base(p, f), p.chefia, f), 0,
         ["Assinatura 1 de 1 (campo Sig1): VÁLIDA — JOSÉ DE SOUZA (CPF 987.654.321-00)",
          "cadeia confiável até AC Raiz de Teste", "cobre o documento inteiro", "CONFERE"],
         json_sigs=[(True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("vencido", lambda p, f: sign(_base(p, f), p.expired), 1,
         ["NÃO VÁLIDA — ANTÔNIO VENCIDO (CPF 111.444.777-35)", "certificado VENCIDO na data da assinatura",
          "NÃO CONFERE: 1 de 1 assinatura não é válida"],
         json_sigs=[(False, "vencido", "nao_se_aplica", "nenhuma")]),
    # the signed bytes edited in place (same length, so the byte range still fits): the hash no longer matches
    Case("bytes-assinados-adulterados",
         lambda p, f: sign(_base(p, f), p.signer).replace(b"(AUTO DE INFRACAO 17/2026)", b"(AUTO DE INFRACAO 71/2026)"),
         1, ["NÃO VÁLIDA — MARIA DA SILVA", "NÃO íntegra: o conteúdo assinado foi modificado",
             "cadeia não avaliada", "NÃO CONFERE: 1 de 1 assinatura não é válida."],
         json_sigs=[(False, "nao_avaliada", "nao_se_aplica", "nenhuma")]),
    Case("conteiner-da-assinatura-corrompido", lambda p, f: corrupt_signature_container(sign(_base(p, f), p.signer)), 1,
         ["Assinatura 1 de 1 (campo Sig1): NÃO VÁLIDA — a assinatura não pode ser lida (o conteúdo da assinatura "
          "está corrompido", "Não se sabe se o documento foi alterado depois da última assinatura",
          "NÃO CONFERE: 1 de 1 assinatura não é válida."],
         json_sigs=[(False, "falha", "nao_se_aplica", "desconhecidas")]),
    Case("raiz-nao-confiavel", lambda p, f: sign(_base(p, f), p.untrusted), 1,
         ["NÃO VÁLIDA — CARLOS NÃO CONFIÁVEL (CPF 714.287.938-60)", "certificado emitido por AC Raiz Desconhecida",
          "cadeia NÃO confiável: o certificado não leva a nenhuma das âncoras de confiança configuradas"],
         json_sigs=[(False, "raiz_nao_confiavel", "nao_se_aplica", "nenhuma")]),
    Case("revogado-com-lcr", lambda p, f: sign(_base(p, f), p.revoked), 1,
         ["NÃO VÁLIDA — PEDRO REVOGADO (CPF 251.983.460-98)", "certificado REVOGADO em", "(segundo a LCR)",
          "NÃO CONFERE"], crl=True,
         json_sigs=[(False, "revogado", "revogado", "nenhuma")]),
    Case("revogado-sem-lcr", lambda p, f: sign(_base(p, f), p.revoked), 0,
         ["VÁLIDA — PEDRO REVOGADO", "cadeia confiável até AC Raiz de Teste",
          "revogação: não verificada (sem LCR configurada)"],
         json_sigs=[(True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("sem-uso-de-chave", lambda p, f: sign(_base(p, f), p.no_signing_usage), 1,
         ["NÃO VÁLIDA — ANA SEM USO", "certificado SEM uso de chave para assinatura"],
         json_sigs=[(False, "uso_de_chave_indevido", "nao_se_aplica", "nenhuma")]),
    Case("alterado-depois", lambda p, f: change_page_after_signing(sign(_base(p, f), p.signer)), 1,
         ["VÁLIDA SÓ PARA A REVISÃO QUE ASSINOU (documento alterado depois dela)", "cobre a revisão 2 de 3",
          "depois dela o CONTEÚDO foi ALTERADO", "ALTERADO DEPOIS DA ÚLTIMA ASSINATURA",
          "NÃO CONFERE: o documento foi alterado depois da última assinatura."],
         json_sigs=[(False, "confiavel", "sem_lcr", "conteudo")], changed_after_last=True),
    Case("segunda-assinatura", lambda p, f: sign(sign(_base(p, f), p.signer), p.chefia, "Sig2"), 0,
         ["Assinatura 1 de 2 (campo Sig1): VÁLIDA — MARIA DA SILVA",
          "cobre a revisão 2 de 3; depois dela só as assinaturas seguintes (Sig2)",
          "Assinatura 2 de 2 (campo Sig2): VÁLIDA — JOSÉ DE SOUZA", "CONFERE: 2 assinaturas válidas"],
         json_sigs=[(True, "confiavel", "sem_lcr", "assinaturas_seguintes"),
                    (True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("segunda-assinatura-depois-de-alteracao",
         lambda p, f: sign(change_page_after_signing(sign(_base(p, f), p.signer)), p.chefia, "Sig2"), 1,
         ["Assinatura 1 de 2 (campo Sig1): VÁLIDA SÓ PARA A REVISÃO QUE ASSINOU", "depois dela o CONTEÚDO foi ALTERADO",
          "Assinatura 2 de 2 (campo Sig2): VÁLIDA — JOSÉ DE SOUZA",
          "O documento não foi alterado depois da última assinatura.",
          "NÃO CONFERE: o documento foi alterado depois da assinatura 1."],
         json_sigs=[(False, "confiavel", "sem_lcr", "conteudo"), (True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("carimbo-do-tempo", lambda p, f: sign_with_timestamp(_base(p, f), p.signer, _tsa(p.intermediate)), 0,
         ["VÁLIDA — MARIA DA SILVA", "(horário de Brasília, carimbo do tempo de ACT de Teste, válido)"],
         json_sigs=[(True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("carimbo-de-act-nao-confiavel",
         lambda p, f: sign_with_timestamp(_base(p, f), p.signer, _tsa(p.untrusted_root, "ACT Desconhecida")), 1,
         ["NÃO VÁLIDA — MARIA DA SILVA", "carimbo do tempo de ACT Desconhecida INVÁLIDO (de autoridade não "
          "confiável)", "(horário de Brasília, declarado pelo signatário)"],
         json_sigs=[(False, "confiavel", "sem_lcr", "nenhuma")]),
    # signed (the timestamp proves it) while the certificate was valid; it expired afterwards
    Case("vencido-depois-do-carimbo",
         lambda p, f: sign_with_timestamp(_base(p, f), p.expired, _tsa(p.intermediate),
                                          dt.datetime.now(dt.UTC) - dt.timedelta(days=100)), 0,
         ["VÁLIDA — ANTÔNIO VENCIDO", "cadeia confiável até AC Raiz de Teste na data do carimbo do tempo (o "
          "certificado venceu depois)", "carimbo do tempo de ACT de Teste, válido"],
         json_sigs=[(True, "confiavel", "sem_lcr", "nenhuma")]),
    Case("carimbo-do-tempo-do-documento",
         lambda p, f: add_document_timestamp(sign(_base(p, f), p.signer), _tsa(p.intermediate)), 0,
         ["Assinatura 1 de 2 (campo Sig1): VÁLIDA — MARIA DA SILVA",
          "depois dela só dados de validação (LTV, carimbo do tempo do documento)",
          "Carimbo do tempo do documento 2 de 2", "VÁLIDO — ACT de Teste", "íntegro", "cobre o documento inteiro",
          "Assinaturas digitais: 1 assinatura e 1 carimbo do tempo do documento no arquivo",
          "CONFERE: 1 assinatura e 1 carimbo do tempo do documento, todos válidos"],
         json_sigs=[(True, "confiavel", "sem_lcr", "dados_de_validacao"),
                    (True, "confiavel", "nao_se_aplica", "nenhuma")]),
]


def _conferir(pdf: Path, pki: Pki, *extra: str, crl: bool = False) -> tuple[int, str]:
    args = ["conferir", str(pdf), "--confiar", str(pki.root_pem), *(["--lcr", str(pki.crl_der)] if crl else []),
            *extra]
    result = CliRunner().invoke(main, args, env={"AUTOS_LIVRO": None, "AUTOS_ANCORAS": None, "AUTOS_LCR": None})
    return result.exit_code, result.output


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conferir_reports_every_signature(case: Case, pki: Pki, tmp_path: Path) -> None:
    pdf = tmp_path / f"{case.id}.pdf"
    pdf.write_bytes(case.build(pki, tmp_path))
    code, text = _conferir(pdf, pki, crl=case.crl)
    assert code == case.code, text
    for words in case.words:
        assert words in text, f"{words!r} not in:\n{text}"
    code_json, out = _conferir(pdf, pki, "--json", crl=case.crl)
    assert code_json == case.code
    doc = json.loads(out)
    sigs = doc["assinaturas"]
    assert doc["saida"] == case.code and sigs["conferidas"] is True
    assert sigs["alterado_depois_da_ultima_assinatura"] is case.changed_after_last
    assert [(s["valida"], s["cadeia"], s["revogacao"], s["alteracoes_posteriores"]) for s in sigs["assinaturas"]] \
        == case.json_sigs
    assert sigs["linhas"] == text.strip().splitlines()  # the same report, line for line


def test_a_failing_chain_prints_the_report_and_no_traceback(pki: Pki, tmp_path: Path) -> None:
    """pyHanko logs each failed check with a traceback; in a real process (no test logging handler) the user
    sees only the Portuguese report on stdout and nothing on stderr."""
    pdf = tmp_path / "nao-confiavel.pdf"
    pdf.write_bytes(sign(make_pdf(), pki.untrusted))
    env = {k: v for k, v in os.environ.items() if k not in ("AUTOS_LIVRO", "AUTOS_ANCORAS", "AUTOS_LCR")}
    run = subprocess.run([sys.executable, "-m", "autos.cli", "conferir", str(pdf), "--confiar", str(pki.root_pem)],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 1 and "cadeia NÃO confiável" in run.stdout
    assert run.stderr == ""


def test_json_fields_of_a_signature(pki: Pki, tmp_path: Path) -> None:
    pdf = tmp_path / "dois.pdf"
    pdf.write_bytes(sign(sign(make_pdf(), pki.signer), pki.chefia, "Sig2"))
    code, out = _conferir(pdf, pki, "--json")
    first = json.loads(out)["assinaturas"]["assinaturas"][0]
    assert code == 0
    assert first["signatario"] == {"nome_comum": "MARIA DA SILVA:12345678909", "nome": "MARIA DA SILVA",
                                   "cpf": "12345678909", "cnpj": None}
    assert first["emissor"] == "AC Intermediária de Teste" and first["ancora"] == "AC Raiz de Teste"
    assert first["integra"] is True and first["uso_de_chave_ok"] is True
    assert first["cobre_documento_inteiro"] is False and first["cobre_revisao_inteira"] is True
    assert (first["revisao"], first["revisoes"]) == (2, 3) and first["campos_alterados"] == ["Sig2"]
    assert first["data_declarada"] is not None and first["carimbo_do_tempo"] is None


# --------------------------------------------------------------------------------------------------
# files that are not signed, or cannot be read


def test_unsigned_pdf_says_so_in_one_line(pki: Pki, tmp_path: Path) -> None:
    pdf = tmp_path / "sem-assinatura.pdf"
    pdf.write_bytes(make_pdf())
    code, text = _conferir(pdf, pki)
    lines = [x for x in text.splitlines() if x.startswith("Assinatura")]
    assert lines == ["Assinaturas digitais: o arquivo não traz nenhuma assinatura digital."]
    # with nothing else to check, the missing ledger is still the error it always was
    assert code == 2 and "nenhum livro de editais indicado" in text


@pytest.mark.parametrize(("name", "spoil", "words"), [
    ("cifrado", encrypt, "o PDF está cifrado (protegido por senha)"),
    ("danificado", lambda d: d[: len(d) // 3], "o PDF está danificado e não pode ser lido"),
], ids=["cifrado", "danificado"])
def test_unusable_pdf_is_exit_2_with_a_clear_message(pki: Pki, tmp_path: Path, name: str,
                                                     spoil: Callable[[bytes], bytes], words: str) -> None:
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(spoil(sign(make_pdf(), pki.signer)))
    with pytest.raises(InputError) as err:
        validate_signatures(pdf.read_bytes(), load_trust([pki.root_pem]), source=pdf)
    assert words in err.value.message and str(pdf) in str(err.value)
    code, text = _conferir(pdf, pki)
    assert code == 2 and words in text


def test_with_a_ledger_the_signatures_follow_its_verdict(pki: Pki, tmp_path: Path) -> None:
    """The editais ledger keeps working: its lines come first, the signatures after, both in the JSON."""
    ledger = tmp_path / "livro.sqlite3"
    Ledger(ledger).close()
    pdf = tmp_path / "assinado.pdf"
    pdf.write_bytes(sign(make_pdf(), pki.signer))
    code, text = _conferir(pdf, pki, "--livro", str(ledger))
    assert code == 1 and text.index("NÃO CONFERE: este arquivo não é nenhum dos arquivos publicados") \
        < text.index("Assinatura 1 de 1 (campo Sig1): VÁLIDA")
    code, out = _conferir(pdf, pki, "--livro", str(ledger), "--json")
    doc = json.loads(out)
    assert code == 1 and doc["livro"]["confere"] is False and any("NÃO CONFERE" in x for x in doc["livro"]["linhas"])
    assert doc["assinaturas"]["assinaturas"][0]["valida"] is True
    # a damaged PDF next to a ledger: the ledger's "does not match" stands (exit 1), the signatures say why
    broken = tmp_path / "quebrado.pdf"
    broken.write_bytes(pdf.read_bytes()[: len(pdf.read_bytes()) // 3])
    code, text = _conferir(broken, pki, "--livro", str(ledger))
    assert code == 1 and "NÃO CONFERE" in text
    assert "Assinaturas digitais: não conferidas — o PDF está danificado" in text


# --------------------------------------------------------------------------------------------------
# trust configuration


def test_trust_anchors_from_a_folder_or_the_environment(pki: Pki, tmp_path: Path) -> None:
    pdf = tmp_path / "assinado.pdf"
    pdf.write_bytes(sign(make_pdf(), pki.signer))
    folder = tmp_path / "ancoras"
    folder.mkdir()
    (folder / "raiz.crt").write_bytes(pki.root_pem.read_bytes())
    runner = CliRunner()
    env = {"AUTOS_LIVRO": None, "AUTOS_LCR": None}
    by_folder = runner.invoke(main, ["conferir", str(pdf), "--confiar", str(folder)],
                              env={**env, "AUTOS_ANCORAS": None})
    assert by_folder.exit_code == 0 and "cadeia confiável até AC Raiz de Teste" in by_folder.output
    by_env = runner.invoke(main, ["conferir", str(pdf)], env={**env, "AUTOS_ANCORAS": str(folder)})
    assert by_env.exit_code == 0 and "cadeia confiável até AC Raiz de Teste" in by_env.output
    nothing = runner.invoke(main, ["conferir", str(pdf)], env={**env, "AUTOS_ANCORAS": None})
    assert nothing.exit_code == 1
    assert "cadeia NÃO verificada: nenhuma âncora de confiança configurada" in nothing.output
    # an intermediate CA given as anchor is trusted as such (the user said so)
    inter = runner.invoke(main, ["conferir", str(pdf), "--confiar", str(pki.intermediate_pem)],
                          env={**env, "AUTOS_ANCORAS": None})
    assert inter.exit_code == 0 and "cadeia confiável até AC Intermediária de Teste" in inter.output


@pytest.mark.parametrize(("option", "content", "words"), [
    ("--confiar", b"isto nao e um certificado", "não é um certificado X.509 legível"),
    ("--confiar", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "não traz nenhum certificado"),
    ("--lcr", b"isto nao e uma lcr", "não é uma LCR (lista de certificados revogados) legível"),
], ids=["ancora-invalida", "pem-sem-certificado", "lcr-invalida"])
def test_unreadable_trust_files_are_exit_2(pki: Pki, tmp_path: Path, option: str, content: bytes,
                                           words: str) -> None:
    pdf = tmp_path / "assinado.pdf"
    pdf.write_bytes(sign(make_pdf(), pki.signer))
    bad = tmp_path / "ruim.pem"
    bad.write_bytes(content)
    code, text = _conferir(pdf, pki, option, str(bad))
    assert code == 2 and words in text and str(bad) in text
    empty = tmp_path / "vazia"
    empty.mkdir()
    code, text = _conferir(pdf, pki, "--confiar", str(empty))
    assert code == 2 and "a pasta de âncoras de confiança não tem certificados" in text


def test_revocation_unknown_when_the_crl_does_not_cover_the_certificate(pki: Pki, tmp_path: Path) -> None:
    """Only a CRL of another CA is configured: the signer's revocation status is unknown, and said so."""
    now = dt.datetime.now(dt.UTC)
    foreign = (x509.CertificateRevocationListBuilder().issuer_name(pki.untrusted_root.cert.subject)
               .last_update(now - dt.timedelta(days=1)).next_update(now + dt.timedelta(days=30))
               .sign(pki.untrusted_root.key, hashes.SHA256()))
    crl = tmp_path / "outra-ac.crl"
    crl.write_bytes(foreign.public_bytes(serialization.Encoding.PEM))
    pdf = tmp_path / "assinado.pdf"
    pdf.write_bytes(sign(make_pdf(), pki.signer))
    code, text = _conferir(pdf, pki, "--lcr", str(crl))
    assert code == 0, text
    assert "revogação: não verificada (nenhuma LCR configurada cobre este certificado)" in text
    assert "LCR: outra-ac.crl" in text
    report = validate_signatures(pdf.read_bytes(), load_trust([pki.root_pem], [crl]))
    assert report.signatures[0].revocation == Revocation.UNKNOWN


def test_validation_inside_a_running_event_loop(pki: Pki) -> None:
    """pyHanko's synchronous API calls asyncio.run(); inside a running loop (a web server, another test's loop)
    the validation still runs, and gives the same verdict."""
    pdf = sign(make_pdf(), pki.signer)

    async def inside() -> bool:
        return validate_signatures(pdf, load_trust([pki.root_pem])).ok

    assert off_loop(asyncio.run, inside()) is True  # a thread with a fresh loop, whatever runs in this one


def test_icp_brasil_common_names() -> None:
    assert split_icp_name("MARIA DA SILVA:12345678909") == ("MARIA DA SILVA", "12345678909")
    assert split_icp_name("PREFEITURA MUNICIPAL DE TESTE:12345678000195") == ("PREFEITURA MUNICIPAL DE TESTE",
                                                                             "12345678000195")
    assert split_icp_name("AC Raiz de Teste") == ("AC Raiz de Teste", None)
    assert split_icp_name("NOME:123") == ("NOME:123", None)


def test_changes_are_classified(pki: Pki) -> None:
    two = sign(sign(make_pdf(), pki.signer), pki.chefia, "Sig2")
    report = validate_signatures(two, load_trust([pki.root_pem]))
    assert [s.changes for s in report.signatures] == [Changes.LATER_SIGNATURES, Changes.NONE]
    assert report.ok and not report.changed_after_last
