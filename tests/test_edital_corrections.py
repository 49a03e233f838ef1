"""Corrections of a published edital: retificação, republicação, cancelamento.

The scenarios (``tests/data/edital_corrections/cenarios.yaml``) start from the fixture processos of
``tests/data/publish/processos`` published on 06/10/2026 (newspaper 07/10/2026) and carry dates worked out by hand
with the articles; the refusals are paired with words their message must contain. The ledger's format 2 is reached
by one migration step, checked on a format-1 ledger the test creates with the old DDL.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader

from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options, place_option
from autos.cli import main
from autos.store.ledger import Ledger, case_key
from autos.store.ledger_schema import SCHEMA_VERSION

from .conftest import DATA, ROOT, TODAY
from .textutil import spreadsheet_rows

SCENARIOS = yaml.safe_load((DATA / "edital_corrections" / "cenarios.yaml").read_text(encoding="utf-8"))
PROCESSOS = DATA / "publish" / "processos"
PUBLISHED = ["ferraz/fv-301-domicilio-desconhecido.yaml", "ferraz/fv-302-ar-mudou-se.yaml",
             "timoteo/sim-31-pj-local-incerto.yaml", "timoteo/sim-32-ar-desconhecido.yaml"]
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
TIMOTEO = "timoteo-mg/lei-3844-2022"
LIVRO = "editais/livro-editais.sqlite3"
GLOBAL = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", TODAY.isoformat()]


def _publish(day: date, jornal: date, **kw: Any) -> Any:
    """``autos publicar-editais`` over ./processos into ./editais (relative paths: the tree can be copied)."""
    return Publisher(Options(
        casos=Path("processos"), data=day, data_jornal=jornal, saida=Path("editais"), workers=1,
        rules_dir=ROOT / "rules", templates_dir=ROOT / "templates", today=TODAY,
        veiculos=place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                               "Quadro de Editais do Paço Municipal"]),
        jornais=place_option(["Jornal Diário do Aço"]), **kw)).run()


@pytest.fixture(scope="module")
def published_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("publicado")
    for name in PUBLISHED:
        (root / "processos" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROCESSOS / name, root / "processos" / name)
    here = Path.cwd()
    os.chdir(root)
    try:
        result = _publish(date(2026, 10, 6), date(2026, 10, 7))
    finally:
        os.chdir(here)
    assert result.erro is None and len(result.publicados) == 2, result
    return root


@pytest.fixture
def work(published_tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the published tree (processos with their edital act, editais, ledger), as the current folder."""
    folder = tmp_path / "w"
    shutil.copytree(published_tree, folder)
    monkeypatch.chdir(folder)
    return folder


def run(*args: str) -> Any:
    return CliRunner().invoke(main, [*GLOBAL, *args])


def prazos(arquivo: str) -> str:
    out = run("prazos", f"processos/{arquivo}")
    assert out.exit_code in (0, 1), out.output
    return out.output


def pdf_text(path: Path) -> str:
    return " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages)


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.endswith(".lock")}


def _edit(folder: Path, edits: list[list[str]]) -> None:
    for name, old, new in edits:
        path = folder / "processos" / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --------------------------------------------------------------------------------------------------
# the scenarios


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(name: str, work: Path) -> None:
    sc = SCENARIOS[name]
    _edit(work, sc.get("editar", []))
    before = {n: (work / "processos" / n).read_text(encoding="utf-8") for n in PUBLISHED}
    args = [sc["comando"], "1/2026", "--lei", sc["lei"], "--livro", LIVRO, "--motivo", sc["motivo"],
            "--data", sc["data"].isoformat()]
    if sc.get("data_jornal"):
        args += ["--data-jornal", sc["data_jornal"].isoformat()]
    args += [f"processos/{a}" for a in sc.get("arquivos", [])]
    out = run(*args)
    assert out.exit_code == 0, out.output
    for words in sc["saida"]:
        assert words in out.output, out.output

    with Ledger(work / LIVRO, readonly=True) as led:
        assert led.problems() == []  # gap-free, one live edital per case
        numero, ano = sc["numero"].split("/")
        new = led.find(sc["numero"], sc["lei"])
        assert new is not None and new.estado == "publicado"
        assert new.tipo == sc["comando"].split("-")[0].replace("retificar", "retificacao").replace(
            "republicar", "republicacao")
        original = led.find("1/2026", sc["lei"])
        assert original is not None and new.corrige == original.id and new.motivo == sc["motivo"]
        assert (new.numero, new.ano) == (int(numero), int(ano))
        assert new.data_publicacao == sc["data"]
        files = {f.tipo: new.saida / f.caminho for f in new.arquivos}
    if "documento" in sc:
        text = pdf_text(files["edital_consolidado"])
        for words in sc["documento"]:
            assert words in text, (words, text)
    if "caderno" in sc:
        text = pdf_text(files["caderno"])
        for words in sc["caderno"]:
            assert words in text, (words, text)

    kind = "retificação" if sc["comando"] == "retificar-edital" else "republicação"
    checked = run("conferir", str(next(iter(files.values()))), "--livro", LIVRO)
    assert checked.exit_code == 0, checked.output
    assert f"É {kind} do edital Nº 1/2026, publicado em 6 de outubro de 2026; motivo: {sc['motivo']}" in checked.output
    old_file = next(original.saida / f.caminho for f in original.arquivos if f.tipo == "edital_consolidado")
    checked = run("conferir", str(old_file), "--livro", LIVRO)
    assert checked.exit_code == 0, checked.output
    assert f"O edital foi corrigido: {kind} pelo edital Nº {sc['numero']}" in checked.output, checked.output

    manifest = json.loads((work / "editais" / f"manifesto-editais-{sc['data'].isoformat()}.json")
                          .read_text(encoding="utf-8"))
    entry = next(e for e in manifest["editais"] if e["edital"] == sc["numero"] and e["lei"] == sc["lei"])
    assert entry["corrige"] == original.id and entry["motivo"] == sc["motivo"]
    if sc["comando"] == "retificar-edital":
        changes = [a for c in entry["alteracoes"]["casos"] for a in c["alteracoes"]]
        assert changes and all(a["onde_se_le"] != a["leia_se"] for a in changes)

    if "processo_sem_ato" in sc:
        path = work / "processos" / sc["processo_sem_ato"]
        text = path.read_text(encoding="utf-8")
        # the edited processo: only the edit made by the clerk, no act appended
        assert "2/2026" not in text
    for arquivo, expected in sc["processos"].items():
        text = prazos(arquivo)
        for words in expected:
            assert words in text, (arquivo, words, text)
        # the edital the processo records is the one the ledger says holds for its auto
        checked = run("conferir", "--processo", f"processos/{arquivo}", "--livro", LIVRO)
        assert checked.exit_code == 0 and "CONFERE: o edital" in checked.output, checked.output
    other = "timoteo/" if sc["lei"] == FERRAZ else "ferraz/"
    for n in PUBLISHED:  # the processos of the other law's edital are untouched
        if n.startswith(other):
            assert (work / "processos" / n).read_text(encoding="utf-8") == before[n]


def test_cancel_frees_the_cases_keeps_the_files_and_conferir_says_why(work: Path) -> None:
    with Ledger(work / LIVRO, readonly=True) as led:
        rec = led.find("1/2026", FERRAZ)
        assert rec is not None
        caderno = next(rec.saida / f.caminho for f in rec.arquivos if f.tipo == "caderno")
    files_before = snapshot(work / "editais" / "ferraz-de-vasconcelos-sp")
    processo = work / "processos" / "ferraz/fv-301-domicilio-desconhecido.yaml"
    text_before = processo.read_text(encoding="utf-8")

    out = run("cancelar-edital", "1/2026", "--lei", FERRAZ, "--livro", LIVRO, "--motivo",
              "os autos foram lavrados contra a pessoa errada", "--data", "2026-10-09")
    assert out.exit_code == 0, out.output
    assert "volta à publicação" in out.output

    # never deleted: the edital, its cases and its files stay; the cancellation is recorded with date and reason
    assert snapshot(work / "editais" / "ferraz-de-vasconcelos-sp") == files_before
    with Ledger(work / LIVRO, readonly=True) as led:
        rec = led.find("1/2026", FERRAZ)
        assert rec is not None and rec.estado == "publicado" and rec.cancelamento is not None
        assert rec.cancelamento.data == date(2026, 10, 9) and "pessoa errada" in rec.cancelamento.motivo
        assert len(rec.casos) == 2
        assert led.case_edital(case_key(FERRAZ, "301/2026")) is None  # free to be published again
        assert led.problems() == []

    # the processo: the edital act became comments under the reason; nothing else changed
    text = processo.read_text(encoding="utf-8")
    assert "# EDITAL Nº 1/2026 CANCELADO em 09/10/2026" in text
    assert "  # - tipo: edital" in text and "#   numero: \"1/2026\"" in text
    def acts(t: str) -> list[str]:
        return [line for line in t.splitlines() if not line.lstrip().startswith("#")]

    assert acts(text) == acts(text_before)[:-7]  # the 7 lines of the edital act (one publication) left the list
    assert "edital nº 1/2026" not in prazos("ferraz/fv-301-domicilio-desconhecido.yaml")

    # the manifests: the edital's own date marks it, the cancellation's date lists it
    own = json.loads((work / "editais" / "manifesto-editais-2026-10-06.json").read_text(encoding="utf-8"))
    entry = next(e for e in own["editais"] if e["lei"] == FERRAZ)
    assert entry["cancelamento"]["data"] == "2026-10-09"
    rows = spreadsheet_rows((work / "editais" / "manifesto-editais-2026-10-06.csv").read_bytes())
    assert ("cancelado", FERRAZ) in {(r["situacao"], r["lei"]) for r in rows}
    that_day = json.loads((work / "editais" / "manifesto-editais-2026-10-09.json").read_text(encoding="utf-8"))
    assert [c["edital"] for c in that_day["cancelados"]] == ["1/2026"]

    # autos conferir on a cancelled edital's file: the file is the published one, but it was cancelled (exit 1)
    out = run("conferir", str(caderno), "--livro", LIVRO)
    assert out.exit_code == 1, out.output
    assert "CONFERE: o SHA-256" in out.output
    assert "CANCELADO: o edital Nº 1/2026" in out.output and "cancelado em 9 de outubro de 2026" in out.output
    assert "pessoa errada" in out.output

    # the cases are published again, with the next number: the series stays gap-free
    result = _publish(date(2026, 10, 13), date(2026, 10, 13))
    assert result.erro is None, result.erro
    assert [(p.lei, p.rotulo) for p in result.publicados] == [(FERRAZ, "Nº 2/2026")]
    with Ledger(work / LIVRO, readonly=True) as led:
        assert led.problems() == []
        live = led.case_edital(case_key(FERRAZ, "301/2026"))
        assert live is not None and live[0].rotulo == "Nº 2/2026"
    # 13/10 + 5 days = 18/10 (Sunday) → 19/10 (art. 76, III; art. 77, III)
    assert "notificação efetiva em 19/10/2026" in prazos("ferraz/fv-301-domicilio-desconhecido.yaml")


# --------------------------------------------------------------------------------------------------
# refusals: Portuguese message, exit 2, nothing written

REFUSALS: list[tuple[str, list[str], list[str]]] = [
    ("edital desconhecido", ["cancelar-edital", "7/2026", "--lei", FERRAZ], ["'7/2026'", "não existe no livro"]),
    ("id desconhecido", ["republicar-edital", "99", "--data", "2026-10-20"], ["'99'", "não existe no livro"]),
    ("número sem lei", ["cancelar-edital", "1/2026"], ["informe a lei com --lei"]),
    ("lei de outro edital", ["cancelar-edital", "1", "--lei", TIMOTEO], ["é da lei", FERRAZ]),
    ("motivo vazio", ["cancelar-edital", "1/2026", "--lei", FERRAZ, "--motivo", "  "], ["o motivo está vazio"]),
    ("republicação antes da publicação", ["republicar-edital", "1/2026", "--lei", FERRAZ, "--data", "2026-10-06"],
     ["tem de ser depois da publicação"]),
    ("retificação sem mudança", ["retificar-edital", "1/2026", "--lei", FERRAZ, "--data", "2026-10-20",
                                 "processos/ferraz/fv-301-domicilio-desconhecido.yaml"],
     ["não muda nada do que o edital", "301/2026"]),
    ("retificação de arquivo de outro edital", ["retificar-edital", "1/2026", "--lei", FERRAZ, "--data",
                                                "2026-10-20", "processos/timoteo/sim-31-pj-local-incerto.yaml"],
     ["é da lei", TIMOTEO]),
    ("livro inexistente", ["cancelar-edital", "1/2026", "--lei", FERRAZ, "--livro", "outro.sqlite3"],
     ["livro de editais não encontrado"]),
]


@pytest.mark.parametrize(("why", "args", "words"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusal_writes_nothing(why: str, args: list[str], words: list[str], work: Path) -> None:
    if "--motivo" not in args:
        args = [*args, "--motivo", "teste"]
    if "--livro" not in args:
        args = [*args, "--livro", LIVRO]
    before = snapshot(work)
    out = run(*args)
    assert out.exit_code == 2, out.output
    for w in words:
        assert w in out.output, out.output
    assert snapshot(work) == before


def test_cancel_twice_rectify_a_cancelled_republish_a_corrected_and_a_reserved_one(work: Path) -> None:
    base = ["--livro", LIVRO, "--motivo", "teste"]
    assert run("cancelar-edital", "1/2026", "--lei", TIMOTEO, *base, "--data", "2026-10-09").exit_code == 0
    before = snapshot(work)
    for args, words in [
        (["cancelar-edital", "1/2026", "--lei", TIMOTEO], ["já foi cancelado em 9 de outubro de 2026"]),
        (["retificar-edital", "1/2026", "--lei", TIMOTEO, "--data", "2026-10-20",
          "processos/timoteo/sim-31-pj-local-incerto.yaml"], ["foi cancelado", "não pode ser retificado"]),
        (["republicar-edital", "1/2026", "--lei", TIMOTEO, "--data", "2026-10-20"], ["não pode ser republicado"]),
    ]:
        out = run(*args, *base)
        assert out.exit_code == 2 and all(w in out.output for w in words), out.output
        assert snapshot(work) == before

    # an edital corrected by a live republicação is acted on through it
    assert run("republicar-edital", "1/2026", "--lei", FERRAZ, *base, "--data", "2026-10-20").exit_code == 0
    before = snapshot(work)
    out = run("cancelar-edital", "1/2026", "--lei", FERRAZ, *base)
    assert out.exit_code == 2 and "foi corrigido pelo edital Nº 2/2026" in out.output, out.output
    assert snapshot(work) == before

    # an edital only reserved (a publication that stopped) cannot be republished
    with Ledger(work / LIVRO) as led:
        led.db.execute("INSERT INTO editais (id, lei, ano, numero, data_publicacao, data_edital, veiculo, estado, "
                       "saida, reservado_em) VALUES (9, 'x/y', 2026, 1, '2026-10-06', '2026-10-06', 'D', "
                       "'reservado', 'editais', '2026-10-06T00:00:00+00:00')")
    before = snapshot(work)
    out = run("republicar-edital", "9", *base, "--data", "2026-10-20")
    assert out.exit_code == 2 and "só está reservado" in out.output, out.output
    assert snapshot(work) == before


# --------------------------------------------------------------------------------------------------
# the ledger's format: one migration step, 1 → 2

#: the DDL of a format-1 ledger, as autos wrote it before the corrections (kept here on purpose: the test opens a
#: ledger the old version made, not one this version makes)
V1_DDL = """
CREATE TABLE editais (
    id INTEGER PRIMARY KEY, lei TEXT NOT NULL, ano INTEGER NOT NULL, numero INTEGER NOT NULL CHECK (numero > 0),
    data_publicacao TEXT NOT NULL, data_jornal TEXT, data_edital TEXT NOT NULL, veiculo TEXT NOT NULL, jornal TEXT,
    estado TEXT NOT NULL CHECK (estado IN ('reservado', 'publicado')), saida TEXT NOT NULL,
    reservado_em TEXT NOT NULL, publicado_em TEXT, UNIQUE (lei, ano, numero));
CREATE TABLE casos (
    edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE, ordem INTEGER NOT NULL,
    caso TEXT NOT NULL UNIQUE, auto_numero TEXT NOT NULL, arquivo TEXT NOT NULL, sha256_caso TEXT NOT NULL,
    texto_caso TEXT NOT NULL, motivo TEXT NOT NULL, PRIMARY KEY (edital_id, ordem));
CREATE TABLE arquivos (
    id INTEGER PRIMARY KEY, edital_id INTEGER NOT NULL REFERENCES editais(id) ON DELETE CASCADE, caso TEXT,
    tipo TEXT NOT NULL CHECK (tipo IN ('edital_consolidado', 'edital_individual_pdf', 'edital_individual_docx',
                                       'caderno')),
    caminho TEXT NOT NULL, codigo TEXT UNIQUE, sha256 TEXT, bytes INTEGER, UNIQUE (edital_id, caminho));
CREATE INDEX arquivos_sha256 ON arquivos (sha256);
INSERT INTO editais VALUES (1, 'x/y', 2026, 1, '2026-10-06', NULL, '2026-10-06', 'Diário', NULL, 'publicado', '.',
                            '2026-10-06T01:00:00+00:00', '2026-10-06T01:01:00+00:00');
INSERT INTO casos VALUES (1, 1, 'x/y#31/2026', '31/2026', 'a.yaml', 'aa', 'lei: x/y', 'domicílio desconhecido');
INSERT INTO arquivos VALUES (1, 1, NULL, 'caderno', 'c1.pdf', 'C1', 'ff', 10);
PRAGMA user_version = 1;
PRAGMA application_id = 1635087471;
"""


def _v1(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.executescript(V1_DDL)
    db.close()
    return path


def test_a_format_1_ledger_is_read_without_change_and_migrated_when_opened_to_write(tmp_path: Path) -> None:
    path = _v1(tmp_path / "livro.sqlite3")
    raw = path.read_bytes()
    with Ledger(path, readonly=True) as led:  # conferir: a migrated copy in memory, the file untouched
        rec = led.find("1/2026", "x/y")
        assert rec is not None and rec.tipo == "edital" and rec.cancelamento is None
        assert [c.caso for c in rec.casos] == ["x/y#31/2026"]
    assert path.read_bytes() == raw

    with Ledger(path) as led:
        assert led.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        rec = led.find("1", None)
        assert rec is not None and rec.numero == 1 and rec.publicado_em is not None
        assert [f.codigo for f in rec.arquivos] == ["C1"]
        assert led.problems() == []
        assert led.db.execute("PRAGMA foreign_key_check").fetchall() == []
        # a case may now be in a second edital (its correction); the old UNIQUE constraint is gone
        led.cancel(1, date(2026, 10, 7), "teste")
        led.db.execute("INSERT INTO editais (id, lei, ano, numero, data_publicacao, data_edital, veiculo, estado, "
                       "saida, reservado_em) VALUES (2, 'x/y', 2026, 2, '2026-10-08', '2026-10-08', 'D', 'publicado', "
                       "'.', '2026-10-08T00:00:00+00:00')")
        led.db.execute("INSERT INTO casos VALUES (2, 1, 'x/y#31/2026', '31/2026', 'a.yaml', 'bb', 'lei: x/y', 'm')")
        assert led.problems() == []  # the first one is cancelled: one live edital
        found = led.case_edital("x/y#31/2026")
        assert found is not None and found[0].numero == 2
    with Ledger(path) as led:  # opening again: nothing more to migrate
        assert led.db.execute("PRAGMA user_version").fetchone()[0] == 2


def test_a_ledger_of_a_newer_format_is_refused(tmp_path: Path) -> None:
    path = _v1(tmp_path / "livro.sqlite3")
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 3")
    db.close()
    from autos.errors import LedgerError

    with pytest.raises(LedgerError, match="versão mais nova do autos"):
        Ledger(path)


def test_a_retificacao_interrupted_after_its_reservation_is_undone_by_the_next_run(work: Path) -> None:
    """A retificação killed between reservation and commit leaves a reserved edital of kind 'retificacao'; the next
    publication run undoes it (it is the last of its series) instead of rendering it as an ordinary edital."""
    from autos.store.ledger import Correction, FileRecord, PlannedCase

    with Ledger(work / LIVRO) as led:
        rec = led.find("1/2026", FERRAZ)
        assert rec is not None
        reserved = led.reserve(FERRAZ, date(2026, 10, 20), None, date(2026, 10, 20), "Quadro", None,
                               work / "editais", [PlannedCase(1, case_key(FERRAZ, "301/2026"), "301/2026", "x.yaml",
                                                              "0" * 64, "lei: x", "m")],
                               lambda n: [FileRecord("edital_consolidado", f"r{n}.pdf", None, "RRRR-RRRR-RRRR")],
                               correction=Correction("retificacao", rec.id, "teste", "{}"))
        assert reserved.rotulo == "Nº 2/2026" and reserved.tipo == "retificacao"
    result = _publish(date(2026, 10, 13), date(2026, 10, 13))
    assert result.erro is None, result.erro
    with Ledger(work / LIVRO, readonly=True) as led:
        assert led.find("2/2026", FERRAZ) is None
        assert led.problems() == []


def test_the_migration_uses_no_sqlite_only_syntax() -> None:
    """The migration step is plain SQL, as every other query of the ledger (PostgreSQL runs it too)."""
    from autos.store.ledger_schema import _MIGRATIONS

    from .test_register import _SQLITE_ONLY

    assert sorted(_MIGRATIONS) == [2]
    for statement in _MIGRATIONS[2]:
        for sqlite_only in _SQLITE_ONLY:
            assert sqlite_only not in statement.upper(), (statement, sqlite_only)
