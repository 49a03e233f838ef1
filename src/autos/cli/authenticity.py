"""``autos conferir``: a published or generated file against the ledger or the register, its digital signatures, a
verification code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from autos.cli.common import banco_option, fail
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


@click.command("conferir")
@click.argument("arquivo", type=click.Path(path_type=Path, exists=True, dir_okay=False), required=False)
@click.option("--processo", "processo", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              help="Arquivo do processo: confere o edital registrado nele com o livro (e, com ARQUIVO, se o arquivo "
              "é o edital deste processo).")
@click.option("--ledger", "--livro", "livro", type=click.Path(path_type=Path, dir_okay=False), default=None,
              envvar="AUTOS_LIVRO", show_envvar=True,
              help="Livro de editais oficial (o único em que o conferir confia; nunca um livro ao lado do arquivo).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro dos processos: confere um documento gerado por autos gerar (nunca um registro ao lado "
              "do arquivo).")
@click.option("--confiar", "confiar", multiple=True, type=click.Path(path_type=Path), envvar="AUTOS_ANCORAS",
              show_envvar=True, help="Âncora de confiança das assinaturas: certificado de AC raiz (PEM ou DER) ou "
              "pasta deles (repetível; p. ex. as raízes da ICP-Brasil).")
@click.option("--lcr", "lcr", multiple=True, type=click.Path(path_type=Path), envvar="AUTOS_LCR", show_envvar=True,
              help="LCR (lista de certificados revogados, PEM ou DER) para conferir a revogação (repetível).")
@click.option("--buscar-revogacao", is_flag=True, help="Permite buscar LCR/OCSP na rede (padrão: nunca).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--codigo", default=None,
              help="Código de verificação digitado de uma via impressa: diz de que documento é (com --registro).")
@click.pass_context
@banco_option("livro", "registro")
def conferir(ctx: click.Context, arquivo: Path | None, processo: Path | None, livro: Location | None,
             registro: Location | None, confiar: tuple[Path, ...], lcr: tuple[Path, ...], buscar_revogacao: bool,
             as_json: bool, codigo: str | None) -> None:
    """Confere um arquivo publicado ou gerado (SHA-256 contra o livro de editais, --livro, ou o registro dos
    processos, --registro) e/ou o edital de um processo (--processo); e as assinaturas digitais de um PDF. Com
    --codigo, diz de que documento é um código de verificação digitado de uma via impressa (com --registro).

    Saída 0: confere; 1: não confere (ou assinatura inválida, documento alterado depois da última assinatura);
    2: entrada inutilizável."""
    from autos.app.verification.conferir import LEDGER_ENV, check

    given = ctx.get_parameter_source("livro")
    source = f"a variável {LEDGER_ENV}" if given == click.core.ParameterSource.ENVIRONMENT else "--livro"
    if livro is not None and livro == registro:  # --banco: the register and the ledger in one database
        source = "--banco"
    try:
        outcome = check(arquivo, processo=processo, livro=livro, registro=registro, codigo=codigo, anchors=confiar,
                        crls=lcr, fetch=buscar_revogacao, as_json=as_json, source=source,
                        rules_dir=ctx.obj["rules_dir"])
    except AutosError as exc:
        fail(exc)
    if outcome.text:
        click.echo(outcome.text, err=outcome.error is not None and as_json)
    if outcome.error is not None:
        fail(outcome.error)
    sys.exit(outcome.exit_code)
