"""The web application in process (Starlette's TestClient): a copy of the sample processos, a config with a fixed
date and one department, and an account of each role.

Accounts (password :data:`SENHA` for all):

- ``admin`` (admin);
- ``ana`` (fiscal, matrícula 20.518: the agent of timoteo-mg/sim-2026-000171-sem-defesa.yaml);
- ``patricia`` (fiscal, matrícula 4.905: the agent of ferraz-de-vasconcelos-sp/fv-2026-0520-prazo-de-recurso.yaml);
- ``chefe`` (chefia of "Vigilância Sanitária": the Timóteo law);
- ``procuradora`` (procurador).

Password hashing uses cheaper argon2 parameters here (the tests are about the rules, not the cost); the default
parameters are checked in test_accounts.py."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.testclient import TestClient

from autos.app.register import accounts
from autos.app.server import WebConfig, load_config
from autos.store.register import Register
from autos.web.app import create_app

from ..conftest import SAMPLES

SENHA = "senha-de-teste-123"
OWN = "timoteo-mg/sim-2026-000171-sem-defesa.yaml"  # ana's (fiscal 20.518); Timóteo: the chefe's department
OTHER_TIMOTEO = "timoteo-mg/sim-2026-000180-interdicao.yaml"  # agent 20.315: not ana's; the chefe's department
FERRAZ = "ferraz-de-vasconcelos-sp/fv-2026-0520-prazo-de-recurso.yaml"  # patricia's (4.905); not the chefe's law

ACCOUNTS = {
    "admin": {"papel": "admin", "nome": "Administradora"},
    "ana": {"papel": "fiscal", "nome": "Dra. Ana Paula Rocha", "matricula": "20.518"},
    "patricia": {"papel": "fiscal", "nome": "Patrícia Gomes", "matricula": "4.905"},
    "chefe": {"papel": "chefia", "nome": "Chefe do SIM", "departamento": "Vigilância Sanitária"},
    "procuradora": {"papel": "procurador", "nome": "Procuradora Municipal"},
}

CONFIG = """\
[servidor]
sessao_horas = 8

[dados]
processos = "processos"
hoje = "2026-11-30"

[departamentos]
"Vigilância Sanitária" = ["timoteo-mg/lei-3844-2022"]
"Posturas" = ["ferraz-de-vasconcelos-sp/lei-3240-2015"]
"""


@pytest.fixture(autouse=True, scope="session")
def _fast_hashes() -> Iterator[None]:
    original = accounts._hasher
    accounts._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    yield
    accounts._hasher = original


@dataclass
class WebEnv:
    folder: Path
    config: WebConfig
    app: Starlette

    def client(self, login: str | None = None) -> TestClient:
        """A browser; signed in as ``login`` when given."""
        c = TestClient(self.app, raise_server_exceptions=False, follow_redirects=False)
        if login is not None:
            sign_in(c, login)
        return c

    def register(self) -> Register:
        return Register.open(self.config.registro)


def form_token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "page without the CSRF field"
    return found.group(1)


def sign_in(c: TestClient, login: str, senha: str = SENHA) -> None:
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": login, "senha": senha, "csrf_token": token})
    assert r.status_code == 303, r.text


def make_env(tmp: Path, config_text: str = CONFIG, *, users: bool = True) -> WebEnv:
    folder = tmp / "processos"
    shutil.copytree(SAMPLES / "processos", folder)
    (tmp / "web.toml").write_text(config_text, encoding="utf-8")
    config = load_config(tmp / "web.toml")
    app = create_app(config)
    if users:
        with Register.open(config.registro) as reg:
            for login, spec in ACCOUNTS.items():
                accounts.create_user(reg, login, SENHA, departamentos=tuple(config.departamentos), **spec)
    return WebEnv(folder, config, app)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> WebEnv:
    return make_env(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def clients(web: WebEnv) -> dict[str, TestClient]:
    """One signed-in browser per account (signed in once per module)."""
    return {login: web.client(login) for login in ACCOUNTS}


@pytest.fixture
def new_env(tmp_path: Path) -> Callable[..., WebEnv]:
    def make(config_text: str = CONFIG, users: bool = True) -> WebEnv:
        return make_env(tmp_path, config_text, users=users)

    return make
