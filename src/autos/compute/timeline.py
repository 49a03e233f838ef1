"""A processo's timeline checked against its law, and every deadline's state on a reference date.

:func:`check_timeline` is pure: the processo, the law's procedure rules and the municipal calendar
come in, a :class:`Timeline` comes out (no file I/O, no clock: ``hoje`` is a parameter). Dates are
counted by :mod:`autos.rules.deadlines` (business days, holidays, closures, the law's counting rule).

What it reports:

* errors (with the article): an act the law does not provide for, an act out of order or before its
  auto, an act citing a missing act, two acts with the same number, a date before the infraction or
  after the reference date, a field the law requires that is missing, a field that the act does not take;
* every deadline each act started (and those started when another lapsed), with its state on ``hoje``:
  ``em curso``, ``cumprido``, ``cumprido com atraso`` (met after it expired: never "cumprido"; the delay is
  counted in calendar days, *corridos*, from the deadline's last day to the act), ``perdido`` or ``prejudicado``;
* a defence or appeal filed after its deadline is marked *intempestivo*, with the date the deadline
  expired; if the law makes it preclusive, it has no effect on the rest of the processo;
* the situation ("aguardando defesa até 03/11/2026") and what is due next, with its due date.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from autos.base.ptbr import count_noun
from autos.base.yamlio import PathKey, format_path
from autos.compute.deadlines import Deadline, NoticeFacts, compute, notice_effective
from autos.compute.finding import Finding
from autos.errors import InputError
from autos.processo.load import LoadedProcesso
from autos.processo.model import Ato
from autos.rules.calendar import MunicipalCalendar, format_date
from autos.rules.procedure import ActRule, DeadlineBehaviour, Procedure

__all__ = [
    "ActState",
    "DeadlineState",
    "Pending",
    "Timeline",
    "Urgency",
    "check_timeline",
    "state_label",
    "urgency_of",
]

State = Literal["em curso", "cumprido", "cumprido com atraso", "perdido", "prejudicado"]
Urgency = Literal["vencido", "hoje", "esta semana", "depois", "sem prazo"]
URGENCY_ORDER: dict[str, int] = {"vencido": 0, "hoje": 1, "esta semana": 2, "depois": 3, "sem prazo": 4}

#: what the engine counted, kept across the processos of one law and calendar (``check_timeline``'s memo): a
#: deadline by (id, start date), the date a notice takes effect by its facts (only when valid: an error names
#: the file)
DeadlineMemo = dict[tuple[str, date] | NoticeFacts, Deadline]

#: which NoticeFacts field is which act field (for error paths)
_FACT_FIELDS = {
    "data_ciencia": "data", "ar_recebimento": "recebimento", "ar_juntada": "juntada",
    "edital_publicacao": "publicacoes", "edital_jornal": "publicacoes", "testemunha": "testemunha",
    "ar_devolvido": "devolucao", "forma": "tipo", "data_infracao": "data",
}
_FACT_LABELS = {
    "data_ciencia": "a data da ciência", "ar_recebimento": "o recebimento do AR",
    "ar_juntada": "a juntada do AR aos autos", "edital_publicacao": "a publicação no órgão oficial",
    "edital_jornal": "a publicação no jornal local", "testemunha": "a testemunha da recusa",
}


@dataclass
class ActState:
    """One act as the timeline sees it."""

    indice: int
    tipo: str
    nome: str
    base_legal: str | None
    numero: str | None
    data: date | None
    referente: str | None
    linha: int | None
    efetiva: date | None = None  # a notice: when it takes effect
    intempestivo: date | None = None  # filed late: the date its deadline expired
    frustrada: bool = False  # an AR that came back undelivered
    notas: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"indice": self.indice, "tipo": self.tipo, "nome": self.nome, "base_legal": self.base_legal,
                "numero": self.numero, "data": _iso(self.data), "referente": self.referente, "linha": self.linha,
                "efetiva": _iso(self.efetiva), "intempestivo": self.intempestivo is not None,
                "prazo_vencido_em": _iso(self.intempestivo), "frustrada": self.frustrada, "notas": self.notas}


@dataclass
class DeadlineState:
    """One deadline a processo runs: counted by the engine, with its state on the reference date."""

    id: str
    acao: str
    obrigado: str
    deadline: Deadline
    iniciado_por: int | None  # act index; None when started by another deadline's lapse
    objeto: int | None  # act index the deadline is about (the auto a defence answers…)
    estado: State = "em curso"
    cumprido_por: int | None = None
    prejudicado_por: int | None = None
    nota: str | None = None
    ao_vencer_iniciado: bool = False
    #: met after it expired: calendar days (corridos) from the deadline's last day to the act that met it
    atraso_dias: int | None = None

    @property
    def fim(self) -> date:
        return self.deadline.fim

    @property
    def rotulo(self) -> str:
        """The state as the user reads it: a late one says so, with its delay ("cumprido com atraso (3 dias
        corridos)"), never plain "cumprido"."""
        return state_label(self.estado, self.atraso_dias)

    def to_dict(self) -> dict[str, object]:
        d = self.deadline
        return {"id": self.id, "acao": self.acao, "obrigado": self.obrigado, "descricao": d.descricao,
                "base_legal": d.base_legal, "inicio": _iso(d.inicio), "fim": _iso(d.fim), "prazo": d.prazo_texto(),
                "estado": self.estado, "iniciado_por": self.iniciado_por, "cumprido_por": self.cumprido_por,
                "prejudicado_por": self.prejudicado_por, "atraso_dias": self.atraso_dias, "rotulo": self.rotulo,
                "nota": self.nota, "exemplo": d.exemplo,
                "explicacao": d.explicacao()}


@dataclass(frozen=True)
class Pending:
    """Something due in a processo: who must act, what, and by when (``None``: no legal term)."""

    quem: str
    acao: str
    vence: date | None
    urgencia: Urgency
    base_legal: str | None
    prazo: str | None  # deadline id

    def to_dict(self) -> dict[str, object]:
        return {"quem": self.quem, "acao": self.acao, "vence": _iso(self.vence), "urgencia": self.urgencia,
                "base_legal": self.base_legal, "prazo": self.prazo}


@dataclass
class Timeline:
    """The result for one processo on ``hoje``."""

    file: Path
    numero: str
    lei: str
    citacao_lei: str
    hoje: date
    autuado: str | None
    agente: str | None
    atos: list[ActState]
    prazos: list[DeadlineState]
    achados: list[Finding]
    pendencias: list[Pending]
    situacao: str
    encerrado: bool
    interpretacoes: list[str]
    #: the matrícula of the auto's agent (the web application: a fiscal sees the processos of his autos)
    agente_matricula: str | None = None

    @property
    def proximo(self) -> Pending | None:
        """The most urgent thing due."""
        return self.pendencias[0] if self.pendencias else None

    @cached_property
    def errors(self) -> list[Finding]:
        return [f for f in self.achados if f.severidade == "erro"]

    @property
    def has_errors(self) -> bool:
        return bool(self.errors)

    @cached_property
    def met_by(self) -> frozenset[int]:
        """The acts (indexes) that met some deadline."""
        return frozenset(ds.cumprido_por for ds in self.prazos if ds.cumprido_por is not None)

    def exit_code(self) -> int:
        return 1 if self.has_errors else 0

    def to_dict(self) -> dict[str, object]:
        nxt = self.proximo
        return {"arquivo": str(self.file), "processo": self.numero, "lei": self.lei, "hoje": _iso(self.hoje),
                "autuado": self.autuado, "agente": self.agente, "situacao": self.situacao,
                "encerrado": self.encerrado, "proximo": nxt.to_dict() if nxt else None,
                "atos": [a.to_dict() for a in self.atos], "prazos": [p.to_dict() for p in self.prazos],
                "pendencias": [p.to_dict() for p in self.pendencias],
                "achados": [f.to_timeline_dict() for f in self.achados], "interpretacoes": self.interpretacoes}


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d is not None else None


def urgency_of(due: date | None, hoje: date) -> Urgency:
    """``vencido`` before ``hoje``; ``hoje``; ``esta semana`` up to 7 days ahead; ``depois``; ``sem prazo``."""
    if due is None:
        return "sem prazo"
    if due < hoje:
        return "vencido"
    if due == hoje:
        return "hoje"
    if due <= hoje + timedelta(days=7):
        return "esta semana"
    return "depois"


# --------------------------------------------------------------------------------------------------


class _Checker:
    def __init__(self, loaded: LoadedProcesso, proc: Procedure, cal: MunicipalCalendar, hoje: date,
                 memo: DeadlineMemo | None = None) -> None:
        self.memo: DeadlineMemo = {} if memo is None else memo
        self.loaded = loaded
        self.p = loaded.processo
        self.proc = proc
        self.cal = cal
        self.hoje = hoje
        self.findings: list[Finding] = []
        self.acts: list[ActState] = []
        self.deadlines: list[DeadlineState] = []
        # the deadlines by what may still change them, so that no act looks at all (the check stays linear in the
        # acts); a list drops, when read, those met or moot for good (acts run in date order: see run_act's step 4)
        self._same: dict[tuple[str, int | None], list[DeadlineState]] = {}  # (id, objeto): a later count replaces
        self._meets: dict[str, list[DeadlineState]] = {}  # act kind → the deadlines it meets
        self._moots: dict[str, list[DeadlineState]] = {}  # act kind → the deadlines it makes moot
        self._by_id: dict[str, list[DeadlineState]] = {}
        self._open: list[DeadlineState] = []  # what a closing act may still make moot
        self._lapsing: list[tuple[date, int, DeadlineState]] = []  # heap by end: those whose lapse starts others
        self.by_number: dict[str, int] = {}
        self.ref_index: dict[int, int] = {}  # act index -> index of the act it cites
        self.ended: dict[int, int] = {}  # act index -> the act that ended it (encerra_citado)
        self.closed_by: int | None = None
        self.done = 0  # acts processed so far (run_act)
        self.computed = False  # deadlines computed (only when the structure is sound)
        self.waiting: list[Pending] = []  # notices in progress (AR posted, not yet back)

    # ---- helpers ---------------------------------------------------------------------------------
    def add(self, codigo: str, mensagem: str, path: PathKey, base: str | None = None,
            hint: str | None = None, severidade: Literal["erro", "aviso"] = "erro") -> None:
        self.findings.append(Finding(severidade=severidade, codigo=codigo, mensagem=mensagem, citacao=base,
                                     caminho=format_path(path), linha=self.loaded.line_of(path), dica=hint))

    def rule(self, i: int) -> ActRule | None:
        return self.proc.atos.get(self.p.atos[i].tipo)

    def label(self, i: int) -> str:
        a = self.p.atos[i]
        r = self.rule(i)
        name = r.nome if r else a.tipo
        num = f" nº {a.numero}" if a.numero else ""
        when = f" de {format_date(d)}" if (d := a.data_do_ato) else ""
        return f"{name}{num}{when} (atos[{i}])"

    @property
    def infraction_date(self) -> date | None:
        if self.p.data_infracao is not None:
            return self.p.data_infracao
        auto = self.loaded.first_of_kind(self.proc.initial_kind())
        return self.p.atos[auto].data_do_ato if auto is not None else None

    # ---- structure -------------------------------------------------------------------------------
    def check_structure(self) -> None:
        p, proc = self.p, self.proc
        if p.lei != proc.lei:  # pragma: no cover - the caller loads the processo's own law
            self.add("LEI", f"o processo é da lei '{p.lei}', mas foi conferido com '{proc.lei}'.", ("lei",))
        for f in proc.processo_campos:
            value = getattr(p, f.campo)
            if value in (None, [], ""):
                self.add("CAMPO-PROCESSO", f"falta '{f.campo}', exigido pela {proc.cite(f.citacao)}.", (f.campo,),
                         proc.cite(f.citacao), f"preencha '{f.campo}' no processo.")
        initial = proc.initial_kind()
        autos = [i for i, a in enumerate(p.atos) if a.tipo == initial]
        if not autos and not all((k := proc.atos.get(a.tipo)) is not None and k.pode_preceder_auto for a in p.atos):
            # a processo opened by an act the law puts before the auto (an apprehension, a notificação
            # preliminar) is waiting for the auto, not missing it
            r = proc.atos[initial]
            self.add("SEM-AUTO", f"o processo não tem {r.nome}: todo processo começa por ele "
                     f"({proc.cite(r.citacao)}).", ("atos",), proc.cite(r.citacao), f"acrescente o ato '{initial}'.")
        for extra in autos[1:]:
            self.add("AUTO-REPETIDO", f"o processo tem mais de um {proc.atos[initial].nome}: um processo por auto.",
                     ("atos", extra), None, "abra um processo para cada auto.")
        first_auto = autos[0] if autos else None
        infr = self.infraction_date
        prev: tuple[int, date] | None = None
        before: set[str] = set()  # the kinds of the acts before act i
        for i, a in enumerate(p.atos):
            if i:
                before.add(p.atos[i - 1].tipo)
            path: PathKey = ("atos", i)
            rr = proc.atos.get(a.tipo)
            d = a.data_do_ato
            self.acts.append(ActState(i, a.tipo, rr.nome if rr else a.tipo, proc.cite(rr.citacao) if rr else None,
                                      a.numero, d, a.referente, self.loaded.line_of(path)))
            if a.numero:
                if a.numero in self.by_number:
                    j = self.by_number[a.numero]
                    self.add("NUMERO-REPETIDO", f"dois atos com o número '{a.numero}': {self.label(j)} e "
                             f"{self.label(i)}.", (*path, "numero"), None,
                             "cada ato tem número próprio; corrija um deles.")
                else:
                    self.by_number[a.numero] = i
            if rr is None:
                self.not_provided(i)
                continue
            r = rr
            self.check_fields(i, r)
            if d is None:
                self.add("SEM-DATA", f"{r.nome} sem data.", (*path, "data"), proc.cite(r.citacao),
                         "informe a data do ato (AAAA-MM-DD).")
                continue
            if infr is not None and d < infr and not r.precede_infracao:  # a notice precedes what it warns of
                self.add("ANTES-DA-INFRACAO", f"{self.label(i)} é anterior à infração ({format_date(infr)}).",
                         (*path, "data"), None, "confira as datas.")
            if d > self.hoje:
                self.add("DATA-FUTURA", f"{self.label(i)} é posterior à data de referência "
                         f"({format_date(self.hoje)}): o processo registra atos já praticados.", (*path, "data"),
                         None, "confira a data ou a data de referência (--hoje).")
            if prev is not None and d < prev[1]:
                self.add("FORA-DE-ORDEM", f"{self.label(i)} vem depois de {self.label(prev[0])} na lista, mas tem "
                         "data anterior: os atos ficam na ordem em que foram praticados.", (*path, "data"), None,
                         "ponha os atos em ordem cronológica.")
            prev = (i, d) if prev is None or d >= prev[1] else prev
            if first_auto is not None and i < first_auto and not r.pode_preceder_auto:
                self.add("ANTES-DO-AUTO", f"{self.label(i)} vem antes do {proc.atos[initial].nome}: "
                         f"a {proc.citacao} só o prevê depois da autuação ({proc.cite(r.citacao)}).", path,
                         proc.cite(r.citacao), "ponha o ato depois do auto.")
            if r.segue and before.isdisjoint(r.segue):
                names = ", ".join(proc.atos[k].nome for k in r.segue)
                self.add("FORA-DE-ORDEM", f"{self.label(i)} fora de ordem: pela {proc.cite(r.citacao)} ele vem "
                         f"depois de um destes atos, que o processo não tem antes dele: {names}.", path,
                         proc.cite(r.citacao), "acrescente o ato anterior ou corrija o tipo.")
            self.check_reference(i, r)

    def not_provided(self, i: int) -> None:
        a = self.p.atos[i]
        proc = self.proc
        known = ", ".join(sorted(proc.atos))
        np = proc.nao_previstos.get(a.tipo)
        if np is not None:
            cit, motivo = np
            self.add("ATO-NAO-PREVISTO", f"a {proc.citacao} não prevê o ato '{a.tipo}': {motivo}",
                     ("atos", i, "tipo"), proc.cite(cit), f"use um dos atos da lei: {known}.")
        else:
            self.add("ATO-NAO-PREVISTO", f"a {proc.citacao} não prevê o ato '{a.tipo}'.", ("atos", i, "tipo"),
                     None, f"use um dos atos da lei: {known}.")

    def check_fields(self, i: int, r: ActRule) -> None:
        a = self.p.atos[i]
        given = a.given()
        allowed = self.proc.campos_aceitos[a.tipo]
        for name in sorted(given - allowed):
            self.add("CAMPO-NAO-CABE", f"o campo '{name}' não cabe em {r.nome}.", ("atos", i, name),
                     self.proc.cite(r.citacao),
                     f"campos de {r.nome}: {', '.join(sorted(allowed - {'tipo'}))}.")
        for f in r.campos:
            if f.campo not in given:
                self.add("CAMPO-FALTANDO", f"{self.label(i)}: falta '{f.campo}', exigido pela "
                         f"{self.proc.cite(f.citacao)}.", ("atos", i, f.campo), self.proc.cite(f.citacao),
                         f"preencha 'atos[{i}].{f.campo}'.")

    def check_in_force_since(self, i: int, r: ActRule) -> None:
        """A measure's act that cites the earlier act from which the measure is in force (``vigente_desde``): that
        act exists before it and is of one of those kinds."""
        a = self.p.atos[i]
        path: PathKey = ("atos", i, "referente")
        kinds = ", ".join(self.proc.atos[k].nome for k in r.vigente_desde)
        j = self.by_number.get(a.referente or "")
        if j is None or j >= i:
            self.add("REFERENCIA-INEXISTENTE", f"{self.label(i)} cita o ato nº {a.referente}, que não existe antes "
                     "dele no processo.", path, self.proc.cite(r.citacao),
                     f"use o número do ato de que a medida já vigora ({kinds}), ou apague 'referente'.")
        elif self.p.atos[j].tipo not in r.vigente_desde:
            self.add("REFERENCIA-INVALIDA", f"{self.label(i)} cita {self.label(j)}, mas a medida só pode vigorar "
                     f"desde: {kinds}.", path, self.proc.cite(r.citacao),
                     f"use o número de um destes atos: {kinds}, ou apague 'referente'.")

    def check_reference(self, i: int, r: ActRule) -> None:
        a = self.p.atos[i]
        path: PathKey = ("atos", i, "referente")
        if not r.cita:
            if r.vigente_desde and a.referente is not None:
                self.check_in_force_since(i, r)
            return
        kinds = ", ".join(self.proc.atos[k].nome for k in r.cita)
        if a.referente is None:
            self.add("SEM-REFERENCIA", f"{self.label(i)} deve citar o ato a que se refere ({kinds}) pelo número.",
                     ("atos", i), self.proc.cite(r.citacao), "informe 'referente' com o número desse ato.")
            return
        j = self.by_number.get(a.referente)
        if j is None or j >= i:
            self.add("REFERENCIA-INEXISTENTE", f"{self.label(i)} cita o ato nº {a.referente}, que não existe antes "
                     "dele no processo.", path, self.proc.cite(r.citacao),
                     f"use o número de um ato anterior ({kinds}).")
            return
        if self.p.atos[j].tipo not in r.cita:
            self.add("REFERENCIA-INVALIDA", f"{self.label(i)} cita {self.label(j)}, mas deve citar: {kinds}.", path,
                     self.proc.cite(r.citacao), f"use o número de um destes atos: {kinds}.")
            return
        cited, own = self.p.atos[j].data_do_ato, a.data_do_ato
        if cited is not None and own is not None and own < cited:  # e.g. a levantamento before its embargo
            self.add("ANTES-DO-ATO-CITADO", f"{self.label(i)} tem data anterior à de {self.label(j)}, que ele cita: "
                     f"pela {self.proc.cite(r.citacao)}, ele só pode vir depois desse ato.", ("atos", i, "data"),
                     self.proc.cite(r.citacao), "confira a data dos dois atos.")
            return
        if r.encerra_citado:
            k = self.ended.get(j)
            if k is not None:  # e.g. a second levantamento of the same embargo, a restitution after a destination
                self.add("ATO-JA-ENCERRADO", f"{self.label(i)} cita {self.label(j)}, que já terminou com "
                         f"{self.label(k)} ({self.proc.cite(r.citacao)}).", path, self.proc.cite(r.citacao),
                         "retire o ato repetido ou corrija o número que ele cita.")
                return
            self.ended[j] = i
        self.ref_index[i] = j

    # ---- deadlines -------------------------------------------------------------------------------
    def start(self, pid: str, start: date, by: int | None, objeto: int | None) -> DeadlineState:
        b = self.proc.prazos[pid]
        dl = self.memo.get((pid, start))
        if dl is None:  # the same deadline from the same date is the same (nothing changes a computed one)
            dl = self.memo[(pid, start)] = compute(pid, start, self.proc.law, self.cal)
        new = DeadlineState(pid, b.acao, b.obrigado, dl, by, objeto)
        for old in self._live(self._same, (pid, objeto)):  # a later notice of the same act: the later count wins
            if old.fim < dl.fim:
                old.estado = "prejudicado"
                old.prejudicado_por = by
                old.nota = (f"substituído pelo prazo contado de {format_date(dl.inicio)}, com fim em "
                            f"{format_date(dl.fim)} (notificação posterior do mesmo ato)")
        if b.ao_vencer:
            heapq.heappush(self._lapsing, (dl.fim, len(self.deadlines), new))
        self.deadlines.append(new)
        self._open.append(new)
        self._same.setdefault((pid, objeto), []).append(new)
        self._by_id.setdefault(pid, []).append(new)
        for index, kinds in ((self._meets, b.cumprido_por), (self._moots, [c.ato for c in b.prejudicado_por])):
            for kind in dict.fromkeys(kinds):
                index.setdefault(kind, []).append(new)
        return new

    def _live(self, index: dict[Any, list[DeadlineState]], key: Any) -> list[DeadlineState]:
        """The deadlines of ``index[key]`` still live (in the order they were started), the others dropped."""
        found = index.get(key, [])
        found[:] = [ds for ds in found if self.is_live(ds)]
        return found

    def lapse(self, before: date) -> None:
        """Deadlines that ended (unmet) before ``before``: start what their lapse starts."""
        while self._lapsing and self._lapsing[0][0] < before:
            ended = []  # in the order they were started, as one pass over the deadlines found them
            while self._lapsing and self._lapsing[0][0] < before:
                ended.append(heapq.heappop(self._lapsing))
            for _fim, _n, ds in sorted(ended, key=lambda t: t[1]):
                if ds.estado == "em curso" and self.is_live(ds) and not ds.ao_vencer_iniciado:
                    ds.ao_vencer_iniciado = True
                    for nxt in self.proc.prazos[ds.id].ao_vencer:
                        started = self.start(nxt, ds.fim, None, ds.objeto)
                        self.already_done(started, ds)

    def already_done(self, ds: DeadlineState, lapsed: DeadlineState) -> None:
        """An act that meets ``ds`` was done before ``lapsed`` (which starts ``ds``) ended: it counts, and if
        ``lapsed`` ran in the autuado's favour, the processo is warned that the act came early."""
        kinds = self.proc.prazos[ds.id].cumprido_por
        start = lapsed.iniciado_por if lapsed.iniciado_por is not None else -1
        acts = self.loaded.of_kind(*kinds)
        for n in range(bisect_right(acts, start), bisect_right(acts, self.done - 1)):
            k = acts[n]
            if self.acts[k].intempestivo is None and self.matches(ds, k):
                ds.cumprido_por = k
                ds.estado = "cumprido"
                ds.nota = f"ato praticado antes do fim do prazo de {lapsed.acao}"
                if lapsed.obrigado == "autuado":
                    self.add("ATO-ANTECIPADO", f"{self.label(k)} foi praticado antes do fim do prazo de "
                             f"{lapsed.acao} ({format_date(lapsed.fim)}), que corria em favor do autuado.",
                             ("atos", k, "data"), lapsed.deadline.base_legal,
                             "confira se o autuado pôde exercer o direito antes do ato.", severidade="aviso")
                return

    @staticmethod
    def is_live(ds: DeadlineState) -> bool:
        """Not met and not moot (it may have lapsed: a late act is still matched to it)."""
        return ds.cumprido_por is None and ds.estado != "prejudicado"

    def auto_proposes(self, penalty: str) -> bool:
        """The processo's auto proposes ``penalty`` (its own act's penalties; none recorded: assume it does, so that
        a processo without the auto's penalties keeps every deadline)."""
        i = self.loaded.first_of_kind(self.proc.initial_kind())
        auto = self.p.atos[i] if i is not None else None
        if auto is None or auto.penalidades is None:
            return True
        return any(x.tipo == penalty for x in auto.penalidades)

    def resultado_of(self, i: int) -> str | None:
        a = self.p.atos[i]
        if a.resultado is not None:
            return a.resultado
        j = self.ref_index.get(i)
        return self.p.atos[j].resultado if j is not None else None

    def matches(self, ds: DeadlineState, i: int) -> bool:
        if ds.iniciado_por is not None and ds.iniciado_por >= i:
            return False
        j = self.ref_index.get(i)
        return j is None or ds.objeto is None or j == ds.objeto

    def run_act(self, i: int) -> None:
        a = self.p.atos[i]
        r = self.rule(i)
        d = a.data_do_ato
        if r is None or d is None:
            return
        self.lapse(d)
        self.done = i + 1
        st = self.acts[i]
        # 0. exige_vencido (e.g. dívida ativa only after the payment term lapsed), before any effect
        for pid in r.exige_vencido:
            same = [ds for ds in self._by_id.get(pid, []) if ds.estado != "prejudicado"
                    and ds.cumprido_por in (None, i)]
            lapsed = [ds for ds in same if ds.fim < d]
            running = [ds for ds in same if ds.fim >= d]
            if running or not lapsed:
                dl = self.proc.law.deadline(pid)
                why = (f"o prazo '{dl.descricao}' ainda corria (vence em {format_date(running[0].fim)})"
                       if running else f"o processo não tem o prazo '{dl.descricao}' vencido")
                early = r.antecipacao
                if (early is not None and running and early.destino in (a.destino or "").lower()
                        and (a.fundamentacao or "").strip()):
                    self.add("PRAZO-ANTECIPADO", f"{self.label(i)} antes do fim do prazo: {why} ({dl.base_legal}); "
                             f"aceito pela exceção de que {early.descricao} ({self.proc.cite(early.citacao)}), com "
                             f"a fundamentação do ato: \"{' '.join((a.fundamentacao or '').split())}\".",
                             ("atos", i, "fundamentacao"), self.proc.cite(early.citacao),
                             "confira que a fundamentação sustenta a exceção.", severidade="aviso")
                    continue
                hint = "confira a data do ato e as anteriores."
                if early is not None:
                    hint += (f" Antes do fim do prazo, só se {early.descricao} ({self.proc.cite(early.citacao)}): "
                             f"diga-o em 'fundamentacao', com 'destino' que contenha \"{early.destino}\".")
                self.add("PRAZO-NAO-VENCIDO", f"{self.label(i)} antes da hora: {why} ({dl.base_legal}).",
                         ("atos", i, "data"), self.proc.cite(r.citacao), hint)
        # 0'. an act the law allows for some infractions only (Ferraz art. 71: chapters III to VII)
        if r.so_infracoes and not any(inf.regra in r.so_infracoes for inf in self.p.infracoes):
            cited = ", ".join(inf.regra for inf in self.p.infracoes) or "nenhuma"
            self.add("ATO-INCABIVEL", f"{self.label(i)} só cabe nas infrações {', '.join(r.so_infracoes)} "
                     f"({self.proc.cite(r.citacao)}); o processo cita: {cited}.", ("atos", i, "tipo"),
                     self.proc.cite(r.citacao), "confira o tipo do ato ou as infrações do processo.")
        # 1. does it meet an open deadline?
        candidates = [ds for ds in self._live(self._meets, a.tipo) if self.matches(ds, i)]
        in_time = [ds for ds in candidates if d <= ds.fim]
        late = [ds for ds in candidates if d > ds.fim]
        for ds in in_time:
            ds.cumprido_por = i
            ds.estado = "cumprido"
        if not in_time and late:
            expired = max(ds.fim for ds in late)
            if all(ds.obrigado == "autuado" for ds in late):
                st.intempestivo = expired
                cites = "; ".join(sorted({ds.deadline.base_legal for ds in late}))
                effect = (" e não produz efeito no processo" if r.preclusivo else "")
                self.add("INTEMPESTIVO", f"{self.label(i)} é intempestivo: o prazo venceu em {format_date(expired)}"
                         f"{effect}.", ("atos", i, "data"), cites, severidade="aviso")
                st.notas.append(f"intempestivo: prazo vencido em {format_date(expired)}")
                for ds in late:
                    ds.estado = "perdido"
                    ds.nota = f"{r.nome} apresentado em {format_date(d)}, depois do vencimento"
                if r.preclusivo:
                    return
            else:
                for ds in late:
                    ds.cumprido_por = i
                    ds.estado = "cumprido com atraso"
                    ds.atraso_dias = (d - ds.fim).days
                    late_by = count_noun(ds.atraso_dias, "dia corrido", "dias corridos")
                    ds.nota = f"cumprido em {format_date(d)}, {late_by} depois do vencimento"
        # 2. does it make an open deadline moot?
        res = self.resultado_of(i)
        for ds in self._live(self._moots, a.tipo):
            if ds.iniciado_por == i:
                continue
            for c in self.proc.prazos[ds.id].prejudicado_por:
                if c.ato == a.tipo and (not c.resultado or res in c.resultado):
                    ds.prejudicado_por = i
                    ds.estado = "prejudicado"
                    ds.nota = f"prejudicado por {self.label(i)}"
                    break
        # 3. what does it start?
        effective: date | None = d
        frustrated = False
        if r.forma is not None:
            effective, frustrated = self.notice(i, r)
            st.efetiva = effective
            st.frustrada = frustrated
        j = self.ref_index.get(i)
        for s in r.inicia:
            sid = s.prazo if s.prazo is not None else (a.exigencia.prazo if a.exigencia is not None else None)
            if sid is None or sid not in self.proc.prazos:
                continue  # a missing or unknown exigencia.prazo is a finding of the act's own check (its article)
            if s.se_frustrada != frustrated:
                continue
            if s.se_referente and (j is None or self.p.atos[j].tipo not in s.se_referente):
                continue
            if s.se_resultado and res not in s.se_resultado:
                continue
            need = self.proc.law.deadline(sid).so_com_penalidade
            if need is not None and not self.auto_proposes(need):
                continue  # Ferraz art. 80: no fine proposed, nothing to pay
            if s.se_frustrada:
                start: date | None = a.devolucao.data if a.devolucao else None
            elif s.conta_de_campo == "recolhimento":
                start = a.recolhimento
                if start is None:
                    self.add("CAMPO-FALTANDO", f"{self.label(i)}: falta 'recolhimento', de que corre o prazo "
                             f"{sid}.", ("atos", i, "recolhimento"), self.proc.law.deadline(sid).base_legal)
                    continue
            elif s.do_campo is not None:
                start = _signed(a) or effective
            else:
                start = effective
            if start is None:
                continue
            objeto = (j if j is not None else i) if s.objeto == "referente" else i
            self.start(sid, start, i, objeto)
        # 4. does it close the processo?
        if r.encerra or (r.encerra_se_resultado and a.resultado in r.encerra_se_resultado):
            if self.closed_by is None:
                self.closed_by = i
            for ds in self._open:
                if (ds.estado == "em curso" and ds.cumprido_por is None and ds.iniciado_por != i
                        and ds.fim >= d):  # a deadline that had already lapsed stays lost
                    ds.prejudicado_por = i
                    ds.estado = "prejudicado"
                    ds.nota = f"processo encerrado por {self.label(i)}"
            # only what this act started may still be closed by a later one (the others are moot, met or lapsed)
            self._open = [ds for ds in self._open if ds.estado == "em curso" and ds.cumprido_por is None
                          and ds.fim >= d]

    def notice(self, i: int, r: ActRule) -> tuple[date | None, bool]:
        """The date a notice takes effect (engine), ``None`` while incomplete; and whether it failed."""
        a = self.p.atos[i]
        assert r.forma is not None
        if a.devolucao is not None:
            self.acts[i].notas.append(f"AR devolvido em {format_date(a.devolucao.data)} ({a.devolucao.motivo}): "
                                      "notificação frustrada")
            return None, True
        pubs = a.publicacoes or []
        official = [p.data for p in pubs if p.meio in ("oficial", "afixacao")]
        paper = [p.data for p in pubs if p.meio == "jornal"]
        facts = NoticeFacts(
            forma=r.forma, data_infracao=self.infraction_date or a.data_do_ato or self.hoje,
            data_ciencia=a.data, ar_recebimento=a.recebimento, ar_juntada=a.juntada,
            edital_publicacao=max(official) if official else None, edital_jornal=max(paper) if paper else None,
            testemunha=a.testemunha.nome if a.testemunha else None,
        )
        form = self.proc.law.notificacao.formas[r.forma]
        missing = [f for f in form.exige if getattr(facts, f) in (None, "")]
        if missing:
            what = " e ".join(_FACT_LABELS.get(f, f) for f in missing)
            who = "correios" if "ar_recebimento" in missing else "administracao"
            self.waiting.append(Pending(who, f"{r.nome} nº {a.numero or '?'}: aguardando {what} "
                                        f"({form.base_legal})", None, "sem prazo", form.base_legal, None))
            self.acts[i].notas.append(f"aguardando {what}")
            return None, False
        dl = self.memo.get(facts)
        if dl is None:
            base = ("atos", i)
            paths = {k: format_path((*base, v)) for k, v in _FACT_FIELDS.items()}
            lines = {k: self.loaded.line_of((*base, v)) for k, v in _FACT_FIELDS.items()}
            try:
                dl = notice_effective(facts, self.proc.law, self.cal, file=self.loaded.file, paths=paths,
                                      lines={k: v for k, v in lines.items() if v is not None})
            except InputError as exc:
                self.findings.append(Finding(severidade="erro", codigo="NOTIFICACAO-INVALIDA", mensagem=exc.message,
                                             citacao=form.base_legal, caminho=exc.path or format_path(base),
                                             linha=exc.line, dica=exc.hint))
                return None, False
            self.memo[facts] = dl
        if dl.fim != a.data_do_ato:
            self.acts[i].notas.append(f"notificação efetiva em {format_date(dl.fim)} ({dl.base_legal})")
        return dl.fim, False

    # ---- result ----------------------------------------------------------------------------------
    def finish(self) -> Timeline:
        if self.closed_by is None:
            self.lapse(self.hoje)  # lapses up to yesterday start what they start
        for ds in self.deadlines:
            if ds.estado == "em curso" and ds.fim < self.hoje:
                ds.estado = "perdido"
                if ds.obrigado == "administracao":
                    ds.nota = ds.nota or "vencido, e o ato continua devido"
        pend: list[Pending] = []
        for ds in self.deadlines:
            b: DeadlineBehaviour = self.proc.prazos[ds.id]
            owed = ds.estado == "em curso" or (ds.estado == "perdido" and ds.obrigado == "administracao")
            if self.closed_by is not None and (ds.iniciado_por is None or ds.iniciado_por < self.closed_by):
                continue  # closed: only what the closing act itself started is still owed
            if ds.estado == "perdido" and ds.obrigado == "autuado" and b.providencia and not b.ao_vencer:
                pend.append(Pending("administracao", b.providencia, ds.fim, urgency_of(ds.fim, self.hoje),
                                    ds.deadline.base_legal, ds.id))
            elif owed:
                pend.append(Pending(ds.obrigado, ds.acao, ds.fim, urgency_of(ds.fim, self.hoje),
                                    ds.deadline.base_legal, ds.id))
        if self.closed_by is None:
            pend.extend(self.waiting)
        pend.sort(key=lambda x: (URGENCY_ORDER[x.urgencia], x.vence or date.max, x.acao))
        p = self.p
        auto_i = self.loaded.first_of_kind(self.proc.initial_kind())
        agente = p.atos[auto_i].agente if auto_i is not None else None
        return Timeline(
            file=self.loaded.file, numero=p.numero, lei=p.lei, citacao_lei=self.proc.citacao, hoje=self.hoje,
            autuado=p.autuado.nome, agente=agente.nome if agente else None, atos=self.acts, prazos=self.deadlines,
            achados=self.findings, pendencias=pend, situacao=self.situation(pend),
            encerrado=self.closed_by is not None,
            interpretacoes=list(self.proc.interpretacoes_texto),
            agente_matricula=agente.matricula if agente else None,
        )

    def situation(self, pend: list[Pending]) -> str:
        n = sum(1 for f in self.findings if f.severidade == "erro")
        if not self.computed or (n and not pend and self.closed_by is None):
            return f"{count_noun(n, 'erro', 'erros')} no processo: corrija-os para calcular os prazos"
        if self.closed_by is not None:
            a = self.p.atos[self.closed_by]
            r = self.rule(self.closed_by)
            assert r is not None and a.data_do_ato is not None
            extra = f" (decisão: {a.resultado})" if a.resultado else ""
            return f"encerrado: {r.nome} em {format_date(a.data_do_ato)}{extra}"
        if not pend:
            return "sem prazo em curso"
        x = pend[0]
        if x.vence is None:
            return x.acao
        if x.quem == "autuado":
            return f"aguardando {x.acao} até {format_date(x.vence)}"
        if x.urgencia == "vencido":
            return f"{x.acao}: vencido em {format_date(x.vence)}"
        return f"{x.acao} até {format_date(x.vence)}"


def state_label(estado: str, atraso_dias: int | None) -> str:
    """A deadline's state in words: "cumprido com atraso (N dias corridos)" when met late."""
    if estado == "cumprido com atraso" and atraso_dias is not None:
        return f"cumprido com atraso ({count_noun(atraso_dias, 'dia corrido', 'dias corridos')})"
    return estado


def check_timeline(loaded: LoadedProcesso, procedure: Procedure, calendar: MunicipalCalendar,
                   hoje: date, *, memo: DeadlineMemo | None = None) -> Timeline:
    """Check ``loaded`` against ``procedure`` and compute every deadline's state on ``hoje``.

    Deadlines are only computed when the acts are structurally sound (an act out of order or citing a
    missing act would make them meaningless); the findings say what to fix first. ``memo`` keeps the
    deadlines counted for one ``procedure`` and ``calendar`` across processos (pass the same dict only
    with the same two).
    """
    c = _Checker(loaded, procedure, calendar, hoje, memo)
    c.check_structure()
    if not any(f.severidade == "erro" for f in c.findings):
        c.computed = True
        for i in range(len(loaded.processo.atos)):
            c.run_act(i)
    return c.finish()


def _signed(a: Ato) -> date | None:
    """The date the autuado signed an act delivered by hand (a notificação preliminar), when recorded: the term
    it sets counts from the notice, and the dated signature is the notice."""
    sig = a.assinaturas.autuado if a.assinaturas is not None else None
    return sig.data if sig is not None and sig.situacao == "assinou" else None

