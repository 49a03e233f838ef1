"""What an individual edital may publish (:func:`edital_sections`), and the masking of the document number it publishes.

Masking rule for publication (LGPD, Lei federal nº 13.709/2018, art. 6º, III — necessity): a CPF shows
only its 6 middle digits, ``***.456.789-**``; a CNPJ hides its first 2 digits and its 2 check digits,
``**.222.333/0001-**`` (the CNPJ of an individual entrepreneur or MEI identifies a natural person, and
the edital cannot tell the cases apart, so every CNPJ is masked the same way)."""

from __future__ import annotations

import re
from typing import Any

from autos.base import ptbr
from autos.compute.fines import FineResult
from autos.compute.result import CaseComputation
from autos.documents.formatting import _auto_ref, _fmt_date, _missing_fn
from autos.documents.notice_sections import _MEIOS, _edital_case, _notice_rule_text, notice_moved
from autos.documents.preconditions import attempts_text, infractions
from autos.processo.case import Case
from autos.rules.statute import Statute

# --------------------------------------------------------------------------------------------------
# masking for publication


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def mask_cpf(cpf: str) -> str:
    """``123.456.789-09`` → ``***.456.789-**`` (only the 6 middle digits are published)."""
    d = _digits(cpf)
    if len(d) != 11:
        raise ValueError(f"CPF must have 11 digits: {cpf!r}")
    return f"***.{d[3:6]}.{d[6:9]}-**"


def mask_cnpj(cnpj: str) -> str:
    """``11.222.333/0001-81`` → ``**.222.333/0001-**`` (first 2 digits and check digits hidden)."""
    d = _digits(cnpj)
    if len(d) != 14:
        raise ValueError(f"CNPJ must have 14 digits: {cnpj!r}")
    return f"**.{d[2:5]}.{d[5:8]}/{d[8:12]}-**"


def mask_document(case: Case) -> str | None:
    """The autuado's document as an edital publishes it (None when the case has none): a person's CPF masked
    (LGPD, art. 6º, III), a company's CNPJ whole — the LGPD protects the data of natural persons (art. 1º; art. 5º,
    I), and the whole CNPJ tells the notified company apart from another of a similar name."""
    a = case.autuado
    if a.tipo == "pessoa_fisica":
        return mask_cpf(a.cpf) if a.cpf else None
    return a.cnpj or None


def edital_sections(case: Case, statute: Statute, fines: FineResult | None, prazos: list[dict[str, Any]], *,
                    draft: bool, notice_date: str | None, computed: CaseComputation) -> dict[str, Any]:
    """What an individual edital may publish, and nothing else: the name, the CPF/CNPJ masked, the auto
    (number and date), the infringed provisions, the amount, where and when it is published, the date the
    notice takes effect and the deadlines that follow (Ferraz art. 76, III, and 77, III; Timóteo art. 21,
    III, and § 3º; LGPD art. 6º, III). No address, qualification, facts, witnesses or legal representative."""
    a = case.autuado
    m = _missing_fn(draft)
    n = case.notificacao
    ed = n.edital if n is not None and n.edital is not None else None
    publicacoes = []
    if ed is not None and (ed.veiculo or ed.data_publicacao):
        publicacoes.append({"veiculo": m(ed.veiculo), "data": _fmt_date(ed.data_publicacao, draft)})
    if ed is not None and (ed.jornal or ed.data_publicacao_jornal):
        publicacoes.append({"veiculo": m(ed.jornal), "data": _fmt_date(ed.data_publicacao_jornal, draft)})
    if n is None and case.ato is not None:  # a processo's edital published again after its date: no notice yet
        publicacoes = [{"veiculo": x.veiculo or _MEIOS[x.meio], "data": ptbr.format_date(x.data)}
                       for x in case.ato.publicacoes]
    multa = None
    if fines is not None:
        multa = {"unidades": fines.unidades_texto(), "reais": fines.reais_texto(),
                 "valor_unidade": f"R$ {ptbr.format_decimal(fines.valor_unidade.valor)}",
                 "fonte_unidade": fines.valor_unidade.fonte}
    return {
        "auto_ref": _auto_ref(case, draft) if case.auto else {"numero": m(None), "data": m(None),
                                                               "texto": m(None)},
        "edital": {
            "notificado": {
                "nome": m(a.nome),
                "documento_rotulo": a.documento_rotulo,
                "documento": m(mask_document(case)),
            },
            "infracoes": infractions(case, statute),
            "multa": multa,
            "publicacoes": publicacoes,
            "efeito": _notice_rule_text(computed, "edital"),
            "hipotese": _edital_case(computed), "tentativas": attempts_text(case),
            "data_notificacao": m(notice_date) if n is not None or case.ato is None else "",
            "prorrogacao": notice_moved(case, computed) if notice_date and n is not None else "",
            "mascara": "" if a.tipo == "pessoa_juridica" else (
                "O número do documento de identificação é publicado parcialmente, só com os dígitos do meio, e este "
                "edital traz apenas os dados necessários à notificação (Lei federal nº 13.709/2018 — LGPD, art. 6º, "
                "III)."),
        },
        "prazos": prazos,
    }
