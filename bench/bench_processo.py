"""Processo benchmark: ``autos pendencias`` over many processo files, against a bare ``yaml.safe_load``.

The processos are generated from ``samples/processos``: copy *i* of a sample has its own number and every date
moved back by ``i % 120`` days, so that the same acts stand at other stages on the reference date (≈5 acts
per processo; the mean is printed). Each measurement runs in a fresh child process pinned to one core
(``os.sched_setaffinity``), rounds interleaved (pendencias, then the baseline, then pendencias…), and reports
its own time and peak RSS (``resource.getrusage``). The figure the issue asks for is the **ratio** time of
``yaml.safe_load`` of the same files ÷ time of ``autos pendencias`` (higher is better; goal ≥ 0.5×: the whole
check at least half as fast as bare loading). The time of ``autos pendencias`` includes loading the rules and
calendars; neither side counts the interpreter start nor the imports. As an extra reference the time of
``yaml.load(..., CSafeLoader)`` (libyaml) is also given.

Run: ``.venv/bin/python bench/bench_processo.py [--processos 10000] [--rodadas 3] [--nucleo 0]``

**One processo with many acts** (``--atos 1000,2000,4000,10000``): is the check of a processo linear in its acts?
A processo of each size is generated from ``samples/processos/timoteo-mg/sim-2026-000150-recurso-pago.yaml`` (its
auto and the acts after it, then the cycle AR → defesa → julgamento → notificação da decisão → recurso →
pagamento, each citing what the rite makes it cite, dates rising from the auto's to the day before the reference
date: every act has its document checked and the timeline counts every deadline). Each measurement is ``autos
validar`` of one file (``Autos.validate``: the timeline and each act's document) in a fresh child process pinned to
one core (the library and the rules loaded before the clock starts), rounds interleaved over the sizes; CPU and wall
time, min and median, and the cost per act. The floor is reading the same file (``load_processo``: the strict YAML
loader and the model, linear by nature), measured the same way: a linear check keeps the same ratio to it and the
same cost per act at every size.

Run: ``.venv/bin/python bench/bench_processo.py --atos 1000,2000,4000,10000 [--rodadas 3] [--nucleo 0]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "processos").rglob("*.yaml"))
HOJE = date(2026, 11, 30)
_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def _shift(text: str, days: int) -> str:
    def sub(m: re.Match[str]) -> str:
        return (date(int(m[1]), int(m[2]), int(m[3])) - timedelta(days=days)).isoformat()
    return _DATE.sub(sub, text)


def _make(folder: Path, n: int) -> tuple[list[Path], float]:
    import yaml

    texts = [s.read_text(encoding="utf-8") for s in SAMPLES]
    acts = [len(yaml.safe_load(t)["atos"]) for t in texts]
    files, total = [], 0
    for i in range(n):
        k = i % len(SAMPLES)
        src = SAMPLES[k]
        text = _shift(texts[k], (i // len(SAMPLES)) % 120).replace("\nnumero: ", f"\nnumero: B{i:06d}-", 1)
        target = folder / src.parent.name / f"{i:06d}-{src.name}"
        target.parent.mkdir(exist_ok=True)
        target.write_text(text, encoding="utf-8")
        files.append(target)
        total += acts[k]
    return files, total / n


#: the acts repeated after the sample's own, each line a format of (index, date); ``{auto}`` is the auto's number
_CYCLE = (
    '  - {{tipo: notificacao_ar, numero: "AR-{i}/2026", postagem: {d}, recebimento: {d}, juntada: {d}, '
    'referente: "{auto}", local: "Timóteo/MG"}}',
    '  - {{tipo: defesa, numero: "PROT-{i}/2026", data: {d}, referente: "{auto}", agente: {{nome: Cláudia Regina Matos, '
    'cargo: Agente Administrativo — Protocolo do SIM, matricula: "20.602"}}, argumentos: [{{id: "1", texto: "Pede o '
    'cancelamento do auto."}}]}}',
    '  - {{tipo: julgamento, numero: "DEC-{i}/2026", data: {d}, referente: "{auto}", resultado: mantida, '
    'autoridade: "Coordenador do SIM", razoes: [{{argumento: "1", conclusao: rejeitado, fatos: "O fato está provado '
    'no auto.", fundamentos: "Lei nº 3.844/2022, art. 15."}}]}}',
    '  - {{tipo: notificacao_pessoal, data: {d}, referente: "DEC-{j}/2026"}}',
    '  - {{tipo: recurso, numero: "REC-{i}/2026", data: {d}, referente: "DEC-{k}/2026", agente: {{nome: Cláudia Regina '
    'Matos, cargo: Agente Administrativo — Protocolo do SIM, matricula: "20.602"}}, argumentos: [{{id: "1", texto: '
    '"Reitera a defesa."}}]}}',
    '  - {{tipo: pagamento, data: {d}, valor: "1.00"}}',
)
MANY_ACTS_SAMPLE = ROOT / "samples" / "processos" / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml"


def many_acts(n: int) -> str:
    """The text of a processo with ``n`` acts (see the module's docstring)."""
    import yaml

    text = MANY_ACTS_SAMPLE.read_text(encoding="utf-8").rstrip("\n")
    data = yaml.safe_load(text)
    own = len(data["atos"])
    auto = data["atos"][0]["numero"]
    first = max(a.get("data") or a.get("postagem") or date.min for a in data["atos"])
    span = (HOJE - timedelta(days=1) - first).days
    lines = [text]
    for i in range(n - own):
        d = (first + timedelta(days=i * span // max(n - own, 1))).isoformat()
        lines.append(_CYCLE[i % len(_CYCLE)].format(i=i, d=d, auto=auto, j=i - 1, k=i - 2))
    return "\n".join(lines) + "\n"


def _child_one(kind: str, file: Path) -> None:
    """One measurement of one processo file, in this (fresh) process: CPU and wall time, peak RSS, as JSON."""
    from autos.app.generation.pipeline import Autos
    from autos.processo.load import load_processo

    autos = Autos(ROOT / "rules", ROOT / "templates", today=HOJE)  # rules read before the clock starts
    autos.validate(MANY_ACTS_SAMPLE)  # and the code paths warmed up once, on the sample (both kinds alike)
    w0, c0 = time.perf_counter(), time.process_time()
    if kind == "validar":
        report = autos.validate(file)
        assert report.error is None, report.error
        count = len(report.findings)
    else:
        count = len(load_processo(file).processo.atos)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"cpu": cpu, "wall": wall, "rss_kib": rss, "n": count}))


def _many(sizes: list[int], rounds: int, folder: Path) -> None:
    files = {}
    for n in sizes:
        files[n] = folder / f"processo-{n}-atos.yaml"
        files[n].write_text(many_acts(n), encoding="utf-8")
    runs: dict[tuple[str, int], list[dict[str, float]]] = {(k, n): [] for n in sizes for k in ("validar", "ler")}
    for _ in range(rounds):
        for n in sizes:  # interleaved: every size, then the next round
            for kind in ("validar", "ler"):
                runs[(kind, n)].append(_run(kind, files[n]))
    print(f"um processo com muitos atos (de {MANY_ACTS_SAMPLE.name}); {rounds} rodadas intercaladas; tempos em s")
    print(f"{'atos':>6} {'kB':>5}  {'validar CPU mín/med':>20}  {'parede mín/med':>15}  {'µs/ato':>7}  "
          f"{'leitura CPU mín/med':>20}  {'validar ÷ leitura':>17}  {'pico RSS':>9}")
    for n in sizes:
        v, r = runs[("validar", n)], runs[("ler", n)]
        vc, vw, rc = [x["cpu"] for x in v], [x["wall"] for x in v], [x["cpu"] for x in r]
        kb = files[n].stat().st_size / 1024
        print(f"{n:>6} {kb:>5.0f}  {min(vc):>9.3f} / {statistics.median(vc):<8.3f}  "
              f"{min(vw):>6.3f} / {statistics.median(vw):<6.3f}  {min(vc) / n * 1e6:>7.0f}  "
              f"{min(rc):>9.3f} / {statistics.median(rc):<8.3f}  {min(vc) / min(rc):>8.1f}× (mín)  "
              f"{max(x['rss_kib'] for x in v) / 1024:>6.0f} MiB")
    small, large = sizes[0], sizes[-1]
    grow = min(x["cpu"] for x in runs[("validar", large)]) / min(x["cpu"] for x in runs[("validar", small)])
    print(f"de {small} a {large} atos ({large / small:.0f}× mais): validar {grow:.1f}× mais CPU (mín)")


def _child(kind: str, folder: Path) -> None:
    """One measurement, in this (fresh) process: prints time, peak RSS and a count as JSON."""
    if kind in ("validar", "ler"):
        _child_one(kind, folder)
        return
    if kind == "pendencias":
        from autos.app.processo.service import ProcessoService

        t0 = time.perf_counter()
        report = ProcessoService(ROOT / "rules").pending([folder], HOJE)
        elapsed = time.perf_counter() - t0
        assert not report.falhas, report.falhas[:3]
        count = len(report.timelines)
        extra = len(report.rows)
    else:
        import yaml

        loader = yaml.CSafeLoader if kind == "libyaml" else yaml.SafeLoader
        files = sorted(folder.rglob("*.yaml"))
        t0 = time.perf_counter()
        for f in files:
            yaml.load(f.read_text(encoding="utf-8"), Loader=loader)
        elapsed = time.perf_counter() - t0
        count, extra = len(files), 0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(json.dumps({"s": elapsed, "rss_kib": rss, "n": count, "extra": extra}))


def _run(kind: str, folder: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--filho", kind, str(folder)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processos", type=int, default=10_000)
    ap.add_argument("--rodadas", type=int, default=3)
    ap.add_argument("--nucleo", type=int, default=0, help="the one core to run on (children inherit it)")
    ap.add_argument("--atos", type=lambda v: [int(x) for x in v.split(",")], default=None,
                    help="tamanhos de um processo com muitos atos, p. ex. 1000,2000,4000,10000")
    ap.add_argument("--filho", nargs=2, metavar=("TIPO", "PASTA"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.filho:
        _child(args.filho[0], Path(args.filho[1]))
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.nucleo})
    print(f"carga da máquina (uptime): {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}"
          f" em {os.cpu_count()} núcleos; medido num núcleo ({args.nucleo})")
    if args.atos:
        with tempfile.TemporaryDirectory() as tmp:
            _many(args.atos, args.rodadas, Path(tmp))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _, mean_acts = _make(folder, args.processos)
        runs: dict[str, list[dict[str, float]]] = {"pendencias": [], "safe_load": [], "libyaml": []}
        for _ in range(args.rodadas):
            for kind in runs:  # interleaved: one of each per round
                runs[kind].append(_run(kind, folder))
        p = runs["pendencias"]
        assert all(r["n"] == args.processos for r in p), "nem todos os processos foram lidos"
        print(f"{args.processos} processos, {mean_acts:.1f} atos em média, {int(p[0]['extra'])} pendências; "
              f"{args.rodadas} rodadas intercaladas")
        for kind, label in (("pendencias", "autos pendencias"), ("safe_load", "yaml.safe_load"),
                            ("libyaml", "yaml.load CSafeLoader")):
            ts = [r["s"] for r in runs[kind]]
            rss = max(r["rss_kib"] for r in runs[kind]) / 1024
            print(f"{label:22s} mín {min(ts):6.2f} s  mediana {statistics.median(ts):6.2f} s  "
                  f"({args.processos / min(ts):,.0f} arquivos/s)  pico RSS {rss:,.0f} MiB")
        mine = [r["s"] for r in p]
        for kind, label in (("safe_load", "yaml.safe_load"), ("libyaml", "CSafeLoader")):
            base = [r["s"] for r in runs[kind]]
            print(f"razão tempo {label} ÷ tempo pendencias: mín {min(base) / min(mine):.2f}×, "
                  f"mediana {statistics.median(base) / statistics.median(mine):.2f}×")


if __name__ == "__main__":
    main()
