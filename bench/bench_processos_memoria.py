"""Peak memory and CPU of ``autos pendencias`` and ``autos verificar`` over many processo files.

The processos are those of ``bench_verificar_registro.py``: copies of ``samples/processos`` (dates moved back by up to
120 days, ~5 acts each), every copy with its own act numbers and place, so that the checks across processos run over
N different processos. They are generated into a temporary folder for each size (``--processos 1000,10000``;
100,000 take a while: ~0.5 GB of files and some minutes per command).

Each measurement is the command as a user types it (``python -m autos.cli --hoje 2026-11-30 pendencias PASTA``,
``… verificar --sem-registro PASTA``; the output, the whole report, to ``/dev/null``) in a fresh process started by a
small interpreter, which reads the child's peak RSS and CPU (user + sys) with ``os.wait4``. Rounds are interleaved
(pendencias, verificar, pendencias…; ``--rodadas``, 3 by default, ``--rodadas-maior`` for the largest size); the
figures are min and median over the rounds. Memory is flat when the peak with the largest size is within 1.2× the
peak with the smallest; the growth per processo is (peak at the largest − peak at the smallest) ÷ (difference in
processos).

Run: ``.venv/bin/python bench/bench_processos_memoria.py [--processos 1000,10000,100000] [--rodadas 3]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_processo import HOJE, _make  # noqa: E402 - the same generated processos
from bench_verificar_registro import _distinct  # noqa: E402

_PEAK_OF_CHILD = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))
"""
COMMANDS = {"pendencias": ["pendencias"], "verificar": ["verificar", "--sem-registro"]}


def _measure(command: str, folder: Path) -> tuple[float, float, float, int]:
    """Peak RSS (MiB), CPU and wall seconds and exit code of one run of the command in a fresh process (started by
    a small interpreter: a process's peak counts the memory of the process it was forked from until it executes)."""
    argv = [sys.executable, "-m", "autos.cli", "--hoje", HOJE.isoformat(), *COMMANDS[command], str(folder)]
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _PEAK_OF_CHILD, *argv], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]) / 1024, float(out[1]), time.perf_counter() - t0, int(out[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processos", default="1000,10000", help="sizes, separated by commas (default 1000,10000)")
    ap.add_argument("--rodadas", type=int, default=3, help="interleaved rounds per size (min and median)")
    ap.add_argument("--rodadas-maior", type=int, default=None, help="rounds for the largest size (default: --rodadas)")
    ap.add_argument("--comandos", default="pendencias,verificar")
    args = ap.parse_args()
    sizes = sorted(int(x) for x in args.processos.split(","))
    commands = args.comandos.split(",")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{time.strftime('%d/%m/%Y %H:%M UTC', time.gmtime())}; Python {sys.version.split()[0]}; carga (uptime) "
          f"{load}; núcleos {sorted(os.sched_getaffinity(0))}", flush=True)
    peaks: dict[str, dict[int, list[float]]] = {c: {} for c in commands}
    for n in sizes:
        rounds = args.rodadas_maior if n == sizes[-1] and args.rodadas_maior else args.rodadas
        with tempfile.TemporaryDirectory(prefix="autos-bench-processos-") as tmp:
            folder = Path(tmp) / "processos"
            folder.mkdir()
            t0 = time.perf_counter()
            files, mean_acts = _make(folder, n)
            _distinct(files)
            print(f"{n:,} processos ({mean_acts:.1f} atos em média) gerados em {time.perf_counter() - t0:.0f} s",
                  flush=True)
            runs: dict[str, list[tuple[float, float, float, int]]] = {c: [] for c in commands}
            for r in range(max(1, rounds)):
                for c in commands:
                    runs[c].append(res := _measure(c, folder))
                    print(f"  rodada {r + 1} {c:10s}: pico {res[0]:7.1f} MiB, CPU {res[1]:7.1f} s, parede "
                          f"{res[2]:7.1f} s, saída {res[3]}", flush=True)
            for c in commands:
                rss = [x[0] for x in runs[c]]
                cpu = [x[1] / n * 1000 for x in runs[c]]
                peaks[c][n] = rss
                print(f"  {c:10s} {n:>7,}: pico de RSS mín/mediana {min(rss):.1f}/{statistics.median(rss):.1f} MiB; "
                      f"CPU por processo {min(cpu):.2f}/{statistics.median(cpu):.2f} ms "
                      f"(carga {' '.join(f'{x:.2f}' for x in os.getloadavg())})", flush=True)
    if len(sizes) > 1:
        for c in commands:
            lo, hi = statistics.median(peaks[c][sizes[0]]), statistics.median(peaks[c][sizes[-1]])
            per = (hi - lo) * 1024 / (sizes[-1] - sizes[0])
            print(f"{c}: pico com {sizes[-1]:,} ÷ pico com {sizes[0]:,} = {hi / lo:.3f}× "
                  f"({per:+.2f} KiB por processo; meta: ≤ 1,2×)")


if __name__ == "__main__":
    main()
