"""``autos usuarios``: the accounts of the web application."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from autos.cli.common import banco_option, fail
from autos.errors import AutosError, InputError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


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


@click.group("usuarios")
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
