"""Reincidência from the register's history (issue 12, item 3), for ``autos validar``.

For each infraction of a processo, the register gives the earlier processos of the same person (CPF/CNPJ reduced
to its digits) under the same law; each is read from its file and its timeline says whether, and since when, its
decision is final (:mod:`autos.compute.recidivism`, by the law's ``reincidencia`` rules). An earlier processo
whose decision became final before the new infraction and within the window (``anos``) makes the autuado a repeat
offender — in the same infraction or in any, as the rules say.

What ``validar`` then does, per infraction:

* prints ``reincidente: Auto nº 112/2026 de 03/05/2026 (processo …)`` (or that none counts) and the auto's fine
  computed with it;
* ``reincidente`` not typed (law where reincidência doubles the fine): the history's value is used for the fine,
  with a warning to write it in the file — the processo stays the unit, and ``gerar`` uses only what the file
  says;
* typed and different from the history: an **error**, unless ``reincidente_motivo`` gives the reason (then a
  warning, and the auto and the demonstrativo print the reason). In Timóteo, where reincidência is the
  aggravating circumstance ``a`` (art. 16, § 2º, II), "typed" is that circumstance in the auto.

Without a register nothing changes: the typed value is used, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from autos.app.generation.pipeline import Autos
from autos.base.ptbr import format_brl, format_decimal
from autos.checks.finding import Finding, Report
from autos.checks.processo import ProcessoReport
from autos.compute.recidivism import Finality, finality_of, in_window
from autos.compute.timeline import Timeline
from autos.errors import AutosError
from autos.processo.case import Antecedente
from autos.processo.load import LoadedProcesso, load_processo
from autos.rules.calendar import format_date
from autos.rules.fine_rules import RecidivismHistory
from autos.rules.statute import Statute, formula_for
from autos.store.database import Location, find_register

if TYPE_CHECKING:  # the register's modules only when a processo has one (start-up of validar)
    from autos.store.register import Register

__all__ = ["History", "InfractionHistory", "Prior", "add_register_checks", "history_of"]


@dataclass(frozen=True)
class Prior:
    """An earlier processo of the same person whose final decision counts."""

    arquivo: Path
    processo: str
    auto_numero: str | None
    auto_data: date | None
    final: Finality
    regras: tuple[str, ...]

    def label(self) -> str:
        auto = f"Auto nº {self.auto_numero}" if self.auto_numero else "auto sem número"
        when = f" de {format_date(self.auto_data)}" if self.auto_data else ""
        return (f"{auto}{when} (processo {self.processo}, {self.arquivo}); decisão definitiva em "
                f"{format_date(self.final.data)} ({self.final.por})")


@dataclass(frozen=True)
class InfractionHistory:
    indice: int
    regra: str
    anteriores: tuple[Prior, ...]

    @property
    def reincidente(self) -> bool:
        return bool(self.anteriores)


@dataclass
class History:
    """The history of one processo: the rules applied, the new infraction's date, each infraction's priors."""

    rule: RecidivismHistory
    data_infracao: date
    infracoes: list[InfractionHistory]
    avisos: list[Finding] = field(default_factory=list)


def _auto_index(loaded: LoadedProcesso, autos: Autos) -> int | None:
    proc = autos.procedure_of(loaded.processo.lei)
    kind = proc.initial_kind() if proc is not None else "auto"
    return next((i for i, a in enumerate(loaded.processo.atos) if a.tipo == kind), None)


def _infraction_date(loaded: LoadedProcesso, autos: Autos) -> date | None:
    p = loaded.processo
    if p.data_infracao is not None:
        return p.data_infracao
    i = _auto_index(loaded, autos)
    return p.atos[i].data_do_ato if i is not None else None


def _warning(loaded: LoadedProcesso, code: str, message: str, hint: str) -> Finding:
    return Finding("aviso", code, message, None, "autuado", loaded.line_of(("autuado",)), str(loaded.file), hint)


def history_of(autos: Autos, register: Register, loaded: LoadedProcesso) -> History | None:
    """The reincidência history of ``loaded`` from ``register``; None when its law has no ``reincidencia`` rules,
    the autuado has no CPF/CNPJ or the processo has no date to count from."""
    p = loaded.processo
    statute = autos.rules.get(p.lei)
    rule = statute.reincidencia
    documento = p.autuado.documento
    when = _infraction_date(loaded, autos)
    if rule is None or not documento or when is None:
        return None
    me = register.relative(loaded.file)
    history = History(rule, when, [])
    priors: list[tuple[Prior, set[str]]] = []
    try:
        candidates = register.processos_of_person(documento, p.lei)
    except ValueError:
        return None  # an invalid CPF/CNPJ is the model's error, reported by validar already
    for arquivo, numero, _ in candidates:
        if arquivo == me or numero == p.numero:
            continue
        path = register.absolute(arquivo)
        if not path.is_file():
            history.avisos.append(_warning(
                loaded, "REINCIDENCIA-ARQUIVO-AUSENTE",
                f"o registro {register.path} indexa o processo {numero} do mesmo autuado em {path}, que não existe "
                "mais: a reincidência não pôde considerá-lo",
                "rode autos registro reconstruir PASTA (um arquivo movido é reencontrado) e valide de novo."))
            continue
        try:
            earlier = load_processo(path)
            procedure = autos.processos.procedure(earlier.processo.lei)
        except AutosError as exc:
            history.avisos.append(_warning(
                loaded, "REINCIDENCIA-ARQUIVO-ILEGIVEL",
                f"o processo {numero} do mesmo autuado ({path}) não pôde ser lido para a reincidência: "
                f"{exc.message}", "corrija o arquivo e valide de novo."))
            continue
        timeline: Timeline | None = None
        uncounted: AutosError | None = None
        try:
            timeline = autos.processos.check(earlier, autos.today)
        except AutosError as exc:  # e.g. a year the calendar does not cover: the acts still say a lot
            uncounted = exc
        final = finality_of(earlier.processo, timeline, rule, procedure)
        if final is None and uncounted is not None and rule.definitiva.prazos:
            history.avisos.append(_warning(
                loaded, "REINCIDENCIA-PRAZO-NAO-CONTADO",
                f"o processo {numero} do mesmo autuado ({path}) não tem ato que torne a decisão definitiva, e o "
                f"prazo de recurso não pôde ser contado: {uncounted.message}",
                "corrija o que a mensagem aponta e valide de novo; até lá, esse processo não conta para a "
                "reincidência."))
        if final is None or not in_window(final.data, when, rule):
            continue
        e = earlier.processo
        k = _auto_index(earlier, autos)
        auto = e.atos[k] if k is not None else None
        regras = tuple(i.regra for i in e.infracoes)
        priors.append((Prior(path, e.numero, auto.numero if auto else None, auto.data_do_ato if auto else None,
                             final, regras), set(regras)))
    for i, inf in enumerate(p.infracoes):
        counted = tuple(prior for prior, regras in priors
                        if rule.conta == "qualquer_infracao" or inf.regra in regras)
        history.infracoes.append(InfractionHistory(i, inf.regra, counted))
    return history


# --------------------------------------------------------------------------------------------------
# autos validar


def _finding(loaded: LoadedProcesso, severity: str, code: str, message: str, citation: str,
             path: tuple[str | int, ...], hint: str | None) -> Finding:
    dotted = "".join(f"[{x}]" if isinstance(x, int) else (f".{x}" if j else x) for j, x in enumerate(path))
    line = loaded.line_of(path) or loaded.line_of(path[:-1])
    return Finding("erro" if severity == "erro" else "aviso", code, message, citation, dotted, line,
                   str(loaded.file), hint)


def _typed(loaded: LoadedProcesso, rule: RecidivismHistory, i: int, auto: int | None
           ) -> tuple[bool | None, tuple[str | int, ...]]:
    """What the clerk typed for infraction ``i`` and where: ``reincidente`` (efeito multa) or the aggravating
    circumstance of reincidência in the auto (efeito agravante)."""
    inf = loaded.processo.infracoes[i]
    if rule.efeito == "multa":
        return inf.reincidente, ("infracoes", i, "reincidente")
    if auto is None:
        return False, ("atos",)
    c = loaded.processo.atos[auto].circunstancias
    return (c is not None and rule.agravante in c.agravantes), ("atos", auto, "circunstancias", "agravantes")


def _doubles(statute: Statute, regra: str) -> bool:
    """The fine of infraction ``regra`` changes with reincidência (a formula of one of its penalties has
    ``reincidencia``)."""
    rule = statute.infracoes.get(regra)
    if rule is None:
        return False
    formulas = (formula_for(statute, rule, pen) for pen in rule.penalidades)
    return any(f is not None and f.reincidencia is not None for f in formulas)


def _apply(autos: Autos, register: Register, report: ProcessoReport, loaded: LoadedProcesso) -> None:
    history = history_of(autos, register, loaded)
    if history is None:
        return
    rule = history.rule
    statute: Statute = autos.rules.get(loaded.processo.lei)
    cite = statute.cite(rule.citacao)
    start = format_date(history.data_infracao)
    report.findings.extend(history.avisos)
    auto = _auto_index(loaded, autos)
    for ih in history.infracoes:
        what = f"infração {ih.indice + 1} ({ih.regra})"
        if ih.anteriores:
            for prior in ih.anteriores:
                report.historico.append(f"reincidente — {what}: {prior.label()}")
        else:
            report.historico.append(
                f"não reincidente — {what}: nenhum processo anterior do mesmo autuado "
                f"{'pela mesma infração' if rule.conta == 'mesma_infracao' else 'por infração a esta lei'} com "
                f"decisão definitiva nos {rule.anos} anos antes de {start} ({cite})")
    infracoes = loaded.processo.infracoes
    # what is compared with the history: each infraction whose fine changes with reincidência (efeito multa), or
    # once, the auto's aggravating circumstance (efeito agravante: the reason may be in any infraction)
    subjects: list[tuple[str, int, bool]]
    if rule.efeito == "multa":
        subjects = [(f"infração {ih.indice + 1} ({ih.regra})", ih.indice, ih.reincidente)
                    for ih in history.infracoes if _doubles(statute, ih.regra)]
    elif history.infracoes:
        reasoned = next((i for i, inf in enumerate(infracoes) if inf.reincidente_motivo), 0)
        subjects = [("o auto", reasoned, any(ih.reincidente for ih in history.infracoes))]
    else:
        subjects = []
    fill: dict[int, bool] = {}
    for what, i, reincidente in subjects:
        typed, path = _typed(loaded, rule, i, auto)
        motivo = infracoes[i].reincidente_motivo
        said = "reincidente" if reincidente else "não reincidente"
        if typed is None:
            fill[i] = reincidente
            report.findings.append(_finding(
                loaded, "aviso", "REINCIDENCIA-DO-HISTORICO",
                f"{what}: o arquivo não diz se há reincidência; o histórico do registro diz {said}, e a multa "
                "mostrada abaixo o usa", cite, path,
                f"escreva infracoes[{i}].reincidente: {'true' if reincidente else 'false'} no arquivo "
                "(os documentos usam só o que o processo diz)."))
        elif typed != reincidente:
            field_name = (f"a agravante '{rule.agravante}' (reincidência) {'está' if typed else 'não está'} marcada "
                          "no auto" if rule.efeito == "agravante" else f"reincidente: {'true' if typed else 'false'}")
            if motivo:
                report.findings.append(_finding(
                    loaded, "aviso", "REINCIDENCIA-CONTRA-HISTORICO",
                    f"{what}: {field_name}, e o histórico do registro diz {said}; prevalece o valor informado, com "
                    f"o motivo: {motivo} (impresso no auto e no demonstrativo)", cite,
                    ("infracoes", i, "reincidente_motivo"), None))
            else:
                fix = ("acrescente" if reincidente else "retire") + f" a agravante '{rule.agravante}'" \
                    if rule.efeito == "agravante" else f"escreva reincidente: {'true' if reincidente else 'false'}"
                report.findings.append(_finding(
                    loaded, "erro", "REINCIDENCIA-DIVERGENTE",
                    f"{what}: {field_name}, mas o histórico do registro diz {said}", cite, path,
                    f"{fix}; ou, se o histórico está incompleto ou errado (auto anterior em papel, decisão anulada…), "
                    f"mantenha o valor e escreva o motivo em infracoes[{i}].reincidente_motivo."))
    # the earlier processo the history found is the antecedent the repeat rests on (autos.checks.reasons), where the
    # file names none
    prior_of = {ih.indice: ih.anteriores[0] for ih in history.infracoes if ih.anteriores}
    updates: dict[int, dict[str, object]] = {i: {"reincidente": v} for i, v in fill.items()}
    for i, prior in prior_of.items():
        if (fill.get(i, infracoes[i].reincidente) is True and infracoes[i].antecedente is None
                and rule.efeito == "multa"):
            updates.setdefault(i, {})["antecedente"] = Antecedente(
                auto=prior.auto_numero or "sem número", data=prior.auto_data, processo=prior.processo,
                definitiva_em=prior.final.data, como=prior.final.por)
    used = loaded
    if updates:
        filled = [inf.model_copy(update=updates[i]) if i in updates else inf for i, inf in enumerate(infracoes)]
        used = LoadedProcesso(loaded.processo.model_copy(update={"infracoes": filled}), loaded.doc)
        again = autos.check_processo(used)
        keep = [f for f in report.findings if f.codigo.startswith(("REINCIDENCIA-", "REG-"))]
        report.findings[:] = again.findings + keep
        report.atos = again.atos
    try:
        fine = autos.processo_fine(used)
    except AutosError:
        return  # the fine's own error is among the findings
    if fine.calculo is not None and fine.calculo.itens:
        c = fine.calculo
        source = "com a reincidência do histórico" if fill else "com os valores do arquivo"
        report.historico.append(f"multa do auto ({source}): {format_decimal(c.total_unidades)} {c.sigla} = "
                                f"{format_brl(c.total_reais)}")


def add_register_checks(autos: Autos, reports: Sequence[Report], given: Location | None) -> None:
    """What ``autos validar --registro`` adds to every processo that has a register (``given``, or found beside
    it), in one pass that opens each register once: the reincidência from its history, then the register's
    findings on its numbers (:func:`autos.app.register.service.register_findings`, which the history's re-check keeps)
    and on the small-scale reduction it knows of (:func:`autos.app.register.small_scale.small_scale_findings`). A
    processo without a register is left as it was."""
    if given is None and not any(isinstance(r, ProcessoReport) and r.error is None and find_register(r.file)
                                 for r in reports):
        return
    from autos.app.register.service import processos_with_register, register_findings
    from autos.app.register.small_scale import small_scale_findings

    for report, register, loaded in processos_with_register(reports, given):
        _apply(autos, register, report, loaded)
        report.findings.extend(register_findings(register, loaded))
        report.findings.extend(small_scale_findings(register, loaded, autos.rules.get(loaded.processo.lei)))
