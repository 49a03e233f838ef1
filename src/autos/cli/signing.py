"""``autos assinar`` and the certificate options shared with ``--assinar`` of ``autos gerar`` and
``autos publicar-editais``. The password or PIN never comes from the command line: ``--senha-arquivo``, the
environment variable ``AUTOS_SENHA_CERTIFICADO`` or the prompt (hidden)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from autos.errors import AutosError

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = [
    click.option("--certificado", type=click.Path(path_type=Path, dir_okay=False), default=None,
                 help="Certificado A1: arquivo PKCS#12 (.p12/.pfx) com a chave privada."),
    click.option("--pkcs11", type=click.Path(path_type=Path, dir_okay=False), default=None,
                 help="Certificado A3 (token ou cartão): a biblioteca PKCS#11 do fabricante (p. ex. "
                 "/usr/lib/libeTPkcs11.so)."),
    click.option("--token", default=None, help="A3: rótulo do token."),
    click.option("--chave", default=None, help="A3: rótulo da chave (e do certificado) no token."),
    click.option("--senha-arquivo", "senha_arquivo", type=click.Path(path_type=Path, dir_okay=False), default=None,
                 help="Arquivo com a senha do certificado ou o PIN do token na primeira linha. Sem ele: a variável "
                 "AUTOS_SENHA_CERTIFICADO ou a senha é pedida no terminal."),
    click.option("--cargo", default=None, help="Cargo de quem assina, impresso no bloco da assinatura."),
    click.option("--carimbo-tempo", "carimbo_tempo", default=None, envvar="AUTOS_CARIMBO_TEMPO",
                 help="URL do servidor de carimbo do tempo (RFC 3161): PAdES B-T."),
    click.option("--politica", default=None, envvar="AUTOS_POLITICA_ASSINATURA",
                 help="Política de assinatura (ICP-Brasil AD-RB): OID,sha256:HASH[,URI], como publicada pelo ITI."),
    click.option("--confianca", multiple=True, type=click.Path(path_type=Path, dir_okay=False, exists=True),
                 help="Âncora de confiança (certificado raiz, PEM ou DER; repetível): a cadeia é validada antes de "
                 "assinar e os dados de revogação vão no PDF (B-LT com carimbo do tempo)."),
    click.option("--lcr", multiple=True, type=click.Path(path_type=Path, dir_okay=False, exists=True),
                 help="Lista de certificados revogados (LCR, DER ou PEM; repetível): certificado revogado é recusado."),
    click.option("--sem-busca-revogacao", "sem_busca", is_flag=True,
                 help="Com --confianca: não buscar LCR/OCSP na rede (só as --lcr dadas)."),
]


def certificate_options(f: F) -> F:
    for option in reversed(_OPTIONS):
        f = option(f)
    return f


def _secret(senha_arquivo: Path | None, what: str) -> str:
    from autos.app.signing import SECRET_ENV, read_secret

    if senha_arquivo is not None:
        return read_secret(senha_arquivo)
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV]
    if not sys.stdin.isatty():
        raise AutosError(f"sem {what}: nenhum terminal para digitá-la.", hint=f"use --senha-arquivo ARQUIVO ou a "
                         f"variável {SECRET_ENV}.")
    return str(click.prompt(what.capitalize(), hide_input=True, err=True))


def spec_from_options(options: dict[str, Any], *, adicionar: bool = False) -> Any:
    """The :class:`autos.app.signing.SignerSpec` of the certificate options (``options``: the command's
    keyword arguments)."""
    from autos.app.signing import SignerSpec

    what = "o PIN do token" if options.get("pkcs11") else "a senha do certificado"
    if options.get("certificado") is None and options.get("pkcs11") is None:
        raise AutosError("--assinar precisa do certificado: --certificado ARQUIVO.p12 (A1) ou --pkcs11 BIBLIOTECA "
                         "--token RÓTULO --chave RÓTULO (A3).", hint="veja docs/runbook-assinatura.md.")
    return SignerSpec(
        segredo=_secret(options.get("senha_arquivo"), what),
        certificado=options.get("certificado"), pkcs11=options.get("pkcs11"), token=options.get("token"),
        chave=options.get("chave"), cargo=options.get("cargo"), carimbo_tempo=options.get("carimbo_tempo"),
        politica=options.get("politica"), confianca=tuple(options.get("confianca") or ()),
        lcr=tuple(options.get("lcr") or ()), buscar_revogacao=not options.get("sem_busca"), adicionar=adicionar)


def pop_certificate_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Take the certificate options out of a command's keyword arguments."""
    names = ("certificado", "pkcs11", "token", "chave", "senha_arquivo", "cargo", "carimbo_tempo", "politica",
             "confianca", "lcr", "sem_busca")
    return {n: kwargs.pop(n, None) for n in names}


def batch_signing(assinar: bool, options: dict[str, Any], *, minuta: bool = False, formato: str = "pdf") -> Any:
    """``--assinar`` of a batch: the :class:`autos.app.signing.SignerSpec`, with the key opened and checked now
    (a wrong password stops the command before anything is written), or None without ``--assinar``."""
    from autos.app.signing import batch_signer

    given = [f"--{k.replace('_', '-')}" for k, v in options.items() if v not in (None, (), False)]
    if not assinar:
        if given:
            what = f"a opção {given[0]} só vale" if len(given) == 1 else f"as opções {', '.join(given)} só valem"
            raise AutosError(f"{what} com --assinar.", hint="acrescente --assinar ou tire a opção.")
        return None
    if minuta:
        raise AutosError("uma minuta não é assinada (--minuta com --assinar).", hint="gere o documento final, sem "
                         "pendências, para assiná-lo.")
    if formato == "docx":
        raise AutosError("--assinar assina PDFs; com --formato docx não há PDF.", hint="use --formato pdf ou ambos.")
    spec = spec_from_options(options)
    batch_signer(spec)
    return spec


@click.command("assinar")
@click.argument("pdf", type=click.Path(path_type=Path, dir_okay=False))
@certificate_options
@click.option("--saida", "-o", "saida", type=click.Path(path_type=Path), default=None,
              help="Arquivo (ou pasta) do PDF assinado. Padrão: NOME-assinado.pdf ao lado do original.")
@click.option("--adicionar", is_flag=True,
              help="O PDF já tem assinatura: acrescenta mais um signatário (as anteriores continuam válidas).")
def assinar(pdf: Path, saida: Path | None, adicionar: bool, **options: Any) -> None:
    """Assina um PDF (PAdES) com certificado A1 (--certificado) ou A3 (--pkcs11 --token --chave).

    O PDF assinado é gravado em outro arquivo; o original nunca é alterado. Saída 0: assinado; 2: não assinado
    (senha ou PIN errado, token ausente, certificado vencido, revogado ou sem uso de assinatura, PDF
    criptografado, danificado ou já assinado sem --adicionar).
    """
    from autos.app.signing import assinar as sign

    try:
        info = sign(pdf, spec_from_options(options, adicionar=adicionar), saida)
    except AutosError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(exc.exit_code)
    click.echo(f"assinado: {info.arquivo}")
    click.echo(f"signatário: {info.signatario}; nível: {info.nivel}; assinaturas no documento: "
               f"{len(info.assinaturas)} ({', '.join(info.assinaturas)})")
    click.echo(f"SHA-256: {info.sha256}")
