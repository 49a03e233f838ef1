"""Sessions of the web application: who is signed in.

The browser keeps a random value in the ``autos_sessao`` cookie (HttpOnly, SameSite=Lax, ``Secure`` when the
configuration says ``cookie_seguro = true``); the register keeps its SHA-256 and its expiry
(:mod:`autos.app.register.accounts`). ``current_user(request)`` is the signed-in :class:`User` or None; ``require_user``
raises :class:`LoginRequired`, which the application turns into a redirect to the sign-in page (and back).
Sign-in and sign-out pages: :mod:`autos.web.routes.auth`."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from autos.app.register.accounts import Session, User, session_of
from autos.errors import LoginRequired
from autos.web.state import register, web_state

__all__ = ["SESSION_COOKIE", "LoginRequired", "current_session", "current_user", "require_user", "set_session_cookie"]

SESSION_COOKIE = "autos_sessao"


def current_session(request: Request) -> Session | None:
    """The session of the request's cookie (looked up once per request)."""
    if "autos_session" in request.scope:
        cached: Session | None = request.scope["autos_session"]
        return cached
    found = session_of(register(request), request.cookies.get(SESSION_COOKIE))
    request.scope["autos_session"] = found
    return found


def current_user(request: Request) -> User | None:
    session = current_session(request)
    return session.user if session is not None else None


def require_user(request: Request) -> User:
    user = current_user(request)
    if user is None:
        raise LoginRequired("entre com o seu login e senha para ver esta página.")
    return user


def set_session_cookie(request: Request, response: Response, token: str | None) -> None:
    """Set (``token``) or delete (None) the session cookie."""
    config = web_state(request).config
    if token is None:
        response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax", secure=config.cookie_seguro)
        return
    response.set_cookie(SESSION_COOKIE, token, max_age=int(config.sessao_horas * 3600), httponly=True,
                        samesite="lax", secure=config.cookie_seguro, path="/")
