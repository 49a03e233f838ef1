"""Foundation benchmark: cases validated per second, milliseconds per DOCX and per PDF.

Machines here are shared and noisy, so every figure is also given as a ratio against a baseline run in
the same process:
- validation vs. a bare ``yaml.safe_load`` of the same files (the least any validator must do);
- PDF vs. a naive ``weasyprint.HTML(string=...).write_pdf()`` of the same HTML;
- DOCX vs. opening and saving the template with docxtpl without rendering.

Run: ``.venv/bin/python bench/bench_foundation.py [--casos 2000] [--docs 20]``
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from datetime import date
from pathlib import Path

import yaml
from docxtpl import DocxTemplate
from weasyprint import HTML

from autos.context import build_context
from autos.pipeline import Autos

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "timoteo-mg" / "auto-pj-completo.yaml"


def _timeit(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    """Median seconds per call over ``n`` calls (after one warm-up)."""
    fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--casos", type=int, default=2000)
    ap.add_argument("--docs", type=int, default=15)
    args = ap.parse_args()

    autos = Autos(ROOT / "rules", ROOT / "templates", today=date(2026, 11, 29))
    text = SAMPLE.read_text(encoding="utf-8")

    # validation throughput
    t0 = time.perf_counter()
    for _ in range(args.casos):
        yaml.safe_load(text)
    base_validate = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(args.casos):
        report = autos.validate(SAMPLE)
        assert report.ok
    ours_validate = time.perf_counter() - t0

    loaded = autos.load(SAMPLE)
    statute = autos.statute_of(loaded)
    ctx = build_context(loaded.case, statute, autos.check(loaded), autos.fines(loaded), autos.deadline_lines(loaded)[0],
                        draft=False)
    html = autos.pdf_renderer.html("auto_de_infracao", ctx)
    folder = str(autos.pdf_renderer.folder) + "/"

    pdf_base = _timeit(lambda: HTML(string=html, base_url=folder).write_pdf(), args.docs)
    pdf_ours = _timeit(lambda: autos.pdf_renderer.pdf("auto_de_infracao", ctx), args.docs)
    tpl_bytes = (autos.templates_dir / "docx" / "auto_de_infracao.docx").read_bytes()
    docx_base = _timeit(lambda: DocxTemplate(io.BytesIO(tpl_bytes)).save(io.BytesIO()), args.docs)
    docx_ours = _timeit(lambda: autos.docx_renderer.docx("auto_de_infracao", ctx), args.docs)

    print(f"validação: {args.casos / ours_validate:,.0f} casos/s "
          f"(baseline yaml.safe_load: {args.casos / base_validate:,.0f}/s; razão {ours_validate / base_validate:.2f}×)")
    print(f"PDF:  {pdf_ours * 1000:.0f} ms/documento (baseline WeasyPrint direto: {pdf_base * 1000:.0f} ms; "
          f"razão {pdf_ours / pdf_base:.2f}×)")
    print(f"DOCX: {docx_ours * 1000:.0f} ms/documento (baseline abrir+salvar modelo: {docx_base * 1000:.0f} ms; "
          f"razão {docx_ours / docx_base:.2f}×)")


if __name__ == "__main__":
    main()
