"""``autos gerar --processos N``: many cases on every core, with the same files, report and exit code as the
one-process run; a failing case does not stop the others; the report keeps the order of the cases."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.app.generation.results import CaseOutcome
from autos.cli import main

from .conftest import CASOS, DATA, ROOT
from .procs import alive, children, until
from .textutil import docx_text, pdf_text

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
NOW = datetime(2026, 11, 29, 10, 30, 15)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Complete cases of every law, one refused (pendências, exit 1) and one unreadable (exit 2), in between."""
    folder = tmp_path_factory.mktemp("casos")
    picks = [CASOS / "timoteo-mg" / "auto-pj-completo.yaml", CASOS / "pendentes" / "timoteo-auto-incompleto.yaml",
             CASOS / "ferraz-de-vasconcelos-sp" / "auto-terreno-sem-limpeza.yaml",
             DATA / "invalid" / "cnpj-invalido.yaml", CASOS / "cuiaba-mt" / "auto-animal-solto.yaml",
             CASOS / "timoteo-mg" / "notificacao-ar-mel.yaml"]
    for i, src in enumerate(picks):
        shutil.copy(src, folder / f"{i:02d}-{src.name}")
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _relative(outcomes: list[CaseOutcome], out: Path) -> list[tuple[str, list[str], bool, str | None, int]]:
    return [(o.path.name, [str(f.relative_to(out)) for f in o.files], o.draft,
             o.error.replace(str(out), "SAIDA") if o.error else None, o.exit_code) for o in outcomes]


def test_pool_gives_the_same_outcomes_and_bytes_as_one_process(autos: Autos, cases: Path, tmp_path: Path) -> None:
    draft = True  # minutas too (the CLI test below covers the refused case)
    one, pool = tmp_path / "um", tmp_path / "dois"
    got1 = list(autos.generate_each([cases], one, "ambos", draft=draft, processes=1, now=NOW))
    got2 = list(autos.generate_each([cases], pool, "ambos", draft=draft, processes=2, now=NOW))
    assert _relative(got1, one) == _relative(got2, pool)
    # the order is the order of the cases; the failing ones did not stop the others
    assert [o.path.name for o in got2] == sorted(p.name for p in cases.iterdir())
    codes = [o.exit_code for o in got2]
    assert codes[3] == 2 and "CNPJ" in (got2[3].error or "")
    assert codes[1] == 0 and got2[1].draft
    assert sum(1 for o in got2 if o.files) == 5
    f1, f2 = _files(one), _files(pool)
    assert f1.keys() == f2.keys() and len(f1) == 10
    for name in f1:
        if name.endswith(".docx"):
            assert f1[name] == f2[name], name
        else:
            assert pdf_text(f1[name]) == pdf_text(f2[name]), name


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [*BASE, "gerar", *args])
    return result.exit_code, result.stdout, result.stderr


def _stamp_free(text: str) -> str:
    return re.sub(r"\d\d/\d\d/\d{4} \d\d:\d\d por autos", "DATA por autos", text)


def test_cli_processos_same_report_exit_code_and_documents(cases: Path, tmp_path: Path) -> None:
    one, pool = tmp_path / "um", tmp_path / "dois"
    code1, out1, err1 = _cli(str(cases), "-o", str(one), "--processos", "1")
    code2, out2, err2 = _cli(str(cases), "-o", str(pool), "--processos", "2")
    assert code1 == code2 == 2  # the unreadable case (2) outranks the refused one (1)
    assert out1.replace(str(one), "SAIDA") == out2.replace(str(pool), "SAIDA")
    assert err1.replace(str(one), "SAIDA") == err2.replace(str(pool), "SAIDA")
    assert out2.count("gerado: ") == 8 and err2.count("erro: ") == 2
    f1, f2 = _files(one), _files(pool)
    assert f1.keys() == f2.keys()
    for name in f1:
        text = docx_text if name.endswith(".docx") else pdf_text
        assert _stamp_free(text(f1[name])) == _stamp_free(text(f2[name])), name


def test_cli_report_keeps_the_order_given_english_option(cases: Path, tmp_path: Path) -> None:
    code, out, _ = _cli(str(cases / "05-notificacao-ar-mel.yaml"), str(cases / "02-auto-terreno-sem-limpeza.yaml"),
                        str(cases / "00-auto-pj-completo.yaml"), "--formato", "docx", "-o", str(tmp_path),
                        "--workers", "2")
    assert code == 0
    names = [Path(line.removeprefix("gerado: ")).name for line in out.splitlines()]
    assert [n.split("-")[0] for n in names] == ["notificacao", "auto", "auto"]
    assert "ferraz" in names[1] and "timoteo" in names[2]


def test_processos_must_be_positive(cases: Path, tmp_path: Path) -> None:
    code, _, err = _cli(str(cases), "-o", str(tmp_path), "--processos", "0")
    assert code == 2 and "--processos" in err


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc (Linux)")
def test_kill_9_of_gerar_takes_its_workers_with_it(cases: Path, tmp_path: Path) -> None:
    """``gerar --processos``: the workers die with a killed main process."""
    many = tmp_path / "muitos"
    for i in range(8):  # enough cases that the workers are still busy when the main process is killed
        shutil.copytree(cases, many / f"lote{i}")
    args = [sys.executable, "-m", "autos.cli", "--regras", str(ROOT / "rules"), "--hoje", "2026-11-29", "gerar",
            str(many), "--minuta", "--processos", "2", "-o", str(tmp_path / "saida")]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        until(lambda: len(children(proc.pid)) >= 2, "os processos de geração começarem", 120)
        workers = children(proc.pid)
        proc.kill()
        proc.wait(timeout=30)
        until(lambda: not any(alive(w) for w in workers), "os processos de geração terminarem com o principal", 30)
    finally:  # leave nothing behind, whatever failed
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w, signal.SIGKILL)
