"""The computation of a case, and of every act of a processo, happens once.

Counting wrappers replace the computing functions wherever they were imported; ``autos gerar`` (renderers
replaced by ones that return fixed bytes: only the computation is counted) and ``autos validar`` then run on
the samples (and on the processos whose acts have the documents added with the register: certidão de
publicação do edital, notificação da decisão, protocolo, demonstrativo after a decision). Each case (each act's
document of a processo) computes its fines once, its notice and the deadlines that follow once, is validated
once; a processo's timeline is checked once; the rules files (deadline rules, procedures, calendars) are read
by the app layer, never while a document is built.
"""

from __future__ import annotations

import sys
import traceback
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
import autos.rules.calendar
import autos.rules.deadlines
import autos.rules.procedure
from autos.app.generation.pipeline import Autos
from autos.base.yamlio import load_yaml
from autos.processo.load import is_processo_data

from .conftest import CASOS, ROOT, SAMPLES, TODAY


def _is_processo(file: Path) -> bool:
    return is_processo_data(load_yaml(file).data)


_SAMPLES = sorted(p for p in SAMPLES.rglob("*.yaml") if "verificacao" not in p.parts)
#: the samples are processos; the old single-document case files (still generated) are kept as test data
_CASE_FILES = sorted(p for p in CASOS.rglob("*.yaml") if "verificacao" not in p.parts)
CASES = [p for p in _SAMPLES + _CASE_FILES if not _is_processo(p)]
#: act documents whose deadlines run by the rite (certidão do edital, notificação da decisão, protocolo…)
ACT_DOCUMENTS = sorted((ROOT / "tests" / "data" / "processo" / "documentos").glob("*.yaml"))
PROCESSOS = [p for p in _SAMPLES if _is_processo(p)] + ACT_DOCUMENTS


class _Counting:
    """Replace functions by counting wrappers in every loaded ``autos`` module that holds them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mp = monkeypatch
        self.counts: Counter[str] = Counter()
        self._inside: Counter[str] = Counter()

    def wrap(self, module: Any, name: str, label: str, *, unless_inside: tuple[str, ...] = ()) -> None:
        original = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if not any(self._inside[outer] for outer in unless_inside):
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
    c.wrap(autos.compute.fines, "_compute", "multa", unless_inside=("custas",))
    c.wrap(autos.compute.deadlines, "deadlines_after_notice", "prazos")
    c.wrap(autos.compute.timeline, "check_timeline", "linha_do_tempo")
    # the timeline's notices are part of the timeline (counted once per processo as such)
    c.wrap(autos.compute.deadlines, "notice_effective", "notificacao", unless_inside=("prazos", "linha_do_tempo"))
    c.wrap(autos.checks.validate, "validate_case", "validacao")
    c.wrap(autos.rules.procedure, "load_procedure", "regras_processo")
    c.wrap(autos.rules.deadlines, "load_law_deadlines", "regras_prazos", unless_inside=("regras_processo",))
    c.wrap(autos.rules.calendar, "load_calendar", "calendario")
    return c


_LOADERS = ("regras_processo", "regras_prazos", "calendario")


def _loaded_by_documents(stack: list[str]) -> bool:
    """A load is the documents' own when a frame of ``autos.documents`` calls into the rules loaders with no frame
    of ``autos.app`` in between (the app's loaders, which the computation holds and which read each file once per
    run, may be asked from a document; a rules file read by the documents themselves may not)."""
    for filename in reversed(stack):
        if "/autos/app/" in filename:
            return False
        if "/autos/documents/" in filename:
            return True
    return False


def _no_load_while_building_documents(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the rules files read by ``autos.documents`` itself (should be none: they read the computation)."""
    seen: Counter[str] = Counter()
    for module, name in ((autos.rules.procedure, "load_procedure"), (autos.rules.deadlines, "load_law_deadlines"),
                         (autos.rules.deadlines, "law_deadlines"), (autos.rules.calendar, "load_calendar")):
        original = getattr(module, name)

        def watched(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            if _loaded_by_documents([f.filename.replace("\\", "/") for f in traceback.extract_stack()]):
                seen[_name] += 1
            return _original(*args, **kwargs)

        for mod in list(sys.modules.values()):
            if getattr(mod, "__name__", "").startswith("autos") and getattr(mod, name, None) is original:
                monkeypatch.setattr(mod, name, watched)
    return seen


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
def test_gerar_computes_each_act_once(processo: Path, counter: _Counting, tmp_path: Path) -> None:
    lib = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)  # nothing read yet: the loads are counted
    lib._pdf = _FakeRenderer()  # type: ignore[assignment]
    lib._docx = _FakeRenderer()  # type: ignore[assignment]
    with counter.counting() as counting:
        done = lib.generate_processo(processo, tmp_path, "ambos", draft=True)
        counts = Counter(counting)
    n = _documents(lib, processo)
    assert n >= 1
    assert len(done) == n
    _once(counts, documents=n)
    assert counts["linha_do_tempo"] == 1, counts
    # every rules file read once for the whole processo, however many documents (the deadline service and the
    # timeline each keep the municipality's calendar)
    assert counts["regras_processo"] <= 1 and counts["regras_prazos"] <= 1 and counts["calendario"] <= 2, counts


def test_act_documents_cover_the_rite_deadlines() -> None:
    """The processos above do have documents whose acts start deadlines of the rite (else the counts above would
    not cover them)."""
    from autos.checks.acts import act_document, document_acts
    from autos.processo.load import load_processo

    lib = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    kinds: set[str] = set()
    for processo in ACT_DOCUMENTS:
        loaded = load_processo(processo)
        lei = loaded.processo.lei
        proc, statute = lib.processos.procedure(lei), lib.rules.get(lei)
        timeline = lib.processos.check(loaded, lib.today)
        for i, kind in document_acts(loaded, proc, statute):
            doc = act_document(loaded, i, proc, statute, kind, timeline)
            if doc is not None and doc.loaded.case.ato is not None and doc.loaded.case.ato.prazos:
                kinds.add(doc.kind)
    assert {"certidao_publicacao_edital", "notificacao_decisao", "protocolo", "demonstrativo_debito"} <= kinds


@pytest.mark.parametrize("processo", ACT_DOCUMENTS, ids=lambda p: p.stem)
def test_documents_read_no_rules_file(processo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Building an act's document reads what was computed: no deadline rules, procedure or calendar is loaded
    by ``autos.documents`` (the app layer loads them, once: the computation holds its loaders)."""
    lib = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    lib._pdf = _FakeRenderer()  # type: ignore[assignment]
    lib._docx = _FakeRenderer()  # type: ignore[assignment]
    seen = _no_load_while_building_documents(monkeypatch)
    done = lib.generate_processo(processo, tmp_path, "ambos", draft=True)
    assert done
    assert not seen, seen


def test_the_load_watch_sees_a_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch of the test above does count a load made from ``autos.documents`` (it cannot pass vacuously)."""
    import autos.documents.context as context

    seen = _no_load_while_building_documents(monkeypatch)
    # code compiled as if it were in documents/context.py, calling the loader as that module would
    probe = compile("load_calendar(rules, 'timoteo-mg')", context.__file__, "exec")
    exec(probe, {"load_calendar": autos.rules.calendar.load_calendar, "rules": ROOT / "rules"})
    assert seen["load_calendar"] == 1, seen


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
    case = CASOS / "ferraz-de-vasconcelos-sp" / "notificacao-ar-ruido-bar.yaml"
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
    case = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
    line = next(n for n, ln in enumerate(case.read_text(encoding="utf-8").splitlines(), 1)
                if ln.startswith("notificacao:"))
    result = CliRunner().invoke(main, ["--regras", str(rules), "prazos", str(case)])
    assert result.exit_code == 2, result.output
    assert f"{case}, linha {line}, campo 'notificacao': o prazo 'defesa_art20_p1_v'" in result.output, result.output
