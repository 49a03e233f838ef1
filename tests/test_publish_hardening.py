"""``publicar-editais`` and ``conferir`` under hostile conditions: bad cases mixed with good ones,
document numbers typed in other ways, killed and terminated runs, full and read-only disks, two ledgers on one
output folder, spreadsheet formulas in the manifest, untrusted ledgers and damaged files.

The cases are copies of the fixture cases of ``test_publish.py`` (tests/data/publish/casos), with one field
changed each."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import signal
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.editais import folder as editais_folder
from autos.app.editais import jobs
from autos.app.editais.faults import FAULT_ENV
from autos.app.editais.folder import FOLDER_LOCK_NAME
from autos.app.editais.manifest import MANIFEST_CSV_FIELDS, CaseProblem, write_manifest
from autos.app.editais.run import PublishResult
from autos.cli import main
from autos.errors import InputError, LedgerError, OutputError
from autos.processo.case import document_key
from autos.processo.load_case import parse_case
from autos.store.ledger import FileRecord, Ledger, PlannedCase, case_key
from autos.store.ledger_store import RunLock
from autos.web.state import load_secret

from .conftest import ROOT, TODAY, Where
from .procs import group, state, until
from .test_publish import CASES, DATA_JORNAL, DATA_PUB, FERRAZ, TIMOTEO, publish, published_files
from .textutil import spreadsheet_rows

F301 = CASES / "ferraz" / "auto-301-domicilio-desconhecido.yaml"
F302 = CASES / "ferraz" / "auto-302-ar-mudou-se.yaml"
T31 = CASES / "timoteo" / "auto-31-pj-local-incerto.yaml"
T32 = CASES / "timoteo" / "auto-32-pf-ar-desconhecido.yaml"


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _variant(source: Path, numero: str, old: str = "", new: str = "") -> str:
    """The text of ``source`` with another auto number and, optionally, one piece replaced."""
    text = source.read_text(encoding="utf-8")
    first = text[text.index('numero: "'):].split("\n", 1)[0]
    assert old in text
    return text.replace(first, f'numero: "{numero}"', 1).replace(old, new, 1)


def _good_cases(folder: Path, *sources: Path) -> None:
    for src in sources:
        _write(folder, src.name, src.read_text(encoding="utf-8"))


def _ledger_state(ledger: Path) -> list[tuple[str, int, str, list[str]]]:
    with Ledger(ledger, readonly=True) as led:
        assert led.problems() == []
        return [(e.lei, e.numero, e.estado, [c.auto_numero for c in e.casos]) for e in led.editais()]


def _assert_files_match_ledger(out: Path, ledger: Path | None = None) -> None:
    ledger = ledger or out / "livro-editais.sqlite3"
    listed = published_files(ledger)
    for path, sha in listed:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha
    on_disk = {p for p in out.rglob("*") if p.is_file() and p.parent != out}
    assert on_disk == {p for p, _ in listed}  # no stray or temporary file


# --------------------------------------------------------------------------------------------------
# item 2: a bad case never stops the night


V800 = 'valor_base: "800"'
NESTED_MAP = "observacoes:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(990)) + "  " * 991 + "x: 1\n"

BAD_CASES = {  # file → (text, words one of which the refusal must contain)
    "t41-1e5000.yaml": (lambda: _variant(T32, "41/2026", V800, 'valor_base: "1e5000"'),
                        ("grande", "limite", "dígitos", "algarismos", "inválid")),
    "t42-5000-digitos.yaml": (lambda: _variant(T32, "42/2026", V800, "valor_base: " + "9" * 5000),
                              ("grande", "limite", "dígitos", "algarismos", "inválid")),
    "t43-aninhado.yaml": (lambda: _variant(T32, "43/2026") + NESTED_MAP,
                          ("aninhad", "profund", "níveis")),
    "t44-nul.yaml": (lambda: _variant(T32, "44/2026", "nome: José Carlos Pereira", 'nome: "José\\0 Carlos"'),
                     ("0x0", "U+0000", "controle", "caractere", "\\0")),
    "t45-largura-total.yaml": (lambda: _variant(T32, "４５/2026"), ("algarismos",)),
    "t46-zero.yaml": (lambda: _variant(T32, "0/2026"), ("começa em 1",)),
    # an oversized file is refused with the bound every YAML file has (1 MiB), not rendered for minutes
    "t47-enorme.yaml": (lambda: _variant(T32, "47/2026") + "# " + "x" * (2 * 1024 * 1024) + "\n", ("limite",)),
}


def test_bad_cases_are_refused_and_the_good_ones_published(tmp_path: Path) -> None:
    casos = tmp_path / "casos"
    _good_cases(casos, F301, T32)
    for name, (text, _words) in BAD_CASES.items():
        _write(casos, name, text())
    out = tmp_path / "out"
    result = publish(out, casos=casos)
    assert result.erro is None, result.erro
    assert result.exit_code == 1
    assert _ledger_state(out / "livro-editais.sqlite3") == [(FERRAZ, 1, "publicado", ["301/2026"]),
                                                          (TIMOTEO, 1, "publicado", ["32/2026"])]
    refused = {Path(c.arquivo).name: " ".join(c.motivos) for c in result.recusados}
    assert set(refused) == set(BAD_CASES)
    for name, (_text, words) in BAD_CASES.items():
        assert any(w in refused[name] for w in words), (name, refused[name])
        assert "Traceback" not in refused[name]
    _assert_files_match_ledger(out)
    manifest = (out / f"manifesto-editais-{DATA_PUB.isoformat()}.json").read_text(encoding="utf-8")
    for name in BAD_CASES:
        assert name in manifest


def test_bad_cases_with_worker_processes(tmp_path: Path) -> None:
    """The same night through the command line, with two rendering processes: exit 1, not 2."""
    casos = tmp_path / "casos"
    _good_cases(casos, F301, T32)
    for name, (text, _words) in BAD_CASES.items():
        _write(casos, name, text())
    run = _cli_run(casos, tmp_path / "out")
    assert run.returncode == 1, run.stderr
    assert "publicado: edital Nº 1/2026 (timoteo-mg/lei-3844-2022) com 1 caso" in run.stdout
    assert sum(line.startswith("recusado: ") for line in run.stdout.splitlines()) == len(BAD_CASES)


def test_an_unusable_rules_folder_is_an_error_of_the_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--regras", str(tmp_path / "sem-regras"), "publicar-editais", str(CASES),
                                       "--data", "2026-10-06", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2 and "pasta de regras não encontrada" in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "out").exists()


def test_a_case_that_fails_to_render_is_refused_and_its_edital_planned_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A renderer crashing on one case after the number was reserved: that edital (and the one reserved after it)
    is undone and reserved again without the case — same numbers, no gap — and the night goes on."""
    real = jobs.render_case
    bad = case_key(FERRAZ, "301/2026")

    def crashing(eng: jobs.Engine, job: jobs.CaseJob, *args: object) -> tuple[bytes, bytes]:
        if job.caso == bad:
            raise ValueError("All strings must be XML compatible")
        return real(eng, job, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs, "render_case", crashing)
    out = tmp_path / "out"
    result = publish(out, max_por_edital=1)
    assert result.erro is None, result.erro
    assert _ledger_state(out / "livro-editais.sqlite3") == [
        (FERRAZ, 1, "publicado", ["302/2026"]), (TIMOTEO, 1, "publicado", ["31/2026"]),
        (TIMOTEO, 2, "publicado", ["32/2026"])]
    failed = [c for c in result.recusados if c.caso == bad]
    assert len(failed) == 1 and "gerar o edital individual" in failed[0].motivos[0]
    assert "erro interno ao tratar este caso" in failed[0].motivos[0]
    assert "XML compatible" not in failed[0].motivos[0]  # lxml's wording stays in the log
    _assert_files_match_ledger(out)


# --------------------------------------------------------------------------------------------------
# item 3: document numbers


@pytest.mark.parametrize(("numero", "words"), [
    ("３１/2026", "algarismos que não são os comuns 0–9"),  # full-width
    ("٣١/٢٠٢٦", "U+0661"),  # Arabic-Indic
    ("0/2026", "começa em 1"),
    ("31/0000", "ano 0000"),
    ("31-2026", "formato inválido"),
])
def test_invalid_document_numbers_are_refused_at_loading(numero: str, words: str) -> None:
    with pytest.raises(InputError) as err:
        parse_case(_variant(T32, numero), "caso.yaml")
    assert words in err.value.render() and "linha 4" in err.value.render()
    with pytest.raises(InputError, match="começa em 1"):  # the auto a notice refers to, too
        parse_case(T32.read_text(encoding="utf-8") + 'auto:\n  numero: "00/2026"\n', "caso.yaml")


def test_leading_zeros_are_kept_as_typed_and_compared_by_value() -> None:
    case = parse_case(_variant(T32, "031/2026"), "caso.yaml").case
    assert case.numero == "031/2026"  # never rewritten
    assert document_key("031/2026") == document_key("31/2026") == (31, 2026)
    assert case_key(TIMOTEO, "031/2026") == case_key(TIMOTEO, "31/2026") == f"{TIMOTEO}#31/2026"


def test_the_same_auto_is_never_published_twice(tmp_path: Path) -> None:
    casos, out = tmp_path / "casos", tmp_path / "out"
    _write(casos, "a.yaml", _variant(T32, "31/2026"))
    _write(casos, "b.yaml", _variant(T32, "031/2026"))
    first = publish(out, casos=casos)
    assert [Path(c.arquivo).name for c in first.recusados] == ["b.yaml"]  # same night: a repeated file
    assert "também está no arquivo" in first.recusados[0].motivos[0]
    # another night, the first file gone: the auto typed with a zero is recognised as published
    (casos / "a.yaml").unlink()
    second = publish(out, casos=casos, data=date(2026, 10, 20), data_jornal=date(2026, 10, 20))
    assert second.erro is None and second.publicados == []
    assert [Path(c.arquivo).name for c in second.ja_publicados] == ["b.yaml"]
    assert _ledger_state(out / "livro-editais.sqlite3") == [(TIMOTEO, 1, "publicado", ["31/2026"])]


def test_a_ledger_of_an_older_version_with_numbers_as_typed(tmp_path: Path) -> None:
    """Older versions stored the case key as typed (``lei#031/2026``): it is still found by its value, and
    the integrity check reports an auto that got into two editais that way."""
    led = Ledger(tmp_path / "l.sqlite3")

    def reserve(caso: str, codigo: str) -> None:
        led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                    [PlannedCase(1, caso, "31/2026", "a.yaml", "0" * 64, "lei: x")],
                    lambda n: [FileRecord("caderno", f"c{n}.pdf", None, codigo)])

    reserve("x/y#031/2026", "C1")
    led.close()
    led = Ledger(tmp_path / "l.sqlite3")
    found = led.case_edital(case_key("x/y", "31/2026"))
    assert found is not None and found[1].caso == "x/y#031/2026"
    with pytest.raises(LedgerError, match="já está no edital Nº 1/2026"):  # this version refuses it …
        reserve("x/y#31/2026", "C2")
    led.db.execute("INSERT INTO editais (lei, ano, numero, data_publicacao, data_edital, veiculo, estado, saida, "
                   "reservado_em) VALUES ('x/y', 2026, 2, '2026-01-06', '2026-01-06', 'D', 'reservado', '.', "
                   "'2026-01-06T00:00:00+00:00')")
    led.db.execute("INSERT INTO casos VALUES (2, 1, 'x/y#31/2026', '31/2026', 'b.yaml', '', '', '')")
    assert any("mais de um edital" in p for p in led.problems())  # … an older one could do it
    led.close()


def test_a_unique_constraint_failure_is_a_ledger_error_not_an_unexpected_one(tmp_path: Path, where: Where) -> None:
    led = Ledger(where.ledger_loc)

    def reserve(caso: str) -> None:
        led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                    [PlannedCase(1, caso, "1/2026", "a.yaml", "0" * 64, "lei: x")],
                    lambda n: [FileRecord("caderno", f"c{n}.pdf", None, "MESMO-CODIGO")])

    reserve("x/y#1/2026")
    with pytest.raises(LedgerError) as err:
        reserve("x/y#2/2026")  # the same verification code twice: the UNIQUE constraint of the ledger
    assert "recusou a gravação" in err.value.message and "inesperado" not in err.value.render()
    assert [e.numero for e in led.editais()] == [1]
    if where.backend == "sqlite":
        assert not led.db.in_transaction
    led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                [PlannedCase(1, "x/y#3/2026", "3/2026", "a.yaml", "0" * 64, "lei: x")],
                lambda n: [FileRecord("caderno", f"c{n}.pdf", None, "OUTRO-CODIGO")])  # the store is usable after
    assert [e.numero for e in led.editais()] == [1, 2]
    led.close()


# --------------------------------------------------------------------------------------------------
# item 4: conferir trusts only the ledger it is told to trust


def _forged_with_its_own_ledger(tmp_path: Path) -> tuple[Path, Path]:
    """A fake PDF with, next to it, a ledger that registers the fake's hash."""
    folder = tmp_path / "recebido"
    folder.mkdir()
    fake = folder / "caderno.pdf"
    fake.write_bytes(b"%PDF-1.7\n% um arquivo falso\n%%EOF\n")
    sha = hashlib.sha256(fake.read_bytes()).hexdigest()
    led = Ledger(folder / "livro-editais.sqlite3")
    rec = led.reserve(TIMOTEO, date(2026, 10, 6), None, date(2026, 10, 6), "Diário", None, folder,
                      [PlannedCase(1, f"{TIMOTEO}#1/2026", "1/2026", "a.yaml", "0" * 64, "lei: x")],
                      lambda n: [FileRecord("caderno", "caderno.pdf", None, "ABCD-EFGH-JKMN")])
    led.commit(rec.id, {"caderno.pdf": (sha, len(fake.read_bytes()))})
    led.close()
    return fake, folder / "livro-editais.sqlite3"


def test_conferir_never_trusts_a_ledger_found_next_to_the_file(tmp_path: Path) -> None:
    fake, _its_ledger = _forged_with_its_own_ledger(tmp_path)
    official = tmp_path / "oficial" / "livro-editais.sqlite3"
    Ledger(official).close()
    runner = CliRunner()
    alone = runner.invoke(main, ["conferir", str(fake)], env={"AUTOS_LIVRO": None})
    assert alone.exit_code == 2 and "nenhum livro de editais indicado" in alone.output
    assert "CONFERE" not in alone.output
    told = runner.invoke(main, ["conferir", str(fake), "--livro", str(official)])
    assert told.exit_code == 1 and "NÃO CONFERE" in told.output
    assert f"Livro consultado: {official.absolute()} (indicado por --livro)" in told.output
    configured = runner.invoke(main, ["conferir", str(fake)], env={"AUTOS_LIVRO": str(official)})
    assert configured.exit_code == 1 and "indicado por a variável AUTOS_LIVRO" in configured.output


def test_conferir_says_a_damaged_docx_does_not_match(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/footer1.xml", "<w:ftr>Código de verificação: " + "ABCD-EFGH-JKMN " * 200 + "</w:ftr>")
    data = bytearray(buf.getvalue())
    start = data.index(b"word/footer1.xml") + len(b"word/footer1.xml")
    for i in range(start + 10, start + 60):  # corrupt the deflated footer: zlib fails, not only the zip
        data[i] ^= 0x5A
    damaged = tmp_path / "edital.docx"
    damaged.write_bytes(bytes(data))
    ledger = tmp_path / "livro.sqlite3"
    Ledger(ledger).close()
    result = CliRunner().invoke(main, ["conferir", str(damaged), "--livro", str(ledger)])
    assert result.exit_code == 1, result.output
    assert "NÃO CONFERE" in result.output and "não traz código de verificação legível" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --------------------------------------------------------------------------------------------------
# item 6: full disk, read-only ledger, two ledgers on one folder


def test_a_full_ledger_gives_the_real_cause(tmp_path: Path) -> None:
    """SQLite rolls back by itself on SQLITE_FULL; our ROLLBACK must not hide that ("cannot rollback")."""
    led = Ledger(tmp_path / "l.sqlite3")
    pages = led.db.execute("PRAGMA page_count").fetchone()[0]
    led.db.execute(f"PRAGMA max_page_count = {pages}")  # the file cannot grow: SQLite reports a full disk
    with pytest.raises(LedgerError) as err:
        led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                    [PlannedCase(1, "x/y#1/2026", "1/2026", "a.yaml", "0" * 64, "x" * 200_000)],
                    lambda n: [FileRecord("caderno", f"c{n}.pdf", None, "C1")])
    assert "disco cheio" in err.value.message and "nada desta operação foi registrado" in err.value.message
    assert "cannot rollback" not in err.value.render()
    assert led.editais() == [] and not led.db.in_transaction
    led.close()


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A real, small file system (tmpfs of 1 MiB); skipped where this process may not mount one."""
    mnt = tmp_path / "disco"
    mnt.mkdir()
    if sys.platform != "linux":
        pytest.skip("tmpfs: Linux only")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True,
                          text=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"não foi possível montar um tmpfs aqui ({made.stderr.strip()}); precisa de root")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(folder: Path, leave: int = 0) -> None:
    """Fill the file system of ``folder`` until ``leave`` bytes are free (0: until it refuses a write)."""
    fd = os.open(folder / "enchimento", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
            if free <= leave:
                break
            try:
                os.write(fd, b"\0" * min(65536, max(4096, free - leave)))
            except OSError:
                break
    finally:
        os.close(fd)


def test_real_full_disk_under_the_output_folder(tmp_path: Path, small_fs: Path) -> None:
    ledger = tmp_path / "livro.sqlite3"
    _fill(small_fs, leave=96 * 1024)  # room for the run's first files, not for a whole edital
    result = publish(small_fs / "editais", livro=ledger, casos=_two_timoteo(tmp_path))
    assert result.exit_code == 2 and result.erro is not None
    assert "disco cheio" in result.erro.message
    assert _ledger_state(ledger) == []  # the failing edital was undone
    assert not list(small_fs.rglob("*.tmp"))


def test_real_full_disk_under_the_ledger(tmp_path: Path, small_fs: Path) -> None:
    ledger = small_fs / "livro.sqlite3"
    Ledger(ledger).close()
    _fill(small_fs)
    result = publish(tmp_path / "out", livro=ledger, casos=_two_timoteo(tmp_path))
    assert result.exit_code == 2 and result.erro is not None
    text = result.erro.render()
    assert "disco cheio" in text or "criar o seu diário" in text, text
    assert "cannot rollback" not in text and "inesperado" not in text
    (small_fs / "enchimento").unlink()
    assert _ledger_state(ledger) == []


def test_a_full_disk_leaves_no_temporary_file_of_the_manifest_the_probe_or_the_web_key(tmp_path: Path,
                                                                                       small_fs: Path) -> None:
    """Every writer of the night (and the web application's key) on a really full disk: the write fails with the
    cause in Portuguese and nothing part-written stays behind — the manifest's JSON and CSV, the probe of the
    output folder, the folder's ledger marker, the secret key of autos servir."""
    ledger = Ledger(tmp_path / "l.sqlite3")
    folder = small_fs / "editais"
    folder.mkdir()
    _fill(small_fs)
    result = PublishResult(data=DATA_PUB, recusados=[CaseProblem("casos/a.yaml", None, ["x" * 8192])])
    with pytest.raises(OSError):
        write_manifest(ledger, DATA_PUB, result, folder)
    ledger.close()
    with pytest.raises(OutputError) as err:
        editais_folder._ensure_writable(folder)
    assert "disco cheio" in err.value.message
    with pytest.raises(OutputError):
        editais_folder._claim_folder(folder, tmp_path / "l.sqlite3", write=True)
    with pytest.raises(InputError) as err:
        load_secret(small_fs / "chave-web")
    assert "disco cheio" in err.value.message
    assert sorted(p.name for p in small_fs.rglob("*") if p.name != "enchimento") == ["editais"]


@pytest.mark.parametrize("failing", [1, 2])
def test_a_manifest_that_cannot_be_put_in_place_leaves_no_temporary_file(tmp_path: Path, failing: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON's or the CSV's fsync fails (a full disk, an I/O error): neither temporary file survives."""
    calls = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == failing:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr("autos.app.editais.manifest.os.fsync", fsync)
    ledger = Ledger(tmp_path / "l.sqlite3")
    out = tmp_path / "editais"
    out.mkdir()
    with pytest.raises(OSError):
        write_manifest(ledger, DATA_PUB, PublishResult(data=DATA_PUB), out)
    ledger.close()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")], sorted(out.iterdir())


def test_a_folder_marker_that_cannot_be_renamed_leaves_no_temporary_file(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def refuse(src: Path, dst: Path) -> None:  # the marker's rename fails (the temporary file was written)
        if Path(dst).name == editais_folder.FOLDER_LEDGER_NAME:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(src, dst)

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError) as err:
        editais_folder._claim_folder(tmp_path, tmp_path / "l.sqlite3", write=True)
    assert "erro de entrada e saída do disco" in err.value.message
    assert list(tmp_path.iterdir()) == []


def test_read_only_ledger(tmp_path: Path, small_fs: Path) -> None:
    ledger = small_fs / "livro.sqlite3"
    Ledger(ledger).close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    result = publish(tmp_path / "out", livro=ledger, casos=_two_timoteo(tmp_path))
    assert result.exit_code == 2 and result.erro is not None
    text = result.erro.render()
    assert "somente para leitura" in text, text
    assert "cannot rollback" not in text and "inesperado" not in text


def _two_timoteo(tmp_path: Path) -> Path:
    casos = tmp_path / "casos"
    _good_cases(casos, T31, T32)
    return casos


def test_two_ledgers_on_one_output_folder_are_refused(tmp_path: Path) -> None:
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    assert publish(out, casos=casos).exit_code == 0
    other = tmp_path / "outro-livro.sqlite3"
    second = publish(out, casos=casos, livro=other, data=date(2026, 10, 20), data_jornal=date(2026, 10, 20))
    assert second.exit_code == 2 and second.erro is not None
    assert "a pasta de saída é do livro" in second.erro.message
    assert _ledger_state(other) == []
    _assert_files_match_ledger(out)  # nothing of the first ledger's editais was overwritten


def test_a_second_run_on_the_same_folder_with_another_ledger_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    holder = RunLock(out / FOLDER_LOCK_NAME)
    assert holder.acquire()
    try:
        result = publish(out, casos=_two_timoteo(tmp_path), livro=tmp_path / "outro.sqlite3")
    finally:
        holder.release()
    assert result.exit_code == 2 and result.erro is not None
    assert "outra execução está publicando editais nesta pasta" in result.erro.message


def test_existing_files_of_another_ledger_are_never_overwritten(tmp_path: Path) -> None:
    """Even without the folder's record (deleted, or an older version): a new number whose files exist."""
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    assert publish(out, casos=casos).exit_code == 0
    (out / editais_folder.FOLDER_LEDGER_NAME).unlink()
    before = {p: p.read_bytes() for p in out.rglob("*.pdf")}
    other = tmp_path / "outro-livro.sqlite3"
    second = publish(out, casos=casos, livro=other)
    assert second.exit_code == 2 and second.erro is not None
    assert "por cima de arquivos que já existem" in second.erro.message
    assert {p: p.read_bytes() for p in out.rglob("*.pdf")} == before
    assert _ledger_state(other) == []


# --------------------------------------------------------------------------------------------------
# item 7: the manifest CSV


def test_manifest_csv_neutralises_formulas(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.sqlite3")
    result = PublishResult(data=DATA_PUB, recusados=[
        CaseProblem("=HYPERLINK(\"http://x\")", "+cmd|' /C calc'!A0", ["-2+3", "@SUM(A1)"]),
        CaseProblem("\tcaso.yaml", None, ["\rlinha"]),
        CaseProblem("casos/normal.yaml", "lei#1/2026", ["motivo comum - com hífen"]),
    ])
    paths = write_manifest(ledger, DATA_PUB, result, tmp_path)
    ledger.close()
    rows = spreadsheet_rows(paths[1].read_bytes(), MANIFEST_CSV_FIELDS)  # as a pt-BR spreadsheet reads it
    assert [r["arquivo_caso"] for r in rows] == ["'=HYPERLINK(\"http://x\")", "'\tcaso.yaml", "casos/normal.yaml"]
    assert rows[0]["caso"] == "'+cmd|' /C calc'!A0" and rows[0]["motivos"] == "'-2+3 | @SUM(A1)"
    assert rows[1]["motivos"] == "'\rlinha" and rows[2]["motivos"] == "motivo comum - com hífen"
    for row in rows:
        for cell in row.values():
            assert not (cell or "").startswith(("=", "+", "-", "@", "\t", "\r"))
    listed = paths[0].read_text(encoding="utf-8")  # the JSON keeps the exact values
    assert '"arquivo": "=HYPERLINK(\\"http://x\\")"' in listed


# --------------------------------------------------------------------------------------------------
# item 1: the runbook's drills — kill -9 of the main process alone, of the group, and SIGTERM


def _cli_args(casos: Path, out: Path, workers: int = 2) -> list[str]:
    return [sys.executable, "-m", "autos.cli", "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
            "--hoje", TODAY.isoformat(), "publicar-editais", str(casos), "--data", DATA_PUB.isoformat(),
            "--data-jornal", DATA_JORNAL.isoformat(), "--jornal", "Jornal Diário do Aço", "-o", str(out),
            "--processos", str(workers)]


def _env(fault: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(FAULT_ENV, None)
    env.pop("AUTOS_LIVRO", None)
    if fault:
        env[FAULT_ENV] = fault
    return env


def _cli_run(casos: Path, out: Path, fault: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli_args(casos, out), capture_output=True, text=True, env=_env(fault), timeout=180,
                          check=False)


def _start(casos: Path, out: Path, fault: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(_cli_args(casos, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(fault), start_new_session=True)  # its own process group: pgid == pid
    return proc


def _recovers(casos: Path, out: Path) -> None:
    """The next run (in this process, to keep the drills short) starts, finishes or redoes the edital."""
    again = publish(out, casos=casos)
    assert again.exit_code == 0, again.erro
    assert _ledger_state(out / "livro-editais.sqlite3") == [(TIMOTEO, 1, "publicado", ["31/2026", "32/2026"])]
    _assert_files_match_ledger(out)


linux_only = pytest.mark.skipif(sys.platform != "linux", reason="drills read /proc (Linux)")


@linux_only
def test_kill_9_of_the_main_process_alone_takes_the_workers_and_the_lock_with_it(tmp_path: Path) -> None:
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    proc = _start(casos, out, "reserva:1")  # the main process SIGKILLs itself after reserving, workers rendering
    proc.communicate(timeout=180)
    assert proc.returncode == -signal.SIGKILL
    until(lambda: not group(proc.pid), "os processos de renderização terminarem depois do principal", 30)
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert [e.estado for e in led.editais()] == ["reservado"]
    _recovers(casos, out)


@linux_only
def test_kill_9_of_the_processgroup(tmp_path: Path) -> None:
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    proc = _start(casos, out, "reserva:1:parar")  # stops itself (SIGSTOP) after reserving
    until(lambda: state(proc.pid) == "T", "a execução chegar à reserva")
    assert len(group(proc.pid)) > 1  # the workers are alive
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    until(lambda: not group(proc.pid), "o grupo terminar", 30)
    _recovers(casos, out)


@linux_only
@pytest.mark.parametrize("to_group", [False, True], ids=["principal", "grupo"])
def test_sigterm_stops_the_run_and_undoes_the_edital_in_progress(tmp_path: Path, to_group: bool) -> None:
    """systemd's stop: SIGTERM to the main process (KillMode=mixed) or to every process (control-group)."""
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    proc = _start(casos, out, "reserva:1:parar")
    until(lambda: state(proc.pid) == "T", "a execução chegar à reserva")
    workers = group(proc.pid) - {proc.pid}
    assert workers
    if to_group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    os.kill(proc.pid, signal.SIGCONT)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 2, stderr
    assert "publicação interrompida" in stderr
    until(lambda: not (group(proc.pid) & workers), "os processos de renderização terminarem", 30)
    assert _ledger_state(out / "livro-editais.sqlite3") == []  # the reserved edital was undone
    assert not [p for p in out.rglob("*") if p.is_file() and p.parent != out]
    _recovers(casos, out)


def test_a_refused_write_gives_the_cause_without_mounting_anything(tmp_path: Path) -> None:
    """A write SQLite refuses (``query_only``: as a read-only file does) is a LedgerError naming the ledger
    and the cause in Portuguese — the same path as a read-only mount, here on any machine."""
    path = tmp_path / "l.sqlite3"
    led = Ledger(path)
    led.db.execute("PRAGMA query_only = ON")
    with pytest.raises(LedgerError) as err:
        led.reserve("x/y", date(2026, 1, 5), None, date(2026, 1, 5), "Diário", None, tmp_path,
                    [PlannedCase(1, "x/y#1/2026", "1/2026", "a.yaml", "0" * 64, "lei: x")],
                    lambda n: [FileRecord("caderno", f"c{n}.pdf", None, "C1")])
    assert str(path) in err.value.render() and "somente para leitura" in err.value.message
    assert "nada desta operação foi registrado" in err.value.message and not led.db.in_transaction
    led.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork: POSIX only")
def test_a_forked_child_does_not_keep_the_run_lock(tmp_path: Path) -> None:
    """A worker forked while the run holds its lock closes its copy at once: the lock goes with the main
    process, even while the child lives on (flock belongs to the open file, which the child shares)."""
    lock = RunLock(tmp_path / "x.lock")
    assert lock.acquire()
    read_end, write_end = os.pipe()
    ready_read, ready_write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child says it is running (fork's hooks have run), then waits
        os.close(write_end)
        os.write(ready_write, b"1")
        os.read(read_end, 1)
        os._exit(0)
    os.close(read_end)
    os.close(ready_write)
    assert os.read(ready_read, 1) == b"1"
    os.close(ready_read)
    try:
        lock.release()  # as the death of the main process does
        again = RunLock(tmp_path / "x.lock")
        assert again.acquire(), "the forked child still holds the lock"
        again.release()
    finally:
        os.close(write_end)
        os.waitpid(child, 0)
