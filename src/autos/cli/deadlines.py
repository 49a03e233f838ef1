"""``autos prazos`` (the deadlines of a case or the timeline of a processo) and ``autos pendencias`` (the morning list
of what is due)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from autos.cli.common import autos_of, echo_stream, fail, notice_old_files
from autos.errors import AutosError


@click.command("prazos")
@click.argument("caso", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def prazos(ctx: click.Context, caso: Path, as_json: bool) -> None:
    """Data da notificação e cada prazo que dela decorre, com base legal e dias pulados.

    Num arquivo de processo (com 'atos:'): a linha do tempo, cada prazo e seu estado na data de referência
    (--hoje), a situação e o próximo ato. Saída 0: sem erros; 1: o processo tem erros; 2: ilegível.
    """
    from autos.cli.reports import deadlines_json, deadlines_table
    from autos.compute.timeline import Timeline

    notice_old_files([caso])
    try:
        result = autos_of(ctx).deadlines_report(caso)
    except AutosError as exc:
        fail(exc)
    if isinstance(result, Timeline):
        from autos.cli.processo_formats import timeline_json, timeline_text

        click.echo(json.dumps(timeline_json(result), ensure_ascii=False, indent=2) if as_json
                   else timeline_text(result))
        sys.exit(result.exit_code())
    click.echo(json.dumps(deadlines_json(result), ensure_ascii=False, indent=2) if as_json
               else deadlines_table(result))


@click.command("pendencias")
@click.argument("pastas", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--hoje", "--today", "hoje", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Data de referência AAAA-MM-DD (padrão: a opção geral --hoje, ou hoje).")
@click.option("--lei", "lei", default=None, help="Só os processos desta lei (p. ex. timoteo-mg/lei-3844-2022).")
@click.option("--agente", "agente", default=None, help="Só os processos deste agente autuante (parte do nome).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--csv", "as_csv", is_flag=True, help="Saída em CSV (planilha).")
@click.option("--html", "html", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Grava também a lista em HTML, com a linha do tempo de cada processo desenhada (um só "
              "arquivo, para abrir no navegador).")
@click.pass_context
def pendencias(ctx: click.Context, pastas: tuple[Path, ...], hoje: Any, lei: str | None, agente: str | None,
               as_json: bool, as_csv: bool, html: Path | None) -> None:
    """Lista da manhã: cada processo com sua situação e o que está devido, do mais urgente ao menos.

    Urgência: vencido, hoje, esta semana (até 7 dias), depois, sem prazo. Saída 0: tudo certo;
    1: algum processo com erro; 2: algum arquivo ilegível ou nenhum processo encontrado.
    """
    from autos.app.processo.pending_spool import spool_pending
    from autos.cli import processo_formats as fmt
    from autos.store.files import open_atomic

    autos = autos_of(ctx)
    try:  # the list is spooled on disk and printed as it is read back: memory stays flat
        report = spool_pending(autos.processos, list(pastas), hoje.date() if hoje else autos.today, lei=lei,
                               agente=agente, strips=html is not None)
        if html is not None:
            with open_atomic(html) as fh:
                for piece in fmt.iter_pending_html(report):
                    fh.write(piece.encode())
    except AutosError as exc:
        fail(exc)
    with report:
        if as_csv:  # bytes, written as they are (BOM, CRLF), whatever the terminal's encoding
            for chunk in fmt.iter_pending_csv(report):
                click.echo(chunk, nl=False)
        else:
            echo_stream((fmt.iter_pending_json if as_json else fmt.iter_pending_text)(report))
    if html is not None:
        click.echo(f"lista HTML gravada: {html}", err=True)
    sys.exit(report.exit_code())
