"""What several commands share: the error exit, the pipeline of the invocation, the ``--registro``, ``--banco`` and
``--dask`` options, the notice of old single-document files, the streaming of a long report."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from autos.base.ptbr import count_noun
from autos.errors import AutosError, InputError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.app.generation.pipeline import Autos
    from autos.app.signing import SignerSpec

REGISTRO_HELP = ("Registro dos processos (SQLite). Padrão: registro.sqlite3 na pasta do processo ou numa pasta "
                 "acima.")


def fail(exc: AutosError) -> NoReturn:
    """End the command on ``exc``: ``erro: …`` on stderr, the error's exit code."""
    click.echo(f"erro: {exc}", err=True)
    sys.exit(exc.exit_code)


BANCO_HELP = ("Banco PostgreSQL (postgresql://USUARIO@SERVIDOR:PORTA/BANCO; a senha no ~/.pgpass ou em PGPASSWORD) "
              "com o registro e o livro de editais, no lugar dos arquivos SQLite (que continuam o padrão). "
              "Variável: AUTOS_BANCO.")

_Cmd = TypeVar("_Cmd", bound=Callable[..., Any])


def banco_option(*targets: str) -> Callable[[_Cmd], _Cmd]:
    """``--banco URL`` (or ``AUTOS_BANCO``): the command's ``targets`` (``registro``, ``livro``) become that
    PostgreSQL database. An option typed on the command line wins over a variable of the environment; both typed
    (or both in the environment) is refused: nothing a user typed is silently dropped."""

    def decorate(f: _Cmd) -> _Cmd:
        @functools.wraps(f)
        def wrapper(*args: Any, banco: str | None, **kwargs: Any) -> Any:
            if banco:
                from autos.store.database import BANCO_ENV, DatabaseUrl

                ctx = click.get_current_context()
                typed = click.core.ParameterSource.COMMANDLINE
                banco_typed = ctx.get_parameter_source("banco") == typed
                try:
                    url = DatabaseUrl(banco)
                except AutosError as exc:
                    fail(exc)
                for target in targets:
                    if kwargs.get(target) is not None:
                        target_typed = ctx.get_parameter_source(target) == typed
                        if target_typed and not banco_typed:
                            continue  # --registro typed, AUTOS_BANCO in the environment: the option typed
                        if target_typed == banco_typed:
                            fail(InputError(f"--banco (ou {BANCO_ENV}) e --{target} indicam dois lugares para o "
                                            f"{'livro de editais' if target == 'livro' else 'registro'}; nada foi "
                                            "feito.", hint=f"use um só: --banco para o PostgreSQL, --{target} "
                                            "para um arquivo SQLite."))
                    kwargs[target] = url
            return f(*args, **kwargs)

        return click.option("--banco", default=None, envvar="AUTOS_BANCO", metavar="URL",
                            help=BANCO_HELP)(wrapper)  # type: ignore[return-value]

    return decorate


def autos_of(ctx: click.Context, *, assinatura: SignerSpec | None = None) -> Autos:
    """The pipeline with the global options (``--regras``, ``--modelos``, ``--hoje``) of the command of ``ctx``
    (and the signer of ``--assinar``); an unusable rules or templates folder ends the command."""
    from autos.app.generation.pipeline import Autos

    o = ctx.obj
    try:
        return Autos(o["rules_dir"], o["templates_dir"], o["today"], assinatura=assinatura)
    except AutosError as exc:
        fail(exc)
        raise  # unreachable


DASK_OPTION = click.option(
    "--dask", "dask", default=None, metavar="tcp://MÁQUINA:8786", envvar="AUTOS_DASK",
    help="Renderiza nos trabalhadores de um agendador Dask (pip install 'autos[distribuido]'); a numeração, o "
    "livro, o registro e os hashes ficam neste processo. A pasta de saída e as de casos devem estar num disco "
    "compartilhado, no mesmo caminho (docs/runbook-distribuido.md).")


#: old single-document files named one by one on stderr; beyond that, a count
OLD_NOTICES = 5


def notice_old_files(paths: Iterable[Path]) -> None:
    """A Portuguese notice on stderr for each old single-document file among ``paths`` (folders expanded)."""
    from autos.app.generation.files import iter_case_paths
    from autos.app.processo.service import is_old_case_file, old_file_notice

    old = [p for p in iter_case_paths(list(paths)) if p.suffix in (".yaml", ".yml") and is_old_case_file(p)]
    for p in old[:OLD_NOTICES]:
        click.echo(old_file_notice(p), err=True)
    if len(old) > OLD_NOTICES:
        more = count_noun(len(old) - OLD_NOTICES, "arquivo antigo", "arquivos antigos")
        click.echo(f"aviso: e mais {more}, de um só documento: converta as pastas com "
                   "`autos migrar PASTA -o PASTA_NOVA`.", err=True)


def echo_stream(pieces: Iterable[str]) -> None:
    """Print a long report as it is produced, in blocks (ends with a newline, as ``click.echo`` would)."""
    block: list[str] = []
    size = 0
    last = ""
    for piece in pieces:
        block.append(piece)
        size += len(piece)
        if size >= 1 << 16:
            click.echo("".join(block), nl=False)
            last = block[-1]
            block, size = [], 0
    if block:
        last = block[-1]
        click.echo("".join(block), nl=False)
    if not last.endswith("\n"):
        click.echo()
