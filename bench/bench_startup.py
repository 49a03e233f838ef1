"""Start-up benchmark: the CPU of each command that renders nothing, each run a new process, against a new
``python -c "import yaml, pydantic"`` (the least a program that reads YAML into pydantic models pays to start).

Every round runs every contender once, in a fresh process, in turn (the baseline too), so that a burst of load on
a shared machine hits them alike; the order of the contenders rotates from round to round. Measured per run: CPU
(user + system of the child, from ``resource.getrusage(RUSAGE_CHILDREN)`` deltas) and wall time; reported: min and
median over the rounds, the median ratio against the baseline, and the goal (< 0.3 s of CPU).

The commands run as a user types them: the ``autos`` console script beside this interpreter, with the bundled
rules and templates, ``--hoje`` fixed, on copies of the samples in a temporary folder (a processo of Timóteo, a
per-document case, the folder of sample processos), where no register (``registro.sqlite3``, which ``autos
servir`` leaves beside the samples) is found. Their output goes to ``/dev/null``; each command's exit code must be
the same in every round. A second reference, ``import yaml, pydantic; pydantic.BaseModel``, is what touching
pydantic's model machinery costs (``import pydantic`` alone loads it lazily).
The children run with bytecode cached, as an installed package has it (``pip install`` compiles it): in a private
``PYTHONPYCACHEPREFIX`` filled by a warm-up run, and without ``PYTHONDONTWRITEBYTECODE`` (set on some machines:
with it, an editable install compiles every module of ``autos`` at every start, ~0.2 s). ``--sem-cache-de-bytecode``
measures that case instead: the children inherit the environment as it is.

The validated rules that runs keep between them (``autos.rules.snapshot``) go to a private ``AUTOS_CACHE`` in the
temporary folder, filled by the warm-up run: the rounds measure every run after the first, as a user has them.
``--sem-cache-de-regras`` measures first runs instead (``AUTOS_CACHE=0``: every run reads and validates the rules).

``--antes SRC`` runs every command a second time in each round with ``PYTHONPATH=SRC`` (the ``src`` folder of
another checkout, e.g. ``git archive main src | tar -x -C /tmp/antes``), interleaved with this one: before and
after in the same rounds. Those runs call the command line's entry point through ``python -c`` (the console script
beside this interpreter names this checkout's entry point, which another checkout may not have).

The goal (< 0.3 s of CPU) was set on a machine where the baseline took 0.071 s (README, "Números medidos"); a
slower or faster machine scales both: the last column also compares each command with 0.3 s × (the baseline's
median here / 0.071 s).

Run: ``.venv/bin/python bench/bench_startup.py [--rodadas 7] [--nucleo 0] [--antes /tmp/antes/src]``
``--importtime COMANDO`` prints the 25 heaviest imports of one command (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.3  # seconds of CPU
#: the baseline's CPU on the machine where the goal was set (README, "Números medidos", 01/12/2026)
GOAL_BASELINE = 0.071
#: ``--antes``: how the other checkout's command line is called (its ``run``, or ``main`` before there was one)
_ENTRY = "import sys; from autos import cli; sys.exit((getattr(cli, 'run', None) or cli.main)())"
#: where the copies of the samples are (set by main)
WORK = Path()

COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "validar (processo)": ["validar", "{processos}/timoteo-mg/sim-2026-000142-pj-completo.yaml"],
    "validar (caso)": ["validar", "{casos}/auto-pj-completo.yaml"],
    "prazos (processo)": ["prazos", "{processos}/timoteo-mg/sim-2026-000142-pj-completo.yaml"],
    "pendencias (18 processos)": ["pendencias", "{processos}"],
    "multa (processo)": ["multa", "{processos}/timoteo-mg/sim-2026-000142-pj-completo.yaml"],
    "verificar (6 casos)": ["verificar", "{casos}"],
    "regras": ["regras"],
}
BASELINE = 'python -c "import yaml, pydantic"'
MODELS = 'python -c "import yaml, pydantic; pydantic.BaseModel"'
REFERENCES = {BASELINE: "import yaml, pydantic", MODELS: "import yaml, pydantic; pydantic.BaseModel"}


def _autos_command() -> list[str]:
    script = Path(sys.executable).parent / "autos"
    return [str(script)] if script.exists() else [sys.executable, "-m", "autos.cli"]


def _argv(name: str) -> list[str]:
    if name in REFERENCES:
        return [sys.executable, "-c", REFERENCES[name]]
    where = {"processos": WORK / "processos", "casos": WORK / "casos"}
    before = name.endswith(BEFORE)
    entry = [sys.executable, "-c", _ENTRY] if before else _autos_command()
    return [*entry, "--hoje", "2026-11-30", *(a.format(**where) for a in COMMANDS[name.removesuffix(BEFORE)])]


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


BEFORE = " [antes]"
#: ``--antes``: the src folder the commands marked BEFORE run from
OTHER_SRC: list[str] = []


def _run(name: str) -> tuple[float, float, int]:
    """CPU (user + sys of the child) and wall seconds of one new process, and its exit code."""
    env = dict(_ENV, PYTHONPATH=OTHER_SRC[0]) if name.endswith(BEFORE) else _ENV
    argv = _argv(name)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env).returncode
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, code


def _importtime(name: str) -> None:
    argv = _argv(name)
    if argv[0] != sys.executable:
        argv = [sys.executable, "-m", "autos.cli", *argv[1:]]
    subprocess.run(argv, capture_output=True, cwd=ROOT, env=_ENV)  # bytecode cached, as installed
    err = subprocess.run([sys.executable, "-X", "importtime", *argv[1:]], capture_output=True, text=True,
                         cwd=ROOT, env=_ENV).stderr
    rows = []
    for line in err.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            rows.append((int(m[2]), int(m[1]), len(m[3]) // 2, m[4]))
    print(f"{name}: as 25 importações mais pesadas (acumulado, µs de parede; -X importtime)")
    for cumulative, own, depth, module in sorted(rows, reverse=True)[:25]:
        print(f"  {cumulative:>9,} {own:>9,}  {'  ' * depth}{module}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rodadas", type=int, default=7, help="rodadas intercaladas (≥ 3 para mín e mediana)")
    ap.add_argument("--nucleo", type=int, default=None, help="roda tudo neste núcleo (padrão: os disponíveis)")
    ap.add_argument("--comandos", default=None, help="só estes comandos (nomes da tabela, separados por vírgula)")
    ap.add_argument("--sem-cache-de-bytecode", action="store_true",
                    help="os filhos com o ambiente como está (com PYTHONDONTWRITEBYTECODE, se houver)")
    ap.add_argument("--sem-cache-de-regras", action="store_true",
                    help="AUTOS_CACHE=0: cada execução lê e valida as regras (a primeira execução de um usuário)")
    ap.add_argument("--antes", default=None, metavar="SRC", help="também cada comando com PYTHONPATH=SRC")
    ap.add_argument("--importtime", default=None, metavar="COMANDO", help="só as importações de um comando")
    args = ap.parse_args()
    global WORK
    with tempfile.TemporaryDirectory(prefix="autos-bench-startup-") as tmp:
        WORK = Path(tmp)
        shutil.copytree(ROOT / "samples" / "processos", WORK / "processos",
                        ignore=shutil.ignore_patterns("registro.sqlite3*", "documentos-emitidos"))
        shutil.copytree(ROOT / "tests" / "data" / "casos" / "timoteo-mg", WORK / "casos")
        cache = str(WORK / "pycache")
        if args.sem_cache_de_bytecode:
            _ENV.clear()
            _ENV.update(os.environ)
        else:
            _ENV["PYTHONPYCACHEPREFIX"] = cache
        _ENV["AUTOS_CACHE"] = "0" if args.sem_cache_de_regras else str(WORK / "cache-de-regras")
        if args.importtime:
            _importtime(args.importtime)
        else:
            _bench(args)


def _bench(args: argparse.Namespace) -> None:
    if args.nucleo is not None:
        os.sched_setaffinity(0, {args.nucleo})
    commands = args.comandos.split(",") if args.comandos else list(COMMANDS)
    if args.antes:
        OTHER_SRC.append(str(Path(args.antes).resolve()))
        commands = [n for c in commands for n in (c, c + BEFORE)]
    names = [BASELINE, MODELS, *commands]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{time.strftime('%d/%m/%Y %H:%M UTC', time.gmtime())}; Python {sys.version.split()[0]}; carga (uptime) "
          f"{load}; núcleos {sorted(os.sched_getaffinity(0))}; {args.rodadas} rodadas intercaladas; bytecode "
          f"{'como o ambiente manda' if args.sem_cache_de_bytecode else 'em cache'}; regras "
          f"{'lidas dos arquivos a cada execução' if args.sem_cache_de_regras else 'do cache (depois da 1ª execução)'}",
          flush=True)
    cpu: dict[str, list[float]] = {n: [] for n in names}
    wall: dict[str, list[float]] = {n: [] for n in names}
    codes: dict[str, int] = {n: _run(n)[2] for n in names}  # warm-up: the files in the page cache
    for r in range(max(1, args.rodadas)):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            c, w, code = _run(name)
            if code != codes[name]:
                raise SystemExit(f"{name}: saída {code}, antes {codes[name]}")
            cpu[name].append(c)
            wall[name].append(w)
    base = statistics.median(cpu[BASELINE])
    scaled = GOAL * base / GOAL_BASELINE
    print(f"carga ao fim: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; CPU = user + sys do processo filho; "
          f"meta escalada a esta máquina: {GOAL} s × {base:.3f}/{GOAL_BASELINE} = {scaled:.3f} s")
    width = max(map(len, names))
    print(f"  {'comando':<{width}}  CPU mín/mediana   parede mín/mediana  ÷ baseline  meta < {GOAL} s · escalada")
    for name in names:
        med = statistics.median(cpu[name])
        goal = "" if name in REFERENCES or name.endswith(BEFORE) else (
            f"{'atingida' if med < GOAL else 'NÃO atingida'} · {'atingida' if med < scaled else 'NÃO atingida'}")
        print(f"  {name:<{width}}  {min(cpu[name]):.3f}/{med:.3f} s   {min(wall[name]):.3f}/"
              f"{statistics.median(wall[name]):.3f} s      {med / base:5.2f}×  {goal}")


if __name__ == "__main__":
    main()
