"""``autos gerar`` on many cases: the process pool (``--processos P``) against the one-process run.

Generates N cases (default 120) from the samples (bench_documents' generator: every law and kind, names,
numbers, dates and CPF/CNPJ varied; about a fifth incomplete and 1% unreadable) and runs, for R rounds
(default 3), ``autos gerar --minuta`` (so that the incomplete cases render too) with ``--processos 1`` and
with ``--processos P`` (default: the cores available), alternating which goes first, each in a child process,
on the same cases and with the same options. Reports, per contender, the wall time and the CPU (user + system
of the child and of the workers it waited for, from ``wait4``) per document, min and median over the rounds,
and the speed-up (wall of one process ÷ wall of the pool) per round, min and median. Each round also measures
the machine's own ceiling for P CPU-bound processes (a pure-Python loop alone, and P copies at once): where the
cores are shared (a VM's vCPUs) it is below P, and the speed-up is reported as a share of it too.

Run: ``.venv/bin/python bench/bench_gerar.py [--casos 120] [--rodadas 3] [--processos P] [--formato ambos]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_documents import TODAY, generate_cases

from autos.base.ptbr import count_noun


def run(cases: Path, out: Path, processes: int, formato: str) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "gerar", str(cases), "--minuta",
           "--formato", formato, "-o", str(out), "--processos", str(processes)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    report = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 2):  # 2: the unreadable cases
        raise SystemExit(f"gerar falhou ({code})")
    docs = len([p for p in out.iterdir() if p.suffix in (".pdf", ".docx")])
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "docs": docs, "code": code, "report": report}


_SPIN = "s = 0\nfor i in range(20_000_000):\n    s += i * i\n"


def machine_ceiling(processes: int) -> float:
    """What this machine gives ``processes`` CPU-bound processes at once: the wall of one pure-Python loop alone
    times ``processes``, over the wall of ``processes`` copies run together. On a machine whose cores are shared
    (a VM's vCPUs) this is below ``processes`` and bounds any pool's speed-up, ours included."""
    cmd = [sys.executable, "-c", _SPIN]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    alone = time.perf_counter() - t0
    t0 = time.perf_counter()
    procs = [subprocess.Popen(cmd) for _ in range(processes)]
    for proc in procs:
        proc.wait()
    together = time.perf_counter() - t0
    return processes * alone / together


def _mm(values: list[float], fmt: str) -> str:
    return f"mín {fmt.format(min(values))}, mediana {fmt.format(statistics.median(values))}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=120, help="casos gerados (os mesmos para os dois)")
    ap.add_argument("--rodadas", type=int, default=3, help="rodadas intercaladas (≥ 3 para mín e mediana)")
    ap.add_argument("--processos", type=int, default=None, help="processos do pool (padrão: núcleos disponíveis)")
    ap.add_argument("--formato", choices=["docx", "pdf", "ambos"], default="ambos")
    args = ap.parse_args()
    processes = args.processos or len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="autos-bench-gerar-") as tmp:
        cases = Path(tmp) / "casos"
        made = generate_cases(cases, args.casos)
        print(f"{args.casos} casos {made}; "
              f"{count_noun(len(os.sched_getaffinity(0)), 'núcleo disponível', 'núcleos disponíveis')}; pool de "
              f"{processes}; formato {args.formato}; carga (uptime) {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        runs: dict[int, list[dict[str, Any]]] = {1: [], processes: []}
        ceilings: list[float] = []
        for rnd in range(max(1, args.rodadas)):
            ceilings.append(machine_ceiling(processes))
            print(f"  rodada {rnd + 1}, teto da máquina para {processes} processos (laço Python puro, sozinho × "
                  f"{processes} ÷ {processes} juntos): {ceilings[-1]:.2f}×", flush=True)
            order = [1, processes] if rnd % 2 == 0 else [processes, 1]
            for p in order:
                out = Path(tmp) / f"saida-{p}"
                shutil.rmtree(out, ignore_errors=True)
                r = run(cases, out, p, args.formato)
                runs[p].append(r)
                print(f"  rodada {rnd + 1}, --processos {p}: {r['wall']:.1f} s, CPU {r['cpu']:.1f} s, {r['docs']} "
                      f"documentos (saída {r['code']}; carga {os.getloadavg()[0]:.2f})", flush=True)
        same = all(r["report"].replace(f"saida-{processes}".encode(), b"saida-1") == runs[1][0]["report"]
                   for r in runs[processes])
        print(f"relatório impresso igual nos dois: {'sim' if same else 'NÃO'}")
        for p, rs in runs.items():
            print(f"--processos {p}: parede {_mm([r['wall'] for r in rs], '{:.1f} s')}; CPU por documento "
                  f"{_mm([1000 * r['cpu'] / r['docs'] for r in rs], '{:.0f} ms')}")
        speedup = [a["wall"] / b["wall"] for a, b in zip(runs[1], runs[processes], strict=True)]
        print(f"aceleração (parede de 1 processo ÷ parede do pool de {processes}), por rodada: "
              f"{', '.join(f'{x:.2f}×' for x in speedup)} ({_mm(speedup, '{:.2f}×')})")
        share = [s / c for s, c in zip(speedup, ceilings, strict=True)]
        print(f"teto da máquina por rodada: {', '.join(f'{x:.2f}×' for x in ceilings)} ({_mm(ceilings, '{:.2f}×')}); "
              f"aceleração ÷ teto: {', '.join(f'{x:.0%}' for x in share)} ({_mm(share, '{:.0%}')})")


if __name__ == "__main__":
    main()
