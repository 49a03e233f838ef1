"""Processo benchmark: ``autos pendencias`` over many processo files (processos per second).

The processos are copies of ``samples/processos`` (each with its own number) in a temporary folder. As the
machines are shared and noisy, the figure is also given as a ratio against a bare ``yaml.safe_load`` of
the same files, measured in the same process.

Run: ``taskset -c 0 .venv/bin/python bench/bench_processo.py [--processos 2000] [--rodadas 3]``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

import yaml

from autos.processo import ProcessoService

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "processos").rglob("*.yaml"))
HOJE = date(2026, 11, 30)


def _make(folder: Path, n: int) -> list[Path]:
    files = []
    for i in range(n):
        src = SAMPLES[i % len(SAMPLES)]
        text = src.read_text(encoding="utf-8").replace("\nnumero: ", f"\nnumero: B{i:06d}-", 1)
        target = folder / src.parent.name / f"{i:06d}-{src.name}"
        target.parent.mkdir(exist_ok=True)
        target.write_text(text, encoding="utf-8")
        files.append(target)
    return files


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processos", type=int, default=2000)
    ap.add_argument("--rodadas", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = _make(folder, args.processos)
        ours, base = [], []
        rows = 0
        for _ in range(args.rodadas):
            t0 = time.perf_counter()
            report = ProcessoService(ROOT / "rules").pending([folder], HOJE)
            ours.append(time.perf_counter() - t0)
            rows = len(report.rows)
            assert not report.falhas and len(report.timelines) == args.processos
            t0 = time.perf_counter()
            for f in files:
                yaml.safe_load(f.read_text(encoding="utf-8"))
            base.append(time.perf_counter() - t0)
        o, b = statistics.median(ours), statistics.median(base)
        print(f"{args.processos} processos, {rows} pendências, mediana de {args.rodadas} rodadas")
        print(f"autos pendencias: {o:.2f} s — {args.processos / o:,.0f} processos/s")
        print(f"yaml.safe_load dos mesmos arquivos: {b:.2f} s — razão {o / b:.2f}×")


if __name__ == "__main__":
    main()
