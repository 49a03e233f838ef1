"""Rendering the pages: the bounded, sandboxed, autoescaping Jinja environment of :mod:`autos.render.sandbox` over
``templates/web/`` (a ``--modelos``/``[dados] modelos`` folder's ``web/`` first, so a Municipality may override a
page), strict about undefined values.

``render(request, "pagina.html", titulo=..., ...)`` always passes ``user`` (the signed-in :class:`User` or None),
``csrf_token`` and ``csrf_input`` (the hidden field every POST form carries), ``avisos`` (the notices set by
:func:`flash` on the previous response), ``url(name, **params)`` (a route's path), ``static(path)`` and
``hoje`` (the reference date)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from autos.base.ptbr import format_date_short, format_decimal, money_full
from autos.compute.strip import timeline_strip
from autos.compute.timeline import Timeline
from autos.render.sandbox import BoundedEnvironment, FolderLoader
from autos.render.timeline_svg import timeline_svg
from autos.web.auth import current_user
from autos.web.csrf import csrf_token
from autos.web.state import web_state

__all__ = ["FLASH_COOKIE", "flash", "make_environment", "render", "render_string"]

FLASH_COOKIE = "autos_aviso"


def make_environment(folders: list[Path]) -> BoundedEnvironment:
    loader = jinja2.ChoiceLoader([FolderLoader(f) for f in folders if f.is_dir()])
    env = BoundedEnvironment(loader=loader, trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.filters["data"] = _date
    env.filters["data_hora"] = _datetime
    env.filters["reais"] = money_full
    env.filters["decimal"] = format_decimal  # 156,1935, never Python's 156.1935
    env.filters["linha_do_tempo"] = _timeline_svg
    return env


def _timeline_svg(timeline: Timeline) -> Markup:
    """The timeline drawn (web-docs): markup built by :mod:`autos.render.timeline_svg`, every value escaped there."""
    return Markup(timeline_svg(timeline_strip(timeline)))


def _date(value: date | str | None) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, str):
        try:
            return format_date_short(date.fromisoformat(value[:10]))
        except ValueError:
            return value
    return format_date_short(value)


def _datetime(value: datetime | str | None) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, str):
        try:
            return _datetime(datetime.fromisoformat(value))
        except ValueError:
            return value
    if value.tzinfo is not None:
        value = value.astimezone()
    return value.strftime("%d/%m/%Y %H:%M")


def _sign(secret: bytes, payload: bytes) -> str:
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()[:32]


def flash(request: Request, response: Response, message: str, kind: str = "ok") -> None:
    """A notice shown once, on the next page rendered (after a redirect): kind ``ok``, ``erro`` or ``aviso``."""
    secret = web_state(request).secret
    items = [*_read_flash(request), [kind, message[:500]]]
    payload = base64.urlsafe_b64encode(json.dumps(items[-5:], ensure_ascii=False).encode("utf-8"))
    response.set_cookie(FLASH_COOKIE, f"{payload.decode('ascii')}.{_sign(secret, payload)}", max_age=300,
                        httponly=True, samesite="lax", secure=web_state(request).config.cookie_seguro)


def _read_flash(request: Request) -> list[list[str]]:
    raw = request.cookies.get(FLASH_COOKIE, "")
    payload, _, signature = raw.rpartition(".")
    if not payload or not hmac.compare_digest(signature, _sign(web_state(request).secret, payload.encode("ascii",
                                                                                                          "replace"))):
        return []
    try:
        items = json.loads(base64.urlsafe_b64decode(payload.encode("ascii")))
    except (ValueError, UnicodeDecodeError):
        return []
    if not isinstance(items, list):
        return []
    return [[str(k), str(m)] for k, m in (x for x in items if isinstance(x, list) and len(x) == 2)]


def _url_function(request: Request) -> Callable[..., str]:
    root = str(request.scope.get("root_path", ""))

    def url(name: str, **params: Any) -> str:
        return root + str(request.app.url_path_for(name, **params))

    return url


def base_context(request: Request) -> dict[str, Any]:
    """What every page gets (see the module doc)."""
    token = csrf_token(request)
    url = _url_function(request)
    state = web_state(request)
    return {
        "user": current_user(request),
        "csrf_token": token,
        "csrf_input": Markup('<input type="hidden" name="csrf_token" value="%s">') % escape(token),
        "avisos": _read_flash(request),
        "url": url,
        "static": lambda path: url("static", path=path),
        "hoje": state.autos.today,
        "caminho": request.url.path,
    }


def render(request: Request, name: str, *, status_code: int = 200, headers: Mapping[str, str] | None = None,
           **context: Any) -> HTMLResponse:
    """The page ``name`` of ``templates/web/`` with ``context`` over :func:`base_context`."""
    html = render_string(request, name, **context)
    response = HTMLResponse(html, status_code=status_code, headers=dict(headers or {}))
    if FLASH_COOKIE in request.cookies:
        response.delete_cookie(FLASH_COOKIE)
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def render_string(request: Request, name: str, **context: Any) -> str:
    env: BoundedEnvironment = request.app.state.autos_templates
    return str(env.get_template(name).render({**base_context(request), **context}))
