"""Who must be notified by edital, and the in-memory documents of that notice (``autos publicar-editais``).

Pure: a case (or a processo and its checked timeline) and the law's notice rules in, a :class:`Decision` out;
:func:`derive` builds the auto notified by edital and its individual edital from the user's case without
touching it. No file I/O, no clock. The legal choices are in ``docs/runbook-editais.md`` and in
:func:`classify`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from autos.base import ptbr
from autos.compute.preconditions import unmet_before
from autos.compute.timeline import Timeline
from autos.processo.case import (
    AvisoRecebimento,
    Case,
    Edital,
    Lavratura,
    Notificacao,
    ReferenciaAuto,
    returned_for_unknown_address,
)
from autos.processo.load import LoadedProcesso
from autos.processo.load_case import LoadedCase
from autos.rules.deadlines import LawDeadlines, NoticeFormRule
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

AUTO_KIND = "auto_de_infracao"
INDIVIDUAL_KIND = "edital_notificacao"


@dataclass(frozen=True)
class Decision:
    """What :func:`classify` says about one auto."""

    estado: str  # 'candidato' | 'recusado' | 'sem_edital' | 'publicado_no_caso'
    motivo: str = ""  # why edital (candidates): the ledger and the manifest keep it, the edital does not
    problemas: tuple[str, ...] = ()


def edital_rule(law: LawDeadlines) -> NoticeFormRule | None:
    return law.notificacao.formas.get("edital")


def classify(case: Case, law: LawDeadlines, *, address_typed: bool = False) -> Decision:
    """Must this auto's autuado be notified by edital now, and does the law admit it?

    Selected (``candidato``) when no notice has taken effect yet and either
    * the domicile is unknown (``autuado.endereco_desconhecido: true``), or
    * the AR letter came back undelivered for a reason that shows the address is unknown or uncertain
      (mudou-se, desconhecido, endereço insuficiente, número inexistente…), or
    * the case already says ``notificacao.forma: edital`` without a publication date, with one of the two
      facts above.
    The three laws only admit the edital when the domicile is unknown (Ferraz art. 76, III: "se
    desconhecido o domicílio fiscal"; Timóteo art. 21, III: "em local incerto ou desconhecido"; Cuiabá,
    silent, by the rules' adopted analogy with Lei federal nº 9.784/1999, art. 26, § 4º: "interessado
    desconhecido ou com domicílio indefinido"). So an AR returned because the autuado was absent,
    refused it or did not collect it is refused here: the address is known, and notice must be tried
    again in person or by letter. A case whose file says ``endereco_desconhecido: false`` in so many words
    (``address_typed``) is not overruled by the AR.
    """
    n = case.notificacao
    a = case.autuado
    from_ar = False
    if n is not None:
        if n.forma == "edital":
            if n.edital is not None and n.edital.data_publicacao is not None:
                return Decision("publicado_no_caso", problemas=(
                    f"o caso já registra a publicação do edital em {ptbr.format_date(n.edital.data_publicacao)}",))
        elif n.forma == "ar" and n.ar is not None and n.ar.devolvido:
            from_ar = True
        else:
            return Decision("sem_edital")  # notice given (or under way) in person, by refusal or by AR
    elif not a.endereco_desconhecido:
        return Decision("sem_edital")
    rule = edital_rule(law)
    if rule is None:
        return Decision("recusado", problemas=(
            f"a {law.citacao} não prevê notificação por edital ({law.notificacao.base_legal})",))
    condition = (rule.condicao or f"o edital exige domicílio desconhecido ({rule.base_legal})").rstrip(".")
    if a.endereco_desconhecido:
        return Decision("candidato", motivo="domicílio desconhecido (em local incerto ou não sabido)")
    if from_ar:
        assert n is not None and n.ar is not None
        motivo = (n.ar.motivo_devolucao or "").strip()
        if not motivo:
            return Decision("recusado", problemas=(
                f"AR devolvido sem o motivo da devolução: {condition}; informe notificacao.ar.motivo_devolucao "
                "(p. ex. 'mudou-se', 'desconhecido', 'endereço insuficiente') ou, se o domicílio for de fato "
                "desconhecido, marque autuado.endereco_desconhecido: true",))
        if returned_for_unknown_address(motivo):
            if address_typed:
                return Decision("recusado", problemas=(
                    f"o AR voltou ('{motivo}'), mas o caso afirma autuado.endereco_desconhecido: false: {condition}; "
                    "confirme o domicílio e corrija o campo, ou renove a notificação",))
            return Decision("candidato", motivo=f"carta com AR devolvida sem entrega (motivo: {motivo})")
        return Decision("recusado", problemas=(
            f"AR devolvido por '{motivo}', motivo que não mostra domicílio desconhecido: {condition}; "
            "renove a notificação pessoal ou por carta, ou, se o domicílio for de fato desconhecido, marque "
            "autuado.endereco_desconhecido: true",))
    return Decision("recusado", problemas=(
        f"o caso pede notificação por edital, mas não registra domicílio desconhecido nem AR devolvido: "
        f"{condition}",))


def needs_newspaper(rule: NoticeFormRule) -> bool:
    """Timóteo art. 21, § 3º: official press AND a local newspaper."""
    return "edital_jornal" in rule.exige


@dataclass(frozen=True)
class Publication:
    """Where and when this run publishes, as the derived cases record it."""

    data: date  # official press (--data)
    data_jornal: date | None  # local newspaper (--data-jornal), only where the law requires it
    veiculo: str
    jornal: str | None
    local: str  # where the edital is issued: "Município/UF"
    numero: str  # the edital's number "N/AAAA" (individual editais carry the consolidated edital's number)
    data_edital: date  # the edital's own date: the day it is issued, never after a publication



def derive(loaded: LoadedCase, documento: str, pub: Publication) -> LoadedCase:
    """The in-memory case published by edital: the user's case (and file) is not touched (pydantic copies;
    the YAML lines stay for messages).

    * ``auto_de_infracao``: the auto with its notice by edital on the publication date(s) — validated as
      the auto that is being notified, and the source of the dates;
    * ``edital_notificacao``: the individual edital of that auto — its own number (the consolidated
      edital's), date and place (:func:`edital_date`; the municipality),
      the auto it refers to (number and date), the infraction date, and the autuado with domicile unknown
      (:func:`classify` concluded so, from the case or from the AR's return reason).
    """
    case = loaded.case
    prev = case.notificacao
    notificacao = Notificacao(
        forma="edital",
        ar=prev.ar if prev is not None else None,
        edital=Edital(data_publicacao=pub.data, veiculo=pub.veiculo, data_publicacao_jornal=pub.data_jornal,
                      jornal=pub.jornal),
    )
    update: dict[str, Any] = {
        "notificacao": notificacao,
        "autuado": case.autuado.model_copy(update={"endereco_desconhecido": True}),
    }
    if documento == INDIVIDUAL_KIND:
        update.update({
            "documento": documento,
            "numero": pub.numero,
            "auto": ReferenciaAuto(numero=case.numero, data=case.lavratura.data),
            "data_infracao": case.infraction_date,
            "lavratura": Lavratura(local=pub.local, data=pub.data_edital),
        })
    return LoadedCase(case=case.model_copy(update=update), doc=loaded.doc)


def edital_date(issued: date, data: date, data_jornal: date | None) -> date:
    """The edital is dated the day it is issued (the run), or the first publication if that is earlier (a
    publication recorded after the fact): never after a publication, and never in the future when the
    gazette of a later day is prepared in advance."""
    return min(d for d in (issued, data, data_jornal) if d is not None)


def _pick(pairs: tuple[tuple[str, str], ...], municipio_dir: str) -> str | None:
    found = dict(pairs)
    return found.get(municipio_dir) or found.get("*")


def default_veiculo(municipio: str) -> str:
    return f"órgão oficial de imprensa do Município de {municipio}"


DEFAULT_JORNAL = "jornal de grande circulação local"


# --------------------------------------------------------------------------------------------------
# processos: the timeline says whether the auto still needs an edital


@dataclass(frozen=True)
class ProcessoEdital:
    """What :func:`classify_processo` says about one processo: the decision and, for a candidate, the auto as the
    edital publishes it (a case built from the processo's acts, its lines the processo file's)."""

    decision: Decision
    auto: LoadedCase | None = None
    auto_numero: str | None = None


def edital_kinds(proc: Procedure) -> list[str]:
    """The act kinds of the law's rite that notify by edital (``forma: edital``)."""
    return [k for k, r in proc.atos.items() if r.forma == "edital"]


def auto_index(loaded: LoadedProcesso, proc: Procedure) -> int | None:
    """The index of the processo's auto (the rite's initial act), if it has one."""
    initial = proc.initial_kind()
    return next((i for i, a in enumerate(loaded.processo.atos) if a.tipo == initial), None)


def classify_processo(loaded: LoadedProcesso, timeline: Timeline, proc: Procedure, law: LawDeadlines,
                      auto_document: LoadedCase | None, statute: Statute | None = None) -> ProcessoEdital:
    """Must this processo's autuado be notified of the auto by edital now? ``auto_document`` is the case of the
    auto's document as of its date (built by the caller: ``autos.checks.acts.act_document`` of
    :func:`auto_index`), the edital publishes it.

    The rule is :func:`classify`'s (domicile unknown, or an AR returned for a reason that shows it), read from
    the processo's timeline instead of a single document:

    * a processo whose timeline has errors is refused with them (the deadlines are not computed);
    * one closed (paid, cancelled, in dívida ativa) needs no edital;
    * one that already has an edital act of the auto with its publications was published
      (``publicado_no_caso``); an edital act without publications is the clerk's draft and is refused;
    * the last notice act of the auto decides: a notice that took effect or is under way (an AR not back yet)
      needs no edital; an AR returned undelivered (the timeline's ``frustrada``) is judged by its return reason;
    * with no notice act, only a domicile recorded as unknown calls for the edital;
    * a candidate is refused while an edital dated today would miss a precondition of the rite's edital act (with
      ``statute``: :func:`autos.compute.preconditions.unmet_before` — the AR to the known address, the search for the
      domicile recorded after the return: Ferraz art. 76, III; Timóteo art. 21, III and § 2º).
    """
    p = loaded.processo
    auto_i = auto_index(loaded, proc)
    if timeline.has_errors:  # the refusal names the auto, when there is one, for the manifest
        errors = [f for f in timeline.achados if f.severidade == "erro"]
        return ProcessoEdital(Decision("recusado", problemas=tuple(
            f"o processo tem erro na linha do tempo: {f.codigo}: {f.mensagem}"
            + (f" ({f.citacao})" if f.citacao else "") + (f" (linha {f.linha})" if f.linha else "")
            for f in errors)), auto_numero=p.atos[auto_i].numero if auto_i is not None else None)
    if auto_i is None:
        return ProcessoEdital(Decision("sem_edital"))  # nothing to notify yet (e.g. an apprehension first)
    auto_act = p.atos[auto_i]
    kinds = edital_kinds(proc)
    notices = [j for j, a in enumerate(p.atos) if j != auto_i and (r := proc.atos.get(a.tipo)) is not None
               and r.forma is not None and a.referente is not None and a.referente == auto_act.numero]
    for j in notices:
        a = p.atos[j]
        if a.tipo in kinds:
            if a.publicacoes:
                first = min(x.data for x in a.publicacoes)
                return ProcessoEdital(Decision("publicado_no_caso", problemas=(
                    f"o processo já registra o edital{f' nº {a.numero}' if a.numero else ''} publicado em "
                    f"{ptbr.format_date(first)} (atos[{j}])",)), auto_numero=auto_act.numero)
            return ProcessoEdital(Decision("recusado", problemas=(
                f"o processo tem um edital sem publicações (atos[{j}], linha {loaded.line_of(('atos', j))}): "
                "complete as publicações do edital já feito ou remova o ato, e a publicação o acrescenta",)),
                auto_numero=auto_act.numero)
    if timeline.encerrado:
        return ProcessoEdital(Decision("sem_edital"), auto_numero=auto_act.numero)
    if not kinds:
        return ProcessoEdital(Decision("recusado", problemas=(
            f"as regras do processo da {proc.citacao} não têm o ato de edital (forma: edital); sem ele a publicação "
            "não pode ser registrada no processo — acrescente o ato às regras da lei",)), auto_numero=auto_act.numero)
    if auto_document is None:
        return ProcessoEdital(Decision("recusado", problemas=(
            f"o auto (atos[{auto_i}]) não tem data; o edital precisa citá-lo",)), auto_numero=auto_act.numero)
    case = auto_document.case
    if notices:
        j = notices[-1]
        a, st = p.atos[j], timeline.atos[j]
        if not st.frustrada or a.devolucao is None:
            return ProcessoEdital(Decision("sem_edital"), auto_numero=auto_act.numero)
        case = case.model_copy(update={"notificacao": Notificacao(forma="ar", ar=AvisoRecebimento(
            data_postagem=a.postagem, devolvido=True, motivo_devolucao=a.devolucao.motivo))})
    typed = loaded.line_of(("autuado", "endereco_desconhecido")) != loaded.line_of(("autuado",))
    decision = classify(case, law, address_typed=typed)
    if decision.estado == "candidato" and statute is not None:
        missing = unmet_before(loaded, proc, statute, timeline, kinds[0], timeline.hoje, auto_act.numero)
        if missing:
            decision = Decision("recusado", problemas=tuple(missing))
    auto = LoadedCase(case=case, doc=auto_document.doc)
    return ProcessoEdital(decision, auto if decision.estado == "candidato" else None, auto_act.numero)
