"""Command line: ``autos …``. Each command parses its options and calls one library function."""

from __future__ import annotations

import gc
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from autos.cli.authenticity import conferir
from autos.cli.authoring import importar, migrar, novo, schema
from autos.cli.checking import validar, verificar
from autos.cli.common import banco_option, fail
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
from autos.errors import AutosError, InputError

if TYPE_CHECKING:  # the pipeline and the publisher are imported by the commands that use them (start-up)
    from autos.store.database import Location

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


_USERS_REGISTRO_HELP = ("Registro onde ficam as contas. Padrão: o da configuração (--config), a variável "
                        "AUTOS_REGISTRO ou o registro dos processos de exemplo.")


def _accounts_register(config: Path | None, registro: Location | None) -> tuple[Any, tuple[str, ...] | None]:
    """The register of the accounts (created if needed) and the departments of the configuration, if any."""
    from autos.app.server import load_config
    from autos.store.register import Register

    try:
        web = load_config(config) if config is not None or registro is None else None
        path = registro if registro is not None else web.registro_local if web is not None else None
        assert path is not None
        return Register.open(path, create=True), (tuple(web.departamentos) or None) if web is not None else None
    except AutosError as exc:
        fail(exc)


@main.group("usuarios")
def usuarios_group() -> None:
    """Contas da aplicação web: criar, listar, desativar."""


@usuarios_group.command("criar")
@click.argument("login")
@click.option("--papel", required=True, type=click.Choice(["fiscal", "chefia", "procurador", "admin"]),
              help="fiscal: os próprios processos; chefia: os do departamento; procurador: ler todos e revisar; "
              "admin: contas.")
@click.option("--nome", required=True, help="Nome completo.")
@click.option("--matricula", default=None, help="Matrícula do agente (obrigatória para fiscal).")
@click.option("--departamento", default=None, help="Departamento da configuração (obrigatório para chefia).")
@click.option("--config", "config", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="Arquivo de configuração da aplicação web (o registro e os departamentos).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help=_USERS_REGISTRO_HELP)
@banco_option("registro")
def usuarios_criar(login: str, papel: str, nome: str, matricula: str | None, departamento: str | None,
                   config: Path | None, registro: Location | None) -> None:
    """Cria uma conta. A senha vem da variável AUTOS_SENHA ou é pedida duas vezes (nunca na linha de comando)."""
    import os

    from autos.app.register.accounts import create_user

    senha = os.environ.get("AUTOS_SENHA")
    if not senha:
        if not sys.stdin.isatty():
            fail(InputError("sem senha: a senha é pedida no terminal, ou vem da variável AUTOS_SENHA (nunca da linha "
                            "de comando).", hint="rode o comando num terminal, ou defina AUTOS_SENHA só para ele: "
                            "read -rs AUTOS_SENHA; export AUTOS_SENHA; autos usuarios criar …"))
        senha = click.prompt("Senha", hide_input=True, confirmation_prompt="Repita a senha", err=True)
    register, departamentos = _accounts_register(config, registro)
    try:
        with register:
            user = create_user(register, login, senha, nome=nome, papel=papel, matricula=matricula,
                               departamento=departamento, departamentos=departamentos)
    except AutosError as exc:
        fail(exc)
    click.echo(f"conta criada: {user.login} ({user.papel_nome}) no registro {register.path}")


@usuarios_group.command("listar")
@click.option("--config", "config", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="Arquivo de configuração da aplicação web (o registro).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help=_USERS_REGISTRO_HELP)
@banco_option("registro")
def usuarios_listar(config: Path | None, registro: Location | None) -> None:
    """Lista as contas (login, nome, papel, matrícula, departamento, situação)."""
    from autos.app.register.accounts import list_users

    register, _ = _accounts_register(config, registro)
    try:
        with register:
            users = list_users(register)
    except AutosError as exc:
        fail(exc)
    if not users:
        click.echo("nenhuma conta.")
    for u in users:
        click.echo(f"{u.login}\t{u.nome}\t{u.papel}\t{u.matricula or '—'}\t{u.departamento or '—'}\t"
                   f"{'ativa' if u.ativo else 'desativada'}")


@usuarios_group.command("desativar")
@click.argument("login")
@click.option("--config", "config", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
              help="Arquivo de configuração da aplicação web (o registro).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help=_USERS_REGISTRO_HELP)
@banco_option("registro")
def usuarios_desativar(login: str, config: Path | None, registro: Location | None) -> None:
    """Desativa uma conta (fica registrada, com o histórico; as sessões dela terminam)."""
    from autos.app.register.accounts import deactivate_user

    register, _ = _accounts_register(config, registro)
    try:
        with register:
            user = deactivate_user(register, login)
    except AutosError as exc:
        fail(exc)
    click.echo(f"conta desativada: {user.login}")


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
main.add_command(_assinar)
