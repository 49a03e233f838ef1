"""``autos multa``: the memo of the fine's calculation."""

from __future__ import annotations

import json
from pathlib import Path

import click

from autos.cli.common import autos_of, fail, notice_old_files
from autos.errors import AutosError


@click.command("multa")
@click.argument("caso", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def multa(ctx: click.Context, caso: Path, as_json: bool) -> None:
    """Memória de cálculo da multa: cada passo com seu artigo, em unidades fiscais e em reais.

    Num arquivo de processo (com 'atos:'): a multa do auto e, se uma decisão a manteve, reduziu ou cancelou,
    qual valor vale e por qual ato.
    """
    from autos.checks.processo import ProcessoFine
    from autos.cli.describe import describe_fines

    notice_old_files([caso])
    try:
        result = autos_of(ctx).fine_report(caso)
    except AutosError as exc:
        fail(exc)
    if isinstance(result, ProcessoFine):
        from autos.cli.processo_formats import fine_text

        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) if as_json else fine_text(result))
        return
    if as_json:
        click.echo(json.dumps(result.to_dict() if result else None, ensure_ascii=False, indent=2))
    else:
        click.echo(describe_fines(result))
