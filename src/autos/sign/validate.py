"""The signatures a PDF carries, validated with pyHanko against the trust anchors the user configured.

:func:`validate_signatures` reads the PDF's bytes and returns a :class:`SignaturesReport`: per signature, in the
order they were applied, who signed (ICP-Brasil's ``NOME:CPF`` common name split), the issuer, the time the signer
claims and the timestamp token (if any), whether the signed bytes are intact, whether the certificate chains to a
configured anchor (or why not: unknown root, expired at signing time, revoked, key usage not for signing), the
revocation status (checked against the CRLs given, or not checked — said so), and what changed in the file after
the signature (nothing, validation data, later signatures, form filling, content). The report also says whether
the document was changed after its last signature.

Nothing is trusted unless configured: no operating-system trust list, no network (``fetch`` is opt-in).
An encrypted or damaged PDF, an unreadable anchor or CRL file: :class:`~autos.errors.InputError` (exit 2).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from asn1crypto import crl as asn1_crl
from asn1crypto import pem
from asn1crypto import x509 as asn1_x509
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.ades.report import AdESIndeterminate
from pyhanko.sign.diff_analysis import DiffResult, ModificationLevel
from pyhanko.sign.fields import SigSeedSubFilter, enumerate_sig_fields
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko.sign.validation.errors import SignatureValidationError
from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature
from pyhanko.sign.validation.settings import KeyUsageConstraints
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.policy_decl import CertRevTrustPolicy, RevocationCheckingPolicy, RevocationCheckingRule

from autos.errors import InputError, keep_original, os_error_pt
from autos.sign.loop import outside_event_loop


@contextmanager
def _quiet_pyhanko() -> Iterator[None]:
    """pyHanko logs every failed check with a traceback (an untrusted root is a normal verdict here, not a crash):
    the report says it in Portuguese instead, so its warnings are muted while the signatures are validated."""
    loggers = [logging.getLogger(name) for name in ("pyhanko", "pyhanko_certvalidator")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)

#: files of a trust-anchor folder that are read (PEM or DER certificates)
CERT_SUFFIXES = (".pem", ".crt", ".cer", ".der")

#: a signing certificate must assert one of these key usages (ICP-Brasil signing certificates assert both)
SIGNING_KEY_USAGES = frozenset({"digital_signature", "non_repudiation"})
_KEY_USAGE = KeyUsageConstraints(key_usage=set(SIGNING_KEY_USAGES), match_all_key_usages=False)


# --------------------------------------------------------------------------------------------------
# trust configuration


@dataclass(frozen=True)
class Trust:
    """What the validation trusts: anchor certificates, CRLs, and whether revocation data may be fetched over the
    network (never by default). ``anchor_files`` and ``crl_files`` name where each came from, for the report."""

    anchors: tuple[Any, ...] = ()
    anchor_files: tuple[Path, ...] = ()
    crls: tuple[Any, ...] = ()
    crl_files: tuple[Path, ...] = ()
    fetch: bool = False

    @property
    def anchor_names(self) -> list[str]:
        return [_cn(c.subject) for c in self.anchors]


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo de {what} ({os_error_pt(exc)}).", file=path) from None


def _der_blocks(data: bytes, pem_type: str) -> list[bytes]:
    if not pem.detect(data):
        return [data]
    return [der for kind, _headers, der in pem.unarmor(data, multiple=True) if kind == pem_type]


def _certs_of(path: Path) -> list[Any]:
    certs = []
    try:
        for der in _der_blocks(_read(path, "âncora de confiança"), "CERTIFICATE"):
            cert = asn1_x509.Certificate.load(der)
            cert.subject.human_friendly  # noqa: B018 - asn1crypto parses lazily: fail here, not in the validation
            cert.public_key.native  # noqa: B018
            certs.append(cert)
    except (ValueError, TypeError, KeyError) as exc:
        keep_original(exc, f"certificado {path}")
        raise InputError("o arquivo não é um certificado X.509 legível em PEM ou DER.", file=path,
                         hint="indique em --confiar o certificado da AC raiz (ou uma pasta com eles), p. ex. as "
                         "raízes da ICP-Brasil publicadas pelo ITI.") from None
    if not certs:
        raise InputError("o arquivo PEM não traz nenhum certificado (BEGIN CERTIFICATE).", file=path,
                         hint="indique em --confiar arquivos de certificado (.pem, .crt, .cer, .der).")
    return certs


def _crl_of(path: Path) -> list[Any]:
    crls = []
    try:
        for der in _der_blocks(_read(path, "LCR"), "X509 CRL"):
            item = asn1_crl.CertificateList.load(der)
            item["tbs_cert_list"]["issuer"].human_friendly  # noqa: B018 - parse now
            crls.append(item)
    except (ValueError, TypeError, KeyError) as exc:
        keep_original(exc, f"LCR {path}")
        raise InputError("o arquivo não é uma LCR (lista de certificados revogados) legível em PEM ou DER.",
                         file=path, hint="indique em --lcr o arquivo .crl publicado pela AC emissora.") from None
    if not crls:
        raise InputError("o arquivo PEM não traz nenhuma LCR (BEGIN X509 CRL).", file=path,
                         hint="indique em --lcr o arquivo .crl publicado pela AC emissora.")
    return crls


def load_trust(anchors: Iterable[Path] = (), crls: Iterable[Path] = (), *, fetch: bool = False) -> Trust:
    """Read the trust anchors (certificate files, PEM or DER — a PEM file may hold several —, or folders of them)
    and the CRL files. A folder without certificates, an unreadable or invalid file: :class:`InputError`."""
    certs: list[Any] = []
    files: list[Path] = []
    for given in anchors:
        if given.is_dir():
            found = sorted(p for p in given.rglob("*") if p.is_file() and p.suffix.lower() in CERT_SUFFIXES)
            if not found:
                raise InputError(f"a pasta de âncoras de confiança não tem certificados ({', '.join(CERT_SUFFIXES)}).",
                                 file=given, hint="ponha na pasta os certificados das ACs raiz em que confia.")
        elif given.exists():
            found = [given]
        else:
            raise InputError("âncora de confiança não encontrada.", file=given,
                             hint="confira o caminho dado em --confiar ou na variável AUTOS_ANCORAS.")
        for path in found:
            certs += _certs_of(path)
            files.append(path)
    lists: list[Any] = []
    crl_files: list[Path] = []
    for path in crls:
        if not path.is_file():
            raise InputError("LCR não encontrada.", file=path,
                             hint="confira o caminho dado em --lcr ou na variável AUTOS_LCR.")
        lists += _crl_of(path)
        crl_files.append(path)
    return Trust(tuple(certs), tuple(files), tuple(lists), tuple(crl_files), fetch)


# --------------------------------------------------------------------------------------------------
# the report


class Chain(StrEnum):
    """Does the signer's certificate chain to a configured anchor, valid when it signed?"""

    TRUSTED = "confiavel"
    NO_ANCHORS = "sem_ancoras"
    UNTRUSTED_ROOT = "raiz_nao_confiavel"
    EXPIRED = "vencido"
    NOT_YET_VALID = "ainda_nao_valido"
    REVOKED = "revogado"
    KEY_USAGE = "uso_de_chave_indevido"
    #: the signature does not match its bytes: pyHanko does not evaluate the chain of a broken signature
    NOT_CHECKED = "nao_avaliada"
    FAILED = "falha"


class Revocation(StrEnum):
    NOT_REVOKED = "nao_revogado"  # every certificate below the anchor checked against revocation data
    SIGNER_NOT_REVOKED = "signatario_nao_revogado"  # the signer's certificate checked; its CAs' not available
    REVOKED = "revogado"
    UNKNOWN = "desconhecida"  # revocation data configured, none that covers this certificate
    NOT_CONFIGURED = "sem_lcr"  # no CRL given and no fetching: not checked
    NOT_APPLICABLE = "nao_se_aplica"  # the chain already failed


class Changes(StrEnum):
    """What the file gained after the revision a signature covers."""

    NONE = "nenhuma"
    VALIDATION_DATA = "dados_de_validacao"
    LATER_SIGNATURES = "assinaturas_seguintes"
    FORM_FILLING = "preenchimento_de_formulario"
    ANNOTATIONS = "anotacoes"
    CONTENT = "conteudo"
    UNKNOWN = "desconhecidas"


#: changes after a signature that leave it standing (the document-level verdict still reports any of them that
#: come after the *last* signature)
ACCEPTED_CHANGES = frozenset({Changes.NONE, Changes.VALIDATION_DATA, Changes.LATER_SIGNATURES, Changes.FORM_FILLING})


@dataclass(frozen=True)
class Timestamp:
    """A timestamp token (RFC 3161): the signature's, or a document timestamp."""

    time: datetime
    intact: bool
    trusted: bool
    tsa: str

    @property
    def ok(self) -> bool:
        return self.intact and self.trusted


@dataclass(frozen=True)
class SignatureCheck:
    order: int
    field: str
    #: False for a document timestamp (/DocTimeStamp): a TSA's token over the file, not a person's signature
    is_signature: bool
    revision: int
    subject: str | None = None
    name: str | None = None
    #: the CPF (11 digits) or CNPJ (14) of an ICP-Brasil "NOME:NÚMERO" common name
    tax_id: str | None = None
    issuer: str | None = None
    not_before: datetime | None = None
    not_after: datetime | None = None
    claimed_time: datetime | None = None
    timestamp: Timestamp | None = None
    intact: bool = False
    chain: Chain = Chain.FAILED
    chain_detail: str | None = None
    anchor: str | None = None
    valid_at_signing: bool | None = None
    #: the chain is trusted at the timestamp's time (the certificate expired after it)
    trusted_by_timestamp: bool = False
    revocation: Revocation = Revocation.NOT_APPLICABLE
    revocation_date: datetime | None = None
    key_usage_ok: bool | None = None
    whole_file: bool = False
    #: the signature covers its whole revision (ENTIRE_REVISION or better); False: a byte range with holes
    covers_revision: bool = False
    changes: Changes = Changes.UNKNOWN
    changed_fields: tuple[str, ...] = ()
    docmdp_ok: bool | None = None
    #: why the signature could not be read at all (then nothing else is known)
    unreadable: str | None = None

    @property
    def signing_time(self) -> datetime | None:
        """The best time known for the signature: the timestamp's if it is valid, else the signer's claim."""
        if self.timestamp is not None and self.timestamp.ok:
            return self.timestamp.time
        return self.claimed_time

    @property
    def valid_for_revision(self) -> bool:
        """Intact, trusted and timely for the revision it signed (whatever came after it)."""
        return (self.unreadable is None and self.intact and self.chain == Chain.TRUSTED
                and self.revocation != Revocation.REVOKED
                and (self.timestamp is None or self.timestamp.ok) and self.covers_revision)

    @property
    def ok(self) -> bool:
        return self.valid_for_revision and self.changes in ACCEPTED_CHANGES and self.docmdp_ok is not False


@dataclass(frozen=True)
class SignaturesReport:
    signatures: tuple[SignatureCheck, ...]
    revisions: int
    trust: Trust

    @property
    def changed_after_last(self) -> bool:
        """The file has more than validation data after the revision its last signature covers."""
        if not self.signatures or self.signatures[-1].unreadable is not None:
            return False  # nothing known (an unreadable last signature fails by itself)
        return self.signatures[-1].changes not in (Changes.NONE, Changes.VALIDATION_DATA)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.signatures) and not self.changed_after_last


# --------------------------------------------------------------------------------------------------
# validation


def _cn(name: Any) -> str:
    """The common name of an asn1crypto Name (or its readable form when it has none)."""
    native = name.native
    cn = native.get("common_name") if isinstance(native, dict) else None
    if isinstance(cn, list):
        cn = cn[-1]
    return str(cn) if cn else str(name.human_friendly)


def split_icp_name(cn: str) -> tuple[str, str | None]:
    """ICP-Brasil's common name of a person (``NOME:CPF``) or company (``RAZÃO SOCIAL:CNPJ``): the name and the
    number; another common name is all name."""
    head, sep, tail = cn.rpartition(":")
    if sep and head.strip() and tail.isdigit() and len(tail) in (11, 14):
        return head.strip(), tail
    return cn, None


def _key_usage_ok(cert: Any) -> bool:
    usage = cert.key_usage_value
    return usage is not None and bool(set(usage.native) & SIGNING_KEY_USAGES)


def _context(trust: Trust, *, moment: datetime | None = None,
             revocation: CertRevTrustPolicy | None = None) -> ValidationContext:
    return ValidationContext(
        trust_roots=list(trust.anchors), crls=list(trust.crls) or None, allow_fetching=trust.fetch,
        revinfo_policy=revocation if revocation is not None else CertRevTrustPolicy(RevocationCheckingPolicy(
            RevocationCheckingRule.CHECK_IF_DECLARED_SOFT, RevocationCheckingRule.CHECK_IF_DECLARED_SOFT)),
        moment=moment)


#: revocation data required for the signer's certificate and every CA certificate below the anchor; then for the
#: signer's certificate only (the CA's own CRL is often not at hand)
_WHOLE_CHAIN = CertRevTrustPolicy(RevocationCheckingPolicy(RevocationCheckingRule.CRL_OR_OCSP_REQUIRED,
                                                           RevocationCheckingRule.CRL_OR_OCSP_REQUIRED))
_SIGNER_ONLY = CertRevTrustPolicy(RevocationCheckingPolicy(RevocationCheckingRule.CRL_OR_OCSP_REQUIRED,
                                                           RevocationCheckingRule.CHECK_IF_DECLARED_SOFT))

_EXPIRY = {AdESIndeterminate.OUT_OF_BOUNDS_NO_POE, AdESIndeterminate.OUT_OF_BOUNDS_NOT_REVOKED,
           AdESIndeterminate.EXPIRED, AdESIndeterminate.NOT_YET_VALID}
_REVOKED = {AdESIndeterminate.REVOKED_NO_POE, AdESIndeterminate.REVOKED_CA_NO_POE}


def _validate(emb: Any, trust: Trust, *, moment: datetime | None = None,
              revocation: CertRevTrustPolicy | None = None, skip_diff: bool = True) -> Any:
    ctx = _context(trust, moment=moment, revocation=revocation)
    return validate_pdf_signature(emb, ctx, key_usage_settings=_KEY_USAGE, skip_diff=skip_diff)


def _chain(status: Any, cert: Any, when: datetime | None, trust: Trust) -> tuple[Chain, str | None]:
    if status.trusted:
        return Chain.TRUSTED, None
    if not (status.intact and status.valid):
        return Chain.NOT_CHECKED, None
    indic = status.trust_problem_indic
    if indic in _REVOKED:
        return Chain.REVOKED, "certificado de AC da cadeia revogado" if indic == AdESIndeterminate.REVOKED_CA_NO_POE \
            else None
    if indic in _EXPIRY:
        start, end = cert.not_valid_before, cert.not_valid_after
        if when is not None and when < start:
            return Chain.NOT_YET_VALID, None
        if when is not None and when > end:
            return Chain.EXPIRED, None
        return Chain.EXPIRED, "vencido depois da assinatura, sem carimbo do tempo que prove a data"
    if not trust.anchors:
        return Chain.NO_ANCHORS, None
    if indic == AdESIndeterminate.NO_CERTIFICATE_CHAIN_FOUND:
        return Chain.UNTRUSTED_ROOT, None
    if indic == AdESIndeterminate.CHAIN_CONSTRAINTS_FAILURE and not _key_usage_ok(cert):
        return Chain.KEY_USAGE, None
    return Chain.FAILED, str(indic.name if indic is not None else "sem caminho de certificação")


def _anchor(status: Any) -> str | None:
    path = status.validation_path
    if path is None:
        return None
    return _cn(path.trust_anchor.authority.name)


def _revocation(emb: Any, trust: Trust, moment: datetime | None) -> tuple[Revocation, datetime | None]:
    """Check revocation with data required: for the whole chain, else for the signer's certificate alone."""
    if not trust.crls and not trust.fetch:
        return Revocation.NOT_CONFIGURED, None
    for policy, verdict in ((_WHOLE_CHAIN, Revocation.NOT_REVOKED), (_SIGNER_ONLY, Revocation.SIGNER_NOT_REVOKED)):
        status = _validate(emb, trust, moment=moment, revocation=policy)
        if status.revoked:
            return Revocation.REVOKED, status.revocation_details.revocation_date
        if status.trusted:
            return verdict, None
    return Revocation.UNKNOWN, None


def _changes(status: Any, later_fields: set[str]) -> tuple[Changes, tuple[str, ...]]:
    coverage = status.coverage
    if coverage == SignatureCoverageLevel.ENTIRE_FILE:
        return Changes.NONE, ()
    diff = status.diff_result
    if diff is None:
        return Changes.UNKNOWN, ()
    if not isinstance(diff, DiffResult):
        return Changes.CONTENT, ()
    level = diff.modification_level
    fields = tuple(sorted(str(f) for f in diff.changed_form_fields))
    if level == ModificationLevel.NONE:
        return Changes.NONE, fields
    if level == ModificationLevel.LTA_UPDATES:
        return Changes.VALIDATION_DATA, fields
    if level == ModificationLevel.FORM_FILLING:
        return (Changes.LATER_SIGNATURES if set(fields) <= later_fields else Changes.FORM_FILLING), fields
    if level == ModificationLevel.ANNOTATIONS:
        return Changes.ANNOTATIONS, fields
    return Changes.CONTENT, fields


def _timestamp(ts: Any) -> Timestamp | None:
    if ts is None:
        return None
    return Timestamp(ts.timestamp, bool(ts.intact and ts.valid), bool(ts.trusted), _cn(ts.signing_cert.subject))


def _unreadable(exc: BaseException, what: str) -> str:
    """Why a signature or timestamp could not be validated, in Portuguese (pyHanko's wording goes to the log)."""
    keep_original(exc, what)
    if isinstance(exc, SignatureValidationError):
        return f"{what} usa um formato ou um algoritmo que não pode ser conferido"
    return f"o conteúdo d{what} está corrompido"


def _check_signature(order: int, emb: Any, trust: Trust, later_fields: set[str]) -> SignatureCheck:
    field = str(emb.field_name)
    revision = int(emb.signed_revision) + 1
    try:
        status = validate_pdf_signature(emb, _context(trust), key_usage_settings=_KEY_USAGE)
    except (SignatureValidationError, PdfError, ValueError) as exc:
        return SignatureCheck(order, field, True, revision, unreadable=_unreadable(exc, "a assinatura"))
    cert = status.signing_cert
    subject = _cn(cert.subject)
    name, tax_id = split_icp_name(subject)
    timestamp = _timestamp(status.timestamp_validity)
    claimed = status.signer_reported_dt
    when = timestamp.time if timestamp is not None and timestamp.ok else claimed
    chain, detail = _chain(status, cert, when, trust)
    moment = None
    by_timestamp = False
    anchor = _anchor(status)
    if chain == Chain.EXPIRED and timestamp is not None and timestamp.ok and detail is not None:
        # valid when the timestamp proves it signed: validate the chain at that moment
        again = _validate(emb, trust, moment=timestamp.time)
        if again.trusted:
            chain, detail, moment, by_timestamp, anchor = Chain.TRUSTED, None, timestamp.time, True, _anchor(again)
    details = status.revocation_details
    revoked_at = details.revocation_date if details is not None else None
    if chain == Chain.TRUSTED:
        revocation, revoked_at = _revocation(emb, trust, moment)
        if revocation == Revocation.REVOKED:
            chain = Chain.REVOKED
    elif chain == Chain.REVOKED:
        revocation = Revocation.REVOKED
    else:
        revocation = Revocation.NOT_APPLICABLE
    changes, fields = _changes(status, later_fields)
    start, end = cert.not_valid_before, cert.not_valid_after
    return SignatureCheck(
        order, field, True, revision, subject=subject, name=name, tax_id=tax_id, issuer=_cn(cert.issuer),
        not_before=start, not_after=end, claimed_time=claimed, timestamp=timestamp,
        intact=bool(status.intact and status.valid), chain=chain, chain_detail=detail, anchor=anchor,
        valid_at_signing=None if when is None else start <= when <= end, trusted_by_timestamp=by_timestamp,
        revocation=revocation, revocation_date=revoked_at, key_usage_ok=_key_usage_ok(cert),
        whole_file=status.coverage == SignatureCoverageLevel.ENTIRE_FILE,
        covers_revision=status.coverage in (SignatureCoverageLevel.ENTIRE_REVISION,
                                            SignatureCoverageLevel.ENTIRE_FILE),
        changes=changes, changed_fields=fields, docmdp_ok=status.docmdp_ok)


def _check_doc_timestamp(order: int, emb: Any, trust: Trust, later_fields: set[str]) -> SignatureCheck:
    field = str(emb.field_name)
    revision = int(emb.signed_revision) + 1
    try:
        status = validate_pdf_timestamp(emb, _context(trust))
    except (SignatureValidationError, PdfError, ValueError) as exc:
        return SignatureCheck(order, field, False, revision, unreadable=_unreadable(exc, "o carimbo do tempo"))
    cert = status.signing_cert
    chain, detail = _chain(status, cert, status.timestamp, trust)
    changes, fields = _changes(status, later_fields)
    ts = Timestamp(status.timestamp, bool(status.intact and status.valid), bool(status.trusted), _cn(cert.subject))
    return SignatureCheck(
        order, field, False, revision, subject=ts.tsa, name=ts.tsa, issuer=_cn(cert.issuer),
        not_before=cert.not_valid_before, not_after=cert.not_valid_after, timestamp=ts, intact=ts.intact,
        chain=chain, chain_detail=detail, anchor=_anchor(status), valid_at_signing=True if chain == Chain.TRUSTED
        else None, revocation=Revocation.NOT_APPLICABLE,
        key_usage_ok=None, whole_file=status.coverage == SignatureCoverageLevel.ENTIRE_FILE,
        covers_revision=status.coverage in (SignatureCoverageLevel.ENTIRE_REVISION, SignatureCoverageLevel.ENTIRE_FILE),
        changes=changes, changed_fields=fields, docmdp_ok=status.docmdp_ok)


def open_pdf(data: bytes, source: str | Path | None = None) -> Any:
    """pyHanko's reader over ``data``; an encrypted or damaged PDF is an :class:`InputError` naming ``source``."""
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError("o arquivo não é um PDF (não começa com %PDF-).", file=source,
                         hint="indique o arquivo PDF assinado.")
    try:
        reader = PdfFileReader(io.BytesIO(data))
        if reader.encrypted:
            raise InputError("o PDF está cifrado (protegido por senha): as assinaturas não podem ser conferidas sem "
                             "abri-lo.", file=source,
                             hint="peça ao remetente o PDF sem proteção por senha, como foi assinado.")
        reader.root  # noqa: B018 - the catalogue: a file without one is damaged
        reader.xrefs.total_revisions  # noqa: B018
    except (PdfError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        keep_original(exc, f"PDF {source}")
        raise InputError("o PDF está danificado e não pode ser lido.", file=source,
                         hint="obtenha de novo o arquivo original (o recebido pode estar truncado ou corrompido).") \
            from None
    return reader


_SUPPORTED_SUBFILTERS = frozenset(str(f.value) for f in SigSeedSubFilter)


def _embedded(reader: Any) -> list[tuple[str, int, Any]]:
    """The filled signature fields, in signing order: (name, revision, pyHanko's EmbeddedPdfSignature — or, for a
    signature that cannot be read, the reason as a string). pyHanko's own ``embedded_signatures`` stops at the first
    unreadable signature and skips, with a log line only, those of a type it does not support: here each one is
    reported."""
    found: list[tuple[str, int, Any]] = []
    for name, sig_obj, sig_field in enumerate_sig_fields(reader, filled_status=True):
        field = sig_field.get_object() if isinstance(sig_field, generic.IndirectObject) else sig_field  # type: ignore[no-untyped-call]
        value = field.raw_get("/V")
        revision = (int(reader.xrefs.get_last_change(value.reference))
                    if isinstance(value, generic.IndirectObject) else reader.xrefs.total_revisions - 1)
        sig_dict: Any = sig_obj
        subfilter = sig_dict.get_object().get("/SubFilter")
        if str(subfilter) not in _SUPPORTED_SUBFILTERS:
            found.append((str(name), revision, f"tipo de assinatura não suportado (SubFilter {subfilter})"))
            continue
        try:
            found.append((str(name), revision, EmbeddedPdfSignature(reader, field, name)))
        except (PdfError, ValueError, KeyError, TypeError) as exc:
            keep_original(exc, f"assinatura {name}")
            found.append((str(name), revision, "o conteúdo da assinatura está corrompido"))
    return sorted(found, key=lambda item: item[1])


def validate_signatures(data: bytes, trust: Trust, *, source: str | Path | None = None) -> SignaturesReport:
    """Validate every signature (and document timestamp) of the PDF ``data`` against ``trust``."""
    return outside_event_loop(_validate_all, data, trust, source)


def _validate_all(data: bytes, trust: Trust, source: str | Path | None) -> SignaturesReport:
    with _quiet_pyhanko():
        reader = open_pdf(data, source)
        try:
            embedded = _embedded(reader)
        except (PdfError, ValueError, KeyError, TypeError, AttributeError) as exc:
            keep_original(exc, f"PDF {source}")
            raise InputError("os campos de assinatura do PDF estão danificados.",
                             file=source, hint="obtenha de novo o arquivo original.") from None
        names = [name for name, _rev, _emb in embedded]
        checks: list[SignatureCheck] = []
        for i, (name, revision, emb) in enumerate(embedded):
            later = set(names[i + 1:])
            if isinstance(emb, str):
                checks.append(SignatureCheck(i + 1, name, True, revision + 1, unreadable=emb))
            elif emb.sig_object_type == "/DocTimeStamp":
                checks.append(_check_doc_timestamp(i + 1, emb, trust, later))
            else:
                checks.append(_check_signature(i + 1, emb, trust, later))
    return SignaturesReport(tuple(checks), int(reader.xrefs.total_revisions), trust)
