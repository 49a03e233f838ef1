"""Foundation benchmark: one case validated, one DOCX and one PDF — against baselines in the same process.

Machines here are shared and noisy, so every figure is given as a ratio against a baseline run in the same
process (one core, the library loaded once, the same input), the contenders taking turns inside each round;
each figure is the min and the median over the rounds, in wall time and in CPU time of the process:
- validation vs. a bare ``yaml.safe_load`` of the same file (the least any validator must do);
- PDF vs. the floor: WeasyPrint on the same HTML with the stylesheet and fonts reused (``pdf_floor.py``);
- DOCX vs. opening and saving the template with docxtpl without rendering.

Run: ``.venv/bin/python bench/bench_foundation.py [--casos 200] [--docs 15] [--rodadas 5]``
(``--casos``: validations per round; ``--docs``: documents per round.)
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import yaml
from docxtpl import DocxTemplate

from autos.app.generation.pipeline import Autos

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pdf_floor import PdfFloor

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "casos" / "timoteo-mg" / "auto-pj-completo.yaml"


def _rounds(pairs: list[tuple[Callable[[], object], Callable[[], object]]], rounds: int,
            reps: list[int]) -> list[tuple[list[float], list[float], list[float], list[float]]]:
    """For each (ours, baseline) pair: per-call wall and CPU seconds of each, one value per round. Inside a round
    every contender runs its ``reps`` calls in turn, so a burst of load on the machine hits them alike."""
    for ours, base in pairs:  # warm-up
        ours()
        base()
    out: list[tuple[list[float], list[float], list[float], list[float]]] = [([], [], [], []) for _ in pairs]
    for _ in range(rounds):
        for (ours, base), acc, n in zip(pairs, out, reps, strict=True):
            for fn, wall, cpu in ((ours, acc[0], acc[1]), (base, acc[2], acc[3])):
                t0, c0 = time.perf_counter(), time.process_time()
                for _ in range(n):
                    fn()
                wall.append((time.perf_counter() - t0) / n)
                cpu.append((time.process_time() - c0) / n)
    return out


def _mm(values: list[float]) -> str:
    return f"{1000 * min(values):.2f}/{1000 * statistics.median(values):.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=200, help="validações por rodada")
    ap.add_argument("--docs", type=int, default=15, help="documentos por rodada (DOCX e PDF)")
    ap.add_argument("--rodadas", type=int, default=5, help="rodadas intercaladas (≥ 3 para mín e mediana)")
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}; carga (uptime) {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.rodadas} rodadas; mín/mediana por chamada")

    autos = Autos(ROOT / "rules", ROOT / "templates", today=date(2026, 11, 29))
    text = SAMPLE.read_text(encoding="utf-8")
    loaded = autos.load(SAMPLE)
    ctx = autos.document_context(loaded).context
    html = autos.pdf_renderer.html("auto_de_infracao", ctx)
    floor = PdfFloor(autos.pdf_renderer.folder)
    tpl_bytes = (autos.templates_dir / "docx" / "auto_de_infracao.docx").read_bytes()

    def validate() -> None:
        assert autos.validate(SAMPLE).ok

    rows = [("validação (caso completo)", "yaml.safe_load do mesmo arquivo", args.casos,
             validate, lambda: yaml.safe_load(text)),
            ("PDF", "piso: WeasyPrint no mesmo HTML, folha de estilo e fontes reaproveitadas", args.docs,
             lambda: autos.pdf_renderer.pdf("auto_de_infracao", ctx),
             lambda: floor.pdf(html)),
            ("DOCX", "abrir+salvar o modelo com docxtpl, sem render", args.docs,
             lambda: autos.docx_renderer.docx("auto_de_infracao", ctx),
             lambda: DocxTemplate(io.BytesIO(tpl_bytes)).save(io.BytesIO()))]
    results = _rounds([(r[3], r[4]) for r in rows], max(1, args.rodadas), [r[2] for r in rows])
    for (label, base_label, _n, _o, _b), (o_wall, o_cpu, b_wall, b_cpu) in zip(rows, results, strict=True):
        print(f"{label}: CPU {_mm(o_cpu)}, parede {_mm(o_wall)}")
        print(f"  baseline {base_label}: CPU {_mm(b_cpu)}, parede {_mm(b_wall)}")
        print(f"  razão nosso/baseline (medianas): CPU {statistics.median(o_cpu) / statistics.median(b_cpu):.2f}×, "
              f"parede {statistics.median(o_wall) / statistics.median(b_wall):.2f}×")


if __name__ == "__main__":
    main()
