"""What a ``publicar-editais`` run is asked (:class:`Options`, the ``--veiculo``/``--jornal`` values:
:func:`place_option`) and what it reports (:class:`PublishResult`, its exit codes)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from autos.app.editais.jobs import Prepared
from autos.app.editais.manifest import CaseProblem
from autos.app.signing import SignerSpec
from autos.errors import AutosError
from autos.store.database import Location
from autos.store.ledger import DEFAULT_LEDGER_NAME

EXIT_OK = 0  #: every selected case published (or nothing to publish)
EXIT_REJECTED = 1  #: the batch ran to the end, but some cases were refused (listed in the manifest)
EXIT_ERROR = 2  #: stopped by an error; nothing of the failing edital is left (earlier editais stay published)

AUTO_KIND = "auto_de_infracao"
INDIVIDUAL_KIND = "edital_notificacao"
CONSOLIDATED_TEMPLATE = "edital_consolidado"


FILE_LABELS = {
    "edital_consolidado": "edital consolidado (PDF)",
    "edital_individual_pdf": "edital individual (PDF)",
    "edital_individual_docx": "edital individual (DOCX)",
    "caderno": "caderno para o diário oficial (PDF unificado)",
}


@dataclass(frozen=True)
class Options:
    casos: Path | tuple[Path, ...]  # folders or files of cases (old per-document files) and processos
    data: date
    saida: Path
    data_jornal: date | None = None  # None: the same date as ``data``
    veiculos: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", official press)
    jornais: tuple[tuple[str, str], ...] = ()  # (municipio_dir or "*", local newspaper)
    livro: Location | None = None  # None: <saida>/livro-editais.sqlite3; or a PostgreSQL database (--banco)
    dry_run: bool = False
    workers: int | None = None  # None: every core; 1: in this process
    dask: str | None = None  # address of a Dask scheduler (tcp://host:8786): its workers render, not a local pool
    max_por_edital: int = 250
    lote: int = 8  # cases per rendering task
    rules_dir: Path | None = None
    templates_dir: Path | None = None
    today: date | None = None
    assinar: SignerSpec | None = None  # --assinar: every PDF is signed before its hash goes to the ledger

    @property
    def pastas(self) -> tuple[Path, ...]:
        """The folders (or files) of cases and processos: ``casos`` is one path or several."""
        return (self.casos,) if isinstance(self.casos, Path) else tuple(self.casos)

    @property
    def ledger_path(self) -> Location:
        return self.livro if self.livro is not None else self.saida / DEFAULT_LEDGER_NAME


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
    edital_no_processo: int = 0  # processos whose file already has the edital act with its publications
    ignorados: int = 0
    lidos: int = 0
    manifesto: list[Path] = field(default_factory=list)
    erro: AutosError | None = None
    registrados: list[str] = field(default_factory=list)  # processo files the edital act was appended to
    nao_registrados: list[CaseProblem] = field(default_factory=list)  # published, but the file could not take it

    @property
    def exit_code(self) -> int:
        if self.erro is not None:
            return EXIT_ERROR
        return EXIT_REJECTED if self.recusados or self.nao_registrados else EXIT_OK

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


#: the options of a ``publicar-editais`` run, as the public API names them
PublishOptions = Options
