"""The signature section of ``autos conferir``: every signature a PDF carries, one Portuguese line each, the
verdict on changes after the last signature, and the same in JSON (:mod:`autos.sign.validate` does the checking).

The section is added to whatever else ``conferir`` checked (the editais ledger, the processos register); alone,
when no ledger or register was named and the PDF is signed."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Protocol

from autos.base import ptbr
from autos.errors import AutosError, InputError, os_error_pt
from autos.sign.validate import (
    Chain,
    Changes,
    Revocation,
    SignatureCheck,
    SignaturesReport,
    Trust,
    load_trust,
    validate_signatures,
)

#: where ``conferir`` finds its trust anchors and CRLs when --confiar / --lcr are not given (paths separated by
#: the system's path separator, ``:`` on Linux)
ANCHORS_ENV = "AUTOS_ANCORAS"
CRLS_ENV = "AUTOS_LCR"

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_UNUSABLE = 2

#: Brazil has kept no daylight saving time since 2019: Brasília time is UTC-3 all year
BRASILIA = timezone(timedelta(hours=-3))


def is_pdf(data: bytes) -> bool:
    return data.lstrip()[:5] == b"%PDF-"


@dataclass
class SignatureSection:
    """The signature part of a ``conferir`` report. ``report`` is None when the PDF could not be read (``error``
    says why)."""

    arquivo: Path
    report: SignaturesReport | None
    error: AutosError | None = None

    @property
    def signed(self) -> bool:
        return self.report is not None and bool(self.report.signatures)

    @property
    def exit_code(self) -> int:
        if self.report is None:
            return EXIT_UNUSABLE
        return EXIT_OK if self.report.ok else EXIT_FAILED

    @property
    def linhas(self) -> list[str]:
        if self.report is None:
            assert self.error is not None
            return [f"Assinaturas digitais: não conferidas — {self.error.message}"]
        return report_lines(self.report)

    def to_dict(self) -> dict[str, Any]:
        if self.report is None:
            assert self.error is not None
            return {"conferidas": False, "erro": self.error.to_dict(), "linhas": self.linhas}
        return {"conferidas": True, **report_dict(self.report), "linhas": self.linhas}


def signature_section(arquivo: Path, trust: Trust) -> SignatureSection | None:
    """Check the signatures of ``arquivo`` if it is a PDF (None otherwise: a DOCX carries no PDF signature). An
    unreadable, encrypted or damaged PDF gives a section with the error instead of a report."""
    try:
        data = arquivo.read_bytes()
    except OSError as exc:
        return SignatureSection(arquivo, None, InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).",
                                                          file=arquivo))
    if not is_pdf(data):
        return None
    try:
        return SignatureSection(arquivo, validate_signatures(data, trust, source=arquivo))
    except AutosError as exc:
        return SignatureSection(arquivo, None, exc)


def trust_from_options(anchors: Iterable[Path], crls: Iterable[Path], *, fetch: bool = False) -> Trust:
    return load_trust(tuple(anchors), tuple(crls), fetch=fetch)


# --------------------------------------------------------------------------------------------------
# the Portuguese lines


def _when(moment: datetime) -> str:
    local = moment.astimezone(BRASILIA)
    return f"{local:%d/%m/%Y %H:%M}"


def _day(moment: datetime) -> str:
    return f"{moment.astimezone(BRASILIA):%d/%m/%Y}"


def _tax_id(number: str) -> str:
    if len(number) == 11:
        return f"CPF {number[:3]}.{number[3:6]}.{number[6:9]}-{number[9:]}"
    return f"CNPJ {number[:2]}.{number[2:5]}.{number[5:8]}/{number[8:12]}-{number[12:]}"


def _chain_text(s: SignatureCheck) -> str:
    if s.chain == Chain.TRUSTED:
        text = f"cadeia confiável até {s.anchor}"
        if s.trusted_by_timestamp:
            text += " na data do carimbo do tempo (o certificado venceu depois)"
        return text
    if s.chain == Chain.NO_ANCHORS:
        return ("cadeia NÃO verificada: nenhuma âncora de confiança configurada (use --confiar ou a variável "
                f"{ANCHORS_ENV})")
    if s.chain == Chain.UNTRUSTED_ROOT:
        return "cadeia NÃO confiável: o certificado não leva a nenhuma das âncoras de confiança configuradas"
    if s.chain == Chain.EXPIRED:
        end = _day(s.not_after) if s.not_after else "?"
        if s.chain_detail:
            return (f"certificado VENCIDO em {end}, depois da data declarada da assinatura, sem carimbo do tempo que "
                    "prove quando ela foi feita")
        return f"certificado VENCIDO na data da assinatura (válido até {end})"
    if s.chain == Chain.NOT_YET_VALID:
        start = _day(s.not_before) if s.not_before else "?"
        return f"certificado AINDA NÃO VÁLIDO na data da assinatura (válido a partir de {start})"
    if s.chain == Chain.REVOKED:
        when = f" em {_day(s.revocation_date)}" if s.revocation_date else ""
        who = "um certificado de AC da cadeia foi REVOGADO" if s.chain_detail else f"certificado REVOGADO{when}"
        return f"{who} (segundo a LCR)"
    if s.chain == Chain.NOT_CHECKED:
        return "cadeia não avaliada (a assinatura não confere com o conteúdo)"
    if s.chain == Chain.KEY_USAGE:
        return "certificado SEM uso de chave para assinatura (nem assinatura digital nem não repúdio)"
    return f"cadeia de certificação inválida ({s.chain_detail})"


def _revocation_text(s: SignatureCheck) -> str | None:
    return {
        Revocation.NOT_REVOKED: "revogação: verificada, nenhum certificado da cadeia revogado (LCR)",
        Revocation.SIGNER_NOT_REVOKED: "revogação: certificado do signatário não revogado segundo a LCR (a das ACs "
                                       "acima dele não verificada: sem LCR delas)",
        Revocation.UNKNOWN: "revogação: não verificada (nenhuma LCR configurada cobre este certificado)",
        Revocation.NOT_CONFIGURED: "revogação: não verificada (sem LCR configurada)",
    }.get(s.revocation)


def _time_text(s: SignatureCheck) -> str | None:
    parts = []
    ts = s.timestamp
    if ts is not None and s.is_signature:
        if ts.ok:
            parts.append(f"assinada em {_when(ts.time)} (horário de Brasília, carimbo do tempo de {ts.tsa}, válido)")
        else:
            why = "não íntegro" if not ts.intact else "de autoridade não confiável"
            parts.append(f"carimbo do tempo de {ts.tsa} INVÁLIDO ({why}), com a data {_when(ts.time)}")
    if s.claimed_time is not None and (ts is None or not ts.ok):
        parts.append(f"assinada em {_when(s.claimed_time)} (horário de Brasília, declarado pelo signatário)")
    elif s.claimed_time is None and (ts is None or not ts.ok):
        parts.append("sem data de assinatura")
    return "; ".join(parts) if parts else None


_AFTER = {
    Changes.NONE: "nada foi acrescentado depois dela",
    Changes.VALIDATION_DATA: "depois dela só dados de validação (LTV, carimbo do tempo do documento)",
    Changes.ANNOTATIONS: "depois dela foram acrescentadas ANOTAÇÕES (comentários ou marcações)",
    Changes.CONTENT: "depois dela o CONTEÚDO foi ALTERADO (páginas ou objetos mudados fora de assinaturas e "
                     "formulários)",
    Changes.UNKNOWN: "as alterações posteriores NÃO puderam ser analisadas",
}


def _coverage_text(s: SignatureCheck, revisions: int) -> str:
    if not s.covers_revision:
        return "a assinatura NÃO cobre a revisão inteira do arquivo (intervalo assinado com lacunas)"
    if s.whole_file:
        return "cobre o documento inteiro"
    head = f"cobre a revisão {s.revision} de {revisions}"
    if s.changes == Changes.LATER_SIGNATURES:
        return f"{head}; depois dela só as assinaturas seguintes ({', '.join(s.changed_fields)})"
    if s.changes == Changes.FORM_FILLING:
        return (f"{head}; depois dela assinaturas seguintes e preenchimento de formulário permitido (campos "
                f"{', '.join(s.changed_fields)})")
    return f"{head}; {_AFTER[s.changes]}"


def signature_line(s: SignatureCheck, total: int, revisions: int) -> str:
    kind = "Assinatura" if s.is_signature else "Carimbo do tempo do documento"
    head = f"{kind} {s.order} de {total} (campo {s.field})"
    if s.unreadable is not None:
        return f"{head}: NÃO VÁLIDA — a assinatura não pode ser lida ({s.unreadable})."
    who = s.name or "?"
    if s.tax_id:
        who += f" ({_tax_id(s.tax_id)})"
    a = "a" if s.is_signature else "o"  # a assinatura, o carimbo do tempo
    verdict = f"VÁLID{a.upper()}" if s.ok else (
        f"VÁLID{a.upper()} SÓ PARA A REVISÃO QUE {'ASSINOU' if s.is_signature else 'CARIMBOU'} (documento alterado "
        f"depois del{a})" if s.valid_for_revision else f"NÃO VÁLID{a.upper()}")
    parts = [f"{verdict} — {who}, certificado emitido por {s.issuer}",
             f"íntegr{a}" if s.intact else f"NÃO íntegr{a}: o conteúdo assinado foi modificado ou {a} "
             f"{'assinatura' if s.is_signature else 'carimbo'} está corrompid{a}", _chain_text(s)]
    if s.chain == Chain.TRUSTED and s.valid_at_signing and s.is_signature:
        parts.append("certificado válido na data da assinatura")
    if s.key_usage_ok is False and s.chain != Chain.KEY_USAGE:
        parts.append("certificado sem uso de chave para assinatura")
    rev = _revocation_text(s) if s.is_signature else None
    if rev:
        parts.append(rev)
    if not s.is_signature and s.timestamp is not None:
        parts.append(f"carimbo de {_when(s.timestamp.time)} (horário de Brasília)")
    when = _time_text(s)
    if when:
        parts.append(when)
    parts.append(_coverage_text(s, revisions))
    return f"{head}: {parts[0]}; " + "; ".join(parts[1:]) + "."


def _trust_line(trust: Trust) -> str:
    if trust.anchors:
        anchors = ", ".join(dict.fromkeys(trust.anchor_names))
        text = f"âncoras de confiança: {anchors}"
    else:
        text = f"nenhuma âncora de confiança configurada (--confiar ou {ANCHORS_ENV})"
    if trust.crl_files:
        text += f"; LCR: {', '.join(p.name for p in trust.crl_files)}"
    text += "; revogação buscada na rede" if trust.fetch else "; sem consulta à rede"
    return text


def _count(sigs: tuple[SignatureCheck, ...]) -> str:
    stamps = sum(1 for s in sigs if not s.is_signature)
    parts = [ptbr.count_noun(len(sigs) - stamps, "assinatura", "assinaturas")] if len(sigs) > stamps else []
    if stamps:
        parts.append(ptbr.count_noun(stamps, "carimbo do tempo do documento", "carimbos do tempo do documento"))
    return " e ".join(parts)


def report_lines(report: SignaturesReport) -> list[str]:
    sigs = report.signatures
    if not sigs:
        return ["Assinaturas digitais: o arquivo não traz nenhuma assinatura digital."]
    lines = [f"Assinaturas digitais: {_count(sigs)} no arquivo ({_trust_line(report.trust)})."]
    lines += [signature_line(s, len(sigs), report.revisions) for s in sigs]
    last = sigs[-1]
    if report.changed_after_last:
        what = {Changes.CONTENT: "o conteúdo foi alterado", Changes.ANNOTATIONS: "foram acrescentadas anotações",
                Changes.FORM_FILLING: "campos de formulário foram preenchidos",
                Changes.UNKNOWN: "as alterações não puderam ser analisadas"}.get(last.changes, last.changes.value)
        lines.append(f"ALTERADO DEPOIS DA ÚLTIMA ASSINATURA: o arquivo tem revisões posteriores à revisão "
                     f"{last.revision} que a última assinatura cobre ({what}); o que se vê não é o que foi assinado.")
    elif last.unreadable is not None:
        lines.append("Não se sabe se o documento foi alterado depois da última assinatura: ela não pode ser lida.")
    else:
        lines.append("O documento não foi alterado depois da última assinatura.")
    broken = [s for s in sigs if not s.valid_for_revision]
    altered = [str(s.order) for s in sigs[:-1] if s.valid_for_revision and not s.ok]
    if report.ok:
        stamps = sum(1 for s in sigs if not s.is_signature)
        lines.append(f"CONFERE: {ptbr.count_noun(len(sigs), 'assinatura válida', 'assinaturas válidas')}, sem "
                     "alteração posterior." if not stamps else f"CONFERE: {_count(sigs)}, todos válidos, sem "
                     "alteração posterior.")
    else:
        why = []
        if broken:
            why.append(f"{len(broken)} de {len(sigs)} "
                       + ("assinatura não é válida" if len(broken) == 1 else "assinaturas não são válidas"))
        if report.changed_after_last:
            why.append("o documento foi alterado depois da última assinatura")
        elif altered:
            why.append(f"o documento foi alterado depois da assinatura {', '.join(altered)}")
        lines.append(f"NÃO CONFERE: {'; '.join(why)}.")
    return lines


# --------------------------------------------------------------------------------------------------
# JSON


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def signature_dict(s: SignatureCheck, total: int, revisions: int) -> dict[str, Any]:
    ts = s.timestamp
    return {
        "ordem": s.order, "campo": s.field, "tipo": "assinatura" if s.is_signature else "carimbo_do_tempo_documento",
        "valida": s.ok, "ilegivel": s.unreadable,
        "signatario": {"nome_comum": s.subject, "nome": s.name, "cpf": s.tax_id if s.tax_id and len(s.tax_id) == 11
                       else None, "cnpj": s.tax_id if s.tax_id and len(s.tax_id) == 14 else None},
        "emissor": s.issuer, "validade_certificado": {"inicio": _iso(s.not_before), "fim": _iso(s.not_after)},
        "data_declarada": _iso(s.claimed_time),
        "carimbo_do_tempo": None if ts is None else {"data": _iso(ts.time), "integro": ts.intact,
                                                     "confiavel": ts.trusted, "autoridade": ts.tsa},
        "integra": s.intact, "cadeia": s.chain.value, "cadeia_detalhe": s.chain_detail, "ancora": s.anchor,
        "certificado_valido_na_assinatura": s.valid_at_signing, "valida_pelo_carimbo_do_tempo": s.trusted_by_timestamp,
        "revogacao": s.revocation.value, "data_revogacao": _iso(s.revocation_date), "uso_de_chave_ok": s.key_usage_ok,
        "cobre_documento_inteiro": s.whole_file, "cobre_revisao_inteira": s.covers_revision, "revisao": s.revision,
        "revisoes": revisions, "alteracoes_posteriores": s.changes.value, "campos_alterados": list(s.changed_fields),
        "docmdp_ok": s.docmdp_ok, "linha": signature_line(s, total, revisions),
    }


def report_dict(report: SignaturesReport) -> dict[str, Any]:
    n = len(report.signatures)
    return {
        "quantidade": n, "revisoes": report.revisions, "valido": report.ok,
        "alterado_depois_da_ultima_assinatura": report.changed_after_last,
        "ancoras": [str(p) for p in report.trust.anchor_files], "lcr": [str(p) for p in report.trust.crl_files],
        "busca_na_rede": report.trust.fetch,
        "assinaturas": [signature_dict(s, n, report.revisions) for s in report.signatures],
    }


# --------------------------------------------------------------------------------------------------
# the whole conferir output


class Checked(Protocol):
    """A ledger or register verdict of ``conferir`` (:class:`autos.app.verification.conferir.LedgerVerification`,
    :class:`autos.app.register.service.RegisterVerification`)."""

    @property
    def linhas(self) -> list[str]: ...

    @property
    def exit_code(self) -> int: ...


def conferir_output(arquivo: Path | None, checked: Checked | None, kind: str | None,
                    section: SignatureSection | None, *, as_json: bool) -> tuple[str, int]:
    """Text (or JSON) and exit code of ``conferir``: the ledger/register verdict ``checked`` (``kind`` names it:
    livro, registro, processo) followed by the signature section. An unreadable PDF next to a ledger verdict is
    a line, not exit 2: the ledger already said whether the file is the published one."""
    code = checked.exit_code if checked is not None else EXIT_OK
    if section is not None and (checked is None or section.report is not None):
        code = max(code, section.exit_code)
    if as_json:
        doc: dict[str, Any] = {"arquivo": str(arquivo) if arquivo is not None else None, "saida": code}
        if checked is not None and kind is not None:
            doc[kind] = {"confere": checked.exit_code == EXIT_OK, "linhas": list(checked.linhas)}
        doc["assinaturas"] = section.to_dict() if section is not None else None
        return json.dumps(doc, ensure_ascii=False, indent=2), code
    lines = list(checked.linhas) if checked is not None else []
    if section is not None:
        lines += section.linhas
    return "\n".join(lines), code
