"""Load test of the web application on loopback: N clerks at once validating a form and previewing a PDF.

    .venv/bin/python bench/bench_web_load.py                    # 20 clerks, 60 s (the issue's scenario)
    .venv/bin/python bench/bench_web_load.py --escreventes 5 --segundos 10
    .venv/bin/python bench/bench_web_load.py --so-entradas --rodadas-de-entrada 5   # only the sign-in burst

The real server (``autos servir``, as installed: one process, its render pool of one process per core unless
``--processos-de-trabalho``) runs on a copy of the sample processos with its own register and accounts
(tests/browser/contas.py), on a free port of 127.0.0.1; the clerks start once it answers (its render processes
are ready by then). Each clerk signs in through the sign-in page (its
own session and CSRF token) and then, until the time is up, repeats: a validation of the new-processo form as it
is typed (a Timóteo auto filled a field more at each request — the fetch the page makes on each change), and
every ``--previa-a-cada`` requests, the PDF preview (MINUTA) of the auto of ITS OWN processo (a copy of
SIM-2026/000142, 3 pages, one file per clerk), which it changes before the preview (the facts rewritten with a
revision number, as a save of the edit form would leave the file), so the server's preview cache cannot answer
from a PDF already made: every preview is rendered (``--alterar-a-cada K``: change it before one preview in K;
``--conferir``: check in each preview's text that it has the clerk's last revision). ``--pausa`` seconds of
thinking between requests (0: as fast as the server answers, the worst case). Bounded in time (``--segundos``,
plus at most ``--limite`` seconds for the requests still running) and in count (``--max-pedidos``).

Reports per kind (validation, preview): requests, requests per second, p50/p95/max latency, errors (any status
other than 200, a body that is not what was asked, a timeout, a preview without the clerk's last revision), the
preview cache's hit rate (the server's X-Previa-Cache header) and the machine's load average before and after
(the machine may be shared: say so with the figures), and the CPU seconds each server process (the server and
each render process) used during the run: how the work fell on the cores. Exit code 1 when a goal is missed
(0 errors, p95 < 1 s validation, < 3 s preview).

Before the load, the sign-in burst: ``--escreventes`` clerks sign in at the same moment (each its own client: the
sign-in page, then the form posted), ``--rodadas-de-entrada`` times (3 by default). Each argon2 verification holds
64 MiB while it runs, so what is measured is the peak RSS of the server's process during each burst (``VmHWM`` of
``/proc/PID/status``, reset before each burst by writing 5 to ``/proc/PID/clear_refs``), its RSS before, and the
burst's wall time and slowest sign-in: min, median and max over the bursts.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.contas import ACCOUNTS, SENHA, make_site  # noqa: E402
from tests.browser.servidor import Servidor  # noqa: E402

from autos.app.server import default_workers  # noqa: E402

#: fiscal A's processo SIM-2026/000142 (auto of 3 pages; findings: warnings only), copied once per clerk
SAMPLE = "timoteo-mg/sim-2026-000142-pj-completo.yaml"
#: the preview of act 1 (the auto) of a clerk's own copy
PREVIA = "/processo/{arquivo}/ato/1/documento/auto_de_infracao/previa.pdf"
#: the facts of the sample, which a clerk rewrites before a preview ("revisão N" at the end)
FATOS = "conservação do produto, em desacordo com as normas sanitárias do SIM."
GOALS = {"validacao": 1.0, "previa": 3.0}  # p95 goals in seconds (issue 14)

#: the form's fixed fields (the choices: law, infraction, penalty), sent with every validation as the page does
FIXED: dict[str, str] = {
    "lei": "timoteo-mg/lei-3844-2022",
    "autuado.tipo": "pessoa_fisica",
    "infracoes[0].regra": "inobservancia-normas-sanitarias",
    "atos[0].tipo": "auto",
    "atos[0].penalidades[0].tipo": "multa",
    "atos[0].agente.nome": "João Batista Ferreira",
    "atos[0].agente.matricula": "20.315",
}
#: what the clerk types, one field more at each validation (form field = YAML path)
TYPING: list[tuple[str, str]] = [
    ("atos[0].data", "2026-11-20"),
    ("numero", "SIM-2026/000300"),
    ("autuado.nome", "Joaquim Teixeira Lopes"),
    ("autuado.cpf", "251.983.460-98"),
    ("autuado.qualificacao", "brasileiro, comerciante"),
    ("local", "Feira livre da Praça 1º de Maio, Centro-Sul, Timóteo/MG"),
    ("atos[0].hora", "09:40"),
    ("fatos", "Exposição à venda de 30 kg de queijo minas frescal sem rótulo nem registro."),
    ("infracoes[0].complemento", "Decreto municipal nº 5.123/2022, art. 45, inciso II (exemplo)"),
    ("atos[0].agente.cargo", "Médico Veterinário Oficial"),
    ("atos[0].agente.crmv", "CRMV-MG 15.847"),
    ("atos[0].agente.medico_veterinario_oficial", "true"),
    ("atos[0].penalidades[0].valor_base", "300"),
]


@dataclass
class Kind:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def add(self, seconds: float, error: str | None) -> None:
        self.latencies.append(seconds)
        if error:
            self.errors[error] += 1


@dataclass
class Run:
    kinds: dict[str, Kind] = field(default_factory=lambda: {"validacao": Kind(), "previa": Kind()})
    count: int = 0
    cache: Counter[str] = field(default_factory=Counter)  # X-Previa-Cache of the previews answered
    connections: Counter[int] = field(default_factory=Counter)  # the clerks' connections, by server process
    cpu: list[tuple[int, float]] = field(default_factory=list)  # CPU seconds of each server process during the run
    sign_in_errors: Counter[str] = field(default_factory=Counter)


def connections_by_process(port: int) -> Counter[int]:
    """The established connections to the server's port, by the pid of the server process that holds each
    (``ss -tnp``; empty without ``ss``): a keep-alive connection stays with the worker that accepted it."""
    try:
        out = subprocess.run(["ss", "-Htnp", "state", "established", f"( sport = :{port} )"], capture_output=True,
                             text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return Counter()
    return Counter(int(pid) for pid in re.findall(r"pid=(\d+)", out))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (``/proc/PID/stat``; 0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_processes(pid: int) -> list[int]:
    """The server's process and its children (the render pool; the resource tracker uses no CPU to speak of)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                children.append(int(entry.name))
    return [pid, *sorted(children)]


def own_processo(folder: Path, n: int) -> str:
    """Clerk ``n``'s copy of the sample (its own number; fiscal A's, like the sample), relative to ``folder``."""
    text = (folder / SAMPLE).read_text(encoding="utf-8")
    assert FATOS in text and "numero: SIM-2026/000142" in text
    name = f"timoteo-mg/carga-escrevente-{n:02d}.yaml"
    (folder / name).write_text(text.replace("numero: SIM-2026/000142", f"numero: SIM-2026/9{n:05d}"),
                               encoding="utf-8")
    return name


def change(file: Path, revision: int) -> None:
    """The clerk's edit: the facts end with the revision number (written to a temporary file and renamed, as the
    edit form saves, so the server never reads half a file)."""
    text = file.read_text(encoding="utf-8")
    start = text.index(FATOS) + len(FATOS)
    end = text.index("\n", start)
    tmp = file.with_suffix(".tmp")
    tmp.write_text(text[:start] + f" Revisão {revision}." + text[end:], encoding="utf-8")
    os.replace(tmp, file)


def pdf_text(data: bytes) -> str:
    return " ".join((page.extract_text() or "") for page in PdfReader(io.BytesIO(data)).pages)


_CSRF_INPUT = re.compile(r'name="csrf_token"\s+value="([^"]+)"')
_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


async def sign_in(client: httpx.AsyncClient, login: str) -> str:
    """Sign in through the sign-in page; returns the session's CSRF token (the page's meta tag)."""
    page = await client.get("/entrar")
    page.raise_for_status()
    m = _CSRF_INPUT.search(page.text)
    if not m:
        raise RuntimeError("a página de entrada não tem o campo csrf_token")
    resp = await client.post("/entrar", data={"csrf_token": m.group(1), "login": login, "senha": SENHA},
                             follow_redirects=True)
    resp.raise_for_status()
    meta = _CSRF_META.search(resp.text)
    if not meta:
        raise RuntimeError(f"sem sessão depois de entrar como {login} (página {resp.url})")
    return meta.group(1)


def _status_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


async def sign_in_burst(base_url: str, n: int, pid: int) -> tuple[int, int, float, float, int]:
    """``n`` clerks signing in at once, on their own clients: the server's RSS before (KiB), its peak during the
    burst (KiB), the burst's wall time, the slowest sign-in (s) and how many failed."""
    login = ACCOUNTS["fiscal_a"]["login"]
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak (VmHWM) starts again from the RSS of now
    before = _status_kib(pid, "VmRSS")

    async def one() -> float:
        async with httpx.AsyncClient(base_url=base_url, timeout=httpx.Timeout(120.0)) as client:
            start = time.perf_counter()
            await sign_in(client, login)
            return time.perf_counter() - start

    start = time.perf_counter()
    results = await asyncio.gather(*(one() for _ in range(n)), return_exceptions=True)
    wall = time.perf_counter() - start
    times = [r for r in results if isinstance(r, float)]
    return before, _status_kib(pid, "VmHWM"), wall, max(times, default=float("nan")), n - len(times)


def report_sign_ins(bursts: list[tuple[int, int, float, float, int]], n: int) -> bool:
    def mmm(values: list[float], fmt: str) -> str:
        return "/".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))

    errors = sum(b[4] for b in bursts)
    print(f"  entrada    : {n} escreventes entrando ao mesmo tempo, {len(bursts)} rodadas (mín/mediana/máx): pico de "
          f"RSS do processo do servidor {mmm([b[1] / 1024 for b in bursts], '{:.0f}')} MiB (antes de cada rodada "
          f"{mmm([b[0] / 1024 for b in bursts], '{:.0f}')} MiB); parede da rodada "
          f"{mmm([b[2] for b in bursts], '{:.2f}')} s, entrada mais lenta {mmm([b[3] for b in bursts], '{:.2f}')} s;"
          f" erros {errors}")
    return errors == 0


async def clerk(n: int, base_url: str, args: argparse.Namespace, run: Run, stop_at: float, folder: Path,
                arquivo: str) -> None:
    login = ACCOUNTS["fiscal_a"]["login"]
    timeout = httpx.Timeout(args.limite)
    previa = args.previa or PREVIA.format(arquivo=arquivo)
    async with httpx.AsyncClient(base_url=base_url, timeout=timeout) as client:
        csrf = ""
        while not csrf and time.monotonic() < stop_at:  # a failed sign-in is an error of the run, then retried
            try:
                csrf = await sign_in(client, login)
            except (httpx.HTTPError, RuntimeError) as exc:
                run.sign_in_errors[type(exc).__name__] += 1
                await asyncio.sleep(1.0)
        i = previews = revision = 0
        while time.monotonic() < stop_at and run.count < args.max_pedidos:
            i += 1
            if i % args.previa_a_cada == 0:
                if not args.previa and args.alterar_a_cada and previews % args.alterar_a_cada == 0:
                    revision += 1
                    change(folder / arquivo, revision)
                previews += 1
                kind, method, url, data = "previa", "GET", previa, None
            else:
                typed = TYPING[: 1 + (n + i) % len(TYPING)]
                kind, method, url, data = "validacao", "POST", args.validar, {**FIXED, **dict(typed)}
            run.count += 1
            start = time.perf_counter()
            error: str | None = None
            try:
                resp = await client.request(method, url, data=data, headers={"X-CSRF-Token": csrf})
                if resp.status_code != 200:
                    error = f"HTTP {resp.status_code}"
                elif kind == "previa" and not resp.content.startswith(b"%PDF-"):
                    error = "resposta não é PDF"
                elif kind == "validacao" and "achados" not in resp.json():
                    error = "resposta sem achados"
                elif kind == "previa":
                    run.cache[resp.headers.get("x-previa-cache", "sem cabeçalho")] += 1
            except httpx.TimeoutException:
                error = "tempo esgotado"
            except httpx.HTTPError as exc:
                error = type(exc).__name__
            elapsed = time.perf_counter() - start
            if error is None and kind == "previa" and args.conferir and revision \
                    and f"Revisão {revision}." not in " ".join(pdf_text(resp.content).split()):
                error = "prévia sem a última alteração"
            run.kinds[kind].add(elapsed, error)
            if args.pausa:
                await asyncio.sleep(args.pausa)


def wait_for_workers(server: Servidor, workers: int = 1, timeout: float = 120.0) -> None:
    """Until the server's ``workers`` uvicorn processes have started (their "Application startup complete." in the
    server's log; one since the render pool: the start waits for the render processes too)."""
    deadline = time.monotonic() + timeout
    while server.log_text().count("Application startup complete") < workers:
        if time.monotonic() > deadline:
            raise RuntimeError(f"só {server.log_text().count('Application startup complete')} de {workers} "
                               f"processos do servidor iniciaram em {timeout:.0f} s:\n{server.log_text()}")
        time.sleep(0.2)


def percentile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def main_async(args: argparse.Namespace, base_url: str, folder: Path, own: list[str]) -> tuple[Run, float]:
    run = Run()
    start = time.monotonic()
    stop_at = start + args.segundos
    tasks = [asyncio.create_task(clerk(n, base_url, args, run, stop_at, folder, own[n]))
             for n in range(args.escreventes)]

    async def sample_connections() -> None:  # once every clerk has signed in and is working
        await asyncio.sleep(min(5.0, args.segundos / 2))
        run.connections = await asyncio.to_thread(connections_by_process, int(base_url.rsplit(":", 1)[1]))

    tasks.append(asyncio.create_task(sample_connections()))
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.segundos + args.limite + 60)
    return run, time.monotonic() - start


def report(run: Run, elapsed: float, args: argparse.Namespace, load_before: tuple[float, ...],
           load_after: tuple[float, ...]) -> bool:
    print(f"{args.escreventes} escreventes, 1 processo do servidor e {args.processos_de_trabalho} de geração das "
          "prévias, "
          f"{elapsed:.1f} s, pausa {args.pausa:g} s, prévia a cada "
          f"{args.previa_a_cada} pedidos; carga média (1/5/15 min) antes {load_before[0]:.2f}/{load_before[1]:.2f}/"
          f"{load_before[2]:.2f}, depois {load_after[0]:.2f}/{load_after[1]:.2f}/{load_after[2]:.2f}; "
          f"{os.cpu_count()} núcleos")
    ok = True
    for name, label in (("validacao", "validação"), ("previa", "prévia PDF")):
        k = run.kinds[name]
        lat = sorted(k.latencies)
        errors = sum(k.errors.values())
        p95 = percentile(lat, 95)
        met = errors == 0 and bool(lat) and p95 < GOALS[name]
        ok = ok and met
        print(f"  {label:11s}: {len(lat):6d} pedidos, {len(lat) / elapsed:7.1f}/s, p50 {percentile(lat, 50):.3f} s, "
              f"p95 {p95:.3f} s, máx {max(lat) if lat else float('nan'):.3f} s, erros {errors}"
              f"{' (' + ', '.join(f'{e}: {c}' for e, c in k.errors.most_common()) + ')' if errors else ''}"
              f" — meta p95 < {GOALS[name]:g} s e 0 erros: {'atingida' if met else 'NÃO atingida'}")
    if run.sign_in_errors:
        ok = False
        print(f"  entrada    : {sum(run.sign_in_errors.values())} erros ("
              + ", ".join(f"{e}: {c}" for e, c in run.sign_in_errors.most_common()) + ")")
    if run.cpu:
        server_pid, server_cpu = run.cpu[0]
        pool = [c for _pid, c in run.cpu[1:] if c >= 0.05]
        print(f"  CPU durante a rodada: servidor (pid {server_pid}) {server_cpu:.1f} s; processos de geração das "
              f"prévias: {', '.join(f'{c:.1f} s' for c in pool) or 'nenhum'}")
    if run.connections:
        print("  conexões dos escreventes por processo do servidor (keep-alive: cada uma fica no processo que a "
              f"aceitou): {', '.join(str(c) for _pid, c in run.connections.most_common())}")
    answered = sum(run.cache.values())
    if answered:
        hits = run.cache.get("acerto", 0)
        print(f"  cache de prévias: {hits} de {answered} prévias vieram do cache ({100 * hits / answered:.0f}%); "
              + ("cada escrevente altera o próprio processo antes de "
                 + (f"uma prévia em {args.alterar_a_cada}" if args.alterar_a_cada > 1 else "cada prévia")
                 if args.alterar_a_cada and not args.previa else "sem alterar o processo entre as prévias"))
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--escreventes", type=int, default=20, help="clerks at once (default 20)")
    ap.add_argument("--segundos", type=float, default=60.0, help="duration (default 60)")
    ap.add_argument("--pausa", type=float, default=0.0, help="think time between a clerk's requests (default 0)")
    ap.add_argument("--previa-a-cada", type=int, default=5, help="one preview every N requests (default 5)")
    ap.add_argument("--max-pedidos", type=int, default=100_000, help="stop after this many requests")
    ap.add_argument("--limite", type=float, default=30.0, help="timeout of one request, seconds (default 30)")
    ap.add_argument("--processos-de-trabalho", type=int, default=default_workers(),
                    help="the server's render processes ([servidor] processos_de_trabalho; default: one "
                    f"per core, {default_workers()} here, as autos servir)")
    ap.add_argument("--alterar-a-cada", type=int, default=1,
                    help="the clerk changes its processo before one preview in K (default 1: before each; 0: never)")
    ap.add_argument("--conferir", action="store_true",
                    help="check that each preview has the clerk's last change (pypdf, on the client's CPU)")
    ap.add_argument("--rodadas-de-entrada", type=int, default=3, help="sign-in bursts before the load (default 3)")
    ap.add_argument("--so-entradas", action="store_true", help="only the sign-in bursts, no load")
    ap.add_argument("--validar", default="/processos/novo/validar", help="validation URL (POST)")
    ap.add_argument("--previa", default=None,
                    help="one preview URL (GET) for every clerk, never changed (default: each clerk's own processo)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        base = Path(tmp)
        config = make_site(base, workers=args.processos_de_trabalho)
        folder = base / "processos"
        own = [own_processo(folder, n) for n in range(args.escreventes)]
        with Servidor(config, base / "servidor.log") as server:
            wait_for_workers(server)
            assert server._proc is not None
            print(f"{time.strftime('%d/%m/%Y %H:%M UTC', time.gmtime())}; carga (uptime) "
                  f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            bursts = [asyncio.run(sign_in_burst(server.base_url, args.escreventes, server._proc.pid))
                      for _ in range(args.rodadas_de_entrada)]
            signed_in = report_sign_ins(bursts, args.escreventes) if bursts else True
            if args.so_entradas:
                return 0 if signed_in else 1
            pids = server_processes(server._proc.pid)
            cpu_before = {pid: cpu_seconds(pid) for pid in pids}
            load_before = os.getloadavg()
            run, elapsed = asyncio.run(main_async(args, server.base_url, folder, own))
            load_after = os.getloadavg()
            pids = server_processes(server._proc.pid)  # a render process replaced during the run counts from 0
            run.cpu = [(pid, cpu_seconds(pid) - cpu_before.get(pid, 0.0)) for pid in pids]
    return 0 if report(run, elapsed, args, load_before, load_after) and signed_in else 1


if __name__ == "__main__":
    sys.exit(main())
