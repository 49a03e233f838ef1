"""Signing PDFs with a certificate (``autos assinar``, and ``--assinar`` in ``autos gerar`` and
``autos publicar-editais``): what the command line gives (:class:`SignerSpec`, picklable, sent to the worker
processes of a batch), the signer loaded once per process, and the one function ``autos assinar`` calls.

The cryptography is in :mod:`autos.sign.pades`; this module only turns options into its settings. pyHanko (≈ 1 s of
imports) is imported by the functions that sign, never by the modules that import this one for :class:`SignerSpec`:
a publication, a worker process or a command that signs nothing does not pay for it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autos.errors import OutputError, SignatureError, os_error_pt
from autos.store.files import write_atomic

if TYPE_CHECKING:
    from autos.sign import pades

#: the environment variable with the certificate's password or the token's PIN
SECRET_ENV = "AUTOS_SENHA_CERTIFICADO"


@dataclass(frozen=True)
class SignerSpec:
    """Where the key is and how to sign: an A1 file (``certificado``) or an A3 token (``pkcs11``, ``token``,
    ``chave``); ``segredo`` is the password or PIN (never from the command line: a file, the environment or the
    prompt). The rest becomes :class:`autos.sign.pades.SignSettings`."""

    segredo: str = field(repr=False)
    certificado: Path | None = None
    pkcs11: Path | None = None
    token: str | None = None
    chave: str | None = None
    cargo: str | None = None
    carimbo_tempo: str | None = None
    politica: str | None = None
    confianca: tuple[Path, ...] = ()
    lcr: tuple[Path, ...] = ()
    buscar_revogacao: bool = True
    adicionar: bool = False
    local: str | None = None

    def __post_init__(self) -> None:
        if (self.certificado is None) == (self.pkcs11 is None):
            raise SignatureError("diga onde está a chave: --certificado ARQUIVO.p12 (A1) ou --pkcs11 BIBLIOTECA "
                                 "--token RÓTULO --chave RÓTULO (A3), um dos dois.",
                                 hint="veja docs/runbook-assinatura.md.")
        if self.pkcs11 is not None and not (self.token and self.chave):
            raise SignatureError("com --pkcs11 dê também o rótulo do token (--token) e o da chave (--chave).",
                                 hint="o programa do fabricante do token mostra os dois rótulos.")


def read_secret(path: Path) -> str:
    """The password (or PIN) in the first line of a file (the line end is not part of it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = os_error_pt(exc) if isinstance(exc, OSError) else "não está em UTF-8"
        raise SignatureError(f"o arquivo da senha não pode ser lido ({why}).", file=path,
                             hint="dê um arquivo legível só por você (chmod 600) com a senha na primeira linha.") \
            from None
    lines = text.splitlines()
    if not lines or not lines[0]:
        raise SignatureError("o arquivo da senha está vazio.", file=path, hint="escreva a senha na primeira linha.")
    return lines[0]


def load_signer(spec: SignerSpec) -> pades.LoadedSigner:
    """Open the key (file or token) and check its certificate now, before any document is touched."""
    from autos.sign import pades

    if spec.certificado is not None:
        loaded = pades.load_pkcs12(spec.certificado, spec.segredo.encode("utf-8"))
    else:
        assert spec.pkcs11 is not None and spec.token and spec.chave
        loaded = pades.open_token(spec.pkcs11, spec.token, spec.chave, spec.segredo)
    try:
        pades.check_certificate(loaded, crls=_crls(spec))
    except BaseException:
        loaded.close()
        raise
    return loaded


def _crls(spec: SignerSpec) -> tuple[bytes, ...]:
    out = []
    for p in spec.lcr:
        try:
            out.append(p.read_bytes())
        except OSError as exc:
            raise SignatureError(f"a LCR não pode ser lida ({os_error_pt(exc)}).", file=p, path="--lcr") from None
    return tuple(out)


def settings(spec: SignerSpec, loaded: pades.LoadedSigner) -> pades.SignSettings:
    from autos.sign import pades

    crls = _crls(spec)
    validation = pades.validation_context(spec.confianca, crls, fetch=spec.buscar_revogacao, others=loaded.chain) \
        if spec.confianca else None
    return pades.SignSettings(
        cargo=spec.cargo,
        timestamper=pades.http_timestamper(spec.carimbo_tempo) if spec.carimbo_tempo else None,
        validation=validation,
        crls=crls,
        policy=pades.SignaturePolicy.parse(spec.politica) if spec.politica else None,
        adicionar=spec.adicionar,
        location=spec.local,
    )


def default_output(pdf: Path) -> Path:
    return pdf.with_name(f"{pdf.stem}-assinado.pdf")


def _sign_file(source: Path, target: Path, loaded: pades.LoadedSigner, how: pades.SignSettings) -> None:
    """Sign ``source`` into ``target`` (written complete to a temporary file, then renamed: store.files).
    ``source`` is never changed; ``target`` must be another file."""
    from autos.sign import pades

    same = target.absolute() == source.absolute() or (
        target.exists() and source.exists() and target.resolve() == source.resolve())
    if same:
        raise SignatureError("o arquivo assinado seria gravado por cima do original.", file=target,
                             hint="dê outro nome em --saida; o original fica como está, para conferência.")
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise SignatureError(f"o PDF não pode ser lido ({os_error_pt(exc)}).", file=source,
                             hint="confira o caminho do documento.") from None
    signed = pades.sign_pdf(data, loaded, how, source=source)
    try:
        write_atomic(target, signed)
    except OutputError as exc:
        raise SignatureError(f"o PDF assinado não pôde ser gravado: {exc.message}", file=target,
                             hint="libere espaço ou escolha outra pasta em --saida; o original não foi "
                             "alterado.") from None


def assinar(pdf: Path, spec: SignerSpec, saida: Path | None = None) -> pades.SignedInfo:
    """``autos assinar``: sign ``pdf`` into ``saida`` (default ``NOME-assinado.pdf`` beside it)."""
    from autos.sign import pades

    target = saida or default_output(pdf)
    if target.is_dir():
        target = target / default_output(pdf).name
    loaded = load_signer(spec)
    try:
        how = settings(spec, loaded)
        _sign_file(pdf, target, loaded, how)
        return pades.signed_info(target, loaded, how)
    finally:
        loaded.close()


class BatchSigner:
    """The signer of a batch, loaded once per process (the pool's initializer calls :func:`batch_signer`): signs
    each PDF's bytes before their hash is recorded."""

    def __init__(self, spec: SignerSpec) -> None:
        self.spec = spec
        self.loaded = load_signer(spec)
        self.settings = settings(spec, self.loaded)
        self.pid = os.getpid()

    def sign(self, data: bytes, source: str | Path) -> bytes:
        from autos.sign import pades

        return pades.sign_pdf(data, self.loaded, self.settings, source=source)

    def close(self) -> None:
        self.loaded.close()


_BATCH: dict[SignerSpec, BatchSigner] = {}


def batch_signer(spec: SignerSpec) -> BatchSigner:
    """This process's signer for ``spec``, loaded the first time. A worker forked from a process that had one
    loads its own (a PKCS#11 session is never shared across a fork: the library is initialised again)."""
    found = _BATCH.get(spec)
    if found is not None and found.pid == os.getpid():
        return found
    if found is not None:  # inherited by fork
        _BATCH.pop(spec, None)
        if spec.pkcs11 is not None:
            _reinitialize(spec.pkcs11)
    signer = BatchSigner(spec)
    _BATCH[spec] = signer
    return signer


def _reinitialize(lib: Path) -> None:
    """PKCS#11 (v2.40, §5.4): a child process must call C_Initialize itself; python-pkcs11 keeps one library
    object per path, which ``reinitialize`` finalizes and initializes again."""
    import pkcs11

    pkcs11.lib(str(lib)).reinitialize()


def close_batch_signers() -> None:
    for signer in _BATCH.values():
        if signer.pid == os.getpid():
            signer.close()
    _BATCH.clear()
