"""Completeness check of a whole folder of cases (``autos verificar``), for legal teams.

:func:`verify` validates every case below the given folders and returns a :class:`FolderVerification`: counts by
law, by document kind and by finding code, the interpretive choices of each law met (shown once in the
report, not per case), and what the report prints of each case. It renders as text
(:func:`iter_verification_text`), as JSON (:func:`iter_verification_json`, the document
:meth:`FolderVerification.to_dict` gives) and as one self-contained HTML file (:func:`write_verification_html`,
template ``html/relatorio_verificacao.html``: Jinja sandbox, autoescape, no scripts, no external resources).

Memory stays flat however many cases there are: a case's report is reduced to counters and to one JSON line
in an anonymous temporary file (the *spool*, deleted when the verification is closed or the process ends),
which the reports read back, in order, after the summary. The renderers yield the report piece by piece.

Across the files (:mod:`autos.app.verification.cross`): duplicate numbers, acts citing missing acts, the same facts
filed twice and, with the register (given, or found beside the folders), the processos it indexes and the numbers
it reserved; each processo's prescription is computed with its timeline. What the cross checks keep of each file
(its numbered acts, citations and facts) is kept on disk, in the checker's temporary database, until the end of the
run (with a register, the register's index and the paths of the files read are in memory).

Exit code (:meth:`FolderVerification.exit_code`): the same as ``autos validar`` — 0 every case complete, 1 some
case (or a check across processos) has an *erro* finding, 2 some case could not be read (it cannot be checked
at all, so the folder is not known to be complete) or no case was found.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

from autos.app.generation.files import iter_case_paths
from autos.app.generation.pipeline import Autos
from autos.app.register.service import find_register
from autos.app.verification.cross import CrossRun, filed_case, filed_processo, processo_prescription
from autos.base.ptbr import count_noun
from autos.base.yamlio import load_yaml
from autos.checks.cross import Filed
from autos.checks.finding import Finding, Report
from autos.compute.prescription import PrescriptionState
from autos.errors import AutosError, InputError, RenderError, case_failure
from autos.processo.load import from_doc as processo_from_doc
from autos.processo.load import is_processo_data
from autos.processo.load_case import case_from_doc
from autos.rules.grades import GRADE_ORDER
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute
from autos.store.database import Location
from autos.store.files import open_atomic
from autos.store.register import Register

HTML_TEMPLATE = "relatorio_verificacao.html"
#: the kind under which a processo file (its timeline and each act's document) is counted
PROCESSO = "processo"


@dataclass
class CaseCheck:
    """One case of the folder: its report, and the law and kind it declares (when it could be read)."""

    report: Report
    lei: str | None
    documento: str | None
    numero: str | None
    filed: Filed | None = None  # what the checks across processos keep of it
    prescricao: PrescriptionState | None = None

    @property
    def status(self) -> str:
        """``ilegivel``, ``com_erro`` or ``sem_erro``."""
        if self.report.error is not None:
            return "ilegivel"
        return "com_erro" if self.report.errors else "sem_erro"

    def to_dict(self) -> dict[str, Any]:
        out = self.report.to_dict()
        out.update({"lei": self.lei, "documento": self.documento, "numero": self.numero, "situacao": self.status,
                    "prescricao": prescription_dict(self.prescricao)})
        return out


def prescription_dict(p: PrescriptionState | None) -> dict[str, Any] | None:
    """The prescription of a processo as the reports give it (``None``: no rule, or not a processo)."""
    if p is None:
        return None
    rule = p.rule
    return {
        "situacao": p.situacao,
        "data": p.data.isoformat() if p.data else None,
        "inicio": p.inicio.isoformat() if p.inicio else None,
        "anos": rule.anos,
        "base_legal": rule.base_legal,
        "interrompida_em": p.interrupcao[1].isoformat() if p.interrupcao else None,
        "interrompida_pelo_ato": p.interrupcao[0] + 1 if p.interrupcao else None,
        "base_legal_interrupcao": rule.interrupcao.base_legal if rule.interrupcao and p.interrupcao else None,
        "decisao_definitiva_ato": p.decisao[0] + 1 if p.decisao else None,
        "decisao_definitiva_em": p.decisao[1].isoformat() if p.decisao else None,
    }


_PRESCRIPTION_STATES = {
    "em curso": "sem decisão que aplique a penalidade",
    "prescrita": "PRESCRITA sem decisão que aplique a penalidade",
    "decidida depois de prescrita": "PRESCRITA antes da decisão que aplica a penalidade",
    "exercida": "decisão no prazo, sem recurso posterior",
    "encerrado": "processo encerrado sem decisão (pagamento ou dívida ativa)",
    "sem data": "sem data de início (sem data da infração nem dos atos)",
}

#: the states the text and HTML reports show (the JSON always has the prescription): the processo still open,
#: or with a finding
SHOWN_PRESCRIPTION_STATES = frozenset({"em curso", "prescrita", "decidida depois de prescrita"})


def _dmy(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d/%m/%Y")


def prescription_text(d: dict[str, Any]) -> str:
    """``prescrição da pretensão punitiva em 16/03/2031 — sem decisão… (5 anos da infração de 16/03/2026, …)``."""
    parts = [f"{d['anos']} anos da infração de {_dmy(d['inicio'])}"] if d["inicio"] else []
    if d["interrompida_em"]:
        parts.append(f"interrompida em {_dmy(d['interrompida_em'])} pelo ato {d['interrompida_pelo_ato']}")
    if d["decisao_definitiva_em"]:
        parts.append(f"decisão: ato {d['decisao_definitiva_ato']}, de {_dmy(d['decisao_definitiva_em'])}")
    bases = "; ".join(b for b in (d["base_legal"], d["base_legal_interrupcao"]) if b)
    when = _dmy(d["data"]) if d["data"] else "—"
    return (f"prescrição da pretensão punitiva em {when} — {_PRESCRIPTION_STATES.get(d['situacao'], d['situacao'])}"
            f" ({', '.join(parts)}; {bases})")


@dataclass(frozen=True)
class CaseEntry:
    """What the reports print of one case, read back from the spool: ``dados`` is the case's JSON object
    (:meth:`CaseCheck.to_dict`); the text of its reading error and of each finding as ``validar`` prints them."""

    dados: dict[str, Any]
    erro_texto: str | None
    achados_texto: list[str]
    erros: int
    avisos: int

    @property
    def arquivo(self) -> Path:
        return Path(self.dados["arquivo"])

    @property
    def status(self) -> str:
        return str(self.dados["situacao"])

    @property
    def lei(self) -> str | None:
        return self.dados["lei"]  # type: ignore[no-any-return]

    @property
    def documento(self) -> str | None:
        return self.dados["documento"]  # type: ignore[no-any-return]

    @property
    def numero(self) -> str | None:
        return self.dados["numero"]  # type: ignore[no-any-return]


@dataclass
class Tally:
    """Counts for a group of cases (a law, a document kind, or all)."""

    casos: int = 0
    sem_erro: int = 0
    com_erro: int = 0
    ilegiveis: int = 0
    achados_erro: int = 0
    achados_aviso: int = 0

    def add(self, status: str, erros: int, avisos: int) -> None:
        self.casos += 1
        if status == "ilegivel":
            self.ilegiveis += 1
        elif status == "com_erro":
            self.com_erro += 1
        else:
            self.sem_erro += 1
        self.achados_erro += erros
        self.achados_aviso += avisos

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class CodeTally:
    """How often one finding code occurs, in how many cases, and the provisions it cites."""

    codigo: str
    severidade: str
    achados: int = 0
    casos: int = 0
    citacoes: list[str] = field(default_factory=list)
    grau: str | None = None  # rules/achados.yaml: nulidade, vicio_sanavel, estilo
    grau_rotulo: str | None = None
    grau_fundamento: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class _Spool:
    """The cases, one JSON line each, in an anonymous temporary file; read back in order, any number of times."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the result
        self.count = 0

    def append(self, entry: dict[str, Any]) -> None:
        self._file.seek(0, 2)  # a reader left unfinished may have moved the position
        self._file.write(json.dumps(entry, ensure_ascii=False).encode("utf-8") + b"\n")
        self.count += 1

    def __iter__(self) -> Iterator[CaseEntry]:
        f = self._file
        f.flush()
        f.seek(0)
        for _ in range(self.count):  # positions are kept across interleaved reads: each reader seeks anew
            line = f.readline()
            pos = f.tell()
            e = json.loads(line)
            yield CaseEntry(e["dados"], e["erro_texto"], e["achados_texto"], e["erros"], e["avisos"])
            f.seek(pos)

    def close(self) -> None:
        self._file.close()


class FolderVerification:
    """The result of checking every case below some folders: counters, and the spooled cases (:attr:`casos`,
    iterable any number of times, in order). Close it (or use it as a context manager) to free the spool."""

    def __init__(self, pastas: list[Path], data_referencia: date, gerado_em: datetime) -> None:
        self.pastas = pastas
        self.data_referencia = data_referencia
        self.gerado_em = gerado_em
        self.leis: dict[str, Statute] = {}  # every law met, by id (for labels and interpretive choices)
        self._total = Tally()
        self._by_law: dict[str | None, Tally] = {}
        self._by_kind: dict[str | None, Tally] = {}
        self._codes: dict[str, CodeTally] = {}
        self._spool = _Spool()
        #: findings across processos (duplicate numbers, missing cited acts, the same facts, reserved numbers)
        self.cruzados: list[Finding] = []
        self.registros: list[Location] = []  # the registers consulted

    def add(self, c: CaseCheck, statutes: dict[str, Statute]) -> None:
        """Count one case and spool what the reports print of it."""
        r = c.report
        status = c.status
        errors, warnings = len(r.errors), len(r.warnings)
        for tally in (self._total, self._by_law.setdefault(c.lei, Tally()),
                      self._by_kind.setdefault(c.documento, Tally())):
            tally.add(status, errors, len(r.findings) - errors)  # counted as before: whatever is not an erro
        self._count_codes(r.findings)
        if c.lei is not None and c.lei not in self.leis and c.lei in statutes:
            self.leis[c.lei] = statutes[c.lei]
        self._spool.append({"dados": c.to_dict(), "erro_texto": str(r.error) if r.error is not None else None,
                            "achados_texto": [f.render() for f in r.por_grau], "erros": errors,
                            "avisos": warnings})

    def add_cross(self, findings: list[Finding]) -> None:
        """The findings across processos (each counted as a case of its code)."""
        self.cruzados.extend(findings)
        self.cruzados.sort(key=lambda f: f.ordem_grau)
        for f in findings:
            self._count_codes([f])

    def _count_codes(self, findings: list[Finding]) -> None:
        seen: set[str] = set()
        for f in findings:
            t = self._codes.get(f.codigo)
            if t is None:
                t = self._codes[f.codigo] = CodeTally(f.codigo, f.severidade, grau=f.grau, grau_rotulo=f.grau_rotulo,
                                                      grau_fundamento=f.grau_fundamento)
            t.achados += 1
            if f.codigo not in seen:
                seen.add(f.codigo)
                t.casos += 1
            if f.citacao and f.citacao not in t.citacoes:
                t.citacoes.append(f.citacao)

    @property
    def casos(self) -> Iterable[CaseEntry]:
        return self._spool

    def close(self) -> None:
        self._spool.close()

    def __enter__(self) -> FolderVerification:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- summaries ---------------------------------------------------------------------------------
    @property
    def totais(self) -> dict[str, int]:
        return self._total.to_dict()

    def por_lei(self) -> list[tuple[str | None, Tally]]:
        """Counts by law id (``None``: cases that could not be read far enough to tell their law)."""
        return sorted(self._by_law.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))

    def por_documento(self) -> list[tuple[str | None, Tally]]:
        return sorted(self._by_kind.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))

    def por_codigo(self) -> list[CodeTally]:
        """Finding codes, nullity first (rules/achados.yaml), then errors, then by how many cases they affect."""
        return sorted(self._codes.values(), key=lambda t: (GRADE_ORDER[t.grau], t.severidade != "erro", -t.casos,
                                                           t.codigo))

    def rotulo_lei(self, lei: str | None) -> str:
        """``Lei nº 3.844/2022 (Timóteo/MG)``; the raw id for a law missing from the rules."""
        if lei is None:
            return "lei não identificada (caso ilegível)"
        st = self.leis.get(lei)
        if st is None:
            return f"{lei} (não encontrada nas regras)"
        return f"{st.lei.label} ({st.lei.municipio}/{st.lei.uf})"

    def titulo_documento(self, documento: str | None, lei: str | None = None) -> str:
        """The kind's title in ``lei`` (each law names its own: Cuiabá's "Termo de Apreensão de Animal", Timóteo's
        "Termo de Apreensão"); without a law, every title the laws met give the kind, joined by " / "."""
        if documento is None:
            return "tipo não identificado (caso ilegível)"
        if documento == PROCESSO:
            return "Processo administrativo"
        st = self.leis.get(lei) if lei is not None else None
        if st is not None and documento in st.documentos:
            return st.documentos[documento].titulo
        titles = dict.fromkeys(s.documentos[documento].titulo for _id, s in sorted(self.leis.items())
                               if documento in s.documentos)
        return " / ".join(titles) or documento

    def interpretacoes(self) -> list[tuple[str, Statute]]:
        """Laws met that record interpretive choices, sorted by id."""
        return [(sid, st) for sid, st in sorted(self.leis.items()) if st.interpretacoes]

    def exit_code(self) -> int:
        """As ``autos validar``: 0 clean, 1 some erro, 2 some case unreadable — or no case found."""
        if not self._total.casos or self._total.ilegiveis:
            return 2
        return 1 if self._total.com_erro or self.erros_cruzados else 0

    @property
    def erros_cruzados(self) -> int:
        return sum(1 for f in self.cruzados if f.severidade == "erro")

    def summary_dict(self) -> dict[str, Any]:
        """The JSON document without the cases (they come last, under ``casos``)."""
        return {
            "pastas": [str(p) for p in self.pastas],
            "data_de_referencia": self.data_referencia.isoformat(),
            "gerado_em": self.gerado_em.isoformat(timespec="seconds"),
            "completo": self.exit_code() == 0,
            "codigo_de_saida": self.exit_code(),
            "totais": self.totais,
            "por_lei": [{"lei": k, "rotulo": self.rotulo_lei(k), **t.to_dict()} for k, t in self.por_lei()],
            "por_documento": [{"documento": k, "titulo": self.titulo_documento(k), **t.to_dict()}
                              for k, t in self.por_documento()],
            "por_codigo": [t.to_dict() for t in self.por_codigo()],
            "registros": [str(r) for r in self.registros],
            "entre_processos": [f.to_dict() for f in self.cruzados],
            "escolhas_interpretativas": {
                sid: [{"id": i.id, "citacao": st.cite(i.citacao), "problema": _flat(i.problema),
                       "escolha": _flat(i.escolha)} for i in st.interpretacoes]
                for sid, st in self.interpretacoes()
            },
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole JSON document in memory (a library convenience; the CLI streams it)."""
        return {**self.summary_dict(), "casos": [c.dados for c in self.casos]}


def _flat(text: str) -> str:
    return " ".join(text.split())


def check_case(autos: Autos, file: Path) -> CaseCheck:
    """Read (once) and validate one case or processo; a file that cannot be read is kept, with its error.

    The boundary of one file: a failure that is not an :class:`AutosError` (a library crashing on what the file
    holds, or a defect) lists the file as unreadable, with the reason in Portuguese, and never costs the report of
    the others."""
    try:
        return _check_case(autos, file)
    except AutosError:
        raise  # the rules' fault (a RulesError) stops the run: no case can be checked against them
    except Exception as exc:
        error = InputError(case_failure(exc, "verificar o arquivo"), file=file)
        return CaseCheck(Report(file=file, statute=None, findings=[], error=error), None, None, None)


def _check_case(autos: Autos, file: Path) -> CaseCheck:
    try:
        doc = load_yaml(file)
    except AutosError as exc:
        return CaseCheck(Report(file=file, statute=None, findings=[], error=exc), None, None, None)
    if is_processo_data(doc.data):  # a processo file: its timeline and each act's document, as autos validar
        return _check_processo(autos, doc.file, doc)
    try:
        loaded = case_from_doc(doc)
    except AutosError as exc:
        lei, documento = _declared(doc.data)
        return CaseCheck(Report(file=file, statute=None, findings=[], error=exc), lei, documento, None)
    case = loaded.case
    try:
        report = autos.check(loaded)
    except AutosError as exc:  # unknown law or document kind
        return CaseCheck(Report(file=loaded.file, statute=None, findings=[], error=exc), case.lei, case.documento,
                         case.numero)
    return CaseCheck(report, case.lei, case.documento, case.numero, filed_case(loaded, report.statute))


def _check_processo(autos: Autos, file: Path, doc: Any) -> CaseCheck:
    """A processo as ``autos validar`` checks it, plus its prescription and what the cross checks keep of it."""
    try:
        loaded = processo_from_doc(doc)
        report = autos.check_processo(loaded)
    except AutosError as exc:
        return CaseCheck(Report(file=file, statute=None, findings=[], error=exc), _declared(doc.data)[0],
                         PROCESSO, None)
    lei = loaded.processo.lei
    proc = autos.processos.procedure(lei)
    statute = report.statute or autos.rules.get(lei)
    state = processo_prescription(report, loaded, statute, proc, autos.today)
    return CaseCheck(report, lei, PROCESSO, report.processo, filed_processo(loaded, proc), state)


def _declared(data: Any) -> tuple[str | None, str | None]:
    """Law and kind an unreadable case declares (to count it under its law)."""
    if not isinstance(data, dict) or not isinstance(data.get("lei"), str):
        return None, None
    documento = data.get("documento", "auto_de_infracao")
    return data["lei"], documento if isinstance(documento, str) else None


def registers_for(paths: list[Path], given: Location | None) -> list[Location]:
    """The register given (``--registro`` / ``AUTOS_REGISTRO``), else every ``registro.sqlite3`` found beside (or
    above) the folders and files given, once each."""
    if given is not None:
        return [given]
    found: dict[Location, None] = {}
    for p in paths:
        r = find_register(p)
        if r is not None:
            found.setdefault(r.resolve())
    return list(found)


def verify(autos: Autos, paths: list[Path], *, now: datetime | None = None, registro: Location | None = None,
           use_register: bool = True, dask: str | None = None) -> FolderVerification:
    """Check every case file given or found below the given folders (``*.yaml``/``*.yml``, sorted), then the
    checks across them — with the register (``registro``, or found beside them) unless ``use_register`` is
    False. ``dask``: the address of a Dask scheduler whose workers check the files (:mod:`autos.app.batch.cluster`);
    the register, the checks across processos and the report stay in this process."""
    result = FolderVerification(list(paths), autos.today, now or datetime.now())
    registers: list[Register] = []
    procedures: dict[str, Procedure | None] = {}
    cross = CrossRun(registers, procedures)  # the registers opened below
    try:
        if use_register:
            for r in registers_for(paths, registro):
                registers.append(Register.open(r, readonly=True))
                result.registros.append(r)
        for c in _checked(autos, paths, dask):
            result.add(c, autos.rules.statutes)
            if c.filed is not None:
                cross.add(c.filed)
        if registers:
            for lei in autos.rules.statutes:  # the register's processos name their acts by their law's rite
                procedures[lei] = autos.procedure_of(lei)
        result.add_cross(cross.findings())
    except BaseException:
        result.close()
        raise
    finally:
        for reg in registers:
            reg.close()
        cross.close()
    return result


# --- text ------------------------------------------------------------------------------------------
def _checked(autos: Autos, paths: list[Path], dask: str | None) -> Iterator[CaseCheck]:
    """:func:`check_case` of every file, in order: here, or on the workers of a Dask cluster (a bounded window of
    files in flight; each worker reads the file by its absolute path on the shared filesystem)."""
    if dask is None:
        for p in iter_case_paths(paths):
            yield check_case(autos, p)
        return
    from autos.app.batch.cluster import as_setup_args, dask_executor

    setup = as_setup_args(autos.rules_dir, None, autos.today)  # nothing is rendered: the templates do not matter
    with dask_executor(dask, _ensure_check_worker, setup, rules_dir=setup[0], templates_dir=None) as cluster:
        window: deque[tuple[Path, Future[tuple[CaseCheck, str | None]]]] = deque()
        for p in iter_case_paths(paths):
            window.append((p, cluster.submit(_check_in_worker, p.absolute())))
            while len(window) >= 4 * cluster.width:
                yield _restored(autos, *window.popleft())
        while window:
            yield _restored(autos, *window.popleft())


_CHECKER: Autos | None = None


def _ensure_check_worker(rules_dir: str | None, templates_dir: str | None, today: date) -> None:
    """A Dask worker's set-up for ``verificar --dask``: the library, once per worker process."""
    global _CHECKER
    _CHECKER = Autos(rules_dir, templates_dir, today)


def _check_in_worker(path: Path) -> tuple[CaseCheck, str | None]:
    """:func:`check_case` on a worker; the report travels back without its rules (the law's id only)."""
    assert _CHECKER is not None, "worker not initialised"
    c = check_case(_CHECKER, path)
    statute = c.report.statute
    c.report = dataclasses.replace(c.report, statute=None)  # a processo's report keeps its own fields
    return c, statute.id if statute is not None else None


def _restored(autos: Autos, given: Path, fut: Future[tuple[CaseCheck, str | None]]) -> CaseCheck:
    """A worker's check with this process's rules for its law, under the path the user gave."""
    c, lei = fut.result()
    c.report = dataclasses.replace(c.report, file=given,
                                   statute=autos.rules.statutes.get(lei) if lei is not None else None)
    return c


def _tally_text(t: Tally) -> str:
    parts = [count_noun(t.casos, "caso", "casos"), f"{t.sem_erro} sem erro", f"{t.com_erro} com erro"]
    if t.ilegiveis:
        parts.append(count_noun(t.ilegiveis, "ilegível", "ilegíveis"))
    return (", ".join(parts) + f"; {count_noun(t.achados_erro, 'achado de erro', 'achados de erro')}, "
            f"{count_noun(t.achados_aviso, 'aviso', 'avisos')}")


def iter_verification_text(v: FolderVerification) -> Iterator[str]:
    """The report for people, line by line: summary by law, kind and code; then each case; then the choices."""
    t = v.totais
    yield (f"Verificação de completude — {', '.join(str(p) for p in v.pastas)} "
           f"(data de referência {v.data_referencia.strftime('%d/%m/%Y')})")
    if not t["casos"]:
        yield "Nenhum caso (*.yaml, *.yml) encontrado: nada foi verificado."
        return
    yield (f"{count_noun(t['casos'], 'caso', 'casos')}: {t['sem_erro']} sem erro, {t['com_erro']} com erro, "
           f"{count_noun(t['ilegiveis'], 'ilegível', 'ilegíveis')}.")
    yield "\nPor lei:"
    for k, g in v.por_lei():
        yield f"  {v.rotulo_lei(k)}: {_tally_text(g)}"
    yield "\nPor tipo de documento:"
    for k, g in v.por_documento():
        yield f"  {v.titulo_documento(k)}{f' ({k})' if k and k != PROCESSO else ''}: {_tally_text(g)}"
    codes = v.por_codigo()
    if codes:
        yield "\nPor código de achado:"
        width = max(len(c.codigo) for c in codes)
        gwidth = max(len(c.grau_rotulo or "") for c in codes)
        for code in codes:
            cites = f" — {'; '.join(code.citacoes)}" if code.citacoes else ""
            yield (f"  {code.severidade:<5} {code.grau_rotulo or '':<{gwidth}} {code.codigo:<{width}}  "
                   f"{count_noun(code.achados, 'achado', 'achados')} em {count_noun(code.casos, 'caso', 'casos')}"
                   f"{cites}")
    yield from _cross_text(v)
    yield "\nCasos:"
    for c in v.casos:
        if c.erro_texto is not None:
            yield f"✗ {c.arquivo}: ILEGÍVEL — não foi possível ler o caso.\n    {c.erro_texto}"
            continue
        numero = f" nº {c.numero}" if c.numero else ""
        mark = "✓" if c.dados["valido"] else "✗"
        yield (f"{mark} {c.arquivo} — {v.titulo_documento(c.documento, c.lei)}{numero}, {v.rotulo_lei(c.lei)}: "
               f"{count_noun(c.erros, 'erro', 'erros')}, {count_noun(c.avisos, 'aviso', 'avisos')}")
        for text in c.achados_texto:
            yield "    " + text.replace("\n", "\n    ")
        presc = c.dados.get("prescricao")
        if presc and presc["situacao"] in SHOWN_PRESCRIPTION_STATES:
            yield "    " + prescription_text(presc)
    for _sid, st in v.interpretacoes():
        yield f"\nEscolhas interpretativas das regras da {st.lei.label} ({st.lei.municipio}/{st.lei.uf}):"
        for i in st.interpretacoes:
            yield f"  - {st.cite(i.citacao)}: {_flat(i.escolha)}"
    verdict = {0: "COMPLETO: nenhum caso com erro.",
               1: "INCOMPLETO: há casos com erro." if t["com_erro"] else "INCOMPLETO: há erros entre processos.",
               2: "INCOMPLETO: há casos ilegíveis (não puderam ser verificados)."}[v.exit_code()]
    yield (f"\n{verdict} {count_noun(t['casos'], 'caso verificado', 'casos verificados')}; {t['com_erro']} com "
           f"erro; {count_noun(t['ilegiveis'], 'ilegível', 'ilegíveis')}.")


def _cross_text(v: FolderVerification) -> Iterator[str]:
    where = (f" (com o registro {', '.join(str(r) for r in v.registros)})" if v.registros
             else " (sem registro: só os arquivos verificados)")
    if not v.cruzados:
        yield f"\nEntre processos{where}: nenhum achado."
        return
    yield (f"\nEntre processos{where}: {count_noun(v.erros_cruzados, 'erro', 'erros')}, "
           f"{count_noun(len(v.cruzados) - v.erros_cruzados, 'aviso', 'avisos')}")
    for f in v.cruzados:
        yield f"  {f.arquivo}:"
        yield "    " + f.render().replace("\n", "\n    ")


def verification_text(v: FolderVerification) -> str:
    """The whole text report (see :func:`iter_verification_text`)."""
    return "\n".join(iter_verification_text(v))


# --- JSON ------------------------------------------------------------------------------------------
def iter_verification_json(v: FolderVerification) -> Iterator[str]:
    """The JSON document, piece by piece; joined, exactly ``json.dumps(v.to_dict(), ensure_ascii=False,
    indent=2)`` (the cases come last: every case is dumped alone and indented to its place)."""
    head = json.dumps({**v.summary_dict(), "casos": []}, ensure_ascii=False, indent=2)
    assert head.endswith('\n  "casos": []\n}')
    if not v.totais["casos"]:
        yield head
        return
    yield head[: -len("]\n}")] + "\n"
    first = True
    for c in v.casos:
        text = json.dumps(c.dados, ensure_ascii=False, indent=2)  # strings hold no raw newline: safe to indent
        yield ("" if first else ",\n") + "    " + text.replace("\n", "\n    ")
        first = False
    yield "\n  ]\n}"


# --- HTML ------------------------------------------------------------------------------------------
class _HtmlCases:
    """The cases as the HTML template reads them; iterable any number of times (the template walks them twice)."""

    def __init__(self, v: FolderVerification) -> None:
        self.v = v

    def __iter__(self) -> Iterator[dict[str, Any]]:
        v = self.v
        for c in v.casos:
            d = c.dados
            yield {
                "arquivo": d["arquivo"],
                "situacao": c.status,
                "documento": v.titulo_documento(c.documento, c.lei) if c.documento else "",
                "numero": c.numero or "",
                "lei": v.rotulo_lei(c.lei) if c.lei else "",
                "erros": c.erros,
                "avisos": c.avisos,
                "erro_de_leitura": c.erro_texto or "",
                "achados": d["achados"],
                "prescricao": (prescription_text(d["prescricao"]) if d.get("prescricao")
                               and d["prescricao"]["situacao"] in SHOWN_PRESCRIPTION_STATES else ""),
            }


def _html_context(v: FolderVerification) -> dict[str, Any]:
    return {
        "pastas": [str(p) for p in v.pastas],
        "data_referencia": v.data_referencia.strftime("%d/%m/%Y"),
        "gerado_em": v.gerado_em.strftime("%d/%m/%Y %H:%M"),
        "codigo_de_saida": v.exit_code(),
        "totais": v.totais,
        "por_lei": [{"rotulo": v.rotulo_lei(k), **t.to_dict()} for k, t in v.por_lei()],
        "por_documento": [{"rotulo": v.titulo_documento(k), "id": k or "", **t.to_dict()}
                          for k, t in v.por_documento()],
        "por_codigo": [t.to_dict() for t in v.por_codigo()],
        "registros": [str(r) for r in v.registros],
        "entre_processos": [f.to_dict() for f in v.cruzados],
        "interpretacoes": [
            {"lei": v.rotulo_lei(sid),
             "escolhas": [{"id": i.id, "citacao": st.cite(i.citacao), "problema": _flat(i.problema),
                           "escolha": _flat(i.escolha)} for i in st.interpretacoes]}
            for sid, st in v.interpretacoes()
        ],
        "casos": _HtmlCases(v),
    }


def iter_verification_html(v: FolderVerification, templates_dir: Path) -> Iterator[str]:
    """One self-contained HTML page (inline CSS, no scripts, nothing fetched), piece by piece; every value
    escaped."""
    import jinja2  # here: a report without --html starts without it

    from autos.render.sandbox import strict_html_env, template_error

    folder = templates_dir / "html"
    env = strict_html_env(folder)
    try:
        yield from env.get_template(HTML_TEMPLATE).generate(_html_context(v))
    except jinja2.TemplateNotFound as exc:
        if exc.name != HTML_TEMPLATE:
            raise template_error(exc, folder / HTML_TEMPLATE) from None
        raise RenderError(f"modelo '{HTML_TEMPLATE}' não encontrado.", file=folder / HTML_TEMPLATE,
                          hint="indique a pasta de modelos com --modelos (ou --templates).") from None
    except Exception as exc:  # a template is untrusted (--modelos): whatever it raises is its error, exit 2
        raise template_error(exc, folder / HTML_TEMPLATE) from None


def verification_html(v: FolderVerification, templates_dir: Path) -> str:
    """The whole HTML page (see :func:`iter_verification_html`)."""
    return "".join(iter_verification_html(v, templates_dir))


def write_verification_html(v: FolderVerification, target: Path, templates_dir: Path) -> None:
    """Render the HTML report into ``target`` as it is produced, atomically (all or nothing)."""
    with open_atomic(target) as fh:
        buffer: list[str] = []
        for piece in iter_verification_html(v, templates_dir):
            buffer.append(piece)
            if len(buffer) >= 512:
                fh.write("".join(buffer).encode("utf-8"))
                buffer.clear()
        fh.write("".join(buffer).encode("utf-8"))
