from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from autos.app.generation.pipeline import Autos
from autos.rules.official import FOLDER_ENV

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = ROOT / "samples"
CASOS = DATA / "casos"  # old single-document case files (the per-document path stays tested)
TODAY = date(2026, 11, 29)  # fixed reference date: tests do not depend on the clock
#: the official values of the test municipalities (fictitious, every example of the shipped rules set with an act):
#: a test about something else reads final documents, not MINUTAs; a test of the examples themselves removes it
#: (fixture ``shipped_examples``). Set here, before any test, so the commands a test runs in a subprocess see it too.
OFFICIAL_VALUES = DATA / "valores-oficiais-de-teste"
os.environ[FOLDER_ENV] = str(OFFICIAL_VALUES)
#: the validated rules the runs keep between them (rules/snapshot.py) go to a folder of this test run, not to the
#: user's ~/.cache; every test process (and the commands a test runs in a subprocess) shares it, as runs do
if "AUTOS_CACHE" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="autos-testes-cache-")
    os.environ["AUTOS_CACHE"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    """A test process holds a large, long-lived heap (every collected test, the rules, the renderers' caches): with
    Python's default thresholds (700, 10, 10) its cyclic collector spent ≈ 11 % of the CPU of a run of test_documents,
    test_processo_kinds and test_publish (6.8 s of 60 s), half as much with a young generation of 10,000 objects.
    Only the test processes: the library's own workers tune theirs (app/edital_jobs.tune_gc)."""
    gc.set_threshold(10_000, 10, 10)


def expected_finding(found: list[dict[str, Any]], exp: dict[str, Any]) -> dict[str, Any]:
    """The finding of ``autos validar --json`` (``found``: its ``achados``) with ``exp``'s code at ``exp``'s line,
    whose message, citation and hint hold each of ``exp["contem"]`` (an invalid fixture's expectation)."""
    matches = [f for f in found if f["codigo"] == exp["codigo"] and f["linha"] == exp["linha"]]
    assert matches, f"{exp['codigo']} at line {exp['linha']} not in {found}"
    text = " ".join(str(matches[0][k] or "") for k in ("mensagem", "citacao", "dica"))
    for words in exp["contem"]:
        assert words in text, f"{words!r} not in {text!r}"
    return matches[0]


def load_shipped_rules() -> Any:
    """The shipped rules with their example values, read at import time by a module of vectors (the official values
    of the test municipalities are left out while they are read)."""
    from autos.rules.statute import load_rules

    saved = os.environ.pop(FOLDER_ENV, None)
    try:
        return load_rules(ROOT / "rules")
    finally:
        if saved is not None:
            os.environ[FOLDER_ENV] = saved


@pytest.fixture
def shipped_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped rules as they are, with their example values (no official values anywhere)."""
    monkeypatch.delenv(FOLDER_ENV, raising=False)


@pytest.fixture(scope="session")
def autos() -> Autos:
    return Autos(ROOT / "rules", ROOT / "templates", today=TODAY)


# --------------------------------------------------------------------------------------------------
# the register and the ledger on both backends: SQLite always, PostgreSQL when its server is installed


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """A throw-away PostgreSQL cluster for this test process (:mod:`tests.pg`); skipped without the server
    binaries unless ``AUTOS_POSTGRES_OBRIGATORIO=1`` (CI), where it fails."""
    import os

    from . import pg

    if pg.bindir() is None:
        if os.environ.get(pg.REQUIRED_ENV) == "1":
            pytest.fail(f"{pg.REQUIRED_ENV}=1 e o servidor PostgreSQL (initdb, pg_ctl) não está instalado")
        pytest.skip("servidor PostgreSQL não instalado (initdb): só o SQLite é testado")
    cluster = pg.start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@dataclass
class Where:
    """Where a test keeps its register and ledger: a SQLite file (``loc`` a path) or a fresh PostgreSQL database
    (``loc`` a :class:`~autos.store.database.DatabaseUrl`). ``registro``/``livro`` are the command-line options
    that name it."""

    backend: str
    loc: Any  # Path | DatabaseUrl
    ledger_loc: Any

    def at(self, folder: Path) -> Where:
        """The same backend with the SQLite register in ``folder`` (``folder/registro.sqlite3``)."""
        if self.backend != "sqlite":
            return self
        return Where("sqlite", folder / "registro.sqlite3", folder / "livro-editais.sqlite3")

    def stored(self, file: Path) -> str:
        """A processo or document file as the register records it: relative to the register's folder (SQLite),
        absolute (PostgreSQL)."""
        import os

        if self.backend == "sqlite":
            return Path(os.path.relpath(file.resolve(), Path(self.loc).resolve().parent)).as_posix()
        return file.resolve().as_posix()

    @property
    def registro(self) -> list[str]:
        return ["--registro", str(self.loc)] if self.backend == "sqlite" else ["--banco", self.loc.url]

    @property
    def livro(self) -> list[str]:
        return ["--livro", str(self.ledger_loc)] if self.backend == "sqlite" else ["--banco", self.ledger_loc.url]


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def where(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Where:
    """The register (``tmp_path/registro.sqlite3``) and ledger (``tmp_path/livro-editais.sqlite3``) of a test, or
    one fresh PostgreSQL database holding both."""
    if backend == "sqlite":
        return Where("sqlite", tmp_path / "registro.sqlite3", tmp_path / "livro-editais.sqlite3")
    from autos.store.database import DatabaseUrl

    cluster = request.getfixturevalue("pg_cluster")
    url = DatabaseUrl(cluster.url(cluster.new_database()))
    return Where("postgresql", url, url)
