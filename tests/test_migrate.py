"""`autos migrar`: old single-document files → processo files, data-driven from tests/data/migrar.

Each case folder has ``entrada/`` (old files) and ``esperado.yaml`` (exit code, processos with their acts in
order, what `autos validar` says of each, and what was not mapped: file, line, words). ``invalidos/`` pairs
refused inputs with the words their message must contain.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main
from autos.processo.load import load_processo

from .conftest import CASOS, DATA

CASES = DATA / "migrar"
VALID = sorted(p for p in CASES.iterdir() if (p / "esperado.yaml").is_file())
INVALID = sorted(p for p in (CASES / "invalidos").iterdir() if p.is_dir())


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["--hoje", "2026-11-30", *args])
    return r.exit_code, r.stdout, r.stderr


def _expected(folder: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load((folder / name).read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    return data


def _dig(value: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        value = value[int(part)] if isinstance(value, list) else value.get(part) if isinstance(value, dict) else None
    return value


def _written(out: Path) -> list[Path]:
    return sorted(out.rglob("*.yaml")) if out.exists() else []


@pytest.mark.parametrize("case", VALID, ids=lambda p: p.name)
def test_migration(case: Path, tmp_path: Path) -> None:
    exp = _expected(case, "esperado.yaml")
    out = tmp_path / "saida"
    before = {p: p.read_bytes() for p in (case / "entrada").iterdir()}
    code, stdout, stderr = run("migrar", str(case / "entrada"), "-o", str(out), "--json")
    assert code == int(exp["codigo_saida"]), stdout + stderr
    report = json.loads(stdout)
    assert {p: p.read_bytes() for p in (case / "entrada").iterdir()} == before  # the old files are untouched
    assert [Path(p).relative_to(out).as_posix() for p in _written(out)] == sorted(
        p["arquivo"] for p in exp["processos"])
    for want in exp["processos"]:
        file = out / want["arquivo"]
        raw = yaml.load(file.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
        assert raw["numero"] == want["numero"]
        load_processo(file)  # reads back as a processo
        assert len(raw["atos"]) == len(want["atos"]), [a["tipo"] for a in raw["atos"]]
        for got, act in zip(raw["atos"], want["atos"], strict=True):
            for key, value in act.items():
                assert _dig(got, key) == value, f"{want['arquivo']}: {act['tipo']}.{key}"
        if "validar" in want:
            v_code, v_out, _ = run("validar", str(file))
            assert v_code == int(want["validar"]), v_out
    notes = report["nao_mapeado"]
    assert len(notes) == len(exp["nao_mapeado"]), json.dumps(notes, ensure_ascii=False, indent=1)
    for want in exp["nao_mapeado"]:
        hits = [n for n in notes if Path(n["arquivo"]).name == want["arquivo"] and n["linha"] == int(want["linha"])]
        assert hits, f"nada não mapeado em {want['arquivo']}:{want['linha']}: {notes}"
        assert any(all(w in f"{n['caminho']}: {n['motivo']}" for w in want["contem"]) for n in hits), hits


@pytest.mark.parametrize("case", INVALID, ids=lambda p: p.name)
def test_refused_migration(case: Path, tmp_path: Path) -> None:
    exp = _expected(case, "erro.yaml")
    out = tmp_path / "saida"
    code, stdout, stderr = run("migrar", str(case / "entrada"), "-o", str(out))
    assert code == int(exp["codigo_saida"]), stdout + stderr
    for word in exp["contem"]:
        assert word in stdout + stderr
    assert len(_written(out)) == int(exp["gravados"])


def test_never_overwrites(tmp_path: Path) -> None:
    case = CASES / "timoteo-recusa" / "entrada"
    out = tmp_path / "saida"
    target = out / "timoteo-mg" / "sim-2026-000157.yaml"
    target.parent.mkdir(parents=True)
    target.write_text("# do escrivão\n", encoding="utf-8")
    code, stdout, _ = run("migrar", str(case), "-o", str(out))
    assert code == 1
    assert "já existe" in stdout and "não é sobrescrito" in stdout
    assert target.read_text(encoding="utf-8") == "# do escrivão\n"
    assert [p.name for p in target.parent.iterdir()] == ["sim-2026-000157.yaml"]  # no temporary file left


def test_processo_files_are_skipped_not_migrated(tmp_path: Path) -> None:
    folder = tmp_path / "mix"
    folder.mkdir()
    shutil.copy(CASES / "timoteo-recusa" / "entrada" / "auto-pf-recusa-testemunha.yaml", folder)
    shutil.copy(Path(__file__).resolve().parent.parent / "samples" / "processos" / "cuiaba-mt" /
                "ccz-2026-0077-recurso.yaml", folder)
    code, stdout, _ = run("migrar", str(folder), "-o", str(tmp_path / "saida"))
    assert code == 0, stdout
    assert "ignorado (já é um arquivo de processo)" in stdout and "ccz-2026-0077-recurso.yaml" in stdout
    assert len(_written(tmp_path / "saida")) == 1


def test_the_old_samples_migrate_to_processos_that_read_back(tmp_path: Path) -> None:
    """Every old per-document file kept under tests/data/casos is grouped into processos that load."""
    out = tmp_path / "saida"
    code, stdout, _ = run("migrar", str(CASOS), "-o", str(out), "--json")
    report = json.loads(stdout)
    assert code == 1 and not report["erros"]
    for f in _written(out):
        load_processo(f)
        v_code, v_out, _ = run("validar", str(f))
        assert v_code in (0, 1), v_out  # findings, never unusable input
    sources = {Path(s).name for p in report["processos"] for s in p["de"]}
    refused = {Path(r["arquivo"]).name for r in report["recusados"]}
    assert sources | refused == {p.name for p in CASOS.rglob("*.yaml")}  # every old file accounted for


# --- the notice on old files -------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["validar"], ["prazos"], ["multa"], ["verificar"]])
def test_old_file_gets_a_portuguese_notice(command: list[str]) -> None:
    old = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
    code, stdout, stderr = run(*command, str(old))
    assert code in (0, 1), stdout + stderr
    assert "arquivo antigo, de um só documento" in stderr
    assert f"autos migrar {old}" in stderr
    assert "arquivo antigo" not in stdout  # reports and JSON stay clean


def test_processo_gets_no_notice() -> None:
    sample = Path(__file__).resolve().parent.parent / "samples" / "processos" / "timoteo-mg"
    _code, _out, stderr = run("validar", str(sample))
    assert "arquivo antigo" not in stderr


def test_many_old_files_are_counted_not_listed() -> None:
    _code, _out, stderr = run("validar", str(CASOS))
    assert stderr.count("arquivo antigo, de um só documento") == 5
    n = len(list(CASOS.rglob("*.yaml")))
    assert f"e mais {n - 5} arquivos antigos" in stderr


def test_a_path_that_does_not_exist_is_reported_with_its_name(tmp_path: Path) -> None:
    out = tmp_path / "saida"
    code, stdout, stderr = run("migrar", str(tmp_path / "nao-existe"), "-o", str(out))
    assert code == 2
    assert not out.exists()
    assert "nao-existe" in stdout + stderr and "arquivo ou pasta não encontrado." in stdout + stderr
