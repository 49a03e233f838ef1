"""``autos exportar-debitos``: the final fines, unpaid after their due date, for the treasury's dívida ativa system
(issue 12, item 6).

A fine is a **débito** when, on the reference date (``--hoje``), in its processo file:

* its decision is final (the law's ``reincidencia.definitiva`` rules, :func:`autos.compute.recidivism.finality_of`:
  the appeal decided keeping or reducing the fine, or the appeal deadline lapsed without appeal; the inscription
  in dívida ativa also counts), and it was not cancelled;
* the payment deadline that allows the inscription (the ``exige_vencido`` deadlines of the law's
  ``inscricao_divida_ativa`` act: Ferraz art. 80; Cuiabá and Timóteo the example term of the rules) is lapsed
  (``perdido``) — its last day is the **due date** (``vencimento``);
* and the processo records no payment (``pagamento``). A partial payment is not netted: the processo is listed as
  refused for a person to look at.

``--desde D`` keeps the débitos whose due date is D or later (a nightly export passes the previous run's date).
The fine and the costs are never one "multa": the fine in force (the auto's penalties, or the amount the last
decision set) is ``multa_*``; the costs the offender owes on top of the penalties (Cuiabá art. 11, § 3º, and art. 38:
transport, the table's "multa" and the daily charges of an apprehended animal, ``natureza: despesa`` in the rules)
are ``despesas_*``; their sum is the ``debito_*``. A decision reduces the fine, not the costs. The amounts are in
reais and in the fiscal unit;
a reduced amount, decided in reais, is converted by the unit's value used in the auto, to 4 decimal places
(half up, the precision of the rules' values). A processo already inscribed in dívida ativa is exported with its
CDA number, so that the importing system can skip it. Processos with errors in their timeline, or whose fine
cannot be computed, are not exported: they are listed as refused (exit 1).

The processos are read from the folders given; with none, from the files the register indexes. Output: CSV
(``;``-separated, UTF-8 with BOM, decimal point, cells that a spreadsheet would run as a formula neutralised) and
JSON (the exact values), written atomically (temporary file and rename), never over an existing file unless
``substituir``; bad input writes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Literal

from autos.app.generation.pipeline import Autos
from autos.app.register.service import open_register
from autos.base.ptbr import count_noun, format_brl, format_decimal
from autos.base.yamlio import load_yaml, yaml_files_under
from autos.compute.recidivism import finality_of
from autos.errors import AutosError, InputError, OutputError
from autos.processo.load import LoadedProcesso, from_doc, is_processo_data
from autos.store.csv_dialect import csv_bytes
from autos.store.database import Location
from autos.store.files import ensure_dir, write_atomic, write_new_atomic
from autos.store.register import normalize_document

__all__ = ["COLUMNS", "Debt", "DebtExport", "export_debts", "parse_since"]

Formato = Literal["csv", "json", "ambos"]

#: the columns of the CSV and the keys of each JSON record, in order
COLUMNS = ("processo", "lei", "arquivo", "autuado_nome", "autuado_tipo", "autuado_cpf_cnpj", "auto_numero",
           "auto_data", "multa_unidades", "multa_reais", "despesas_unidades", "despesas_reais", "debito_unidades",
           "debito_reais", "unidade_fiscal", "valor_unidade_reais", "vencimento", "definitiva_em", "base_legal",
           "valor_fixado_por", "inscricao_divida_ativa")

_FOUR = Decimal("0.0001")


@dataclass(frozen=True)
class Debt:
    """One final fine, unpaid after its due date (every value a string: Decimal as text, dates ISO)."""

    processo: str
    lei: str
    arquivo: str
    autuado_nome: str
    autuado_tipo: str
    autuado_cpf_cnpj: str  # digits only
    auto_numero: str
    auto_data: str
    multa_unidades: str  # the fine in force (penalties only)
    multa_reais: str
    despesas_unidades: str  # costs on top of the penalties (Cuiabá art. 38), "0" when none
    despesas_reais: str
    debito_unidades: str  # multa + despesas
    debito_reais: str
    unidade_fiscal: str
    valor_unidade_reais: str
    vencimento: str
    definitiva_em: str
    base_legal: str
    valor_fixado_por: str
    inscricao_divida_ativa: str


@dataclass
class DebtExport:
    """What ``exportar-debitos`` wrote and what it left out."""

    debitos: list[Debt]
    arquivos: list[Path]
    lidos: int
    recusados: list[str] = field(default_factory=list)

    def exit_code(self) -> int:
        return 1 if self.recusados else 0

    def lines(self) -> list[str]:
        out = [f"{count_noun(len(self.debitos), 'débito exportado', 'débitos exportados')} de "
               f"{count_noun(self.lidos, 'processo lido', 'processos lidos')}:"]
        out += [f"  {d.processo} ({d.lei}): débito de {format_decimal(Decimal(d.debito_unidades))} "
                f"{d.unidade_fiscal} = {format_brl(Decimal(d.debito_reais))} ({_parts(d)}), vencido em "
                f"{date.fromisoformat(d.vencimento):%d/%m/%Y}" for d in self.debitos]
        out += [f"gravado: {p}" for p in self.arquivos]
        out += [f"recusado: {r}" for r in self.recusados]
        return out


def _parts(d: Debt) -> str:
    """``multa R$ 3.123,87`` or ``multa R$ 1.218,31 + despesas R$ 121,83``: never one "multa" for both."""
    text = f"multa {format_brl(Decimal(d.multa_reais))}"
    if Decimal(d.despesas_reais):
        text += f" + despesas {format_brl(Decimal(d.despesas_reais))}"
    return text


def parse_since(text: str) -> date:
    """``--desde AAAA-MM-DD``; a Portuguese :class:`InputError` otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"data '{text}' inválida em --desde.", hint="use AAAA-MM-DD, p. ex. --desde 2026-11-01; "
                         "nada foi gravado.") from None


def _targets(out: Path, formato: Formato) -> list[tuple[Path, str]]:
    """``(file, kind)`` of each output: ``ambos`` → ``out.csv`` and ``out.json``."""
    if formato == "ambos":
        return [(out.with_suffix(".csv"), "csv"), (out.with_suffix(".json"), "json")]
    return [(out if out.suffix else out.with_suffix(f".{formato}"), formato)]


def _files(autos: Autos, paths: Sequence[Path], registro: Location | None) -> list[Path]:
    if paths:
        files, missing = yaml_files_under(paths)
        if missing:
            raise InputError("arquivo ou pasta não encontrado; nada foi gravado.", file=missing[0],
                             hint="confira o caminho.")
        return files
    register = open_register(registro, Path.cwd(), readonly=True)
    assert register is not None  # required
    with register:
        return [register.absolute(a) for a in sorted(register.indexed())]


def _debt(autos: Autos, loaded: LoadedProcesso, rel: str) -> Debt | str | None:
    """The processo's débito, None when it has none, or why it is refused."""
    p = loaded.processo
    statute = autos.rules.get(p.lei)
    procedure = autos.procedure_of(p.lei)
    if procedure is None or statute.reincidencia is None:
        return f"a lei {p.lei} não diz nas regras quando a decisão é definitiva ('reincidencia.definitiva')"
    timeline = autos.processos.check(loaded, autos.today)
    if timeline.has_errors:
        first = next(f for f in timeline.achados if f.severidade == "erro")
        return f"a linha do tempo tem erro ({first.codigo}, linha {first.linha}): {first.mensagem}"
    if any(a.tipo == "pagamento" for a in p.atos):
        return None
    final = finality_of(p, timeline, statute.reincidencia, procedure)
    if final is None:
        return None
    due_ids = set(procedure.atos["inscricao_divida_ativa"].exige_vencido) if "inscricao_divida_ativa" in \
        procedure.atos else set()
    lapsed = [ds for ds in timeline.prazos if ds.id in due_ids and ds.estado == "perdido"]
    if not lapsed:
        return None
    due = max(ds.fim for ds in lapsed)
    fine = autos.processo_fine(loaded)
    if fine.cancelada or fine.final is None or fine.calculo is None:
        return None if fine.cancelada else "o valor da multa em vigor não é conhecido (decisão sem valor?)"
    c = fine.calculo
    unit = c.valor_unidade.valor
    costs = c.part("despesa")
    costs_units = costs.total_unidades if costs is not None else Decimal(0)
    costs_reais = costs.total_reais if costs is not None else Decimal(0)
    penalty = c.part("penalidade")
    # what the processo already paid of the costs (the rescue's payment, Cuiabá art. 11, § 2º): owed no more
    paid_costs = sum((a.valor for a in p.atos if a.valor is not None and (r := procedure.atos.get(a.tipo)) is not None
                      and r.quita_despesas), Decimal(0))
    costs_reais = max(costs_reais - paid_costs, Decimal(0))
    costs_units = (costs_reais / unit).quantize(_FOUR, rounding=ROUND_HALF_UP) if paid_costs else costs_units
    if fine.final_por is not None and fine.final_por.resultado == "reduzida":
        # a decision reduces the fine: the costs are owed as they were (art. 38: "sem prejuízo das penalidades")
        fine_reais = fine.final
        units = (fine.final / unit).quantize(_FOUR, rounding=ROUND_HALF_UP)
        por = f"{fine.final_por.nome} nº {fine.final_por.numero or 's/n'} de {fine.final_por.data:%d/%m/%Y}" \
            if fine.final_por.data else fine.final_por.nome
    else:
        fine_reais = penalty.total_reais if penalty is not None else Decimal(0)
        units = penalty.total_unidades if penalty is not None else Decimal(0)
        por = "auto de infração" if fine.final_por is None else \
            f"auto de infração, mantido por {fine.final_por.nome} nº {fine.final_por.numero or 's/n'}"
    auto = p.atos[fine.auto - 1] if fine.auto is not None else None
    cda = next((a for a in p.atos if a.tipo == "inscricao_divida_ativa"), None)
    documento = p.autuado.documento
    return Debt(
        processo=p.numero, lei=p.lei, arquivo=rel, autuado_nome=p.autuado.nome or "", autuado_tipo=p.autuado.tipo,
        autuado_cpf_cnpj=normalize_document(documento) if documento else "",
        auto_numero=(auto.numero or "") if auto else "",
        auto_data=auto.data_do_ato.isoformat() if auto and auto.data_do_ato else "",
        multa_unidades=f"{units.normalize():f}", multa_reais=_cents(fine_reais),
        despesas_unidades=f"{costs_units.normalize():f}", despesas_reais=_cents(costs_reais),
        debito_unidades=f"{(units + costs_units).normalize():f}", debito_reais=_cents(fine_reais + costs_reais),
        unidade_fiscal=c.sigla, valor_unidade_reais=f"{unit:f}",
        vencimento=due.isoformat(), definitiva_em=final.data.isoformat(),
        base_legal="; ".join(dict.fromkeys(i.base_legal for i in c.itens)), valor_fixado_por=por,
        inscricao_divida_ativa=(f"{cda.numero or 's/n'} de {cda.data_do_ato:%d/%m/%Y}" if cda.data_do_ato
                                else cda.numero or "s/n") if cda else "")


#: the columns that hold a number (Decimal as text in :class:`Debt`): in the CSV, with a decimal comma
_NUMBERS = ("multa_unidades", "multa_reais", "despesas_unidades", "despesas_reais", "debito_unidades", "debito_reais",
            "valor_unidade_reais")


def _cents(value: Decimal) -> str:
    return f"{value.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):f}"


def _csv(debts: list[Debt]) -> bytes:
    """The CSV in the project's dialect (:mod:`autos.store.csv_dialect`): the amounts are numbers to the
    spreadsheet (``3123,87``); the JSON keeps them as exact text with a point."""
    return csv_bytes(COLUMNS, ({k: Decimal(v) if k in _NUMBERS else v for k, v in asdict(d).items()}
                               for d in debts))


def _json(debts: list[Debt], desde: date, hoje: date) -> bytes:
    doc = {"desde": desde.isoformat(), "data_referencia": hoje.isoformat(), "debitos": [asdict(d) for d in debts]}
    return (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def export_debts(autos: Autos, paths: Sequence[Path], desde: str, out: Path, formato: Formato = "ambos", *,
                 substituir: bool = False, registro: Location | None = None) -> DebtExport:
    """Export the débitos (see the module) of the processos under ``paths`` (or the register's) whose due date is
    ``desde`` or later, to ``out`` (``ambos``: ``out.csv`` and ``out.json``). Bad input or output raises an
    :class:`AutosError` (exit 2) before anything is written."""
    since = parse_since(desde)
    targets = _targets(out, formato)
    for t, _ in targets:
        if t.exists() and not substituir:
            raise OutputError("o arquivo já existe; nada foi gravado.", file=t,
                              hint="escolha outro nome (-o) ou use --substituir.")
        if t.is_dir():
            raise OutputError("o destino é uma pasta; nada foi gravado.", file=t, hint="indique um arquivo em -o.")
    for t, _ in targets:  # an unusable output folder is said before any processo is read
        try:
            ensure_dir(t.parent)
        except OutputError as exc:
            raise OutputError(f"{exc.message} Nada foi gravado.", file=exc.file, hint=exc.hint) from None
    files = _files(autos, paths, registro)
    debts: list[Debt] = []
    refused: list[str] = []
    read = 0
    for f in files:
        try:
            doc = load_yaml(f, InputError)
            if not is_processo_data(doc.data):
                continue
            loaded = from_doc(doc)
            read += 1
            got = _debt(autos, loaded, str(f))
        except AutosError as exc:
            refused.append(f"{f}: {exc}")
            continue
        if isinstance(got, str):
            refused.append(f"{f}: {got}")
        elif got is not None and date.fromisoformat(got.vencimento) >= since:
            debts.append(got)
    if read == 0:
        raise InputError("nenhum processo encontrado; nada foi gravado.",
                         hint="indique as pastas dos processos (arquivos com 'atos:').")
    debts.sort(key=lambda d: (d.vencimento, d.lei, d.processo))
    data = {"csv": _csv(debts), "json": _json(debts, since, autos.today)}
    written: list[Path] = []
    for t, kind in targets:
        payload = data[kind]
        if substituir:
            write_atomic(t, payload)
        elif not write_new_atomic(t, payload):
            for w in written:  # another program created the file meanwhile: take back what this run wrote
                w.unlink(missing_ok=True)
            raise OutputError("o arquivo foi criado por outro programa durante a exportação; nada foi gravado.",
                              file=t, hint="rode de novo com outro nome (-o).")
        written.append(t)
    return DebtExport(debts, written, read, refused)
