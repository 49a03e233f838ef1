"""A test PKI made at test time with ``cryptography``: a root CA, an intermediate CA and signer certificates (a
valid one, an expired one, one revoked in the intermediate's CRL, one without the signing key usage, one under a
root nobody trusts), each also as a PKCS#12 file. Shared by the signing and the verification tests
(``tests/test_sign*.py``, ``tests/test_conferir*.py``); build it once per session with :func:`build_pki`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

#: the password of every PKCS#12 file of the test PKI
P12_PASSWORD = b"senha-de-teste"

_NOW = dt.datetime.now(dt.UTC).replace(microsecond=0)


def _name(cn: str, *, org: str = "ICP-Teste") -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
        x509.NameAttribute(NameOID.COMMON_NAME, cn),
    ])


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class Identity:
    """A certificate, its key and the chain above it (issuer first, root last)."""

    name: str
    cert: x509.Certificate
    key: rsa.RSAPrivateKey
    chain: list[x509.Certificate] = field(default_factory=list)
    p12: Path | None = None
    pem_cert: Path | None = None
    pem_key: Path | None = None

    @property
    def serial(self) -> int:
        return self.cert.serial_number


def _ca(cn: str, key: rsa.RSAPrivateKey, issuer: Identity | None, *, path_length: int | None) -> x509.Certificate:
    subject = _name(cn)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.cert.subject if issuer else subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(_NOW - dt.timedelta(days=3650))
        .not_valid_after(_NOW + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=path_length), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                     crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    if issuer:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False)
    return builder.sign(issuer.key if issuer else key, hashes.SHA256())


def _leaf(cn: str, key: rsa.RSAPrivateKey, issuer: Identity, *, not_before: dt.datetime, not_after: dt.datetime,
          signing: bool = True) -> x509.Certificate:
    return (
        x509.CertificateBuilder()
        .subject_name(_name(cn, org="Prefeitura Municipal de Teste"))
        .issuer_name(issuer.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=signing, content_commitment=signing,
                                     key_encipherment=not signing, data_encipherment=False, key_agreement=False,
                                     key_cert_sign=False, crl_sign=False, encipher_only=False,
                                     decipher_only=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.EMAIL_PROTECTION,
                                              ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False)
        .sign(issuer.key, hashes.SHA256())
    )


@dataclass
class Pki:
    """Everything a test needs; files are under ``folder``."""

    folder: Path
    root: Identity
    intermediate: Identity
    #: agent (fiscal) and chefia: two valid signers for the "several signers in order" tests
    signer: Identity
    chefia: Identity
    expired: Identity
    revoked: Identity
    no_signing_usage: Identity
    untrusted_root: Identity
    untrusted: Identity
    #: the intermediate's CRL, listing ``revoked``
    crl: x509.CertificateRevocationList
    crl_der: Path
    root_pem: Path
    intermediate_pem: Path


def _write(identity: Identity, folder: Path) -> Identity:
    stem = folder / identity.name
    identity.p12 = stem.with_suffix(".p12")
    identity.p12.write_bytes(pkcs12.serialize_key_and_certificates(
        identity.name.encode(), identity.key, identity.cert, identity.chain,
        serialization.BestAvailableEncryption(P12_PASSWORD)))
    identity.pem_cert = stem.with_suffix(".crt.pem")
    identity.pem_cert.write_bytes(identity.cert.public_bytes(serialization.Encoding.PEM))
    identity.pem_key = stem.with_suffix(".key.pem")
    identity.pem_key.write_bytes(identity.key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return identity


def build_pki(folder: Path) -> Pki:
    """Make the test PKI under ``folder`` (created); about a second of key generation."""
    folder.mkdir(parents=True, exist_ok=True)
    root_key = _key()
    root = Identity("raiz", _ca("AC Raiz de Teste", root_key, None, path_length=1), root_key)
    inter_key = _key()
    inter = Identity("intermediaria", _ca("AC Intermediária de Teste", inter_key, root, path_length=0),
                     inter_key, [root.cert])
    chain = [inter.cert, root.cert]

    def leaf(name: str, cn: str, issuer: Identity = inter, issuer_chain: list[x509.Certificate] = chain, *,
             not_before: dt.datetime = _NOW - dt.timedelta(days=30),
             not_after: dt.datetime = _NOW + dt.timedelta(days=365), signing: bool = True) -> Identity:
        key = _key()
        cert = _leaf(cn, key, issuer, not_before=not_before, not_after=not_after, signing=signing)
        return _write(Identity(name, cert, key, list(issuer_chain)), folder)

    signer = leaf("fiscal", "MARIA DA SILVA:12345678909")
    chefia = leaf("chefia", "JOSÉ DE SOUZA:98765432100")
    expired = leaf("vencido", "ANTÔNIO VENCIDO:11144477735", not_before=_NOW - dt.timedelta(days=800),
                   not_after=_NOW - dt.timedelta(days=70))
    revoked = leaf("revogado", "PEDRO REVOGADO:25198346098")
    no_usage = leaf("sem-uso-assinatura", "ANA SEM USO:39053344705", signing=False)
    other_key = _key()
    other_root = Identity("raiz-desconhecida", _ca("AC Raiz Desconhecida", other_key, None, path_length=1),
                          other_key)
    untrusted = leaf("nao-confiavel", "CARLOS NÃO CONFIÁVEL:71428793860", other_root, [other_root.cert])

    crl = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(inter.cert.subject)
        .last_update(_NOW - dt.timedelta(days=1))
        .next_update(_NOW + dt.timedelta(days=30))
        .add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(revoked.serial)
            .revocation_date(_NOW - dt.timedelta(days=2)).build())
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(inter.key.public_key()), critical=False)
        .add_extension(x509.CRLNumber(1), critical=False)
        .sign(inter.key, hashes.SHA256())
    )
    crl_der = folder / "intermediaria.crl"
    crl_der.write_bytes(crl.public_bytes(serialization.Encoding.DER))
    root_pem = folder / "raiz.crt.pem"
    root_pem.write_bytes(root.cert.public_bytes(serialization.Encoding.PEM))
    inter_pem = folder / "intermediaria.crt.pem"
    inter_pem.write_bytes(inter.cert.public_bytes(serialization.Encoding.PEM))
    return Pki(folder, root, inter, signer, chefia, expired, revoked, no_usage, other_root, untrusted, crl, crl_der,
               root_pem, inter_pem)
