"""``autos validar`` (cases against the law) and ``autos verificar`` (whole folders before the signature)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from autos.cli.common import DASK_OPTION, REGISTRO_HELP, autos_of, banco_option, echo_stream, fail, notice_old_files
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


@click.command("validar")
@click.argument("casos", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help=REGISTRO_HELP + " Confere os números dos atos e a reincidência contra ele.")
@click.pass_context
@banco_option("registro")
def validar(ctx: click.Context, casos: tuple[Path, ...], as_json: bool, registro: Location | None) -> None:
    """Verifica casos contra a lei. Saída 0: sem erros; 1: há erros; 2: caso ilegível."""
    from autos.app.generation.results import validation_exit_code
    from autos.app.register.history import add_register_checks
    from autos.cli.reports import reports_text

    notice_old_files(casos)
    autos = autos_of(ctx)
    reports = autos.validate_many(list(casos))
    try:
        add_register_checks(autos, reports, registro)
    except AutosError as exc:
        fail(exc)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=2))
    else:
        click.echo(reports_text(reports))
    sys.exit(validation_exit_code(reports))


@click.command("verificar")
@click.argument("pastas", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--html", "html", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Grava também o relatório em HTML (um só arquivo, para abrir no navegador).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro dos processos (SQLite) para as verificações entre processos. Padrão: registro.sqlite3 "
              "ao lado das pastas verificadas ou numa pasta acima.")
@click.option("--sem-registro", is_flag=True, help="Verificações entre processos só com os arquivos verificados.")
@DASK_OPTION
@click.pass_context
@banco_option("registro")
def verificar(ctx: click.Context, pastas: tuple[Path, ...], as_json: bool, html: Path | None, registro: Location | None,
              sem_registro: bool, dask: str | None) -> None:
    """Confere se os casos de pastas inteiras estão completos, antes da assinatura.

    Resumo por lei, por tipo de documento e por código de achado; as verificações entre processos (números
    repetidos, atos citados ausentes, os mesmos fatos duas vezes, números do registro); depois os achados de
    cada caso, com a base legal e a prescrição. Saída 0: todos completos; 1: algum caso ou verificação entre
    processos com erro; 2: algum caso ilegível, nenhum caso ou registro inutilizável.
    """
    from autos.app.verification.verify import (
        iter_verification_json,
        iter_verification_text,
        verify,
        write_verification_html,
    )

    autos = autos_of(ctx)
    notice_old_files(pastas)
    try:
        result = verify(autos, list(pastas), registro=registro, use_register=not sem_registro, dask=dask)
    except AutosError as exc:
        fail(exc)
    with result:  # the report is streamed: memory stays flat
        if as_json:
            echo_stream(iter_verification_json(result))
        else:
            echo_stream(line + "\n" for line in iter_verification_text(result))
        if html is not None:
            try:
                write_verification_html(result, html, autos.templates_dir)
            except AutosError as exc:
                fail(exc)
            click.echo(f"relatório HTML gravado: {html}", err=as_json)
        sys.exit(result.exit_code())
