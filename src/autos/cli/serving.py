"""``autos servir``: the web application."""

from __future__ import annotations

from pathlib import Path

import click

from autos.cli.common import fail
from autos.errors import AutosError


@click.command("servir")
@click.option("--config", "config", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="Arquivo de configuração (TOML): pasta dos processos, registro, porta, departamentos… "
              "(docs/runbook-web.md). Padrão: os processos de exemplo em 127.0.0.1:8000.")
@click.option("--host", default=None, help="Endereço em que escutar (padrão: o da configuração, ou 127.0.0.1).")
@click.option("--porta", "--port", "porta", type=click.IntRange(1, 65535), default=None,
              help="Porta (padrão: a da configuração, ou 8000).")
@click.pass_context
def servir(ctx: click.Context, config: Path | None, host: str | None, porta: int | None) -> None:
    """Inicia a aplicação web (processos, revisão jurídica, contas) até Ctrl+C."""
    from autos.app.server import serve

    o = ctx.obj
    try:
        serve(config, host=host, porta=porta, regras=o["rules_dir"], modelos=o["templates_dir"], hoje=o["today"])
    except AutosError as exc:
        fail(exc)
