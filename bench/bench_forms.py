"""Validation of a form draft (``autos.app.forms.processo_form.validate_draft``), the call a page makes per change.

Measures, for a Timóteo auto half filled and filled, the CPU and wall time per call (min and median of
``--rodadas`` rounds of ``--chamadas`` calls), next to ``Autos.validate`` of the same processo as a file
(read, parse, check: what ``autos validar`` does per file) in interleaved rounds. Usage:

    .venv/bin/python bench/bench_forms.py [--chamadas 200] [--rodadas 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_forms import TIM_FILLED  # noqa: E402  (the complete auto of the tests)

from autos.app.forms import processo_form as forms  # noqa: E402
from autos.app.generation.pipeline import Autos  # noqa: E402


def timed(fn: Callable[[], object], n: int) -> tuple[float, float]:
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(n):
        fn()
    return (time.process_time() - c0) / n, (time.perf_counter() - w0) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--chamadas", type=int, default=200)
    ap.add_argument("--rodadas", type=int, default=3)
    args = ap.parse_args()
    autos = Autos(ROOT / "rules", today=date(2026, 11, 30))
    form = forms.processo_form(autos, "timoteo-mg/lei-3844-2022", ["inobservancia-normas-sanitarias"])
    names = [f.nome for f in form.campos if not f.fixo]
    base = {f.nome: f.valor for f in form.campos if not f.grupo}
    half = {**base, **{k: v for k, v in list(TIM_FILLED.items())[: len(TIM_FILLED) // 2]}}
    full = {**base, **TIM_FILLED}
    with tempfile.TemporaryDirectory() as tmp:
        data, _ = forms.values_to_data(full)
        file = Path(tmp) / "p.yaml"
        file.write_text(forms.processo_text(data), encoding="utf-8")
        cases = {"rascunho pela metade": lambda: forms.validate_draft(autos, half, campos=names),
                 "rascunho completo": lambda: forms.validate_draft(autos, full, campos=names),
                 "autos validar do arquivo": lambda: autos.validate(file)}
        for fn in cases.values():
            fn()  # rules, calendars and procedures read once
        results: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
        for _ in range(args.rodadas):
            for k, fn in cases.items():
                results[k].append(timed(fn, args.chamadas))
    for k, rows in results.items():
        cpu = [c * 1000 for c, _ in rows]
        wall = [w * 1000 for _, w in rows]
        print(f"{k}: CPU {min(cpu):.2f}/{statistics.median(cpu):.2f} ms, parede {min(wall):.2f}/"
              f"{statistics.median(wall):.2f} ms por chamada (mín/mediana de {args.rodadas} rodadas de "
              f"{args.chamadas})")


if __name__ == "__main__":
    main()
