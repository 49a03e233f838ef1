"""Documents benchmark: ``autos verificar`` throughput on generated cases; DOCX and PDF per document kind.

Machines here are shared and noisy, so every figure is also given as a ratio against a baseline run in
the same process, on the same input:
- verification vs. a bare ``yaml.safe_load`` of the same files (and, for reference, PyYAML's C loader);
- PDF vs. a naive ``weasyprint.HTML(string=...).write_pdf()`` of the same HTML;
- DOCX vs. opening and saving the same template with docxtpl without rendering.

Cases are generated into a temporary folder from the samples in ``samples/`` (every law and kind found
there at run time): names, numbers, dates and CPF/CNPJ (valid check digits, python-stdnum) vary, and a
share of the cases is left incomplete (a required element removed) or unreadable (a wrong CPF).

Run (one core): ``taskset -c 0 .venv/bin/python bench/bench_documents.py [--casos 10000] [--docs 10]``
Profile the verification: ``.venv/bin/python bench/bench_documents.py --perfil`` (cProfile, top 25).
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import io
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml
from docxtpl import DocxTemplate
from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf
from weasyprint import HTML

from autos.context import build_context
from autos.errors import AutosError
from autos.load import LoadedCase, parse_case
from autos.pipeline import ARCHIVE_VARIANT, Autos
from autos.render_pdf import EmbeddedFile, PdfMetadata
from autos.verify import Verification, verify

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
TODAY = date(2026, 11, 29)

FIRST = ["Ana", "Bruno", "Carla", "Diego", "Elaine", "Fábio", "Gabriela", "Heitor", "Isabel", "João", "Karina",
         "Luís", "Marta", "Nelson", "Olívia", "Paulo", "Quitéria", "Rafael", "Sônia", "Tiago"]
LAST = ["Silva", "Souza", "Oliveira", "Pereira", "Costa", "Rodrigues", "Almeida", "Nascimento", "Lima",
        "Araújo", "Fernandes", "Carvalho", "Gomes", "Martins", "Rocha", "Ribeiro"]
TRADE = ["Laticínios", "Frigorífico", "Mercearia", "Distribuidora", "Comércio de Alimentos", "Açougue", "Padaria"]
#: fields removed (one at a time) to make a case incomplete; only those present in the sample are used
REMOVABLE = [("fatos",), ("lavratura", "hora"), ("lavratura", "local"), ("agente", "matricula"),
             ("autuado", "qualificacao"), ("infracoes",)]


# --- case generation -------------------------------------------------------------------------------
def _cpf(rng: random.Random) -> str:
    digits = [rng.randrange(10) for _ in range(9)]
    for size in (9, 10):
        total = sum(d * w for d, w in zip(digits, range(size + 1, 1, -1), strict=True))
        digits.append((total * 10) % 11 % 10)
    number = "".join(map(str, digits))
    if not stdnum_cpf.is_valid(number):  # e.g. all digits equal: draw again
        return _cpf(rng)
    return str(stdnum_cpf.format(number))


def _cnpj(rng: random.Random) -> str:
    base = "".join(str(rng.randrange(10)) for _ in range(8)) + "0001"
    number = base + stdnum_cnpj.calc_check_digits(base)
    if not stdnum_cnpj.is_valid(number):
        return _cnpj(rng)
    return str(stdnum_cnpj.format(number))


def _shift_dates(node: Any, delta: timedelta) -> Any:
    if isinstance(node, dict):
        return {k: _shift_dates(v, delta) for k, v in node.items()}
    if isinstance(node, list):
        return [_shift_dates(v, delta) for v in node]
    if isinstance(node, date):
        return node + delta
    return node


def _replace_cpfs(node: Any, rng: random.Random) -> Any:
    if isinstance(node, dict):
        return {k: (_cpf(rng) if k == "cpf" and v else _replace_cpfs(v, rng)) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_cpfs(v, rng) for v in node]
    return node


def sample_cases() -> list[tuple[Path, dict[str, Any]]]:
    """Every sample case (any law, any kind) as plain data; unreadable ones are skipped."""
    out = []
    for path in sorted(SAMPLES.rglob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict) and isinstance(data.get("autuado"), dict):
            out.append((path, data))
    return out


def generate_cases(folder: Path, n: int, seed: int = 7) -> dict[str, int]:
    """Write ``n`` varied cases under ``folder/<law>/``; returns how many of each kind were made."""
    rng = random.Random(seed)
    samples = sample_cases()
    made = {"completos": 0, "incompletos": 0, "ilegiveis": 0}
    latest = max((d for _, s in samples for d in _dates(s)), default=TODAY)
    for i in range(n):
        _, base = samples[i % len(samples)]
        case = copy.deepcopy(base)
        case = _shift_dates(case, timedelta(days=-rng.randrange(0, 300) - max(0, (latest - TODAY).days)))
        case = _replace_cpfs(case, rng)
        case["numero"] = f"{i % 999_999 + 1}/{2020 + i // 999_999}"
        aut = case["autuado"]
        if aut.get("tipo") == "pessoa_juridica":
            aut["nome"] = f"{rng.choice(TRADE)} {rng.choice(LAST)} Ltda."
            aut["cnpj"] = _cnpj(rng)
        else:
            aut["nome"] = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
            aut["cpf"] = _cpf(rng)
        roll = rng.random()
        kind = "completos"
        if roll < 0.01:  # a wrong check digit: the case cannot be read
            key = "cnpj" if aut.get("tipo") == "pessoa_juridica" else "cpf"
            aut[key] = aut[key][:-1] + str((int(aut[key][-1]) + 1) % 10)
            kind = "ilegiveis"
        elif roll < 0.25:
            present = [p for p in REMOVABLE if _has(case, p)]
            if present:
                _remove(case, rng.choice(present))
                kind = "incompletos"
        made[kind] += 1
        law_dir = folder / str(case.get("lei", "sem-lei")).replace("/", "_")
        law_dir.mkdir(parents=True, exist_ok=True)
        text = yaml.dump(case, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)
        (law_dir / f"caso-{i:05d}.yaml").write_text(text, encoding="utf-8")
    return made


def _dates(node: Any) -> list[date]:
    if isinstance(node, dict):
        return [d for v in node.values() for d in _dates(v)]
    if isinstance(node, list):
        return [d for v in node for d in _dates(v)]
    return [node] if isinstance(node, date) else []


def _has(case: dict[str, Any], path: tuple[str, ...]) -> bool:
    node: Any = case
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _remove(case: dict[str, Any], path: tuple[str, ...]) -> None:
    node: Any = case
    for part in path[:-1]:
        node = node[part]
    del node[path[-1]]


# --- timing --------------------------------------------------------------------------------------
def _paired(fns: list[Callable[[], object]], n: int) -> list[float]:
    """Median seconds per call of each function over ``n`` rounds (after one warm-up). The functions
    take turns inside each round, so a burst of load on the machine hits them alike."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(n):
        for fn, acc in zip(fns, times, strict=True):
            t0 = time.perf_counter()
            fn()
            acc.append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


def _best(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    """Fastest of ``runs`` timed calls (the least disturbed by other load on the machine)."""
    best, result = float("inf"), None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def bench_verification(autos: Autos, folder: Path, profile: bool, runs: int) -> None:
    files = sorted(folder.rglob("*.yaml"))

    def bare_safe_load() -> None:
        for f in files:
            yaml.safe_load(f.read_text(encoding="utf-8"))

    def c_safe_load() -> None:
        for f in files:
            yaml.load(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)

    base, _ = _best(bare_safe_load, 1)  # slow (pure-Python parser) and steady: once is enough
    base_c, _ = _best(c_safe_load, runs)
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        verify(autos, [folder])
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    ours, result = _best(lambda: verify(autos, [folder]), runs)
    assert isinstance(result, Verification)
    n = len(files)
    s = result.totais
    print(f"verificar: {n:,} casos ({s['sem_erro']} sem erro, {s['com_erro']} com erro, {s['ilegiveis']} ilegíveis) "
          f"em {ours:.2f} s = {n / ours:,.0f} casos/s (melhor de {runs})")
    print(f"  baseline yaml.safe_load dos mesmos arquivos: {n / base:,.0f} casos/s; razão tempo nosso/baseline "
          f"{ours / base:.2f}×")
    print(f"  referência yaml.load(CSafeLoader): {n / base_c:,.0f} casos/s; razão {ours / base_c:.2f}×")


def _kind_cases(autos: Autos) -> list[tuple[str, str, LoadedCase, str]]:
    """(law, kind, case, origin) for every kind of every law that has a sample case.

    A kind with its own sample uses it (a complete one if there is); otherwise a sample of the same law
    is re-labelled with that kind and rendered as a draft.
    """
    by_law: dict[str, dict[str, list[LoadedCase]]] = {}
    for path in sorted(SAMPLES.rglob("*.yaml")):
        try:
            loaded = autos.load(path)
        except AutosError:
            continue
        if loaded.case.lei in autos.rules.statutes:
            by_law.setdefault(loaded.case.lei, {}).setdefault(loaded.case.documento, []).append(loaded)
    out = []
    for law, kinds in sorted(by_law.items()):
        statute = autos.rules.statutes[law]
        for kind in statute.documentos:
            own = kinds.get(kind, [])
            ok = [c for c in own if _ok(autos, c)]
            if ok or own:
                chosen = (ok or own)[0]
                out.append((law, kind, chosen, chosen.file.name))
                continue
            donors = [c for cs in kinds.values() for c in cs]
            donor = next((c for c in donors if _ok(autos, c)), donors[0])
            text = donor.file.read_text(encoding="utf-8")
            relabelled = parse_case(_relabel(text, kind), donor.file)
            out.append((law, kind, relabelled, f"{donor.file.name} como {kind}"))
    return out


def _ok(autos: Autos, loaded: LoadedCase) -> bool:
    try:
        return autos.check(loaded).ok
    except AutosError:
        return False


def _relabel(text: str, kind: str) -> str:
    lines = [ln for ln in text.splitlines() if not ln.startswith("documento:")]
    return "\n".join([f"documento: {kind}", *lines]) + "\n"


def _context(autos: Autos, loaded: LoadedCase) -> dict[str, Any]:
    report = autos.check(loaded)
    statute = autos.statute_of(loaded)
    fines = deadlines = notice = None
    try:
        fines = autos.fines(loaded)
        deadlines, notice = autos.deadline_lines(loaded)
    except AutosError:
        pass
    return build_context(loaded.case, statute, report, fines, deadlines or [], draft=not report.ok,
                         notice_date=notice)


def bench_documents(autos: Autos, n: int) -> None:
    rows = []
    pdf_folder = str(autos.pdf_renderer.folder) + "/"
    for law, kind, loaded, origin in _kind_cases(autos):
        template = autos.statute_of(loaded).documentos[kind].modelo
        source = loaded.file.read_bytes()
        meta = PdfMetadata(titulo=f"{kind} {origin}", autor="bench", assunto=law, palavras_chave=[law, kind])
        try:
            ctx = _context(autos, loaded)
            html = autos.pdf_renderer.html(template, ctx)
            tpl = (autos.templates_dir / "docx" / f"{template}.docx").read_bytes()

            def archival() -> bytes:
                embedded = EmbeddedFile(name=loaded.file.name, data=source, mime="application/yaml",  # noqa: B023
                                        description="caso")
                return autos.pdf_renderer.pdf(template, ctx, pdf_variant=ARCHIVE_VARIANT,  # noqa: B023
                                              attachments=[embedded], metadata=meta)  # noqa: B023

            pdf, pdf_arq, pdf_base = _paired([
                lambda: autos.pdf_renderer.pdf(template, ctx),  # noqa: B023
                archival,
                lambda: HTML(string=html, base_url=pdf_folder).write_pdf(),  # noqa: B023
            ], n)
            docx, docx_base = _paired([
                lambda: autos.docx_renderer.docx(template, ctx),  # noqa: B023
                lambda: DocxTemplate(io.BytesIO(tpl)).save(io.BytesIO()),  # noqa: B023
            ], n)
        except (AutosError, OSError) as exc:
            rows.append((law, kind, origin, f"falhou: {exc}"))
            continue
        rows.append((law, kind, origin,
                     f"{docx * 1000:6.1f} ms ({docx / docx_base:4.2f}×) | {pdf * 1000:6.1f} ms ({pdf / pdf_base:4.2f}×)"
                     f" | {pdf_arq * 1000:6.1f} ms ({pdf_arq / pdf_base:4.2f}×)"))
    print("\nDocumentos (mediana por documento; razão contra o baseline no mesmo processo):")
    print("  DOCX baseline: abrir+salvar o modelo com docxtpl, sem render; PDF baseline: "
          "weasyprint.HTML(string=...).write_pdf() do mesmo HTML.")
    head = ("lei", "documento", "caso", "DOCX (razão) | PDF (razão) | PDF/A-3b arquivo (razão)")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(3)]
    for r in [head, *rows]:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r[:3], widths, strict=True)) + "  " + r[3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=10_000, help="casos gerados para o verificar")
    ap.add_argument("--docs", type=int, default=10, help="repetições por documento (mediana)")
    ap.add_argument("--repeticoes", type=int, default=3, help="vezes que a verificação roda (vale a melhor)")
    ap.add_argument("--perfil", action="store_true", help="cProfile da verificação")
    ap.add_argument("--so-verificar", action="store_true", help="só a verificação, sem documentos")
    args = ap.parse_args()

    t0 = time.perf_counter()
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    print(f"regras e modelos carregados em {(time.perf_counter() - t0) * 1000:.0f} ms; "
          f"Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="autos-bench-") as tmp:
        t0 = time.perf_counter()
        made = generate_cases(Path(tmp), args.casos)
        print(f"gerados {args.casos:,} casos a partir de {len(sample_cases())} exemplos em "
              f"{time.perf_counter() - t0:.1f} s: {made}")
        bench_verification(autos, Path(tmp), args.perfil, args.repeticoes)
    if not args.so_verificar:
        bench_documents(autos, args.docs)


if __name__ == "__main__":
    main()
