"""Command line: ``autos …``. Each command parses its options and calls one library function. This module holds the
group :data:`main` (the global options, the English aliases), :func:`run` and the registration of the commands; each
command lives in the module of its use case (checking.py: validar and verificar; generation.py: gerar; …), what
several of them share in common.py."""

from __future__ import annotations

import gc
import logging
from pathlib import Path
from typing import Any, ClassVar

import click

from autos.cli.accounts import usuarios_group
from autos.cli.authenticity import conferir
from autos.cli.authoring import importar, migrar, novo, schema
from autos.cli.checking import validar, verificar
from autos.cli.database import banco_group
from autos.cli.deadlines import pendencias, prazos
from autos.cli.debts import exportar_debitos
from autos.cli.editais import cancelar_edital, publicar_editais, republicar_edital, retificar_edital
from autos.cli.fines import multa
from autos.cli.generation import gerar
from autos.cli.register import numerar, registro_group
from autos.cli.rules import regras
from autos.cli.serving import servir
from autos.cli.signing import assinar as _assinar

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class _AliasGroup(click.Group):
    """Portuguese commands with English aliases (``validar``/``validate``…)."""

    ALIASES: ClassVar[dict[str, str]] = {
        "validate": "validar", "generate": "gerar", "rules": "regras", "deadlines": "prazos", "fine": "multa",
        "check": "verificar", "publish-editais": "publicar-editais", "verify-pdf": "conferir",
        "pending": "pendencias", "migrate": "migrar",
    }

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, self.ALIASES.get(cmd_name, cmd_name))


class _Warnings(logging.Handler):
    """The library's warnings and errors (the ``autos`` loggers: the Dask coordinator, the web application) on stderr,
    as this command line writes its own — ``aviso: …`` or ``erro: …``, with the traceback of a logged exception —
    written to the stream of the moment, so that click's test runner sees them too."""

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        click.echo(f"{'aviso' if record.levelno < logging.ERROR else 'erro'}: {text}", err=True)


_WARNINGS = _Warnings(logging.WARNING)


@click.group(cls=_AliasGroup, context_settings=CONTEXT)
@click.option("--regras", "--rules", "rules_dir", type=click.Path(path_type=Path), default=None,
              help="Pasta de regras (leis). Padrão: as regras que acompanham o autos.")
@click.option("--modelos", "--templates", "templates_dir", type=click.Path(path_type=Path), default=None,
              help="Pasta de modelos (docx/ e html/). Padrão: os modelos que acompanham o autos.")
@click.option("--hoje", "--today", "today", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Data de referência AAAA-MM-DD (padrão: hoje).")
@click.version_option(package_name="autos")
@click.pass_context
def main(ctx: click.Context, rules_dir: Path | None, templates_dir: Path | None, today: Any) -> None:
    """autos — autos de infração, notificações e editais a partir de casos em YAML."""
    library = logging.getLogger("autos")
    if _WARNINGS not in library.handlers:
        library.addHandler(_WARNINGS)
    ctx.obj = {"rules_dir": rules_dir, "templates_dir": templates_dir,
               "today": today.date() if today else None}


def run() -> None:
    """The ``autos`` program: :data:`main` in a process of its own (the console script and ``python -m autos.cli``).
    When the command ends, the process is about to exit: every object is frozen (:func:`gc.freeze`) so that the
    interpreter's last collection does not walk the objects of every module imported — about 5% of the CPU of a
    command that renders nothing (bench/bench_startup.py). A program that calls :data:`main` itself (a test's
    ``CliRunner``) goes on collecting as before."""
    try:
        main()
    finally:
        gc.freeze()


# the commands, each from the module of its use case (``autos --help`` lists them in alphabetical order)
main.add_command(validar)
main.add_command(verificar)
main.add_command(gerar)
main.add_command(prazos)
main.add_command(pendencias)
main.add_command(multa)
main.add_command(migrar)
main.add_command(importar)
main.add_command(schema)
main.add_command(novo)
main.add_command(regras)
main.add_command(numerar)
main.add_command(registro_group)
main.add_command(exportar_debitos)
main.add_command(publicar_editais)
main.add_command(retificar_edital)
main.add_command(republicar_edital)
main.add_command(cancelar_edital)
main.add_command(conferir)
main.add_command(banco_group)
main.add_command(servir)
main.add_command(usuarios_group)
main.add_command(_assinar)
