"""The application: ``create_app(config)`` builds it; ``app_from_environment`` is what ``autos servir`` hands to
uvicorn (by name, so that each worker process builds its own).

- routes: every module of :mod:`autos.web.routes` that has a ``routes`` list is mounted (in name order), so a new
  area is a new module and nothing else changes here;
- ``/static``: ``templates/web/static/`` (own CSS and JS; nothing from a CDN);
- errors, in one place: :class:`~autos.errors.InputError` → 400 with its Portuguese message,
  :class:`~autos.errors.AccessDeniedError` (and a missing CSRF token) → 403, :class:`~autos.errors.NotFoundError`
  and unknown URLs → 404, :class:`~autos.errors.RefusedError` → 409, sign-in needed → redirect to ``/entrar``,
  any other :class:`~autos.errors.AutosError` → 500 with its message, anything else → a 500 page in Portuguese
  (the traceback goes to the server's log, never to the page);
- every response carries a Content-Security-Policy that allows only this site's own scripts, styles, images and
  frames, and the usual hardening headers.

URLs of a processo use the ``processo`` convertor: ``/processo/{arquivo:processo}`` matches a path ending in
``.yaml``/``.yml`` (the file relative to the processos folder), so ``/processo/{arquivo:processo}/parecer`` and the
page itself never shadow each other.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import pkgutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from autos.app.generation.pipeline import Autos
from autos.app.register.preview import PreviewPool
from autos.app.server import WebConfig, config_from_environment
from autos.base.resources import default_templates_dir
from autos.errors import AccessDeniedError, AutosError, InputError, LoginRequired, NotFoundError, RefusedError
from autos.store.register import Register
from autos.web import routes as routes_package
from autos.web.state import WebState, load_secret
from autos.web.templating import make_environment, render

__all__ = ["app_from_environment", "create_app"]

log = logging.getLogger("autos.web")


class ProcessoConvertor(Convertor[str]):
    """A processo file relative to the processos folder: any path ending in ``.yaml`` or ``.yml`` (shortest)."""

    regex = r"[^?#]*?\.ya?ml"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return quote(value, safe="/")


register_url_convertor("processo", ProcessoConvertor())

_TITLES = {400: "Pedido inválido", 403: "Acesso negado", 404: "Página não encontrada", 405: "Método não permitido",
           409: "Operação recusada", 413: "Envio grande demais", 422: "Dados inválidos", 500: "Erro interno",
           503: "Serviço indisponível"}
_DEFAULT_MESSAGES = {
    400: "o pedido não pôde ser entendido.", 403: "você não tem permissão para esta página.",
    404: "o endereço não existe ou o que ele indicava foi removido.",
    405: "este endereço não aceita este tipo de pedido.",
    413: "o que foi enviado passa do limite de tamanho desta aplicação.",
    500: "ocorreu um erro inesperado; nada foi gravado pela operação interrompida.",
}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'self'; "
       "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'")


def _error_page(request: Request, status: int, message: str, hint: str | None = None) -> Response:
    try:
        return render(request, "erro.html", status_code=status, titulo=_TITLES.get(status, "Erro"), status=status,
                      mensagem=message, dica=hint)
    except Exception:  # the error page itself failed (a broken template): a plain page, still in Portuguese
        log.exception("falha ao mostrar a página de erro")
        import html

        return HTMLResponse(f"<!DOCTYPE html><html lang=\"pt-BR\"><meta charset=\"utf-8\"><title>Erro {status}</title>"
                            f"<h1>Erro {status}</h1><p>{html.escape(message)}</p><p><a href=\"/\">Início</a></p>",
                            status_code=status)


def _autos_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AutosError)
    if isinstance(exc, LoginRequired):
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        root = str(request.scope.get("root_path", ""))
        return RedirectResponse(f"{root}/entrar?proximo={quote(target, safe='')}", status_code=303)
    status = 500
    if isinstance(exc, AccessDeniedError):
        status = 403
    elif isinstance(exc, NotFoundError):
        status = 404
    elif isinstance(exc, RefusedError):
        status = 409
    elif isinstance(exc, InputError):
        status = 400
    if status == 500:
        log.error("erro do autos em %s: %s", request.url.path, exc)
    where = exc.location()
    return _error_page(request, status, f"{where}: {exc.message}" if where else exc.message, exc.hint)


def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    message = _DEFAULT_MESSAGES.get(status, "o pedido não pôde ser atendido.")
    response = _error_page(request, status, message)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def _server_error(request: Request, exc: Exception) -> Response:
    log.error("erro inesperado em %s", request.url.path, exc_info=exc)
    return _error_page(request, 500, _DEFAULT_MESSAGES[500], "tente de novo; se o erro continuar, avise o suporte "
                       "com a data e a hora.")


class SecurityHeaders:
    """Content-Security-Policy and the hardening headers on every response (a handler may set its own CSP)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for name, value in ((b"content-security-policy", CSP.encode()),
                                    (b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"SAMEORIGIN"),
                                    (b"referrer-policy", b"same-origin")):
                    if name not in names:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with the Portuguese 413 page (by Content-Length before reading,
    or while reading a body sent in chunks)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            request = Request(scope, receive)
            response = _http_error(request, HTTPException(413))
            await response(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise HTTPException(413)
            return message

        await self.app(scope, limited, send)


def _route_modules() -> list[Any]:
    names = sorted(m.name for m in pkgutil.iter_modules(routes_package.__path__) if not m.name.startswith("_"))
    return [importlib.import_module(f"{routes_package.__name__}.{name}") for name in names]


def _static_folder(config: WebConfig) -> Path:
    if config.modelos is not None and (config.modelos / "web" / "static").is_dir():
        return config.modelos / "web" / "static"
    return default_templates_dir() / "web" / "static"


def create_app(config: WebConfig) -> Starlette:
    """The web application over ``config``'s processos folder and register (created, or brought to the current
    format, here: a register that cannot be opened stops the start with its message)."""
    Register.open(config.registro_local, create=True).close()
    autos = Autos(config.regras, config.modelos, config.hoje)
    state = WebState(config=config, autos=autos, secret=load_secret(config.chave_arquivo))
    folders = [default_templates_dir() / "web"]
    if config.modelos is not None:
        folders.insert(0, config.modelos / "web")
    routes: list[BaseRoute] = []
    for module in _route_modules():
        routes.extend(getattr(module, "routes", []))
    routes.append(Mount("/static", app=StaticFiles(directory=_static_folder(config)), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # one render pool per server: the previews use every core whichever connection asked for them
        pool = PreviewPool(config.regras, config.modelos, config.processos_de_trabalho)
        try:
            await run_in_threadpool(pool.wait_ready)
        except BaseException:
            pool.close()
            raise
        state.render_pool = pool
        try:
            yield
        finally:
            state.render_pool = None
            await run_in_threadpool(pool.close)
            state.close()

    app = Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), Middleware(BodyLimit, limit=config.limite_envio)],
        exception_handlers={AutosError: _autos_error, HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    app.state.autos_web = state
    app.state.autos_templates = make_environment(folders)
    return app


def app_from_environment() -> Starlette:
    """uvicorn's factory (``autos servir``): the configuration named by ``AUTOS_WEB_CONFIG``, else the defaults."""
    return create_app(config_from_environment())



