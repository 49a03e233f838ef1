"""PAdES signatures with pyHanko: an A1 certificate (PKCS#12 file) or an A3 token (PKCS#11), a visible signature
block (signer's name, post, date), several signers in order, the ICP-Brasil signature policy reference.

Levels: PAdES B-B always; B-T when a timestamper is given (a TSA's URL); the revocation data of the signer's chain
goes into the document's DSS when a validation context is given (trust anchors, and CRLs or fetching): with a
timestamp that is B-LT.

Every signature is an incremental update: the bytes before it are kept, so an earlier signature stays valid and a
PDF/A file keeps its PDF/A declaration (its XMP metadata is updated in place by pyHanko, the ``pdfaid`` entries
kept; the block's font is embedded). Output is written to a new file (temporary file + rename); the input is never
changed, and writing over it is refused.

Everything a user reads is in Portuguese, as :class:`autos.errors.SignatureError`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import logging
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asn1crypto import algos, crl, x509
from pyhanko.pdf_utils import misc as pdf_misc
from pyhanko.pdf_utils.font.opentype import GlyphAccumulatorFactory
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.text import TextBoxStyle
from pyhanko.sign import fields, signers
from pyhanko.sign.ades.api import CAdESSignedAttrSpec
from pyhanko.sign.ades.cades_asn1 import SignaturePolicyIdentifier
from pyhanko.sign.general import SigningError as PyHankoSigningError
from pyhanko.sign.timestamps import HTTPTimeStamper, TimeStamper
from pyhanko.stamp import TextStampStyle
from pyhanko_certvalidator import ValidationContext

from autos.base import ptbr
from autos.errors import SignatureError, keep_original, os_error_pt
from autos.sign.loop import outside_event_loop

__all__ = [
    "LoadedSigner",
    "SignSettings",
    "SignaturePolicy",
    "check_certificate",
    "display_name",
    "existing_signatures",
    "load_pkcs12",
    "open_token",
    "sign_pdf",
    "validation_context",
]

# fontTools, subsetting the block's font, warns about tables it drops (in English, on every signature)
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)

#: the font of the visible block: embedded (subset), so a PDF/A file stays PDF/A and the accents print
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
    "C:/Windows/Fonts/DejaVuSans.ttf",
)
FONT_ENV = "AUTOS_FONTE_ASSINATURA"

#: the block: width and height in points, its margin from the page's bottom-left corner, gaps between blocks
_BLOCK_W, _BLOCK_H, _MARGIN, _GAP = 250, 58, 36, 8

_PLAIN_CPF = re.compile(r"^(?P<name>.+?):\s*\d{11}$")


@dataclass
class LoadedSigner:
    """A signer ready to sign many documents: a PKCS#12's key in memory, or an open session on a token (closed by
    :meth:`close`). ``cert`` is the signer's certificate; ``name`` the holder's name as the block prints it."""

    signer: signers.Signer
    cert: x509.Certificate
    chain: list[x509.Certificate]
    origem: str  # where the key is, for messages ("arquivo X", "token Y")
    session: Any = None  # the PKCS#11 session, for close()

    @property
    def name(self) -> str:
        return display_name(self.cert)

    def close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                self.session.close()
            self.session = None


@dataclass(frozen=True)
class SignaturePolicy:
    """The signature policy reference (CAdES ``signature-policy-identifier``), e.g. ICP-Brasil's AD-RB: the policy's
    OID, the digest of the policy document (algorithm and value, as the ITI's list of policies gives them) and,
    optionally, the URI where the policy document is published."""

    oid: str
    hash_algorithm: str
    digest: bytes
    uri: str | None = None

    @classmethod
    def parse(cls, text: str) -> SignaturePolicy:
        """``OID,ALGORITMO:HASH_HEX[,URI]`` (``2.16.76.1.7.1.11.1.1,sha256:ab12…,http://…``)."""
        parts = [p.strip() for p in text.split(",", 2)]
        if len(parts) < 2 or not re.fullmatch(r"\d+(\.\d+)+", parts[0]):
            raise SignatureError(f"política de assinatura '{text}' ilegível.", path="--politica",
                                 hint="escreva OID,sha256:HASH_EM_HEXADECIMAL[,URI], com o OID e o hash da política "
                                 "publicados pelo ITI (veja docs/runbook-assinatura.md).")
        alg, sep, hexdigest = parts[1].partition(":")
        alg = alg.lower().replace("-", "")
        sizes = {"sha256": 32, "sha384": 48, "sha512": 64, "sha1": 20}
        try:
            digest = bytes.fromhex(hexdigest)
        except ValueError:
            digest = b""
        if not sep or alg not in sizes or len(digest) != sizes[alg]:
            raise SignatureError(f"hash da política de assinatura '{parts[1]}' inválido.", path="--politica",
                                 hint="escreva o algoritmo e o hash em hexadecimal, p. ex. sha256: seguido de 64 "
                                 "dígitos hexadecimais, como publicados pelo ITI.")
        return cls(parts[0], alg, digest, parts[2] if len(parts) > 2 and parts[2] else None)

    def identifier(self) -> SignaturePolicyIdentifier:
        policy: dict[str, Any] = {
            "sig_policy_id": self.oid,
            "sig_policy_hash": algos.DigestInfo({"digest_algorithm": {"algorithm": self.hash_algorithm},
                                                 "digest": self.digest}),
        }
        if self.uri:
            policy["sig_policy_qualifiers"] = [{"sig_policy_qualifier_id": "sp_uri", "sig_qualifier": self.uri}]
        return SignaturePolicyIdentifier({"signature_policy_id": policy})


@dataclass(frozen=True)
class SignSettings:
    """How to sign. ``cargo``: the signer's post, printed in the block. ``timestamper``: a TSA (B-T); ``validation``:
    trust anchors and revocation data (the signer's chain is validated before signing, the revocation data is
    embedded: B-LT with a timestamp). ``crls``: CRLs (DER or PEM) checked before signing even without trust anchors.
    ``adicionar``: sign a PDF that already has signatures (as one more signer, in a new field)."""

    cargo: str | None = None
    timestamper: TimeStamper | None = None
    validation: ValidationContext | None = None
    crls: tuple[bytes, ...] = ()
    policy: SignaturePolicy | None = None
    adicionar: bool = False
    reason: str | None = None
    location: str | None = None
    now: dt.datetime | None = None  # the signing time shown in the block (default: now, local time)
    visible: bool = True

    @property
    def level(self) -> str:
        """The PAdES baseline level the settings produce."""
        if self.timestamper is not None:
            return "PAdES B-LT" if self.validation is not None else "PAdES B-T"
        return "PAdES B-B"


# --------------------------------------------------------------------------------------------------
# loading the signer


def load_pkcs12(path: str | Path, password: bytes) -> LoadedSigner:
    """The signer of an A1 certificate file (PKCS#12, ``.p12``/``.pfx``)."""
    from cryptography.hazmat.primitives.serialization import pkcs12

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SignatureError(f"o arquivo do certificado não pode ser lido ({os_error_pt(exc)}).", file=path,
                             hint="confira o caminho dado em --certificado.") from None
    try:
        _key, cert, _others = pkcs12.load_key_and_certificates(data, password)
    except ValueError:
        raise SignatureError("a senha do certificado está errada, ou o arquivo não é um certificado A1 (PKCS#12, "
                             ".p12/.pfx) válido.", file=path,
                             hint="confira a senha (arquivo de --senha-arquivo, variável AUTOS_SENHA_CERTIFICADO ou "
                             "a digitada) e se o arquivo é o exportado com a chave privada.") from None
    if _key is None or cert is None:
        raise SignatureError("o arquivo PKCS#12 não contém a chave privada e o certificado do titular.", file=path,
                             hint="exporte o certificado A1 com a chave privada (arquivo .pfx/.p12).")
    try:
        loaded = signers.SimpleSigner.load_pkcs12_data(data, other_certs=(), passphrase=password)
        assert loaded.signing_cert is not None
        signer = _KeptKeySigner(_key, signing_cert=loaded.signing_cert, signing_key=loaded.signing_key,
                                cert_registry=loaded.cert_registry)
    except (ValueError, TypeError) as exc:  # an unsupported key type
        keep_original(exc, f"chave de {path}")
        raise SignatureError("a chave do certificado não pode ser usada para assinar (tipo de chave não suportado).",
                             file=path) from None
    assert signer.signing_cert is not None
    chain = [c for c in signer.cert_registry if c != signer.signing_cert]
    return LoadedSigner(signer, signer.signing_cert, chain, f"arquivo {path}")


class _KeptKeySigner(signers.SimpleSigner):
    """pyHanko's in-memory signer, keeping the private key loaded: pyHanko 0.38 parses the DER key again at every
    signature, and OpenSSL 3 checks an RSA key when it is loaded (tens of milliseconds, more than the signature
    itself). RSA PKCS#1 v1.5 and ECDSA use the kept key; any other mechanism goes to pyHanko's own code."""

    def __init__(self, key: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._kept_key = key

    def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
        from cryptography.hazmat.primitives.asymmetric.ec import ECDSA, EllipticCurvePrivateKey
        from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
        from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey
        from pyhanko_certvalidator.util import get_pyca_cryptography_hash

        mechanism = self.get_signature_mechanism_for_digest(digest_algorithm)
        try:
            algo = mechanism.signature_algo
        except ValueError:
            algo = mechanism["algorithm"].native
        key, hash_algo = self._kept_key, get_pyca_cryptography_hash(digest_algorithm)
        if algo == "rsassa_pkcs1v15" and isinstance(key, RSAPrivateKey):
            return key.sign(data, PKCS1v15(), hash_algo)
        if algo == "ecdsa" and isinstance(key, EllipticCurvePrivateKey):
            return key.sign(data, ECDSA(hash_algo))
        return bytes(super().sign_raw(data, digest_algorithm))


def open_token(lib: str | Path, token: str, key: str, pin: str) -> LoadedSigner:
    """The signer of an A3 token or smart card through its PKCS#11 library: the token by its label, the key (and its
    certificate) by their label. The session stays open until :meth:`LoadedSigner.close`."""
    import pkcs11
    from pyhanko.config.pkcs11 import TokenCriteria
    from pyhanko.sign.general import SigningError
    from pyhanko.sign.pkcs11 import PKCS11Signer, open_pkcs11_session

    where = f"token '{token}' ({lib})"
    if not Path(lib).is_file():
        raise SignatureError("a biblioteca PKCS#11 do token não foi encontrada.", file=lib,
                             hint="instale o driver do token (p. ex. SafeNet: libeTPkcs11.so) e dê o caminho em "
                             "--pkcs11 (veja docs/runbook-assinatura.md).")
    try:
        session = open_pkcs11_session(str(lib), token_criteria=TokenCriteria(label=token), user_pin=pin)
    except pkcs11.exceptions.PinIncorrect:
        raise SignatureError(f"PIN incorreto para o {where}. Atenção: após algumas tentativas erradas o token é "
                             "bloqueado.", hint="confira o PIN (arquivo de --senha-arquivo, variável "
                             "AUTOS_SENHA_CERTIFICADO ou o digitado).") from None
    except pkcs11.exceptions.PinLocked:
        raise SignatureError(f"o {where} está bloqueado (PIN errado vezes demais).",
                             hint="desbloqueie o token com o PUK/PIN de administrador no programa do fabricante "
                             "ou na autoridade de registro.") from None
    except (pkcs11.exceptions.TokenNotPresent, pkcs11.exceptions.NoSuchToken, pkcs11.exceptions.SlotIDInvalid):
        raise SignatureError(f"nenhum token com o rótulo '{token}' está conectado.", file=lib,
                             hint="conecte o token ou cartão (e a leitora) e confira o rótulo em --token.") from None
    except (SigningError, pkcs11.exceptions.PKCS11Error, RuntimeError, OSError) as exc:
        missing = "No token" in str(exc) or isinstance(exc, SigningError)
        keep_original(exc, f"token {token}")
        why = os_error_pt(exc) if isinstance(exc, OSError) else "a biblioteca PKCS#11 recusou a operação"
        raise SignatureError(
            f"nenhum token com o rótulo '{token}' está conectado." if missing
            else f"o token não pôde ser aberto ({why}).", file=lib,
            hint="conecte o token ou cartão (e a leitora) e confira o rótulo em --token e a biblioteca em "
            "--pkcs11.") from None
    try:
        signer = PKCS11Signer(session, cert_label=key, key_label=key)
        cert = signer.signing_cert  # loads key and certificate now: a wrong label shows here, not mid-batch
    except (SigningError, pkcs11.exceptions.PKCS11Error) as exc:
        with contextlib.suppress(Exception):
            session.close()
        keep_original(exc, f"chave {key}")
        raise SignatureError(f"a chave ou o certificado com o rótulo '{key}' não está no {where}.",
                             hint="confira o rótulo em --chave (o programa do fabricante lista as chaves do "
                             "token).") from None
    assert cert is not None
    chain = [c for c in signer.cert_registry if c != cert]
    return LoadedSigner(signer, cert, chain, where, session)


def display_name(cert: x509.Certificate) -> str:
    """The holder's name from the certificate's CN; ICP-Brasil writes ``NOME:CPF`` (e-CPF): only the name."""
    cn = str(cert.subject.native.get("common_name", "")).strip()
    found = _PLAIN_CPF.match(cn)
    return found.group("name").strip() if found else cn


# --------------------------------------------------------------------------------------------------
# checks before signing


def check_certificate(loaded: LoadedSigner, *, at: dt.datetime | None = None, crls: Iterable[bytes] = ()) -> None:
    """Refuse a certificate that cannot sign: outside its validity, without a signing key usage
    (digitalSignature or nonRepudiation), or revoked in one of ``crls`` (its issuer's CRL, signature checked)."""
    cert = loaded.cert
    now = at or dt.datetime.now(dt.UTC)
    validity = cert["tbs_certificate"]["validity"]
    start, end = validity["not_before"].native, validity["not_after"].native
    who = f"o certificado de {loaded.name} ({loaded.origem})"
    if now > end:
        raise SignatureError(f"{who} venceu em {ptbr.format_date(end.date())}; um documento não é assinado com "
                             "certificado vencido.", hint="renove o certificado na autoridade certificadora e use o "
                             "novo.")
    if now < start:
        raise SignatureError(f"{who} só vale a partir de {ptbr.format_date(start.date())}.",
                             hint="confira o relógio deste computador ou use um certificado já válido.")
    usage = set(cert.key_usage_value.native) if cert.key_usage_value is not None else None
    if usage is not None and not usage & {"digital_signature", "non_repudiation"}:
        raise SignatureError(f"{who} não permite assinatura digital (uso da chave: "
                             f"{', '.join(sorted(usage)) or 'nenhum'}); é um certificado de outra finalidade.",
                             hint="use um certificado de assinatura (e-CPF ou de servidor, A1 ou A3, com "
                             "digitalSignature/nonRepudiation).")
    for data in crls:
        revoked = _revoked_in(cert, loaded.chain, data)
        if revoked is not None:
            raise SignatureError(f"{who} foi REVOGADO em {ptbr.format_date(revoked.date())}, conforme a lista de "
                                 "certificados revogados informada; um documento não é assinado com certificado "
                                 "revogado.", hint="use outro certificado válido.")


def _revoked_in(cert: x509.Certificate, chain: Sequence[x509.Certificate], data: bytes) -> dt.datetime | None:
    from asn1crypto import pem

    if pem.detect(data):
        _type, _headers, data = pem.unarmor(data)
    try:
        parsed = crl.CertificateList.load(data)
        issuer = parsed.issuer
        entries = parsed["tbs_cert_list"]["revoked_certificates"]
    except ValueError as exc:
        keep_original(exc, "LCR")
        raise SignatureError("a lista de certificados revogados (LCR) está ilegível.", path="--lcr",
                             hint="use a LCR em DER ou PEM baixada da autoridade certificadora.") from None
    if issuer != cert.issuer:
        return None
    authority = next((c for c in chain if c.subject == issuer), None)
    if authority is not None and not _crl_signed_by(parsed, authority):
        raise SignatureError("a assinatura da lista de certificados revogados (LCR) não confere com a autoridade "
                             "que emitiu o certificado.", path="--lcr",
                             hint="baixe a LCR de novo do endereço da autoridade certificadora.")
    for entry in entries:
        if entry["user_certificate"].native == cert.serial_number:
            when: dt.datetime = entry["revocation_date"].native
            return when
    return None


def _crl_signed_by(parsed: crl.CertificateList, authority: x509.Certificate) -> bool:
    from cryptography import x509 as cx509

    try:
        pub = cx509.load_der_x509_certificate(authority.dump()).public_key()
        ours = cx509.load_der_x509_crl(parsed.dump())
        return ours.is_signature_valid(pub)  # type: ignore[arg-type]  # an X25519/X448 key raises TypeError
    except (ValueError, TypeError):
        return False


def validation_context(trust_roots: Sequence[Path], crls: Sequence[bytes] = (), *, fetch: bool = True,
                       others: Sequence[x509.Certificate] = ()) -> ValidationContext:
    """Trust anchors (PEM or DER files: ICP-Brasil's roots from the ITI) and revocation data for B-LT."""
    from pyhanko.keys import load_certs_from_pemder

    try:
        roots = list(load_certs_from_pemder([str(p) for p in trust_roots]))  # type: ignore[no-untyped-call]
    except (OSError, ValueError) as exc:
        keep_original(exc, "âncoras de confiança")
        why = os_error_pt(exc) if isinstance(exc, OSError) else "não são certificados em PEM ou DER"
        raise SignatureError(f"as âncoras de confiança não puderam ser lidas ({why}).", path="--confianca",
                             hint="dê os certificados raiz (PEM ou DER) da ICP-Brasil baixados do ITI.") from None
    return ValidationContext(trust_roots=roots, other_certs=list(others), crls=list(crls), allow_fetching=fetch,
                             revocation_mode="soft-fail")


# --------------------------------------------------------------------------------------------------
# signing


def existing_signatures(data: bytes) -> list[str]:
    """Names of the signature fields that already hold a signature."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    reader = PdfFileReader(io.BytesIO(data), strict=False)
    return [s.field_name for s in reader.embedded_signatures]


def _open(data: bytes, source: str | Path) -> IncrementalPdfFileWriter:
    where = str(source)
    if not data.startswith(b"%PDF-") and b"%PDF-" not in data[:1024]:
        raise SignatureError("o arquivo não é um PDF.", file=where, hint="dê o arquivo PDF do documento.")
    try:
        writer = IncrementalPdfFileWriter(io.BytesIO(data), strict=False)
        encrypted = writer.prev.encrypted
        _ = writer.root["/Pages"]
    except (pdf_misc.PdfError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        keep_original(exc, f"PDF {where}")
        raise SignatureError("o PDF está danificado e não pode ser assinado.",
                             file=where, hint="gere o documento de novo (autos gerar) ou peça uma cópia íntegra.") \
            from None
    if encrypted:
        raise SignatureError("o PDF está protegido por senha (criptografado); um documento criptografado não é "
                             "assinado.", file=where,
                             hint="assine o documento original, sem proteção (o que o autos gerar produz).")
    return writer


def _font() -> str | None:
    chosen = os.environ.get(FONT_ENV) or next((f for f in _FONT_CANDIDATES if Path(f).is_file()), None)
    return _latin_subset(chosen) if chosen else None


#: the block's characters: Latin (Portuguese and names of other origins), digits, punctuation, º ª § – — “ ” ‘ ’ …
_BLOCK_UNICODES = [*range(0x20, 0x7F), *range(0xA0, 0x180), 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026]
_SUBSETS: dict[str, str] = {}


def _latin_subset(font: str) -> str:
    """A copy of ``font`` with only the block's characters and no layout tables, made once per process (in a
    temporary file removed at exit). pyHanko subsets the block's font at every signature with fontTools: from
    DejaVu Sans (6,000 glyphs, large GSUB/GPOS tables) that took ~300 ms of CPU per signature, from this copy a
    few milliseconds. A character outside the subset prints as the font's blank glyph."""
    found = _SUBSETS.get(font)
    if found is not None and Path(found).is_file():
        return found
    import atexit
    import tempfile

    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    try:
        tt = TTFont(font)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=_BLOCK_UNICODES)
        subsetter.subset(tt)
        fd, tmp = tempfile.mkstemp(prefix="autos-fonte-assinatura-", suffix=".ttf")
        try:
            with os.fdopen(fd, "wb") as fh:
                tt.save(fh)
        except BaseException:  # a full disk: no part-written font is left in the temporary folder
            Path(tmp).unlink(missing_ok=True)
            raise
    except Exception:  # an unusual font fontTools cannot subset (or no room to write it): use it whole
        return font
    atexit.register(lambda: Path(tmp).unlink(missing_ok=True))
    _SUBSETS[font] = tmp
    return tmp


def _stamp(font: str | None) -> TextStampStyle:
    box = TextBoxStyle(font=GlyphAccumulatorFactory(font, font_size=8) if font else TextBoxStyle().font,
                       font_size=8, leading=10)
    return TextStampStyle(stamp_text="%(linhas)s", text_box_style=box, border_width=1, background=None)


def _page_width(writer: IncrementalPdfFileWriter) -> float:
    from pyhanko.pdf_utils.rw_common import find_inherited_value_in_tree

    page_ref, _resources = writer.prev.find_page_for_modification(-1)  # type: ignore[no-untyped-call]
    box = find_inherited_value_in_tree(page_ref.get_object(), "/MediaBox", "/Parent")  # type: ignore[no-untyped-call]
    if box is None:
        raise pdf_misc.PdfReadError("a última página não tem /MediaBox")
    return float(box[2]) - float(box[0])


_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m: _Matrix, n: _Matrix) -> _Matrix:
    """``m × n`` (PDF matrices: the row vector [x y 1] times m, then n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


#: a content stream's tokens: a literal string (skipped; unbalanced parentheses inside are escaped by the PDF
#: writer), a hexadecimal string, a name, a number, an operator, an array bracket
_TOKEN = re.compile(rb"\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*"
                    rb"|([+-]?(?:\d+\.?\d*|\.\d+))|([A-Za-z'\"*]+)|[\[\]]")


def _text_lines(data: bytes) -> tuple[float, list[tuple[float, float]]]:
    """The last page's height and, for every text-showing operator of its content stream, (baseline y, font size)
    in page space. Only the operators that move text are followed (cm, q/Q, BT, Tf, TL, Td, TD, Tm, T*), with a
    regular-expression tokenizer: pypdf's own parser or text extraction cost as much as the signature itself."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    page = reader.pages[-1]
    contents = page.get_contents()
    height = float(page.mediabox.height)
    if contents is None:
        return height, []
    origin = float(page.mediabox.bottom)
    ctm, stack = _IDENTITY, []
    tm = tlm = _IDENTITY
    size = leading = 0.0
    lines: list[tuple[float, float]] = []
    nums: list[float] = []
    for match in _TOKEN.finditer(contents.get_data()):
        number, op = match.group(1), match.group(2)
        if number is not None:
            nums.append(float(number))
            continue
        if op is None:
            continue
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop() if stack else _IDENTITY
        elif op == b"cm" and len(nums) >= 6:
            ctm = _mul(tuple(nums[-6:]), ctm)  # type: ignore[arg-type]
        elif op == b"BT":
            tm = tlm = _IDENTITY
        elif op == b"Tf" and nums:
            size = nums[-1]
        elif op == b"TL" and nums:
            leading = nums[-1]
        elif op in (b"Td", b"TD") and len(nums) >= 2:
            if op == b"TD":
                leading = -nums[-1]
            tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, nums[-2], nums[-1]), tlm)
        elif op == b"Tm" and len(nums) >= 6:
            tm = tlm = tuple(nums[-6:])  # type: ignore[assignment]
        elif op == b"T*":
            tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -leading), tlm)
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            if op in (b"'", b'"'):
                tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -leading), tlm)
            m = _mul(tm, ctm)
            lines.append((m[5] - origin, abs(size * m[3]) or size))
        nums.clear()
    return height, lines


def _free_band(data: bytes) -> tuple[float, float] | None:
    """The empty band of the last page between its footer and its lowest line of text (bottom, top); None when
    the page cannot be read. The footer is the text in the bottom tenth of the page (page number, running
    footer)."""
    try:
        height, lines = _text_lines(data)
    except Exception:  # a page pypdf cannot parse: the block goes to the bottom edge
        return None
    footer = [y + h for y, h in lines if y < height * 0.1]
    body = [y - 0.3 * h for y, h in lines if y >= height * 0.1]
    bottom = max(footer, default=0.0) + 6
    top = min(body, default=height * 0.9) - 8
    return (bottom, top) if top > bottom else None


def _block_box(writer: IncrementalPdfFileWriter, data: bytes, slot: int) -> tuple[int, int, int, int]:
    """The block of the ``slot``-th signature on the last page, side by side, then a row above: in the empty band
    between the footer and the end of the text when it has room (a block never covers the document's text nor its
    page number), otherwise at the bottom edge of the page."""
    width = _page_width(writer)
    per_row = max(1, int((width - 2 * _MARGIN + _GAP) // (_BLOCK_W + _GAP)))
    col, row = slot % per_row, slot // per_row
    x = _MARGIN + col * (_BLOCK_W + _GAP)
    y = 12.0 + row * (_BLOCK_H + _GAP)
    band = _free_band(data)
    if band is not None and band[0] + (row + 1) * (_BLOCK_H + _GAP) <= band[1]:
        y = band[0] + row * (_BLOCK_H + _GAP)
    return (int(x), int(y), int(x + _BLOCK_W), int(y + _BLOCK_H))


def _block_lines(name: str, cargo: str | None, when: dt.datetime) -> str:
    lines = ["Documento assinado digitalmente por", name]
    if cargo:
        lines.append(cargo)
    lines.append(f"em {ptbr.format_date(when.date())}, às {when:%H:%M} ({_utc_offset(when)})")
    return "\n".join(lines)


def _utc_offset(when: dt.datetime) -> str:
    off = when.utcoffset() or dt.timedelta(0)
    minutes = int(off.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def sign_pdf(data: bytes, loaded: LoadedSigner, settings: SignSettings, *, source: str | Path = "documento") -> bytes:
    """The signed PDF (``data`` plus an incremental update holding the signature)."""
    return outside_event_loop(_sign_pdf, data, loaded, settings, source)


def _sign_pdf(data: bytes, loaded: LoadedSigner, settings: SignSettings, source: str | Path) -> bytes:
    now = settings.now or dt.datetime.now().astimezone()
    check_certificate(loaded, at=now.astimezone(dt.UTC), crls=settings.crls)
    writer = _open(data, source)
    try:
        present = [sig.field_name for sig in writer.prev.embedded_signatures]
        box = _block_box(writer, data, len(present)) if settings.visible else None
    except (pdf_misc.PdfError, ValueError, KeyError, TypeError, IndexError) as exc:
        keep_original(exc, f"PDF {source}")
        raise SignatureError("o PDF está danificado e não pode ser assinado.", file=str(source)) from None
    if present and not settings.adicionar:
        raise SignatureError(
            f"o PDF já está assinado ({ptbr.count_noun(len(present), 'assinatura', 'assinaturas')}: "
            f"{', '.join(present)}); assiná-lo de novo sem querer juntaria uma assinatura a um documento que outra "
            "pessoa já assinou.", file=str(source),
            hint="para acrescentar mais um signatário (p. ex. a chefia depois do fiscal), rode de novo com "
            "--adicionar; as assinaturas anteriores continuam válidas.")
    field_name = f"Assinatura{len(present) + 1}"
    taken = {name for name, _v, _r in fields.enumerate_sig_fields(writer.prev)}
    while field_name in taken:
        field_name += "b"
    cades = CAdESSignedAttrSpec(signature_policy_identifier=settings.policy.identifier()) \
        if settings.policy is not None else None
    meta = signers.PdfSignatureMetadata(
        field_name=field_name,
        subfilter=fields.SigSeedSubFilter.PADES,
        md_algorithm="sha256",
        reason=settings.reason,
        location=settings.location,
        name=loaded.name,
        cades_signed_attr_spec=cades,
        validation_context=settings.validation,
        embed_validation_info=settings.validation is not None,
        signer_key_usage=set(),  # checked above: digitalSignature or nonRepudiation, as ICP-Brasil issues them
    )
    spec = fields.SigFieldSpec(field_name, on_page=-1, box=box) if box is not None else fields.SigFieldSpec(field_name)
    pdf_signer = signers.PdfSigner(meta, loaded.signer, timestamper=settings.timestamper,
                                   stamp_style=_stamp(_font()), new_field_spec=spec)
    _keep_metadata_consistent(writer, now)
    out = io.BytesIO()
    try:
        pdf_signer.sign_pdf(writer, output=out, bytes_reserved=_reserve(loaded, settings),
                            appearance_text_params={"linhas": _block_lines(loaded.name, settings.cargo, now)})
    except PyHankoSigningError as exc:
        raise SignatureError(f"a assinatura não pôde ser feita: {_signing_reason(exc)}", file=str(source),
                             hint=_signing_hint(exc)) from None
    except Exception as exc:  # token removed mid-way, TSA unreachable, a library error on this PDF
        keep_original(exc, f"assinatura de {source}")
        why = os_error_pt(exc) if isinstance(exc, OSError) else "o token, o servidor de carimbo do tempo ou o PDF"
        raise SignatureError(f"a assinatura não pôde ser feita ({why}).", file=str(source),
                             hint="confira o token, o servidor de carimbo do tempo e o PDF; o arquivo original "
                             "não foi alterado.") from None
    return out.getvalue()


def _reserve(loaded: LoadedSigner, settings: SignSettings) -> int | None:
    """Bytes to reserve for the CMS signature when its size is known without signing: the certificates it embeds,
    the signed attributes (policy included) and one RSA/ECDSA signature, with room to spare. ``None`` (pyHanko signs
    a dummy first to measure it, which doubles the signing cost) when a timestamp token or revocation data go in."""
    if settings.timestamper is not None or settings.validation is not None:
        return None
    certs = sum(len(c.dump()) for c in (loaded.cert, *loaded.chain))
    needed = 4096 + certs + (512 if settings.policy is not None else 0) + 1024
    return -(-needed // 256) * 256  # pyHanko wants an even number (the bytes are written in hexadecimal)


def _keep_metadata_consistent(writer: IncrementalPdfFileWriter, now: dt.datetime) -> None:
    """PDF/A wants the document information dictionary and the XMP metadata to agree. pyHanko writes the XMP's
    producer as its own name but appends it to the information dictionary's (``WeasyPrint; pyHanko``), and stamps
    each with its own ``now``: give both the same producer and the same modification time."""
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.metadata.model import VENDOR

    writer.document_meta.last_modified = now
    info_ref = getattr(writer, "_info", None)  # the trailer's /Info (no public accessor in pyHanko 0.38)
    if "/Metadata" in writer.root and info_ref is not None:
        info = info_ref.get_object()
        if info.get("/Producer") != VENDOR:
            info["/Producer"] = generic.TextStringObject(VENDOR)
            writer.mark_update(info_ref)


def _signing_reason(exc: BaseException) -> str:
    """Why pyHanko refused to sign, in Portuguese (its own wording goes to the log)."""
    keep_original(exc, "assinatura")
    text = str(exc).lower()
    if "validat" in text or "path" in text or "trust" in text:
        return ("o certificado do signatário não foi validado até uma âncora de confiança informada (cadeia "
                "incompleta, raiz não confiável ou certificado revogado).")
    return "a biblioteca de assinatura recusou o documento, o certificado ou a política de assinatura."


def _signing_hint(exc: BaseException) -> str:
    return ("confira as âncoras de confiança (--confianca: raízes da ICP-Brasil) e as LCRs; o arquivo original não "
            "foi alterado.")


def http_timestamper(url: str) -> TimeStamper:
    """The TSA at ``url`` (RFC 3161 over HTTP): PAdES B-T."""
    if not re.match(r"^https?://", url):
        raise SignatureError(f"o endereço do servidor de carimbo do tempo '{url}' não começa com http:// nem "
                             "https://.",
                             path="--carimbo-tempo", hint="dê o endereço completo, p. ex. https://…")
    return HTTPTimeStamper(url)


@dataclass(frozen=True)
class SignedInfo:
    """What a signing produced, for the command's summary."""

    arquivo: Path
    signatario: str
    nivel: str
    sha256: str
    assinaturas: list[str] = field(default_factory=list)


def signed_info(target: Path, loaded: LoadedSigner, settings: SignSettings) -> SignedInfo:
    data = target.read_bytes()
    return SignedInfo(target, loaded.name, settings.level, hashlib.sha256(data).hexdigest(),
                      existing_signatures(data))
