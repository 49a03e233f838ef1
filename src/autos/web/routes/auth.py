"""Sign-in (``/entrar``), sign-out (``/sair``) and the start page (``/``: the processos, or the accounts for an
administrator)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from autos.app.register.accounts import authenticate, close_session, open_session
from autos.web.auth import SESSION_COOKIE, current_user, set_session_cookie
from autos.web.csrf import PRE_COOKIE, checked_form, pre_value
from autos.web.state import web_state, with_register
from autos.web.templating import flash, render


def _local(target: str | None, default: str = "/") -> str:
    """A redirect target only inside this site (``/…`` but not ``//host`` nor ``/\\host``)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")) or any(ord(c) < 32 for c in target):
        return default
    return target


def _home(request: Request) -> str:
    user = current_user(request)
    root = str(request.scope.get("root_path", ""))
    if user is None:
        return root + "/entrar"
    return root + ("/admin/usuarios" if user.papel == "admin" else "/processos")


def home(request: Request) -> Response:
    return RedirectResponse(_home(request), status_code=303)


def _login_page(request: Request, *, status_code: int = 200, erro: str | None = None, login: str = "") -> Response:
    response = render(request, "entrar.html", status_code=status_code, titulo="Entrar", erro=erro, login=login,
                      proximo=_local(request.query_params.get("proximo"), ""))
    if PRE_COOKIE not in request.cookies:
        response.set_cookie(PRE_COOKIE, pre_value(request), httponly=True, samesite="lax",
                            secure=web_state(request).config.cookie_seguro)
    return response


def login_form(request: Request) -> Response:
    if current_user(request) is not None:
        return RedirectResponse(_home(request), status_code=303)
    return _login_page(request)


async def login(request: Request) -> Response:
    form = await checked_form(request, max_files=0, max_fields=10)
    login_name = str(form.get("login") or "")[:100]
    password = str(form.get("senha") or "")[:1000]
    state = web_state(request)
    user = await with_register(request, authenticate, login_name, password)
    if user is None:
        return _login_page(request, status_code=400, erro="login ou senha incorretos (ou conta desativada).",
                           login=login_name)
    previous = request.cookies.get(SESSION_COOKIE)
    if previous:  # a new sign-in in this browser ends the session it had (no two sessions behind one cookie)
        await with_register(request, close_session, previous, None)
    token, _session = await with_register(request, open_session, user, state.config.sessao_horas)
    root = str(request.scope.get("root_path", ""))
    default = root + ("/admin/usuarios" if user.papel == "admin" else "/processos")
    response = RedirectResponse(_local(str(form.get("proximo") or ""), default), status_code=303)
    set_session_cookie(request, response, token)
    return response


async def logout(request: Request) -> Response:
    await checked_form(request, max_files=0, max_fields=5)
    user = current_user(request)
    await with_register(request, close_session, request.cookies.get(SESSION_COOKIE), user.login if user else None)
    response = RedirectResponse(str(request.scope.get("root_path", "")) + "/entrar", status_code=303)
    set_session_cookie(request, response, None)
    flash(request, response, "Sessão encerrada.")
    return response


routes = [
    Route("/", home, name="inicio"),
    Route("/entrar", login_form, methods=["GET"], name="entrar"),
    Route("/entrar", login, methods=["POST"], name="entrar_post"),
    Route("/sair", logout, methods=["POST"], name="sair"),
]
