"""From a case to the deadline engine: notice facts, validator findings and the lines documents print.

Documents take every date from :mod:`autos.rules.deadlines`; this module only maps case fields (with their
YAML lines) to :class:`~autos.compute.deadlines.NoticeFacts` and formats the results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from autos.base import ptbr
from autos.base.yamlio import PathKey
from autos.checks.finding import Finding
from autos.compute.deadlines import DEFAULT_FACT_PATHS, Deadline, NoticeFacts, deadlines_after_notice
from autos.documents.lines import DeadlineLine, rule_term
from autos.errors import AutosError, InputError, RulesFileError
from autos.processo.load_case import LoadedCase
from autos.rules.calendar import MunicipalCalendar, load_calendar
from autos.rules.deadlines import DeadlineRule, LawDeadlines, load_law_deadlines
from autos.rules.statute import Statute


def _split(path: str) -> PathKey:
    return tuple(path.split("."))


@dataclass
class CaseDeadlines:
    """The notice date and the deadlines that follow it, for one case."""

    notice: Deadline | None  # None when the case records no notice yet
    following: list[Deadline]
    pending: list[DeadlineRule]  # deadlines run from a notice not yet given (term only, no date)

    def all(self) -> list[Deadline]:
        return ([self.notice] if self.notice else []) + self.following


class DeadlineService:
    """Loads calendars and deadline rules of a rules folder once, and applies them to cases."""

    def __init__(self, rules_dir: Path) -> None:
        self.rules_dir = rules_dir
        self._laws: dict[str, LawDeadlines] = {}
        self._cals: dict[str, MunicipalCalendar] = {}

    def law(self, statute: Statute) -> LawDeadlines:
        if statute.id not in self._laws:
            municipio_dir, stem = statute.id.split("/", 1)
            self._laws[statute.id] = load_law_deadlines(self.rules_dir, municipio_dir, stem)
        return self._laws[statute.id]

    def calendar(self, statute: Statute) -> MunicipalCalendar:
        municipio_dir = statute.id.split("/", 1)[0]
        if municipio_dir not in self._cals:
            self._cals[municipio_dir] = load_calendar(self.rules_dir, municipio_dir)
        return self._cals[municipio_dir]

    # --- case facts ----------------------------------------------------------------------------
    @staticmethod
    def facts(loaded: LoadedCase) -> NoticeFacts | None:
        case = loaded.case
        n = case.notificacao
        if n is None:
            return None
        if case.infraction_date is None:
            raise InputError("sem a data da infração (ou da lavratura) não há como conferir a notificação.",
                             file=loaded.file, path="lavratura.data", line=loaded.line_of(("lavratura",)),
                             hint="informe lavratura.data ou data_infracao.")
        witnesses = [t.nome for t in case.assinaturas.testemunhas if t.nome]
        return NoticeFacts(
            forma=n.forma,
            data_infracao=case.infraction_date,
            data_ciencia=n.data,
            ar_recebimento=n.ar.data_recebimento if n.ar else None,
            ar_juntada=n.ar.data_juntada if n.ar else None,
            ar_devolvido=bool(n.ar and n.ar.devolvido),
            edital_publicacao=n.edital.data_publicacao if n.edital else None,
            edital_jornal=n.edital.data_publicacao_jornal if n.edital else None,
            testemunha=witnesses[0] if witnesses else None,
        )

    @staticmethod
    def _lines(loaded: LoadedCase) -> dict[str, int]:
        out: dict[str, int] = {}
        for fact, path in DEFAULT_FACT_PATHS.items():
            line = loaded.line_of(_split(path))
            if line is not None:
                out[fact] = line
        # the infraction date may come from auto.data or lavratura.data (Case.infraction_date)
        line = loaded.line_of(_split(loaded.case.infraction_date_field))
        if line is not None:
            out["data_infracao"] = line
        return out

    def for_case(self, loaded: LoadedCase, statute: Statute) -> CaseDeadlines:
        """Every date the case's notice sets; errors name the case file, YAML path and line."""
        law = self.law(statute)
        facts = self.facts(loaded)
        if facts is None or returned_undelivered(loaded):
            # no notice in effect yet: the document states the terms, without dates
            return CaseDeadlines(None, [], [law.deadline(i) for i in law.apos_notificacao])
        paths = dict(DEFAULT_FACT_PATHS)
        paths["data_infracao"] = loaded.case.infraction_date_field
        dl = deadlines_after_notice(facts, law, self.calendar(statute), file=loaded.file, paths=paths,
                                    lines=self._lines(loaded))
        return CaseDeadlines(dl[0], dl[1:], [])

    # --- validator hooks -----------------------------------------------------------------------
    def defence_problem(self, statute: Statute, deadline_id: str | None) -> str | None:
        """Why the auto cannot state the defence deadline, or ``None`` when it can."""
        try:
            law = self.law(statute)
        except RulesFileError:
            raise  # the rules are unusable: not a finding of this case
        except AutosError as exc:
            return f"as regras de prazos da lei não puderam ser lidas ({exc.message})"
        if deadline_id is None:
            return "o elemento não indica qual prazo das regras é o de defesa"
        if deadline_id not in law.prazos:
            return f"o prazo '{deadline_id}' não está nas regras de prazos ({law.file})"
        return None

    def findings(self, loaded: LoadedCase, statute: Statute) -> list[Finding]:
        """Notice problems (date before the infraction, AR without receipt date …) as erro findings."""
        try:
            self.for_case(loaded, statute)
        except RulesFileError:
            raise  # the rules are unusable: not a finding of this case
        except AutosError as exc:
            return [Finding(severidade="erro", codigo="NOTIFICACAO", mensagem=exc.message, citacao=None,
                            caminho=exc.path, linha=exc.line, arquivo=str(loaded.file), dica=exc.hint)]
        if returned_undelivered(loaded):
            ar = loaded.case.notificacao.ar if loaded.case.notificacao else None
            motivo = f" ({ar.motivo_devolucao})" if ar and ar.motivo_devolucao else ""
            path = ("notificacao", "ar", "devolvido")
            return [Finding(severidade="aviso", codigo="NOTIFICACAO-PENDENTE",
                            mensagem=f"o AR voltou sem entrega{motivo}: a notificação por carta não se efetivou e "
                            "nenhum prazo corre ainda.", citacao=self.law(statute).notificacao.base_legal,
                            caminho="notificacao.ar.devolvido", linha=loaded.line_of(path), arquivo=str(loaded.file),
                            dica="notifique de novo, pessoalmente ou, se o domicílio for desconhecido, por edital "
                            "(autos publicar-editais).")]
        return []

    # --- documents -----------------------------------------------------------------------------
    def document_lines(self, loaded: LoadedCase, statute: Statute) -> tuple[list[DeadlineLine], str | None]:
        """The deadlines a document prints, and the notice date (if the notice was given)."""
        cd = self.for_case(loaded, statute)
        lines = [DeadlineLine(descricao=rule.descricao, base_legal=rule.base_legal,
                              prazo=_document_term(rule, rule.exemplo)) for rule in cd.pending]
        for d in cd.following:
            lines.append(DeadlineLine(descricao=d.descricao, base_legal=d.base_legal,
                                      prazo=_document_term(self.law(statute).deadline(d.id), d.exemplo),
                                      data=ptbr.format_date(_as_date(d.fim)), explicacao=d.explicacao()))
        notice = ptbr.format_date(_as_date(cd.notice.fim)) if cd.notice else None
        return lines, notice


def _document_term(rule: DeadlineRule, exemplo: bool) -> str:
    """``15 (quinze) dias corridos, contados a partir da …``, flagged when the term is an example."""
    text = f"{rule_term(rule)}, contados a partir da {rule.conta_de_descricao}"
    if exemplo:
        text += " (prazo de EXEMPLO das regras do sistema, a confirmar no regulamento)"
    return text


def returned_undelivered(loaded: LoadedCase) -> bool:
    """The case's AR came back undelivered: no notice is in effect (a new notice must follow)."""
    n = loaded.case.notificacao
    return bool(n and n.forma == "ar" and n.ar and n.ar.devolvido)


def _as_date(value: Any) -> date:
    return value.date() if hasattr(value, "date") and callable(value.date) else value  # type: ignore[no-any-return]


def deadlines_table(cd: CaseDeadlines) -> str:
    """``autos prazos``: one block per date, with basis and skipped days."""
    out: list[str] = []
    for d in cd.all():
        fim = d.fim.strftime("%d/%m/%Y %H:%M") if hasattr(d.fim, "hour") else d.fim.strftime("%d/%m/%Y")
        out.append(f"{fim}  {d.descricao} ({d.base_legal})")
        out.extend(f"    {line}" for line in d.explicacao())
    for rule in cd.pending:
        out.append(f"—           {rule.descricao} ({rule.base_legal}): {rule_term(rule)}, contados "
                   f"{rule.conta_de_descricao}; sem data porque o caso ainda não registra a notificação.")
    return "\n".join(out)


def deadlines_json(cd: CaseDeadlines) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for d in cd.all():
        out.append({
            "id": d.id, "descricao": d.descricao, "base_legal": d.base_legal,
            "inicio": d.inicio.isoformat(), "fim": d.fim.isoformat(),
            "prazo": d.prazo_texto(), "dias_pulados": [{"data": s.date.isoformat(), "motivo": s.reason}
                                                       for s in d.dias_pulados],
            "escolhas": d.escolhas, "exemplo": d.exemplo, "explicacao": d.explicacao(),
        })
    for rule in cd.pending:
        out.append({"id": rule.id, "descricao": rule.descricao, "base_legal": rule.base_legal, "inicio": None,
                    "fim": None, "prazo": rule_term(rule), "exemplo": rule.exemplo})
    return out
