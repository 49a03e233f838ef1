"""What generation hands back and asks for: the documents written (:class:`Generated`), one act's document
(:class:`ActPiece`), a case's outcome in a batch, the context of a document, the register's side of a run
(:class:`Recorder`), errors located in the case file and the exit code of ``autos validar``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from autos.checks.acts import ActDocument
from autos.checks.finding import Finding, Report
from autos.compute.fines import FineResult, path_key
from autos.compute.result import CaseComputation
from autos.errors import AutosError
from autos.processo.load_case import LoadedCase
from autos.rules.statute import Statute

if TYPE_CHECKING:  # the documents' stage only when a document is built (start-up of the commands that check)
    from autos.documents.lines import DeadlineLine


Format = Literal["docx", "pdf", "ambos"]


@dataclass
class Generated:
    """What :meth:`Autos.generate` wrote."""

    report: Report
    files: list[Path]
    draft: bool
    #: of ``files``, those already there with the same content (left untouched)
    unchanged: list[Path] = field(default_factory=list)
    #: ``(path, SHA-256, size)`` of every file, written or unchanged (the register records them)
    hashes: list[tuple[Path, str, int]] = field(default_factory=list)
    #: the "gerado em" the documents print
    stamp: datetime | None = None
    #: document kind (an act of a processo)
    documento: str | None = None
    #: the verification code the documents print (the register records it with them)
    codigo: str | None = None
    #: the example values of the rules the document uses (it is a MINUTA: :mod:`autos.documents.minuta`)
    exemplos: list[str] = field(default_factory=list)


@dataclass
class ActPiece:
    """One document of one act of a processo, checked as of the act's date (:meth:`Autos.processo_documents`):
    its report, or the error that kept it from being checked."""

    ato: int  # 1-based, as ``autos prazos`` prints it
    documento: str  # document kind of the law's rules
    titulo: str
    data: date
    loaded: LoadedCase
    report: Report | None
    stem: str  # file name of its documents, without MINUTA nor extension
    erro: AutosError | None = None
    #: how the act's case maps into the processo file: an error of the case is shown at its place there
    act: ActDocument | None = field(default=None, repr=False, compare=False)

    def located(self, exc: AutosError) -> AutosError:
        """``exc`` pointed into the processo file when it is the case's own (a template's stays as it is)."""
        if self.act is not None and exc.file in (None, str(self.loaded.file)):
            return self.act.error(exc)
        return exc

    @property
    def errors(self) -> list[Finding]:
        return self.report.errors if self.report is not None else []

    @property
    def identity(self) -> tuple[str, ...]:
        """What identifies this document, for its verification code: the processo's law and number, the act
        (1-based) and the document kind."""
        case = self.loaded.case
        return ("processo", case.lei, case.processo or "", str(self.ato), self.documento)


class ActRecorder(Protocol):
    """What :meth:`Autos.generate_files` needs from a register for one processo (``app.register``)."""

    def stamp_of(self, target: Path) -> datetime | None:
        """When the document at ``target`` was issued, if the register knows it."""

    def record(self, ato: int, done: Generated) -> None:
        """Record the document(s) written for act ``ato``."""


class Recorder(Protocol):
    """The registers of the processos ``autos gerar`` writes documents for (``app.register.ProcessoRecorder``)."""

    def for_processo(self, file: Path) -> ActRecorder:
        """The register of the processo in ``file`` (one that records nothing when it has none)."""


def document_identity(loaded: LoadedCase) -> tuple[str, ...]:
    """What identifies the document of a case file of one document (the old format), for its verification code:
    its law, kind and number, and its processo; without a number, also its file name."""
    case = loaded.case
    return ("caso", case.lei, case.documento, case.numero or "", case.processo or "",
            "" if case.numero else loaded.file.name)


def _stem(loaded: LoadedCase) -> str:
    case = loaded.case
    base = case.documento.replace("_", "-") + "-" + case.lei.split("/", 1)[0]
    if case.numero:
        num, year = case.numero.split("/")
        return f"{base}-{year}-{int(num):04d}"
    return f"{base}-{re.sub(r'[^A-Za-z0-9_-]+', '-', loaded.file.stem)}"


@dataclass(frozen=True)
class CaseOutcome:
    """What generating one case gave, small enough to come back from a worker process: the files written
    (``draft``: a minuta) or the error, as the one-process run prints it (``str(AutosError)``) and its exit
    code."""

    path: Path
    files: list[Path] = field(default_factory=list)
    draft: bool = False
    error: str | None = None
    exit_code: int = 0
    note: str | None = None  # said to the user, not an error (a processo with no act to document)
    unchanged: list[Path] = field(default_factory=list)
    exemplos: list[str] = field(default_factory=list)  # a MINUTA because it uses these example values


@dataclass
class DocumentContext:
    """What a document is rendered from: the validation report, the statute, the template name and the
    one context object both renderers read."""

    report: Report
    statute: Statute
    template: str
    context: dict[str, Any]
    draft: bool
    #: the verification code printed (:func:`document_identity`)
    codigo: str = ""
    exemplos: list[str] = field(default_factory=list)


def _located(exc: AutosError, loaded: LoadedCase, default_path: str | None = None) -> AutosError:
    """``exc`` naming the case file, its YAML path and line: the calculators know the path in the case only
    (an error that already names a file — the rules' — is left as it is)."""
    if exc.file is None:
        exc.file = str(loaded.file)
        exc.path = exc.path or default_path
        if exc.path and exc.line is None:
            exc.line = loaded.line_of(path_key(exc.path))
        exc.args = (exc.render(),)
    return exc


def validation_exit_code(reports: list[Report]) -> int:
    """``autos validar``: 0 clean, 1 some case has erro findings, 2 some case could not be read."""
    if any(r.error is not None for r in reports):
        return 2
    return 1 if any(r.errors for r in reports) else 0


def _fines_or_none(computed: CaseComputation) -> FineResult | None:
    """In a draft, a fine that cannot be computed yet is simply left out (its finding is listed)."""
    try:
        return computed.fines()
    except AutosError:
        return None


def _deadlines_or_empty(computed: CaseComputation) -> tuple[list[DeadlineLine], str | None]:
    from autos.documents.notice import document_lines

    try:
        return document_lines(computed.case_deadlines())
    except AutosError:
        return [], None
