"""``autos verificar`` with the register against the same run without it (issue 12: goal ≥ 0.8×).

The processos are those of ``bench_processo.py`` (copies of ``samples/processos``, dates moved back by up to 120
days), made distinct as a real folder is: every act number of copy *i* gets its own number (``17/2026`` →
``10017/2026`` for copy 1; other numbers get ``-i``) and the place its lot, so the checks across processos run
over 10,000 different processos instead of reporting thousands of copies. ``autos registro reconstruir`` then
indexes the folder into ``registro.sqlite3`` beside it (not measured).

Each measurement is a fresh child process pinned to one core (``os.sched_setaffinity``; run the whole script
under ``taskset -c 0`` as well), which imports the library once and then, timed: ``verify()`` over the folder and
the whole text report written to ``/dev/null`` — exactly ``autos verificar PASTA`` — with the register found
beside the processos (``com-registro``) or with ``use_register=False`` (``sem-registro``, as
``--sem-registro``). Rounds are interleaved (with, without, with…). Reported per kind: CPU per processo
(``time.process_time``) and wall time, minimum and median over the rounds, and peak RSS
(``resource.getrusage``). The ratio is time without ÷ time with (1.0: the register costs nothing; goal ≥ 0.8).

Run: ``taskset -c 0 .venv/bin/python bench/bench_verificar_registro.py [--processos 10000] [--rodadas 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_processo import HOJE, _make  # noqa: E402 - the same generated processos

_ACT_NUMBER = re.compile(r'^([ \t]+(?:numero|referente): )"?([^"\n]+?)"?$', re.M)
_NUMBERED = re.compile(r"^(\d+)/(\d{4})$")


def _distinct(files: list[Path]) -> None:
    """Give every copy its own act numbers (consistently within the file, so references still hold) and place."""
    for i, f in enumerate(files, start=1):
        text = f.read_text(encoding="utf-8")

        def number(m: re.Match[str], i: int = i) -> str:
            value = m[2]
            nm = _NUMBERED.match(value)
            new = f"{i}{int(nm[1]):04d}/{nm[2]}" if nm else f"{value}-{i}"
            return f'{m[1]}"{new}"'

        text = _ACT_NUMBER.sub(number, text)
        text = re.sub(r"^(local: .*)$", rf"\1, lote {i}", text, count=1, flags=re.M)
        f.write_text(text, encoding="utf-8")


def _child(kind: str, folder: Path) -> None:
    """One measurement in this fresh process: the library is imported once, then verify + the text report."""
    from autos.app.generation.pipeline import Autos
    from autos.app.verification.verify import iter_verification_text, verify

    autos = Autos(ROOT / "rules", ROOT / "templates", today=HOJE)
    c0, t0 = time.process_time(), time.perf_counter()
    with verify(autos, [folder], use_register=kind == "com-registro") as v, open(os.devnull, "w") as out:
        for line in iter_verification_text(v):
            out.write(line + "\n")
        n = v.totais["casos"]
        ilegiveis = v.totais["ilegiveis"]
        cross = len(v.cruzados)
        registros = len(v.registros)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"cpu": cpu, "wall": wall, "rss_kib": rss, "n": n, "ilegiveis": ilegiveis, "cruzados": cross,
                      "registros": registros}))


def _run(kind: str, folder: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--filho", kind, str(folder)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processos", type=int, default=10_000)
    ap.add_argument("--rodadas", type=int, default=3)
    ap.add_argument("--nucleo", type=int, default=0, help="the one core to run on (children inherit it)")
    ap.add_argument("--filho", nargs=2, metavar=("TIPO", "PASTA"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.filho:
        _child(args.filho[0], Path(args.filho[1]))
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.nucleo})
    load = os.getloadavg()
    print(f"{time.strftime('%d/%m/%Y %H:%M UTC', time.gmtime())}; carga (uptime) {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} em {os.cpu_count()} núcleos; medido num núcleo ({args.nucleo})", flush=True)
    from autos.app.register.service import rebuild_folder

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "processos"
        folder.mkdir()
        files, mean_acts = _make(folder, args.processos)
        _distinct(files)
        t0 = time.perf_counter()
        rebuilt = rebuild_folder(folder, None)
        assert not rebuilt.falhas and rebuilt.processos == args.processos, rebuilt.falhas[:3]
        print(f"{args.processos} processos ({mean_acts:.1f} atos em média); registro reconstruído em "
              f"{time.perf_counter() - t0:.1f} s (não medido)", flush=True)
        kinds = ("com-registro", "sem-registro")
        runs: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
        for r in range(args.rodadas):
            for kind in kinds:  # interleaved: one of each per round
                runs[kind].append(res := _run(kind, folder))
                print(f"  rodada {r + 1} {kind}: CPU {res['cpu']:.1f} s, parede {res['wall']:.1f} s, "
                      f"achados entre processos {res['cruzados']}, registros {res['registros']}", flush=True)
        for kind in kinds:
            rs = runs[kind]
            assert all(x["n"] == args.processos and not x["ilegiveis"] for x in rs), rs
            cpu = [x["cpu"] / x["n"] * 1000 for x in rs]
            wall = [x["wall"] for x in rs]
            rss = max(x["rss_kib"] for x in rs) / 1024
            print(f"{kind:13s} CPU por processo mín {min(cpu):.2f} ms, mediana {statistics.median(cpu):.2f} ms; "
                  f"parede mín {min(wall):.1f} s, mediana {statistics.median(wall):.1f} s; pico RSS {rss:.0f} MiB")
        with_cpu = [x["cpu"] for x in runs["com-registro"]]
        without_cpu = [x["cpu"] for x in runs["sem-registro"]]
        with_wall = [x["wall"] for x in runs["com-registro"]]
        without_wall = [x["wall"] for x in runs["sem-registro"]]
        per_round = ", ".join(f"{b / a:.3f}" for a, b in zip(with_cpu, without_cpu, strict=True))
        print(f"razão (tempo sem registro ÷ tempo com registro; meta ≥ 0,8): "
              f"CPU mín {min(without_cpu) / min(with_cpu):.3f}, "
              f"mediana {statistics.median(without_cpu) / statistics.median(with_cpu):.3f} (por rodada: {per_round}); "
              f"parede mín {min(without_wall) / min(with_wall):.3f}, "
              f"mediana {statistics.median(without_wall) / statistics.median(with_wall):.3f}")


if __name__ == "__main__":
    main()
