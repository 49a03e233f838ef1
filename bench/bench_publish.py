"""Overnight edital publication benchmark: CPU per edital and wall time against a fair baseline; peak memory.

1. Generates N autos de infração (default 300) across the laws whose rules publish editais (today Ferraz de
   Vasconcelos and Timóteo; Cuiabá's rules have no individual edital), by varying the test fixtures: names,
   valid CPF/CNPJ (python-stdnum check digits), auto numbers, amounts, dates and the reason for the edital
   (domicile unknown or AR returned "mudou-se"/"desconhecido").
2. Runs, on those same N cases and with the same number of processes P (default: the cores available),
   each contender once per round, for R rounds (default 3), the order rotating from round to round so that
   a burst of load on a shared machine hits them alike:
   - **publicar-editais --processos P** (``autos`` in a child process);
   - **naive pool** (the headline baseline): a process pool of the same size; each worker loads the library
     once (rules, calendars, HTML templates) and, for each case, validates it, builds the individual edital's
     context and HTML, then a fresh ``weasyprint.HTML(string=...).write_pdf()`` and a fresh
     ``DocxTemplate(...).render()`` (new Jinja environment) — no font configuration, stylesheet or prepared
     template reused — and writes both files;
   - **naive pool reloading the library for every case** (labelled extra, ``--sem-extra`` skips it): the
     same, with ``Autos(...)`` built anew for each case, as a script calling the library once per case
     would. Older figures of this project compared against this one, in one process.
   The publisher does more than the naive loop (consolidated edital, gazette with bookmarks and stamped
   folios, hashes, ledger, manifest), so the ratios are conservative.
3. Reports, per contender, the CPU per individual edital (user + system of the child process and of the
   workers it waited for, from ``wait4``) and the wall time, min and median over the rounds, and the ratios
   naive ÷ publisher of both (per round, then min and median). The publisher's memory is sampled from /proc
   every 100 ms (RSS of the whole process tree, PSS every 2 s) and its largest process's peak RSS (``wait4``).

Run:  ``.venv/bin/python bench/bench_publish.py [--casos 300] [--rodadas 3] [--processos P] [--sem-extra]``
      ``.venv/bin/python bench/bench_publish.py --casos 10000 --rodadas 1 --sem-linhas-de-base`` (memory at scale)
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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml
from stdnum.br import cnpj as stdnum_cnpj
from stdnum.br import cpf as stdnum_cpf

from autos.base.ptbr import count_noun

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


def _child(cmd: list[str], workdir: Path, *, sample: bool = False) -> dict[str, Any]:
    """Run ``cmd``; wall time, CPU (user + system, the child and the workers it waited for) and peak RSS of its
    largest process, from ``wait4``; with ``sample``, the tree's RSS/PSS sampled from /proc."""
    out_path, err_path = workdir / "stdout.txt", workdir / "stderr.txt"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        sampler = TreeRss(proc.pid) if sample else None
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    if sampler is not None:
        sampler.stop()
    return {"rc": proc.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "max_rss_kb": usage.ru_maxrss, "stdout": out_path.read_text(encoding="utf-8", errors="replace"),
            "stderr": err_path.read_text(encoding="utf-8", errors="replace"), "sampler": sampler}


def publish(cases: Path, out: Path, processes: int) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "autos.cli", "--hoje", TODAY.isoformat(), "publicar-editais", str(cases),
           "--data", DATA.isoformat(), "-o", str(out), "--processos", str(processes),
           "--veiculo", "timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
           "--veiculo", "Quadro de Editais do Paço Municipal", "--jornal", "Jornal Diário do Aço"]
    out.mkdir(parents=True, exist_ok=True)
    r = _child(cmd, out, sample=True)
    if r["rc"] not in (0, 1):
        raise SystemExit(f"publicar-editais falhou ({r['rc']}):\n{r['stdout'][-3000:]}\n{r['stderr'][-3000:]}")
    sampler = r["sampler"]
    files = [p for p in out.rglob("*") if p.is_file() and p.suffix in (".pdf", ".docx")]
    individual = [p for p in files if "-auto-" in p.name and p.suffix == ".pdf"]
    return {**r, "files": len(files), "cases": len(individual), "editais": len(list(out.rglob("caderno-*.pdf"))),
            "tree_rss_kb": sampler.peak_kb, "tree_pss_kb": sampler.peak_pss_kb, "parent_kb": sampler.peak_at(0),
            "worker_kb": sampler.peak_at(1), "refused": len(re.findall(r"^recusado:", r["stdout"], re.M))}


def naive(cases: Path, out: Path, processes: int, *, reload: bool) -> dict[str, Any]:
    """The naive baseline in a child process (this script, ``--contendor``), a pool of ``processes`` workers."""
    cmd = [sys.executable, __file__, "--contendor", "ingenuo-recarga" if reload else "ingenuo", "--pasta", str(cases),
           "--saida", str(out), "--processos", str(processes)]
    out.mkdir(parents=True, exist_ok=True)
    r = _child(cmd, out)
    if r["rc"] != 0:
        raise SystemExit(f"linha de base falhou ({r['rc']}):\n{r['stderr'][-3000:]}")
    return {**r, "cases": len(list(out.glob("*.pdf")))}


# --- the naive baseline, run inside the child process ------------------------------------------------
_NAIVE: dict[str, Any] = {}


def _naive_init(reload: bool) -> None:
    """Per worker: the renderers' libraries imported and, unless ``reload``, the library loaded once."""
    import weasyprint  # noqa: F401 - imported once per worker, as the publisher's workers do
    from docxtpl import DocxTemplate  # noqa: F401

    from autos.app.editais.jobs import RunParams
    from autos.app.editais.run import place_option
    from autos.app.generation.pipeline import Autos

    _NAIVE["params"] = RunParams(DATA, DATA, None, None, TODAY, place_option(["Quadro de Editais do Paço Municipal"]),
                                 place_option(["Jornal Diário do Aço"]))
    _NAIVE["autos"] = None if reload else Autos(None, None, TODAY)


def _naive_one(job: tuple[int, str, str]) -> None:
    """One case, naively: validate, context, HTML; a fresh WeasyPrint document and a fresh docxtpl render."""
    import jinja2
    from docxtpl import DocxTemplate
    from jinja2.sandbox import SandboxedEnvironment
    from weasyprint import HTML

    from autos.app.generation.pipeline import Autos
    from autos.compute.edital import INDIVIDUAL_KIND, derive, edital_rule
    from autos.processo.load_case import parse_case

    i, path_s, out_s = job
    path, out, params = Path(path_s), Path(out_s), _NAIVE["params"]
    autos = _NAIVE["autos"] or Autos(None, None, TODAY)
    loaded = parse_case(path.read_text(encoding="utf-8"), path)
    statute = autos.statute_of(loaded)
    rule = edital_rule(autos.deadline_service.law(statute))
    assert rule is not None
    individual = derive(loaded, INDIVIDUAL_KIND, params.publication(statute, rule, "1/2026"))
    report = autos.check(individual)
    assert not report.errors, report.errors
    doc = autos.document_context(individual, report=report)
    html = autos.pdf_renderer.html(doc.template, doc.context)
    (out / f"{i}.pdf").write_bytes(HTML(string=html, base_url=str(autos.pdf_renderer.folder) + "/").write_pdf())
    tpl = DocxTemplate(str(autos.docx_renderer.folder / f"{doc.template}.docx"))
    tpl.render(doc.context, jinja_env=SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=True),
               autoescape=True)
    buf = io.BytesIO()
    tpl.save(buf)
    (out / f"{i}.docx").write_bytes(buf.getvalue())


def run_naive(cases: Path, out: Path, processes: int, reload: bool) -> None:
    jobs = [(i, str(p), str(out)) for i, p in enumerate(sorted(cases.rglob("*.yaml")))]
    out.mkdir(parents=True, exist_ok=True)
    if processes <= 1:
        _naive_init(reload)
        for job in jobs:
            _naive_one(job)
        return
    with ProcessPoolExecutor(max_workers=processes, initializer=_naive_init, initargs=(reload,)) as pool:
        for _ in pool.map(_naive_one, jobs, chunksize=4):
            pass


# --- report --------------------------------------------------------------------------------------
def _mm(values: list[float], fmt: str) -> str:
    return f"mín {fmt.format(min(values))}, mediana {fmt.format(statistics.median(values))}"


def _memory(ours: dict[str, Any]) -> None:
    print(f"    memória: maior processo (wait4) {ours['max_rss_kb'] / 1024:.0f} MB; árvore (soma, amostrada) RSS "
          f"{ours['tree_rss_kb'] / 1024:.0f} MB, PSS {ours['tree_pss_kb'] / 1024:.0f} MB; processo principal "
          f"{ours['parent_kb'] / 1024:.0f} MB, um processo de renderização {ours['worker_kb'] / 1024:.0f} MB")


PUBLISHER = "publicar-editais"
NAIVE = "ingênua em pool (biblioteca carregada uma vez por processo) — linha de base principal"
RELOAD = "extra: ingênua em pool recarregando a biblioteca a cada caso"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--casos", type=int, default=300, help="casos gerados; todos os concorrentes rodam os mesmos")
    ap.add_argument("--rodadas", type=int, default=3, help="rodadas intercaladas (≥ 3 para mín e mediana)")
    ap.add_argument("--processos", type=int, default=None, help="processos de cada concorrente (padrão: núcleos)")
    ap.add_argument("--sem-extra", action="store_true", help="não roda a linha de base que recarrega a biblioteca")
    ap.add_argument("--sem-linhas-de-base", action="store_true", help="só a publicação (memória em escala)")
    ap.add_argument("--manter", type=Path, default=None, help="guarda aqui os casos gerados e as saídas")
    ap.add_argument("--contendor", choices=["ingenuo", "ingenuo-recarga"], help=argparse.SUPPRESS)
    ap.add_argument("--pasta", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--saida", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    processes = args.processos or cores
    if args.contendor:
        run_naive(args.pasta, args.saida, processes, args.contendor == "ingenuo-recarga")
        return
    work = args.manter or Path(tempfile.mkdtemp(prefix="bench-publish-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        _bench(args, work, cores, processes)
    finally:
        if args.manter is None:
            shutil.rmtree(work, ignore_errors=True)


def _bench(args: argparse.Namespace, work: Path, cores: int, processes: int) -> None:
    cases = work / "casos"
    shutil.rmtree(cases, ignore_errors=True)
    per_law = generate(cases, args.casos)
    print(f"{args.casos} casos gerados ({', '.join(f'{k}: {v}' for k, v in sorted(per_law.items()))}); "
          f"{count_noun(cores, 'núcleo disponível', 'núcleos disponíveis')}; "
          f"{count_noun(processes, 'processo', 'processos')} por concorrente; "
          f"Python {sys.version.split()[0]}; "
          f"carga (uptime): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    contenders: list[tuple[str, Callable[[Path], dict[str, Any]]]] = [
        (PUBLISHER, lambda out: publish(cases, out, processes))]
    if not args.sem_linhas_de_base:
        contenders.append((NAIVE, lambda out: naive(cases, out, processes, reload=False)))
        if not args.sem_extra:
            contenders.append((RELOAD, lambda out: naive(cases, out, processes, reload=True)))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in contenders}
    for rnd in range(max(1, args.rodadas)):
        order = contenders[rnd % len(contenders):] + contenders[: rnd % len(contenders)]
        print(f"\n=== rodada {rnd + 1} (carga {' '.join(f'{x:.2f}' for x in os.getloadavg())}) ===")
        for name, fn in order:
            out = work / f"saida-{rnd}-{contenders.index((name, fn))}"
            shutil.rmtree(out, ignore_errors=True)
            r = fn(out)
            runs[name].append(r)
            extra = (f"; {count_noun(r['editais'], 'edital', 'editais')}, {r['files']} arquivos, "
                     f"recusados {r['refused']}"
                     if name == PUBLISHER else "")
            print(f"  {name}: {r['wall']:.1f} s, CPU {r['cpu']:.1f} s = {1000 * r['cpu'] / r['cases']:.0f} ms por "
                  f"edital individual ({r['cases']} casos){extra}")
            if name == PUBLISHER:
                _memory(r)
            shutil.rmtree(out, ignore_errors=True)
    print(f"\n=== resumo: {args.casos} casos, {count_noun(processes, 'processo', 'processos')} cada, "
          f"{count_noun(max(1, args.rodadas), 'rodada', 'rodadas')} ===")
    for name, rs in runs.items():
        print(f"{name}:\n  CPU por edital: {_mm([1000 * r['cpu'] / r['cases'] for r in rs], '{:.0f} ms')}; "
              f"parede: {_mm([r['wall'] for r in rs], '{:.1f} s')}; "
              f"editais/s: {_mm([r['cases'] / r['wall'] for r in rs], '{:.1f}')}")
    ours = runs[PUBLISHER]
    for name in (NAIVE, RELOAD):
        if name not in runs:
            continue
        cpu = [(b["cpu"] / b["cases"]) / (a["cpu"] / a["cases"]) for a, b in zip(ours, runs[name], strict=True)]
        wall = [(b["wall"] / b["cases"]) / (a["wall"] / a["cases"]) for a, b in zip(ours, runs[name], strict=True)]
        print(f"publicar-editais contra «{name}» (por rodada; > 1 = a publicação é mais rápida):\n"
              f"  CPU por edital: {', '.join(f'{x:.2f}×' for x in cpu)} ({_mm(cpu, '{:.2f}×')})\n"
              f"  tempo de parede: {', '.join(f'{x:.2f}×' for x in wall)} ({_mm(wall, '{:.2f}×')})")


if __name__ == "__main__":
    main()
