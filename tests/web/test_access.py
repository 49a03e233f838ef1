"""Nothing of a processo without the right role: each role × each action × own/other processo
gives 200 (or the redirect after a recorded review), 403, or 302/303 to the sign-in page."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from starlette.testclient import TestClient

from autos.app.register.accounts import User
from autos.app.register.review import ProcessoRef
from autos.web.permissions import ACTIONS, can

from .conftest import FERRAZ, OTHER_TIMOTEO, OWN, WebEnv, form_token

LOGIN = "login"  # the expected answer: redirect to the sign-in page
ROLES = ["anonimo", "admin", "ana", "patricia", "chefe", "procuradora"]
FILES = {"proprio": OWN, "outro-timoteo": OTHER_TIMOTEO, "ferraz": FERRAZ}

#: GET the processo page (ver)
VER = {
    "anonimo": {"proprio": LOGIN, "outro-timoteo": LOGIN, "ferraz": LOGIN},
    "admin": {"proprio": 403, "outro-timoteo": 403, "ferraz": 403},
    "ana": {"proprio": 200, "outro-timoteo": 403, "ferraz": 403},  # fiscal 20.518: the auto of OWN is hers
    "patricia": {"proprio": 403, "outro-timoteo": 403, "ferraz": 200},  # fiscal 4.905
    "chefe": {"proprio": 200, "outro-timoteo": 200, "ferraz": 403},  # chefia of the Timóteo law
    "procuradora": {"proprio": 200, "outro-timoteo": 200, "ferraz": 200},
}
#: POST a "de acordo" (revisar): only the procurador (redirect back to the page after recording it)
REVISAR = {role: {k: (LOGIN if role == "anonimo" else 303 if role == "procuradora" else 403) for k in FILES}
           for role in ROLES}


def _client(web: WebEnv, clients: dict[str, TestClient], role: str) -> TestClient:
    return web.client() if role == "anonimo" else clients[role]


def _check(r: object, expected: object, what: str) -> None:
    status = r.status_code  # type: ignore[attr-defined]
    if expected == LOGIN:
        assert status in (302, 303), what
        assert r.headers["location"].startswith("/entrar?proximo="), what  # type: ignore[attr-defined]
    else:
        assert status == expected, (what, status)


@pytest.mark.parametrize("role", ROLES)
def test_processo_page_by_role(web: WebEnv, clients: dict[str, TestClient], role: str) -> None:
    c = _client(web, clients, role)
    for key, arquivo in FILES.items():
        r = c.get(f"/processo/{arquivo}")
        _check(r, VER[role][key], f"{role} ver {key}")
        if r.status_code == 403:
            page = BeautifulSoup(r.text, "html.parser").get_text(" ", strip=True)
            assert "Acesso negado" in page and "não permite ver este processo" in page
            assert "Autuado" not in page  # nothing of the processo leaks into the 403 page


@pytest.mark.parametrize("role", ROLES)
def test_review_by_role(web: WebEnv, clients: dict[str, TestClient], role: str) -> None:
    c = _client(web, clients, role)
    for key, arquivo in FILES.items():
        page = c.get("/entrar" if role == "anonimo" else "/processos")
        token = form_token(page.text)
        r = c.post(f"/processo/{arquivo}/revisao", data={"tipo": "de_acordo", "texto": "", "csrf_token": token})
        _check(r, REVISAR[role][key], f"{role} revisar {key}")


@pytest.mark.parametrize("role", ROLES)
def test_list_and_verification_show_only_what_the_role_sees(web: WebEnv, clients: dict[str, TestClient],
                                                            role: str) -> None:
    c = _client(web, clients, role)
    r = c.get("/processos")
    report = c.get("/verificacao/relatorio")
    if role == "anonimo":
        _check(r, LOGIN, "lista")
        _check(report, LOGIN, "verificacao")
        return
    if role == "admin":
        assert r.status_code == 403 and report.status_code == 403
        return
    assert r.status_code == 200 and report.status_code == 200
    links = {a["href"].removeprefix("/processo/") for a in BeautifulSoup(r.text, "html.parser")
             .select("#lista-processos a[href^='/processo/']")}
    everything = {p.relative_to(web.folder).as_posix() for p in web.folder.rglob("*.yaml")}
    expected = {
        "ana": {OWN},
        "patricia": {FERRAZ, "ferraz-de-vasconcelos-sp/fv-2026-0531-embargo-ar-postado.yaml"},
        "chefe": {p for p in everything if p.startswith("timoteo-mg/")},
        "procuradora": everything,
    }[role]
    assert links == expected
    in_report = set(re.findall(r"[\w-]+/[\w.-]+\.yaml", report.text))
    assert {p for p in everything if p in in_report} <= expected
    assert all(p in report.text for p in expected) or role == "procuradora"


@pytest.mark.parametrize("role", ROLES)
def test_admin_pages_only_for_the_admin(web: WebEnv, clients: dict[str, TestClient], role: str) -> None:
    c = _client(web, clients, role)
    expected = {"anonimo": LOGIN, "admin": 200}.get(role, 403)
    for path in ("/admin/usuarios", "/admin/auditoria"):
        _check(c.get(path), expected, f"{role} {path}")
    token = form_token(c.get("/entrar" if role == "anonimo" else "/processos" if role != "admin"
                             else "/admin/usuarios").text)
    r = c.post("/admin/usuarios", data={"login": f"novo.{role}", "nome": "Novo", "papel": "procurador",
                                        "senha": "uma-senha-longa", "senha2": "uma-senha-longa", "csrf_token": token})
    _check(r, {"anonimo": LOGIN, "admin": 303}.get(role, 403), f"{role} criar conta")


def test_can_covers_every_action_and_refuses_unknown_ones() -> None:
    ref = ProcessoRef(OWN, OWN, "timoteo-mg/lei-3844-2022", "SIM-2026/000171", "20.518")  # type: ignore[arg-type]
    users = {
        "fiscal": User("f", "F", "fiscal", "20.518", None),
        "chefia": User("c", "C", "chefia", None, "Vigilância Sanitária"),
        "procurador": User("p", "P", "procurador", None, None),
        "admin": User("a", "A", "admin", None, None),
    }
    leis = ("timoteo-mg/lei-3844-2022",)
    table = {papel: {a for a in ACTIONS if can(u, a, ref, leis=leis)} for papel, u in users.items()}
    assert table == {"fiscal": {"ver", "editar", "emitir", "criar"}, "chefia": {"ver", "editar", "emitir", "criar"},
                     "procurador": {"ver", "revisar"}, "admin": {"administrar"}}
    assert not can(users["chefia"], "ver", ref, leis=("outra/lei",))
    assert not can(users["procurador"], "apagar", ref)
    assert not can(User("f", "F", "fiscal", None, None), "ver", ProcessoRef(OWN, OWN, "x", None, None))  # type: ignore[arg-type]
    assert not can(User("f", "F", "fiscal", "20.518", None, ativo=False), "ver", ref, leis=leis)
