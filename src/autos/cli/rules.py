"""``autos regras`` and its subcommands: listar, mostrar, cobertura (and exemplos, from examples.py)."""

from __future__ import annotations

import json
import sys

import click

from autos.cli.common import autos_of, fail
from autos.errors import AutosError


@click.group("regras", invoke_without_command=True)
@click.pass_context
def regras(ctx: click.Context) -> None:
    """Lista as leis e regras disponíveis (subcomandos: listar, mostrar, cobertura, exemplos)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(regras_listar)


@regras.command("listar")
@click.pass_context
def regras_listar(ctx: click.Context) -> None:
    """Lista as leis das regras."""
    from autos.cli.describe import describe_rules

    click.echo(describe_rules(autos_of(ctx.find_root()).rules))


@regras.command("mostrar")
@click.argument("lei")
@click.pass_context
def regras_mostrar(ctx: click.Context, lei: str) -> None:
    """Mostra infrações, penalidades, elementos obrigatórios, o rito do processo e as escolhas de uma lei."""
    from autos.cli.describe import describe_procedure, describe_statute

    try:
        autos = autos_of(ctx.find_root())
        click.echo(describe_statute(autos.rules.get(lei)))
        procedure = autos.procedure_of(lei)
        if procedure is not None:
            click.echo("\n" + describe_procedure(procedure, autos.processos.authorities(lei)))
        from autos.rules.examples import list_examples

        n = len(list_examples(autos.rules.root, lei))
        click.echo(f"\nValores de exemplo: {n} (veja autos regras exemplos {lei}; um documento que usa um deles é "
                   "gerado como MINUTA)." if n else "\nValores de exemplo: nenhum.")
    except AutosError as exc:
        fail(exc)


def _add_examples_command() -> None:
    from autos.cli.examples import regras_exemplos

    regras.add_command(regras_exemplos)


_add_examples_command()


@regras.command("cobertura")
@click.argument("lei")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def regras_cobertura(ctx: click.Context, lei: str, as_json: bool) -> None:
    """Tabela de cobertura da lei: cada dispositivo do texto → papel → onde nas regras → testes.

    Saída 0: todo dispositivo do texto está na tabela e cada lugar nas regras existe; 1: há problemas.
    """
    from autos.app.verification.coverage import coverage_report
    from autos.cli.describe import describe_coverage

    try:
        report = coverage_report(autos_of(ctx.find_root()).rules, lei)
    except AutosError as exc:
        fail(exc)
    click.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) if as_json else describe_coverage(report))
    sys.exit(report.exit_code())
