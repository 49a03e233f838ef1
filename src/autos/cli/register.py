"""The register of the processos: ``autos numerar`` (act numbers) and ``autos registro`` (index, numbers, processos of
an autuado)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from autos.cli.common import banco_option, fail
from autos.errors import AutosError, InputError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


@click.command("numerar")
@click.argument("lei", required=False)
@click.option("--ato", "tipo", default=None, help="Tipo do ato numerado (auto, notificacao_ar, julgamento…; "
              "autos regras mostrar LEI).")
@click.option("--ano", type=click.IntRange(1900, 2999), default=None, help="Ano da numeração (padrão: o de hoje).")
@click.option("--processo", default=None, help="Número do processo a que o número se destina (recomendado).")
@click.option("--cancelar", default=None, metavar="N/AAAA", help="Cancela um número reservado e não usado (LEI e "
              "--ato só são precisos se o mesmo N/AAAA foi reservado em mais de uma série).")
@click.option("--motivo", default=None, help="Motivo do cancelamento (obrigatório com --cancelar).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro (SQLite). Padrão: registro.sqlite3 nesta pasta ou numa pasta acima.")
@click.pass_context
@banco_option("registro")
def numerar(ctx: click.Context, lei: str | None, tipo: str | None, ano: int | None, processo: str | None,
            cancelar: str | None, motivo: str | None, registro: Location | None) -> None:
    """Reserva o próximo número (Nº N/AAAA) de um tipo de ato da lei no ano, sem repetir nem pular.

    autos numerar LEI --ato TIPO [--ano AAAA]. Com --cancelar N/AAAA --motivo "…": marca um número reservado e
    abandonado como cancelado, com o motivo (ele continua no registro: a numeração não tem buraco sem
    explicação). Saída 0: feito; 2: erro.
    """
    from autos.app.processo.service import ProcessoService
    from autos.app.register.service import cancel_number, check_kind, open_register, reserve_number

    o = ctx.obj
    try:
        procedure = None
        if lei is not None:
            service = ProcessoService(o["rules_dir"])
            if not service.procedure_exists(lei):
                raise InputError(f"lei '{lei}' sem regras de processo nesta pasta de regras.",
                                 hint="veja as leis disponíveis com autos regras.")
            procedure = service.procedure(lei)
            if tipo is not None:
                check_kind(procedure, tipo)
        if cancelar is None and (procedure is None or tipo is None):
            raise InputError("informe a lei e o tipo de ato a numerar.",
                             hint="autos numerar LEI --ato TIPO, p. ex. autos numerar timoteo-mg/lei-3844-2022 "
                             "--ato auto.")
        reg = open_register(registro, Path.cwd(), create=registro is not None and cancelar is None)
        assert reg is not None
        with reg:
            if cancelar is not None:
                r = cancel_number(reg, cancelar, motivo or "", lei=lei, tipo=tipo)
                click.echo(f"cancelado: {r.tipo} nº {r.rotulo} ({r.lei}) — motivo: {r.motivo}")
                return
            assert procedure is not None and tipo is not None
            year = ano or (o["today"] or date.today()).year
            r = reserve_number(reg, procedure, tipo, year, processo=processo)
            click.echo(f"reservado: {tipo} nº {r.rotulo} ({lei})" + (f", processo {processo}" if processo else ""))
    except AutosError as exc:
        fail(exc)


@click.group("registro")
def registro_group() -> None:
    """O registro dos processos: índice, números reservados e documentos gerados (subcomandos)."""


@registro_group.command("reconstruir")
@click.argument("pasta", type=click.Path(path_type=Path, file_okay=False))
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Registro a reconstruir. Padrão: PASTA/registro.sqlite3 (criado se não existir).")
@banco_option("registro")
def registro_reconstruir(pasta: Path, registro: Location | None) -> None:
    """Refaz o índice a partir dos arquivos de processo da pasta e diz o que mudou.

    Os números reservados e os documentos gerados não vêm dos arquivos e são mantidos. Saída 0: feito;
    2: algum arquivo ilegível (listado e deixado fora do índice) ou erro do registro.
    """
    from autos.app.register.service import rebuild_folder

    try:
        result = rebuild_folder(pasta, registro)
    except AutosError as exc:
        fail(exc)
    click.echo("\n".join(result.lines()))
    sys.exit(result.exit_code())


@registro_group.command("numeros")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro (SQLite). Padrão: registro.sqlite3 nesta pasta ou numa pasta acima.")
@banco_option("registro")
def registro_numeros(registro: Location | None) -> None:
    """Lista os números reservados e cancelados (com o motivo), por lei, tipo de ato e ano."""
    from autos.app.register.service import open_register

    try:
        reg = open_register(registro, Path.cwd(), readonly=True)
        assert reg is not None
        with reg:
            for r in reg.reservations():
                extra = f" — cancelado: {r.motivo}" if r.estado == "cancelado" else ""
                para = f", processo {r.processo}" if r.processo else ""
                click.echo(f"{r.lei} {r.tipo} nº {r.rotulo}: {r.estado} em {r.reservado_em}{para}{extra}")
    except AutosError as exc:
        fail(exc)


@registro_group.command("autuado")
@click.argument("documento")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro (SQLite). Padrão: registro.sqlite3 nesta pasta ou numa pasta acima.")
@banco_option("registro")
def registro_autuado(documento: str, registro: Location | None) -> None:
    """Os processos de um autuado, pelo CPF ou CNPJ (com ou sem pontos, barra e traço)."""
    from autos.app.register.service import open_register

    try:
        reg = open_register(registro, Path.cwd(), readonly=True)
        assert reg is not None
        with reg:
            try:
                rows = reg.processos_of(documento)
            except ValueError as exc:
                raise InputError(f"{exc}.", hint="digite o CPF ou o CNPJ como está no documento do autuado.") from None
            if not rows:
                click.echo("nenhum processo deste autuado no registro.")
            for arquivo, lei, numero, nome, data, ultimo, resultado in rows:
                click.echo(f"{lei} processo {numero} ({nome}), infração de {data or 's/d'}, último ato {ultimo}"
                           + (f", resultado {resultado}" if resultado else "") + f": {reg.absolute(arquivo)}")
    except AutosError as exc:
        fail(exc)
