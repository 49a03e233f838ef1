"""``autos pendencias`` output is pinned: text, JSON and CSV (and every timeline's JSON) of the sample processos
and of a generated folder are compared with files produced by the code before it was optimised.

The generated folder: a frozen copy of the samples (``tests/data/processo_pendencias/processos``) with every
date moved back by a few offsets, so that the same processos stand at other stages on the reference date.
To rewrite the expected files after a deliberate change of output: ``AUTOS_REGEN=1 pytest this_file`` and
review the diff.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.cli.processo_formats import timeline_json

from .conftest import DATA, ROOT, SAMPLES

HERE = DATA / "processo_pendencias"
FROZEN = HERE / "processos"
OFFSETS = (0, 9, 23, 41, 77)
_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def _shift(text: str, days: int) -> str:
    def sub(m: re.Match[str]) -> str:
        return (date(int(m[1]), int(m[2]), int(m[3])) - timedelta(days=days)).isoformat()
    return _DATE.sub(sub, text)


def _generate(folder: Path) -> None:
    for src in sorted(FROZEN.rglob("*.yaml")):
        for k in OFFSETS:
            text = _shift(src.read_text(encoding="utf-8"), k).replace("\nnumero: ", f"\nnumero: G{k:03d}-", 1)
            target = folder / src.parent.name / f"{k:03d}-{src.name}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")


def _outputs(folder: Path, hoje: str) -> dict[str, str]:
    runner = CliRunner()
    out: dict[str, str] = {}
    for fmt, extra in (("text", []), ("json", ["--json"]), ("csv", ["--csv"])):
        result = runner.invoke(main, ["--regras", str(ROOT / "rules"), "pendencias", str(folder), "--hoje", hoje,
                                      *extra])
        out[fmt] = f"exit {result.exit_code}\n{result.output}"
    report = ProcessoService(ROOT / "rules").pending([folder], date.fromisoformat(hoje))
    out["timelines"] = json.dumps([timeline_json(t) for t in sorted(report.timelines, key=lambda t: str(t.file))],
                                  ensure_ascii=False, indent=1, sort_keys=True)
    return {k: v.replace(str(folder), "PASTA") for k, v in out.items()}


def _compare(name: str, got: dict[str, str]) -> None:
    for fmt, text in got.items():
        expected = HERE / f"{name}.{fmt}.txt"
        if os.environ.get("AUTOS_REGEN"):
            expected.write_text(text, encoding="utf-8")
        assert text == expected.read_text(encoding="utf-8"), f"{name} {fmt} differs from {expected}"


def test_pendencias_of_the_samples_is_unchanged() -> None:
    _compare("samples", _outputs(SAMPLES / "processos", "2026-11-30"))


@pytest.mark.parametrize("hoje", ["2026-11-30", "2026-09-15"])
def test_pendencias_of_a_generated_folder_is_unchanged(tmp_path: Path, hoje: str) -> None:
    _generate(tmp_path)
    _compare(f"gerados-{hoje}", _outputs(tmp_path, hoje))


def test_every_sample_processo_validates_without_errors() -> None:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", "validar",
                                       str(SAMPLES / "processos")])
    assert result.exit_code == 0, result.output
    assert "[ERRO" not in result.output and "; 0 com erro." in result.output, result.output
