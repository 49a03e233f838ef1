"""A processo's timeline drawn as a calendar strip: one self-contained SVG (issue 14, item 4).

Each act is a mark on the day it was done; each deadline it started is a bar from the day it counts from to the
day it ends, in its state on the reference date (``cumprido``, ``cumprido com atraso``, ``em curso``, ``perdido``,
``prejudicado``; a late one says its delay in calendar days, never "CUMPRIDO") —
the dates and states are :func:`autos.compute.strip.timeline_strip`'s, nothing is counted here. The state is
written in words beside every bar and drawn with a pattern of its own (not only a colour); the ``<title>`` and
``<desc>`` say the whole timeline in words for a screen reader. Every value from the processo is escaped; the
SVG has no script, no link, nothing external (it goes inline in a page, in ``autos pendencias --html`` and in
the web app).
"""

from __future__ import annotations

import re
from datetime import date
from html import escape

from autos.base.ptbr import count_noun
from autos.compute.strip import StripDeadline, TimelineStrip
from autos.rules.calendar import format_date

__all__ = ["STATE_WORDS", "timeline_svg"]

#: the state of a deadline as the picture says it, and what it means (the legend)
STATE_WORDS: dict[str, tuple[str, str]] = {
    "cumprido": ("CUMPRIDO", "o ato foi praticado no prazo"),
    "cumprido com atraso": ("CUMPRIDO COM ATRASO", "o ato foi praticado depois do vencimento"),
    "em curso": ("EM CURSO", "o prazo ainda corre"),
    "perdido": ("PERDIDO", "venceu sem o ato"),
    "prejudicado": ("PREJUDICADO", "ficou sem efeito"),
}
_FILL = {"cumprido": "#2e7d32", "cumprido com atraso": "url(#{p}-atraso)", "em curso": "#bbdefb",
         "perdido": "url(#{p}-hachura)", "prejudicado": "#eeeeee"}
_STROKE = {"cumprido": ("#1b5e20", ""), "cumprido com atraso": ("#e65100", ""),
           "em curso": ("#0d47a1", "5 3"), "perdido": ("#b71c1c", ""),
           "prejudicado": ("#757575", "2 2")}
_MONTHS = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"]

_CHAR = 6.6  # average width of a 12 px sans-serif character, to size the label column
_STRIP = 520  # width of the calendar strip
_ROW = 34
_TOP = 92  # first row


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _label_act(ordem: int, nome: str, numero: str | None) -> str:
    return f"{ordem}. {_cap(nome)}" + (f" nº {numero}" if numero else "")


def _label_deadline(d: StripDeadline) -> str:
    return _cap(d.descricao) + (f" ({d.prazo})" if d.prazo else "")


def _word(d: StripDeadline) -> str:
    """The state written beside the bar: a late one with its delay ("CUMPRIDO COM ATRASO (3 dias corridos)")."""
    word = STATE_WORDS[d.estado][0]
    if d.estado == "cumprido com atraso" and d.atraso_dias is not None:
        word += f" ({count_noun(d.atraso_dias, 'dia corrido', 'dias corridos')})"
    return word


def _detail_deadline(d: StripDeadline) -> str:
    word = _word(d)
    met = (f", cumprido em {format_date(d.cumprido_em)}"
           if d.estado in ("cumprido", "cumprido com atraso") and d.cumprido_em else "")
    return f"de {format_date(d.inicio)} a {format_date(d.fim)} — {word}{met}"


def _sentence(s: TimelineStrip) -> str:
    """The whole picture in words (the SVG's ``<desc>``)."""
    parts = [f"Processo {s.numero}, situação em {format_date(s.hoje)}: {s.situacao}."]
    acts = [f"{_label_act(a.ordem, a.nome, a.numero)}, {format_date(a.data) if a.data else 'sem data'}"
            for a in s.atos]
    parts.append(f"{count_noun(len(s.atos), 'ato', 'atos')}: " + "; ".join(acts) + "." if acts else "Nenhum ato.")
    if s.prazos:
        parts.append(f"{count_noun(len(s.prazos), 'prazo', 'prazos')}: " + "; ".join(
            f"{d.descricao} ({d.base_legal}), {_detail_deadline(d)}" for d in s.prazos) + ".")
    elif s.erros:
        parts.append(f"Prazos não calculados: {count_noun(s.erros, 'erro', 'erros')} no processo.")
    else:
        parts.append("Nenhum prazo.")
    return " ".join(parts)


def _ticks(start: date, end: date) -> list[tuple[date, str]]:
    """The first day of each month inside the span, labelled ``out/2026`` (every k-th month when they crowd)."""
    firsts: list[date] = []
    y, m = start.year, start.month
    while True:
        m += 1
        if m == 13:
            y, m = y + 1, 1
        d = date(y, m, 1)
        if d > end:
            break
        firsts.append(d)
    span = max((end - start).days, 1)
    per_month = _STRIP * 30.4 / span
    step = 1
    while per_month * step < 56:
        step += 1
    return [(d, f"{_MONTHS[d.month - 1]}/{d.year}") for k, d in enumerate(firsts) if k % step == 0]


def timeline_svg(strip: TimelineStrip, *, id_prefix: str = "linha") -> str:
    """The SVG of ``strip``; ``id_prefix`` keeps the ids apart when a page holds several."""
    p = re.sub(r"[^A-Za-z0-9_-]+", "-", id_prefix).strip("-") or "linha"
    if not p[0].isalpha():
        p = "l" + p
    labels = [_label_act(a.ordem, a.nome, a.numero) for a in strip.atos]
    labels += [_label_deadline(d) for d in strip.prazos]
    label_w = max(300, int(max((len(t) for t in labels), default=0) * _CHAR) + 24)
    x0 = label_w + 10
    width = x0 + _STRIP + 120  # the state words in a column of their own
    start, end = strip.inicio, strip.fim
    span = max((end - start).days, 1)

    def x(d: date) -> float:
        return round(x0 + (d - start).days / span * _STRIP, 1)

    rows = len(strip.atos) + len(strip.prazos)
    legend_y = _TOP + rows * _ROW + 28
    height = legend_y + 20 + 20 * ((len(_legend_items()) + 1) // 2)
    title = f"Linha do tempo do processo {strip.numero} em {format_date(strip.hoje)}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="linha-do-tempo" role="img" '
        f'aria-labelledby="{p}-titulo {p}-desc" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">',
        f'<title id="{p}-titulo">{_e(title)}</title>',
        f'<desc id="{p}-desc">{_e(_sentence(strip))}</desc>',
        f'<defs><pattern id="{p}-hachura" patternUnits="userSpaceOnUse" width="6" height="6" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffcdd2"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#c62828" stroke-width="3"/></pattern>'
        f'<pattern id="{p}-atraso" patternUnits="userSpaceOnUse" width="8" height="8">'
        '<rect width="8" height="8" fill="#ffe0b2"/><circle cx="4" cy="4" r="1.6" fill="#e65100"/></pattern></defs>',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="10" y="22" font-size="15" font-weight="bold">{_e(title)}</text>',
        f'<text x="10" y="42">Situação: {_e(strip.situacao)}</text>',
    ]
    # the calendar: axis, months, first and last day
    axis_y = _TOP - 12
    out.append(f'<line x1="{x0}" y1="{axis_y}" x2="{x0 + _STRIP}" y2="{axis_y}" stroke="#444"/>')
    out.append(f'<text x="{x0}" y="{axis_y - 20}" font-size="10" fill="#444">{_e(format_date(start))}</text>')
    if end != strip.hoje:  # otherwise the "hoje" label says it
        out.append(f'<text x="{x0 + _STRIP}" y="{axis_y - 20}" font-size="10" fill="#444" text-anchor="end">'
                   f'{_e(format_date(end))}</text>')
    for first, name in _ticks(start, end):
        tx = x(first)
        out.append(f'<line x1="{tx}" y1="{axis_y - 5}" x2="{tx}" y2="{_TOP + rows * _ROW}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{tx + 2}" y="{axis_y - 6}" font-size="10" fill="#444">{_e(name)}</text>')
    # the rows: acts, then deadlines
    y = _TOP
    for a in strip.atos:
        label = _label_act(a.ordem, a.nome, a.numero)
        when = format_date(a.data) if a.data else "sem data"
        detail = when + (f" — {a.base_legal}" if a.base_legal else "")
        out.append(f'<g class="ato"><title>{_e(label)}, {_e(detail)}</title>')
        out.append(f'<text x="10" y="{y + 13}">{_e(label)}</text>')
        out.append(f'<text x="10" y="{y + 27}" font-size="10.5" fill="#444">{_e(detail)}</text>')
        if a.data is not None:
            cx, cy = x(a.data), y + 14
            out.append(f'<polygon points="{cx},{cy - 7} {cx + 7},{cy} {cx},{cy + 7} {cx - 7},{cy}" fill="#37474f"/>')
        out.append("</g>")
        y += _ROW
    for d in strip.prazos:
        word = _word(d)
        label, detail = _label_deadline(d), _detail_deadline(d)
        note = f" ({d.nota})" if d.nota else ""
        cls = d.estado.replace(" ", "-")
        by = f", aberto pelo ato {d.iniciado_por}" if d.iniciado_por is not None else ""
        out.append(f'<g class="prazo {cls}"><title>{_e(label)}, {_e(d.base_legal)}: {_e(detail)}{_e(by)}{_e(note)}'
                   "</title>")
        out.append(f'<text x="10" y="{y + 13}">{_e(label)}</text>')
        out.append(f'<text x="10" y="{y + 27}" font-size="10.5" fill="#444">{_e(detail)}</text>')
        bx, bw = x(d.inicio), max(x(d.fim) - x(d.inicio), 3)
        stroke, dash = _STROKE[d.estado]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<rect x="{bx}" y="{y + 8}" width="{round(bw, 1)}" height="12" rx="2" '
                   f'fill="{_FILL[d.estado].format(p=p)}" stroke="{stroke}"{dash_attr}/>')
        if d.estado in ("cumprido", "cumprido com atraso") and d.cumprido_em is not None:
            out.append(f'<circle cx="{x(d.cumprido_em)}" cy="{y + 14}" r="4" fill="#ffffff" stroke="#1b5e20" '
                       'stroke-width="2"/>')
        out.append(f'<text x="{x0 + _STRIP + 12}" y="{y + 18}" font-size="10.5" font-weight="bold">{_e(word)}</text>')
        out.append("</g>")
        y += _ROW
    if not strip.prazos and strip.erros:
        out.append(f'<text x="{x0}" y="{y + 4}" fill="#b71c1c">Prazos não calculados: '
                   f'{_e(count_noun(strip.erros, "erro", "erros"))} no processo.</text>')
    # hoje
    hx = x(strip.hoje)
    out.append(f'<g class="hoje"><line x1="{hx}" y1="{axis_y - 4}" x2="{hx}" y2="{_TOP + rows * _ROW}" '
               'stroke="#d32f2f" stroke-width="2" stroke-dasharray="4 3"/>')
    h_anchor = "end" if hx > x0 + _STRIP - 40 else "start" if hx < x0 + 40 else "middle"
    out.append(f'<text x="{hx}" y="{axis_y - 32}" font-size="10" fill="#d32f2f" text-anchor="{h_anchor}" '
               f'font-weight="bold">hoje {_e(format_date(strip.hoje))}</text></g>')
    # legend: two columns
    out.append(f'<g class="legenda"><text x="10" y="{legend_y}" font-weight="bold">Legenda</text>')
    col = (width - 20) // 2
    for k, (kind, text) in enumerate(_legend_items()):
        lx, ly = 10 + (k % 2) * col, legend_y + 20 + (k // 2) * 20
        out.append(_legend_mark(kind, lx, ly, p))
        out.append(f'<text x="{lx + 30}" y="{ly}">{_e(text)}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "".join(line for line in out if line)


def _legend_items() -> list[tuple[str, str]]:
    items = [(estado, f"{word.lower()}: {meaning}") for estado, (word, meaning) in STATE_WORDS.items()]
    return [*items, ("ato", "ato, no dia em que foi praticado"), ("cumprido-em", "dia em que o prazo foi cumprido"),
            ("hoje", "data de referência (hoje)")]


def _legend_mark(kind: str, lx: int, ly: int, p: str) -> str:
    if kind in STATE_WORDS:
        stroke, dash = _STROKE[kind]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<rect x="{lx}" y="{ly - 10}" width="22" height="12" rx="2" fill="{_FILL[kind].format(p=p)}" '
                f'stroke="{stroke}"{dash_attr}/>')
    if kind == "ato":
        cx, cy = lx + 11, ly - 4
        return f'<polygon points="{cx},{cy - 7} {cx + 7},{cy} {cx},{cy + 7} {cx - 7},{cy}" fill="#37474f"/>'
    if kind == "cumprido-em":
        return f'<circle cx="{lx + 11}" cy="{ly - 4}" r="4" fill="#ffffff" stroke="#1b5e20" stroke-width="2"/>'
    return (f'<line x1="{lx + 11}" y1="{ly - 13}" x2="{lx + 11}" y2="{ly + 4}" stroke="#d32f2f" stroke-width="2" '
            'stroke-dasharray="4 3"/>')
