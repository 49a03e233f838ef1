"""Text, JSON, CSV and HTML of a timeline (``autos prazos``) and of the clerk's list (``autos pendencias``).

Presentation only: no rules, no clock. The HTML is one self-contained file: inline style, no scripts,
no external links, every value escaped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from datetime import date
from typing import Any

from autos.app.processo.pending_spool import PendingSpool
from autos.app.processo.service import MigrationResult
from autos.base.ptbr import count_noun, format_decimal, money_full
from autos.checks.processo import FineDecision, ProcessoFine
from autos.cli.describe import describe_fines
from autos.compute.timeline import Timeline
from autos.render.timeline_svg import timeline_svg
from autos.rules.calendar import format_date
from autos.store.csv_dialect import CsvTable

__all__ = ["fine_text", "iter_pending_csv", "iter_pending_html", "iter_pending_json", "iter_pending_text",
           "migration_text", "timeline_json", "timeline_text"]

_WHO = {"autuado": "autuado", "administracao": "administração", "correios": "correios"}


def timeline_text(t: Timeline) -> str:
    out = [f"Processo {t.numero} — {t.citacao_lei} ({t.lei})", f"Autuado: {t.autuado or '—'}",
           f"Situação em {format_date(t.hoje)}: {t.situacao}"]
    x = t.proximo
    if x is not None and x.vence is not None:
        out.append(f"Próximo ato: {x.acao} ({_WHO.get(x.quem, x.quem)}) — até {format_date(x.vence)} "
                   f"[{x.urgencia}] ({x.base_legal})")
    out.append("")
    out.append("Atos:")
    for a in t.atos:
        when = format_date(a.data) if a.data else "sem data"
        num = f" nº {a.numero}" if a.numero else ""
        ref = f", referente a {a.referente}" if a.referente else ""
        out.append(f"  {a.indice + 1}. {when} — {a.nome}{num}{ref}" + (f" ({a.base_legal})" if a.base_legal else ""))
        out.extend(f"       {n}" for n in a.notas)
    if t.prazos:
        out.append("")
        out.append("Prazos:")
        for p in t.prazos:
            d = p.deadline
            out.append(f"  - {d.descricao} ({d.base_legal}): {d.prazo_texto() or 'na data'} de "
                       f"{format_date(d.inicio)} a {format_date(d.fim)} — {p.rotulo.upper()}"
                       + (f" ({p.nota})" if p.nota else ""))
            out.extend(f"      {line}" for line in d.explicacao()[1:])
    if t.achados:
        out.append("")
        out.append("Achados:")
        for f in t.achados:
            where = f"linha {f.linha}, " if f.linha else ""
            out.append(f"  [{f.severidade}] {f.codigo} ({where}{f.caminho}): {f.mensagem}"
                       + (f" Como corrigir: {f.dica}" if f.dica else ""))
    if t.interpretacoes:
        out.append("")
        out.append("Escolhas interpretativas das regras:")
        out.extend(f"  - {x}" for x in t.interpretacoes)
    return "\n".join(out)


def timeline_json(t: Timeline) -> dict[str, Any]:
    return t.to_dict()


def iter_pending_json(report: PendingSpool) -> Iterator[str]:
    """The list as ``json.dumps({"hoje", "pendencias", "processos", "falhas"}, indent=2)`` writes it, line by line
    (the lines read back from the spool one at a time)."""
    yield f'{{\n  "hoje": {json.dumps(report.hoje.isoformat())},\n  "pendencias": '
    first = True
    for row in report.rows():
        text = json.dumps(row, ensure_ascii=False, indent=2).replace("\n", "\n    ")
        yield ("[\n    " if first else ",\n    ") + text
        first = False
    yield "[]" if first else "\n  ]"
    falhas = json.dumps([e.to_dict() for e in report.falhas], ensure_ascii=False, indent=2).replace("\n", "\n  ")
    yield f',\n  "processos": {report.processos},\n  "falhas": {falhas}\n}}\n'


def iter_pending_text(report: PendingSpool) -> Iterator[str]:
    yield f"Pendências em {format_date(report.hoje)} — {count_noun(report.processos, 'processo', 'processos')}\n"
    current = None
    for row in report.rows():
        if row["urgencia"] != current:
            current = row["urgencia"]
            yield f"\n== {str(current).upper()} ==\n"
        due = format_date(_date(row["vence"])) if row["vence"] else "sem prazo"
        who = _WHO.get(row["quem"] or "", row["quem"] or "—")
        what = row["acao"] or "processo com erros (veja autos prazos)"
        errs = f" [{count_noun(row['erros'], 'erro', 'erros')}]" if row["erros"] else ""
        yield (f"{due:>10}  {row['processo']}  {what} ({who}){errs}\n"
               f"{'':>10}  {row['autuado'] or '—'} — {row['situacao']} — {row['arquivo']}\n")
    if current is None:
        yield "\nNada pendente.\n"
    for e in report.falhas:
        yield f"\nerro: {e}\n"


def _date(iso: str) -> date:
    return date.fromisoformat(iso)


_CSV_FIELDS = ["urgencia", "vence", "processo", "lei", "autuado", "agente", "quem", "acao", "base_legal",
               "situacao", "erros", "arquivo"]


def iter_pending_csv(report: PendingSpool) -> Iterator[bytes]:
    """The clerk's list as a CSV file in the project's dialect (:mod:`autos.store.csv_dialect`), in blocks of
    bytes (the BOM first, CRLF line ends)."""
    table = CsvTable(_CSV_FIELDS)
    parts = [table.header()]
    for row in report.rows():
        parts.append(table.row({k: row[k] for k in _CSV_FIELDS}))
        if len(parts) >= 512:
            yield "".join(parts).encode("utf-8")
            parts = []
    if parts:
        yield "".join(parts).encode("utf-8")


_STYLE = """body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
th,td{border:1px solid #bbb;padding:4px 6px;text-align:left;vertical-align:top;font-size:0.9em}
th{background:#eee}tr.vencido td:first-child{background:#f8d7da}tr.hoje td:first-child{background:#ffe8a1}
tr.esta-semana td:first-child{background:#fff3cd}.falha{color:#a00}
section.processo{margin-top:2em;border-top:1px solid #bbb}svg.linha-do-tempo{max-width:100%;height:auto}"""


def iter_pending_html(report: PendingSpool) -> Iterator[str]:
    """The list with each processo's timeline drawn (the spool made with ``strips=True``), piece by piece."""
    e = html.escape
    heads = ["urgência", "vence", "processo", "autuado", "quem", "o que", "base legal", "situação", "arquivo"]
    yield ('<!DOCTYPE html>\n<html lang="pt-BR"><head><meta charset="utf-8">'
           f"<title>Pendências em {e(format_date(report.hoje))}</title><style>{_STYLE}</style></head><body>"
           f"<h1>Pendências em {e(format_date(report.hoje))}</h1>"
           f"<p>{count_noun(report.processos, 'processo conferido', 'processos conferidos')}.</p>"
           "<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in heads) + "</tr></thead><tbody>")
    for row in report.rows():
        cls = str(row["urgencia"]).replace(" ", "-")
        due = format_date(_date(row["vence"])) if row["vence"] else "sem prazo"
        cells = [row["urgencia"], due, row["processo"], row["autuado"], _WHO.get(row["quem"] or "", row["quem"]),
                 row["acao"] or "processo com erros", row["base_legal"], row["situacao"], row["arquivo"]]
        yield f'<tr class="{e(cls)}">' + "".join(f"<td>{e(str(c or '—'))}</td>" for c in cells) + "</tr>"
    yield "</tbody></table>" + "".join(f'<p class="falha">{e(str(x))}</p>' for x in report.falhas)
    for k, (strip, autuado, arquivo) in enumerate(report.strips(), start=1):
        yield (("<h2>Linha do tempo de cada processo</h2>" if k == 1 else "")
               + f'<section class="processo"><h2>Processo {e(strip.numero)} — {e(autuado or "—")}</h2>'
               f'<p>{e(arquivo)}</p>{timeline_svg(strip, id_prefix=f"processo-{k}")}</section>')
    yield "</body></html>\n"


def _decision(d: FineDecision) -> str:
    num = f" nº {d.numero}" if d.numero else ""
    when = f" de {format_date(d.data)}" if d.data else ""
    return f"{d.nome}{num}{when} (ato {d.ato})"


def fine_text(f: ProcessoFine) -> str:
    """``autos multa PROCESSO.yaml``: the auto's memo, the decisions on the fine and the amount in force."""
    out = [f"Processo {f.processo} — multa"]
    if f.auto is None:
        return "\n".join([*out, "O processo não tem auto de infração."])
    out += [f"Auto de infração (ato {f.auto}), calculado pela lei na data da infração:", "",
            describe_fines(f.calculo) if f.calculo is not None
            else f"O auto não propõe multa (atos[{f.auto - 1}].penalidades)."]
    if f.decisoes:
        out += ["", "Decisões sobre a multa:"]
        for d in f.decisoes:
            if d.resultado == "reduzida":
                unit = (f"{format_decimal(d.valor_base)} {f.calculo.sigla} = "
                        if d.valor_base is not None and f.calculo is not None else "")
                what = (f"reduzida para {unit}{money_full(d.valor)}" if d.valor is not None
                        else "reduzida, sem o valor informado na decisão (campo 'valor_base')")
            elif d.resultado == "cancelada":
                what = "cancelada"
            else:
                what = "mantida" + (f" (a decisão informa {money_full(d.valor)})" if d.valor is not None else "")
            out.append(f"  - {_decision(d)}: {what}")
    out.append("")
    last = f.final_por
    label = "Valor final" if last is not None and last.tipo == "decisao_recurso" else "Valor em vigor"
    if f.cancelada and last is not None:
        out.append(f"{label}: nenhum — multa cancelada por {_decision(last)}.")
    elif f.final is None:
        why = (f"{_decision(last)} reduziu a multa sem informar o valor" if last and last.resultado == "reduzida"
               else "o auto não propõe multa calculável")
        out.append(f"{label}: não determinado — {why}.")
    elif last is None:
        out.append(f"{label}: {money_full(f.final)} — o do auto (ato {f.auto}); nenhuma decisão o alterou.")
    elif last.resultado == "reduzida":
        out.append(f"{label}: {money_full(f.final)} — fixado por {_decision(last)}.")
    else:
        out.append(f"{label}: {money_full(f.final)} — mantido por {_decision(last)}.")
    for n, when, valor in f.pagamentos:
        paid = money_full(valor) if valor is not None else "valor não informado"
        out.append(f"Pagamento (ato {n}){' em ' + format_date(when) if when else ''}: {paid}.")
    return "\n".join(out)


def migration_text(r: MigrationResult, out_dir: object) -> str:
    """``autos migrar``: each processo written and its old files, then what was not mapped or refused."""
    out: list[str] = []
    for f, sources in r.escritos:
        out.append(f"processo gravado: {f}")
        out.extend(f"    de {s}" for s in sources)
    for f in r.ignorados:
        out.append(f"ignorado (já é um arquivo de processo): {f}")
    if r.nao_mapeado:
        out.append("")
        out.append("Não mapeado (confira e complete o processo à mão):")
        out.extend(f"  - {u.render()}" for u in r.nao_mapeado)
    if r.recusados:
        out.append("")
        out.append("Não gravado:")
        out.extend(f"  - {u.render()}" for u in r.recusados)
    for e in r.falhas:
        out.append(f"erro: {e}")
    if r.falhas:
        out.append("Nenhum processo foi gravado: corrija os arquivos ilegíveis e rode de novo.")
    elif r.escritos:
        out.append("")
        out.append(f"Os arquivos antigos não foram alterados. Confira os processos: autos validar {out_dir}")
    elif not (r.recusados or r.ignorados):
        out.append("Nenhum arquivo antigo encontrado.")
    return "\n".join(out)
