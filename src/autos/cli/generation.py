"""``autos gerar``: the documents (DOCX and/or PDF) of cases and processos."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from autos.cli.common import DASK_OPTION, REGISTRO_HELP, autos_of, banco_option, fail, notice_old_files
from autos.cli.signing import batch_signing, certificate_options
from autos.errors import AutosError

if TYPE_CHECKING:  # the library is imported inside the commands that use it (start-up)
    from autos.store.database import Location


class _ActChoice(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """``--ato``: a 1-based act number, or ``ultimo``/``último`` (the processo's last act)."""

    name = "N|ultimo"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if text.casefold() in ("ultimo", "último"):
            return "ultimo"
        if text.isdigit() and text.isascii() and int(text) >= 1:
            return int(text)
        self.fail(f"'{value}' não é um número de ato (1, 2, …) nem 'ultimo'.", param, ctx)


@click.command("gerar")
@click.argument("casos", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--formato", "--format", "formato", type=click.Choice(["docx", "pdf", "ambos"]), default="ambos",
              show_default=True, help="Formato do documento.")
@click.option("-o", "--saida", "--output", "saida", type=click.Path(path_type=Path), default=Path("saida"),
              show_default=True, help="Pasta de saída.")
@click.option("--minuta", "--draft", "minuta", is_flag=True,
              help="Gera minuta (marcada MINUTA, com a lista do que falta) mesmo com pendências.")
@click.option("--arquivo", "--archive", "arquivo", is_flag=True,
              help="PDF de arquivamento: PDF/A-3b com o YAML do caso anexado e metadados de identificação.")
@click.option("--ato", "ato", type=_ActChoice(), default=None,
              help="Processo: só o documento do ato N (numerados a partir de 1, como em autos prazos) ou do "
              "último ato (--ato ultimo).")
@click.option("--processos", "--workers", "workers", type=click.IntRange(1), default=None,
              help="Processos de renderização. Padrão: um por núcleo; 1: tudo neste processo.")
@click.option("--substituir", is_flag=True,
              help="Substitui um documento já gravado com conteúdo diferente (sem isto, gerar para e avisa).")
@click.option("--registro", type=click.Path(path_type=Path, dir_okay=False), default=None, envvar="AUTOS_REGISTRO",
              help=REGISTRO_HELP + " Guarda o SHA-256 de cada documento de processo gerado.")
@click.option("--assinar", is_flag=True, help="Assina cada PDF (PAdES) antes de gravá-lo e de registrar o SHA-256: "
              "--certificado ou --pkcs11 (veja autos assinar).")
@certificate_options
@DASK_OPTION
@click.pass_context
@banco_option("registro")
def gerar(ctx: click.Context, /, casos: tuple[Path, ...], formato: str, saida: Path, minuta: bool,
          arquivo: bool, ato: int | str | None, workers: int | None, substituir: bool,
          registro: Location | None, assinar: bool, dask: str | None, **certificado: Any) -> None:
    """Gera o documento (DOCX editável e/ou PDF final) de cada caso (arquivos ou pastas).

    Num arquivo de processo (com 'atos:'): o documento de cada ato que tem um, na data do ato (ou só o do
    ato --ato N, ou do último: --ato ultimo). Um documento já gravado com conteúdo diferente não é substituído
    (salvo --substituir); um idêntico fica como está. Saída 0: tudo gerado; 1: algum caso recusado (pendências,
    documento diferente já gravado); 2: erro de leitura ou gravação.
    """
    from autos.app.register.service import ProcessoRecorder

    if arquivo and formato == "docx":
        click.echo("erro: --arquivo gera PDF/A; use --formato pdf ou ambos.", err=True)
        sys.exit(2)
    worst = 0
    notice_old_files(list(casos))  # processo files are never old ones
    autos = autos_of(ctx)  # an unusable rules or templates folder is reported first
    try:
        signing = batch_signing(assinar, certificado, minuta=minuta, formato=formato)
    except AutosError as exc:
        fail(exc)
    if signing is not None:  # signing is an argument of the pipeline, not an attribute set on it
        autos = autos_of(ctx, assinatura=signing)
    try:
        with ProcessoRecorder(registro) as recorder:
            for result in autos.generate_files(list(casos), saida, formato,  # type: ignore[arg-type]
                                                     ato=ato, draft=minuta, arquivo=arquivo, processes=workers,
                                                     replace=substituir, recorder=recorder, dask=dask):
                if result.note is not None:
                    click.echo(f"{result.path}: {result.note}", err=True)
                worst = max(worst, _echo_generated(result.error, result.exit_code, result.files, result.draft,
                                                   result.unchanged, result.exemplos))
    except AutosError as exc:
        fail(exc)
    sys.exit(worst)


def _echo_generated(error: object | None, code: int, files: Iterable[Path], draft: bool,
                    unchanged: Iterable[Path] = (), examples: Iterable[str] = ()) -> int:
    """One line per file written (``gerado``/``minuta``) or left as it was (``inalterado``), or the error; the
    exit code it counts for."""
    if error is not None:
        click.echo(f"erro: {error}", err=True)
        return code
    same = set(unchanged)
    for f in files:
        if f in same:
            click.echo(f"inalterado (idêntico ao já gravado): {f}")
        else:
            why = "; ".join(examples)
            click.echo(f"{'minuta' if draft else 'gerado'}: {f}" + (f" (valores de exemplo: {why})" if why else ""))
    return 0
