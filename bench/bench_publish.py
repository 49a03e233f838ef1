"""Overnight edital publication benchmark: documents per second, ratio against a naive baseline, peak memory.

1. Generates N autos de infração (default 1,000) across the laws whose rules publish editais (today Ferraz
   de Vasconcelos and Timóteo; Cuiabá's rules have no individual edital), by varying the test fixtures:
   names, valid CPF/CNPJ (python-stdnum check digits), auto numbers, amounts, dates and the reason for the
   edital (domicile unknown or AR returned "mudou-se"/"desconhecido").
2. Publishes them with ``autos publicar-editais`` in a child process (every core), timed, under
   ``/usr/bin/time -v`` when present (its "Maximum resident set size" is the largest single process);
   the whole process tree's resident memory (parent + workers) is also sampled from /proc every 100 ms.
3. Same-machine baselines, run right after on a sample of the same cases (default 150):
   - **naive** (the issue's definition: one process, nothing reused): for each case the library is loaded
     anew (rules, calendars, templates), validates the case and builds the individual edital's context and
     HTML, then a fresh ``weasyprint.HTML(string=...).write_pdf()`` and a fresh ``DocxTemplate(...).render()``
     (new Jinja environment) — no font configuration, stylesheet or compiled template reused — and both
     files written;
   - **naive with the library loaded** (stricter): the same, but rules, calendars and HTML templates are
     loaded once; only the rendering is naive;
   - **one process**: ``publicar-editais --processos 1`` (everything the publisher reuses, no parallelism).
   The publisher does more than the naive loop (consolidated edital, gazette with bookmarks and stamped
   folios, hashes, ledger, manifest), so the ratio is conservative.

Run:  ``.venv/bin/python bench/bench_publish.py [--casos 1000] [--amostra 150] [--rodadas 2] [--processos N]``
      ``.venv/bin/python bench/bench_publish.py --casos 10000 --amostra 0 --rodadas 1``   (memory at scale)
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml
from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "publish" / "casos"
TODAY = date(2026, 11, 29)
DATA = date(2026, 10, 6)

FIRST = ["Ana", "Bruno", "Carla", "Daniel", "Elisa", "Fábio", "Gabriela", "Heitor", "Íris", "João", "Kátia",
         "Lucas", "Márcia", "Nelson", "Otávio", "Paula", "Raul", "Sílvia", "Tiago", "Vera"]
LAST = ["Almeida", "Barbosa", "Cardoso", "Dias", "Esteves", "Ferreira", "Gomes", "Hoffmann", "Lima", "Moreira",
        "Nogueira", "Oliveira", "Pereira", "Queiroz", "Ribeiro", "Santos", "Teixeira", "Vieira"]
COMPANIES = ["Laticínios", "Frigorífico", "Embutidos", "Queijaria", "Entreposto", "Pescados"]


def _cpf(rng: random.Random) -> str:
    base = "".join(rng.choice("0123456789") for _ in range(9))
    if len(set(base)) == 1:
        base = "123" + base[3:]
    # python-stdnum exposes no public CPF check-digit function: take the one pair of digits it validates
    number = next(base + f"{d:02d}" for d in range(100) if stdnum_cpf.is_valid(base + f"{d:02d}"))
    return str(stdnum_cpf.format(number))


def _cnpj(rng: random.Random) -> str:
    base = "".join(rng.choice("0123456789") for _ in range(8)) + "0001"
    return str(stdnum_cnpj.format(base + stdnum_cnpj.calc_check_digits(base)))


def generate(folder: Path, n: int, seed: int = 7) -> dict[str, int]:
    """``n`` valid autos that must be published by edital, alternating the two laws and four templates."""
    rng = random.Random(seed)
    templates = [yaml.safe_load((FIXTURES / rel).read_text(encoding="utf-8")) for rel in (
        "ferraz/auto-301-domicilio-desconhecido.yaml", "ferraz/auto-302-ar-mudou-se.yaml",
        "timoteo/auto-31-pj-local-incerto.yaml", "timoteo/auto-32-pf-ar-desconhecido.yaml")]
    counters: dict[str, int] = {}
    for i in range(n):
        case = yaml.safe_load(yaml.safe_dump(templates[i % 4]))
        lei = case["lei"]
        counters[lei] = counters.get(lei, 0) + 1
        case["numero"] = f"{1000 + counters[lei]}/2026"
        case.pop("processo", None)
        a = case["autuado"]
        if a["tipo"] == "pessoa_fisica":
            a["nome"] = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
            a["cpf"] = _cpf(rng)
        else:
            a["nome"] = f"{rng.choice(COMPANIES)} {rng.choice(LAST)} Ltda."
            a["cnpj"] = _cnpj(rng)
            a["responsavel_legal"]["cpf"] = _cpf(rng)
        day = date(2026, 8, 3) + timedelta(days=rng.randrange(50))
        case["lavratura"]["data"] = day
        if "data_infracao" in case:
            case["data_infracao"] = day
        if case.get("notificacao", {}).get("ar"):
            case["notificacao"]["ar"]["data_postagem"] = day + timedelta(days=1)
        inf = case["infracoes"][0]
        if inf["regra"] == "terreno-sem-limpeza":
            inf["quantidade"] = str(rng.randrange(120, 2400))
        for pen in case["penalidades"]:
            if pen.get("valor_base"):
                pen["valor_base"] = str(rng.randrange(100, 5000))
        sub = folder / lei.split("/")[0]
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"auto-{i:05d}.yaml").write_text(yaml.safe_dump(case, allow_unicode=True, sort_keys=False),
                                                encoding="utf-8")
    return counters


class TreeRss:
    """Peaks of the summed memory of a process and its descendants (/proc sampling: RSS every 100 ms, PSS every
    2 s). RSS counts the pages the parent shares with its forked workers once in each process; PSS divides
    shared pages among the processes that share them — the memory the run really uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_kb = 0
        self.peak_pss_kb = 0
        self.per_pid_kb: dict[int, int] = {}
        self.depth: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        pids, frontier, depth = [self.pid], [self.pid], 0
        while frontier:
            depth += 1
            nxt = []
            for p in frontier:
                try:
                    kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
                except OSError:
                    kids = []
                nxt.extend(int(k) for k in kids)
            for k in nxt:
                self.depth.setdefault(k, depth)
            pids.extend(nxt)
            frontier = nxt
        return pids

    def peak_at(self, depth: int) -> int:
        """Largest RSS (kB) seen among the processes at ``depth`` below the root."""
        return max((kb for p, kb in self.per_pid_kb.items() if self.depth.get(p, 0) == depth), default=0)

    def _run(self) -> None:
        tick = 0
        while not self._stop.is_set():
            tick += 1
            with_pss = tick % 20 == 0  # smaps_rollup walks the page tables: every 2 s, not to slow the run
            total = pss = 0
            for p in self._tree():
                try:
                    m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{p}/status").read_text())
                    q = (re.search(r"^Pss:\s+(\d+)", Path(f"/proc/{p}/smaps_rollup").read_text(), re.M)
                         if with_pss else None)
                except OSError:
                    continue
                kb = int(m.group(1)) if m else 0
                total += kb
                pss += int(q.group(1)) if q else 0
                self.per_pid_kb[p] = max(self.per_pid_kb.get(p, 0), kb)
            self.peak_kb = max(self.peak_kb, total)
            if with_pss:
                self.peak_pss_kb = max(self.peak_pss_kb, pss)
            self._stop.wait(0.1)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def publish(cases: Path, out: Path, processes: int | None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "publicar-editais", str(cases),
           "--data", DATA.isoformat(), "-o", str(out),
           "--veiculo", "timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
           "--veiculo", "Quadro de Editais do Paço Municipal", "--jornal", "Jornal Diário do Aço"]
    if processes:
        cmd += ["--processos", str(processes)]
    timed = Path("/usr/bin/time").exists()
    if timed:
        cmd = ["/usr/bin/time", "-v", *cmd]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = TreeRss(proc.pid)
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    sampler.stop()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"publicar-editais falhou ({proc.returncode}):\n{stdout}\n{stderr[-3000:]}")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    files = [p for p in out.rglob("*") if p.is_file() and p.suffix in (".pdf", ".docx")]
    individual = [p for p in files if "-auto-" in p.name and p.suffix == ".pdf"]
    editais = len(list(out.rglob("caderno-*.pdf")))
    return {"wall": wall, "files": len(files), "cases": len(individual), "editais": editais,
            "max_rss_kb": int(m.group(1)) if m else None, "tree_rss_kb": sampler.peak_kb,
            "tree_pss_kb": sampler.peak_pss_kb, "cpu": _cpu(stderr),
            "parent_kb": sampler.peak_at(1 if timed else 0), "worker_kb": sampler.peak_at(2 if timed else 1),
            "refused": len(re.findall(r"^recusado:", stdout, re.M))}


def _cpu(time_v: str) -> float | None:
    """User + system CPU seconds of the run (from /usr/bin/time -v): less sensitive to a busy machine."""
    u = re.search(r"User time \(seconds\): ([\d.]+)", time_v)
    s = re.search(r"System time \(seconds\): ([\d.]+)", time_v)
    return float(u.group(1)) + float(s.group(1)) if u and s else None


def naive(cases: list[Path], out: Path, *, keep_library: bool = False) -> dict[str, float]:
    """One process; per case a fresh WeasyPrint document and a fresh docxtpl render, nothing reused.

    As the issue defines it, nothing is reused: each case loads the rules, calendars and templates anew
    (``Autos(...)``), as a script calling the library once per case would. With ``keep_library`` the library
    is loaded once and only the rendering is naive (a stricter baseline, reported next to it)."""
    import jinja2
    from docxtpl import DocxTemplate
    from jinja2.sandbox import SandboxedEnvironment
    from weasyprint import HTML

    from autos.load import parse_case
    from autos.pipeline import Autos
    from autos.publish import INDIVIDUAL_KIND, RunParams, derive, edital_rule, place_option

    params = RunParams(DATA, DATA, None, None, TODAY, place_option(["Quadro de Editais do Paço Municipal"]),
                       place_option(["Jornal Diário do Aço"]))
    shared = Autos(None, None, TODAY) if keep_library else None
    out.mkdir(parents=True, exist_ok=True)
    t_pdf = t_docx = t_stages = 0.0
    t0, c0 = time.perf_counter(), time.process_time()
    for i, path in enumerate(cases):
        s0 = time.perf_counter()
        autos = shared or Autos(None, None, TODAY)
        loaded = parse_case(path.read_text(encoding="utf-8"), path)
        statute = autos.statute_of(loaded)
        rule = edital_rule(autos.deadline_service.law(statute))
        assert rule is not None
        individual = derive(loaded, INDIVIDUAL_KIND, params.publication(statute, rule, "1/2026"))
        report = autos.check(individual)
        assert not report.errors, report.errors
        doc = autos.document_context(individual, report=report)
        html = autos.pdf_renderer.html(doc.template, doc.context)
        s1 = time.perf_counter()
        (out / f"{i}.pdf").write_bytes(HTML(string=html, base_url=str(autos.pdf_renderer.folder) + "/").write_pdf())
        s2 = time.perf_counter()
        tpl = DocxTemplate(str(autos.docx_renderer.folder / f"{doc.template}.docx"))
        tpl.render(doc.context, jinja_env=SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=True),
                   autoescape=True)
        buf = io.BytesIO()
        tpl.save(buf)
        (out / f"{i}.docx").write_bytes(buf.getvalue())
        s3 = time.perf_counter()
        t_stages += s1 - s0
        t_pdf += s2 - s1
        t_docx += s3 - s2
    return {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "pdf": t_pdf, "docx": t_docx,
            "stages": t_stages, "n": len(cases)}


def _report_publish(ours: dict[str, Any], processes: int) -> float:
    rate = float(ours["cases"] / ours["wall"])
    print(f"publicar-editais ({processes} processos): {ours['wall']:.1f} s; {ours['editais']} edital(is), "
          f"{ours['cases']} editais individuais, {ours['files']} arquivos PDF/DOCX (recusados: {ours['refused']})")
    print(f"  {rate:.1f} editais individuais/s (PDF + DOCX + parte do consolidado e do caderno); "
          f"{ours['files'] / ours['wall']:.1f} documentos/s")
    if ours["max_rss_kb"]:
        print(f"  pico de RSS do maior processo (/usr/bin/time -v): {ours['max_rss_kb'] / 1024:.0f} MB")
    print(f"  pico da árvore de processos (soma, amostrado): RSS {ours['tree_rss_kb'] / 1024:.0f} MB, "
          f"PSS {ours['tree_pss_kb'] / 1024:.0f} MB; maior RSS do processo principal "
          f"{ours['parent_kb'] / 1024:.0f} MB, de um processo de renderização {ours['worker_kb'] / 1024:.0f} MB")
    if ours["cpu"]:
        print(f"  CPU: {ours['cpu']:.1f} s = {1000 * ours['cpu'] / ours['cases']:.0f} ms por edital individual")
    return rate


BASELINES = [("ingênua, nada reutilizado (definição da issue)", False),
             ("ingênua com a biblioteca já carregada (só a renderização refeita; mais exigente)", True)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--casos", type=int, default=1000)
    ap.add_argument("--amostra", type=int, default=150, help="cases for the same-machine baselines (0: none)")
    ap.add_argument("--rodadas", type=int, default=2,
                    help="rounds of (publisher, baselines): each ratio pairs runs minutes apart, not hours")
    ap.add_argument("--processos", type=int, default=None)
    ap.add_argument("--manter", type=Path, default=None, help="keep the generated cases and output here")
    args = ap.parse_args()
    work = args.manter or Path(tempfile.mkdtemp(prefix="bench-publish-"))
    work.mkdir(parents=True, exist_ok=True)
    cases = work / "casos"
    shutil.rmtree(cases, ignore_errors=True)
    per_law = generate(cases, args.casos)
    cores = os.cpu_count() or 1
    processes = args.processos or cores
    print(f"{args.casos} casos gerados ({', '.join(f'{k}: {v}' for k, v in sorted(per_law.items()))}); "
          f"{cores} núcleo(s); /usr/bin/time: {'sim' if Path('/usr/bin/time').exists() else 'não'}")
    every = sorted(cases.rglob("*.yaml"))  # a spread sample: both laws and every fixture, in proportion
    sample_cases = every[:: max(1, len(every) // max(1, args.amostra))][: args.amostra]
    ratios: dict[bool, list[float]] = {False: [], True: []}
    for rnd in range(1, max(1, args.rodadas) + 1):
        print(f"\n=== rodada {rnd} ===")
        shutil.rmtree(work / "saida", ignore_errors=True)
        ours = publish(cases, work / "saida", args.processos)
        rate = _report_publish(ours, processes)
        if not args.amostra:
            continue
        if rnd == 1:
            sample = work / "amostra"
            shutil.rmtree(sample, ignore_errors=True)
            for p in sample_cases:
                dest = sample / p.parent.name / p.name
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(p, dest)
            shutil.rmtree(work / "saida-1", ignore_errors=True)
            one = publish(sample, work / "saida-1", 1)
            one_rate = one["cases"] / one["wall"]
            print(f"publicar-editais --processos 1 ({one['cases']} casos): {one['wall']:.1f} s = {one_rate:.2f}/s "
                  f"(reuso, sem paralelismo; inclui consolidado e caderno); CPU "
                  f"{1000 * (one['cpu'] or 0) / one['cases']:.0f} ms por edital individual")
        for label, keep in BASELINES:
            shutil.rmtree(work / "ingenuo", ignore_errors=True)
            nv = naive(sample_cases, work / "ingenuo", keep_library=keep)
            naive_rate = nv["n"] / nv["wall"]
            naive_cpu = nv["cpu"] / nv["n"]
            ratios[keep].append(rate / naive_rate)
            print(f"linha de base {label} ({nv['n']} casos, 1 processo): {nv['wall']:.1f} s = "
                  f"{naive_rate:.2f} editais individuais/s (PDF + DOCX)")
            print(f"  por caso: PDF {1000 * nv['pdf'] / nv['n']:.0f} ms, DOCX {1000 * nv['docx'] / nv['n']:.0f} ms, "
                  f"etapas da biblioteca {1000 * nv['stages'] / nv['n']:.1f} ms; CPU {1000 * naive_cpu:.0f} ms")
            cpu_note = ""
            if ours["cpu"]:
                cpu_note = (f"; razão de CPU por edital {naive_cpu / (ours['cpu'] / ours['cases']):.2f} "
                            f"(× {cores} núcleos = {cores * naive_cpu / (ours['cpu'] / ours['cases']):.1f}× possível)")
            print(f"  → publicar-editais, todos os núcleos: {rate / naive_rate:.2f}× esta linha de base{cpu_note}")
    if args.amostra:
        print("\n=== resumo ===")
        for label, keep in BASELINES:
            got = sorted(ratios[keep])
            print(f"{label}: " + ", ".join(f"{r:.2f}×" for r in ratios[keep])
                  + f" (menor {got[0]:.2f}×, mediana {statistics.median(got):.2f}×)")

if __name__ == "__main__":
    main()
