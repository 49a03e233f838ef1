"""The documents of a decision and around it, as a procuradoria signs them (Lei federal nº 9.784/1999, arts. 26 and
50, by analogy): the decision with relatório, razões (each argument and its answer) and dispositivo; the
notification of a decision with what art. 26, § 1º requires; the receipt of a defence or appeal, which records the
date and rules on nothing; and the signer of every act's document, from the register of authorities (the named
person, the post, the act that gives the competence).

Everything is pre-formatted here, as in :mod:`autos.documents.context` (whose sections of the decision and of its
notice, :mod:`autos.documents.ruling_sections` and :mod:`autos.documents.notice_sections`, call these builders), so
the HTML and the DOCX templates print the same text.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.processo.case import Case, Decisao, RazaoDecisao
from autos.rules.authorities import normalize_name
from autos.rules.document_kinds import DocumentKind
from autos.rules.statute import Statute

__all__ = ["decision_notice_sections", "decision_sections", "protocol_sections", "signer_block"]

MISSING = "[NÃO INFORMADO]"
_CONCLUSIONS = {"acolhido": "ACOLHIDO", "acolhido_em_parte": "ACOLHIDO EM PARTE", "rejeitado": "REJEITADO"}
_LEI_9784 = "Lei federal nº 9.784/1999"


def _flat(text: str | None) -> str:
    return " ".join((text or "").split())


def _m(value: str | None, draft: bool) -> str:
    return value if value and value.strip() else (MISSING if draft else "")


def _date(d: Any, draft: bool) -> str:
    return ptbr.format_date(d) if d else (MISSING if draft else "")


def signer_block(case: Case) -> dict[str, Any]:
    """Who signs the document, from the register of authorities (empty strings when the processo's register does
    not know them: a case file of one document, or a municipality without a register)."""
    s = case.signatario
    if s is None:
        return {"nome": "", "cargo": "", "orgao": "", "matricula": "", "crmv": "", "competencia": "", "delegacao": "",
                "linha": "", "exemplo": False}
    line = f"Competência: {s.competencia}." if s.competencia else ""
    if s.delegacao:
        line = f"Decide {s.delegacao}. {line}".strip()
    # the CRMV typed on the act belongs to the signer only when the act's agent is the signer
    own = case.agente.nome is not None and normalize_name(case.agente.nome) == normalize_name(s.nome)
    return {"nome": s.nome, "cargo": s.cargo, "orgao": s.orgao, "matricula": s.matricula or "",
            "crmv": case.agente.crmv or "" if own else "", "competencia": s.competencia,
            "delegacao": s.delegacao or "", "linha": line, "exemplo": s.exemplo}


def _name(d: Decisao) -> str:
    inst = "primeira instância" if d.instancia == "primeira" else "recurso"
    return f"Decisão de {inst}" + (f" nº {d.numero}" if d.numero else "")


def _units(statute: Statute, value: Decimal) -> str:
    return ptbr.units_full(value, statute.unidade_fiscal.sigla, feminine=statute.unidade_fiscal.feminino)


def _penalty(fines: FineResult | None) -> FineResult | None:
    return fines.part("penalidade") if fines is not None else None


def decided_reais(case: Case, statute: Statute, fines: FineResult | None) -> Decimal | None:
    """The fine a reduction leaves, in reais: its amount in the law's unit at the value of the unit the auto's fine
    was converted with (None: no reduction, or not computed); an amount given in reais alone is taken as it is."""
    d = case.decisao
    own = _penalty(fines)
    if d is None or d.resultado != "reduzida":
        return None
    if d.valor_base is None:
        return d.valor
    return statute.arredondamento.apply(d.valor_base * own.valor_unidade.valor) if own is not None else None


def decided_amount(case: Case, statute: Statute, fines: FineResult | None, draft: bool) -> str:
    """The fine the decision leaves in force, in the law's unit and in reais (``""``: none; cancelled)."""
    d = case.decisao
    own = _penalty(fines)
    if d is None or d.resultado == "cancelada":
        return ""
    if d.resultado == "reduzida":
        if d.valor_base is not None and (reais := decided_reais(case, statute, fines)) is not None:
            return f"{_units(statute, d.valor_base)}, correspondentes a {ptbr.money_full(reais)}"
        if d.valor_base is not None:
            return _units(statute, d.valor_base)
        return ptbr.money_full(d.valor) if d.valor is not None else (MISSING if draft else "")
    if own is not None:
        return f"{own.unidades_texto()}, correspondentes a {own.reais_texto()}"
    return ptbr.money_full(d.valor) if d.valor is not None else ""


def _impugnacao_text(d: Decisao, draft: bool) -> tuple[str, str, bool]:
    """The defence or appeal decided: its description, its name with the article (``a defesa``) and whether late."""
    imp = d.impugnacao
    if imp is None:
        return "", "", False
    nome, g = ("Defesa", "a") if imp.tipo == "defesa" else ("Recurso", "o")
    text = f"{nome}{' nº ' + imp.numero if imp.numero else ''} protocolad{g} em {_date(imp.data, draft)}"
    late = imp.prazo_vencido_em is not None
    if late:  # the deciding authority rules on timeliness (Lei 9.784/1999, art. 63, I), not the receipt
        text += f", INTEMPESTIV{g.upper()}: o prazo venceu em {_date(imp.prazo_vencido_em, draft)}"
    elif imp.tempestividade_conhecida:
        text += f", tempestiv{g}"
        if imp.prazo_fim is not None:
            counted = (f"de {imp.prazo}, contado de {_date(imp.prazo_inicio, draft)}, data em que a notificação "
                       "se considerou feita, " if imp.prazo and imp.prazo_inicio is not None else "")
            text += f" (prazo {counted}até {_date(imp.prazo_fim, draft)})"
    return text, f"{g} {nome.lower()}", late


#: what a decision on an appeal it knows of does to the appeal, by what it decides of the auto and the fine
_APPEAL_VERDICTS = {"mantida": "NEGA-SE-LHE PROVIMENTO", "reduzida": "DÁ-SE-LHE PARCIAL PROVIMENTO",
                    "cancelada": "DÁ-SE-LHE PROVIMENTO"}


def _answer(r: RazaoDecisao, texts: dict[str, str]) -> dict[str, str]:
    return {"argumento": r.argumento, "alegacao": _flat(texts.get(r.argumento, "")).rstrip("."),
            "conclusao": _CONCLUSIONS[r.conclusao], "fatos": _flat(r.fatos), "fundamentos": _flat(r.fundamentos)}


def decision_sections(case: Case, statute: Statute, kind: DocumentKind, fines: FineResult | None, draft: bool,
                      computed: CaseComputation, terms: list[dict[str, Any]]) -> dict[str, Any]:
    """Decisão (julgamento, decisão do recurso), as of its date: relatório (the auto, the penalty proposed, the
    defence or appeal and what it argues), razões (each argument, the conclusion, the facts, the legal grounds; the
    general grounds), dispositivo (what is decided, in the law's unit and in reais, and what else is ordered), what
    lies against it (a further appeal, to whom and in what term, or the instance closed) and who decides."""
    d = case.decisao
    if d is None:
        return {"decisao": None, "prazos_documento": []}
    imp_text, imp_name, late = _impugnacao_text(d, draft)
    imp = d.impugnacao
    args = imp.argumentos if imp is not None else []
    texts = {a.id: a.texto for a in args}
    ref = case.auto
    auto = (f"Auto de Infração nº {ref.numero or 's/n'}, lavrado em {_date(ref.data, draft)}" if ref is not None
            else _m(None, draft))
    own = _penalty(fines)
    proposed = (f"multa de {own.unidades_texto()}, correspondentes a {own.reais_texto()}" if own is not None else "")
    facts = _flat(case.fatos)
    report = [f"Trata-se do {auto}" + (f", que descreve: {facts.rstrip('.')}" if facts else "")
              + (f", e aplica {proposed}" if proposed else "") + "."]
    if imp is not None:
        said = "; ".join(f"({a.id}) {_flat(a.texto).rstrip('.')}" for a in args)
        report.append(f"{imp_text}{', em que alega: ' + said if said else ''}.")
        if d.encaminhamento:
            report.append(f"A autoridade que proferiu a decisão recorrida não a reconsiderou e encaminhou o recurso "
                          f"({d.encaminhamento}; {_LEI_9784}, art. 56, § 1º, por analogia).")
    elif d.instancia == "primeira":
        report.append("Não foi apresentada defesa até a data desta decisão.")
    if d.relatorio:
        report.append(_flat(d.relatorio))
    answers = [_answer(r, texts) for r in d.razoes]
    grounds = _flat(d.fundamentacao)
    if late and imp is not None:
        not_known = (f"{imp_name[:1].upper()}{imp_name[1:]} foi apresentad{imp_name[0]} depois do fim do prazo: não "
                     f"se conhece das suas alegações ({_LEI_9784}, art. 63, I, por analogia).")
        grounds = f"{not_known} {grounds}".strip()
    amount = decided_amount(case, statute, fines, draft)
    resultado = {
        "mantida": "MANTIDO o auto de infração e MANTIDA a multa" + (f", no valor de {amount}" if amount else ""),
        "reduzida": f"MANTIDO o auto de infração e REDUZIDA a multa para {amount}",
        "cancelada": "CANCELADO o auto de infração e a multa dele decorrente",
    }.get(d.resultado or "", _m(None, draft))
    known = ""
    if imp is not None:
        known = (f"não conhecid{imp_name[0]} {imp_name}, por intempestiv{imp_name[0]}, " if late
                 else f"conhecid{imp_name[0]} {imp_name}, ")
    # an appeal that is known is granted, partly granted or refused (provimento), then what follows from it
    verdict = "DECIDE-SE"
    if imp is not None and imp.tipo == "recurso" and not late and d.resultado in _APPEAL_VERDICTS:
        verdict = _APPEAL_VERDICTS[d.resultado]
    dispositivo = f"Ante o exposto, {known}{verdict}: {resultado}."
    if d.resultado == "reduzida" and d.motivo_valor:
        dispositivo += f" Motivo do valor: {_flat(d.motivo_valor).rstrip('.')}."
    if d.dispositivo:
        dispositivo += f" {_flat(d.dispositivo)}"
    due = d.resultado in ("mantida", "reduzida")
    return {
        "decisao": {
            "instancia": "primeira instância" if d.instancia == "primeira" else "recurso",
            "numero": d.numero or "",
            "data": _date(d.data, draft),
            "impugnacao": (imp_text + ".") if imp_text else (
                "Não foi apresentada defesa até a data desta decisão." if d.instancia == "primeira" else ""),
            "relatorio": report,
            "razoes": answers,
            "fundamentacao": grounds,
            "dispositivo": dispositivo,
            "resultado": resultado + ".",
            "valor": amount,
            "recurso": appeal_sentence(d, terms, "desta decisão"),
            "autoridade": _m(d.autoridade, draft),
            "devida": due,
        },
        "prazos_documento": terms if due else [],
    }


def appeal_sentence(d: Decisao, terms: list[dict[str, Any]], of: str) -> str:
    """Whether a further appeal lies, to whom and in what term, or that the instance is exhausted."""
    if d.ultima_instancia:
        return ("Esta decisão encerra a instância administrativa: proferida em grau de recurso pela autoridade "
                "superior, a lei não prevê outra instância contra ela."
                if d.instancia == "recurso" else
                "Esta decisão encerra a instância administrativa: a lei não prevê recurso contra ela.")
    term = next((t for t in terms if "recorrer" in t["descricao"].lower() or "recurso" in t["descricao"].lower()),
                None)
    when = (f", no prazo de {term['prazo']}{', até ' + term['data'] if term.get('data') else ''} "
            f"({term['base_legal']})" if term is not None else "")
    # addressed to the authority that decided, which reconsiders or forwards it to the superior (Lei 9.784, art.
    # 56, § 1º): the auto's clause and this sentence say the same
    to = (f", dirigido ao {d.instancia_recursal} por intermédio da autoridade que a proferiu, a qual, se não a "
          "reconsiderar no prazo de 5 (cinco) dias, o encaminhará à autoridade superior (Lei federal nº 9.784/1999, "
          "art. 56, § 1º, por analogia)" if d.instancia_recursal else "")
    return f"Cabe recurso {of}{when}{to}, apresentado no protocolo do órgão que a proferiu."


def decision_notice_sections(case: Case, statute: Statute, fines: FineResult | None, draft: bool,
                             notice: dict[str, Any], terms: list[dict[str, Any]]) -> dict[str, Any]:
    """What the notification of a decision states (Lei federal nº 9.784/1999, art. 26, § 1º, by analogy): the
    notified and the organ (I), the purpose (II), that no appearance is required and an appeal may be lodged in
    person or by a representative (III, IV), that the processo continues regardless (V), the decision — its result
    in the law's unit and in reais, the answer to each argument — and where to read it in full (VI), and whether a
    further appeal lies, to whom and in what term, or that the instance is closed."""
    d = case.decisao
    s = case.signatario
    orgao = s.orgao if s is not None else _flat(statute.lei.orgao)
    if d is None:
        return {**notice, "finalidade": "", "orgao": orgao, "razoes": [], "teor": "", "recurso": "", "dispositivo": "",
                "continuidade": "", "comparecimento": "", "recibo": ""}
    imp = d.impugnacao
    texts = {a.id: a.texto for a in imp.argumentos} if imp is not None else {}
    due = d.resultado in ("mantida", "reduzida")
    # where an appeal lies, the debt goes to dívida ativa only if no appeal is lodged in time (the appeal suspends
    # the payment: choice pagamento-suspenso-pelo-recurso of the rite)
    unpaid = ("não recolhida a multa no prazo" if d.ultima_instancia else
              "não interposto recurso no prazo e não recolhida a multa no prazo")
    continuity = (f"O processo prossegue independentemente de manifestação do notificado: {unpaid}, o débito é "
                  "encaminhado à inscrição em dívida ativa." if due else
                  "O processo prossegue independentemente de manifestação do notificado.")
    personal = case.notificacao is not None and case.notificacao.forma == "pessoal"
    return {
        **notice,
        "orgao": orgao,
        "finalidade": f"Dar ciência ao notificado da {_name(d)}, proferida em {_date(d.data, draft)}, e dos prazos que "
                      "dela correm.",
        "razoes": [_answer(r, texts) for r in d.razoes],
        # what the decision orders besides the fine (keeping or lifting a suspension…): the notice states it too
        "dispositivo": _flat(d.dispositivo),
        "fundamentacao": _flat(d.fundamentacao),
        "teor": (f"O inteiro teor da decisão — relatório, razões e dispositivo — acompanha esta notificação e está nos "
                 "autos do processo, que o notificado ou seu representante pode consultar no órgão emissor — "
                 f"{orgao}."),
        "comparecimento": ("Esta notificação não exige comparecimento. O notificado pode agir pessoalmente ou por "
                           "representante com procuração."),
        "recurso": appeal_sentence(d, terms, "desta decisão"),
        "continuidade": continuity,
        # a personal notice is proved by the notified's dated receipt (Lei 9.784, art. 26, § 3º, by analogy):
        # dated as the processo records it — the date the notice takes effect and the deadlines count from
        "recibo": ("Recebi a cópia desta notificação, com o inteiro teor da decisão, em "
                   f"{notice.get('data_notificacao') or '____/____/________'}." if personal else ""),
    }


def protocol_sections(case: Case, draft: bool) -> dict[str, str]:
    """The receipt of a defence or an appeal: the date it was received and nothing more about it — whether it came
    in time is for the authority that decides it, in the decision (Lei federal nº 9.784/1999, art. 63, I)."""
    imp = case.ato.protocolo if case.ato is not None else None
    if imp is None:
        return {"situacao": ""}
    nome = "a defesa" if imp.tipo == "defesa" else "o recurso"
    return {"situacao": f"Este recibo atesta só a data do recebimento; se {nome} foi apresentad{nome[0]} no prazo é "
                        "decidido pela autoridade competente para julgá-l" + nome[0] + "."}
