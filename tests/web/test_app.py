"""The skeleton of the web application and its answer to bad input: sign-in and sessions with server-side
expiry, cookies, CSRF on every POST, the Portuguese error pages (never a traceback), static files of our own and
the security headers."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from starlette.routing import Route
from starlette.testclient import TestClient

from autos.web.auth import SESSION_COOKIE

from .conftest import CONFIG, OWN, SENHA, WebEnv, form_token

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "web"


def text_of(html: str) -> str:
    return BeautifulSoup(html, "html.parser").get_text(" ", strip=True)


def test_a_page_needs_sign_in_and_comes_back_after_it(web: WebEnv) -> None:
    c = web.client()
    r = c.get("/processos?lei=timoteo-mg%2Flei-3844-2022")
    assert r.status_code == 303
    assert r.headers["location"] == "/entrar?proximo=%2Fprocessos%3Flei%3Dtimoteo-mg%252Flei-3844-2022"
    page = c.get(r.headers["location"])
    soup = BeautifulSoup(page.text, "html.parser")
    assert soup.select_one("input[name=proximo]")["value"] == "/processos?lei=timoteo-mg%2Flei-3844-2022"
    r = c.post("/entrar", data={"login": "procuradora", "senha": SENHA, "csrf_token": form_token(page.text),
                                "proximo": "/processos?lei=timoteo-mg%2Flei-3844-2022"})
    assert r.status_code == 303 and r.headers["location"] == "/processos?lei=timoteo-mg%2Flei-3844-2022"


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:x"])
def test_sign_in_never_redirects_to_another_site(web: WebEnv, target: str) -> None:
    c = web.client()
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": "chefe", "senha": SENHA, "csrf_token": token, "proximo": target})
    assert r.status_code == 303 and r.headers["location"] == "/processos"


def test_wrong_password_or_unknown_login_same_answer_and_audited(web: WebEnv) -> None:
    c = web.client()
    token = form_token(c.get("/entrar").text)
    wrong = c.post("/entrar", data={"login": "ana", "senha": "errada-errada", "csrf_token": token})
    unknown = c.post("/entrar", data={"login": "ninguem", "senha": "errada-errada", "csrf_token": token})
    for r in (wrong, unknown):
        assert r.status_code == 400
        assert "login ou senha incorretos" in text_of(r.text)
        assert SESSION_COOKIE not in r.cookies
    with web.register() as reg:
        actions = [(e.login, e.acao) for e in reg.audit_recent(10)]
    assert ("ana", "entrada-recusada") in actions and (None, "entrada-recusada") in actions


def test_session_cookie_flags_and_secure_when_configured(new_env: Callable[..., WebEnv]) -> None:
    plain = new_env()
    c = plain.client()
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": "ana", "senha": SENHA, "csrf_token": token})
    cookie = next(h for h in r.headers.get_list("set-cookie") if h.startswith(SESSION_COOKIE + "="))
    flags = cookie.lower()
    assert "httponly" in flags and "samesite=lax" in flags and "secure" not in flags
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    assert len(value) >= 40  # 256 random bits
    with plain.register() as reg:  # only its hash is stored
        stored = sqlite3.connect(reg.path).execute("SELECT id FROM sessoes").fetchall()
    assert stored and all(value not in row[0] for row in stored)


def test_secure_cookie_when_configured(new_env: Callable[..., WebEnv]) -> None:
    env = new_env(CONFIG.replace("sessao_horas = 8", "sessao_horas = 8\ncookie_seguro = true"))
    c = TestClient(env.app, base_url="https://testserver", follow_redirects=False)
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": "ana", "senha": SENHA, "csrf_token": token})
    cookie = next(h for h in r.headers.get_list("set-cookie") if h.startswith(SESSION_COOKIE + "="))
    assert "secure" in cookie.lower()


def test_sign_out_deletes_the_session_on_the_server(web: WebEnv) -> None:
    c = web.client("ana")
    stolen = c.cookies.get(SESSION_COOKIE)
    assert c.get("/processos").status_code == 200
    token = form_token(c.get("/processos").text)
    r = c.post("/sair", data={"csrf_token": token})
    assert r.status_code == 303 and r.headers["location"] == "/entrar"
    replay = web.client()
    replay.cookies.set(SESSION_COOKIE, stolen)
    assert replay.get("/processos").status_code == 303  # the old cookie opens nothing
    with web.register() as reg:
        assert ("ana", "saiu") in [(e.login, e.acao) for e in reg.audit_recent(5)]


def test_expired_session_opens_nothing(web: WebEnv) -> None:
    c = web.client("chefe")
    assert c.get("/processos").status_code == 200
    db = sqlite3.connect(web.config.registro)
    db.execute("UPDATE sessoes SET expira_em = '2000-01-01T00:00:00+00:00' WHERE login = 'chefe'")
    db.commit()
    db.close()
    r = c.get("/processos")
    assert r.status_code == 303 and r.headers["location"].startswith("/entrar")


def test_a_deactivated_account_loses_its_open_sessions(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    c = env.client("patricia")
    assert c.get("/processos").status_code == 200
    from autos.app.register.accounts import deactivate_user

    with env.register() as reg:
        deactivate_user(reg, "patricia")
    assert c.get("/processos").status_code == 303
    fresh = env.client()
    token = form_token(fresh.get("/entrar").text)
    assert fresh.post("/entrar", data={"login": "patricia", "senha": SENHA, "csrf_token": token}).status_code == 400


def test_post_without_the_token_is_refused_and_changes_nothing(web: WebEnv) -> None:
    c = web.client()
    c.get("/entrar")
    r = c.post("/entrar", data={"login": "ana", "senha": SENHA})
    assert r.status_code == 403
    assert "token de segurança" in text_of(r.text)
    assert SESSION_COOKIE not in r.cookies
    other = web.client()  # a token from another browser's sign-in page does not serve
    r = c.post("/entrar", data={"login": "ana", "senha": SENHA, "csrf_token": form_token(other.get("/entrar").text)})
    assert r.status_code == 403


def test_every_post_route_refuses_a_request_without_the_token(web: WebEnv, clients: dict[str, TestClient]) -> None:
    """Every POST route of the application (also those of the other areas, mounted from autos.web.routes) checks
    the CSRF token before doing anything: signed in as each role, a POST without it is 403."""
    posts = [r for r in web.app.routes if isinstance(r, Route) and r.methods and "POST" in r.methods]
    assert len(posts) >= 4
    for route in posts:
        path = re.sub(r"\{(\w+):processo\}", OWN, route.path)
        path = re.sub(r"\{(\w+)(:\w+)?\}", "ana", path)
        for login in ("admin", "procuradora", "chefe"):
            r = clients[login].post(path, data={"tipo": "de_acordo", "texto": "x"})
            assert r.status_code == 403, (route.path, login, r.status_code)
            r = clients[login].post(path, data={"tipo": "de_acordo", "csrf_token": "forjado"},
                                    headers={"X-CSRF-Token": "forjado"})
            assert r.status_code == 403, (route.path, login, r.status_code)
    with web.register() as reg:
        assert reg.reviews_of("timoteo-mg/lei-3844-2022", "SIM-2026/000171") == []


def test_error_pages_are_in_portuguese_and_never_a_traceback(web: WebEnv, clients: dict[str, TestClient]) -> None:
    def boom(request: object) -> None:
        raise RuntimeError("segredo interno do servidor")

    web.app.router.routes.append(Route("/explodir", boom))
    try:
        c = clients["procuradora"]
        cases = {
            "/nao-existe": (404, "Página não encontrada"),
            "/processo/timoteo-mg/nao-existe.yaml": (404, "processo não encontrado"),
            "/processo/../web.toml": (404, "não encontrad"),
            "/processos?vence_ate=31-12-2026": (400, "data inválida no filtro"),
            "/explodir": (500, "erro inesperado"),
        }
        for path, (status, words) in cases.items():
            r = c.get(path)
            assert r.status_code == status, (path, r.status_code)
            page = text_of(r.text)
            assert words in page, (path, page[:300])
            assert "Traceback" not in r.text and "segredo interno" not in r.text and "RuntimeError" not in r.text
            assert BeautifulSoup(r.text, "html.parser").html["lang"] == "pt-BR"
        r = c.post("/processos")
        assert r.status_code == 405 and "Método não permitido" in text_of(r.text)
        assert clients["admin"].get("/processos").status_code == 403
    finally:
        web.app.router.routes.pop()


def test_request_body_over_the_limit_is_refused_in_portuguese(new_env: Callable[..., WebEnv]) -> None:
    env = new_env(CONFIG.replace("sessao_horas = 8", "sessao_horas = 8\nlimite_envio_mib = 1"))
    c = env.client()
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": "ana", "senha": "x" * (2 * 1024 * 1024), "csrf_token": token})
    assert r.status_code == 413 and "Envio grande demais" in text_of(r.text)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it is read
        yield f"csrf_token={token}&login=ana&senha=".encode()
        for _ in range(40):
            yield b"x" * 65536

    r = c.post("/entrar", content=chunks(), headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413 and "Envio grande demais" in text_of(r.text)


def test_static_files_are_our_own_and_pages_load_nothing_from_outside(web: WebEnv) -> None:
    c = web.client("procuradora")
    css = c.get("/static/app.css")
    js = c.get("/static/app.js")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert "@media (max-width: 760px)" in css.text  # one column on a tablet held upright
    for file in TEMPLATES.rglob("*"):
        if file.is_file():
            assert not re.search(r"(src|href)=[\"']?(https?:)?//", file.read_text(encoding="utf-8")), file
    page = c.get("/processos")
    soup = BeautifulSoup(page.text, "html.parser")
    assert soup.select_one('meta[name=viewport]')["content"].startswith("width=device-width")
    for tag in soup.select("script[src], link[href], img[src]"):
        assert (tag.get("src") or tag.get("href")).startswith("/"), tag


def test_templates_have_nothing_inline_the_csp_would_block() -> None:
    """The Content-Security-Policy allows only this site's script and style files: an inline style attribute, a
    <style> or <script> block, or an on…= handler in a page would be blocked by the browser (and logged)."""
    for file in TEMPLATES.glob("*.html"):
        html = file.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle\s*=", html), file
        assert not re.search(r"<style\b", html), file
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), file
        assert not re.search(r"\son[a-z]+\s*=", html), file
        assert "javascript:" not in html, file


def test_security_headers(web: WebEnv) -> None:
    r = web.client().get("/entrar")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp and "unsafe-inline" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
    assert "no-store" in r.headers["cache-control"]


def test_sign_in_with_the_admin_goes_to_the_accounts(web: WebEnv) -> None:
    c = web.client()
    token = form_token(c.get("/entrar").text)
    r = c.post("/entrar", data={"login": "admin", "senha": SENHA, "csrf_token": token})
    assert r.headers["location"] == "/admin/usuarios"
    assert c.get("/").headers["location"] == "/admin/usuarios"
    assert c.get("/entrar").headers["location"] == "/admin/usuarios"  # signed in: no sign-in form


def test_signing_in_again_ends_the_browsers_previous_session(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    c = env.client("ana")
    first = c.cookies.get(SESSION_COOKIE)
    assert c.get("/entrar").status_code == 303  # signed in: no form; the sign-in is posted again (another tab)
    token = form_token(c.get("/processos").text)
    r = c.post("/entrar", data={"login": "ana", "senha": SENHA, "csrf_token": token})
    assert r.status_code == 303
    assert c.cookies.get(SESSION_COOKIE) != first
    replay = env.client()
    replay.cookies.set(SESSION_COOKIE, first)
    assert replay.get("/processos").status_code == 303
    with env.register() as reg:
        assert sqlite3.connect(reg.path).execute("SELECT count(*) FROM sessoes WHERE login = 'ana'").fetchone()[0] == 1


def test_a_municipality_overrides_a_page_from_its_templates_folder(tmp_path: Path,
                                                                    new_env: Callable[..., WebEnv]) -> None:
    """[dados] modelos (or autos --modelos): a page in its web/ folder replaces the shipped one; the rest stay."""
    modelos = tmp_path / "modelos"
    shutil.copytree(TEMPLATES.parent, modelos)
    page = modelos / "web" / "entrar.html"
    page.write_text(page.read_text(encoding="utf-8").replace("<h1>Entrar</h1>", "<h1>Entrar no SIM de Timóteo</h1>"),
                    encoding="utf-8")
    env = new_env(CONFIG.replace('processos = "processos"', f'processos = "processos"\nmodelos = "{modelos}"'),
                  users=False)
    r = env.client().get("/entrar")
    assert "Entrar no SIM de Timóteo" in text_of(r.text)
    assert env.client().get("/static/app.css").status_code == 200
