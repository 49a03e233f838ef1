"""``autos banco``: the PostgreSQL database of the register and the ledger, explicit schema migrations."""

from __future__ import annotations

import sys
from typing import Any

import click

from autos.cli.common import BANCO_HELP, fail
from autos.errors import AutosError, InputError


@click.group("banco")
def banco_group() -> None:
    """O banco PostgreSQL do registro e do livro de editais: versão do esquema e migrações (subcomandos)."""


def _banco_url(banco: str | None) -> Any:
    from autos.store.database import BANCO_ENV, DatabaseUrl

    if not banco:
        fail(InputError("nenhum banco indicado.", path="--banco",
                        hint=f"indique-o com --banco postgresql://USUARIO@SERVIDOR/BANCO ou na variável {BANCO_ENV}; "
                        "um registro ou livro em arquivo SQLite se atualiza sozinho ao ser aberto para gravar."))
    try:
        return DatabaseUrl(banco)
    except AutosError as exc:
        fail(exc)


@banco_group.command("migrar")
@click.option("--banco", default=None, envvar="AUTOS_BANCO", metavar="URL", help=BANCO_HELP)
def banco_migrar(banco: str | None) -> None:
    """Cria as tabelas do registro e do livro num banco vazio, ou aplica as migrações que faltam (numeradas,
    registradas na tabela schema_migrations), tudo numa transação. Rode uma vez a cada atualização do autos,
    depois de atualizar todas as máquinas.

    Saída 0: banco na versão desta versão do autos; 2: banco inacessível, de versão mais nova ou migração recusada
    (nada alterado)."""
    from autos.store.banco import migrate

    url = _banco_url(banco)
    try:
        done = migrate(url)
    except AutosError as exc:
        fail(exc)
    click.echo(f"banco: {url}")
    for componente, antes, depois in done:
        state = (f"formato {depois} (já estava)" if antes == depois
                 else f"formato {antes} → {depois}" if antes else f"criado no formato {depois}")
        click.echo(f"{componente}: {state}")


@banco_group.command("versao")
@click.option("--banco", default=None, envvar="AUTOS_BANCO", metavar="URL", help=BANCO_HELP)
def banco_versao(banco: str | None) -> None:
    """Mostra o formato do registro e do livro no banco e o desta versão do autos.

    Saída 0: iguais; 1: o banco precisa de autos banco migrar; 2: banco inacessível ou de versão mais nova."""
    from autos.store.banco import schema_state

    url = _banco_url(banco)
    try:
        states = schema_state(url)
    except AutosError as exc:
        fail(exc)
    click.echo(f"banco: {url}")
    code = 0
    for st in states:
        note = ""
        if st.no_banco < st.nesta_versao:
            note, code = " — rode autos banco migrar", max(code, 1)
        elif st.no_banco > st.nesta_versao:
            note, code = " — o banco é de uma versão mais nova do autos: atualize o autos", 2
        click.echo(f"{st.componente}: formato {st.no_banco} no banco, {st.nesta_versao} nesta versão{note}")
    sys.exit(code)
