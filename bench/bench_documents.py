"""Documents benchmark: ``autos verificar`` throughput and peak memory on generated cases; DOCX and PDF per
document kind.

Machines here are shared and noisy, so every figure is also given as a ratio against a baseline run in the
same process (one core, the library loaded once), on the same input, the contenders taking turns inside
each round; each figure is the min and the median over the rounds (``--rodadas``, at least 3), in wall time
and in CPU time of the process:
- verification vs. a bare ``yaml.safe_load`` of the same files (and, for reference, PyYAML's C loader);
- PDF vs. the floor: WeasyPrint on the same HTML with the stylesheet and fonts reused (``pdf_floor.py``);
- DOCX vs. opening and saving the same template with docxtpl without rendering.

``--memoria 1000,100000`` measures the peak RSS of ``autos verificar`` (text, ``--json``, ``--html``) in a
fresh child process (``wait4``) on each number of generated cases — the report is streamed, so the peak
should not grow with the number of cases.

Cases are generated into a temporary folder from the per-document files in ``tests/data/casos/`` (every law
and kind found there at run time): names, numbers, dates and CPF/CNPJ (valid check digits, python-stdnum)
vary, and a share of the cases is left incomplete (a required element removed) or unreadable (a wrong CPF).

Run (one core): ``taskset -c 0 .venv/bin/python bench/bench_documents.py [--casos 10000] [--rodadas 3] [--docs 10]``
Memory: ``.venv/bin/python bench/bench_documents.py --memoria 1000,100000`` (only that; 100,000 cases take a while)
Profile the verification: ``.venv/bin/python bench/bench_documents.py --perfil`` (cProfile, top 25).
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import io
import os
import pstats
import random
import statistics
import subprocess
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

from autos.app.generation.pipeline import ARCHIVE_VARIANT, Autos
from autos.app.verification.verify import iter_verification_text, verify
from autos.errors import AutosError
from autos.processo.load_case import LoadedCase, parse_case
from autos.render.pdf import EmbeddedFile, PdfMetadata

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pdf_floor import PdfFloor

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "casos"  # the per-document case files (the processos are bench_processo.py's)
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
Timing = tuple[list[float], list[float]]  # wall seconds, CPU seconds of the process: one value per round


def _rounds(fns: list[Callable[[], object]], n: int, *, warm: bool = True) -> list[Timing]:
    """Wall and CPU seconds of each function, once per round for ``n`` rounds (after one warm-up call each).
    The functions take turns inside each round, so a burst of load on the machine hits them alike."""
    if warm:
        for fn in fns:
            fn()
    out: list[Timing] = [([], []) for _ in fns]
    for _ in range(n):
        for fn, (wall, cpu) in zip(fns, out, strict=True):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return out


def _mm(values: list[float], scale: float = 1.0, fmt: str = "{:.1f}") -> str:
    return f"{fmt.format(min(values) * scale)}/{fmt.format(statistics.median(values) * scale)}"


def _ratio(ours: list[float], base: list[float]) -> str:
    """Ratio of the medians and of the minima (ours ÷ baseline; < 1: ours is faster)."""
    return f"{statistics.median(ours) / statistics.median(base):.2f}× (mín {min(ours) / min(base):.2f}×)"


def bench_verification(autos: Autos, folder: Path, profile: bool, runs: int) -> None:
    files = sorted(folder.rglob("*.yaml"))

    def bare_safe_load() -> None:
        for f in files:
            yaml.safe_load(f.read_text(encoding="utf-8"))

    def c_safe_load() -> None:
        for f in files:
            yaml.load(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)

    def ours() -> None:
        with verify(autos, [folder]) as v:
            for _ in iter_verification_text(v):  # the report is produced too, as the command does
                pass

    if profile:
        prof = cProfile.Profile()
        prof.enable()
        ours()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    with verify(autos, [folder]) as result:
        s = result.totais
    (o_wall, o_cpu), (b_wall, b_cpu), (c_wall, c_cpu) = _rounds([ours, bare_safe_load, c_safe_load], runs, warm=False)
    n = len(files)
    print(f"verificar (relatório de texto incluído): {n:,} casos ({s['sem_erro']} sem erro, {s['com_erro']} com erro, "
          f"{s['ilegiveis']} ilegíveis), {runs} rodadas intercaladas; mín/mediana")
    print(f"  nosso: parede {_mm(o_wall)} s = {n / min(o_wall):,.0f}/{n / statistics.median(o_wall):,.0f} casos/s; "
          f"CPU {_mm(o_cpu, 1000 / n, '{:.2f}')} ms por caso")
    print(f"  baseline yaml.safe_load dos mesmos arquivos: parede {_mm(b_wall)} s; CPU {_mm(b_cpu, 1000 / n, '{:.2f}')}"
          f" ms por caso; razão nosso/baseline: parede {_ratio(o_wall, b_wall)}, CPU {_ratio(o_cpu, b_cpu)}")
    print(f"  referência yaml.load(CSafeLoader): parede {_mm(c_wall)} s; CPU {_mm(c_cpu, 1000 / n, '{:.2f}')} ms por "
          f"caso; razão nosso/referência: parede {_ratio(o_wall, c_wall)}, CPU {_ratio(o_cpu, c_cpu)}")


_PEAK_OF_CHILD = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(usage.ru_maxrss, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))
"""


def bench_memory(sizes: list[int], formats: list[str]) -> None:
    """Peak RSS of ``autos verificar`` in a fresh child process, on each number of generated cases."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nMemória do verificar (pico de RSS do processo, wait4; carga {load}):")
    peaks: dict[str, list[int]] = {f: [] for f in formats}
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="autos-bench-mem-") as tmp:
            cases = Path(tmp) / "casos"
            t0 = time.perf_counter()
            generate_cases(cases, n)
            gen = time.perf_counter() - t0
            for fmt in formats:
                extra = {"texto": [], "json": ["--json"], "html": ["--html", str(Path(tmp) / "r.html")]}[fmt]
                cmd = [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "verificar", str(cases), *extra]
                t0 = time.perf_counter()
                # started by a small interpreter: a process's peak RSS counts the memory of the process it was
                # forked from until it executes, and this benchmark's process holds WeasyPrint and the library
                out = subprocess.run([sys.executable, "-c", _PEAK_OF_CHILD, *cmd], capture_output=True, text=True,
                                     check=True).stdout.split()
                wall = time.perf_counter() - t0
                kb, cpu, code = int(out[0]), float(out[1]), int(out[2])
                peaks[fmt].append(kb)
                print(f"  {n:>7,} casos (gerados em {gen:.0f} s), {fmt:<5}: pico {kb / 1024:6.1f} MB; "
                      f"{wall:.0f} s; CPU {cpu:.0f} s; saída {code}", flush=True)
    for fmt, kb in peaks.items():
        if len(kb) > 1:
            print(f"  {fmt}: pico com {sizes[-1]:,} casos ÷ pico com {sizes[0]:,} = {kb[-1] / kb[0]:.3f}×")


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
    return autos.document_context(loaded, draft=not report.ok, report=report).context


def bench_documents(autos: Autos, n: int) -> None:
    rows = []
    floor = PdfFloor(autos.pdf_renderer.folder)
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

            pdf, pdf_arq, pdf_base = _rounds([
                lambda: autos.pdf_renderer.pdf(template, ctx),  # noqa: B023
                archival,
                lambda: floor.pdf(html),  # noqa: B023
            ], n)
            docx, docx_base = _rounds([
                lambda: autos.docx_renderer.docx(template, ctx),  # noqa: B023
                lambda: DocxTemplate(io.BytesIO(tpl)).save(io.BytesIO()),  # noqa: B023
            ], n)
        except (AutosError, OSError) as exc:
            rows.append((law, kind, origin, f"falhou: {exc}"))
            continue

        def cell(ours: Timing, base: Timing) -> str:
            cpu = statistics.median(ours[1]) / statistics.median(base[1])
            return f"{_mm(ours[1], 1000):>11} ms ({cpu:4.2f}×)"

        rows.append((law, kind, origin, f"{cell(docx, docx_base)} | {cell(pdf, pdf_base)} | {cell(pdf_arq, pdf_base)}"))
    print(f"\nDocumentos (CPU por documento, mín/mediana de {n} rodadas intercaladas; razão das medianas contra o "
          "baseline no mesmo processo):")
    print("  DOCX baseline: abrir+salvar o modelo com docxtpl, sem render; PDF baseline: "
          "o piso, WeasyPrint no mesmo HTML com a folha de estilo e as fontes reaproveitadas.")
    head = ("lei", "documento", "caso", "DOCX (razão) | PDF (razão) | PDF/A-3b arquivo (razão)")
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(3)]
    for r in [head, *rows]:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r[:3], widths, strict=True)) + "  " + r[3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=10_000, help="casos gerados para o verificar")
    ap.add_argument("--rodadas", type=int, default=3, help="rodadas intercaladas da verificação (mín e mediana)")
    ap.add_argument("--docs", type=int, default=10, help="rodadas intercaladas por documento (mín e mediana)")
    ap.add_argument("--perfil", action="store_true", help="cProfile da verificação")
    ap.add_argument("--so-verificar", action="store_true", help="só a verificação, sem documentos")
    ap.add_argument("--memoria", default=None, metavar="N,N…",
                    help="só a memória: pico de RSS do verificar com estes números de casos (ex.: 1000,100000)")
    ap.add_argument("--memoria-formatos", default="texto,json,html", help="formatos medidos com --memoria")
    args = ap.parse_args()

    print(f"Python {sys.version.split()[0]}; carga (uptime) {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"núcleos disponíveis {len(os.sched_getaffinity(0))}")
    if args.memoria:
        bench_memory([int(x) for x in args.memoria.split(",")], args.memoria_formatos.split(","))
        return
    t0 = time.perf_counter()
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    print(f"regras e modelos carregados em {(time.perf_counter() - t0) * 1000:.0f} ms")
    with tempfile.TemporaryDirectory(prefix="autos-bench-") as tmp:
        t0 = time.perf_counter()
        made = generate_cases(Path(tmp), args.casos)
        print(f"gerados {args.casos:,} casos a partir de {len(sample_cases())} exemplos em "
              f"{time.perf_counter() - t0:.1f} s: {made}")
        bench_verification(autos, Path(tmp), args.perfil, max(1, args.rodadas))
    if not args.so_verificar:
        bench_documents(autos, max(1, args.docs))


if __name__ == "__main__":
    main()
