"""The worker side of ``autos publicar-editais``: what each rendering process reuses across documents, the
selection and validation of one case file, and the rendering of individual and consolidated editais into
temporary files. Functions here run in the pool's processes (or inline with ``--processos 1``)."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from autos.app.batch.workers import watch_parent
from autos.app.generation.pipeline import Autos
from autos.app.signing import SignerSpec, batch_signer
from autos.base import ptbr
from autos.base.yamlio import parse_yaml, read_limited
from autos.checks.acts import act_document
from autos.checks.finding import Report
from autos.compute.deadlines import Deadline
from autos.compute.edital import (
    AUTO_KIND,
    INDIVIDUAL_KIND,
    Decision,
    ProcessoEdital,
    Publication,
    auto_index,
    classify,
    classify_processo,
    default_veiculo,
    derive,
    edital_date,
    edital_rule,
    needs_newspaper,
)
from autos.errors import AutosError, ExampleRefused, InputError, OutputError, RefusedError, case_failure, os_error_pt
from autos.processo.load import LoadedProcesso, is_processo_data
from autos.processo.load import from_doc as processo_from_doc
from autos.processo.load_case import LoadedCase, case_from_doc
from autos.render.gazette import with_code
from autos.rules.deadlines import LawDeadlines, NoticeFormRule
from autos.rules.statute import Statute
from autos.store.ledger import case_key

CONSOLIDATED_TEMPLATE = "edital_consolidado"
EXIT_ERROR = 2


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
        # never an unnamed newspaper: the run refuses the law's cases when --jornal does not name it
        jornal = _pick(self.jornais, municipio_dir) if needs_newspaper(rule) else None
        data_jornal = self.data_jornal if needs_newspaper(rule) else None
        return Publication(self.data, data_jornal, veiculo, jornal, f"{lei.municipio}/{lei.uf}", numero,
                           edital_date(self.emissao or self.today or date.today(), self.data, data_jornal))



def newspaper_missing(statute: Statute, rule: NoticeFormRule) -> str:
    """Why an edital the law also publishes in a newspaper (Timóteo, art. 21, § 3º) is not issued without one."""
    municipio_dir = statute.id.split("/", 1)[0]
    return (f"a {statute.lei.label} exige a publicação do edital também em jornal ({rule.base_legal}), e o jornal "
            f"não foi informado: rode de novo com --jornal \"{municipio_dir}=NOME DO JORNAL\" (e --data-jornal, se "
            "a data for outra); um edital que não nomeia o jornal não pode ser conferido")


def _pick(pairs: tuple[tuple[str, str], ...], municipio_dir: str) -> str | None:
    found = dict(pairs)
    return found.get(municipio_dir) or found.get("*")



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
    processo: str | None = None  # a processo file: its number (the edital act is recorded in it)


def examples_refusal(examples: list[str]) -> str:
    """The refusal line of an edital that uses example values (``autos publicar-editais``)."""
    return ("edital não publicado: usaria valores de EXEMPLO das regras e seria uma MINUTA (uma minuta não é "
            "publicada): " + "; ".join(examples) + " — defina os valores oficiais e publique de novo")


class Engine:
    """Rules and templates of one process, built once and reused for every document (the PDF renderer keeps
    its font configuration and parsed stylesheet, the DOCX renderer its prepared templates)."""

    def __init__(self, rules_dir: str | None, templates_dir: str | None, today: date | None,
                 signing: SignerSpec | None = None) -> None:
        self.autos = Autos(rules_dir, templates_dir, today)
        # --assinar: the signer is loaded once per process, here (a wrong password stops the run before any number
        # is reserved: the main process loads it first)
        self.signer = batch_signer(signing) if signing is not None else None

    def law(self, statute: Statute) -> LawDeadlines:
        return self.autos.deadline_service.law(statute)

    def context(self, loaded: LoadedCase, *, now: datetime | None = None) -> tuple[Report, str, dict[str, Any]]:
        """Validate and build the document context (as ``Autos.generate`` does); refuse a case with erros."""
        report = self.autos.check(loaded)
        if report.errors:
            raise RefusedError("; ".join(finding_text(f) for f in report.errors), file=loaded.file)
        doc = self.autos.document_context(loaded, now=now, report=report)
        if doc.exemplos:
            raise ExampleRefused(examples_refusal(doc.exemplos), file=loaded.file)
        return report, doc.template, doc.context

    def pdf(self, html: str, source: str = "edital") -> bytes:
        """The PDF of ``html``; signed (PAdES) with ``--assinar``, so the hash recorded is the signed file's."""
        data = self.autos.pdf_renderer.pdf_from_html(html)
        return self.signer.sign(data, source) if self.signer is not None else data

    def docx(self, template: str, ctx: dict[str, Any]) -> bytes:
        return self.autos.docx_renderer.docx(template, ctx)


def finding_text(f: Any) -> str:
    where = f" (linha {f.linha})" if getattr(f, "linha", None) else ""
    cite = f" ({f.citacao})" if getattr(f, "citacao", None) else ""
    return f"{f.codigo}: {f.mensagem}{cite}{where}"


_ENGINE: Engine | None = None

# A WeasyPrint document allocates hundreds of thousands of objects (boxes, styles), a few in reference cycles.
# With the default threshold (700) the young generation is collected hundreds of times per document. Freezing
# the start-up heap (rules, templates, fonts, WeasyPrint itself: never garbage) and collecting the young
# generation less often saves 2-5% of the CPU of a document on this machine (close to its noise). The older
# generations keep their defaults: 120 editais rendered in one process peak at 119 MB with these settings as
# with the defaults, and at 134 MB with rarer old-generation passes (20000, 50, 100).
_GC_THRESHOLDS = (20_000, 10, 10)


def tune_gc() -> tuple[int, ...]:
    """Freeze what this process holds now and apply the thresholds above; returns the previous thresholds."""
    saved = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)
    return saved


@contextlib.contextmanager
def tuned_gc() -> Iterator[None]:
    """The collector settings above for the duration of a run in this process, restored afterwards."""
    saved = tune_gc()
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()


def init_worker(rules_dir: str | None, templates_dir: str | None, today: date | None,
                signing: SignerSpec | None = None) -> None:
    global _ENGINE
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means (Ctrl-C)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (inherited by fork): stop now
    watch_parent(EXIT_ERROR)
    _ENGINE = Engine(rules_dir, templates_dir, today, signing)
    tune_gc()  # a worker lives for one run: its start-up heap is never garbage


def ensure_engine(rules_dir: str | None, templates_dir: str | None, today: date | None) -> None:
    """A Dask worker's set-up (:class:`autos.app.batch.cluster.OnWorker`, once per worker process): the engine and the
    collector tuned as a pool worker's; no signal handlers nor parent watch — the worker belongs to Dask."""
    global _ENGINE
    _ENGINE = Engine(rules_dir, templates_dir, today)
    tune_gc()


@contextlib.contextmanager
def inline_engine(rules_dir: str | None, templates_dir: str | None, today: date | None,
                  signing: SignerSpec | None = None) -> Iterator[None]:
    """This process renders (``--processos 1``): an engine of its own and the collector tuned as a worker's,
    both given back as they were at the end (a program using the library keeps its own)."""
    global _ENGINE
    saved = _ENGINE
    _ENGINE = Engine(rules_dir, templates_dir, today, signing)
    try:
        with tuned_gc():
            yield
    finally:
        _ENGINE = saved


def _engine() -> Engine:
    assert _ENGINE is not None, "worker not initialised"
    return _ENGINE


def prepare_many(paths: list[str], params: RunParams) -> list[Prepared]:
    return [prepare_one(p, params) for p in paths]


def prepare_one(path: str, params: RunParams) -> Prepared:
    try:  # the same bounds as every YAML the project reads: regular files of at most 1 MiB (a pipe never hangs)
        raw = read_limited(path)
    except AutosError as exc:
        return Prepared(path, "recusado", motivos=[exc.message])
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Prepared(path, "recusado", sha256=sha, motivos=["o arquivo não está em UTF-8"])
    return prepare_text(path, text, sha, params, numero=f"1/{params.data.year}")


def prepare_text(path: str, text: str, sha: str, params: RunParams, *, numero: str) -> Prepared:
    """Select and validate one case (``numero``: the edital's number, a placeholder before reservation).

    The boundary of one case: any failure (an :class:`AutosError`, or an unexpected exception such as
    ``RecursionError``, ``OverflowError``, a decimal error, a library's ``ValueError``) refuses this case
    with its reason and never stops the run."""
    try:
        return prepare_checked(path, text, sha, params, numero=numero)
    except AutosError as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[exc.render(of_file=path)])
    except Exception as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[case_failure(exc, "ler e validar o caso")])


def prepare_checked(path: str, text: str, sha: str, params: RunParams, *, numero: str) -> Prepared:
    eng = _engine()
    try:
        doc = parse_yaml(text, path, InputError)
        if is_processo_data(doc.data):
            return _prepare_processo(eng, processo_from_doc(doc), text, sha, params, numero=numero)
        loaded = case_from_doc(doc)
    except AutosError as exc:
        return Prepared(path, "recusado", sha256=sha, motivos=[exc.render(of_file=path)])
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
    return _candidate(eng, out, loaded, statute, law, decision, params, numero)


def _prepare_processo(eng: Engine, loaded: LoadedProcesso, text: str, sha: str, params: RunParams, *,
                      numero: str) -> Prepared:
    """A processo file: its timeline decides (:func:`classify_processo`); the edital publishes its auto."""
    p = loaded.processo
    path = str(loaded.file)
    out = Prepared(path, "recusado", lei=p.lei, sha256=sha, texto=text, processo=p.numero)
    try:
        statute, law, sel = processo_selection(eng, loaded, params)
    except AutosError as exc:
        out.motivos = [exc.render()]
        return out
    out.auto_numero = sel.auto_numero
    out.caso = _key(p.lei, sel.auto_numero)
    if sel.decision.estado == "candidato" and out.caso is None:
        # a number that is there is valid (the model checks it when the file is read): this one has none
        out.motivos = ["o auto do processo não tem número; o edital precisa citá-lo — preencha o campo 'numero' do "
                       "auto (número/ano, p. ex. 17/2026)"]
        return out
    if sel.auto is None:
        out.estado = sel.decision.estado
        out.motivos = list(sel.decision.problemas)
        return out
    return _candidate(eng, out, sel.auto, statute, law, sel.decision, params, numero)


def processo_selection(eng: Engine, loaded: LoadedProcesso,
                       params: RunParams) -> tuple[Statute, LawDeadlines, ProcessoEdital]:
    """The law and the selection of one processo, its timeline checked on the run's day."""
    lei = loaded.processo.lei
    timeline = eng.autos.processos.check(loaded, params.today or date.today())  # unknown law: InputError
    statute = eng.autos.rules.get(lei)
    law = eng.law(statute)
    proc = eng.autos.processos.procedure(lei)
    i = auto_index(loaded, proc)
    document = act_document(loaded, i, proc, statute) if i is not None else None
    return statute, law, classify_processo(loaded, timeline, proc, law, document.loaded if document else None,
                                           statute)


def _key(lei: str, numero: str | None) -> str | None:
    if not numero:
        return None
    try:
        return case_key(lei, numero)
    except ValueError:
        return None


def _candidate(eng: Engine, out: Prepared, loaded: LoadedCase, statute: Statute, law: LawDeadlines,
               decision: Decision, params: RunParams, numero: str) -> Prepared:
    case = loaded.case
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
    signer = statute.edital_assinatura
    if signer is not None and signer.exemplo:
        out.motivos = [examples_refusal([f"quem assina o edital ({signer.nome}, {signer.cargo}), sua designação ou o "
                                         f"ato de competência é de exemplo — rules/{statute.file.parent.name}/"
                                         "autoridades.yaml"])]
        return out
    try:
        out.linha = _row(eng, loaded, statute, law, params, numero)
    except ExampleRefused as exc:
        out.motivos = [exc.message]
        return out
    except RefusedError as exc:
        out.motivos = [f"com a notificação por edital publicada em {ptbr.format_date(params.data)}, {exc.message}"]
        return out
    except AutosError as exc:
        out.motivos = [exc.render()]
        return out
    out.estado = "candidato"
    return out


def auto_to_publish(eng: Engine, text: str, path: str, params: RunParams) -> tuple[LoadedCase, Statute]:
    """The auto an individual edital publishes, from the file's text: the case itself, or the auto of a
    processo as its timeline selects it (refused if the processo no longer calls for an edital)."""
    doc = parse_yaml(text, path, InputError)
    if not is_processo_data(doc.data):
        loaded = case_from_doc(doc)
        return loaded, eng.autos.statute_of(loaded)
    statute, _law, sel = processo_selection(eng, processo_from_doc(doc), params)
    if sel.auto is None:
        raise RefusedError("o processo não pede mais o edital: " + "; ".join(sel.decision.problemas or
                                                                            (sel.decision.estado,)), file=path)
    return sel.auto, statute


def _row(eng: Engine, loaded: LoadedCase, statute: Statute, law: LawDeadlines, params: RunParams,
         numero: str) -> dict[str, Any]:
    """The case's entry in the consolidated edital: what its individual edital publishes (so the two
    always agree), after validating the auto and the individual edital with the publication's dates."""
    rule = edital_rule(law)
    assert rule is not None
    pub = params.publication(statute, rule, numero)
    if needs_newspaper(rule) and pub.jornal is None:
        raise RefusedError(newspaper_missing(statute, rule), file=loaded.file)
    auto = derive(loaded, AUTO_KIND, pub)
    errors = eng.autos.check(auto).errors  # the auto itself is not rendered here: validating it is enough
    if errors:
        raise RefusedError("o auto de infração tem pendências: " + "; ".join(finding_text(f) for f in errors),
                           file=loaded.file)
    individual = derive(loaded, INDIVIDUAL_KIND, pub)
    try:
        _report, template, ctx = eng.context(individual)
    except ExampleRefused:
        raise
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
                    "base_legal": d["base_legal"], "aviso": d["dias_pulados"]} for d in ctx["prazos"]],
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


def render_cases(jobs: list[CaseJob], params: RunParams, numero: str, now: datetime) -> list[Written | Failed]:
    eng = _engine()
    out: list[Written | Failed] = []
    for job in jobs:
        try:
            pdf, docx = render_case(eng, job, params, numero, now)
        except OutputError:
            raise  # the run's problem (disk full, folder): not this case's
        except AutosError as exc:
            out.append(Failed(job.caso, job.arquivo, f"o edital individual não pôde ser gerado: {exc.render()}"))
            continue
        except Exception as exc:  # a library crashing on this case's data (e.g. a control character)
            out.append(Failed(job.caso, job.arquivo, case_failure(exc, "gerar o edital individual do caso")))
            continue
        out.append(write_tmp(Path(job.pdf_tmp), pdf))
        out.append(write_tmp(Path(job.docx_tmp), docx))
    return out


def render_case(eng: Engine, job: CaseJob, params: RunParams, numero: str, now: datetime) -> tuple[bytes, bytes]:
    loaded, statute = auto_to_publish(eng, job.texto, job.arquivo, params)
    rule = edital_rule(eng.law(statute))
    assert rule is not None
    individual = derive(loaded, INDIVIDUAL_KIND, params.publication(statute, rule, numero))
    _report, template, ctx = eng.context(individual, now=now)
    ctx = with_code(ctx, job.codigo)
    html = eng.autos.pdf_renderer.html(template, ctx)
    return eng.pdf(html, job.pdf_tmp), eng.docx(template, ctx)


def render_consolidated(ctx: dict[str, Any], codigo: str, tmp: str) -> Written:
    eng = _engine()
    html = eng.autos.pdf_renderer.html(CONSOLIDATED_TEMPLATE, with_code(ctx, codigo))
    return write_tmp(Path(tmp), eng.pdf(html, tmp))


def write_tmp(path: Path, data: bytes) -> Written:
    """Write a temporary file completely (fsync) or raise :class:`OutputError`.

    Written under a name of this writer's own (``.<name>.<pid>-<random>.tmp``), then renamed to ``path``: two
    writers of the same task — a Dask worker taken for lost while it still ran, and the retry on another — never
    mix their bytes, and ``path`` only ever holds a whole file (the coordinator re-reads and re-hashes it)."""
    part = path.with_name(f"{path.name.removesuffix('.tmp')}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    try:
        with open(part, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(part, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink()
        raise output_error(exc, path) from None
    return Written(str(path), hashlib.sha256(data).hexdigest(), len(data))


def output_error(exc: OSError, path: Path) -> OutputError:
    return OutputError(f"não foi possível gravar o arquivo ({os_error_pt(exc)}).", file=path,
                       hint="libere espaço ou corrija a permissão da pasta de saída e rode de novo; o livro ficou "
                       "como estava antes deste edital (veja docs/runbook-editais.md).")


def prepare_from_text(arquivo: str, texto: str, sha: str, params: RunParams, numero: str) -> Prepared:
    """Recovery: prepare a case from the text stored in the ledger (the file may have changed since)."""
    return prepare_text(arquivo, texto, sha, params, numero=numero)
