"""Command line: ``autos …``. Each command parses its options and calls one library function."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

import click

from autos.app.pipeline import Autos
from autos.errors import AutosError, InputError

if TYPE_CHECKING:  # the publisher is imported by its command only (start-up)
    from autos.app.publish import Options

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


def _fail(exc: AutosError) -> NoReturn:
    click.echo(f"erro: {exc}", err=True)
    sys.exit(exc.exit_code)


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
    ctx.obj = {"rules_dir": rules_dir, "templates_dir": templates_dir,
               "today": today.date() if today else None}


def _autos(ctx: click.Context) -> Autos:
    o = ctx.obj
    try:
        return Autos(o["rules_dir"], o["templates_dir"], o["today"])
    except AutosError as exc:
        _fail(exc)
        raise  # unreachable


@main.command("validar")
@click.argument("casos", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def validar(ctx: click.Context, casos: tuple[Path, ...], as_json: bool) -> None:
    """Verifica casos contra a lei. Saída 0: sem erros; 1: há erros; 2: caso ilegível."""
    from autos.checks.validate import exit_code, reports_text

    _notice_old_files(casos)
    reports = _autos(ctx).validate_many(list(casos))
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=2))
    else:
        click.echo(reports_text(reports))
    sys.exit(exit_code(reports))


@main.command("verificar")
@click.argument("pastas", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--html", "html", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Grava também o relatório em HTML (um só arquivo, para abrir no navegador).")
@click.pass_context
def verificar(ctx: click.Context, pastas: tuple[Path, ...], as_json: bool, html: Path | None) -> None:
    """Confere se os casos de pastas inteiras estão completos, antes da assinatura.

    Resumo por lei, por tipo de documento e por código de achado; depois os achados de cada caso, com a
    base legal. Saída 0: todos completos; 1: algum caso com erro; 2: algum caso ilegível ou nenhum caso.
    """
    from autos.app.verify import iter_verification_json, iter_verification_text, verify, write_verification_html

    autos = _autos(ctx)
    _notice_old_files(pastas)
    with verify(autos, list(pastas)) as result:  # the report is streamed: memory stays flat
        if as_json:
            _echo_stream(iter_verification_json(result))
        else:
            _echo_stream(line + "\n" for line in iter_verification_text(result))
        if html is not None:
            try:
                write_verification_html(result, html, autos.templates_dir)
            except AutosError as exc:
                _fail(exc)
            click.echo(f"relatório HTML gravado: {html}", err=as_json)
        sys.exit(result.exit_code())


#: old single-document files named one by one on stderr; beyond that, a count
_OLD_NOTICES = 5


def _notice_old_files(paths: Iterable[Path]) -> None:
    """A Portuguese notice on stderr for each old single-document file among ``paths`` (folders expanded)."""
    from autos.app.pipeline import iter_case_paths
    from autos.app.processo import is_old_case_file, old_file_notice

    old = [p for p in iter_case_paths(list(paths)) if p.suffix in (".yaml", ".yml") and is_old_case_file(p)]
    for p in old[:_OLD_NOTICES]:
        click.echo(old_file_notice(p), err=True)
    if len(old) > _OLD_NOTICES:
        click.echo(f"aviso: e mais {len(old) - _OLD_NOTICES} arquivo(s) antigo(s), de um só documento: converta "
                   "as pastas com `autos migrar PASTA -o PASTA_NOVA`.", err=True)


def _echo_stream(pieces: Iterable[str]) -> None:
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


@main.command("gerar")
@click.argument("casos", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--formato", "--format", "formato", type=click.Choice(["docx", "pdf", "ambos"]), default="ambos",
              show_default=True, help="Formato do documento.")
@click.option("-o", "--saida", "--output", "saida", type=click.Path(path_type=Path), default=Path("saida"),
              show_default=True, help="Pasta de saída.")
@click.option("--minuta", "--draft", "minuta", is_flag=True,
              help="Gera minuta (marcada MINUTA, com a lista do que falta) mesmo com pendências.")
@click.option("--arquivo", "--archive", "arquivo", is_flag=True,
              help="PDF de arquivamento: PDF/A-3b com o YAML do caso anexado e metadados de identificação.")
@click.option("--ato", "ato", type=click.IntRange(1), default=None,
              help="Processo: só o documento do ato N (numerados a partir de 1, como em autos prazos).")
@click.option("--processos", "--workers", "workers", type=click.IntRange(1), default=None,
              help="Processos de renderização. Padrão: um por núcleo; 1: tudo neste processo.")
@click.pass_context
def gerar(ctx: click.Context, casos: tuple[Path, ...], formato: str, saida: Path, minuta: bool,
          arquivo: bool, ato: int | None, workers: int | None) -> None:
    """Gera o documento (DOCX editável e/ou PDF final) de cada caso (arquivos ou pastas).

    Num arquivo de processo (com 'atos:'): o documento de cada ato que tem um, na data do ato (ou só o do
    ato --ato N). Saída 0: tudo gerado; 1: algum caso recusado por pendências; 2: erro de leitura ou gravação.
    """
    from autos.app.pipeline import expand_case_paths
    from autos.app.processo import is_processo_file

    if arquivo and formato == "docx":
        click.echo("erro: --arquivo gera PDF/A; use --formato pdf ou ambos.", err=True)
        sys.exit(2)
    autos = _autos(ctx)
    files = expand_case_paths(list(casos))
    processos = [f for f in files if is_processo_file(f)]
    worst = 0
    for path in processos:
        try:
            acts = autos.generate_processo(path, saida, formato, ato=ato, draft=minuta,  # type: ignore[arg-type]
                                           arquivo=arquivo)
        except AutosError as exc:
            acts = [(0, exc)]
        if not acts:
            click.echo(f"{path}: nenhum ato do processo tem documento a gerar.", err=True)
        for _n, done in acts:
            if isinstance(done, AutosError):
                worst = max(worst, _echo_generated(done, done.exit_code, [], False))
            else:
                worst = max(worst, _echo_generated(None, 0, done.files, done.draft))
    others = [f for f in files if f not in processos]
    _notice_old_files(others)
    try:
        for result in autos.generate_each(others, saida, formato,  # type: ignore[arg-type]
                                          draft=minuta, arquivo=arquivo, processes=workers):
            worst = max(worst, _echo_generated(result.error, result.exit_code, result.files, result.draft))
    except AutosError as exc:
        _fail(exc)
    sys.exit(worst)


def _echo_generated(error: object | None, code: int, files: Iterable[Path], draft: bool) -> int:
    """One line per file written (``gerado``/``minuta``), or the error; the exit code it counts for."""
    if error is not None:
        click.echo(f"erro: {error}", err=True)
        return code
    for f in files:
        click.echo(f"{'minuta' if draft else 'gerado'}: {f}")
    return 0


@main.command("prazos")
@click.argument("caso", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def prazos(ctx: click.Context, caso: Path, as_json: bool) -> None:
    """Data da notificação e cada prazo que dela decorre, com base legal e dias pulados.

    Num arquivo de processo (com 'atos:'): a linha do tempo, cada prazo e seu estado na data de referência
    (--hoje), a situação e o próximo ato. Saída 0: sem erros; 1: o processo tem erros; 2: ilegível.
    """
    from autos.app.processo import is_processo_file
    from autos.documents.notice import deadlines_json, deadlines_table

    if is_processo_file(caso):
        from autos.app.processo import ProcessoService
        from autos.cli.processo_formats import timeline_json, timeline_text

        o = ctx.obj
        try:
            t = ProcessoService(o["rules_dir"]).timeline_of(caso, o["today"] or date.today())
        except AutosError as exc:
            _fail(exc)
        click.echo(json.dumps(timeline_json(t), ensure_ascii=False, indent=2) if as_json else timeline_text(t))
        sys.exit(t.exit_code())
    _notice_old_files([caso])
    try:
        result = _autos(ctx).deadlines_of(caso)
    except AutosError as exc:
        _fail(exc)
    click.echo(json.dumps(deadlines_json(result), ensure_ascii=False, indent=2) if as_json
               else deadlines_table(result))


@main.command("pendencias")
@click.argument("pastas", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--hoje", "--today", "hoje", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Data de referência AAAA-MM-DD (padrão: a opção geral --hoje, ou hoje).")
@click.option("--lei", "lei", default=None, help="Só os processos desta lei (p. ex. timoteo-mg/lei-3844-2022).")
@click.option("--agente", "agente", default=None, help="Só os processos deste agente autuante (parte do nome).")
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.option("--csv", "as_csv", is_flag=True, help="Saída em CSV (planilha).")
@click.option("--html", "html", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Grava também a lista em HTML (um só arquivo, para abrir no navegador).")
@click.pass_context
def pendencias(ctx: click.Context, pastas: tuple[Path, ...], hoje: Any, lei: str | None, agente: str | None,
               as_json: bool, as_csv: bool, html: Path | None) -> None:
    """Lista da manhã: cada processo com sua situação e o que está devido, do mais urgente ao menos.

    Urgência: vencido, hoje, esta semana (até 7 dias), depois, sem prazo. Saída 0: tudo certo;
    1: algum processo com erro; 2: algum arquivo ilegível ou nenhum processo encontrado.
    """
    from autos.app.processo import ProcessoService
    from autos.cli.processo_formats import pending_csv, pending_html, pending_json, pending_text

    o = ctx.obj
    when = hoje.date() if hoje else (o["today"] or date.today())
    try:
        report = ProcessoService(o["rules_dir"]).pending(list(pastas), when, lei=lei, agente=agente)
        if html is not None:
            from autos.store.files import write_atomic

            write_atomic(html, pending_html(report).encode())
    except AutosError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(pending_json(report), ensure_ascii=False, indent=2))
    elif as_csv:
        click.echo(pending_csv(report), nl=False)
    else:
        click.echo(pending_text(report))
    if html is not None:
        click.echo(f"lista HTML gravada: {html}", err=True)
    sys.exit(report.exit_code())


@main.command("multa")
@click.argument("caso", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def multa(ctx: click.Context, caso: Path, as_json: bool) -> None:
    """Memória de cálculo da multa: cada passo com seu artigo, em unidades fiscais e em reais.

    Num arquivo de processo (com 'atos:'): a multa do auto e, se uma decisão a manteve, reduziu ou cancelou,
    qual valor vale e por qual ato.
    """
    from autos.app.processo import is_processo_file
    from autos.cli.describe import describe_fines

    if is_processo_file(caso):
        from autos.cli.processo_formats import fine_text

        try:
            pf = _autos(ctx).processo_fine_of(caso)
        except AutosError as exc:
            _fail(exc)
        click.echo(json.dumps(pf.to_dict(), ensure_ascii=False, indent=2) if as_json else fine_text(pf))
        return
    _notice_old_files([caso])
    try:
        result = _autos(ctx).fines_of(caso)
    except AutosError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(result.to_dict() if result else None, ensure_ascii=False, indent=2))
    else:
        click.echo(describe_fines(result))


@main.command("migrar")
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
    from autos.app.processo import migrate_files
    from autos.cli.processo_formats import migration_text

    try:
        result = migrate_files(list(arquivos), saida)
    except AutosError as exc:
        _fail(exc)
    click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) if as_json
               else migration_text(result, saida))
    sys.exit(result.exit_code())


@main.group("regras", invoke_without_command=True)
@click.pass_context
def regras(ctx: click.Context) -> None:
    """Lista as leis e regras disponíveis (subcomandos: listar, mostrar)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(regras_listar)


@regras.command("listar")
@click.pass_context
def regras_listar(ctx: click.Context) -> None:
    """Lista as leis das regras."""
    from autos.cli.describe import describe_rules

    click.echo(describe_rules(_autos(ctx.find_root()).rules))


@regras.command("mostrar")
@click.argument("lei")
@click.pass_context
def regras_mostrar(ctx: click.Context, lei: str) -> None:
    """Mostra infrações, penalidades, elementos obrigatórios, o rito do processo e as escolhas de uma lei."""
    from autos.cli.describe import describe_procedure, describe_statute

    try:
        autos = _autos(ctx.find_root())
        click.echo(describe_statute(autos.rules.get(lei)))
        procedure = autos.procedure_of(lei)
        if procedure is not None:
            click.echo("\n" + describe_procedure(procedure))
    except AutosError as exc:
        _fail(exc)


@main.command("schema")
@click.option("-o", "--saida", "saida", type=click.Path(path_type=Path), default=None,
              help="Grava o JSON Schema neste arquivo (padrão: saída padrão).")
@click.option("--processo", is_flag=True, help="Schema do arquivo de processo (com as leis, atos, infrações e "
              "penalidades das regras), em vez do arquivo de caso.")
@click.pass_context
def schema(ctx: click.Context, saida: Path | None, processo: bool) -> None:
    """Publica o JSON Schema do caso (ou do processo), para autocompletar e verificar no editor."""
    from autos.app.schemas import case_json_schema
    from autos.store.files import write_atomic

    if processo:
        from autos.app.schemas import processo_json_schema

        try:
            data = processo_json_schema(_autos(ctx).rules)
        except AutosError as exc:
            _fail(exc)
    else:
        data = case_json_schema()
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if saida is None:
        click.echo(text)
        return
    try:
        write_atomic(saida, (text + "\n").encode())
    except AutosError as exc:
        _fail(exc)
    click.echo(f"gravado: {saida}")


@main.command("novo")
@click.argument("lei")
@click.option("--infracao", "infracoes", multiple=True, required=True,
              help="Id da infração nas regras da lei (repita para mais de uma).")
@click.option("--numero", required=True, help="Número do processo administrativo.")
@click.option("--juridica", is_flag=True, help="Autuado pessoa jurídica (padrão: pessoa física).")
@click.option("-o", "--saida", "saida", type=click.Path(path_type=Path), required=True,
              help="Arquivo do processo a criar (.yaml).")
@click.option("--substituir", is_flag=True, help="Sobrescreve o arquivo, se já existir.")
@click.pass_context
def novo(ctx: click.Context, lei: str, infracoes: tuple[str, ...], numero: str, juridica: bool, saida: Path,
         substituir: bool) -> None:
    """Cria um processo novo com os campos que o auto exige, comentados, para preencher."""
    from autos.app.new_processo import write_new_processo

    try:
        write_new_processo(_autos(ctx).rules, saida, lei, list(infracoes), numero, juridica, substituir)
    except AutosError as exc:
        _fail(exc)
    click.echo(f"gravado: {saida} (preencha os campos vazios e confira com: autos validar {saida})")


def _publish_for_terminal(options: Options) -> int:
    """Run and report for a terminal (progress bar on stderr) or a log (plain lines); return the exit code."""
    from autos.app.publish import EXIT_ERROR, Publisher, summary

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


@main.command("publicar-editais")
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
@click.pass_context
def publicar_editais(ctx: click.Context, casos: tuple[Path, ...], data: Any, data_jornal: Any, veiculo: tuple[str, ...],
                     jornal: tuple[str, ...], saida: Path, livro: Path | None, dry_run: bool, workers: int | None,
                     max_por_edital: int) -> None:
    """Publicação noturna: edital consolidado, editais individuais, caderno e manifesto (docs/runbook-editais.md).

    PASTA…: pastas (ou arquivos) de processos e de casos antigos. Num processo, o edital publicado é
    acrescentado à lista 'atos' do arquivo (o resto do arquivo fica como está).

    Saída 0: tudo publicado (ou nada a publicar); 1: algum caso recusado (os demais publicados);
    2: erro — parou; o edital em curso não deixou rastro e os anteriores ficaram publicados.
    """
    from autos.app.publish import Options, place_option

    o = ctx.obj
    sys.exit(_publish_for_terminal(Options(
        casos=tuple(casos), data=data.date(), saida=saida, data_jornal=data_jornal.date() if data_jornal else None,
        veiculos=place_option(veiculo), jornais=place_option(jornal), livro=livro, dry_run=dry_run,
        workers=workers, max_por_edital=max_por_edital, rules_dir=o["rules_dir"], templates_dir=o["templates_dir"],
        today=o["today"])))


@main.command("conferir")
@click.argument("arquivo", type=click.Path(path_type=Path, exists=True, dir_okay=False), required=False)
@click.option("--processo", "processo", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              help="Arquivo do processo: confere o edital registrado nele com o livro (e, com ARQUIVO, se o arquivo "
              "é o edital deste processo).")
@click.option("--ledger", "--livro", "livro", type=click.Path(path_type=Path, dir_okay=False), default=None,
              envvar="AUTOS_LIVRO", show_envvar=True,
              help="Livro de editais oficial (o único em que o conferir confia; nunca um livro ao lado do arquivo).")
@click.pass_context
def conferir(ctx: click.Context, arquivo: Path | None, processo: Path | None, livro: Path | None) -> None:
    """Confere um arquivo publicado (SHA-256 contra o livro de editais) e/ou o edital de um processo.

    Saída 0: confere; 1: não confere; 2: entrada inutilizável."""
    from autos.app.conferir import LEDGER_ENV, verify_file, verify_processo

    given = ctx.get_parameter_source("livro")
    source = f"a variável {LEDGER_ENV}" if given == click.core.ParameterSource.ENVIRONMENT else "--livro"
    if arquivo is None and processo is None:
        _fail(InputError("indique o arquivo publicado (PDF ou DOCX), o processo (--processo ARQUIVO.yaml) ou os dois.",
                         hint="autos conferir ARQUIVO.pdf --livro LIVRO, ou autos conferir --processo P.yaml --livro "
                         "LIVRO."))
    try:
        if processo is not None:
            result = verify_processo(processo, livro, arquivo=arquivo, source=source, rules_dir=ctx.obj["rules_dir"])
        else:
            assert arquivo is not None
            result = verify_file(arquivo, livro, source=source)
    except AutosError as exc:
        _fail(exc)
    click.echo("\n".join(result.linhas))
    sys.exit(result.exit_code)

