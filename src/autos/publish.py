"""Overnight edital publication (``autos publicar-editais``) and authenticity check (``autos conferir``).

A run, for one publication date:

1. finishes any edital a previous run reserved but did not publish (it was killed);
2. reads the case files (streamed, in parallel), keeps the autos de infração whose autuado must be
   notified by edital and has not been yet (:func:`classify`), validates each with the edital's dates,
   and lists every other case it had to refuse, with the reasons;
3. per law, in groups of at most ``max_por_edital`` cases, publishes an edital: reserve the number in
   the ledger → render into temporary files (consolidated edital, each case's individual edital in PDF
   and DOCX, the merged gazette file) → rename them into place → commit the hashes (one transaction);
4. writes the manifest of the date (JSON and CSV): every file with its SHA-256 and case, every case
   refused with its reasons.

Nothing a user typed is changed: each individual edital is rendered from an in-memory case derived
from the auto (``documento: edital_notificacao`` and the publication dates filled in).

The legal choices (which cases, Cuiabá's silent law, Timóteo's newspaper date, masking) are documented
in ``docs/runbook-editais.md`` and in :func:`classify`.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import gc
import hashlib
import io
import json
import os
import re
import signal
import sqlite3
import unicodedata
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from autos.app.pipeline import Autos
from autos.app.workers import watch_parent
from autos.base import ptbr
from autos.base.yamlio import read_limited
from autos.checks.finding import Report
from autos.compute.deadlines import Deadline
from autos.errors import AutosError, InputError, OutputError, RefusedError, os_error_pt
from autos.ledger import (
    DEFAULT_LEDGER_NAME,
    EditalRecord,
    FileRecord,
    Ledger,
    LedgerError,
    Match,
    PlannedCase,
    RunLock,
    case_key,
)
from autos.processo.case import Case, Edital, Lavratura, Notificacao, ReferenciaAuto
from autos.processo.load_case import LoadedCase, parse_case
from autos.rules.deadlines import LawDeadlines, NoticeFormRule
from autos.rules.statute import Statute
from autos.store.files import csv_cell

EXIT_OK = 0  #: every selected case published (or nothing to publish)
EXIT_REJECTED = 1  #: the batch ran to the end, but some cases were refused (listed in the manifest)
EXIT_ERROR = 2  #: stopped by an error; nothing of the failing edital is left (earlier editais stay published)

AUTO_KIND = "auto_de_infracao"
INDIVIDUAL_KIND = "edital_notificacao"
CONSOLIDATED_TEMPLATE = "edital_consolidado"

#: fault injection for tests and drills: ``ponto[:n[:parar]]`` (comma-separated) — the main process kills itself
#: (SIGKILL, its workers are left to notice) the n-th time it reaches ``ponto`` (reserva, renderizado, renomeado,
#: commit), or, with ``parar``, stops itself (SIGSTOP) there, for a drill to send the signal it wants; for
#: ``disco-cheio``, the n-th gazette file write fails with ENOSPC.
FAULT_ENV = "AUTOS_FALHA_PUBLICACAO"

FILE_LABELS = {
    "edital_consolidado": "edital consolidado (PDF)",
    "edital_individual_pdf": "edital individual (PDF)",
    "edital_individual_docx": "edital individual (DOCX)",
    "caderno": "caderno para o diário oficial (PDF unificado)",
}

# --------------------------------------------------------------------------------------------------
# verification codes and masking


_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U
_CODE_CHARS = "[0-9A-HJKMNP-TV-Z]"
CODE_RE = re.compile(rf"\b({_CODE_CHARS}{{4}}-{_CODE_CHARS}{{4}}-{_CODE_CHARS}{{4}})\b")
DOC_CODE_LABEL = "Código de verificação:"
GAZETTE_CODE_LABEL = "código do caderno:"


def verification_code(*parts: str) -> str:
    """A short code (60 bits, ``7KQ2-M9XA-3FDP``) naming one published file; deterministic, so a
    restarted run prints the same code. It identifies; the SHA-256 in the ledger authenticates."""
    digest = hashlib.sha256("\x1f".join(("autos-edital", *parts)).encode()).digest()
    n = int.from_bytes(digest[:8], "big") >> 4
    chars = []
    for _ in range(12):
        chars.append(_CODE_ALPHABET[n & 31])
        n >>= 5
    s = "".join(reversed(chars))
    return f"{s[:4]}-{s[4:8]}-{s[8:]}"


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


# --------------------------------------------------------------------------------------------------
# which cases (the legal rule)

#: Correios return reasons that mean the address is not where the person can be found
_UNKNOWN_ADDRESS_RETURNS = ("mudou", "desconhecid", "insuficiente", "inexistente", "nao existe", "incert",
                            "ignorad", "nao localizad")


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
        if any(k in _fold(motivo) for k in _UNKNOWN_ADDRESS_RETURNS):
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


# --------------------------------------------------------------------------------------------------
# worker side: everything a process reuses across documents


@dataclass(frozen=True)
class RunParams:
    """What every task needs to know about the run (picklable)."""

    data: date
    data_jornal: date  # used only where the law requires the newspaper
    rules_dir: str | None
    templates_dir: str | None
    today: date | None
    veiculos: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", official press)
    jornais: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", local newspaper)
    emissao: date | None = None  # the day the editais are issued (the run's today; the ledger's on recovery)

    def publication(self, statute: Statute, rule: NoticeFormRule, numero: str) -> Publication:
        """The run's publication for one law: one vehicle per edital (never taken from a single case)."""
        municipio_dir = statute.id.split("/", 1)[0]
        lei = statute.lei
        veiculo = _pick(self.veiculos, municipio_dir) or default_veiculo(lei.municipio)
        jornal = (_pick(self.jornais, municipio_dir) or DEFAULT_JORNAL) if needs_newspaper(rule) else None
        data_jornal = self.data_jornal if needs_newspaper(rule) else None
        return Publication(self.data, data_jornal, veiculo, jornal, f"{lei.municipio}/{lei.uf}", numero,
                           edital_date(self.emissao or self.today or date.today(), self.data, data_jornal))


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


@dataclass
class Prepared:
    """One case file after selection and validation (sent back from a worker)."""

    arquivo: str
    estado: str  # 'candidato' | 'recusado' | 'sem_edital' | 'publicado_no_caso' | 'ignorado'
    lei: str | None = None
    caso: str | None = None
    auto_numero: str | None = None
    sha256: str = ""
    texto: str = ""
    linha: dict[str, Any] | None = None
    motivos: list[str] = field(default_factory=list)
    motivo: str = ""  # why edital (candidates)


class _Engine:
    """Rules and templates of one process, built once and reused for every document (the PDF renderer keeps
    its font configuration and parsed stylesheet, the DOCX renderer its prepared templates)."""

    def __init__(self, rules_dir: str | None, templates_dir: str | None, today: date | None) -> None:
        self.autos = Autos(rules_dir, templates_dir, today)

    def law(self, statute: Statute) -> LawDeadlines:
        return self.autos.deadline_service.law(statute)

    def context(self, loaded: LoadedCase, *, now: datetime | None = None) -> tuple[Report, str, dict[str, Any]]:
        """Validate and build the document context (as ``Autos.generate`` does); refuse a case with erros."""
        report = self.autos.check(loaded)
        if report.errors:
            raise RefusedError("; ".join(_finding_text(f) for f in report.errors), file=loaded.file)
        doc = self.autos.document_context(loaded, now=now, report=report)
        return report, doc.template, doc.context

    def pdf(self, html: str) -> bytes:
        return self.autos.pdf_renderer.pdf_from_html(html)

    def docx(self, template: str, ctx: dict[str, Any]) -> bytes:
        return self.autos.docx_renderer.docx(template, ctx)


def with_code(ctx: dict[str, Any], codigo: str) -> dict[str, Any]:
    """The context with the verification code at the end of the footer line (``rodape``, printed on every
    page of the PDF and in the DOCX footer by the templates)."""
    return {**ctx, "rodape": f"{ctx['rodape']} — {DOC_CODE_LABEL} {codigo}"}


def _finding_text(f: Any) -> str:
    where = f" (linha {f.linha})" if getattr(f, "linha", None) else ""
    cite = f" ({f.citacao})" if getattr(f, "citacao", None) else ""
    return f"{f.codigo}: {f.mensagem}{cite}{where}"


_ENGINE: _Engine | None = None

# A WeasyPrint document allocates hundreds of thousands of objects (boxes, styles), a few in reference cycles.
# With the default threshold (700) the young generation is collected hundreds of times per document. Freezing
# the start-up heap (rules, templates, fonts, WeasyPrint itself: never garbage) and collecting the young
# generation less often saves 2-5% of the CPU of a document on this machine (close to its noise). The older
# generations keep their defaults: 120 editais rendered in one process peak at 119 MB with these settings as
# with the defaults, and at 134 MB with rarer old-generation passes (20000, 50, 100).
_GC_THRESHOLDS = (20_000, 10, 10)


def _tune_gc() -> tuple[int, ...]:
    """Freeze what this process holds now and apply the thresholds above; returns the previous thresholds."""
    saved = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)
    return saved


@contextlib.contextmanager
def _tuned_gc() -> Iterator[None]:
    """The collector settings above for the duration of a run in this process, restored afterwards."""
    saved = _tune_gc()
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()


def _init_worker(rules_dir: str | None, templates_dir: str | None, today: date | None) -> None:
    global _ENGINE
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means (Ctrl-C)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (inherited by fork): stop now
    watch_parent(EXIT_ERROR)
    _ENGINE = _Engine(rules_dir, templates_dir, today)
    _tune_gc()  # a worker lives for one run: its start-up heap is never garbage


def _engine() -> _Engine:
    assert _ENGINE is not None, "worker not initialised"
    return _ENGINE


def _prepare_many(paths: list[str], params: RunParams) -> list[Prepared]:
    return [_prepare_one(p, params) for p in paths]


def _prepare_one(path: str, params: RunParams) -> Prepared:
    try:  # the same bounds as every YAML the project reads: regular files of at most 1 MiB (a pipe never hangs)
        raw = read_limited(path)
    except AutosError as exc:
        return Prepared(path, "recusado", motivos=[exc.message])
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Prepared(path, "recusado", sha256=sha, motivos=["o arquivo não está em UTF-8"])
    return _prepare_text(path, text, sha, params, numero=f"1/{params.data.year}")


def case_failure(exc: BaseException, stage: str) -> str:
    """Why one case could not be used, in Portuguese, for an error that is not an :class:`AutosError` (a case
    that crashes a library, or a defect): the case is refused with this reason and the run goes on."""
    import decimal

    detail = f"{type(exc).__name__}: {exc}"[:300]
    if isinstance(exc, RecursionError):
        why = ("o arquivo tem listas ou mapas aninhados em centenas de níveis, profundidade que um caso não tem; "
               "confira a indentação e os colchetes")
    elif isinstance(exc, (OverflowError, decimal.DecimalException)) or (
            isinstance(exc, ValueError) and "integer string conversion" in str(exc)):
        why = ("um número do caso é grande demais (ou inválido) para ser calculado; confira valores e quantidades "
               "(p. ex. valor_base, quantidade)")
    elif isinstance(exc, MemoryError):
        why = "o caso é grande demais para a memória disponível"
    else:
        why = "erro interno ao tratar este caso; os demais casos seguiram — guarde o arquivo e chame o suporte"
    return f"não foi possível {stage}: {why} ({detail})"


def _prepare_text(path: str, text: str, sha: str, params: RunParams, *, numero: str) -> Prepared:
    """Select and validate one case (``numero``: the edital's number, a placeholder before reservation).

    The boundary of one case: any failure (an :class:`AutosError`, or an unexpected exception such as
    ``RecursionError``, ``OverflowError``, a decimal error, a library's ``ValueError``) refuses this case
    with its reason and never stops the run."""
    try:
        return _prepare_checked(path, text, sha, params, numero=numero)
    except AutosError as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[exc.render()])
    except Exception as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[case_failure(exc, "ler e validar o caso")])


def _prepare_checked(path: str, text: str, sha: str, params: RunParams, *, numero: str) -> Prepared:
    eng = _engine()
    try:
        loaded = parse_case(text, path)
    except AutosError as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[exc.render()])
    case = loaded.case
    if case.documento != AUTO_KIND:
        return Prepared(path, "ignorado", lei=case.lei, sha256=sha)
    out = Prepared(path, "recusado", lei=case.lei, sha256=sha, texto=text, auto_numero=case.numero,
                   caso=case_key(case.lei, case.numero) if case.numero else None)
    try:
        statute = eng.autos.statute_of(loaded)
        law = eng.law(statute)
    except AutosError as exc:
        out.motivos = [exc.render()]
        return out
    decision = classify(case, law, address_typed=loaded.doc.line_of(("autuado", "endereco_desconhecido"))
                        != loaded.doc.line_of(("autuado",)))
    if decision.estado != "candidato":
        out.estado = decision.estado
        out.motivos = list(decision.problemas)
        return out
    if INDIVIDUAL_KIND not in statute.documentos:
        out.motivos = [f"a {law.citacao} admite a notificação por edital ({law.notificacao.base_legal}), mas as "
                       f"regras de documentos da lei não definem o edital individual ({INDIVIDUAL_KIND}); sem "
                       "ele o edital não é publicado — acrescente o documento às regras da lei"]
        return out
    if not case.numero:
        out.motivos = ["o auto não tem número (campo 'numero'); o edital precisa citá-lo"]
        return out
    out.motivo = decision.motivo
    try:
        out.linha = _row(eng, loaded, statute, law, params, numero)
    except RefusedError as exc:
        out.motivos = [f"com a notificação por edital publicada em {ptbr.format_date(params.data)}, {exc.message}"]
        return out
    except AutosError as exc:
        out.motivos = [exc.render()]
        return out
    out.estado = "candidato"
    return out


def _row(eng: _Engine, loaded: LoadedCase, statute: Statute, law: LawDeadlines, params: RunParams,
         numero: str) -> dict[str, Any]:
    """The case's entry in the consolidated edital: what its individual edital publishes (so the two
    always agree), after validating the auto and the individual edital with the publication's dates."""
    rule = edital_rule(law)
    assert rule is not None
    pub = params.publication(statute, rule, numero)
    auto = derive(loaded, AUTO_KIND, pub)
    errors = eng.autos.check(auto).errors  # the auto itself is not rendered here: validating it is enough
    if errors:
        raise RefusedError("o auto de infração tem pendências: " + "; ".join(_finding_text(f) for f in errors),
                           file=loaded.file)
    individual = derive(loaded, INDIVIDUAL_KIND, pub)
    try:
        _report, template, ctx = eng.context(individual)
    except RefusedError as exc:
        raise RefusedError(f"o edital individual teria pendências: {exc.message}", file=loaded.file) from None
    eng.autos.pdf_renderer.html(template, ctx)  # a template error shows now, not after the reservation
    notice = eng.autos.deadlines(individual).notice
    assert notice is not None
    ed = ctx["edital"]
    return {
        "nome": ed["notificado"]["nome"],
        "documento_rotulo": ed["notificado"]["documento_rotulo"],
        "documento": ed["notificado"]["documento"],
        "auto": ctx["auto_ref"]["numero"],
        "auto_data": ctx["auto_ref"]["data"],
        "processo": ctx["documento"]["processo"],
        "infracoes": ed["infracoes"],
        "multa_unidades": ed["multa"]["unidades"] if ed["multa"] else "",
        "multa_reais": ed["multa"]["reais"] if ed["multa"] else "",
        "notificacao_em": ed["data_notificacao"],
        "prazos": [{"descricao": d["descricao"], "prazo": d["prazo"], "data": d["data"] or "",
                    "base_legal": d["base_legal"]} for d in ctx["prazos"]],
        "exemplo_aviso": ctx["exemplo_aviso"],
        "efeito": _effect_text(notice),
    }


def _effect_text(notice: Deadline) -> str:
    if notice.tipo == "imediata":
        return f"{notice.descricao}: efeito na própria data da publicação ({notice.base_legal})."
    text = f"{notice.descricao}: {notice.prazo_texto()} contados da {notice.conta_de}"
    if notice.prorrogado:
        assert notice.fim_sem_prorrogacao is not None
        text += (f"; o prazo terminaria em {ptbr.format_date(notice.fim_sem_prorrogacao)}, dia sem expediente, "
                 "e foi prorrogado para o primeiro dia útil seguinte")
    return text + f" ({notice.base_legal})."


# --- rendering tasks -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseJob:
    """Render one case's individual edital (PDF and DOCX) into two temporary files."""

    caso: str
    arquivo: str
    texto: str
    codigo: str
    pdf_tmp: str
    docx_tmp: str


@dataclass(frozen=True)
class Written:
    tmp: str
    sha256: str
    bytes: int


@dataclass(frozen=True)
class Failed:
    """A case whose individual edital could not be rendered: it is refused, and its edital planned again
    without it."""

    caso: str
    arquivo: str
    motivo: str


def _render_cases(jobs: list[CaseJob], params: RunParams, numero: str, now: datetime) -> list[Written | Failed]:
    eng = _engine()
    out: list[Written | Failed] = []
    for job in jobs:
        try:
            pdf, docx = _render_case(eng, job, params, numero, now)
        except OutputError:
            raise  # the run's problem (disk full, folder): not this case's
        except AutosError as exc:
            out.append(Failed(job.caso, job.arquivo, f"o edital individual não pôde ser gerado: {exc.render()}"))
            continue
        except Exception as exc:  # a library crashing on this case's data (e.g. a control character)
            out.append(Failed(job.caso, job.arquivo, case_failure(exc, "gerar o edital individual do caso")))
            continue
        out.append(_write_tmp(Path(job.pdf_tmp), pdf))
        out.append(_write_tmp(Path(job.docx_tmp), docx))
    return out


def _render_case(eng: _Engine, job: CaseJob, params: RunParams, numero: str, now: datetime) -> tuple[bytes, bytes]:
    loaded = parse_case(job.texto, job.arquivo)
    statute = eng.autos.statute_of(loaded)
    rule = edital_rule(eng.law(statute))
    assert rule is not None
    individual = derive(loaded, INDIVIDUAL_KIND, params.publication(statute, rule, numero))
    _report, template, ctx = eng.context(individual, now=now)
    ctx = with_code(ctx, job.codigo)
    html = eng.autos.pdf_renderer.html(template, ctx)
    return eng.pdf(html), eng.docx(template, ctx)


def _render_consolidated(ctx: dict[str, Any], codigo: str, tmp: str) -> Written:
    eng = _engine()
    html = eng.autos.pdf_renderer.html(CONSOLIDATED_TEMPLATE, with_code(ctx, codigo))
    return _write_tmp(Path(tmp), eng.pdf(html))


def _write_tmp(path: Path, data: bytes) -> Written:
    """Write a temporary file completely (fsync) or raise :class:`OutputError`."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        raise _output_error(exc, path) from None
    return Written(str(path), hashlib.sha256(data).hexdigest(), len(data))


def _output_error(exc: OSError, path: Path) -> OutputError:
    return OutputError(f"não foi possível gravar o arquivo ({os_error_pt(exc)}).", file=path,
                       hint="libere espaço ou corrija a permissão da pasta de saída e rode de novo; o livro ficou "
                       "como estava antes deste edital (veja docs/runbook-editais.md).")


# --------------------------------------------------------------------------------------------------
# the gazette file (pypdf): merge, outline, continuous folio numbers, its own verification code


class GazetteBuilder:
    """The gazette (pypdf), built part by part as the documents arrive: merge in order with one bookmark each;
    at the end stamp every page with ``folio(i, n)`` (continuous numbering of the merged document, 1-based)."""

    def __init__(self) -> None:
        from pypdf import PdfWriter

        self.writer = PdfWriter()

    def add(self, title: str, path: Path) -> None:
        from pypdf import PdfReader

        start = len(self.writer.pages)
        self.writer.append(PdfReader(path), import_outline=False)
        self.writer.add_outline_item(title=title, page_number=start)

    def finish(self, folio: Callable[[int, int], str], metadata: dict[str, str]) -> bytes:
        total = len(self.writer.pages)
        _stamp(self.writer, [folio(i + 1, total) for i in range(total)])
        self.writer.add_metadata(metadata)
        buf = io.BytesIO()
        self.writer.write(buf)
        return buf.getvalue()


def _pdf_string(text: str) -> bytes:
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _stamp(writer: Any, texts: list[str]) -> None:
    """Draw one line of text at the top edge of each page, above the running header (Helvetica, WinAnsi),
    after the page's own content."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"), NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
    })
    font_ref = writer._add_object(font)
    push = DecodedStreamObject()
    push.set_data(b"q\n")
    push_ref = writer._add_object(push)
    for page, text in zip(writer.pages, texts, strict=True):
        resources = page.get("/Resources")
        if resources is None:
            resources = DictionaryObject()
            page[NameObject("/Resources")] = resources
        resources = resources.get_object()
        fonts = resources.get("/Font")
        if fonts is None:
            fonts = DictionaryObject()
            resources[NameObject("/Font")] = fonts
        fonts.get_object()[NameObject("/FAutosCaderno")] = font_ref
        box = page.mediabox
        x, y = float(box.left) + 62.36, float(box.top) - 17.0  # 22 mm from the left, 6 mm from the top
        ops = (b"\nQ q BT /FAutosCaderno 6.5 Tf 0.2 g " + f"{x:.2f} {y:.2f} Td ".encode() + _pdf_string(text)
               + b" Tj ET Q\n")
        stamp = DecodedStreamObject()
        stamp.set_data(ops)
        contents = page.raw_get("/Contents") if "/Contents" in page else None
        arr = ArrayObject([push_ref])
        if isinstance(contents, ArrayObject):
            arr.extend(contents)
        elif contents is not None:
            arr.append(contents)
        arr.append(writer._add_object(stamp))
        page[NameObject("/Contents")] = arr


# --------------------------------------------------------------------------------------------------
# the run


@dataclass(frozen=True)
class Options:
    casos: Path
    data: date
    saida: Path
    data_jornal: date | None = None  # None: the same date as ``data``
    veiculos: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", official press)
    jornais: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", local newspaper)
    livro: Path | None = None  # None: <saida>/livro-editais.sqlite3
    dry_run: bool = False
    workers: int | None = None  # None: every core; 1: in this process
    max_por_edital: int = 250
    lote: int = 8  # cases per rendering task
    rules_dir: Path | None = None
    templates_dir: Path | None = None
    today: date | None = None

    @property
    def ledger_path(self) -> Path:
        return self.livro if self.livro is not None else self.saida / DEFAULT_LEDGER_NAME


@dataclass
class CaseProblem:
    arquivo: str
    caso: str | None
    motivos: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"arquivo": self.arquivo, "caso": self.caso, "motivos": self.motivos}


@dataclass
class PlannedEdital:
    """A dry run's edital: the number it would take and its cases."""

    lei: str
    numero: int
    ano: int
    casos: list[Prepared]


@dataclass(frozen=True)
class Published:
    """An edital this run published; its cases and files are in the ledger (``Ledger.edital(id)``)."""

    id: int
    lei: str
    numero: int
    ano: int
    data_edital: date
    casos: int
    caderno: Path

    @property
    def rotulo(self) -> str:
        return f"Nº {self.numero}/{self.ano}"


@dataclass
class PublishResult:
    data: date
    publicados: list[Published] = field(default_factory=list)  # published by this run (recovered ones too)
    recuperados: list[int] = field(default_factory=list)  # ids of editais finished after a stopped run
    recusados: list[CaseProblem] = field(default_factory=list)
    ja_publicados: list[CaseProblem] = field(default_factory=list)
    planejados: list[PlannedEdital] = field(default_factory=list)
    sem_edital: int = 0
    ignorados: int = 0
    lidos: int = 0
    manifesto: list[Path] = field(default_factory=list)
    erro: AutosError | None = None

    @property
    def exit_code(self) -> int:
        if self.erro is not None:
            return EXIT_ERROR
        return EXIT_REJECTED if self.recusados else EXIT_OK


class _Inline(Executor):
    """Runs tasks in this process (``workers=1``): same code path, no child processes."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            fut.set_exception(exc)
        return fut


class _Faults:
    def __init__(self) -> None:
        self.at: dict[str, int] = {}
        self.stop: set[str] = set()
        self.seen: dict[str, int] = {}
        for item in filter(None, (s.strip() for s in os.environ.get(FAULT_ENV, "").split(","))):
            point, _, rest = item.partition(":")
            n, _, action = rest.partition(":")
            self.at[point] = int(n or 1)
            if action == "parar":
                self.stop.add(point)

    def hit(self, point: str) -> None:
        if point not in self.at:
            return
        self.seen[point] = self.seen.get(point, 0) + 1
        if self.seen[point] != self.at[point]:
            return
        if point == "disco-cheio":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if point in self.stop:
            os.kill(os.getpid(), signal.SIGSTOP)  # the drill sends its signal, then SIGCONT
            return
        os.kill(os.getpid(), signal.SIGKILL)  # pragma: no cover - the process ends here


def _slug(lei: str) -> str:
    return lei.replace("/", "-")


def _auto_slug(numero: str) -> str:
    num, year = numero.split("/")
    return f"{year}-{int(num):04d}"


@dataclass
class _Group:
    lei: str
    items: list[Prepared] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)  # case → file, to refuse a second file of the same auto


@dataclass
class _Pending:
    """An edital between reservation and commit: its documents are being rendered by the workers."""

    rec: EditalRecord
    group: _Group
    statute: Statute
    rule: NoticeFormRule
    params: RunParams
    folder: Path
    files: dict[str, FileRecord]
    tmp_of: dict[str, Path]
    fresh: bool  # reserved by this run (undone on failure), not a recovered one
    futures: set[Future[Any]] = field(default_factory=set)
    renamed: list[Path] = field(default_factory=list)

    def file(self, tipo: str) -> FileRecord:
        return next(f for f in self.files.values() if f.tipo == tipo)

    def individual(self, caso: str, tipo: str) -> FileRecord:
        return next(f for f in self.files.values() if f.caso == caso and f.tipo == tipo)


class _CasesFailed(Exception):
    """Some cases of an edital could not be rendered (:class:`Failed`); not an error of the run."""

    def __init__(self, cases: list[Failed]) -> None:
        super().__init__(", ".join(f.caso for f in cases))
        self.cases = cases


def _kill_workers(pool: Executor | None) -> bool:
    """Kill the rendering processes of ``pool`` now and wait for them to be gone (a stopping run does not wait
    for the documents it will throw away); the pool then reports itself broken and shuts down at once. The
    pool's process table is the only handle before Python 3.14 (``kill_workers``). ``False`` if there is no
    process pool (``--processos 1``)."""
    if not isinstance(pool, ProcessPoolExecutor):
        return False
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(5)
    pool._autos_killed = True  # type: ignore[attr-defined]  # read by Publisher._executor
    return True


class Publisher:
    """One ``publicar-editais`` run. ``log`` receives Portuguese lines; ``advance`` the cases read."""

    def __init__(self, options: Options, *, log: Callable[[str], None] = lambda _m: None,
                 advance: Callable[[int], None] = lambda _n: None,
                 start: Callable[[int], None] = lambda _n: None) -> None:
        self.o = options
        self.log = log
        self.advance = advance
        self.start = start
        self.faults = _Faults()
        self.result = PublishResult(data=options.data)
        self.data_jornal = options.data_jornal or options.data
        self.params = RunParams(options.data, self.data_jornal,
                                str(options.rules_dir) if options.rules_dir else None,
                                str(options.templates_dir) if options.templates_dir else None, options.today,
                                options.veiculos, options.jornais, options.today or date.today())
        self.autos = Autos(options.rules_dir, options.templates_dir, options.today)
        self.saida = options.saida.resolve() if not options.dry_run else options.saida.absolute()
        self._pool: Executor | None = None
        self._open: _Pending | None = None  # at most one edital rendering while the previous one finishes

    # --- entry point -----------------------------------------------------------------------------
    def run(self) -> PublishResult:
        """Publish (or, in a dry run, plan); errors end up in ``result.erro``, never raised."""
        try:
            if not self.o.dry_run:
                _ensure_writable(self.saida)  # before the ledger is touched
            ledger = Ledger(self.o.ledger_path, readonly=self.o.dry_run)
        except AutosError as exc:
            self.result.erro = exc
            return self.result
        folder_lock: RunLock | None = None
        try:
            if not self.o.dry_run:
                ledger.lock()
                folder_lock = _lock_folder(self.saida)
            _claim_folder(self.saida, self.o.ledger_path, write=not self.o.dry_run)
        except AutosError as exc:
            ledger.close()
            if folder_lock is not None:
                folder_lock.release()
            self.result.erro = exc
            return self.result
        stopping: list[bool] = []
        restore = _terminate_as_interrupt(stopping)
        try:
            with self._executor() as pool:
                self._pool = pool
                self._recover(ledger)
                self._select_and_publish(ledger)
        except AutosError as exc:
            self.result.erro = exc
        except (KeyboardInterrupt, BrokenProcessPool) as exc:
            if isinstance(exc, BrokenProcessPool) and not stopping:  # a worker died, nobody stopped the run
                self.result.erro = AutosError("um processo de renderização terminou inesperadamente (falta de "
                                              "memória?); o edital em curso foi desfeito e os anteriores ficaram "
                                              "publicados.",
                                              hint="confira a memória livre (ou use --processos 1) e rode de novo.")
            else:  # Ctrl-C, or SIGTERM (to the main process, or to the group: the workers die first)
                self.result.erro = AutosError("publicação interrompida; o edital em curso foi desfeito e os "
                                              "anteriores ficaram publicados.", hint="rode de novo para continuar.")
        except Exception as exc:  # a bug: the edital in progress was undone; say so, with the details
            import traceback

            self.log("".join(traceback.format_exception(exc)).rstrip())
            self.result.erro = AutosError(f"erro inesperado ({type(exc).__name__}: {exc}); o edital em curso foi "
                                          "desfeito e os anteriores ficaram publicados.",
                                          hint="guarde o log e o livro e chame o suporte.")
        finally:
            restore()
            self._pool = None
            try:
                if not self.o.dry_run:
                    self._write_manifest(ledger)
            finally:
                ledger.close()
                if folder_lock is not None:
                    folder_lock.release()
        return self.result

    @contextlib.contextmanager
    def _executor(self) -> Iterator[Executor]:
        workers = self.o.workers or os.cpu_count() or 1
        args = (self.params.rules_dir, self.params.templates_dir, self.params.today)
        if workers <= 1:
            global _ENGINE
            saved = _ENGINE
            _ENGINE = _Engine(*args)
            try:
                with _tuned_gc():  # this process renders: tune as a worker, restore at the end
                    yield _Inline()
            finally:
                _ENGINE = saved
            return
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=args)
        try:
            yield pool
        finally:
            # after _kill_workers the pool fails every pending task itself; cancelling them too would trip its
            # management thread (InvalidStateError on a cancelled future, Python 3.11)
            pool.shutdown(wait=True, cancel_futures=not getattr(pool, "_autos_killed", False))

    @property
    def pool(self) -> Executor:
        assert self._pool is not None
        return self._pool

    # --- recovery --------------------------------------------------------------------------------
    def _recover(self, ledger: Ledger) -> None:
        for rec in ledger.pending():
            if self.o.dry_run:
                self.log(f"edital {rec.rotulo} ({rec.lei}) está reservado e não foi concluído; a próxima execução "
                         "o concluirá.")
                continue
            self.log(f"concluindo o edital {rec.rotulo} ({rec.lei}), reservado em "
                     f"{rec.reservado_em:%d/%m/%Y %H:%M} por uma execução que parou.")
            items: list[Prepared] = []
            municipio_dir = rec.lei.split("/", 1)[0]
            params = RunParams(rec.data_publicacao, rec.data_jornal or rec.data_publicacao, *self._param_dirs(),
                               veiculos=((municipio_dir, rec.veiculo),),
                               jornais=((municipio_dir, rec.jornal),) if rec.jornal else (), emissao=rec.data_edital)
            problems: list[str] = []
            numero = f"{rec.numero}/{rec.ano}"
            for c in rec.casos:
                p = self.pool.submit(_prepare_from_text, c.arquivo, c.texto_caso, c.sha256_caso, params,
                                     numero).result()
                if p.estado != "candidato":
                    problems.append(f"{c.arquivo}: {'; '.join(p.motivos) or p.estado}")
                items.append(p)
            if problems:
                self._abandon(ledger, rec, problems)
                continue
            try:
                published = self._publish(ledger, _Group(rec.lei, items), rec, params)
            except _CasesFailed as failed:
                self._abandon(ledger, rec, [f"{f.arquivo}: {f.motivo}" for f in failed.cases])
                continue
            self.result.recuperados.append(published.id)

    def _param_dirs(self) -> tuple[str | None, str | None, date | None]:
        return self.params.rules_dir, self.params.templates_dir, self.params.today

    def _abandon(self, ledger: Ledger, rec: EditalRecord, problems: list[str]) -> None:
        """A reserved edital whose cases no longer validate (rules changed): remove it, if it is the last number."""
        for f in rec.arquivos:
            with contextlib.suppress(FileNotFoundError):
                (rec.saida / f.caminho).unlink()
        ledger.undo(rec.id)
        self.log(f"reserva do edital {rec.rotulo} ({rec.lei}) desfeita, porque os casos não puderam ser "
                 f"publicados como planejado: {' | '.join(problems)}. Os casos voltam à fila.")

    # --- selection -------------------------------------------------------------------------------
    def _select_and_publish(self, ledger: Ledger) -> None:
        try:
            self._select_and_publish_all(ledger)
        except BaseException:
            _kill_workers(self._pool)  # the run stops: nothing the workers are doing is needed any more
            if self._open is not None:  # an edital still rendering when the run stops leaves no trace
                pending, self._open = self._open, None
                self._abort(ledger, pending)
            raise

    def _select_and_publish_all(self, ledger: Ledger) -> None:
        root = self.o.casos
        if not root.exists():
            raise InputError("pasta de casos não encontrada.", file=root, hint="confira o caminho informado.")
        from autos.base.yamlio import iter_yaml_files

        files = [str(p) for p in (iter_yaml_files(root) if root.is_dir() else [root])]
        self.log(f"{len(files)} arquivo(s) de caso em {root}; publicação de {ptbr.format_date(self.o.data)}.")
        self.start(len(files))
        groups: dict[str, _Group] = {}
        chunk = 8
        window = 4 * max(1, self.o.workers or os.cpu_count() or 1)
        pending: deque[Future[list[Prepared]]] = deque()
        batches = (files[i:i + chunk] for i in range(0, len(files), chunk))
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < window:
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                pending.append(self.pool.submit(_prepare_many, batch, self.params))
            if not pending:
                break
            for prepared in pending.popleft().result():
                self.result.lidos += 1
                self.advance(1)
                group = self._triage(ledger, prepared, groups)
                if group is not None and len(group.items) >= self.o.max_por_edital:
                    self._flush(ledger, group)
                    del groups[group.lei]
        for lei in sorted(groups):
            self._flush(ledger, groups[lei])
        while self._open is not None:  # (a re-planned edital opens again)
            self._close(ledger, self._open)

    def _triage(self, ledger: Ledger, p: Prepared, groups: dict[str, _Group]) -> _Group | None:
        if p.estado == "ignorado":
            self.result.ignorados += 1
            return None
        if p.estado in ("sem_edital", "publicado_no_caso"):
            self.result.sem_edital += 1
            return None
        if p.caso is not None and p.estado == "candidato" and p.lei is not None:
            forming = groups.get(p.lei)
            other = forming.keys.get(p.caso) if forming is not None else None
            if other is not None:
                self._duplicate(p, other)
            else:
                found = ledger.case_edital(p.caso)
                if found is not None:
                    self._already(found[0], found[1], p)
                    return None
        if p.estado == "recusado":
            self.result.recusados.append(CaseProblem(p.arquivo, p.caso, p.motivos))  # listed in the summary
            return None
        assert p.caso is not None and p.lei is not None
        group = groups.setdefault(p.lei, _Group(p.lei))
        group.items.append(p)
        group.keys[p.caso] = p.arquivo
        return group

    @staticmethod
    def _duplicate(p: Prepared, other: str) -> None:
        p.estado = "recusado"
        p.motivos = [f"o auto {p.auto_numero} ({p.lei}) também está no arquivo {other}; só um arquivo por auto é "
                     "publicado — remova o arquivo repetido"]

    def _already(self, ed: EditalRecord, planned: PlannedCase, p: Prepared) -> None:
        """A case the ledger already has. Its file may have moved since (same case, the old path is gone); a
        second file of the same auto while the first is still there is refused, as in a single run."""
        if planned.arquivo != p.arquivo and Path(planned.arquivo).exists():
            self._duplicate(p, planned.arquivo)  # same words as in the run that published it: same manifest
            self.result.recusados.append(CaseProblem(p.arquivo, p.caso, p.motivos))
            return
        same = ed.data_publicacao == self.o.data and ed.estado == "publicado"
        changed = planned.sha256_caso != p.sha256
        if same and not changed:
            return  # published by an earlier run of this same date: already in the date's manifest
        what = "publicado" if ed.estado == "publicado" else "reservado"
        msg = (f"auto {p.auto_numero} já {what} no edital {ed.rotulo} de "
               f"{ptbr.format_date(ed.data_publicacao)}; não é publicado de novo")
        if changed:
            msg += (" (o arquivo do caso mudou depois da publicação: se a alteração exige nova publicação, a "
                    "decisão é da autoridade — veja o runbook)")
        self.result.ja_publicados.append(CaseProblem(p.arquivo, p.caso, [msg]))  # listed in the summary

    # --- one edital ------------------------------------------------------------------------------
    def _flush(self, ledger: Ledger, group: _Group) -> None:
        if not group.items:
            return
        if self.o.dry_run:
            ano = self.o.data.year
            numero = ledger.next_number(group.lei, ano) + sum(
                1 for e in self.result.planejados if e.lei == group.lei and e.ano == ano)
            self.result.planejados.append(PlannedEdital(group.lei, numero, ano, list(group.items)))
            self.log(f"seria publicado: edital Nº {numero}/{ano} ({group.lei}) com {len(group.items)} caso(s): "
                     + ", ".join(f"auto {p.auto_numero}" for p in group.items))
            return
        new = self._begin(ledger, group, None, self.params)
        previous, self._open = self._open, new
        if previous is not None:  # the previous edital finishes while the workers render this one
            self._close(ledger, previous)

    def _close(self, ledger: Ledger, pending: _Pending) -> None:
        try:
            self._complete(ledger, pending)
        except _CasesFailed as failed:
            self._replan(ledger, pending, failed)
            return
        except BaseException:
            newer, self._open = self._open, None
            if newer is not None and newer is not pending:
                self._abort(ledger, newer)  # the later number goes first: no gap in the series
            self._abort(ledger, pending)
            raise
        if self._open is pending:
            self._open = None

    def _replan(self, ledger: Ledger, pending: _Pending, failed: _CasesFailed) -> None:
        """Some cases of ``pending`` could not be rendered: undo its reservation (and that of the edital rendering
        after it: the later number first), refuse those cases, and reserve both again without them — the same
        numbers, no gap. The run goes on."""
        newer, self._open = self._open, None
        if newer is pending:
            newer = None
        if newer is not None:
            self._abort(ledger, newer, kill=False, strict=True)
        self._abort(ledger, pending, kill=False, strict=True)
        bad = {f.caso: f for f in failed.cases}
        for f in failed.cases:
            self.result.recusados.append(CaseProblem(f.arquivo, f.caso, [f.motivo]))
            self.log(f"recusado: {f.arquivo}: {f.motivo}")
        for group in (pending.group, newer.group if newer is not None else None):
            if group is None:
                continue
            group.items = [p for p in group.items if p.caso not in bad]
            for caso in bad:
                group.keys.pop(caso, None)
            self._flush(ledger, group)

    def _publish(self, ledger: Ledger, group: _Group, rec: EditalRecord | None, params: RunParams) -> Published:
        """One edital from start to end (recovery): reserve unless finishing ``rec`` → render → rename → commit."""
        pending = self._begin(ledger, group, rec, params)
        try:
            return self._complete(ledger, pending)
        except _CasesFailed:
            self._abort(ledger, pending, kill=False)
            raise
        except BaseException:
            self._abort(ledger, pending)
            raise

    def _begin(self, ledger: Ledger, group: _Group, rec: EditalRecord | None, params: RunParams) -> _Pending:
        """Reserve the number (unless finishing ``rec``) and hand every document of the edital to the workers."""
        statute = self.autos.rules.get(group.lei)
        rule = edital_rule(self.autos.deadline_service.law(statute))
        assert rule is not None
        data_jornal = params.data_jornal if needs_newspaper(rule) else None
        municipio_dir, lei_stem = group.lei.split("/", 1)
        fresh = rec is None
        if rec is None:
            casos = [PlannedCase(i + 1, p.caso or "", p.auto_numero or "", p.arquivo, p.sha256, p.texto, p.motivo)
                     for i, p in enumerate(group.items)]
            pub = params.publication(statute, rule, "")
            if pub.veiculo == default_veiculo(statute.lei.municipio) or pub.jornal == DEFAULT_JORNAL:
                self.log(f"aviso: {group.lei}: sem --veiculo/--jornal para {municipio_dir}; o edital diz "
                         f"'{pub.veiculo}'" + (f" e '{pub.jornal}'" if pub.jornal else "") + ".")
            rec = ledger.reserve(group.lei, params.data, data_jornal, pub.data_edital, pub.veiculo, pub.jornal,
                                 self.saida, casos, lambda numero: self._plan_files(group, numero, params.data.year))
        folder = rec.saida / municipio_dir / lei_stem / str(rec.ano) / f"edital-{rec.numero:04d}"
        files = {f.caminho: f for f in rec.arquivos}
        pending = _Pending(rec, group, statute, rule, params, folder, files,
                           {c: folder / f".{Path(c).name}.tmp" for c in files}, fresh)
        try:  # from here on, any failure or interrupt undoes the reservation
            if fresh:
                self.faults.hit("reserva")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _output_error(exc, folder) from None
            for stale in folder.glob(".*.tmp"):
                stale.unlink()
            self._submit(pending)
        except BaseException:
            self._abort(ledger, pending)
            raise
        return pending

    def _submit(self, pending: _Pending) -> None:
        rec, group, tmp_of = pending.rec, pending.group, pending.tmp_of
        consolidated = pending.file("edital_consolidado")
        assert consolidated.codigo is not None
        ctx = self._consolidated_context(rec, group, pending.statute, pending.rule)
        pending.futures.add(self.pool.submit(_render_consolidated, ctx, consolidated.codigo,
                                             str(tmp_of[consolidated.caminho])))  # the longest task first
        jobs = []
        for p in group.items:
            assert p.caso is not None
            pdf, docx = pending.individual(p.caso, "edital_individual_pdf"), pending.individual(p.caso,
                                                                                                 "edital_individual_docx")
            assert pdf.codigo is not None
            jobs.append(CaseJob(p.caso, p.arquivo, p.texto, pdf.codigo, str(tmp_of[pdf.caminho]),
                                str(tmp_of[docx.caminho])))
        for i in range(0, len(jobs), self.o.lote):  # at most max_por_edital cases: bounded
            pending.futures.add(self.pool.submit(_render_cases, jobs[i:i + self.o.lote], pending.params,
                                                 f"{rec.numero}/{rec.ano}", rec.reservado_em))

    def _complete(self, ledger: Ledger, pending: _Pending) -> Published:
        """Wait for the documents, build the gazette, rename everything into place, commit the hashes."""
        rec, tmp_of = pending.rec, pending.tmp_of
        by_tmp = {str(t): c for c, t in tmp_of.items()}
        written: dict[str, Written] = {}
        failed: list[Failed] = []
        parts, merged = self._gazette_parts(pending), 0
        builder = GazetteBuilder()
        while pending.futures:
            done, pending.futures = wait(pending.futures, return_when=FIRST_COMPLETED)
            for fut in done:
                result = fut.result()
                for w in (result if isinstance(result, list) else [result]):
                    if isinstance(w, Failed):
                        failed.append(w)
                    else:
                        written[by_tmp[w.tmp]] = w
            # merge what has arrived, in order, while the workers render the rest (no serial tail at the end)
            while not failed and merged < len(parts) and parts[merged][1] in written:
                title, caminho = parts[merged]
                builder.add(title, tmp_of[caminho])
                merged += 1
        if failed:
            raise _CasesFailed(failed)
        assert merged == len(parts), "every part of the gazette was rendered"
        gazette = pending.file("caderno")
        written[gazette.caminho] = self._gazette(pending, builder)
        self.faults.hit("renderizado")
        for caminho, tmp in tmp_of.items():
            final = rec.saida / caminho
            try:
                os.replace(tmp, final)
            except OSError as exc:
                raise _output_error(exc, final) from None
            pending.renamed.append(final)
        _fsync_dir(pending.folder)
        self.faults.hit("renomeado")
        ledger.commit(rec.id, {c: (w.sha256, w.bytes) for c, w in written.items()})
        self.faults.hit("commit")
        record = Published(rec.id, rec.lei, rec.numero, rec.ano, rec.data_edital, len(rec.casos),
                           rec.saida / pending.file("caderno").caminho)
        self.result.publicados.append(record)  # a summary: the details stay in the ledger (memory stays flat)
        self.log(f"publicado: edital {record.rotulo} ({record.lei}) com {record.casos} caso(s), "
                 f"{len(rec.arquivos)} arquivo(s) em {pending.folder}.")
        return record

    def _abort(self, ledger: Ledger, pending: _Pending, *, kill: bool = True, strict: bool = False) -> None:
        """Leave nothing of an edital that did not get committed; a fresh one also leaves the ledger as before.

        ``kill``: the run is ending (error, Ctrl-C, SIGTERM) — the workers still rendering are killed rather than
        waited for, so a stop takes a moment, not the length of a task. ``strict``: the run goes on after this,
        so the reservation must really be undone (a ledger error is raised, not left for the next run)."""
        if kill and any(not f.done() for f in pending.futures) and _kill_workers(self._pool):
            pass  # the workers are dead (joined): nothing writes the temporary files any more; the futures are
            # not cancelled, nor waited for — Python 3.11's pool fails its broken-pool handling on a cancelled
            # future (InvalidStateError in its management thread) and the others would then never complete
        else:
            for fut in pending.futures:
                fut.cancel()
            wait(pending.futures)  # running tasks end before their files are removed
        pending.futures = set()
        for path in [*pending.tmp_of.values(), *pending.renamed]:
            with contextlib.suppress(OSError):
                path.unlink()
        if pending.fresh:
            with contextlib.suppress(OSError):
                pending.folder.rmdir()  # only if empty
            if strict:
                ledger.undo(pending.rec.id)
                return
            with contextlib.suppress(AutosError, sqlite3.Error):  # if even this fails, the next run finishes it
                ledger.undo(pending.rec.id)

    def _plan_files(self, group: _Group, numero: int, ano: int) -> list[FileRecord]:
        municipio_dir, lei_stem = group.lei.split("/", 1)
        rel = Path(municipio_dir) / lei_stem / str(ano) / f"edital-{numero:04d}"
        base = f"{_slug(group.lei)}-{ano}-{numero:04d}"

        def code(tipo: str, caso: str = "") -> str:
            return verification_code(group.lei, str(ano), str(numero), tipo, caso)

        files = [FileRecord("edital_consolidado", str(rel / f"edital-{base}.pdf"), None, code("edital_consolidado"))]
        for p in group.items:
            assert p.caso is not None and p.auto_numero is not None
            stem = f"edital-{base}-auto-{_auto_slug(p.auto_numero)}"
            files.append(FileRecord("edital_individual_pdf", str(rel / f"{stem}.pdf"), p.caso,
                                    code("edital_individual_pdf", p.caso)))
            files.append(FileRecord("edital_individual_docx", str(rel / f"{stem}.docx"), p.caso, None))
        files.append(FileRecord("caderno", str(rel / f"caderno-{base}.pdf"), None, code("caderno")))
        taken = [f.caminho for f in files if (self.saida / f.caminho).exists()]
        if taken:  # a new number whose files exist: not this ledger's (another ledger, or copied in by hand)
            raise LedgerError(
                f"o edital Nº {numero}/{ano} ({group.lei}) seria gravado por cima de arquivos que já existem e que "
                f"este livro não registrou: {', '.join(taken[:3])}{' …' if len(taken) > 3 else ''}; nada foi "
                "publicado.", file=self.saida,
                hint="a pasta de saída tem editais de outro livro: use o mesmo livro da pasta ou outra pasta de "
                "saída (veja docs/runbook-editais.md).")
        return files

    def _gazette_parts(self, pending: _Pending) -> list[tuple[str, str]]:
        """(bookmark title, file) of the gazette, in order: the consolidated edital, then each case's edital."""
        rec, group = pending.rec, pending.group
        parts = [(f"Edital {rec.rotulo} — consolidado ({len(group.items)} notificado(s))",
                  pending.file("edital_consolidado").caminho)]
        for p in group.items:
            assert p.caso is not None and p.linha is not None
            parts.append((f"Edital de notificação — auto nº {p.auto_numero} — {p.linha['nome']}",
                          pending.individual(p.caso, "edital_individual_pdf").caminho))
        return parts

    def _gazette(self, pending: _Pending, builder: GazetteBuilder) -> Written:
        """Stamp and write the gazette whose parts are all in ``builder``."""
        rec = pending.rec
        gazette = pending.file("caderno")
        lei = pending.statute.lei
        place = f"{lei.municipio}/{lei.uf}"

        def folio(i: int, n: int) -> str:
            return (f"Caderno do edital {rec.rotulo} ({place}, publicação de {rec.data_publicacao:%d/%m/%Y}) — "
                    f"folha {i} de {n} — {GAZETTE_CODE_LABEL} {gazette.codigo}")

        data = builder.finish(folio, {
            "/Title": f"Caderno do edital de notificação {rec.rotulo} — {place} — {rec.data_publicacao:%d/%m/%Y}",
            "/Author": f"Prefeitura Municipal de {lei.municipio}",
            "/Subject": f"Edital {rec.rotulo} ({lei.label}) e editais individuais, para o diário oficial",
            "/Keywords": f"edital de notificação, {lei.label}, {place}, código {gazette.codigo}",
            "/Creator": "autos publicar-editais",
        })
        tmp = pending.tmp_of[gazette.caminho]
        try:
            self.faults.hit("disco-cheio")
        except OSError as exc:
            raise _output_error(exc, tmp) from None
        return _write_tmp(tmp, data)

    def _consolidated_context(self, rec: EditalRecord, group: _Group, statute: Statute,
                              rule: NoticeFormRule) -> dict[str, Any]:
        lei = statute.lei
        rows = []
        for i, p in enumerate(group.items):
            assert p.linha is not None
            rows.append({**p.linha, "ordem": i + 1})
        first = rows[0]
        dates = {r["notificacao_em"] for r in rows}
        if len(dates) != 1:
            raise AutosError(f"datas de notificação diferentes no mesmo edital ({sorted(dates)}); nada publicado.")
        place = f"{lei.municipio}/{lei.uf}"
        orgao = " ".join(lei.orgao.split())
        with_deadlines = any(r["prazos"] for r in rows)
        preambulo = (f"O MUNICÍPIO DE {lei.municipio.upper()}, com fundamento na {rule.base_legal}, NOTIFICA as "
                     "pessoas abaixo relacionadas, com domicílio desconhecido ou em local incerto ou não sabido, da "
                     "lavratura dos autos de infração indicados, para que tomem ciência das penalidades aplicadas"
                     + (" e, querendo, exerçam os direitos previstos em lei nos prazos indicados."
                        if with_deadlines else "."))
        fecho = ("Os autos de infração ficam à disposição dos notificados na repartição indicada no cabeçalho. "
                 f"Este edital, Nº {rec.numero}/{rec.ano}, é publicado uma única vez: {rec.veiculo}"
                 + (f", e {rec.jornal}" if rec.jornal else "") + ".")
        issued = rec.data_edital
        titulo = f"Edital de Notificação nº {rec.numero}/{rec.ano}"
        return {
            "cabecalho": {"prefeitura": f"PREFEITURA MUNICIPAL DE {lei.municipio.upper()}",
                          "estado": _state_name(lei.uf), "orgao": orgao},
            "lei": {"rotulo": lei.label, "ementa": " ".join(lei.ementa.split())},
            "edital": {
                "numero": f"{rec.numero}/{rec.ano}",
                "forma": rule.descricao,
                "base_legal": rule.base_legal,
                "preambulo": preambulo,
                "veiculo": rec.veiculo,
                "data_publicacao": ptbr.format_date(rec.data_publicacao),
                "jornal": rec.jornal or "",
                "data_jornal": ptbr.format_date(rec.data_jornal) if rec.data_jornal else "",
                "notificacao_em": first["notificacao_em"],
                "efeito": first["efeito"],
                "prazos": list({(d["descricao"], d["prazo"], d["base_legal"]): {
                    "descricao": d["descricao"], "prazo": d["prazo"], "base_legal": d["base_legal"]}
                    for r in rows for d in r["prazos"]}.values()),
                "fecho": fecho,
            },
            "casos": rows,
            "exemplo_aviso": next((r["exemplo_aviso"] for r in rows if r["exemplo_aviso"]), ""),
            "local_data": f"{place}, {ptbr.format_date(issued)}.",
            "rodape": f"{titulo} — {lei.label} — {place} — gerado em {rec.reservado_em:%d/%m/%Y %H:%M} por autos",
            "metadados": {
                "titulo": f"{titulo} — {place}",
                "autor": f"Prefeitura Municipal de {lei.municipio} — {orgao}",
                "assunto": f"{titulo} — {lei.label} — {len(rows)} notificado(s)",
                "palavras_chave": f"edital de notificação, {lei.label}, {lei.municipio}",
            },
        }

    # --- manifest --------------------------------------------------------------------------------
    def _write_manifest(self, ledger: Ledger) -> None:
        try:
            self.result.manifesto = write_manifest(ledger, self.o.data, self.result, self.saida)
        except AutosError as exc:
            self.result.erro = self.result.erro or exc
        except (OSError, sqlite3.Error) as exc:
            self.result.erro = self.result.erro or (_output_error(exc, self.saida) if isinstance(exc, OSError)
                                                    else LedgerError(f"livro de editais: {exc}"))


def _prepare_from_text(arquivo: str, texto: str, sha: str, params: RunParams, numero: str) -> Prepared:
    """Recovery: prepare a case from the text stored in the ledger (the file may have changed since)."""
    return _prepare_text(arquivo, texto, sha, params, numero=numero)


def _state_name(uf: str) -> str:
    from autos.documents.context import _STATE_NAMES

    return _STATE_NAMES.get(uf, uf)


#: in the output folder: the run lock of the folder, and which ledger numbers the editais written in it
FOLDER_LOCK_NAME = ".publicacao-editais.lock"
FOLDER_LEDGER_NAME = ".livro-editais"


def _lock_folder(folder: Path) -> RunLock:
    """Only one run writes into an output folder at a time, whatever ledger it uses."""
    lock = RunLock(folder / FOLDER_LOCK_NAME)
    try:
        taken = lock.acquire()
    except OSError as exc:
        raise _output_error(exc, lock.path) from None
    if not taken:
        raise LedgerError("outra execução está publicando editais nesta pasta de saída neste momento (talvez com "
                          "outro livro).", file=folder, hint="aguarde o fim da outra execução e rode de novo.")
    return lock


def _claim_folder(folder: Path, ledger_path: Path, *, write: bool) -> None:
    """One output folder, one ledger: two ledgers would number the same ``edital-0001`` and overwrite each
    other's published files. The folder records its ledger (path relative to the folder, so folder and ledger
    can move together) the first time it is used; another ledger is refused."""
    marker = folder / FOLDER_LEDGER_NAME
    here = os.path.relpath(ledger_path.resolve(), folder.resolve())
    try:
        recorded = marker.read_text(encoding="utf-8").strip() if marker.is_file() else None
    except (OSError, UnicodeDecodeError):
        recorded = None
    if recorded is not None and recorded != here:
        owner = (folder / recorded).resolve()
        raise LedgerError(
            f"a pasta de saída é do livro {owner}, não deste ({ledger_path}); dois livros na mesma pasta "
            "numerariam os mesmos editais e um gravaria por cima dos arquivos publicados do outro.", file=folder,
            hint=f"use o livro da pasta (--livro {owner}) ou outra pasta de saída; se o livro mudou de lugar, "
            f"confira que é o mesmo e apague o arquivo {marker} (veja docs/runbook-editais.md).")
    if recorded is None and write:
        tmp = folder / f".{FOLDER_LEDGER_NAME}.tmp"
        _write_tmp(tmp, (here + "\n").encode())  # OutputError with the cause in Portuguese (disk full…)
        try:
            os.replace(tmp, marker)
        except OSError as exc:
            raise _output_error(exc, marker) from None


def _ensure_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".autos-escrita-{os.getpid()}.tmp"
        with open(probe, "wb") as fh:
            fh.write(b"ok")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"a pasta de saída não pode ser usada ({os_error_pt(exc)}).", file=folder,
                          hint="escolha uma pasta em que você tenha permissão de escrita (-o PASTA); nada foi "
                          "publicado e o livro não foi alterado.") from None


def _terminate_as_interrupt(stopping: list[bool]) -> Callable[[], None]:
    """SIGTERM (systemd stop, kill) ends the run like Ctrl-C: the edital in progress is undone, the workers are
    killed rather than waited for (:meth:`Publisher._abort`). ``stopping`` gets ``True`` when it arrives."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(_sig: int, _frame: Any) -> None:
        if stopping:
            return  # a second SIGTERM does not interrupt the clean-up of the first
        stopping.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --------------------------------------------------------------------------------------------------
# manifest


class _Sink:
    """A file written to a temporary name; renamed into place only if its content changed (by SHA-256), so
    a re-run that has nothing new leaves the manifest exactly as it was (same bytes, same mtime)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp")
        self.fh = open(self.tmp, "wb")  # noqa: SIM115 - closed in close() or abort()
        self.digest = hashlib.sha256()

    def write(self, text: str) -> None:
        data = text.encode()
        self.fh.write(data)
        self.digest.update(data)

    def close(self) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.fh.close()
        if self.path.is_file() and _file_sha256(self.path) == self.digest.hexdigest():
            self.tmp.unlink()
        else:
            os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.fh.close()
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class _SafeCsvWriter:
    """``csv.DictWriter`` whose every cell goes through :func:`csv_cell`."""

    def __init__(self, out: io.StringIO, fieldnames: list[str]) -> None:
        # RFC 4180 line ends: a cell with a carriage return or a line feed inside is quoted (with "\n" alone, a
        # bare "\r" in a reason would split the row for a reader)
        self.writer = csv.DictWriter(out, fieldnames=fieldnames, lineterminator="\r\n")

    def writeheader(self) -> None:
        self.writer.writeheader()

    def writerow(self, row: dict[str, Any]) -> None:
        self.writer.writerow({k: csv_cell(v) for k, v in row.items()})


MANIFEST_CSV_FIELDS = ["situacao", "lei", "edital", "tipo", "caso", "codigo", "caminho", "sha256", "bytes",
                       "arquivo_caso", "motivos"]


def edital_manifest(e: EditalRecord) -> dict[str, Any]:
    return {
        "lei": e.lei,
        "edital": f"{e.numero}/{e.ano}",
        "data_publicacao": e.data_publicacao.isoformat(),
        "data_jornal": e.data_jornal.isoformat() if e.data_jornal else None,
        "data_edital": e.data_edital.isoformat(),
        "veiculo": e.veiculo,
        "jornal": e.jornal,
        "publicado_em": e.publicado_em.isoformat() if e.publicado_em else None,
        "casos": [{"caso": c.caso, "auto": c.auto_numero, "arquivo_caso": c.arquivo, "sha256_caso": c.sha256_caso,
                   "motivo_edital": c.motivo} for c in e.casos],
        "arquivos": [{"tipo": f.tipo, "caminho": f.caminho, "caso": f.caso, "codigo": f.codigo, "sha256": f.sha256,
                      "bytes": f.bytes} for f in e.arquivos],
    }


def write_manifest(ledger: Ledger, data: date, result: PublishResult, saida: Path) -> list[Path]:
    """The date's manifest (JSON and CSV): every published edital of ``data`` — from the ledger, one edital at a
    time, so a re-run writes the same bytes and memory does not grow with the date's size — then the cases
    this run refused and those it found already published on another date or changed since."""
    stem = saida / f"manifesto-editais-{data.isoformat()}"
    js, cs = _Sink(stem.with_suffix(".json")), _Sink(stem.with_suffix(".csv"))
    try:
        js.write('{\n  "data_publicacao": ' + json.dumps(data.isoformat()) + ',\n  "editais": [')
        row = io.StringIO()
        writer = _SafeCsvWriter(row, MANIFEST_CSV_FIELDS)
        writer.writeheader()
        first = True
        for e in ledger.iter_editais(data_publicacao=data):
            if e.estado != "publicado":
                continue
            doc = edital_manifest(e)
            js.write(("\n" if first else ",\n") + _indent(json.dumps(doc, ensure_ascii=False, indent=2), 4))
            first = False
            files_of = {c["caso"]: c["arquivo_caso"] for c in doc["casos"]}
            for f in doc["arquivos"]:
                writer.writerow({"situacao": "publicado", "lei": doc["lei"], "edital": doc["edital"], "tipo": f["tipo"],
                                 "caso": f["caso"] or "", "codigo": f["codigo"] or "", "caminho": f["caminho"],
                                 "sha256": f["sha256"], "bytes": f["bytes"],
                                 "arquivo_caso": files_of.get(f["caso"], ""), "motivos": ""})
            cs.write(row.getvalue())
            row.seek(0)
            row.truncate()
        js.write("\n  ]" if not first else "]")
        for situacao, key, items in (("recusado", "recusados", result.recusados),
                                     ("ja_publicado", "ja_publicados", result.ja_publicados)):
            listed = json.dumps([c.to_dict() for c in items], ensure_ascii=False, indent=2)
            js.write(f',\n  "{key}": ' + _indent(listed, 2).lstrip())
            for c in items:
                writer.writerow({"situacao": situacao, "caso": c.caso or "", "arquivo_caso": c.arquivo,
                                 "motivos": " | ".join(c.motivos)})
        js.write("\n}\n")
        cs.write(row.getvalue())
    except BaseException:
        js.abort()
        cs.abort()
        raise
    js.close()
    cs.close()
    return [js.path, cs.path]


def _indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line for line in text.splitlines())


# --------------------------------------------------------------------------------------------------
# autos conferir


@dataclass
class Verification:
    arquivo: Path
    sha256: str
    livro: Path
    confere: bool
    linhas: list[str]

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.confere else EXIT_REJECTED


#: the ledger ``autos conferir`` trusts when ``--livro`` is not given
LEDGER_ENV = "AUTOS_LIVRO"


def _describe(m: Match) -> str:
    e, f = m.arquivo, m.edital
    text = (f"{FILE_LABELS.get(e.tipo, e.tipo)} do edital {f.rotulo} ({f.lei}), publicado em "
            f"{ptbr.format_date(f.data_publicacao)}")
    if e.caso:
        text += f"; caso: auto nº {e.caso.split('#', 1)[1]}"
    return text


def verify_file(path: Path, ledger_path: Path | None, *, source: str = "--livro") -> Verification:
    """Recompute the SHA-256 of ``path`` and compare it with the ledger ``ledger_path``; say what the file claims
    to be. Only the ledger the user names (``--livro``, or the configured :data:`LEDGER_ENV`; ``source`` says
    which) is trusted: never one found next to the file, which could have come with a forged file."""
    if ledger_path is None:
        raise LedgerError("nenhum livro de editais indicado: o conferir só confia no livro que você indicar, nunca "
                          "num livro encontrado ao lado do arquivo (ele pode ter vindo junto com um arquivo falso).",
                          file=path, hint=f"indique o livro oficial com --livro CAMINHO ou configure a variável de "
                          f"ambiente {LEDGER_ENV} (o livro da publicação é {DEFAULT_LEDGER_NAME} na pasta de saída).")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=path) from None
    found = ledger_path.absolute()
    if not found.is_file():
        raise LedgerError(f"livro de editais não encontrado (indicado por {source}).", file=found,
                          hint=f"confira o caminho de --livro ou da variável {LEDGER_ENV}.")
    sha = hashlib.sha256(data).hexdigest()
    with Ledger(found, readonly=True) as ledger:
        head = f"Livro consultado: {found} (indicado por {source})."
        matches = [m for m in ledger.by_hash(sha) if m.edital.estado == "publicado"]
        if matches:
            m = matches[0]
            lines = [head, f"CONFERE: o SHA-256 do arquivo está registrado no livro de editais ({found}).",
                     f"É o {_describe(m)}.",
                     f"Código de verificação: {m.arquivo.codigo or '(DOCX, sem código impresso)'}.",
                     f"SHA-256: {sha}"]
            return Verification(path, sha, found, True, lines)
        lines = [head, "NÃO CONFERE: este arquivo não é nenhum dos arquivos publicados registrados no livro "
                 f"({found}).", f"SHA-256 do arquivo: {sha}"]
        claims = _claimed_codes(data)
        if not claims:
            lines.append("O arquivo não traz código de verificação legível.")
        for label, code in claims:
            rows = ledger.by_code(code)
            if not rows:
                lines.append(f"O arquivo traz o {label} {code}, que não existe neste livro.")
                continue
            m = rows[0]
            if data[:4] == b"PK\x03\x04" and m.arquivo.tipo == "edital_individual_pdf":
                m = ledger.sibling(m, "edital_individual_docx") or m  # the DOCX prints its PDF's code
            lines.append(f"O arquivo diz ser, pelo {label} {code}, o {_describe(m)}; mas o SHA-256 não confere "
                         f"com o registrado ({m.arquivo.sha256 or 'edital ainda não concluído'}): o arquivo foi "
                         "alterado depois da publicação ou não é o publicado.")
        return Verification(path, sha, found, False, lines)


def _printed_text(data: bytes) -> str:
    """The text of a PDF (pages read until one shows a code: a gazette has one on every page) or of a DOCX's
    footers (where the code is printed); empty for anything unreadable."""
    if data[:4] == b"PK\x03\x04":
        import zipfile

        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                parts = [z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.startswith("word/footer")]
        except Exception:  # a damaged DOCX (bad zip, corrupt deflate data, CRC, encryption…) has no readable code
            return ""
        return re.sub(r"<[^>]+>", " ", " ".join(parts))
    try:
        from pypdf import PdfReader

        texts: list[str] = []
        for page in PdfReader(io.BytesIO(data)).pages:
            texts.append(page.extract_text() or "")
            if CODE_RE.search(texts[-1]):
                break
        return " ".join(texts)
    except Exception:  # any unreadable or non-PDF file simply has no readable code
        return ""


def _claimed_codes(data: bytes) -> list[tuple[str, str]]:
    """Verification codes printed in a file: the gazette's if any, else each document's (in order, once)."""
    text = re.sub(r"\s+", " ", _printed_text(data))
    out: list[tuple[str, str]] = []
    for code in dict.fromkeys(re.findall(re.escape(GAZETTE_CODE_LABEL) + r"\s*" + CODE_RE.pattern, text)):
        out.append(("código do caderno", code))
    for code in dict.fromkeys(re.findall(re.escape(DOC_CODE_LABEL) + r"\s*" + CODE_RE.pattern, text)):
        if ("código do caderno", code) not in out:
            out.append(("código de verificação", code))
    if any(label == "código do caderno" for label, _ in out):
        out = [c for c in out if c[0] == "código do caderno"]
    return out


# --------------------------------------------------------------------------------------------------
# command line (``autos publicar-editais``): progress, log lines and the summary


_MUNICIPIO_DIR = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*-[a-z]{2}$")


def place_option(values: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    """``--veiculo "TEXTO"`` (every law) or ``--veiculo "timoteo-mg=TEXTO"`` (one municipality)."""
    out: list[tuple[str, str]] = []
    for value in values:
        key, sep, text = value.partition("=")
        if sep and _MUNICIPIO_DIR.match(key.strip()) and text.strip():
            out.append((key.strip(), text.strip()))
        elif value.strip():
            out.append(("*", value.strip()))
    return tuple(out)


def summary(result: PublishResult, options: Options) -> str:
    lines = [f"Publicação de editais de {ptbr.format_date(result.data)} — livro: {options.ledger_path}"]
    if options.dry_run:
        lines.append("SIMULAÇÃO (--dry-run): nada foi gravado, nenhum número foi reservado.")
        for plan in result.planejados:
            lines.append(f"seria publicado: edital Nº {plan.numero}/{plan.ano} ({plan.lei}) com {len(plan.casos)} "
                         "caso(s): " + ", ".join(f"auto {p.auto_numero}" for p in plan.casos))
    for e in result.publicados:
        how = " (concluído após uma execução interrompida)" if e.id in result.recuperados else ""
        lines.append(f"publicado: edital {e.rotulo} ({e.lei}) com {e.casos} caso(s){how}; caderno: {e.caderno}")
    if not result.publicados and not options.dry_run and result.erro is None:
        lines.append("nada novo a publicar nesta data.")
    lines.append(f"casos lidos: {result.lidos}; recusados: {len(result.recusados)}; já publicados antes (não "
                 f"republicados): {len(result.ja_publicados)}; sem edital (notificação por outra forma): "
                 f"{result.sem_edital}; outros documentos (ignorados): {result.ignorados}")
    for c in result.recusados:
        lines.append(f"recusado: {c.arquivo}: {' | '.join(c.motivos)}")
    for c in result.ja_publicados:
        lines.append(f"já publicado: {c.arquivo}: {' | '.join(c.motivos)}")
    if result.manifesto:
        lines.append("manifesto: " + ", ".join(str(p) for p in result.manifesto))
    return "\n".join(lines)
