"""The shipped samples: every one is a processo; the README's command runs on them; the completeness demos
(samples/verificacao, samples/pendentes) show the findings their comments announce."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.processo.service import is_processo_file
from autos.cli import main
from autos.processo.load import load_processo

from .conftest import ROOT, SAMPLES

FILES = sorted(SAMPLES.rglob("*.y*ml"))
DEMOS = sorted([*(SAMPLES / "verificacao").rglob("*.yaml"), *(SAMPLES / "pendentes").rglob("*.yaml")])
CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["--hoje", "2026-11-30", *args])
    return r.exit_code, r.stdout + r.stderr


@pytest.mark.parametrize("sample", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_is_a_processo(sample: Path) -> None:
    assert is_processo_file(sample), f"{sample} não é um arquivo de processo (falta 'atos:')"
    load_processo(sample)


def test_readme_main_command_runs_on_processos() -> None:
    """The command of "Começar" names folders of processos only, and every one of them validates (so
    `autos gerar` writes every document and exits 0; measured in the report, not timed here)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if ".venv/bin/autos gerar" in x)
    args = shlex.split(line.split(".venv/bin/autos gerar", 1)[1].split("&&")[0])
    paths = [ROOT / a for a in args[: args.index("-o")]]
    assert paths and all(p.is_dir() and SAMPLES in p.parents for p in paths)
    files = [f for p in paths for f in sorted(p.rglob("*.yaml"))]
    assert files and all(is_processo_file(f) for f in files)
    code, out = run("validar", *map(str, paths))
    assert code == 0, out


def test_gerar_one_sample_processo(tmp_path: Path) -> None:
    code, out = run("gerar", str(SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000157-divida-ativa.yaml"),
                    "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    written = sorted(p.name for p in tmp_path.rglob("*.pdf"))
    assert len(written) == out.count("gerado:"), written
    for kind in ("auto-de-infracao", "decisao", "demonstrativo-debito"):  # the auto, both decisions, the debit
        assert any(name.startswith(kind) for name in written), (kind, written)


@pytest.mark.parametrize("lei", ["timoteo-mg", "ferraz-de-vasconcelos-sp", "cuiaba-mt"])
def test_each_law_has_a_processo_to_a_decision_on_appeal_and_one_to_divida_ativa(lei: str) -> None:
    kinds = [{a.tipo for a in load_processo(f).processo.atos} for f in (SAMPLES / "processos" / lei).glob("*.yaml")]
    assert any({"auto", "recurso", "decisao_recurso"} <= k for k in kinds)
    assert any({"auto", "inscricao_divida_ativa"} <= k for k in kinds)


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_demo_shows_the_findings_its_comment_announces(demo: Path) -> None:
    """A demo's first comment says COMPLETO (no error) or INCOMPLETO and names the finding codes it shows."""
    head = []
    for line in demo.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        head.append(line)
    text = " ".join(head)
    code, out = run("validar", "--json", str(demo))
    report = json.loads(out[out.index("[") :])[0]
    errors = {f["codigo"] for f in report["achados"] if f["severidade"] == "erro"}
    found = {f["codigo"] for f in report["achados"]}
    if text.startswith("# COMPLETO"):
        assert code == 0 and not errors, report["achados"]
    else:
        assert "INCOMPLETO" in text
        assert code == 1 and errors
    for announced in CODE.findall(text):
        assert announced in found, f"{demo.name}: anuncia {announced}, achados {sorted(found)}"


def test_verificacao_mixes_complete_and_incomplete() -> None:
    code, out = run("verificar", "--json", str(SAMPLES / "verificacao"))
    data = json.loads(out[out.index("{") :])
    valid = {c["valido"] for c in data["casos"]}
    assert code == 1 and valid == {True, False}
