"""The computation of a case, and of every act of a processo, happens once (issue 11, item 7).

Counting wrappers replace the computing functions wherever they were imported; ``autos gerar`` (renderers
replaced by ones that return fixed bytes: only the computation is counted) and ``autos validar`` then run on
the samples. Each case (each act's document of a processo) computes its fines once, its notice and the
deadlines that follow once, is validated once; a processo's timeline is checked once.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import autos.checks.validate
import autos.compute.deadlines
import autos.compute.fines
import autos.compute.timeline
from autos.app.pipeline import Autos
from autos.base.yamlio import load_yaml
from autos.processo.load import is_processo_data

from .conftest import ROOT, SAMPLES, TODAY



def _is_processo(file: Path) -> bool:
    return is_processo_data(load_yaml(file).data)


_SAMPLES = sorted(p for p in SAMPLES.rglob("*.yaml") if "verificacao" not in p.parts)
CASES = [p for p in _SAMPLES if not _is_processo(p)]
PROCESSOS = [p for p in _SAMPLES if _is_processo(p)]


class _Counting:
    """Replace functions by counting wrappers in every loaded ``autos`` module that holds them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mp = monkeypatch
        self.counts: Counter[str] = Counter()
        self._inside: Counter[str] = Counter()

    def wrap(self, module: Any, name: str, label: str, *, unless_inside: str | None = None) -> None:
        original = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if unless_inside is None or not self._inside[unless_inside]:
                self.counts[label] += 1
            self._inside[label] += 1
            try:
                return original(*args, **kwargs)
            finally:
                self._inside[label] -= 1

        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith("autos") and getattr(mod, name, None) is original:
                self.mp.setattr(mod, name, counted)

    @contextmanager
    def counting(self) -> Iterator[Counter[str]]:
        self.counts.clear()
        yield self.counts


@pytest.fixture()
def counter(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    c = _Counting(monkeypatch)
    # costs_by_day prices one variant of the case per day of custody: those are its table, not a recount
    c.wrap(autos.compute.fines, "costs_by_day", "custas")
    c.wrap(autos.compute.fines, "_compute", "multa", unless_inside="custas")
    c.wrap(autos.compute.deadlines, "deadlines_after_notice", "prazos")
    c.wrap(autos.compute.deadlines, "notice_effective", "notificacao", unless_inside="prazos")
    c.wrap(autos.checks.validate, "validate_case", "validacao")
    c.wrap(autos.compute.timeline, "check_timeline", "linha_do_tempo")
    return c


class _FakeRenderer:
    def docx(self, template: str, context: dict[str, Any]) -> bytes:
        return b"docx"

    def pdf(self, template: str, context: dict[str, Any], **_: Any) -> bytes:
        return b"pdf"


@pytest.fixture()
def lib() -> Autos:
    a = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    a._pdf = _FakeRenderer()  # type: ignore[assignment]
    a._docx = _FakeRenderer()  # type: ignore[assignment]
    return a


def _once(counts: Counter[str], *, documents: int) -> None:
    """Each document's case: fines once, validation once, its notice and deadlines at most once (none when the
    case records no notice in effect)."""
    assert counts["multa"] == documents, counts
    assert counts["validacao"] == documents, counts
    assert counts["prazos"] + counts["notificacao"] <= documents, counts


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_gerar_computes_a_case_once(case: Path, counter: _Counting, lib: Autos, tmp_path: Path) -> None:
    lib.load(case)  # parse errors surface here, outside the count
    with counter.counting() as counts:
        list(lib.generate_each([case], tmp_path, "ambos", draft=True, processes=1))
    _once(counts, documents=1)
    assert counts["custas"] <= 1, counts


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_validar_computes_a_case_once(case: Path, counter: _Counting, lib: Autos) -> None:
    with counter.counting() as counts:
        lib.validate_many([case])
    _once(counts, documents=1)
    assert counts["custas"] <= 1, counts


def _documents(lib: Autos, processo: Path) -> int:
    from autos.checks.acts import act_document, document_acts
    from autos.processo.load import load_processo

    loaded = load_processo(processo)
    lei = loaded.processo.lei
    proc, statute = lib.processos.procedure(lei), lib.rules.get(lei)
    timeline = lib.processos.check(loaded, lib.today)
    return sum(1 for i, kind in document_acts(loaded, proc, statute)
               if act_document(loaded, i, proc, statute, kind, timeline) is not None)


@pytest.mark.parametrize("processo", PROCESSOS, ids=lambda p: p.stem)
def test_gerar_computes_each_act_once(processo: Path, counter: _Counting, lib: Autos, tmp_path: Path) -> None:
    n = _documents(lib, processo)
    assert n >= 1
    with counter.counting() as counts:
        done = lib.generate_processo(processo, tmp_path, "ambos", draft=True)
    assert len(done) == n
    _once(counts, documents=n)
    assert counts["linha_do_tempo"] == 1, counts


@pytest.mark.parametrize("processo", PROCESSOS, ids=lambda p: p.stem)
def test_validar_computes_each_act_once(processo: Path, counter: _Counting, lib: Autos) -> None:
    n = _documents(lib, processo)
    with counter.counting() as counts:
        [report] = lib.validate_many([processo])
    assert report.error is None
    _once(counts, documents=n)
    assert counts["linha_do_tempo"] == 1, counts


def test_the_wrappers_count(counter: _Counting, lib: Autos) -> None:
    """The counters see the calls (a wrapper that was not installed would make every test above pass)."""
    case = SAMPLES / "ferraz-de-vasconcelos-sp" / "notificacao-ar-ruido-bar.yaml"
    with counter.counting() as counts:
        lib.fines(lib.load(case))
        lib.deadlines(lib.load(case))
    assert counts["multa"] == 1 and counts["prazos"] == 1, counts



# --- autos multa / autos prazos: a computation error names the file, the YAML path and the line -------------

_UNPRICEABLE = """\
lei: ferraz-de-vasconcelos-sp/lei-3240-2015
documento: auto_de_infracao
autuado:
  tipo: pessoa_fisica
  nome: Fulano de Tal
lavratura:
  data: 2026-03-10
infracoes:
  - regra: terreno-sem-limpeza
penalidades:
  - tipo: multa
"""


def test_multa_error_names_file_path_and_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from autos.cli import main

    case = tmp_path / "sem-area.yaml"
    case.write_text(_UNPRICEABLE, encoding="utf-8")
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "multa", str(case)])
    assert result.exit_code == 2, result.output
    assert f"{case}, linha 9, campo 'infracoes[0].quantidade'" in result.output, result.output


def test_prazos_error_names_file_path_and_line(tmp_path: Path) -> None:
    """A deadline the engine cannot count from the case's notice (rules that count the defence in hours, a
    notice dated without an hour) names the case file and the notice's line."""
    import shutil

    from click.testing import CliRunner

    from autos.cli import main

    rules = tmp_path / "regras"
    shutil.copytree(ROOT / "rules", rules)
    prazos = rules / "timoteo-mg" / "lei-3844-2022.prazos.yaml"
    text = prazos.read_text(encoding="utf-8")
    days = "base_legal: Lei nº 3.844/2022, art. 20, § 1º, V\n    tipo: dias_corridos"
    assert days in text
    prazos.write_text(text.replace(days, days.replace("dias_corridos", "horas"), 1), encoding="utf-8")
    case = SAMPLES / "timoteo-mg" / "auto-pj-completo.yaml"
    line = next(n for n, ln in enumerate(case.read_text(encoding="utf-8").splitlines(), 1)
                if ln.startswith("notificacao:"))
    result = CliRunner().invoke(main, ["--regras", str(rules), "prazos", str(case)])
    assert result.exit_code == 2, result.output
    assert f"{case}, linha {line}, campo 'notificacao': o prazo 'defesa_art20_p1_v'" in result.output, result.output
