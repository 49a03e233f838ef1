"""The coordinator's own cost per edital — what stays in one place however many rendering workers there are —
on SQLite and on PostgreSQL (issue 16, item 4).

What is timed, per consolidated edital of K cases, exactly as ``autos publicar-editais`` does it (rendering,
gazette merge and file renames excluded: those are the workers' and the filesystem's):

1. the triage: ``Ledger.case_edital`` for each case (a case is published once);
2. the reservation (``Ledger.reserve``): the series' next number, the edital row, K case rows with their YAML text
   (a real fixture, ≈ 1.5 KB) and 2K + 2 planned file rows with their verification codes (``verification_code``),
   one transaction;
3. the commit (``Ledger.commit``): every file's SHA-256 and size, state ``publicado``, one transaction;
4. the date's manifest (``write_manifest``: JSON and CSV, from the ledger), once at the end, its time shared by
   the editais of the run;
5. the register's number of each case's processo (``Register.reserve``), as a clerk's ``autos numerar`` would —
   measured apart ("numerar") since the publication itself does not reserve them.

Both backends run durable: SQLite as the ledger is (WAL off, ``synchronous=FULL``), PostgreSQL with ``fsync=on``
and ``synchronous_commit=on`` (a throw-away cluster started by ``tests/pg.py`` in a temporary folder, on loopback
TCP, as the tests do but durable). Each round uses a fresh ledger or database; rounds interleave the backends.
Reports min and median over the rounds of: ms per edital, ms per case, and the editais (cases) per second one
coordinator can record — the ceiling the rendering workers cannot push past.

Run: ``.venv/bin/python bench/bench_coordinator.py [--editais 200] [--casos-por-edital 1 25] [--rodadas 3]``
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.pg: the throw-away cluster

from autos.app.editais.manifest import write_manifest  # noqa: E402
from autos.app.editais.run import PublishResult  # noqa: E402
from autos.base.ptbr import count_noun, format_decimal  # noqa: E402
from autos.render.gazette import verification_code  # noqa: E402
from autos.store.database import DatabaseUrl  # noqa: E402
from autos.store.ledger import FileRecord, Ledger, PlannedCase  # noqa: E402
from autos.store.register import Register  # noqa: E402

LEI = "ferraz-de-vasconcelos-sp/lei-3240-2015"
DATA = date(2026, 10, 6)
TEXT = (ROOT / "tests" / "data" / "publish" / "casos" / "ferraz" / "auto-301-domicilio-desconhecido.yaml").read_text(
    encoding="utf-8")


def _files(numero: int, keys: list[str]) -> list[FileRecord]:
    rel = f"ferraz-de-vasconcelos-sp/lei-3240-2015/2026/edital-{numero:04d}"

    def code(tipo: str, caso: str = "") -> str:
        return verification_code(LEI, "2026", str(numero), tipo, caso)

    out = [FileRecord("edital_consolidado", f"{rel}/edital.pdf", None, code("edital_consolidado"))]
    for k in keys:
        stem = f"{rel}/edital-auto-{k.split('#')[1].replace('/', '-')}"
        out.append(FileRecord("edital_individual_pdf", f"{stem}.pdf", k, code("edital_individual_pdf", k)))
        out.append(FileRecord("edital_individual_docx", f"{stem}.docx", k, None))
    out.append(FileRecord("caderno", f"{rel}/caderno.pdf", None, code("caderno")))
    return out


def publish_run(location: Any, saida: Path, editais: int, k: int) -> tuple[float, float]:
    """Seconds of (editais × (triage + reserve + commit)) and of the manifest, on a fresh ledger."""
    ledger = Ledger(location)
    ledger.lock()
    n = 0
    t0 = time.perf_counter()
    for _ in range(editais):
        keys = [f"{LEI}#{n + i + 1}/2026" for i in range(k)]
        n += k
        for key in keys:
            assert ledger.case_edital(key) is None
        casos = [PlannedCase(i + 1, key, key.split("#")[1], f"/srv/casos/{i}.yaml",
                             hashlib.sha256(key.encode()).hexdigest(), TEXT, "domicílio desconhecido")
                 for i, key in enumerate(keys)]
        rec = ledger.reserve(LEI, DATA, None, DATA, "Diário Oficial", None, saida, casos,
                             lambda numero, keys=keys: _files(numero, keys))  # type: ignore[misc]
        ledger.commit(rec.id, {f.caminho: (hashlib.sha256(f.caminho.encode()).hexdigest(), 54321)
                               for f in rec.arquivos})
    t1 = time.perf_counter()
    write_manifest(ledger, DATA, PublishResult(DATA), saida)
    t2 = time.perf_counter()
    assert ledger.problems() == [] and len(ledger.editais()) == editais
    ledger.close()
    return t1 - t0, t2 - t1


def numerar_run(location: Any, n: int) -> float:
    with Register.open(location, create=True) as reg:
        t0 = time.perf_counter()
        for i in range(n):
            reg.reserve(LEI, "auto", 2026, processo=f"P-{i}")
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--editais", type=int, default=200)
    ap.add_argument("--casos-por-edital", type=int, nargs="+", default=[1, 25])
    ap.add_argument("--rodadas", type=int, default=3)
    ap.add_argument("--numeros", type=int, default=500, help="reservations of the register's numbers timed")
    args = ap.parse_args()

    from tests.pg import start_cluster

    cluster = start_cluster(durable=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-coord-"))
    results: dict[tuple[str, str], list[float]] = {}
    try:
        backends: dict[str, Callable[[int], Any]] = {
            "sqlite": lambda r: tmp / f"r{r}-{time.monotonic_ns()}" / "livro.sqlite3",
            "postgresql": lambda r: DatabaseUrl(cluster.url(cluster.new_database())),
        }
        for r in range(args.rodadas):
            order = list(backends) if r % 2 == 0 else list(reversed(backends))
            for name in order:
                for k in args.casos_por_edital:
                    loc = backends[name](r)
                    if isinstance(loc, Path):
                        loc.parent.mkdir(parents=True)
                    saida = tmp / f"saida-{name}-{r}-{k}"
                    saida.mkdir()
                    rec, manifest = publish_run(loc, saida, args.editais, k)
                    per_edital = (rec + manifest) / args.editais
                    results.setdefault((name, f"k={k} ms/edital"), []).append(per_edital * 1000)
                    results.setdefault((name, f"k={k} ms/caso"), []).append(per_edital / k * 1000)
                    results.setdefault((name, f"k={k} manifesto ms/edital"), []).append(manifest / args.editais * 1000)
                loc = backends[name](r)
                if isinstance(loc, Path):
                    loc.parent.mkdir(parents=True)
                    loc = loc.with_name("registro.sqlite3")
                results.setdefault((name, "numerar ms/número"), []).append(numerar_run(loc, args.numeros)
                                                                           / args.numeros * 1000)
            print(f"rodada {r + 1}/{args.rodadas} feita", file=sys.stderr)
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{args.editais} editais por rodada, {args.rodadas} rodadas; mínimo e mediana")
    metrics = sorted({m for _, m in results}, key=lambda m: (m.split()[0], m))
    print(f"{'medida':<28}{'SQLite mín':>12}{'mediana':>10}{'PostgreSQL mín':>16}{'mediana':>10}{'PG/SQLite':>11}")
    for m in metrics:
        s, p = results[("sqlite", m)], results[("postgresql", m)]
        print(f"{m:<28}{min(s):>12.3f}{statistics.median(s):>10.3f}{min(p):>16.3f}{statistics.median(p):>10.3f}"
              f"{statistics.median(p) / statistics.median(s):>10.2f}×")
    for k in args.casos_por_edital:
        for name in ("sqlite", "postgresql"):
            per_case = statistics.median(results[(name, f"k={k} ms/caso")])
            print(f"{name}, {count_noun(k, 'caso', 'casos')} por edital: um coordenador registra até "
                  f"{format_decimal(Decimal(round(1000 / per_case)))} casos (editais individuais) por segundo")


if __name__ == "__main__":
    main()
