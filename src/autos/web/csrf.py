"""CSRF protection: every POST carries a token that a page of this application gave, checked before anything is
read or written.

- signed in, the token is the session's (random, kept in the register beside the session);
- on the sign-in page (no session yet), the token is an HMAC with the application's secret key of a random value
  the browser keeps in the ``autos_pre`` cookie (signed double submit), so a page of another site cannot sign a
  clerk in to an account of its own.

A POST handler starts with ``form = await checked_form(request)`` (a form with the hidden field of
``{{ csrf_input }}``) or ``await check(request)`` (a ``fetch`` sending the header ``X-CSRF-Token``, the value of
``<meta name="csrf-token">`` of base.html). A missing or wrong token is :class:`CsrfError`: the 403 page, nothing
done. ``tests/web/test_access.py`` sends a POST without the token to every POST route of the application."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request

from autos.errors import CsrfError
from autos.web.auth import current_session
from autos.web.state import web_state

__all__ = ["FIELD", "HEADER", "PRE_COOKIE", "CsrfError", "check", "checked_form", "csrf_token"]

FIELD = "csrf_token"
HEADER = "x-csrf-token"
PRE_COOKIE = "autos_pre"


def _pre_token(request: Request, pre: str) -> str:
    return hmac.new(web_state(request).secret, b"entrar:" + pre.encode("utf-8"), hashlib.sha256).hexdigest()


def pre_value(request: Request) -> str:
    """The ``autos_pre`` cookie's value (a new one when the browser has none: the sign-in page sets it)."""
    value: str | None = getattr(request.state, "autos_pre", None)
    if value is None:
        value = request.cookies.get(PRE_COOKIE) or secrets.token_urlsafe(24)
        request.state.autos_pre = value
    return value


def csrf_token(request: Request) -> str:
    """The token the forms of this page must carry."""
    session = current_session(request)
    if session is not None:
        return session.csrf
    return _pre_token(request, pre_value(request))


def _valid(request: Request, sent: str | None) -> bool:
    if not sent:
        return False
    session = current_session(request)
    if session is not None:
        return hmac.compare_digest(sent, session.csrf)
    pre = request.cookies.get(PRE_COOKIE)
    return bool(pre) and hmac.compare_digest(sent, _pre_token(request, pre or ""))


def _refuse() -> CsrfError:
    return CsrfError("o formulário expirou ou não veio desta aplicação (token de segurança ausente ou inválido); "
                     "nada foi gravado.", hint="volte à página, recarregue-a e envie de novo.")


async def checked_form(request: Request, *, max_files: int = 5, max_fields: int = 500,
                       max_part_size: int = 1024 * 1024) -> FormData:
    """The request's form, after the CSRF check (:class:`CsrfError` otherwise). Limits: at most ``max_files``
    files and ``max_fields`` fields, parts of at most ``max_part_size`` bytes (the whole body is bounded by the
    configuration's ``limite_envio_mib``)."""
    await run_in_threadpool(current_session, request)  # the register is read in a worker thread
    form = await request.form(max_files=max_files, max_fields=max_fields, max_part_size=max_part_size)
    sent = form.get(FIELD)
    if not _valid(request, sent if isinstance(sent, str) else None) and not _valid(request,
                                                                                     request.headers.get(HEADER)):
        raise _refuse()
    return form


async def check(request: Request) -> None:
    """The CSRF check of a POST whose body is not a form: the header ``X-CSRF-Token``."""
    await run_in_threadpool(current_session, request)
    if not _valid(request, request.headers.get(HEADER)):
        raise _refuse()
