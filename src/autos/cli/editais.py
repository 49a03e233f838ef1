"""Editais: ``autos publicar-editais`` (the nightly publication) and the corrections of a published edital, ``autos
retificar-edital``, ``republicar-edital`` and ``cancelar-edital`` (docs/runbook-editais.md, "Correções de um edital
publicado")."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from autos.cli.common import DASK_OPTION, banco_option, fail
from autos.cli.signing import batch_signing, certificate_options
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.app.editais.run import Options
    from autos.store.database import Location


def _publish_for_terminal(options: Options) -> int:
    """Run and report for a terminal (progress bar on stderr) or a log (plain lines); return the exit code."""
    from autos.app.editais.publish import Publisher
    from autos.app.editais.run import EXIT_ERROR
    from autos.app.editais.summary import summary

    tty = sys.stderr.isatty()
    bar: Any = None
    seen = [0, 0]  # cases read, total

    def log(message: str) -> None:
        if bar is not None:
            click.echo("\r\033[K" + message, err=True)
            bar.render_progress()
        else:
            click.echo(f"autos: {message}", err=True)

    def start(total: int) -> None:
        nonlocal bar
        seen[1] = total
        if tty and total:
            bar = click.progressbar(length=total, label="casos", file=sys.stderr, show_pos=True, show_eta=True)
            bar.__enter__()

    def advance(n: int) -> None:
        seen[0] += n
        if bar is not None:
            bar.update(n)
        elif seen[1] and (seen[0] == seen[1] or seen[0] % max(1, seen[1] // 10) == 0):
            click.echo(f"autos: {seen[0]}/{seen[1]} casos lidos", err=True)

    try:
        publisher = Publisher(options, log=log, advance=advance, start=start)
    except AutosError as exc:  # the rules or templates folder is unusable: an error of the run, nothing read
        click.echo(f"erro: {exc}", err=True)
        return EXIT_ERROR
    result = publisher.run()
    if bar is not None:
        bar.__exit__(None, None, None)
    click.echo(summary(result, options))
    if result.erro is not None:
        click.echo(f"erro: {result.erro}", err=True)
    return result.exit_code


@click.command("publicar-editais")
@click.argument("casos", type=click.Path(path_type=Path, exists=True), nargs=-1, required=True)
@click.option("--data", "data", type=click.DateTime(formats=["%Y-%m-%d"]), required=True,
              help="Data da publicação no órgão oficial de imprensa (AAAA-MM-DD).")
@click.option("--data-jornal", "data_jornal", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Data da publicação no jornal local, onde a lei a exige (Timóteo). Padrão: a de --data.")
@click.option("--veiculo", multiple=True, help='Órgão oficial de imprensa: "TEXTO" ou "municipio-uf=TEXTO" '
              "(repetível).")
@click.option("--jornal", multiple=True, help='Jornal local (Timóteo): "TEXTO" ou "municipio-uf=TEXTO".')
@click.option("-o", "--saida", "--output", "saida", type=click.Path(path_type=Path), default=Path("editais"),
              show_default=True, help="Pasta de saída (editais, caderno, manifesto).")
@click.option("--ledger", "--livro", "livro", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Livro de editais (SQLite). Padrão: SAIDA/livro-editais.sqlite3.")
@click.option("--dry-run", "--simular", "dry_run", is_flag=True, help="Mostra o que seria publicado; não grava nada.")
@click.option("--processos", "--workers", "workers", type=click.IntRange(1), default=None,
              help="Processos de renderização. Padrão: um por núcleo.")
@click.option("--max-por-edital", "max_por_edital", type=click.IntRange(1), default=250, show_default=True,
              help="Casos por edital; acima disso a mesma data tem mais de um edital, numerados em sequência.")
@click.option("--assinar", is_flag=True, help="Assina cada PDF (editais e caderno, PAdES) antes de registrar o SHA-256 "
              "no livro: --certificado ou --pkcs11 (veja autos assinar).")
@certificate_options
@DASK_OPTION
@click.pass_context
@banco_option("livro")
def publicar_editais(ctx: click.Context, /, casos: tuple[Path, ...], data: Any, data_jornal: Any,
                     veiculo: tuple[str, ...], jornal: tuple[str, ...], saida: Path, livro: Location | None,
                     dry_run: bool, workers: int | None, max_por_edital: int, assinar: bool, dask: str | None,
                     **certificado: Any) -> None:
    """Publicação noturna: edital consolidado, editais individuais, caderno e manifesto (docs/runbook-editais.md).

    PASTA…: pastas (ou arquivos) de processos e de casos antigos. Num processo, o edital publicado é
    acrescentado à lista 'atos' do arquivo (o resto do arquivo fica como está).

    Saída 0: tudo publicado (ou nada a publicar); 1: algum caso recusado (os demais publicados);
    2: erro — parou; o edital em curso não deixou rastro e os anteriores ficaram publicados.
    """
    from autos.app.editais.run import Options, place_option

    o = ctx.obj
    try:
        assinatura = batch_signing(assinar and not dry_run, certificado)
    except AutosError as exc:
        fail(exc)
    sys.exit(_publish_for_terminal(Options(
        casos=tuple(casos), data=data.date(), saida=saida, data_jornal=data_jornal.date() if data_jornal else None,
        veiculos=place_option(veiculo), jornais=place_option(jornal), livro=livro, dry_run=dry_run,
        workers=workers, max_por_edital=max_por_edital, rules_dir=o["rules_dir"], templates_dir=o["templates_dir"],
        today=o["today"], assinar=assinatura, dask=dask)))


def _edital_options(f: Any) -> Any:
    f = click.option("--livro", "--ledger", "livro", type=click.Path(path_type=Path, dir_okay=False), required=True,
                     help="Livro de editais em que o edital foi publicado.")(f)
    f = click.option("--motivo", required=True, help="Por que (vai para o livro, o manifesto e o documento).")(f)
    return click.option("--lei", default=None, help="Lei do edital (id das regras, p. ex. timoteo-mg/lei-3844-2022); "
                        "obrigatória quando EDITAL é N/AAAA.")(f)


def _publication_options(f: Any) -> Any:
    f = click.option("--jornal", default=None, help="Jornal local (Timóteo). Padrão: o do edital corrigido.")(f)
    f = click.option("--veiculo", default=None, help="Órgão oficial de imprensa. Padrão: o do edital corrigido.")(f)
    f = click.option("--data-jornal", "data_jornal", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
                     help="Data da publicação no jornal, onde a lei a exige. Padrão: a de --data.")(f)
    return click.option("--data", "data", type=click.DateTime(formats=["%Y-%m-%d"]), required=True,
                        help="Data da nova publicação no órgão oficial (AAAA-MM-DD).")(f)


def _correct(ctx: click.Context, action: str, **kw: Any) -> NoReturn:
    from autos.app.editais import corrections as ec

    o = ctx.obj
    for key in ("data", "data_jornal"):
        if kw.get(key) is not None:
            kw[key] = kw[key].date()
    options = ec.CorrectionOptions(rules_dir=o["rules_dir"], templates_dir=o["templates_dir"], today=o["today"], **kw)
    try:
        result = {"retificar": ec.rectify, "republicar": ec.republish, "cancelar": ec.cancel}[action](options)
    except AutosError as exc:
        fail(exc)
    click.echo(ec.summary(result))
    sys.exit(result.exit_code)


@click.command("retificar-edital")
@click.argument("edital")
@click.argument("casos", type=click.Path(path_type=Path, exists=True, dir_okay=False), nargs=-1, required=True)
@_edital_options
@_publication_options
@click.pass_context
def retificar_edital(ctx: click.Context, /, edital: str, casos: tuple[Path, ...], **kw: Any) -> None:
    """Retificação: um novo edital, com o número seguinte da série, que diz o que muda ("onde se lê … leia-se …")
    no edital EDITAL (N/AAAA com --lei, ou o número no livro), a partir dos arquivos corrigidos CASOS.

    Saída 0: publicada; 1: publicada, mas algum processo não recebeu o ato; 2: nada gravado (erro)."""
    _correct(ctx, "retificar", edital=edital, casos=casos, **kw)


@click.command("republicar-edital")
@click.argument("edital")
@_edital_options
@_publication_options
@click.pass_context
def republicar_edital(ctx: click.Context, /, edital: str, **kw: Any) -> None:
    """Republicação: o mesmo edital numa nova data (o veículo não circulou), com o número seguinte da série; a
    notificação e os prazos seguem a nova data.

    Saída 0: publicada; 1: publicada, mas algum processo não recebeu o ato; 2: nada gravado (erro)."""
    _correct(ctx, "republicar", edital=edital, **kw)


@click.command("cancelar-edital")
@click.argument("edital")
@_edital_options
@click.option("--data", "data", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Data do cancelamento (AAAA-MM-DD). Padrão: hoje (ou --hoje).")
@click.pass_context
def cancelar_edital(ctx: click.Context, /, edital: str, data: Any, **kw: Any) -> None:
    """Cancelamento com motivo: o edital fica no livro, marcado cancelado (nunca apagado), com os seus arquivos;
    os seus casos voltam à publicação; o ato do edital em cada processo vira comentário.

    Saída 0: cancelado; 1: cancelado, mas algum processo não foi anotado; 2: nada gravado (erro)."""
    from datetime import datetime

    when = data or datetime.combine(ctx.obj["today"] or date.today(), datetime.min.time())
    _correct(ctx, "cancelar", edital=edital, data=when, **kw)
