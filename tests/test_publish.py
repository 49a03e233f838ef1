"""``autos publicar-editais`` and ``autos conferir``: selection, ledger, files, authenticity, crash recovery.

The fixture cases (tests/data/publish/casos) publish, on 06/10/2026 (newspaper 07/10/2026), one edital for
Ferraz de Vasconcelos (autos 301 and 302) and one for Timóteo (autos 31 and 32); four cases are refused
(a Cuiabá auto without the autuado's address, an AR returned for "ausente", an auto with missing
elements, a malformed file) and one was notified in person. Dates computed by hand:

* Ferraz (art. 77, III): 06/10 + 5 days = 11/10 (Sunday); 12/10 is a national holiday → 13/10/2026.
  Appeal (art. 78, 10 calendar days) → 23/10/2026; payment (art. 80, 10 business days; 14/10 municipal
  holiday, 28/10 Servant's Day) → 29/10/2026.
* Timóteo (art. 21, § 3º): the later publication, 07/10, + 10 days = 17/10 (Saturday) → 19/10/2026.
  Defence (15 calendar days, EXAMPLE value of the rules) → 03/11/2026.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import zipfile
from datetime import date, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from autos.app.editais.faults import FAULT_ENV
from autos.app.editais.manifest import MANIFEST_CSV_FIELDS
from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options, Published, PublishResult, place_option
from autos.cli import main
from autos.compute.edital import classify
from autos.errors import LedgerError
from autos.processo.load_case import parse_case
from autos.render.gazette import CODE_RE, verification_code
from autos.store.ledger import EditalRecord, FileRecord, Ledger, PlannedCase

from .conftest import DATA, ROOT, TODAY, Where
from .textutil import docx_text, pdf_text, pt_number, spreadsheet_rows

CASES = DATA / "publish" / "casos"
DATA_PUB = date(2026, 10, 6)
DATA_JORNAL = date(2026, 10, 7)
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
TIMOTEO = "timoteo-mg/lei-3844-2022"


def options(saida: Path, casos: Path = CASES, **kw: object) -> Options:
    base: dict[str, object] = {
        "casos": casos, "data": DATA_PUB, "saida": saida, "data_jornal": DATA_JORNAL, "workers": 1,
        "rules_dir": ROOT / "rules", "templates_dir": ROOT / "templates", "today": TODAY,
        "veiculos": place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                                  "Quadro de Editais do Paço Municipal"]),
        "jornais": place_option(["Jornal Diário do Aço"]),
    }
    base.update(kw)
    return Options(**base)  # type: ignore[arg-type]


def publish(saida: Path, **kw: object) -> PublishResult:
    return Publisher(options(saida, **kw)).run()


def tree(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``folder``: relative path → (sha256, mtime_ns)."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def dump(ledger: Path) -> list[str]:
    db = sqlite3.connect(ledger)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def details(out: Path, published: Published, ledger: object = None) -> EditalRecord:
    """The cases and files of an edital the run published (the run keeps only a summary)."""
    with Ledger(ledger or out / "livro-editais.sqlite3", readonly=True) as led:  # type: ignore[arg-type]
        record = led.edital(published.id)
    assert record is not None
    return record


def published_files(ledger: Path) -> list[tuple[Path, str]]:
    with Ledger(ledger, readonly=True) as led:
        return [(e.saida / f.caminho, f.sha256 or "") for e in led.editais() for f in e.arquivos]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, PublishResult]:
    out = tmp_path_factory.mktemp("editais")
    return out, publish(out)


def copy_of(published: tuple[Path, PublishResult], tmp_path: Path) -> Path:
    out = tmp_path / "editais"
    shutil.copytree(published[0], out)
    return out


# --------------------------------------------------------------------------------------------------
# the samples publish


def test_publishes_one_edital_per_law_and_refuses_the_rest(published: tuple[Path, PublishResult]) -> None:
    out, result = published
    assert result.erro is None
    assert result.exit_code == 1  # some cases refused; the batch ran to the end
    assert [(e.lei, e.numero, e.ano, [c.auto_numero for c in details(out, e).casos]) for e in result.publicados] == [
        (FERRAZ, 1, 2026, ["301/2026", "302/2026"]), (TIMOTEO, 1, 2026, ["31/2026", "32/2026"])]
    refused = {Path(c.arquivo).name: " ".join(c.motivos) for c in result.recusados}
    assert set(refused) == {"auto-90-desconhecido.yaml", "auto-303-ar-ausente.yaml", "auto-305-sem-fatos.yaml",
                            "malformado.yaml"}
    # Cuiabá has the individual edital (Lei 9.784/1999, art. 26, § 4º, by analogy): its auto is refused for what it
    # lacks (the rules without the edital: tests/test_processo_kinds.py)
    assert "CBA-35-AUTUADO" in refused["auto-90-desconhecido.yaml"]
    assert "Ausente" in refused["auto-303-ar-ausente.yaml"] and "art. 76, III" in refused["auto-303-ar-ausente.yaml"]
    assert "FER-75-FATO" in refused["auto-305-sem-fatos.yaml"]
    assert "YAML malformado" in refused["malformado.yaml"]
    assert result.sem_edital == 1  # notified in person


def test_every_ledger_file_exists_with_its_hash(published: tuple[Path, PublishResult]) -> None:
    out, _ = published
    files = published_files(out / "livro-editais.sqlite3")
    assert len(files) == 2 * (1 + 2 * 2 + 1)  # per edital: consolidated, 2 × (PDF + DOCX), gazette
    for path, sha in files:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha
    assert not list(out.rglob("*.tmp"))
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert led.problems() == []


def test_consolidated_edital_lists_each_person_masked_with_dates(published: tuple[Path, PublishResult]) -> None:
    out, _ = published
    ferraz = pdf_text(next(out.rglob("edital-ferraz-de-vasconcelos-sp-lei-3240-2015-2026-0001.pdf")).read_bytes())
    assert "EDITAL DE NOTIFICAÇÃO Nº 1/2026" in ferraz
    # Ferraz art. 76, III: "por edital ... se desconhecido o domicílio fiscal do infrator" — the law's words, not
    # "local incerto ou não sabido"
    assert "NOTIFICA as pessoas abaixo relacionadas — em cada caso, desconhecido o domicílio fiscal do infrator — da " \
        "lavratura" in " ".join(ferraz.split())
    assert "incerto" not in ferraz
    assert "Roberto Alves de Souza — CPF ***.617.352-**" in ferraz
    assert "Edson Luiz Barreto — CPF ***.614.958-**" in ferraz
    assert "nº 301/2026, lavrado em 15 de setembro de 2026" in ferraz
    assert "Lei nº 3.240/2015, art. 4º" in ferraz  # infringed provision
    # art. 4º, 350 m² × 5 UFM ÷ 100 m² = 17,5 UFM × R$ 156,1935 = R$ 2.733,38625 → R$ 2.733,39;
    # 30 UFM = R$ 4.685,805 → R$ 4.685,81
    assert ("Multa: 17,5 (dezessete inteiros e cinco décimos) UFM, correspondente a R$ 2.733,39 (dois mil setecentos "
            "e trinta e três reais e trinta e nove centavos)") in ferraz
    assert "Multa: 30 (trinta) UFM, correspondente a R$ 4.685,81" in ferraz
    assert "A notificação considera-se feita em: 13 de outubro de 2026" in ferraz
    assert "Prazo para apresentar recurso: 10 (dez) dias corridos" in ferraz
    assert "até 23 de outubro de 2026" in ferraz and "até 29 de outubro de 2026" in ferraz
    assert "Quadro de Editais do Paço Municipal, em 6 de outubro de 2026" in ferraz
    assert "VALOR DE EXEMPLO" not in ferraz and "EXEMPLO" not in ferraz  # the official UFM (valores-oficiais.yaml)
    for secret in ("408.617.352-26", "372.614.958-91", "Kaoru", "pedreiro"):  # LGPD: only what notifies
        assert secret not in ferraz
    timoteo = pdf_text(next(out.rglob("edital-timoteo-mg-lei-3844-2022-2026-0001.pdf")).read_bytes())
    # Timóteo art. 21, III: "por edital, se estiver em local incerto ou desconhecido"
    assert "em cada caso, estando o autuado em local incerto ou desconhecido" in " ".join(timoteo.split())
    assert "Laticínios Vale do Aço Ltda. — CNPJ 11.222.333/0001-81" in timoteo  # a company: whole (LGPD, art. 1º)
    assert "José Carlos Pereira — CPF ***.444.777-**" in timoteo
    assert "Diário Oficial Eletrônico do Município de Timóteo, em 6 de outubro de 2026" in timoteo
    assert "Jornal Diário do Aço, em 7 de outubro de 2026" in timoteo
    assert "A notificação considera-se feita em: 19 de outubro de 2026" in timoteo
    assert "até 3 de novembro de 2026" in timoteo
    assert "Avenida Acesita" not in timoteo


def test_individual_editais_pdf_and_docx_carry_the_code(published: tuple[Path, PublishResult]) -> None:
    out, result = published
    ed = details(out, result.publicados[1])
    pdf = next(f for f in ed.arquivos if f.tipo == "edital_individual_pdf" and f.caso == f"{TIMOTEO}#32/2026")
    docx = next(f for f in ed.arquivos if f.tipo == "edital_individual_docx" and f.caso == pdf.caso)
    text = pdf_text((ed.saida / pdf.caminho).read_bytes())
    assert "EDITAL DE NOTIFICAÇÃO Nº 1/2026" in text
    assert "José Carlos Pereira" in text and "***.444.777-**" in text and "111.444.777-35" not in text
    assert "Auto de infração nº 32/2026, lavrado em 10 de setembro de 2026" in text
    assert "Data em que a notificação se considera feita: 19 de outubro de 2026" in text
    assert f"Código de verificação: {pdf.codigo}" in text
    assert "Página 1 de" in text
    assert "Jornal Diário do Aço, em 7 de outubro de 2026" in text
    assert f"Código de verificação: {pdf.codigo}" in docx_text((ed.saida / docx.caminho).read_bytes())


def test_gazette_merges_with_bookmarks_and_continuous_folios(published: tuple[Path, PublishResult]) -> None:
    out, result = published
    ed = details(out, result.publicados[0])
    gazette = next(f for f in ed.arquivos if f.tipo == "caderno")
    reader = PdfReader(ed.saida / gazette.caminho)
    titles = [o.title for o in reader.outline]
    assert titles == ["Edital Nº 1/2026 — consolidado (2 notificados)",
                      "Edital de notificação — auto nº 301/2026 — Roberto Alves de Souza",
                      "Edital de notificação — auto nº 302/2026 — Edson Luiz Barreto"]
    parts = [next(f for f in ed.arquivos if f.tipo == "edital_consolidado")] + [
        f for f in ed.arquivos if f.tipo == "edital_individual_pdf"]
    sizes = [len(PdfReader(ed.saida / f.caminho).pages) for f in parts]
    assert len(reader.pages) == sum(sizes)
    starts = [0, sizes[0], sizes[0] + sizes[1]]
    assert [reader.get_destination_page_number(o) for o in reader.outline] == starts
    n = len(reader.pages)
    for i, page in enumerate(reader.pages, start=1):
        text = re.sub(r"\s+", " ", page.extract_text())
        assert f"folha {i} de {n} — código do caderno: {gazette.codigo}" in text
    assert reader.metadata is not None and gazette.codigo in reader.metadata["/Keywords"]
    assert result.publicados[0].caderno == ed.saida / gazette.caminho


def test_manifest_lists_every_file_hash_case_and_refusal(published: tuple[Path, PublishResult]) -> None:
    out, _ = published
    doc = json.loads((out / "manifesto-editais-2026-10-06.json").read_text(encoding="utf-8"))
    listed = {f["caminho"]: f["sha256"] for e in doc["editais"] for f in e["arquivos"]}
    on_disk = {str(p.relative_to(out)): sha for p, sha in published_files(out / "livro-editais.sqlite3")}
    assert listed == on_disk
    individual = [f for e in doc["editais"] for f in e["arquivos"] if f["tipo"] == "edital_individual_pdf"]
    assert {f["caso"] for f in individual} == {f"{FERRAZ}#301/2026", f"{FERRAZ}#302/2026", f"{TIMOTEO}#31/2026",
                                               f"{TIMOTEO}#32/2026"}
    assert len(doc["recusados"]) == 4 and all(r["motivos"] for r in doc["recusados"])
    reasons = {c["auto"]: c["motivo_edital"] for e in doc["editais"] for c in e["casos"]}
    assert reasons["302/2026"] == "carta com AR devolvida sem entrega (motivo: Mudou-se)"
    assert reasons["301/2026"].startswith("domicílio desconhecido")
    # the CSV, as a pt-BR spreadsheet reads it (BOM, ';', CRLF): the same files and hashes, the sizes as numbers
    rows = spreadsheet_rows((out / "manifesto-editais-2026-10-06.csv").read_bytes(), MANIFEST_CSV_FIELDS)
    assert [r["situacao"] for r in rows].count("publicado") == 12 and [r["situacao"] for r in rows].count(
        "recusado") == 4
    assert {r["caminho"]: r["sha256"] for r in rows if r["situacao"] == "publicado"} == listed
    sizes = {f["caminho"]: f["bytes"] for e in doc["editais"] for f in e["arquivos"]}
    assert all(pt_number(r["bytes"]) == sizes[r["caminho"]] for r in rows if r["situacao"] == "publicado")


# --------------------------------------------------------------------------------------------------
# re-runs, dry runs, duplicates


def test_second_run_of_the_same_date_changes_nothing(published: tuple[Path, PublishResult], tmp_path: Path) -> None:
    out = copy_of(published, tmp_path)
    before, ledger_before = tree(out), dump(out / "livro-editais.sqlite3")
    again = publish(out)
    assert again.publicados == [] and again.erro is None and again.exit_code == 1
    assert again.ja_publicados == []  # published on this very date: part of the date, not a warning
    assert dump(out / "livro-editais.sqlite3") == ledger_before
    after = tree(out)
    after.pop("livro-editais.sqlite3.lock", None)
    before.pop("livro-editais.sqlite3.lock", None)
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}
    assert after == before  # not even rewritten (same mtimes)


def test_other_date_reports_already_published_and_takes_no_number(published: tuple[Path, PublishResult],
                                                                  tmp_path: Path) -> None:
    out = copy_of(published, tmp_path)
    result = publish(out, data=date(2026, 10, 20), data_jornal=None)
    assert result.publicados == []
    assert {Path(c.arquivo).name for c in result.ja_publicados} == {
        "auto-301-domicilio-desconhecido.yaml", "auto-302-ar-mudou-se.yaml", "auto-31-pj-local-incerto.yaml",
        "auto-32-pf-ar-desconhecido.yaml"}
    assert all("já publicado no edital Nº 1/2026 de 6 de outubro de 2026" in c.motivos[0] for c in result.ja_publicados)
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert [(e.lei, e.numero) for e in led.editais()] == [(FERRAZ, 1), (TIMOTEO, 1)]


def test_changed_or_moved_case_is_not_republished(tmp_path: Path) -> None:
    cases, out = tmp_path / "casos", tmp_path / "out"
    shutil.copytree(CASES / "ferraz", cases)
    assert [e.casos for e in publish(out, casos=cases).publicados] == [2]
    edited = cases / "auto-301-domicilio-desconhecido.yaml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("mato alto", "mato muito alto"), encoding="utf-8")
    moved = tmp_path / "casos-movidos"
    cases.rename(moved)  # the folder moved: the ledger knows the cases, not where their files live now
    result = publish(out, casos=moved)
    assert result.publicados == [] and result.erro is None
    (warning,) = result.ja_publicados
    assert warning.arquivo.endswith("auto-301-domicilio-desconhecido.yaml")
    assert "mudou depois da publicação" in warning.motivos[0]
    assert {Path(c.arquivo).name for c in result.recusados} == {"auto-303-ar-ausente.yaml", "auto-305-sem-fatos.yaml"}


def test_repeated_auto_in_two_files_is_refused(tmp_path: Path) -> None:
    cases = tmp_path / "casos"
    cases.mkdir()
    src = CASES / "ferraz" / "auto-301-domicilio-desconhecido.yaml"
    shutil.copy(src, cases / "a.yaml")
    shutil.copy(src, cases / "b.yaml")
    out = tmp_path / "out"
    result = publish(out, casos=cases)
    assert [e.casos for e in result.publicados] == [1]
    (refused,) = result.recusados
    assert refused.arquivo.endswith("b.yaml") and "também está no arquivo" in refused.motivos[0]
    before = tree(out)
    again = publish(out, casos=cases)  # the same date again: the same refusal, nothing published or rewritten
    assert again.publicados == [] and again.recusados == result.recusados
    assert tree(out) == before


def test_dry_run_changes_nothing(published: tuple[Path, PublishResult], tmp_path: Path) -> None:
    empty = tmp_path / "nada"
    plan = publish(empty, dry_run=True)
    assert not empty.exists()
    assert [(p.lei, p.numero, len(p.casos)) for p in plan.planejados] == [(FERRAZ, 1, 2), (TIMOTEO, 1, 2)]
    assert plan.exit_code == 1 and len(plan.recusados) == 4
    out = copy_of(published, tmp_path)
    before = tree(out)
    cases = tmp_path / "casos"
    shutil.copytree(CASES / "ferraz", cases)
    renumbered = cases / "auto-301-domicilio-desconhecido.yaml"
    renumbered.write_text(renumbered.read_text(encoding="utf-8").replace('"301/2026"', '"311/2026"'), encoding="utf-8")
    plan = publish(out, casos=cases, data=date(2026, 10, 20), dry_run=True)
    assert [(p.lei, p.numero, [c.auto_numero for c in p.casos]) for p in plan.planejados] == [(FERRAZ, 2, ["311/2026"])]
    assert tree(out) == before


def test_gazette_of_a_later_day_prepared_in_advance(tmp_path: Path) -> None:
    """The edital is dated the day it is issued (--hoje), not the publication day ahead."""
    result = publish(tmp_path / "out", casos=CASES / "ferraz", today=date(2026, 10, 5))
    assert result.erro is None and [e.data_edital for e in result.publicados] == [date(2026, 10, 5)]
    individual = next((tmp_path / "out").rglob("*-auto-2026-0301.pdf"))
    assert "Ferraz de Vasconcelos/SP, 5 de outubro de 2026." in pdf_text(individual.read_bytes())


def test_large_batches_split_into_consecutive_editais(tmp_path: Path, where: Where) -> None:
    out = tmp_path / "out"
    livro = where.at(out).ledger_loc
    result = publish(out, casos=CASES / "ferraz", max_por_edital=1, livro=livro)
    assert result.erro is None, result.erro
    assert [(e.numero, [c.auto_numero for c in details(out, e, livro).casos]) for e in result.publicados] == [
        (1, ["301/2026"]), (2, ["302/2026"])]
    with Ledger(livro, readonly=True) as led:
        assert led.problems() == []
        (first, second) = led.editais()
        assert first.saida == second.saida == out.resolve()
        for e in (first, second):
            for f in e.arquivos:
                assert hashlib.sha256((e.saida / f.caminho).read_bytes()).hexdigest() == f.sha256
    # the same run again: nothing published twice (every case is in the ledger already)
    again = publish(out, casos=CASES / "ferraz", max_por_edital=1, livro=livro)
    assert again.erro is None and again.publicados == []


# --------------------------------------------------------------------------------------------------
# authenticity


def test_conferir_accepts_a_published_file_and_rejects_a_modified_one(published: tuple[Path, PublishResult],
                                                                      tmp_path: Path) -> None:
    out, result = published
    ed = details(out, result.publicados[0])
    pdf = next(f for f in ed.arquivos if f.tipo == "edital_individual_pdf")
    runner = CliRunner()
    livro = str(out / "livro-editais.sqlite3")
    ok = runner.invoke(main, ["conferir", str(ed.saida / pdf.caminho), "--livro", livro])
    assert ok.exit_code == 0, ok.output
    assert "CONFERE" in ok.output and "edital Nº 1/2026" in ok.output and "auto nº 301/2026" in ok.output
    # a modified copy, elsewhere: the ledger is named explicitly
    writer = PdfWriter(clone_from=ed.saida / pdf.caminho)
    writer.add_metadata({"/Title": "alterado"})
    forged = tmp_path / "alterado.pdf"
    writer.write(forged)
    bad = runner.invoke(main, ["verify-pdf", str(forged), "--ledger", str(out / "livro-editais.sqlite3")])
    assert bad.exit_code == 1, bad.output
    assert "NÃO CONFERE" in bad.output
    assert f"código de verificação {pdf.codigo}" in bad.output and "auto nº 301/2026" in bad.output
    assert "SHA-256 não confere" in bad.output
    # the gazette: its own code is the claim
    gazette = next(f for f in ed.arquivos if f.tipo == "caderno")
    data = bytearray((ed.saida / gazette.caminho).read_bytes())
    data[data.rindex(b"%%EOF") - 2] ^= 1  # one bit of the trailer
    flipped = tmp_path / "caderno.pdf"
    flipped.write_bytes(bytes(data))
    bad = runner.invoke(main, ["conferir", str(flipped), "--livro", str(out / "livro-editais.sqlite3")])
    assert bad.exit_code == 1 and "NÃO CONFERE" in bad.output
    docx = next(f for f in ed.arquivos if f.tipo == "edital_individual_docx")
    assert runner.invoke(main, ["conferir", str(ed.saida / docx.caminho)], env={"AUTOS_LIVRO": livro}).exit_code == 0
    edited = tmp_path / "alterado.docx"
    with zipfile.ZipFile(ed.saida / docx.caminho) as src, zipfile.ZipFile(edited, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "word/document.xml":
                data = data.replace(b"Roberto", b"Roberta")
            dst.writestr(item, data)
    bad = runner.invoke(main, ["conferir", str(edited), "--ledger", str(out / "livro-editais.sqlite3")])
    assert bad.exit_code == 1 and f"código de verificação {pdf.codigo}" in bad.output
    assert "edital individual (DOCX)" in bad.output and docx.sha256 in bad.output
    lost = runner.invoke(main, ["conferir", str(forged)], env={"AUTOS_LIVRO": None})  # no ledger named
    assert lost.exit_code == 2 and "nenhum livro de editais indicado" in lost.output


def test_verification_codes_are_short_and_distinct() -> None:
    a = verification_code("x", "2026", "1", "caderno")
    assert CODE_RE.fullmatch(a) and len(a) == 14
    assert a == verification_code("x", "2026", "1", "caderno") != verification_code("x", "2026", "2", "caderno")


# --------------------------------------------------------------------------------------------------
# crash, disk full, unwritable folder


def _cli(out: Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(FAULT_ENV, None)
    if fault:
        env[FAULT_ENV] = fault
    return subprocess.run(
        [sys.executable, "-m", "autos.cli", "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
         "--hoje", TODAY.isoformat(), "publicar-editais", str(CASES), "--data", DATA_PUB.isoformat(),
         "--data-jornal", DATA_JORNAL.isoformat(), "--jornal", "Jornal Diário do Aço", "-o", str(out),
         "--processos", "1"],
        capture_output=True, text=True, env=env, timeout=120, check=False)


def _assert_complete(out: Path) -> None:
    ledger = out / "livro-editais.sqlite3"
    with Ledger(ledger, readonly=True) as led:
        assert led.problems() == []
        editais = led.editais()
        assert [(e.lei, e.numero, e.estado) for e in editais] == [(FERRAZ, 1, "publicado"), (TIMOTEO, 1, "publicado")]
        cases = [c.caso for e in editais for c in e.casos]
        assert len(cases) == len(set(cases)) == 4
    for path, sha in published_files(ledger):
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha
    listed = {p for p, _ in published_files(ledger)}
    assert {p for p in out.rglob("*") if p.is_file() and p.parent != out} == listed  # no stray or temporary file


@pytest.mark.parametrize(("fault", "left", "recovered"), [
    ("reserva:1", [(FERRAZ, "reservado")], 1),  # killed before anything was rendered
    # Timóteo's edital is reserved (and rendering) while Ferraz's finishes: killed after Ferraz's commit,
    # or after Timóteo's files were renamed into place but before its commit
    ("commit:1", [(FERRAZ, "publicado"), (TIMOTEO, "reservado")], 1),
    ("renomeado:2", [(FERRAZ, "publicado"), (TIMOTEO, "reservado")], 1),
])
def test_killed_run_is_finished_by_the_next_one(tmp_path: Path, fault: str, left: list[tuple[str, str]],
                                                recovered: int) -> None:
    out = tmp_path / "out"
    killed = _cli(out, fault)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert [(e.lei, e.estado) for e in led.editais()] == left
    again = publish(out)
    assert again.erro is None
    assert len(again.recuperados) == recovered
    assert sorted(e.lei for e in again.publicados) == sorted(lei for lei, st in left if st == "reservado") + (
        [TIMOTEO] if len(left) == 1 else [])
    _assert_complete(out)
    assert publish(out).publicados == []  # and a third run has nothing to do


def test_disk_full_leaves_the_ledger_as_before_the_failing_edital(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    monkeypatch.setenv(FAULT_ENV, "disco-cheio:2")  # the second edital's gazette write fails (ENOSPC)
    result = publish(out)
    assert result.exit_code == 2 and result.erro is not None
    assert "disco cheio" in result.erro.message
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert [(e.lei, e.numero, e.estado) for e in led.editais()] == [(FERRAZ, 1, "publicado")]
    assert not list((out / "timoteo-mg").rglob("*.*"))  # nothing of the failing edital is left
    monkeypatch.delenv(FAULT_ENV)
    assert [e.lei for e in publish(out).publicados] == [TIMOTEO]  # its number was not consumed
    _assert_complete(out)


def test_unwritable_output_folder_leaves_the_ledger_unchanged(published: tuple[Path, PublishResult],
                                                              tmp_path: Path) -> None:
    out = copy_of(published, tmp_path)
    ledger = out / "livro-editais.sqlite3"
    before = dump(ledger)
    blocker = tmp_path / "arquivo-comum"
    blocker.write_text("não sou pasta")
    result = publish(blocker / "saida", livro=ledger, data=date(2026, 10, 20))
    assert result.exit_code == 2 and result.erro is not None
    assert "a pasta de saída não pode ser usada" in result.erro.message
    assert dump(ledger) == before
    runner = CliRunner()
    cli = runner.invoke(main, ["publicar-editais", str(CASES), "--data", "2026-10-20", "-o", str(blocker / "x"),
                               "--ledger", str(ledger)])
    assert cli.exit_code == 2 and "pasta de saída não pode ser usada" in cli.output
    assert dump(ledger) == before


def test_a_second_run_at_the_same_time_is_refused(tmp_path: Path, where: Where) -> None:
    out = tmp_path / "out"
    livro = where.at(out).ledger_loc
    if where.backend == "sqlite":
        out.mkdir()
    holder = Ledger(livro)
    holder.lock()
    try:
        result = publish(out, livro=livro)
    finally:
        holder.close()
    assert result.exit_code == 2 and result.erro is not None and "outra execução" in result.erro.message
    with Ledger(livro, readonly=True) as led:
        assert led.editais() == []


# --------------------------------------------------------------------------------------------------
# the rule and the ledger, directly


def _case(extra: str) -> object:
    text = (CASES / "ferraz" / "auto-302-ar-mudou-se.yaml").read_text(encoding="utf-8")
    return parse_case(text.replace("    motivo_devolucao: Mudou-se\n", extra), "caso.yaml").case


@pytest.mark.parametrize(("motivo", "estado"), [
    ("    motivo_devolucao: Endereço insuficiente\n", "candidato"),
    ("    motivo_devolucao: Não existe o número\n", "candidato"),
    ("    motivo_devolucao: Desconhecido\n", "candidato"),
    ("    motivo_devolucao: Recusado\n", "recusado"),
    ("    motivo_devolucao: Não procurado\n", "recusado"),
    ("", "recusado"),
])
def test_ar_return_reason_decides_the_edital(motivo: str, estado: str) -> None:
    from autos.app.generation.pipeline import Autos

    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    case = _case(motivo)
    law = autos.deadline_service.law(autos.rules.get(FERRAZ))
    assert classify(case, law).estado == estado  # type: ignore[arg-type]


def test_ledger_numbers_without_gaps_and_undoes_only_the_last(tmp_path: Path, where: Where) -> None:
    led = Ledger(where.ledger_loc)

    def reserve(caso: str) -> int:
        rec = led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                          [PlannedCase(1, caso, "1/2026", "a.yaml", "0" * 64, "lei: x")],
                          lambda n: [FileRecord("caderno", f"c{n}.pdf", None, f"C{n}")])
        return rec.id

    first, second = reserve("x#1"), reserve("x#2")
    with pytest.raises(LedgerError, match="buraco na numeração"):
        led.undo(first)
    with pytest.raises(LedgerError, match="já está no edital Nº 2/2026"):
        reserve("x#2")  # a case is reserved/published once
    led.undo(second)
    assert led.next_number("x/y", 2026) == 2
    with pytest.raises(LedgerError, match="não conferem"):
        led.commit(first, {})
    led.commit(first, {"c1.pdf": ("ab" * 32, 10)})
    assert led.problems() == [] and [e.estado for e in led.editais()] == ["publicado"]
    assert led.next_number("x/y", 2027) == 1  # a new series every year
    assert led.edital(first) is not None and led.edital(first).saida == tmp_path.resolve()  # type: ignore[union-attr]
    led.close()


def test_place_option_parses_global_and_per_municipality_values() -> None:
    assert place_option(["Diário Oficial", "timoteo-mg=Jornal X", "A=B"]) == (
        ("*", "Diário Oficial"), ("timoteo-mg", "Jornal X"), ("*", "A=B"))


def test_cli_dry_run_prints_the_plan(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--hoje", TODAY.isoformat(), "publish-editais", str(CASES), "--data",
                                       "2026-10-06", "-o", str(tmp_path / "o"), "--dry-run", "--processos", "1"])
    assert result.exit_code == 1, result.output
    assert "SIMULAÇÃO" in result.output
    assert f"seria publicado: edital Nº 1/2026 ({FERRAZ}) com 2 casos: auto 301/2026, auto 302/2026" in result.output
    assert not (tmp_path / "o").exists()


def test_in_process_run_restores_the_garbage_collector(tmp_path: Path) -> None:
    """``--processos 1`` tunes the collector for rendering (publish.tuned_gc) and gives it back as it was:
    a program using the library keeps its own settings."""
    before = gc.get_threshold()
    result = publish(tmp_path / "out", casos=CASES / "ferraz")  # one law's edital: the run, not its size, tunes
    assert result.publicados
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_rendering_an_edital_again_gives_the_same_files(tmp_path: Path) -> None:
    """Recovery re-renders the documents of a reserved edital with the reservation's date and time: the PDF and
    the DOCX come out byte for byte the same, so their hashes do not change (DOCX entries keep fixed dates)."""
    from autos.app.editais import jobs as pub

    params = pub.RunParams(DATA_PUB, DATA_JORNAL, str(ROOT / "rules"), str(ROOT / "templates"), TODAY,
                           place_option(["Quadro de Editais do Paço Municipal"]),
                           place_option(["Jornal Diário do Aço"]))
    saved = pub._ENGINE
    pub._ENGINE = pub.Engine(str(ROOT / "rules"), str(ROOT / "templates"), TODAY)  # as a worker has it
    try:
        prepared = pub.prepare_many([str(CASES / "ferraz" / "auto-301-domicilio-desconhecido.yaml"),
                                      str(CASES / "timoteo" / "auto-32-pf-ar-desconhecido.yaml")], params)
        assert [p.estado for p in prepared] == ["candidato", "candidato"]
        runs = []
        for k in range(2):
            jobs = [pub.CaseJob(p.caso or "", p.arquivo, p.texto, "ABCD-2345", str(tmp_path / f"{k}-{i}.pdf"),
                                str(tmp_path / f"{k}-{i}.docx")) for i, p in enumerate(prepared)]
            runs.append([w.sha256 for w in pub.render_cases(jobs, params, "7/2026", datetime(2026, 10, 6, 3, 15))])
    finally:
        pub._ENGINE = saved
    assert runs[0] == runs[1] and len(runs[0]) == 4
