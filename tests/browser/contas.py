"""A throwaway site for the browser tests and the load benchmark: a copy of the sample processos, accounts
created through the library (``autos.app.register.accounts``, as ``autos usuarios criar`` does) and a config file."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

from autos.app.register.accounts import create_user
from autos.store.register import Register
from tests.browser.servidor import ROOT

TODAY = date(2026, 11, 29)  # the suite's reference date (tests/conftest.py): the pages do not depend on the clock
SENHA = "senha-de-teste-123"  # every test account's password

#: fiscal A is the agent of Timóteo's SIM-2026/000142 and 000188 (matrícula 20.315); fiscal B the agent of
#: SIM-2026/000171 (20.518), who must not open fiscal A's processos
ACCOUNTS: dict[str, dict[str, str]] = {
    "fiscal_a": {"login": "joao.fiscal", "nome": "João Batista Ferreira", "papel": "fiscal", "matricula": "20.315"},
    "fiscal_b": {"login": "ana.fiscal", "nome": "Ana Paula Rocha", "papel": "fiscal", "matricula": "20.518"},
    "procurador": {"login": "paula.procuradora", "nome": "Paula Mendes", "papel": "procurador", "matricula": ""},
}


def make_site(base: Path, accounts: dict[str, dict[str, str]] = ACCOUNTS, *, workers: int = 1) -> Path:
    """Copy the sample processos under ``base``, create the accounts in their register; returns the config file
    (``workers``: the render processes of the previews)."""
    processos = base / "processos"
    shutil.copytree(ROOT / "samples" / "processos", processos)
    register = processos / "registro.sqlite3"
    with Register.open(register, create=True) as reg:
        for acc in accounts.values():
            create_user(reg, acc["login"], SENHA, nome=acc["nome"], papel=acc["papel"],
                        matricula=acc["matricula"] or None)
    config = base / "autos-web.toml"
    config.write_text(
        "[servidor]\n"
        'host = "127.0.0.1"\n'
        'chave = "chave-web"\n'
        f"processos_de_trabalho = {workers}\n"
        "[dados]\n"
        'processos = "processos"\n'
        f'hoje = "{TODAY.isoformat()}"\n',
        encoding="utf-8",
    )
    return config
