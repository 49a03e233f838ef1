"""Accounts: argon2id hashes (never the password), ``autos usuarios criar|listar|desativar``
with the password from the prompt or AUTOS_SENHA (never the command line), the admin page, the audit log."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from bs4 import BeautifulSoup
from click.testing import CliRunner

from autos.app.register import accounts
from autos.cli import main
from autos.errors import InputError, RegisterError
from autos.store.register import Register

from .conftest import SENHA, WebEnv, form_token, sign_in


def words(html: str) -> str:
    return " ".join(BeautifulSoup(html, "html.parser").get_text(" ", strip=True).split())


def test_default_hash_is_argon2id_and_the_password_is_not_stored(tmp_path: Path) -> None:
    assert isinstance(accounts.PasswordHasher(), PasswordHasher)
    default = PasswordHasher()
    h = default.hash("uma senha qualquer")
    assert h.startswith("$argon2id$") and default.verify(h, "uma senha qualquer")
    with Register.open(tmp_path / "r.sqlite3", create=True) as reg:
        accounts.create_user(reg, "maria", "senha-secreta-1", nome="Maria", papel="procurador")
        assert accounts.authenticate(reg, "maria", "senha-secreta-1") is not None
        assert accounts.authenticate(reg, "maria", "senha-secreta-2") is None
        assert accounts.authenticate(reg, "joao", "senha-secreta-1") is None
    raw = (tmp_path / "r.sqlite3").read_bytes()
    assert b"senha-secreta-1" not in raw
    stored = sqlite3.connect(tmp_path / "r.sqlite3").execute("SELECT senha FROM usuarios").fetchone()[0]
    assert stored.startswith("$argon2id$")


def test_a_hash_with_other_parameters_keeps_verifying_and_is_rehashed_with_ours(tmp_path: Path) -> None:
    """A register whose hashes were made with other parameters (here the OWASP minimum for argon2id: 19 MiB, 2
    iterations, 1 lane) signs its users in, and each hash is rewritten with the application's at that sign-in (the
    tests' own cheap parameters here: tests/web/conftest.py)."""
    h = accounts._hasher
    ours = f"$m={h.memory_cost},t={h.time_cost},p={h.parallelism}$"
    with Register.open(tmp_path / "r.sqlite3", create=True) as reg:
        accounts.create_user(reg, "maria", "senha-secreta-1", nome="Maria", papel="procurador")
        assert ours in reg.password_hash("maria")  # type: ignore[operator]
        reg.set_password_hash("maria", PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
                              .hash("senha-secreta-1"))
        assert accounts.authenticate(reg, "maria", "senha-secreta-2") is None
        assert "$m=19456,t=2,p=1$" in reg.password_hash("maria")  # type: ignore[operator]
        assert accounts.authenticate(reg, "maria", "senha-secreta-1") is not None
        assert ours in reg.password_hash("maria")  # type: ignore[operator]
        assert accounts.authenticate(reg, "maria", "senha-secreta-1") is not None


def test_sign_ins_at_once_hash_one_per_core_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each argon2 verification holds 64 MiB while it runs: clerks signing in at once wait their turn beyond one
    per core, instead of all holding their memory together."""
    cores = len(os.sched_getaffinity(0))
    running, peak, lock = [0], [0], threading.Lock()
    real = accounts._hasher

    class Counting:
        def verify(self, stored: str, senha: str) -> bool:
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            try:
                time.sleep(0.02)  # long enough for the other threads to arrive meanwhile
                return real.verify(stored, senha)
            finally:
                with lock:
                    running[0] -= 1

        def check_needs_rehash(self, stored: str) -> bool:
            return real.check_needs_rehash(stored)

    with Register.open(tmp_path / "r.sqlite3", create=True) as reg:
        accounts.create_user(reg, "maria", "senha-secreta-1", nome="Maria", papel="procurador")
    monkeypatch.setattr(accounts, "_hasher", Counting())

    def sign_in_once(i: int) -> bool:
        with Register.open(tmp_path / "r.sqlite3") as reg:
            return accounts.authenticate(reg, "maria" if i % 2 else "joao", "senha-secreta-1") is not None

    with ThreadPoolExecutor(max_workers=4 * cores + 4) as pool:
        results = list(pool.map(sign_in_once, range(4 * cores + 4)))
    assert results == [bool(i % 2) for i in range(4 * cores + 4)]
    assert 1 <= peak[0] <= cores


@pytest.mark.parametrize(("spec", "message"), [
    ({"login": "Maria Souza"}, "login inválido"),
    ({"senha": "curta"}, "o mínimo é 10"),
    ({"papel": "gerente"}, "papel desconhecido"),
    ({"papel": "fiscal"}, "'matricula' é obrigatório"),
    ({"papel": "chefia"}, "'departamento' é obrigatório"),
    ({"papel": "chefia", "departamento": "Obras"}, "departamento desconhecido"),
    ({"nome": "  "}, "'nome' é obrigatório"),
])
def test_bad_accounts_are_refused_with_the_reason(tmp_path: Path, spec: dict[str, str], message: str) -> None:
    args = {"login": "maria", "senha": "senha-secreta-1", "nome": "Maria", "papel": "procurador", **spec}
    with Register.open(tmp_path / "r.sqlite3", create=True) as reg:
        with pytest.raises(InputError, match=message):
            accounts.create_user(reg, args.pop("login"), args.pop("senha"), departamentos=("Posturas",),
                                 **args)  # type: ignore[arg-type]
        assert reg.users_all() == []


def test_cli_creates_lists_and_deactivates_accounts(tmp_path: Path) -> None:
    reg = tmp_path / "registro.sqlite3"
    runner = CliRunner()
    r = runner.invoke(main, ["usuarios", "criar", "ana", "--papel", "fiscal", "--nome", "Ana", "--matricula",
                             "20.518", "--registro", str(reg)], env={"AUTOS_SENHA": "senha-da-ana-1"})
    assert r.exit_code == 0, r.output
    assert "conta criada: ana (fiscal)" in r.output
    prompt = runner.invoke(main, ["usuarios", "criar", "bia", "--papel", "procurador", "--nome", "Bia",
                                  "--registro", str(reg)], input="senha-da-bia-1\nsenha-da-bia-1\n")
    # CliRunner's stdin is not a terminal: the prompt is refused (the password never comes piped in by accident)
    assert prompt.exit_code == 2 and "AUTOS_SENHA" in prompt.output
    again = runner.invoke(main, ["usuarios", "criar", "ana", "--papel", "procurador", "--nome", "Ana 2",
                                 "--registro", str(reg)], env={"AUTOS_SENHA": "outra-senha-123"})
    assert again.exit_code == 2 and "já existe um usuário com o login 'ana'" in again.output
    listed = runner.invoke(main, ["usuarios", "listar", "--registro", str(reg)])
    assert listed.exit_code == 0 and listed.output.splitlines() == ["ana\tAna\tfiscal\t20.518\t—\tativa"]
    off = runner.invoke(main, ["usuarios", "desativar", "ana", "--registro", str(reg)])
    assert off.exit_code == 0 and "conta desativada: ana" in off.output
    assert runner.invoke(main, ["usuarios", "listar", "--registro", str(reg)]).output.endswith("desativada\n")
    missing = runner.invoke(main, ["usuarios", "desativar", "ninguem", "--registro", str(reg)])
    assert missing.exit_code == 2 and "não há usuário com o login 'ninguem'" in missing.output
    with Register.open(reg) as r2:
        assert [(e.login, e.acao, e.objeto) for e in reversed(r2.audit_recent(10))] == [
            (None, "usuario-criado", "usuario:ana"), (None, "usuario-desativado", "usuario:ana")]
    # there is no option that takes the password on the command line
    assert "senha" not in " ".join(p.name or "" for p in main.commands["usuarios"].commands["criar"].params)


def test_cli_reads_the_register_and_departments_from_the_web_config(new_env: Callable[..., WebEnv]) -> None:
    env = new_env(users=False)
    config = env.config.arquivo
    assert config is not None
    runner = CliRunner()
    bad = runner.invoke(main, ["usuarios", "criar", "chefe", "--papel", "chefia", "--nome", "Chefe",
                               "--departamento", "Obras", "--config", str(config)], env={"AUTOS_SENHA": SENHA})
    assert bad.exit_code == 2 and "departamento desconhecido" in bad.output and "Vigilância Sanitária" in bad.output
    ok = runner.invoke(main, ["usuarios", "criar", "chefe", "--papel", "chefia", "--nome", "Chefe",
                              "--departamento", "Vigilância Sanitária", "--config", str(config)],
                       env={"AUTOS_SENHA": SENHA})
    assert ok.exit_code == 0, ok.output
    c = env.client("chefe")  # the account made on the command line signs in to the web
    assert c.get("/processos").status_code == 200


def test_admin_page_creates_and_deactivates_accounts(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    c = env.client("admin")
    page = c.get("/admin/usuarios")
    assert page.status_code == 200
    rows = BeautifulSoup(page.text, "html.parser").select("#usuarios tbody tr")
    assert len(rows) == 5
    token = form_token(page.text)
    form = {"login": "joana", "nome": "Joana <b>Dias</b>", "papel": "fiscal", "matricula": "20.999",
            "departamento": "", "senha": "senha-da-joana", "senha2": "senha-da-joana", "csrf_token": token}
    r = c.post("/admin/usuarios", data={**form, "senha2": "outra"})
    assert r.status_code == 400 and "as duas senhas digitadas são diferentes" in words(r.text)
    r = c.post("/admin/usuarios", data={**form, "matricula": ""})
    assert r.status_code == 400 and "'matricula' é obrigatório" in words(r.text)
    assert BeautifulSoup(r.text, "html.parser").select_one("#nome")["value"] == "Joana <b>Dias</b>"  # kept, escaped
    r = c.post("/admin/usuarios", data=form)
    assert r.status_code == 303
    page = c.get("/admin/usuarios")
    assert "Conta 'joana' criada (fiscal)." in words(page.text) and "<b>Dias</b>" not in page.text
    joana = env.client()
    sign_in(joana, "joana", "senha-da-joana")
    assert joana.get("/processos").status_code == 200
    r = c.post("/admin/usuarios/joana/desativar", data={"csrf_token": token})
    assert r.status_code == 303
    assert joana.get("/processos").status_code == 303  # her session ended at once
    r = c.post("/admin/usuarios/admin/desativar", data={"csrf_token": token})
    assert r.status_code == 400 and "a própria conta" in words(r.text)
    r = c.post("/admin/usuarios/ninguem/desativar", data={"csrf_token": token})
    assert r.status_code == 404
    audit = words(c.get("/admin/auditoria").text)
    assert "usuario-criado usuario:joana" in audit and "usuario-desativado usuario:joana" in audit
    assert "admin" in audit


def test_register_refuses_a_duplicate_login(tmp_path: Path) -> None:
    with Register.open(tmp_path / "r.sqlite3", create=True) as reg:
        accounts.create_user(reg, "ana", "senha-secreta-1", nome="Ana", papel="procurador")
        with pytest.raises(RegisterError, match="já existe"):
            accounts.create_user(reg, "ana", "senha-secreta-2", nome="Ana", papel="procurador")
