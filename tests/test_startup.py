"""Start-up: the commands that render nothing do not import WeasyPrint or docxtpl (~0.75 s of a 1.3 s start), nor
the signer, the pools of processes or the holidays package's list of every country; ``autos --help`` does not even
import the pipeline. Structural checks (which modules are loaded), not timings: bench/bench_startup.py measures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .conftest import CASOS, ROOT, SAMPLES

CASE = str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml")
PROCESSO = str(SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0412-recurso-pago.yaml")
BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
HEAVY = ("weasyprint", "docxtpl")
#: what no command that renders nothing loads: the renderers, pyHanko (~1 s with aiohttp), the process pools
#: (multiprocessing, concurrent.futures.process), the module of each of ~250 countries that holidays.country_holidays
#: imports (rules.calendar loads Brazil's alone), the web stack
NEVER = (*HEAVY, "pyhanko", "multiprocessing", "concurrent.futures.process", "holidays.countries", "starlette",
         "uvicorn", "argon2", "openpyxl", "psycopg", "dask")
#: what ``autos --help`` does not load either: the pipeline, with the rules' and cases' models (pydantic.main is
#: loaded by the first model), the calendars' holidays package, YAML
PIPELINE = ("autos.app.generation.pipeline", "autos.rules.statute", "autos.processo.case", "pydantic.main", "holidays",
            "yaml")

# Runs each command in one fresh interpreter, in order, and records which heavy modules are loaded after it.
_PROBE = """
import json, sys
from autos.cli import main
heavy, base, commands = json.loads(sys.argv[1])
seen = {}
for cmd in commands:
    try:
        main([*base, *cmd], standalone_mode=True)
    except SystemExit:
        pass
    seen[" ".join(cmd)] = sorted(m for m in heavy if m in sys.modules)
print("\\n" + json.dumps(seen))
"""


def _loaded_after(commands: list[list[str]], tmp_path: Path, watched: tuple[str, ...] = HEAVY,
                  cache: str | None = None) -> dict[str, list[str]]:
    env = dict(os.environ) if cache is None else dict(os.environ, AUTOS_CACHE=cache)
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps([watched, BASE, commands])],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120, check=True, env=env)
    result: dict[str, list[str]] = json.loads(proc.stdout.rstrip().rsplit("\n", 1)[-1])
    return result


def test_commands_that_render_nothing_do_not_import_the_renderers(tmp_path: Path) -> None:
    light = [["--help"], ["validar", CASE], ["validar", "--json", CASE], ["verificar", str(CASOS / "timoteo-mg")],
             ["verificar", "--json", str(CASOS / "timoteo-mg")], ["multa", CASE], ["multa", "--json", CASE],
             ["prazos", CASE], ["prazos", "--json", CASE], ["regras"],
             ["regras", "mostrar", "timoteo-mg/lei-3844-2022"], ["gerar", "--help"],
             ["verificar", str(CASOS / "timoteo-mg"), "--html", str(tmp_path / "relatorio.html")],
             ["prazos", PROCESSO], ["validar", PROCESSO], ["multa", PROCESSO],
             ["pendencias", str(SAMPLES / "processos"), "--html", str(tmp_path / "pendencias.html")]]
    # the last command renders: the probe sees the renderers once they are really needed
    seen = _loaded_after([*light, ["gerar", CASE, "-o", str(tmp_path / "saida")]], tmp_path)
    for cmd in light:
        assert seen[" ".join(cmd)] == [], cmd
    assert seen[f"gerar {CASE} -o {tmp_path / 'saida'}"] == sorted(HEAVY)


def test_help_loads_no_pipeline_and_the_checks_no_renderer_signer_pool_or_country_list(tmp_path: Path) -> None:
    """In one fresh interpreter, in order: ``--help`` loads none of :data:`PIPELINE` nor :data:`NEVER`; then
    ``validar``, ``prazos``, ``multa`` and ``pendencias`` (of a processo, of a case, of the sample folder) load the
    pipeline but none of :data:`NEVER` (the modules only accumulate: the last command shows what they all did). The
    rules are read from their files (no cache of validated rules), as in a first run."""
    checks = [["validar", PROCESSO], ["validar", CASE], ["prazos", PROCESSO], ["multa", PROCESSO],
              ["pendencias", str(SAMPLES / "processos")]]
    seen = _loaded_after([["--help"], *checks], tmp_path, (*PIPELINE, *NEVER), cache="0")
    assert seen["--help"] == []
    assert seen[" ".join(checks[0])] == sorted(PIPELINE)  # the probe sees what is loaded
    assert not set(seen[" ".join(checks[-1])]) & set(NEVER), seen


def test_what_signs_nothing_does_not_import_pyhanko() -> None:
    """pyHanko (≈ 1 s of imports) is imported by the functions that sign (autos.app.signing), not by the batch
    modules that import ``SignerSpec``: a publication, a pool or Dask worker and a command that signs nothing start
    without it."""
    probe = ("import sys, autos.cli, autos.app.editais.publish, autos.app.editais.jobs, autos.app.signing, "
             "autos.app.batch.cluster; "
             "from autos.app.editais.jobs import init_worker; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyhanko', 'pyhanko_certvalidator')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout


#: what ``validar`` of a processo without a register does not load once an earlier run kept the validated rules
#: (rules/snapshot.py): the holidays package (the calendars come built), the register with its lock and SQLite, the
#: documents' stage, babel's dates; ``prazos`` and ``multa`` load SQLite (their memo), not the others nor babel (the
#: months of a date in words are a table); ``verificar`` without ``--html`` does not load Jinja
WARM_NEVER = ("holidays", "filelock", "autos.store.register", "autos.app.register.service", "autos.documents.context")


def test_with_the_rules_kept_a_check_loads_no_calendar_package_register_or_documents_stage(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    validar = [["validar", PROCESSO], ["validar", "--json", PROCESSO]]
    first = _loaded_after(validar[:1], tmp_path, WARM_NEVER, cache=cache)
    assert "holidays" in first[" ".join(validar[0])]  # the first run builds the calendar: the probe sees it
    seen = _loaded_after(validar, tmp_path, (*WARM_NEVER, "sqlite3", "babel"), cache=cache)
    assert seen[" ".join(validar[-1])] == [], seen
    others = [["prazos", PROCESSO], ["multa", PROCESSO]]
    seen = _loaded_after(others, tmp_path, (*WARM_NEVER, "babel"), cache=cache)
    assert seen[" ".join(others[-1])] == [], seen
    verificar = [["verificar", str(CASOS / "timoteo-mg")], ["verificar", "--json", str(CASOS / "timoteo-mg")]]
    seen = _loaded_after(verificar, tmp_path, ("jinja2", "babel"), cache=cache)
    assert seen[" ".join(verificar[-1])] == [], seen
