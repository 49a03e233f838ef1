"""Overnight edital publication on Dask against today's process pool; the coordinator's own cost; a projection.

1. Generates N autos de infração (default 120) with ``bench_publish.generate`` (the two laws that publish editais,
   four templates, valid CPF/CNPJ, varied names, amounts and dates).
2. Starts once (outside the timings) a ``LocalCluster`` of W worker processes (default 2), one thread each, on
   loopback, configured as the runbook's deployment (``autos.app.batch.cluster.WORKER_CONFIG``: the workers' statistical
   profiler off; ``--padrao-do-dask`` keeps Dask's defaults, to see what the profiler costs), and runs, on the
   same N cases, for R rounds (default 3, order alternating from round to round):
   - **processos**: ``autos publicar-editais --processos W`` (the process pool of today);
   - **dask**: ``autos publicar-editais --dask tcp://127.0.0.1:PORT`` against that cluster.
   Each run is a child process (the coordinator); its CPU comes from ``wait4`` (with the pool, the pool's workers
   are its children and are included). For the Dask run, the workers' CPU is read from ``/proc`` (psutil) before
   and after, and the scheduler's and nannies' (threads of this benchmark process) from ``getrusage``: the Dask
   figure is coordinator + workers + scheduler.
3. Reports, per contender, CPU per individual edital (= per case) and wall time, min and median, and the ratio
   pool ÷ dask per round (> 1: Dask is faster; the goal is ≥ 0.9×).
4. The coordinator's own cost: in the Dask run the coordinator renders nothing — its CPU is reading the results,
   numbering, the ledger transaction, the gazette (merging every PDF, stamping the folios), re-hashing every file,
   the manifest, and the Dask client. Its fixed part (start, imports, connecting, checking the workers) is measured
   by a run on a folder with no case; the marginal cost per case is (CPU − fixed) ÷ N. With ``--max-por-edital``
   small in an extra run (``--editais-pequenos``), the cost per edital (reservation, consolidated edital's
   context, commit) is separated from the cost per case.
5. Projection: how many worker cores one coordinator feeds (worker CPU per case ÷ coordinator CPU per case), and,
   for a state-wide night (``--noite-casos`` 100,000 individual editais of ``--noite-municipios`` 853
   municipalities, in ``--janela-horas`` 6 h), the worker cores and coordinators it needs.

The machine may be shared: the load average is printed with every round; compare figures only from one run.

With ``--postgresql`` the ledger is on PostgreSQL: a throw-away durable server (``tests/pg.py``, as
``bench_coordinator.py``) and a new, migrated database for every run (the same cases are published in each run).

Run:  ``.venv/bin/python bench/bench_dask.py [--casos 120] [--rodadas 3] [--trabalhadores 2] [--postgresql]``
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_publish import DATA, TODAY, generate

from autos.base.ptbr import count_noun

POOL, DASK = "processos (conjunto de processos)", "dask (LocalCluster)"


def _cmd(cases: Path, out: Path, how: list[str], banco: str | None, extra: list[str] | None = None) -> list[str]:
    return [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "publicar-editais", str(cases),
            "--data", DATA.isoformat(), "-o", str(out), *how,
            "--veiculo", "timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
            "--veiculo", "Quadro de Editais do Paço Municipal", "--jornal", "Jornal Diário do Aço",
            *(["--banco", banco] if banco else []), *(extra or [])]


def _child(cmd: list[str], workdir: Path) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    out_path, err_path = workdir.parent / f"{workdir.name}.stdout", workdir.parent / f"{workdir.name}.stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    if rc not in (0, 1):
        raise SystemExit(f"publicar-editais falhou ({rc}):\n{out_path.read_text()[-3000:]}\n"
                         f"{err_path.read_text()[-3000:]}")
    cases = len([p for p in workdir.rglob("*-auto-*.pdf")])
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "cases": cases,
            "editais": len(list(workdir.rglob("caderno-*.pdf")))}


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _workers_cpu(pids: list[int]) -> float:
    import psutil

    total = 0.0
    for pid in pids:
        t = psutil.Process(pid).cpu_times()
        total += t.user + t.system
    return total


def _mm(values: list[float], fmt: str) -> str:
    return f"mín {fmt.format(min(values))}, mediana {fmt.format(statistics.median(values))}"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=120)
    ap.add_argument("--rodadas", type=int, default=3)
    ap.add_argument("--trabalhadores", type=int, default=2, help="processos do conjunto = trabalhadores do Dask")
    ap.add_argument("--postgresql", action="store_true",
                    help="livro no PostgreSQL: um servidor descartável e um banco novo, migrado, por execução")
    ap.add_argument("--editais-pequenos", type=int, default=10,
                    help="casos por edital na rodada extra que separa o custo por edital (0: sem essa rodada)")
    ap.add_argument("--noite-casos", type=int, default=100_000)
    ap.add_argument("--noite-municipios", type=int, default=853)
    ap.add_argument("--janela-horas", type=float, default=6.0)
    ap.add_argument("--padrao-do-dask", action="store_true",
                    help="cluster com a configuração padrão do Dask (perfilador ligado), não a do runbook")
    ap.add_argument("--manter", type=Path, default=None)
    args = ap.parse_args()
    work = args.manter or Path(tempfile.mkdtemp(prefix="bench-dask-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        _bench(args, work)
    finally:
        if args.manter is None:
            shutil.rmtree(work, ignore_errors=True)


def _bench(args: argparse.Namespace, work: Path) -> None:
    import dask
    from distributed import Client, LocalCluster

    from autos.app.batch.cluster import WORKER_CONFIG, profiler_enabled

    cases, empty = work / "casos", work / "vazio"
    shutil.rmtree(cases, ignore_errors=True)
    per_law = generate(cases, args.casos)
    empty.mkdir(exist_ok=True)
    w = args.trabalhadores
    print(f"{args.casos} casos ({', '.join(f'{k}: {v}' for k, v in sorted(per_law.items()))}); {w} processos / "
          f"trabalhadores; {count_noun(len(os.sched_getaffinity(0)), 'núcleo', 'núcleos')}; "
          f"Python {sys.version.split()[0]}; "
          f"livro: {'PostgreSQL' if args.postgresql else 'SQLite'}; carga (uptime): {_load()}")
    t0 = time.perf_counter()
    config = {} if args.padrao_do_dask else WORKER_CONFIG
    with dask.config.set(config):  # the nannies hand this configuration to their workers
        cluster = LocalCluster(n_workers=w, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
    client = Client(cluster, set_as_default=False)
    print(f"LocalCluster no ar em {time.perf_counter() - t0:.1f} s (fora das medidas); configuração: "
          f"{', '.join(f'{k}={v}' for k, v in config.items()) or 'a padrão do Dask'}; perfilador nos trabalhadores: "
          f"{'ligado' if any(client.run(profiler_enabled).values()) else 'desligado'}")
    address = cluster.scheduler_address
    server = None
    if args.postgresql:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.pg: the throw-away server
        from tests.pg import start_cluster

        server = start_cluster(durable=True)

    def banco() -> str | None:
        """A new database, migrated (``autos banco migrar``), for one run; ``None`` for the SQLite ledger."""
        if server is None:
            return None
        url = server.url(server.new_database())
        subprocess.run([sys.executable, "-m", "autos.cli", "banco", "migrar", "--banco", url], check=True,
                       capture_output=True)
        return url

    try:
        def pool(out: Path) -> dict[str, Any]:
            return _child(_cmd(cases, out, ["--processos", str(w)], banco()), out)

        def dask(out: Path, folder: Path = cases, extra: list[str] | None = None) -> dict[str, Any]:
            url = banco()  # outside the timings, like the cluster
            pids = list(client.run(os.getpid).values())
            before_w, before_s = _workers_cpu(pids), _self_cpu()
            r = _child(_cmd(folder, out, ["--dask", address], url, extra), out)
            r["workers_cpu"] = _workers_cpu(pids) - before_w
            r["sched_cpu"] = _self_cpu() - before_s
            r["coord_cpu"] = r["cpu"]
            r["cpu"] = r["coord_cpu"] + r["workers_cpu"] + r["sched_cpu"]
            return r

        contenders: list[tuple[str, Callable[[Path], dict[str, Any]]]] = [(POOL, pool), (DASK, dask)]
        runs: dict[str, list[dict[str, Any]]] = {POOL: [], DASK: []}
        fixed: list[float] = []
        for rnd in range(max(1, args.rodadas)):
            order = contenders if rnd % 2 == 0 else contenders[::-1]
            print(f"\n=== rodada {rnd + 1} (carga {_load()}) ===")
            for name, fn in order:
                out = work / f"saida-{rnd}-{'dask' if name == DASK else 'pool'}"
                shutil.rmtree(out, ignore_errors=True)
                r = fn(out)
                runs[name].append(r)
                detail = (f" [coordenador {r['coord_cpu']:.1f} s, trabalhadores {r['workers_cpu']:.1f} s, agendador "
                          f"{r['sched_cpu']:.1f} s]" if name == DASK else "")
                print(f"  {name}: {r['wall']:.1f} s, CPU {r['cpu']:.1f} s = {1000 * r['cpu'] / r['cases']:.0f} ms "
                      f"por edital individual ({r['cases']} casos, {r['editais']} editais){detail}")
                shutil.rmtree(out, ignore_errors=True)
            out = work / f"vazio-{rnd}"
            fixed.append(dask(out, empty)["coord_cpu"])
            print(f"  coordenador sem casos (custo fixo: partida, conexão, conferência dos trabalhadores): "
                  f"{fixed[-1]:.2f} s")
            shutil.rmtree(out, ignore_errors=True)
        small = None
        if args.editais_pequenos:
            out = work / "pequenos"
            small = dask(out, cases, ["--max-por-edital", str(args.editais_pequenos)])
            print(f"\nrodada extra, dask com --max-por-edital {args.editais_pequenos}: {small['editais']} editais, "
                  f"coordenador {small['coord_cpu']:.1f} s (carga {_load()})")
            shutil.rmtree(out, ignore_errors=True)
    finally:
        client.close()
        if server is not None:
            server.stop()
        cluster.close()
    _summary(args, runs, fixed, small)


def _summary(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]], fixed: list[float],
             small: dict[str, Any] | None) -> None:
    n = args.casos
    print(f"\n=== resumo: {n} casos, {args.trabalhadores} processos/trabalhadores, {len(runs[POOL])} rodadas "
          f"(carga no fim {_load()}) ===")
    for name, rs in runs.items():
        print(f"{name}:\n  CPU por edital individual: {_mm([1000 * r['cpu'] / r['cases'] for r in rs], '{:.0f} ms')};"
              f" parede: {_mm([r['wall'] for r in rs], '{:.1f} s')}; editais/s: "
              f"{_mm([r['cases'] / r['wall'] for r in rs], '{:.1f}')}")
    cpu = [(p["cpu"] / p["cases"]) / (d["cpu"] / d["cases"]) for p, d in zip(runs[POOL], runs[DASK], strict=True)]
    wall = [p["wall"] / d["wall"] for p, d in zip(runs[POOL], runs[DASK], strict=True)]
    print(f"processos ÷ dask (por rodada; ≥ 0,9 é a meta; > 1: o Dask é mais rápido):\n"
          f"  CPU por edital: {', '.join(f'{x:.2f}×' for x in cpu)} ({_mm(cpu, '{:.2f}×')})\n"
          f"  parede: {', '.join(f'{x:.2f}×' for x in wall)} ({_mm(wall, '{:.2f}×')})")
    d = runs[DASK]
    fixed_cpu = min(fixed)
    coord = [(r["coord_cpu"] - fixed_cpu) / r["cases"] for r in d]
    worker = [r["workers_cpu"] / r["cases"] for r in d]
    sched = [r["sched_cpu"] / r["cases"] for r in d]
    print(f"coordenador: custo fixo {_mm(fixed, '{:.2f} s')}; por edital individual (marginal) "
          f"{_mm([1000 * c for c in coord], '{:.1f} ms')}; trabalhadores por edital individual "
          f"{_mm([1000 * x for x in worker], '{:.0f} ms')}; agendador por edital individual "
          f"{_mm([1000 * x for x in sched], '{:.1f} ms')}")
    c_coord, c_work = statistics.median(coord), statistics.median(worker)
    per_edital = None
    if small is not None:
        big_editais = statistics.median(r["editais"] for r in d)
        extra = small["editais"] - big_editais
        if extra > 0:
            per_edital = max(0.0, (small["coord_cpu"] - fixed_cpu - c_coord * small["cases"]) / extra)
            print(f"coordenador por edital (reserva, contexto do consolidado, commit), da rodada extra: "
                  f"{1000 * per_edital:.0f} ms")
    feed = c_work / c_coord if c_coord > 0 else math.inf
    print(f"\n=== projeção (medianas) ===\num coordenador (um núcleo) alimenta até ≈ {feed:.0f} núcleos de "
          f"trabalhador antes de ser o gargalo (CPU do trabalhador ÷ CPU do coordenador por edital individual)")
    night, hours, towns = args.noite_casos, args.janela_horas, args.noite_municipios
    editais = max(towns, math.ceil(night / 250))
    coord_total = night * c_coord + editais * (per_edital or 0.0) + fixed_cpu
    work_total = night * c_work
    cores = math.ceil(work_total / (hours * 3600 * 0.8))
    print(f"noite estadual: {night} editais individuais de {towns} municípios (≥ {editais} editais consolidados), "
          f"janela de {hours:g} h:\n"
          f"  trabalhadores: {work_total / 3600:.1f} h de CPU → {cores} núcleos a 80% de uso na janela "
          f"({work_total / (cores * 0.8) / 3600:.1f} h)\n"
          f"  coordenador: {coord_total / 3600:.2f} h de CPU → "
          f"{count_noun(math.ceil(coord_total / (hours * 3600 * 0.5)), 'coordenador', 'coordenadores')} "
          "a 50% de um núcleo; "
          f"{math.ceil(cores / feed) if feed != math.inf else 1} pelo limite de alimentação")


if __name__ == "__main__":
    main()
