"""CPU of one PDF preview (``autos.app.register.preview.preview``, what the web's ``…/previa.pdf`` calls), and where
it goes.

    .venv/bin/python bench/bench_preview.py                 # 5 acts of the sample processos, 3 rounds
    .venv/bin/python bench/bench_preview.py --rodadas 5 --perfil    # + the top of a cProfile of one round

Each round previews the same acts (the auto of Timóteo's SIM-2026/000142, 3 pages, and four other kinds of
document of the samples), each once, in the same process (the library loaded once, as in a server worker), and
measures the process's CPU time per preview; beside it, in the same round, the floor: WeasyPrint on the same HTML
with the stylesheet and the fonts reused (``pdf_floor.py``), and for reference a naive
``weasyprint.HTML(string=html).write_pdf()`` that parses both again (so that a burst of load on a shared machine hits
both alike). The preview's CPU is split into what comes before WeasyPrint (reading and checking the processo,
the document's context and HTML) and the PDF itself. Every figure: min and median over the rounds.

The previews are rendered without the preview cache (it would answer every round after the first);
``--com-cache`` measures a cache hit instead (the file read, its SHA-256 and the stat of the rules and templates
folders: what a miss costs on top of the render, and all a hit costs).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any

from weasyprint import HTML

from autos.app.generation.pipeline import Autos
from autos.app.register.preview import PreviewCache, preview

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pdf_floor import PdfFloor

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "processos"
#: (processo file, act, document kind): the auto the load test previews, then other kinds of document
CASES: list[tuple[str, int, str]] = [
    ("timoteo-mg/sim-2026-000142-pj-completo.yaml", 1, "auto_de_infracao"),
    ("timoteo-mg/sim-2026-000142-pj-completo.yaml", 2, "termo_apreensao"),
    ("ferraz-de-vasconcelos-sp/pm-fv-2026-004417-terreno.yaml", 1, "notificacao_preliminar"),
    ("cuiaba-mt/ccz-2026-0077-recurso.yaml", 6, "decisao"),
    ("timoteo-mg/sim-2026-000203-ar-mel.yaml", 3, "notificacao_ar"),
]
NOW = datetime(2026, 11, 29, 10, 0).astimezone()


#: WeasyPrint's phases (and ours) as cProfile names them: (end of the file name, function)
PHASES: dict[str, tuple[str, str]] = {
    "ler e conferir o processo (só o ato pedido)": ("autos/app/generation/pipeline.py", "processo_documents"),
    "contexto do documento e HTML (Jinja)": ("autos/render/pdf.py", "html"),
    "WeasyPrint: ler o HTML (tinyhtml5)": ("weasyprint/__init__.py", "__init__"),
    "WeasyPrint: cascata de estilos": ("weasyprint/css/__init__.py", "get_all_computed_styles"),
    "WeasyPrint: caixas": ("weasyprint/formatting_structure/build.py", "build_formatting_structure"),
    "WeasyPrint: paginação (layout)": ("weasyprint/layout/__init__.py", "layout_document"),
    "WeasyPrint: desenho das páginas": ("weasyprint/document.py", "paint"),
    "WeasyPrint: montar o PDF (inclui o desenho)": ("weasyprint/pdf/__init__.py", "generate_pdf"),
    "WeasyPrint: subconjunto das fontes": ("weasyprint/pdf/fonts.py", "subset"),
}


def _cumulative(stats: pstats.Stats, suffix: str, name: str) -> float:
    """Cumulative seconds of the functions called ``name`` in files ending with ``suffix`` (outermost calls)."""
    table: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    return sum(v[3] for (file, _line, func), v in table.items()
               if func == name and file.replace("\\", "/").endswith(suffix))


def _mm(values: list[float]) -> str:
    return f"{1000 * min(values):7.1f}/{1000 * statistics.median(values):7.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rodadas", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--perfil", action="store_true", help="print the top of a cProfile of one more round")
    ap.add_argument("--com-cache", action="store_true", help="measure a cache hit (same file, unchanged)")
    args = ap.parse_args()
    autos = Autos(ROOT / "rules", ROOT / "templates", today=date(2026, 11, 29))
    cache = PreviewCache(64) if args.com_cache else None
    cases = [(SAMPLES / f, ato, kind) for f, ato, kind in CASES]
    floor = PdfFloor(autos.pdf_renderer.folder)
    htmls = []
    for file, ato, kind in cases:  # warm-up: fonts, stylesheets, rules; and the baseline's HTML
        preview(autos, file, ato, kind, now=NOW, cache=cache)
        piece = next(p for p in autos.processo_documents(file, ato=ato) if p.documento == kind)
        assert piece.report is not None
        doc = autos.document_context(piece.loaded, draft=bool(piece.report.errors), now=NOW, report=piece.report)
        htmls.append(autos.pdf_renderer.html(doc.template, doc.context))
        HTML(string=htmls[-1], base_url=str(autos.pdf_renderer.folder) + "/").write_pdf()
        floor.pdf(htmls[-1])
    total: list[float] = []
    floors: list[float] = []
    before_pdf: list[float] = []
    baseline: list[float] = []
    for _ in range(args.rodadas):
        c0 = time.process_time()
        for file, ato, kind in cases:
            preview(autos, file, ato, kind, now=NOW, cache=cache)
        total.append((time.process_time() - c0) / len(cases))
        c0 = time.process_time()
        for file, ato, kind in cases:
            piece = next(p for p in autos.processo_documents(file, ato=ato) if p.documento == kind)
            assert piece.report is not None
            doc = autos.document_context(piece.loaded, draft=bool(piece.report.errors), now=NOW,
                                         report=piece.report)
            autos.pdf_renderer.html(doc.template, doc.context)
        before_pdf.append((time.process_time() - c0) / len(cases))
        c0 = time.process_time()
        for html in htmls:
            HTML(string=html, base_url=str(autos.pdf_renderer.folder) + "/").write_pdf()
        baseline.append((time.process_time() - c0) / len(cases))
        c0 = time.process_time()
        for html in htmls:
            floor.pdf(html)
        floors.append((time.process_time() - c0) / len(cases))
    ratios = [t / b for t, b in zip(total, floors, strict=True)]
    naive = [t / b for t, b in zip(total, baseline, strict=True)]
    print(f"{len(cases)} prévias por rodada, {args.rodadas} rodadas"
          f"{' (acerto do cache)' if cache is not None else ''}; CPU por prévia (mín/mediana):")
    print(f"  prévia (autos.app.register.preview.preview) : {_mm(total)}")
    print(f"    antes do WeasyPrint (processo, achados, contexto, HTML): {_mm(before_pdf)}")
    print(f"  piso: WeasyPrint, mesmo HTML, folha de estilo e fontes reaproveitadas: {_mm(floors)}")
    print(f"  referência: HTML(string).write_pdf() ingênuo, mesmo HTML: {_mm(baseline)}")
    print(f"  razão prévia ÷ piso                : {min(ratios):.2f}/{statistics.median(ratios):.2f}")
    print(f"  razão prévia ÷ ingênuo             : {min(naive):.2f}/{statistics.median(naive):.2f}")
    if args.perfil:
        prof = cProfile.Profile()
        prof.enable()
        for file, ato, kind in cases:
            preview(autos, file, ato, kind, now=NOW, cache=cache)
        prof.disable()
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        whole = _cumulative(stats, "autos/app/register/preview.py", "preview")
        print("  onde vai a CPU de uma prévia (cProfile, parte do total):")
        for label, (suffix, name) in PHASES.items():
            print(f"    {label:52s} {100 * _cumulative(stats, suffix, name) / whole:5.1f}%")
        stats.sort_stats("cumulative").print_stats(40)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
