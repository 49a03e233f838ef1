"""The deadline engine: counting rules and when notice takes effect, applied to the rules of
:mod:`autos.rules.deadlines` (no file is read here).

Counting kinds: ``dias_corridos``, ``dias_uteis`` (days skipped are listed with their reason),
``meses`` (date to date), ``horas`` (minute to minute from a datetime) and ``dia_seguinte`` (the day after
the end of another deadline, e.g. Cuiabá art. 11, § 5º).
"""

from __future__ import annotations

import calendar as _stdcalendar
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from autos.errors import ComputeError, InputError
from autos.rules.calendar import WEEKDAYS, MunicipalCalendar, format_date
from autos.rules.deadlines import NOTICE_EVENT, NOTICE_FORMS, LawDeadlines

__all__ = [
    "DATE_FACTS",
    "DEFAULT_FACT_PATHS",
    "Deadline",
    "NoticeFacts",
    "SkippedDay",
    "add_months",
    "compute",
    "cycle_dates",
    "deadlines_after_notice",
    "notice_effective",
]

DATE_FACTS: tuple[str, ...] = ("data_ciencia", "ar_recebimento", "ar_juntada", "edital_publicacao", "edital_jornal")

#: where each :class:`NoticeFacts` field lives in a case file (``autos.processo.case``); callers may override
DEFAULT_FACT_PATHS: dict[str, str] = {
    "forma": "notificacao.forma",
    "data_infracao": "data_infracao",
    "data_ciencia": "notificacao.data",
    "ar_recebimento": "notificacao.ar.data_recebimento",
    "ar_juntada": "notificacao.ar.data_juntada",
    "ar_devolvido": "notificacao.ar.devolvido",
    "edital_publicacao": "notificacao.edital.data_publicacao",
    "edital_jornal": "notificacao.edital.data_publicacao_jornal",
    "testemunha": "assinaturas.testemunhas",
}

_FORM_LABELS = {
    "pessoal": "notificação pessoal",
    "recusa": "recusa certificada pelo agente",
    "ar": "carta com aviso de recebimento (AR)",
    "edital": "edital",
}

_FACT_LABELS = {
    "data_ciencia": "data da ciência",
    "ar_recebimento": "data de recebimento do AR",
    "ar_juntada": "data da juntada do AR aos autos",
    "edital_publicacao": "data de publicação do edital",
    "edital_jornal": "data de publicação do edital no jornal local",
    "testemunha": "testemunha",
}

_UNITS = {
    "dias_corridos": ("dia corrido", "dias corridos"),
    "dias_uteis": ("dia útil", "dias úteis"),
    "meses": ("mês", "meses"),
    "horas": ("hora", "horas"),
}


# --------------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class SkippedDay:
    """A day skipped in a business-day count, or a day the end was moved over."""

    date: date
    reason: str


@dataclass
class Deadline:
    """A computed date with its legal basis and the reasoning behind it."""

    id: str
    descricao: str
    base_legal: str
    inicio: date  # the event date (a datetime for hour counts)
    fim: date  # a datetime for hour counts
    dias_pulados: list[SkippedDay] = field(default_factory=list)
    escolhas: list[str] = field(default_factory=list)
    tipo: str = ""  # counting kind, or "imediata" for a notice effective on its own date
    quantidade: int = 0
    conta_de: str = ""  # Portuguese description of the start event
    regra_contagem: str = ""
    fim_sem_prorrogacao: date | None = None  # the end before being moved to a business day
    fim_motivo: str | None = None  # why the (unmoved) end is not a business day, when it is not
    exemplo: bool = False
    notas: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)

    @property
    def prorrogado(self) -> bool:
        return self.fim_sem_prorrogacao is not None and self.fim_sem_prorrogacao != self.fim

    def prazo_texto(self) -> str:
        """``"10 dias corridos"``, ``"48 horas"``; empty for a notice effective on its own date."""
        if self.tipo not in _UNITS:
            return ""
        one, many = _UNITS[self.tipo]
        return f"{self.quantidade} {one if self.quantidade == 1 else many}"

    def explicacao(self) -> list[str]:
        """The reasoning, in Portuguese, one line per fact or day."""
        lines = [f"{self.descricao} — {self.base_legal}."]
        lines.extend(self.notas)
        if self.tipo in _UNITS:
            how = {
                "dias_corridos": "excluído o dia do início",
                "dias_uteis": "excluído o dia do início; só contam os dias úteis",
                "meses": "de data a data",
                "horas": "de minuto a minuto",
            }[self.tipo]
            lines.append(
                f"Prazo: {self.prazo_texto()}, contado a partir de {format_date(self.inicio)}, {self.conta_de}; {how}."
            )
        elif self.tipo == "imediata":
            lines.append(f"Efeito na própria data: {format_date(self.inicio)}, {self.conta_de}.")
        if self.regra_contagem:
            lines.append(f"Regra de contagem: {self.regra_contagem}")
        if self.tipo == "dias_uteis" and self.dias_pulados:
            lines.append("Dias sem expediente não contados:")
            lines.extend(f"{format_date(s.date)} — {s.reason}" for s in self.dias_pulados)
        elif self.prorrogado:
            assert self.fim_sem_prorrogacao is not None
            lines.append(
                f"O prazo venceria em {format_date(self.fim_sem_prorrogacao)}, dia sem expediente; "
                "prorrogado para o primeiro dia útil seguinte. Dias sem expediente:"
            )
            lines.extend(f"{format_date(s.date)} — {s.reason}" for s in self.dias_pulados)
        elif self.fim_motivo:
            lines.append(
                f"O fim cai em dia sem expediente ({self.fim_motivo}) e não é prorrogado (ver escolha adotada)."
            )
        weekday = WEEKDAYS[self.fim.weekday()]
        lines.append(f"Fim: {format_date(self.fim)} ({weekday}).")
        lines.extend(f"Escolha adotada: {e}" for e in self.escolhas)
        lines.extend(f"Atenção: {a}" for a in self.avisos)
        if self.exemplo:
            lines.append(
                "ATENÇÃO: prazo de EXEMPLO, ainda não confirmado no ato normativo próprio — confira antes de "
                "usar num documento definitivo."
            )
        return lines


# --------------------------------------------------------------------------------------------------
# counting


def add_months(d: date, months: int) -> date:
    """Date to date; the last day of the month when the day does not exist (Lei 9.784/1999, art. 66, § 3º)."""
    index = d.year * 12 + (d.month - 1) + months
    year, month = divmod(index, 12)
    last = _stdcalendar.monthrange(year, month + 1)[1]
    return d.replace(year=year, month=month + 1, day=min(d.day, last))


@dataclass
class _Count:
    fim: date
    fim_original: date
    pulados: list[SkippedDay]
    fim_motivo: str | None


def _count(tipo: str, quantidade: int, start: date, prorroga: bool, cal: MunicipalCalendar) -> _Count:
    skipped: list[SkippedDay] = []
    if tipo == "dias_uteis":
        d = start
        counted = 0
        while counted < quantidade:
            d += timedelta(days=1)
            why = cal.reason(d)
            if why is None:
                counted += 1
            else:
                skipped.append(SkippedDay(d, why))
        return _Count(d, d, skipped, None)
    if tipo == "dias_corridos":
        end: date = start + timedelta(days=quantidade)
    elif tipo == "meses":
        end = add_months(start, quantidade)
    elif tipo == "horas":
        assert isinstance(start, datetime)
        end = start + timedelta(hours=quantidade)
    else:  # pragma: no cover - guarded by the loader
        raise ComputeError(f"tipo de contagem desconhecido '{tipo}'.")
    original = end
    why = cal.reason(end)
    if why is None or not prorroga:
        return _Count(end, original, [], why)
    while why is not None:
        skipped.append(SkippedDay(_day(end), why))
        end = end + timedelta(days=1)
        why = cal.reason(end)
    return _Count(end, original, skipped, None)


def _day(d: date) -> date:
    return d.date() if isinstance(d, datetime) else d


def _check_pair(law: LawDeadlines, cal: MunicipalCalendar) -> None:
    if law.ibge != cal.ibge:
        raise ComputeError(
            f"o calendário de {cal.describe()} não é do município da {law.citacao} ({law.municipio}, IBGE {law.ibge}).",
            file=cal.file,
            hint=f"carregue o calendário da pasta '{law.municipio_dir}'.",
        )


def _rule_choices(escolha: str | None, justificativa: str | None) -> list[str]:
    if escolha is None:
        return []
    return [f"{escolha} Justificativa: {justificativa}"]


def _counting_rule_text(law: LawDeadlines, prorroga: bool, tipo: str) -> str:
    if tipo == "horas":
        if not prorroga:
            return "prazo em horas, contado de minuto a minuto; sem prorrogação do vencimento (ver escolha adotada)."
        text = "prazo em horas, contado de minuto a minuto"
    elif tipo == "meses":
        text = (
            "prazo em meses, contado de data a data; sem o dia equivalente no mês do vencimento, "
            "vence no último dia do mês"
        )
    else:
        text = "exclui-se o dia do início e inclui-se o do vencimento"
    text += (
        "; o vencimento em dia sem expediente prorroga-se para o primeiro dia útil seguinte"
        + (", na mesma hora" if tipo == "horas" else "")
        if prorroga
        else "; sem prorrogação do vencimento"
    )
    return f"{text} ({law.contagem.base_legal})."


def compute(deadline_id: str, start: date, law: LawDeadlines, cal: MunicipalCalendar) -> Deadline:
    """Compute deadline ``deadline_id`` of ``law`` counted from ``start`` (the event date; a
    ``datetime`` for hour counts) on the business days of ``cal``."""
    _check_pair(law, cal)
    rule = law.deadline(deadline_id)
    if rule.tipo == "dia_seguinte":
        assert rule.depois_de is not None
        base = compute(rule.depois_de, start, law, cal)
        return Deadline(
            id=rule.id,
            descricao=rule.descricao,
            base_legal=rule.base_legal,
            inicio=start,
            fim=_day(base.fim) + timedelta(days=1),
            dias_pulados=list(base.dias_pulados),
            escolhas=base.escolhas + _rule_choices(rule.escolha, rule.justificativa),
            tipo="dia_seguinte",
            conta_de=rule.conta_de_descricao,
            exemplo=rule.exemplo or base.exemplo,
            notas=[
                f"Primeiro dia depois do fim do prazo de referência — {base.descricao} ({base.base_legal}): "
                f"{base.prazo_texto()} contados de {format_date(start)}, com fim em {format_date(base.fim)}."
            ]
            + [f"{format_date(s.date)} — {s.reason}" for s in base.dias_pulados],
            avisos=[rule.observacao] if rule.observacao else [],
        )
    if rule.tipo == "horas":
        if not isinstance(start, datetime):
            raise ComputeError(
                f"o prazo '{rule.id}' ({rule.base_legal}) é contado em horas: informe data e hora do início "
                f"({rule.conta_de_descricao}).",
                hint="informe também a hora, p. ex. 10/03/2026 14:30.",
            )
    elif isinstance(start, datetime):
        raise ComputeError(
            f"o prazo '{rule.id}' ({rule.base_legal}) é contado em {_UNITS[rule.tipo][1]}: informe só a data "
            "do início, sem hora.",
            hint="informe a data no formato DD/MM/AAAA, sem a hora.",
        )
    counted = _count(rule.tipo, rule.quantidade, start, rule.prorroga, cal)
    return Deadline(
        id=rule.id,
        descricao=rule.descricao,
        base_legal=rule.base_legal,
        inicio=start,
        fim=counted.fim,
        dias_pulados=counted.pulados,
        escolhas=_rule_choices(rule.escolha, rule.justificativa),
        tipo=rule.tipo,
        quantidade=rule.quantidade,
        conta_de=rule.conta_de_descricao,
        regra_contagem=_counting_rule_text(law, rule.prorroga, rule.tipo),
        fim_sem_prorrogacao=counted.fim_original,
        fim_motivo=counted.fim_motivo,
        exemplo=rule.exemplo,
        avisos=[rule.observacao] if rule.observacao else [],
    )


def cycle_dates(start: date, every_days: int, until: date) -> list[date]:
    """Dates of a recurring fine: ``start + k × every_days`` for k = 1, 2, … up to ``until`` (inclusive).

    ``start`` (the first fine) is not in the list. Plain calendar arithmetic: each date is when a new fine
    becomes applicable ("a cada 30 dias, até o efetivo atendimento"); it is not moved to a business day,
    and the next cycle is counted from the theoretical date, not from the day the fine was issued.
    """
    if every_days <= 0:
        raise ComputeError(f"periodicidade inválida: {every_days} dias.", hint="use um número de dias maior que zero.")
    out: list[date] = []
    d = start + timedelta(days=every_days)
    while d <= until:
        out.append(d)
        d += timedelta(days=every_days)
    return out


# --------------------------------------------------------------------------------------------------
# notice


@dataclass(frozen=True)
class NoticeFacts:
    """How and when the offender was given notice (from the case file)."""

    forma: str  # 'pessoal' | 'recusa' | 'ar' | 'edital'
    data_infracao: date
    data_ciencia: date | None = None  # pessoal: dated receipt; recusa: the agent's certification
    ar_recebimento: date | None = None  # date on the returned AR
    ar_juntada: date | None = None  # date the AR was joined to the file (Timóteo art. 21, § 2º)
    edital_publicacao: date | None = None  # official press / posting
    edital_jornal: date | None = None  # local newspaper (Timóteo art. 21, § 3º)
    testemunha: str | None = None  # witness of a refusal (Timóteo art. 21, § 1º)
    ar_devolvido: bool = False  # the AR came back undelivered


class _Where:
    """Turns a NoticeFacts field name into the caller's file / YAML path / line."""

    def __init__(
        self, file: str | Path | None, paths: Mapping[str, str] | None, lines: Mapping[str, int] | None
    ) -> None:
        self.file = file
        self.paths = {**DEFAULT_FACT_PATHS, **(paths or {})}
        self.lines = lines or {}

    def error(self, fact: str, message: str, hint: str | None = None) -> InputError:
        return InputError(
            message, file=self.file, path=self.paths.get(fact, fact), line=self.lines.get(fact), hint=hint
        )


def _missing_message(fact: str, forma: str, base: str) -> str:
    if fact == "data_ciencia":
        if forma == "recusa":
            return f"recusa sem a data da certidão do agente: informe a data em que a recusa foi certificada ({base})."
        return f"notificação pessoal sem a data da ciência: informe a data do recibo datado ({base})."
    if fact == "ar_recebimento":
        return f"AR sem data de recebimento: informe a data lançada no aviso de recebimento devolvido ({base})."
    if fact == "ar_juntada":
        return (
            f"AR sem a data da juntada aos autos: a notificação por AR só se considera feita com a juntada do "
            f"aviso de recebimento ao processo ({base})."
        )
    if fact == "edital_publicacao":
        return f"edital sem data de publicação: informe a data de publicação ou afixação do edital ({base})."
    if fact == "edital_jornal":
        return (
            "edital sem a publicação em jornal de grande circulação local: a lei exige a publicação no órgão "
            f"oficial e também em jornal; informe a data da publicação no jornal ({base})."
        )
    if fact == "testemunha":
        return (
            "recusa sem testemunha: o agente deve certificar a recusa na presença de uma testemunha; "
            f"informe a testemunha ({base})."
        )
    return f"falta '{fact}' ({base})."  # pragma: no cover - every FactName is handled above


def notice_effective(
    facts: NoticeFacts,
    law: LawDeadlines,
    cal: MunicipalCalendar,
    *,
    file: str | Path | None = None,
    paths: Mapping[str, str] | None = None,
    lines: Mapping[str, int] | None = None,
) -> Deadline:
    """The date the notice takes effect under ``law``, with its legal basis.

    Bad facts raise :class:`InputError` whose ``path`` is the case field (``paths`` overrides
    :data:`DEFAULT_FACT_PATHS`; ``lines`` maps a field name to its line; ``file`` is the case file).
    """
    _check_pair(law, cal)
    where = _Where(file, paths, lines)
    rules = law.notificacao
    forma = facts.forma
    if forma not in NOTICE_FORMS:
        raise where.error(
            "forma", f"forma de notificação desconhecida '{forma}'.", f"use uma de: {', '.join(NOTICE_FORMS)}."
        )
    allowed = ", ".join(f"{f} ({_FORM_LABELS[f]})" for f in rules.formas)
    rule = rules.formas.get(forma)
    if rule is None:
        why = (
            f"a {law.citacao} é omissa quanto à notificação e o padrão adotado não prevê {_FORM_LABELS[forma]}"
            if rules.omissa
            else f"a {law.citacao} não prevê notificação por {_FORM_LABELS[forma]} ({rules.base_legal})"
        )
        raise where.error("forma", f"{why}.", f"use uma das formas admitidas: {allowed}.")

    for fact in rule.exige:
        value = getattr(facts, fact)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise where.error(
                fact,
                _missing_message(fact, forma, rule.base_legal),
                f"preencha o campo '{where.paths.get(fact, fact)}' do caso.",
            )
    if forma == "ar" and facts.ar_devolvido:
        raise where.error(
            "ar_devolvido",
            "o AR voltou sem entrega (devolvido): a notificação por carta não se efetivou.",
            "notifique de novo, pessoalmente ou, se o domicílio for desconhecido, por edital.",
        )
    relevant = [f for f in DATE_FACTS if f in rule.exige or (forma == "ar" and f == "ar_juntada")]
    for fact in relevant:
        value = getattr(facts, fact)
        if value is not None and value < facts.data_infracao:
            raise where.error(
                fact,
                f"a {_FACT_LABELS[fact]} ({format_date(value)}) é anterior à data da infração "
                f"({format_date(facts.data_infracao)}): a notificação não pode preceder a infração.",
                "confira as datas do caso.",
            )
    if (
        forma == "ar"
        and facts.ar_recebimento is not None
        and facts.ar_juntada is not None
        and facts.ar_juntada < facts.ar_recebimento
    ):
        raise where.error(
            "ar_juntada",
            f"a data da juntada do AR ({format_date(facts.ar_juntada)}) é anterior à data de recebimento "
            f"({format_date(facts.ar_recebimento)}): o AR só pode ser juntado aos autos depois de recebido.",
            "confira as datas do AR.",
        )

    bases: list[date] = [getattr(facts, f) for f in rule.data_base]
    base = max(bases)
    notas: list[str] = []
    escolhas: list[str] = []
    if rules.omissa:
        notas.append(f"A {law.citacao} é omissa quanto à notificação; adotado: {rules.adotado}")
        escolhas.append(
            f"Lei omissa quanto à notificação: adotado o padrão de {rules.base_legal}, para a forma "
            f"'{forma}' ({rule.base_legal})."
        )
    if len(rule.data_base) > 1:
        listed = "; ".join(f"{_FACT_LABELS[f]}: {format_date(getattr(facts, f))}" for f in rule.data_base)
        notas.append(f"Datas informadas — {listed}. Conta-se da mais tardia: {format_date(base)}.")
    escolhas.extend(_rule_choices(rule.escolha, rule.justificativa))
    avisos = [rule.condicao] if rule.condicao else []
    if forma == "ar" and "ar_juntada" in rule.data_base and not cal.is_business_day(base):
        avisos.append(f"a juntada foi registrada em dia sem expediente ({cal.reason(base)}): confira a data.")

    if rule.prazo_tipo is None:
        cal.check_year(base)
        return Deadline(
            id=f"notificacao_{forma}",
            descricao=rule.descricao,
            base_legal=rule.base_legal,
            inicio=base,
            fim=base,
            escolhas=escolhas,
            tipo="imediata",
            conta_de=rule.base_descricao,
            notas=notas,
            avisos=avisos,
        )
    counted = _count(rule.prazo_tipo, rule.prazo_quantidade, base, rule.prorroga, cal)
    return Deadline(
        id=f"notificacao_{forma}",
        descricao=rule.descricao,
        base_legal=rule.base_legal,
        inicio=base,
        fim=counted.fim,
        dias_pulados=counted.pulados,
        escolhas=escolhas,
        tipo=rule.prazo_tipo,
        quantidade=rule.prazo_quantidade,
        conta_de=rule.base_descricao,
        regra_contagem=_counting_rule_text(law, rule.prorroga, rule.prazo_tipo),
        fim_sem_prorrogacao=counted.fim_original,
        fim_motivo=counted.fim_motivo,
        notas=notas,
        avisos=avisos,
    )


def deadlines_after_notice(
    facts: NoticeFacts,
    law: LawDeadlines,
    cal: MunicipalCalendar,
    *,
    ids: Sequence[str] | None = None,
    file: str | Path | None = None,
    paths: Mapping[str, str] | None = None,
    lines: Mapping[str, int] | None = None,
) -> list[Deadline]:
    """The notice-effective date first, then every deadline the law runs from notice
    (``apos_notificacao`` in the prazos file, or ``ids`` — each must be counted from the notice)."""
    notice = notice_effective(facts, law, cal, file=file, paths=paths, lines=lines)
    chosen = list(law.apos_notificacao if ids is None else ids)
    out = [notice]
    for deadline_id in chosen:
        rule = law.deadline(deadline_id)
        if rule.conta_de != NOTICE_EVENT:
            raise ComputeError(
                f"o prazo '{deadline_id}' ({rule.base_legal}) não corre da notificação, e sim de: "
                f"{rule.conta_de_descricao}.",
                file=law.file,
                hint="calcule-o com compute() a partir da data desse evento.",
            )
        out.append(compute(deadline_id, _day(notice.fim), law, cal))
    return out
