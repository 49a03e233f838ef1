"""Writing processo files: ``autos novo``, ``autos importar`` (a spreadsheet), ``autos migrar`` (old single-document
files) and ``autos schema`` (the JSON Schema for the editor)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from autos.cli.common import autos_of, banco_option, fail
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


@click.command("migrar")
@click.argument("arquivos", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--saida", "--output", "saida", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Pasta onde gravar os processos (um arquivo por processo, em <município>/).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
def migrar(arquivos: tuple[Path, ...], saida: Path, as_json: bool) -> None:
    """Agrupa arquivos antigos (um documento por arquivo) em arquivos de processo.

    Junta os documentos do mesmo auto (lei e número do auto), põe os fatos de cada um em atos, na ordem
    das datas, e grava um processo por auto. Nunca sobrescreve nem apaga; diz, com arquivo e linha, o que
    não pôde ser mapeado. Saída 0: tudo migrado; 1: algo não mapeado ou não gravado; 2: arquivo ilegível
    (nada é gravado).
    """
    from autos.app.processo.service import migrate_files
    from autos.cli.processo_formats import migration_text

    try:
        result = migrate_files(list(arquivos), saida)
    except AutosError as exc:
        fail(exc)
    click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) if as_json
               else migration_text(result, saida))
    sys.exit(result.exit_code())


@click.command("importar")
@click.argument("planilha", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--lei", required=True,
              help="Lei dos processos da planilha (p. ex. ferraz-de-vasconcelos-sp/lei-3240-2015).")
@click.option("-o", "--saida", "saida", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Pasta onde gravar os processos (um arquivo por linha, em <município>/).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro em que reservar o número de cada auto. Padrão: registro.sqlite3 na pasta de saída ou "
              "acima (sem registro, nada é reservado).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
@banco_option("registro")
def importar(ctx: click.Context, planilha: Path, lei: str, saida: Path, registro: Location | None,
             as_json: bool) -> None:
    """Importa uma planilha (CSV ou XLSX, uma linha por processo) como processos, depois de validar cada linha.

    As linhas com erro não são gravadas: o relatório diz a linha, a coluna e o motivo, com o artigo. Saída 0:
    todas gravadas; 1: alguma linha recusada; 2: planilha inutilizável (nada é gravado).
    """
    from autos.app.forms.importing import import_sheet
    from autos.app.register.service import open_register

    autos = autos_of(ctx)
    try:
        start = saida if saida.is_dir() else Path.cwd()
        reg = open_register(registro, start, create=registro is not None, required=False)
        try:
            report = import_sheet(autos, planilha, lei, saida, reg)
        finally:
            if reg is not None:
                reg.close()
    except AutosError as exc:
        fail(exc)
    click.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) if as_json else "\n".join(report.lines()))
    sys.exit(report.exit_code())


@click.command("schema")
@click.option("-o", "--saida", "saida", type=click.Path(path_type=Path), default=None,
              help="Grava o JSON Schema neste arquivo (padrão: saída padrão).")
@click.option("--processo", is_flag=True, help="Schema do arquivo de processo (com as leis, atos, infrações e "
              "penalidades das regras), em vez do arquivo de caso.")
@click.pass_context
def schema(ctx: click.Context, saida: Path | None, processo: bool) -> None:
    """Publica o JSON Schema do caso (ou do processo), para autocompletar e verificar no editor."""
    from autos.app.processo.schemas import case_json_schema
    from autos.store.files import write_atomic

    if processo:
        from autos.app.processo.schemas import processo_json_schema

        try:
            data = processo_json_schema(autos_of(ctx).rules)
        except AutosError as exc:
            fail(exc)
    else:
        data = case_json_schema()
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if saida is None:
        click.echo(text)
        return
    try:
        write_atomic(saida, (text + "\n").encode())
    except AutosError as exc:
        fail(exc)
    click.echo(f"gravado: {saida}")


@click.command("novo")
@click.argument("lei")
@click.option("--infracao", "infracoes", multiple=True, required=True,
              help="Id da infração nas regras da lei (repita para mais de uma).")
@click.option("--numero", required=True, help="Número do processo administrativo.")
@click.option("--juridica", is_flag=True, help="Autuado pessoa jurídica (padrão: pessoa física).")
@click.option("-o", "--saida", "saida", type=click.Path(path_type=Path), required=True,
              help="Arquivo do processo a criar (.yaml).")
@click.option("--substituir", is_flag=True, help="Sobrescreve o arquivo, se já existir.")
@click.option("--reservar", is_flag=True, help="Reserva no registro o número do auto (o próximo da lei no ano) e o "
              "escreve no arquivo.")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help="Registro em que reservar (com --reservar). Padrão: registro.sqlite3 na pasta do arquivo ou "
              "acima.")
@click.pass_context
@banco_option("registro")
def novo(ctx: click.Context, lei: str, infracoes: tuple[str, ...], numero: str, juridica: bool, saida: Path,
         substituir: bool, reservar: bool, registro: Location | None) -> None:
    """Cria um processo novo com os campos que o auto exige, comentados, para preencher."""
    from autos.app.processo.new_processo import write_new_processo

    try:
        autos = autos_of(ctx)
        if reservar:
            from autos.app.register.service import new_processo_reserving, open_register

            reg = open_register(registro, saida.parent if saida.parent.is_dir() else Path.cwd())
            assert reg is not None
            with reg:
                r = new_processo_reserving(autos, reg, saida, lei, list(infracoes), numero, juridica, substituir,
                                           autos.today.year)
            click.echo(f"reservado: auto nº {r.rotulo} ({lei}), no registro {reg.path}")
        else:
            write_new_processo(autos.rules, saida, lei, list(infracoes), numero, juridica, substituir)
    except AutosError as exc:
        fail(exc)
    click.echo(f"gravado: {saida} (preencha os campos vazios e confira com: autos validar {saida})")
