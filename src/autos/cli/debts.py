"""``autos exportar-debitos``: unpaid final fines for the dívida ativa."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from autos.cli.common import autos_of, banco_option, fail
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


@click.command("exportar-debitos")
@click.argument("pastas", nargs=-1, type=click.Path(path_type=Path))
@click.option("--desde", required=True, help="Exporta os débitos com vencimento nesta data (AAAA-MM-DD) ou depois.")
@click.option("-o", "--saida", type=click.Path(path_type=Path), default=Path("debitos"), show_default=True,
              help="Arquivo de saída (com --formato ambos: SAIDA.csv e SAIDA.json).")
@click.option("--formato", type=click.Choice(["csv", "json", "ambos"]), default="ambos", show_default=True)
@click.option("--substituir", is_flag=True, help="Grava por cima de um arquivo de saída existente.")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Sem PASTAS: lê os processos que este registro indexa (padrão: registro.sqlite3 aqui ou acima).")
@click.pass_context
@banco_option("registro")
def exportar_debitos(ctx: click.Context, pastas: tuple[Path, ...], desde: str, saida: Path, formato: str,
                     substituir: bool, registro: Location | None) -> None:
    """Multas definitivas não pagas no vencimento, em CSV e JSON, para a dívida ativa.

    Saída 0: exportado; 1: algum processo recusado (listado); 2: entrada ou saída inutilizável (nada gravado)."""
    from autos.app.debts import export_debts

    try:
        result = export_debts(autos_of(ctx), list(pastas), desde, saida, formato,  # type: ignore[arg-type]
                              substituir=substituir, registro=registro)
    except AutosError as exc:
        fail(exc)
    for line in result.lines():
        click.echo(line)
    sys.exit(result.exit_code())
