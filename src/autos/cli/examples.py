"""``autos regras exemplos [LEI]``: every value of the rules still an example, per municipality."""

from __future__ import annotations

import json
from itertools import groupby
from typing import TYPE_CHECKING

import click

from autos.errors import AutosError

if TYPE_CHECKING:  # the rules (pydantic, yaml) load when the command runs, not for ``autos --help``
    from autos.rules.examples import Example

__all__ = ["describe_examples", "regras_exemplos"]


def describe_examples(examples: list[Example]) -> str:
    """The listing as ``autos regras exemplos`` prints it: per municipality, each value with file, line and fix."""
    if not examples:
        return "Nenhum valor de exemplo nas regras: todos os valores são oficiais."
    out: list[str] = []
    for mun, items in groupby(examples, key=lambda e: e.municipio):
        group = list(items)
        out.append(f"{mun}: {len(group)} {'valor' if len(group) == 1 else 'valores'} de exemplo")
        for e in group:
            where = f"{e.arquivo}, linha {e.linha}" if e.linha else e.arquivo
            out.append(f"  {where} ({e.caminho}): {e.o_que}")
            out.append(f"    como corrigir: {e.como_corrigir}")
    out.append("")
    out.append("Um documento que usa um valor de exemplo é gerado como MINUTA (não é assinado nem publicado).")
    return "\n".join(out)


@click.command("exemplos")
@click.argument("lei", required=False)
@click.option("--json", "as_json", is_flag=True, help="Saída em JSON para outros programas.")
@click.pass_context
def regras_exemplos(ctx: click.Context, lei: str | None, as_json: bool) -> None:
    """Lista, por município, cada valor das regras ainda de exemplo (arquivo, linha, como corrigir). Saída 0."""
    from autos.cli.common import autos_of, fail
    from autos.rules.examples import list_examples

    try:
        autos = autos_of(ctx.find_root())
        if lei is not None:
            autos.rules.get(lei)  # an unknown law is an error naming the laws known
        examples = list_examples(autos.rules.root, lei)
    except AutosError as exc:
        fail(exc)
    if as_json:
        click.echo(json.dumps([e.as_dict() for e in examples], ensure_ascii=False, indent=2))
    else:
        click.echo(describe_examples(examples))
