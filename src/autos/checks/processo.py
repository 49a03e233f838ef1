"""One report and one fine memo per processo: the timeline's findings and those of every act's document.

:func:`check_processo` joins the timeline findings (:mod:`autos.compute.timeline`) and the element
findings of each act's document as of its date (:mod:`autos.checks.acts`), all pointing into the processo
file, into a :class:`ProcessoReport` that ``autos validar`` prints and exits on like a case's report.
:func:`processo_fine` is the fine of the processo: the auto's memo and, where a decision changed it, which
amount is final and by which act. The document checks and the fine calculator come in as functions, so
this module renders nothing and reads no file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from autos.base import ptbr
from autos.base.yamlio import format_path
from autos.checks.acts import ActDocument, act_document, document_acts
from autos.checks.finding import Finding, Report
from autos.checks.result import CaseResult
from autos.compute.fines import FineResult
from autos.compute.timeline import Timeline
from autos.errors import AutosError, RefusedError
from autos.processo.load import LoadedProcesso
from autos.processo.load_case import LoadedCase
from autos.processo.model import Ato
from autos.rules.authorities import Authorities
from autos.rules.calendar import format_date
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

__all__ = ["ActReport", "FineDecision", "ProcessoFine", "ProcessoReport", "act_report", "check_processo",
           "debt_findings", "processo_fine", "unreported_errors"]

#: the act that inscribes the unpaid fine in dívida ativa (its ``valor``: the amount inscribed, in reais)
DEBT_ACT = "inscricao_divida_ativa"
_CENT = Decimal("0.01")


@dataclass(frozen=True)
class ActReport:
    """The document of one act: its kind, the date it is made as of, and its findings (paths in the processo)."""

    ato: int  # 1-based, as ``autos prazos`` prints it
    documento: str
    data: date
    achados: list[Finding]

    def to_dict(self) -> dict[str, Any]:
        return {"ato": self.ato, "documento": self.documento, "data": self.data.isoformat(),
                "achados": [f.to_dict() for f in self.achados]}


@dataclass
class ProcessoReport(Report):
    """A :class:`Report` for a processo file: every finding of the timeline and of each act's document.

    ``findings`` holds them all (the act's document findings say which act in their message), so the
    exit codes and the text report are those of a case file; :meth:`to_dict` adds the processo's keys."""

    processo: str | None = None
    timeline: Timeline | None = None
    atos: list[ActReport] = field(default_factory=list)
    #: reincidência from the register's history (``autos validar`` with a register): one line per earlier processo
    historico: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["processo"] = self.processo
        if self.historico:
            out["reincidencia"] = self.historico
        out["situacao"] = self.timeline.situacao if self.timeline else None
        out["documentos"] = [a.to_dict() for a in self.atos]
        return out


def _from_timeline(f: Finding, loaded: LoadedProcesso) -> Finding:
    """A timeline finding in the processo's report: the same finding, naming the file."""
    return replace(f, arquivo=str(loaded.file))


def check_processo(loaded: LoadedProcesso, timeline: Timeline, proc: Procedure, statute: Statute,
                   check: Callable[[LoadedCase], Report], authorities: Authorities | None = None) -> ProcessoReport:
    """The timeline's findings, then each act's document checked by ``check`` as of the act's date (its signer
    from ``authorities``, the register of the municipality, when given).

    A finding that is not about a field (the fiscal unit's value is an example…) is the same for every
    act and is reported once; so is one about a field that two documents of the same act report alike (the
    amount of a decision, checked on the decision and on its debit statement)."""
    findings = [_from_timeline(f, loaded) for f in timeline.achados]
    acts: list[ActReport] = []
    general: set[tuple[str, str]] = set()
    seen: set[tuple[str, str, str]] = set()
    for i, kind in document_acts(loaded, proc, statute):
        doc = act_document(loaded, i, proc, statute, kind, timeline, authorities)
        if doc is None:
            continue
        title = statute.documentos[kind].titulo
        label = f"ato {i + 1} ({title} de {format_date(doc.as_of)})"
        own: list[Finding] = []
        for f in check(doc.loaded).findings:
            f = doc.finding(f)
            if f.caminho is None:
                if (f.codigo, f.mensagem) in general:
                    continue
                general.add((f.codigo, f.mensagem))
                findings.append(f)
                continue
            if (f.codigo, f.caminho, f.mensagem) in seen:
                continue
            seen.add((f.codigo, f.caminho, f.mensagem))
            f = Finding(severidade=f.severidade, codigo=f.codigo, mensagem=f"{label}: {f.mensagem}",
                        citacao=f.citacao, caminho=f.caminho, linha=f.linha, arquivo=f.arquivo, dica=f.dica)
            own.append(f)
        acts.append(ActReport(i + 1, kind, doc.as_of, own))
        findings.extend(own)
    order = {"erro": 0, "aviso": 1}
    findings.sort(key=lambda f: (order[f.severidade], f.linha or 0))
    return ProcessoReport(file=loaded.file, statute=statute, findings=findings, processo=loaded.processo.numero,
                          timeline=timeline, atos=acts)


_ACT_PATH = re.compile(r"^atos\[(\d+)\]")


def act_report(doc: ActDocument, loaded: LoadedProcesso, timeline: Timeline, check: Callable[[LoadedCase], Report],
               statute: Statute) -> CaseResult:
    """The result a document of ``doc``'s act is generated (or refused) on: its own findings, paths in the
    processo, and the timeline's errors that concern the processo by the act's date (an error about a later act
    does not block an earlier act's document); what was computed for the act's case (when ``check`` gives it:
    :meth:`Autos.check`) and the processo's timeline."""
    checked = check(doc.loaded)
    own = [doc.finding(f) for f in checked.findings]
    relevant: list[Finding] = []
    for f in timeline.errors:
        m = _ACT_PATH.match(f.caminho or "")
        if m is not None:
            later = loaded.processo.atos[int(m.group(1))].data_do_ato
            if later is not None and later > doc.as_of:
                continue
        relevant.append(_from_timeline(f, loaded))
    computed = checked.computed if isinstance(checked, CaseResult) else None
    return CaseResult(file=loaded.file, statute=statute, findings=relevant + own, computed=computed,
                      timeline=timeline)


def unreported_errors(loaded: LoadedProcesso, timeline: Timeline, reports: Iterable[Report]) -> RefusedError | None:
    """The refusal of a processo whose timeline has errors that no document's report carries — in an act without a
    document (an ``oficio`` where the auto should be), or after the last act with one (a document answers only for
    the processo up to its date) — with them listed; ``None`` when every error is in some report. ``gerar`` adds it
    to the documents it wrote or refused, so that such a processo never comes out as complete."""
    shown = {(f.codigo, f.caminho, f.linha) for r in reports for f in r.findings}
    missing = [g for f in timeline.errors if ((g := _from_timeline(f, loaded)).codigo, g.caminho, g.linha) not in shown]
    if not missing:
        return None
    lines = "\n".join("  " + f.render().replace("\n", "\n  ") for f in missing)
    return RefusedError(f"o processo tem {ptbr.count_noun(len(missing), 'erro', 'erros')} que nenhum documento mostra "
                        f"(em atos sem documento ou depois do último documento):\n{lines}\n", file=loaded.file,
                        hint="corrija-os; `autos validar` mostra todos os achados do processo.")


# --- the fine --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FineDecision:
    """A decision on the fine (judgement of the auto, decision on appeal) and what it said."""

    ato: int  # 1-based
    tipo: str
    nome: str
    numero: str | None
    data: date | None
    resultado: Literal["mantida", "reduzida", "cancelada"]
    valor: Decimal | None  # in reais: as typed, or converted from ``valor_base``
    valor_base: Decimal | None = None  # a reduction in the law's fiscal unit

    def to_dict(self) -> dict[str, Any]:
        return {"ato": self.ato, "tipo": self.tipo, "nome": self.nome, "numero": self.numero,
                "data": self.data.isoformat() if self.data else None, "resultado": self.resultado,
                "valor": str(self.valor) if self.valor is not None else None,
                "valor_base": str(self.valor_base) if self.valor_base is not None else None}


@dataclass(frozen=True)
class ProcessoFine:
    """The processo's fine: the auto's memo (as of the auto's date), the decisions, the final amount."""

    processo: str
    auto: int | None  # 1-based index of the auto act
    calculo: FineResult | None
    decisoes: list[FineDecision]
    final: Decimal | None  # None: no fine (cancelled, or none proposed)
    final_por: FineDecision | None  # the decision that fixed the final amount; None: the auto's amount
    cancelada: bool
    pagamentos: list[tuple[int, date | None, Decimal | None]]

    def to_dict(self) -> dict[str, Any]:
        return {"processo": self.processo, "auto": self.auto,
                "calculo": self.calculo.to_dict() if self.calculo else None,
                "decisoes": [d.to_dict() for d in self.decisoes],
                "valor_final": str(self.final) if self.final is not None else None,
                "valor_final_por": self.final_por.to_dict() if self.final_por else None,
                "cancelada": self.cancelada,
                "pagamentos": [{"ato": n, "data": d.isoformat() if d else None,
                                "valor": str(v) if v is not None else None} for n, d, v in self.pagamentos]}


def processo_fine(loaded: LoadedProcesso, proc: Procedure, statute: Statute,
                  fines: Callable[[LoadedCase], FineResult | None]) -> ProcessoFine:
    """The auto's fine as computed from the law, then each decision in order: a reduction sets the amount it
    states in ``valor``, a cancellation ends the fine, a decision that keeps it keeps the amount in force.
    The last of them is the act the final amount comes from."""
    p = loaded.processo
    auto = next((i for i, a in enumerate(p.atos) if a.tipo == proc.initial_kind()), None)
    calculo: FineResult | None = None
    if auto is not None:
        doc = act_document(loaded, auto, proc, statute)
        if doc is not None:
            try:
                calculo = fines(doc.loaded)
            except AutosError as exc:  # its path made to point into the processo
                raise doc.error(exc) from None
    def reais(a: Ato) -> Decimal | None:  # a reduction in the law's unit is converted at the auto's unit value
        if a.valor_base is not None and calculo is not None:
            return statute.arredondamento.apply(a.valor_base * calculo.valor_unidade.valor)
        return a.valor

    decisoes = [FineDecision(i + 1, a.tipo, proc.atos[a.tipo].nome, a.numero, a.data_do_ato, a.resultado, reais(a),
                             a.valor_base)
                for i, a in enumerate(p.atos) if a.resultado is not None and a.tipo in proc.atos]
    final: Decimal | None = calculo.total_reais if calculo is not None else None
    final_por: FineDecision | None = None
    cancelada = False
    for d in decisoes:
        if d.resultado == "cancelada":
            final, final_por, cancelada = None, d, True
        elif d.resultado == "reduzida":  # the decision states the reduced amount (None: not informed)
            final, final_por, cancelada = d.valor, d, False
        else:  # mantida: the amount in force stays
            final_por = d
    pagamentos = [(i + 1, a.data_do_ato, a.valor) for i, a in enumerate(p.atos) if a.tipo == "pagamento"]
    return ProcessoFine(p.numero, auto + 1 if auto is not None else None, calculo, decisoes, final, final_por,
                        cancelada, pagamentos)


def inscribes_an_amount(loaded: LoadedProcesso) -> bool:
    """Whether the processo inscribes an amount in dívida ativa (only then is :func:`debt_findings` worth its fine)."""
    return any(a.tipo == DEBT_ACT and a.valor is not None for a in loaded.processo.atos)


def debt_findings(loaded: LoadedProcesso, proc: Procedure, fine: ProcessoFine) -> list[Finding]:
    """The amount inscribed in dívida ativa must be the debt the processo computes: the fine in force (the auto's,
    or the one the last decision set), less what was paid before the inscription, to the cent. A cancelled fine
    has nothing to inscribe. No interest or charges are added: none of the three laws provides them."""
    out: list[Finding] = []
    rule = proc.atos.get(DEBT_ACT)
    if rule is None:
        return out
    for i, a in enumerate(loaded.processo.atos):
        if a.tipo != DEBT_ACT or a.valor is None:
            continue
        path = ("atos", i, "valor")
        line = loaded.line_of(path)
        cite = proc.cite(rule.citacao)
        label = f"a inscrição em dívida ativa{f' nº {a.numero}' if a.numero else ''} (atos[{i}])"
        if fine.cancelada:
            out.append(Finding(severidade="erro", codigo="DIVIDA-ATIVA-VALOR", mensagem=f"{label} inscreve "
                               f"{ptbr.format_brl(a.valor)}, mas a multa foi cancelada: não há débito.",
                               citacao=cite, caminho=format_path(path), linha=line, arquivo=str(loaded.file),
                               dica="retire a inscrição ou confira a decisão."))
            continue
        if fine.final is None:
            continue  # no fine computed: its own finding says why
        paid = sum((v for n, d, v in fine.pagamentos if v is not None and (d is None or a.data_do_ato is None
                                                                          or d <= a.data_do_ato)), Decimal(0))
        due = (fine.final - paid).quantize(_CENT, rounding=ROUND_HALF_UP)
        if a.valor.quantize(_CENT, rounding=ROUND_HALF_UP) == due:
            continue
        source = ("o do auto" if fine.final_por is None else
                  f"fixado em {fine.final_por.nome} nº {fine.final_por.numero or 's/n'}"
                  if fine.final_por.resultado == "reduzida" else
                  f"o do auto, mantido em {fine.final_por.nome} nº {fine.final_por.numero or 's/n'}")
        how = f"multa em vigor {ptbr.format_brl(fine.final)} ({source})"
        if paid:
            how += f", menos {ptbr.format_brl(paid)} pagos antes da inscrição"
        out.append(Finding(severidade="erro", codigo="DIVIDA-ATIVA-VALOR",
                           mensagem=f"{label} inscreve {ptbr.format_brl(a.valor)}, mas o débito do processo é "
                           f"{ptbr.format_brl(due)}: {how}.", citacao=cite, caminho=format_path(path), linha=line,
                           arquivo=str(loaded.file),
                           dica=f"inscreva {ptbr.format_brl(due)} (veja `autos multa` do processo) ou registre a "
                           "decisão ou o pagamento que mudou o valor."))
    return out
