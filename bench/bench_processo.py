"""Processo benchmark: ``autos pendencias`` over many processo files, against a bare ``yaml.safe_load``.

The processos are generated from ``samples/processos``: copy *i* of a sample has its own number and every date
moved back by ``i % 120`` days, so that the same acts stand at other stages on the reference date (≈5 acts
per processo; the mean is printed). Each measurement runs in a fresh child process pinned to one core
(``os.sched_setaffinity``), rounds interleaved (pendencias, then the baseline, then pendencias…), and reports
its own time and peak RSS (``resource.getrusage``). The figure the issue asks for is the **ratio** time of
``yaml.safe_load`` of the same files ÷ time of ``autos pendencias`` (higher is better; goal ≥ 0.5×: the whole
check at least half as fast as bare loading). The time of ``autos pendencias`` includes loading the rules and
calendars; neither side counts the interpreter start nor the imports. As an extra reference the time of
``yaml.load(..., CSafeLoader)`` (libyaml) is also given.

Run: ``.venv/bin/python bench/bench_processo.py [--processos 10000] [--rodadas 3] [--nucleo 0]``
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
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "processos").rglob("*.yaml"))
HOJE = date(2026, 11, 30)
_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def _shift(text: str, days: int) -> str:
    def sub(m: re.Match[str]) -> str:
        return (date(int(m[1]), int(m[2]), int(m[3])) - timedelta(days=days)).isoformat()
    return _DATE.sub(sub, text)


def _make(folder: Path, n: int) -> tuple[list[Path], float]:
    import yaml

    texts = [s.read_text(encoding="utf-8") for s in SAMPLES]
    acts = [len(yaml.safe_load(t)["atos"]) for t in texts]
    files, total = [], 0
    for i in range(n):
        k = i % len(SAMPLES)
        src = SAMPLES[k]
        text = _shift(texts[k], (i // len(SAMPLES)) % 120).replace("\nnumero: ", f"\nnumero: B{i:06d}-", 1)
        target = folder / src.parent.name / f"{i:06d}-{src.name}"
        target.parent.mkdir(exist_ok=True)
        target.write_text(text, encoding="utf-8")
        files.append(target)
        total += acts[k]
    return files, total / n


def _child(kind: str, folder: Path) -> None:
    """One measurement, in this (fresh) process: prints time, peak RSS and a count as JSON."""
    if kind == "pendencias":
        from autos.app.processo import ProcessoService

        t0 = time.perf_counter()
        report = ProcessoService(ROOT / "rules").pending([folder], HOJE)
        elapsed = time.perf_counter() - t0
        assert not report.falhas, report.falhas[:3]
        count = len(report.timelines)
        extra = len(report.rows)
    else:
        import yaml

        loader = yaml.CSafeLoader if kind == "libyaml" else yaml.SafeLoader
        files = sorted(folder.rglob("*.yaml"))
        t0 = time.perf_counter()
        for f in files:
            yaml.load(f.read_text(encoding="utf-8"), Loader=loader)
        elapsed = time.perf_counter() - t0
        count, extra = len(files), 0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"s": elapsed, "rss_kib": rss, "n": count, "extra": extra}))


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
    print(f"carga da máquina (uptime): {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}"
          f" em {os.cpu_count()} núcleos; medido num núcleo ({args.nucleo})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _, mean_acts = _make(folder, args.processos)
        runs: dict[str, list[dict[str, float]]] = {"pendencias": [], "safe_load": [], "libyaml": []}
        for _ in range(args.rodadas):
            for kind in runs:  # interleaved: one of each per round
                runs[kind].append(_run(kind, folder))
        p = runs["pendencias"]
        assert all(r["n"] == args.processos for r in p), "nem todos os processos foram lidos"
        print(f"{args.processos} processos, {mean_acts:.1f} atos em média, {int(p[0]['extra'])} pendências; "
              f"{args.rodadas} rodadas intercaladas")
        for kind, label in (("pendencias", "autos pendencias"), ("safe_load", "yaml.safe_load"),
                            ("libyaml", "yaml.load CSafeLoader")):
            ts = [r["s"] for r in runs[kind]]
            rss = max(r["rss_kib"] for r in runs[kind]) / 1024
            print(f"{label:22s} mín {min(ts):6.2f} s  mediana {statistics.median(ts):6.2f} s  "
                  f"({args.processos / min(ts):,.0f} arquivos/s)  pico RSS {rss:,.0f} MiB")
        mine = [r["s"] for r in p]
        for kind, label in (("safe_load", "yaml.safe_load"), ("libyaml", "CSafeLoader")):
            base = [r["s"] for r in runs[kind]]
            print(f"razão tempo {label} ÷ tempo pendencias: mín {min(base) / min(mine):.2f}×, "
                  f"mediana {statistics.median(base) / statistics.median(mine):.2f}×")


if __name__ == "__main__":
    main()
