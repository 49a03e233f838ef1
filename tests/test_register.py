"""The register: the index rebuilt from the files, numbers reserved without gaps or
duplicates by concurrent clerks, the numbers checked by ``autos validar``, documents never silently replaced
by ``autos gerar`` and looked up by ``autos conferir``."""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main
from autos.errors import RegisterError, ReplaceRefusedError
from autos.store.register import Register, normalize_document

from .conftest import CASOS, DATA, ROOT, SAMPLES, Where
from .register_clerk import clerk

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]
TIM = "timoteo-mg/lei-3844-2022"
SAMPLE = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
AUTOS = [sys.executable, "-m", "autos.cli"]


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args], env=env)
    return result.exit_code, result.output


def processo(folder: Path, name: str, *, numero: str = "SIM-2026/000171", auto: str = "21/2026",
             cpf: str = "472.069.318-04", fatos: str | None = None) -> Path:
    """A copy of a Timóteo sample processo with another processo number, auto number or CPF."""
    text = SAMPLE.read_text(encoding="utf-8")
    text = text.replace("numero: SIM-2026/000171", f"numero: {numero}").replace('numero: "21/2026"',
                                                                                f'numero: "{auto}"')
    text = text.replace('referente: "21/2026"', f'referente: "{auto}"').replace('"472.069.318-04"', f'"{cpf}"')
    if fatos is not None:
        text, n = re.subn(r"^fatos: >-\n(?:  .*\n)+", f"fatos: {fatos}\n", text, count=1, flags=re.M)
        assert n == 1
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


# --------------------------------------------------------------------------------------------------
# the index and its rebuild


def test_rebuild_indexes_every_processo_and_says_what_differs(tmp_path: Path, where: Where) -> None:
    folder = tmp_path / "processos"
    where = where.at(folder)
    shutil.copytree(SAMPLES / "processos", folder)
    code, out = run("registro", "reconstruir", str(folder), *where.registro)
    assert code == 0, out
    n = len(list(folder.rglob("*.yaml")))
    assert n >= 9 and f"{n} processos indexados" in out
    assert out.count("novo: ") == n
    with Register.open(where.loc, readonly=True) as reg:
        indexed = reg.indexed()
        assert set(indexed) == {where.stored(p) for p in folder.rglob("*.yaml")}
        # the autuado of a PJ by its CNPJ digits, typed with dots, slash and dash in the file
        assert "SIM-2026/000150" in [r[2] for r in reg.processos_of("61274039000191")]
        # acts with N/AAAA numbers are indexed by (N, AAAA); others (DEC-5/2026) by their text only
        assert reg.users(TIM, "auto", 2026, 10) == [
            (where.stored(folder / "timoteo-mg/sim-2026-000150-recurso-pago.yaml"), "SIM-2026/000150", 1)]
    code, out = run("registro", "reconstruir", str(folder), *where.registro)
    assert code == 0 and "sem diferenças" in out

    # changed, moved (renamed), removed, new: each said; a reservation follows the moved file
    with Register.open(where.loc) as reg:
        reg.reserve(TIM, "julgamento", 2026, processo="SIM-2026/000171",
                    arquivo=where.stored(folder / "timoteo-mg/sim-2026-000171-sem-defesa.yaml"))
    tim = folder / "timoteo-mg"

    def at(name: str) -> str:
        return where.stored(tim / name)

    (tim / "sim-2026-000171-sem-defesa.yaml").rename(tim / "renomeado.yaml")
    (tim / "sim-2026-000180-interdicao.yaml").unlink()
    text = (tim / "sim-2026-000150-recurso-pago.yaml").read_text(encoding="utf-8")
    (tim / "sim-2026-000150-recurso-pago.yaml").write_text(text + "\nobservacoes: revisto\n", encoding="utf-8")
    processo(tim, "novo.yaml", numero="SIM-2026/000999", auto="30/2026")
    code, out = run("registro", "reconstruir", str(folder), *where.registro)
    assert code == 0, out
    assert f"movido: {at('sim-2026-000171-sem-defesa.yaml')} → {at('renomeado.yaml')}" in out
    assert f"removido: {at('sim-2026-000180-interdicao.yaml')}" in out
    assert f"alterado: {at('sim-2026-000150-recurso-pago.yaml')}" in out
    assert f"novo: {at('novo.yaml')}" in out
    with Register.open(where.loc, readonly=True) as reg:
        (r,) = reg.reservations()
        assert r.arquivo == at("renomeado.yaml")


def test_rebuild_lists_an_unreadable_file_and_indexes_the_others(tmp_path: Path) -> None:
    processo(tmp_path, "bom.yaml")
    bad = processo(tmp_path, "cpf-errado.yaml", numero="SIM-2026/000200", auto="40/2026", cpf="123.456.789-00")
    code, out = run("registro", "reconstruir", str(tmp_path))
    assert code == 2
    assert "1 processo indexado" in out
    assert f"ilegível (fora do índice): {bad}" in out and "CPF" in out


@pytest.mark.parametrize("typed", ["251.983.460-98", "25198346098", " 251.983.460-98 "])
def test_cpf_with_or_without_dots_is_the_same_person(tmp_path: Path, typed: str, where: Where) -> None:
    processo(tmp_path, "a.yaml", numero="P-1", auto="1/2026", cpf="251.983.460-98")
    processo(tmp_path, "b.yaml", numero="P-2", auto="2/2026", cpf="25198346098")
    assert run("registro", "reconstruir", str(tmp_path), *where.registro)[0] == 0
    code, out = run("registro", "autuado", typed, *where.registro)
    assert code == 0, out
    assert "processo P-1" in out and "processo P-2" in out
    assert normalize_document(typed) == "25198346098"


# --------------------------------------------------------------------------------------------------
# bad registers and bad input, each with the words its error must contain


def _prepare(kind: str, path: Path, holders: list[subprocess.Popen[str]]) -> None:
    if kind == "bytes que não são SQLite":
        path.write_bytes(b"isto nao e um banco\x00" * 300)
    elif kind == "banco SQLite com tabelas de outro programa":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE clientes (id INTEGER)")
        db.commit()
        db.close()
    elif kind == "um livro de editais no lugar do registro":
        from autos.store.ledger import Ledger

        Ledger(path).close()
    elif kind == "registro de uma versão futura":
        Register.open(path, create=True).close()
        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version = 99")
        db.commit()
        db.close()
    elif kind == "outro processo segura a trava":
        Register.open(path, create=True).close()
        holder = subprocess.Popen(
            [sys.executable, "-c", "import sys, time; from filelock import FileLock; "
             "lock = FileLock(sys.argv[1]); lock.acquire(); print('ok', flush=True); time.sleep(60)",
             str(path) + ".lock"], stdout=subprocess.PIPE, text=True)
        holders.append(holder)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
    elif kind == "caminho dado que não existe":
        pass
    else:
        Register.open(path, create=True).close()


EXPECTATIONS = yaml.safe_load((DATA / "register" / "expectations.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", EXPECTATIONS, ids=[c["nome"] for c in EXPECTATIONS])
def test_bad_register_errors_say_what_and_how(tmp_path: Path, case: dict[str, Any]) -> None:
    path = tmp_path / "registro.sqlite3"
    holders: list[subprocess.Popen[str]] = []
    before = path.read_bytes() if path.exists() else None
    try:
        _prepare(case["estado"], path, holders)
        before = path.read_bytes() if path.exists() else None
        reg = ["--registro", str(path)]
        env = {"AUTOS_REGISTRO_ESPERA": "0.3"}
        if case["comando"] == "numerar":
            code, out = run("numerar", TIM, "--ato", "auto", *reg, env=env)
        elif case["comando"] == "validar":
            code, out = run("validar", str(processo(tmp_path, "p.yaml")), *reg, env=env)
        elif case["comando"] == "autuado":
            code, out = run("registro", "autuado", "123.456.789-00", *reg, env=env)
        elif case["comando"] == "cancelar":
            code, out = run("numerar", TIM, "--ato", "auto", "--cancelar", "1/2026", "--motivo", " ", *reg, env=env)
        else:
            code, out = run("numerar", TIM, "--ato", "auto", "--cancelar", "7/2026", "--motivo", "x", *reg, env=env)
    finally:
        for h in holders:
            h.kill()
            h.wait()
    assert code == 2, out
    folded = out.casefold()
    for word in case["palavras"]:
        assert word.casefold() in folded, (word, out)
    assert "Traceback" not in out
    if case["nome"] != "inexistente" and before is not None:
        assert path.read_bytes() == before  # nothing written, nothing lost
    else:
        assert not path.exists()


# --------------------------------------------------------------------------------------------------
# numbering


def test_numerar_reserves_after_the_largest_number_in_use_and_cancels_with_reason(tmp_path: Path,
                                                                                 where: Where) -> None:
    processo(tmp_path, "p.yaml")  # auto 21/2026 typed by hand before the register
    reg = where.registro
    assert run("registro", "reconstruir", str(tmp_path), *reg)[0] == 0
    assert run("numerar", TIM, "--ato", "auto", "--ano", "2026", *reg) == (0, f"reservado: auto nº 22/2026 ({TIM})\n")
    assert run("numerar", TIM, "--ato", "auto", *reg)[1].startswith("reservado: auto nº 23/2026")  # --hoje's year
    assert run("numerar", TIM, "--ato", "auto", "--ano", "2027", *reg)[1].startswith("reservado: auto nº 1/2027")
    assert run("numerar", TIM, "--ato", "julgamento", *reg)[1].startswith("reservado: julgamento nº 1/2026")
    code, out = run("numerar", TIM, "--ato", "auto", "--cancelar", "22/2026", "--motivo", "auto lavrado em papel", *reg)
    assert code == 0 and "cancelado: auto nº 22/2026" in out and "auto lavrado em papel" in out
    # without LEI and --ato: the only series that reserved the number
    assert run("numerar", TIM, "--ato", "julgamento", *reg)[1].startswith("reservado: julgamento nº 2/2026")
    code, out = run("numerar", "--cancelar", "2/2026", "--motivo", "decisão não proferida", *reg)
    assert code == 0 and f"cancelado: julgamento nº 2/2026 ({TIM})" in out
    # 1/2026 of this law's autos was never reserved here (the files used 1..21): the julgamento's is the one
    code, out = run("numerar", "--cancelar", "1/2026", "--motivo", "x", *reg)
    assert code == 0 and "cancelado: julgamento nº 1/2026" in out
    with Register.open(where.loc) as r:
        r.reserve("cuiaba-mt/lei-3666-1997", "auto", 2026)
        r.reserve("cuiaba-mt/lei-3666-1997", "auto", 2026)
    code, out = run("numerar", "--cancelar", "2/2026", "--motivo", "x", *reg)  # julgamento 2/2026 is cancelled already
    assert code == 0 and "cancelado: auto nº 2/2026 (cuiaba-mt/lei-3666-1997)" in out
    with Register.open(where.loc) as r:
        r.reserve("cuiaba-mt/lei-3666-1997", "julgamento", 2026)
    code, out = run("numerar", "--cancelar", "1/2026", "--motivo", "x", *reg)
    assert code == 2 and "mais de uma série" in out and "--ato" in out
    code, out = run("numerar", *reg)
    assert code == 2 and "informe a lei e o tipo de ato" in out
    code, out = run("numerar", "--cancelar", "2/2026", "--motivo", "x", *reg)
    assert code == 2 and "já foi cancelado" in out
    # cancelled stays: the next number is still 24, and the list shows the reason
    assert run("numerar", TIM, "--ato", "auto", *reg)[1].startswith("reservado: auto nº 24/2026")
    code, out = run("registro", "numeros", *reg)
    assert "auto nº 22/2026: cancelado" in out and "auto lavrado em papel" in out
    # a number in use is not cancelled (it names the processo file)
    code, out = run("numerar", TIM, "--ato", "auto", "--cancelar", "21/2026", "--motivo", "x", *reg)
    assert code == 2 and "não foi reservado" in out
    with Register.open(where.loc) as r:
        r.reserve(TIM, "auto", 2025, processo="SIM-2026/000171")
    code, out = run("numerar", TIM, "--ato", "auto", "--ano", "2026", "--cancelar", "22/2026", "--motivo", "x", *reg)
    assert code == 2 and "já foi cancelado" in out
    # an act kind the law does not have, a law without a rite
    code, out = run("numerar", TIM, "--ato", "sentenca", *reg)
    assert code == 2 and "não prevê o ato 'sentenca'" in out and "notificacao_ar" in out
    code, out = run("numerar", "nenhuma/lei", "--ato", "auto", *reg)
    assert code == 2 and "sem regras de processo" in out


def test_concurrent_clerks_get_no_duplicate_and_no_gap(tmp_path: Path, where: Where) -> None:
    """Eight processes (SQLite, one machine) or four (PostgreSQL, as four machines would: 50 numbers each)
    reserve, and some cancel, at once: every number from 1 to the total is given exactly once, and the register
    holds exactly those, the cancelled ones with their reason."""
    path = where.loc
    Register.open(path, create=True).close()
    flag = tmp_path / "start"
    clerks, each = (8, 15) if where.backend == "sqlite" else (4, 50)
    ctx = multiprocessing.get_context("spawn")  # fresh interpreters: nothing shared but the file
    with ctx.Pool(clerks) as pool:
        pending = pool.map_async(clerk, [(getattr(path, "url", str(path)), each, c, str(flag))
                                         for c in range(clerks)])
        time.sleep(0.5)
        flag.touch()
        results = pending.get(timeout=300)
    given = [n for r in results for n, _ in r]
    assert len(given) == clerks * each
    assert sorted(given) == list(range(1, clerks * each + 1))  # no duplicate, no gap
    with Register.open(path, readonly=True) as reg:
        rows = reg.reservations()
    assert [r.numero for r in rows] == list(range(1, clerks * each + 1))
    expected = {n: state for r in results for n, state in r}
    assert {r.numero: r.estado for r in rows} == expected
    assert all(r.motivo and r.motivo.startswith("abandonado") for r in rows if r.estado == "cancelado")
    # each clerk's own numbers went up (a clerk never got a number below one it had already)
    for r in results:
        assert [n for n, _ in r] == sorted(n for n, _ in r)


def test_concurrent_numerar_commands(tmp_path: Path, where: Where) -> None:
    """Eight ``autos numerar`` commands started at once (real processes, the command line as a clerk runs it)."""
    Register.open(where.loc, create=True).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    procs = [subprocess.Popen([*AUTOS, *BASE, "numerar", TIM, "--ato", "auto", *where.registro],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(8)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    got = sorted(int(o.split("nº ")[1].split("/")[0]) for o, _ in outs)
    assert got == list(range(1, 9))


def test_novo_reservar_writes_the_reserved_number(tmp_path: Path, where: Where) -> None:
    Register.open(where.loc, create=True).close()
    given = where.registro if where.backend != "sqlite" else []  # SQLite: the register found beside the file
    args = ["novo", TIM, "--infracao", "inobservancia-normas-sanitarias", "--reservar", *given]
    code, out = run(*args, "--numero", "SIM-2026/000300", "-o", str(tmp_path / "a.yaml"))
    assert code == 0, out
    assert "reservado: auto nº 1/2026" in out
    assert yaml.safe_load((tmp_path / "a.yaml").read_text(encoding="utf-8"))["atos"][0]["numero"] == "1/2026"
    code, out = run(*args, "--numero", "SIM-2026/000301", "-o", str(tmp_path / "b.yaml"))
    assert code == 0 and "1/2026" not in out and "2/2026" in out
    # an existing file: refused before anything is reserved
    code, out = run(*args, "--numero", "SIM-2026/000302", "-o", str(tmp_path / "b.yaml"))
    assert code == 2 and "nada foi gravado nem reservado" in out
    # an unknown infraction: nothing reserved either
    code, out = run("novo", TIM, "--infracao", "nao-existe", "--reservar", "--numero", "X", "-o",
                    str(tmp_path / "c.yaml"), *given)
    assert code == 2 and not (tmp_path / "c.yaml").exists()
    with Register.open(where.loc, readonly=True) as reg:
        assert [(r.rotulo, r.processo, r.arquivo) for r in reg.reservations()] == [
            ("1/2026", "SIM-2026/000300", where.stored(tmp_path / "a.yaml")),
            ("2/2026", "SIM-2026/000301", where.stored(tmp_path / "b.yaml"))]
    # --numero alone still works, without a register
    code, out = run("novo", TIM, "--infracao", "inobservancia-normas-sanitarias", "--numero", "X-1", "-o",
                    str(tmp_path / "sem" / "d.yaml"))
    assert code == 0 and "reservado" not in out
    # --reservar without a register: the error says how to create one
    elsewhere = tmp_path.parent / (tmp_path.name + "-sem-registro")
    elsewhere.mkdir()
    code, out = run(*args[:5], "--numero", "X-2", "-o", str(elsewhere / "e.yaml"), env={"AUTOS_BANCO": ""})
    assert code == 2 and "nenhum registro" in out and "autos registro reconstruir" in out


# --------------------------------------------------------------------------------------------------
# autos validar against the register


VALIDAR = [
    # (name, how the register is prepared, the processo checked, code, words naming both files)
    ("reservado-para-outro", "reserve-other", {"numero": "P-9", "auto": "1/2026"}, "REG-NUMERO-DE-OUTRO",
     ["reservado para o processo P-OUTRO", "outro.yaml", "p.yaml"]),
    ("usado-por-outro", "index-twin", {"numero": "P-9", "auto": "5/2026"}, "REG-NUMERO-REPETIDO",
     ["já está no processo P-GEMEO", "gemeo.yaml", "p.yaml"]),
    ("nao-e-o-reservado", "reserve-mine", {"numero": "P-9", "auto": "3/2026"}, "REG-NUMERO-NAO-RESERVADO",
     ["o número reservado para o auto deste processo (P-9) é 1/2026", "traz 3/2026", "p.yaml"]),
    ("processo-repetido", "index-same-processo", {"numero": "P-9", "auto": "8/2026"}, "REG-PROCESSO-REPETIDO",
     ["o processo P-9", "já está no registro em outro arquivo", "copia.yaml", "p.yaml"]),
    ("cancelado", "reserve-cancel", {"numero": "P-9", "auto": "1/2026"}, "REG-NUMERO-CANCELADO",
     ["foi cancelado", "auto lavrado em papel"]),
]


@pytest.mark.parametrize(("name", "setup", "fields", "code", "words"), VALIDAR, ids=[v[0] for v in VALIDAR])
def test_validar_checks_numbers_against_the_register(tmp_path: Path, name: str, setup: str, fields: dict[str, str],
                                                     code: str, words: list[str], where: Where) -> None:
    mine = processo(tmp_path, "p.yaml", **fields)
    exit_before, out_before = run("validar", str(mine))  # no register: as before
    assert exit_before == 0 and "REG-" not in out_before, out_before
    path = where.loc
    found = [] if where.backend == "sqlite" else where.registro  # SQLite: the register found beside the file
    with Register.open(path, create=True) as reg:
        if setup == "reserve-other":
            reg.reserve(TIM, "auto", 2026, processo="P-OUTRO", arquivo=where.stored(tmp_path / "outro.yaml"))
        elif setup == "reserve-mine":
            reg.reserve(TIM, "auto", 2026, processo="P-9", arquivo=where.stored(tmp_path / "p.yaml"))
        elif setup == "reserve-cancel":
            r = reg.reserve(TIM, "auto", 2026)
            reg.cancel(TIM, "auto", r.numero, 2026, "auto lavrado em papel")
    if setup == "index-same-processo":
        processo(tmp_path / "outra", "copia.yaml", numero="P-9", auto="9/2026")
        assert run("registro", "reconstruir", str(tmp_path), *where.registro)[0] == 0
    if setup == "index-twin":
        processo(tmp_path / "outra", "gemeo.yaml", numero="P-GEMEO", auto="5/2026")
        assert run("registro", "reconstruir", str(tmp_path), *where.registro)[0] == 0
    exit_code, out = run("validar", str(mine), *found)
    assert exit_code == 1, out
    assert re.search(rf"\[ERRO · [^]]+\] {code}\b", out), out
    for w in words:
        assert w in out, (w, out)
    lines = mine.read_text(encoding="utf-8").splitlines()
    if code == "REG-PROCESSO-REPETIDO":  # the processo's number, at its line
        assert "campo 'numero'" in out and f"linha {lines.index('numero: P-9') + 1}" in out
    else:  # the auto's number, at its line
        line = next(n for n, x in enumerate(lines) if x.startswith("    numero: ")) + 1
        assert "atos[0].numero" in out and f"linha {line}" in out
    # the same with --registro given, and --json carries the finding
    exit_code, out = run("validar", str(mine), *where.registro, "--json")
    assert exit_code == 1 and code in out


def test_validar_a_processo_with_its_reserved_number_passes(tmp_path: Path) -> None:
    mine = processo(tmp_path, "p.yaml", numero="P-9", auto="1/2026")
    with Register.open(tmp_path / "registro.sqlite3", create=True) as reg:
        reg.reserve(TIM, "auto", 2026, processo="P-9", arquivo="p.yaml")
    assert run("registro", "reconstruir", str(tmp_path))[0] == 0  # indexed: its own number is not "another's"
    code, out = run("validar", str(mine))
    assert code == 0, out
    assert "REG-" not in out
    # moved without a rebuild: a warning that says to rebuild, not an error
    moved = tmp_path / "sub" / "p.yaml"
    moved.parent.mkdir()
    mine.rename(moved)
    code, out = run("validar", str(moved))
    assert code == 0 and "REG-INDICE-DESATUALIZADO" in out and "autos registro reconstruir" in out


# --------------------------------------------------------------------------------------------------
# autos gerar: nothing silently replaced; autos conferir


def test_a_version_replaced_within_its_second_is_stamped_after_it(tmp_path: Path) -> None:
    """The register orders the versions of a document by their stamp ('conferir' says an older copy "foi
    substituído depois"): a replacement made in the same second as the version it replaces (here: the same fixed
    clock) is stamped one second after it, not with the same stamp."""
    from datetime import datetime, timedelta, timezone

    from autos.app.generation.pipeline import Autos

    folder = tmp_path / "processos"
    mine = processo(folder, "p.yaml")
    out = tmp_path / "saida"
    issued = datetime(2026, 12, 1, 7, 30, 12, tzinfo=timezone(timedelta(hours=-3)))
    autos = Autos()
    [(_, first)] = autos.generate_processo(mine, out, "pdf", ato=1, now=issued)
    assert not isinstance(first, Exception) and first.stamp == issued
    processo(folder, "p.yaml", fatos="Venda de linguiça sem rótulo (texto corrigido).")
    [(_, second)] = autos.generate_processo(mine, out, "pdf", ato=1, now=issued, replace=True,
                                            stamp_of=lambda _path: issued)
    assert not isinstance(second, Exception) and not second.unchanged
    assert second.stamp == issued + timedelta(seconds=1)


def test_gerar_never_replaces_a_different_document(tmp_path: Path, where: Where) -> None:
    folder = tmp_path / "processos"
    where = where.at(folder)
    mine = processo(folder, "p.yaml")
    assert run("registro", "reconstruir", str(folder), *where.registro)[0] == 0
    out_dir = tmp_path / "saida"
    found = [] if where.backend == "sqlite" else where.registro  # SQLite: the register found beside the file
    gen = ["gerar", str(mine), "--ato", "1", "--formato", "pdf", "-o", str(out_dir), *found]
    pdf = out_dir / "auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.pdf"
    code, out = run(*gen)
    assert code == 0 and f"gerado: {pdf}" in out
    first = pdf.read_bytes()
    # again, unchanged processo: the register's "gerado em" is reused, the bytes are identical, nothing written
    code, out = run(*gen)
    assert code == 0 and f"inalterado (idêntico ao já gravado): {pdf}" in out
    assert pdf.read_bytes() == first
    # the processo changed: the document differs and is not replaced
    processo(folder, "p.yaml", fatos="Venda de linguiça sem rótulo (texto corrigido).")
    code, out = run(*gen)
    assert code == 1, out
    assert str(pdf) in out and "conteúdo diferente" in out and "--substituir" in out and "nada foi gravado" in out
    assert pdf.read_bytes() == first
    # --substituir: replaced, and the register keeps both versions
    code, out = run(*gen, "--substituir")
    assert code == 0 and f"gerado: {pdf}" in out
    assert pdf.read_bytes() != first
    old = tmp_path / "copia-antiga.pdf"
    old.write_bytes(first)
    reg = where.registro
    code, out = run("conferir", str(old), *reg)
    assert code == 0 and "CONFERE: auto_de_infracao do ato 1 do processo SIM-2026/000171" in out
    assert "foi substituído depois" in out and "versão anterior" in out
    code, out = run("conferir", str(pdf), *reg)
    assert code == 0 and "CONFERE" in out and "substituído" not in out
    old.write_bytes(first + b"\n% alterado")
    code, out = run("conferir", str(old), *reg)
    assert code == 1 and "NÃO CONFERE" in out
    with Register.open(where.loc, readonly=True) as r:
        docs = r.documents_at(where.stored(pdf))
        assert len(docs) == 2 and {d.processo for d in docs} == {"SIM-2026/000171"}
        assert all(d.arquivo == where.stored(mine) and d.ato == 1 and d.documento == "auto_de_infracao"
                   for d in docs)


def test_generate_case_file_same_bytes_is_a_no_op_different_is_refused(autos: Any, tmp_path: Path) -> None:
    from datetime import datetime

    case = CASOS / "timoteo-mg" / "auto-pj-completo.yaml"
    when = datetime(2026, 11, 29, 10, 0)
    first = autos.generate(case, tmp_path, "pdf", now=when)
    assert first.unchanged == []
    again = autos.generate(case, tmp_path, "pdf", now=when)
    assert again.unchanged == again.files
    (target,) = first.files
    before = target.read_bytes()
    with pytest.raises(ReplaceRefusedError) as err:
        autos.generate(case, tmp_path, "pdf", now=datetime(2026, 11, 29, 11, 0))
    assert str(target) in str(err.value) and "--substituir" in str(err.value)
    assert target.read_bytes() == before
    replaced = autos.generate(case, tmp_path, "pdf", now=datetime(2026, 11, 29, 11, 0), replace=True)
    assert replaced.unchanged == [] and target.read_bytes() != before


_SQLITE_ONLY = ("PRAGMA", "INSERT OR", "REPLACE INTO", "AUTOINCREMENT", "ROWID", " IS ?", "GLOB", "IFNULL",
                "DATETIME(", "STRFTIME", "LAST_INSERT_ROWID", "EXECUTESCRIPT")


def test_register_queries_use_no_sqlite_only_syntax() -> None:
    """The queries stay in SQL that PostgreSQL also runs (the storage may move to a shared server)."""
    from autos.store.register_schema import _MIGRATIONS, _SCHEMA, _SQL

    migrations = [(f"format {v} step {i}", ddl) for v, steps in _MIGRATIONS.items() for i, ddl in enumerate(steps)]
    for name, sql in [*_SQL.items(), *((f"schema {i}", ddl) for i, ddl in enumerate(_SCHEMA)), *migrations]:
        upper = sql.upper()
        for sqlite_only in _SQLITE_ONLY:
            assert sqlite_only not in upper, (name, sqlite_only)
    assert "?" not in "".join(_SCHEMA)


def test_ledger_queries_use_no_sqlite_only_syntax_and_go_through_the_store() -> None:
    """The editais ledger behind the same ``Store`` interface: every query in its ``_SQL``,
    none of them SQLite-only, and no SQL written outside the table (no ``execute`` with text, no ``lastrowid``)."""
    import inspect

    from autos.store import ledger, ledger_schema, ledger_store
    from autos.store.register_store import Store

    for name, sql in ledger_schema._SQL.items():
        upper = sql.upper()
        for sqlite_only in _SQLITE_ONLY:
            assert sqlite_only not in upper, (name, sqlite_only)
        # every ? is a parameter (none inside a quoted literal), so turning them into %s for PostgreSQL is safe
        assert re.sub(r"'[^']*'", "", sql).count("?") == sql.count("?"), name
    source = inspect.getsource(ledger.Ledger)
    for raw in (".execute(", ".executemany(", "lastrowid", "sqlite3.Row"):
        assert raw not in source, raw
    store: Store = ledger_store.SqliteLedgerStore  # type: ignore[assignment]  # the class satisfies the protocol
    assert all(callable(getattr(store, m)) for m in ("sql", "rows", "run", "transaction", "close"))
    used = set()
    for name in ledger_schema._SQL:
        if f'"{name}"' in source:
            used.add(name)
    assert used == set(ledger_schema._SQL), set(ledger_schema._SQL) - used  # no query left unused in the table


def test_register_error_is_an_autos_error() -> None:
    from autos.errors import AutosError

    assert issubclass(RegisterError, AutosError) and RegisterError("x").exit_code == 2


def test_a_register_of_format_1_is_brought_to_the_current_format_keeping_everything(tmp_path: Path) -> None:
    """Format 2 (the web application's accounts, sessions, audit log and reviews) is added to a format-1 register
    when it is opened for writing; its index, numbers and documents stay; a read-only opening reads it as it is."""
    from autos.store.register_schema import _APPLICATION_ID, _SCHEMA, SCHEMA_VERSION

    path = tmp_path / "registro.sqlite3"
    db = sqlite3.connect(path)
    for statement in _SCHEMA:
        db.execute(statement)
    db.execute("INSERT INTO numeros (lei, tipo, ano, numero, estado, reservado_em) "
               "VALUES ('timoteo-mg/lei-3844-2022', 'auto', 2026, 7, 'reservado', '2026-11-01T10:00:00-03:00')")
    db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Register.open(path, readonly=True) as old:  # a reader does not change the file
        assert [r.rotulo for r in old.reservations()] == ["7/2026"]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1
    with Register.open(path) as reg:
        assert [r.rotulo for r in reg.reservations()] == ["7/2026"]
        assert reg.reserve(TIM, "auto", 2026).numero == 8
        reg.audit("ana", "criou", "processo:x.yaml")
        assert [e.acao for e in reg.audit_of("processo:x.yaml")] == ["criou"]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    with Register.open(path) as again:  # opening again changes nothing
        assert [r.rotulo for r in again.reservations()] == ["7/2026", "8/2026"]


def test_a_register_of_format_2_gets_the_verification_codes_keeping_its_documents(tmp_path: Path) -> None:
    """Format 3 records the verification code each document prints. A format-2 register (documents without
    codes) is read as it is by a reader (no code known, the hashes still found) and brought to format 3 when
    opened for writing: its documents stay, without a code; the documents recorded afterwards are found by code."""
    from autos.store.register import DocumentRecord
    from autos.store.register_schema import _APPLICATION_ID, _MIGRATIONS, _SCHEMA

    path = tmp_path / "registro.sqlite3"
    db = sqlite3.connect(path)
    for statement in (*_SCHEMA, *_MIGRATIONS[2]):
        db.execute(statement)
    db.execute("INSERT INTO documentos (caminho, sha256, bytes, arquivo, lei, processo, ato, documento, gravado_em) "
               "VALUES ('saida/auto.pdf', 'aa', 10, 'p.yaml', ?, 'SIM-1', 1, 'auto_de_infracao', "
               "'2026-11-01T10:00:00-03:00')", (TIM,))
    db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with Register.open(path, readonly=True) as old:
        assert [d.caminho for d in old.documents_with("aa")] == ["saida/auto.pdf"]
        assert old.documents_by_code("QM10-V59P-9D4G") == []  # format 2 recorded no codes
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2
    with Register.open(path) as reg:
        assert [(d.caminho, d.codigo) for d in reg.documents_with("aa")] == [("saida/auto.pdf", None)]
        reg.record_documents([DocumentRecord("saida/auto.pdf", "bb", 11, "p.yaml", TIM, "SIM-1", 1,
                                             "auto_de_infracao", "2026-11-02T10:00:00-03:00", "QM10-V59P-9D4G")])
        assert [(d.sha256, d.codigo) for d in reg.documents_by_code("QM10-V59P-9D4G")] == [("bb", "QM10-V59P-9D4G")]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3
