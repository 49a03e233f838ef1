"""``autos verificar``'s report as a page: ``/verificacao`` (the report in the application's frame) and
``/verificacao/relatorio`` (the report itself, the same HTML as ``autos verificar --html``), over the processos the
user may see (a procurador: all; a chefia: its department's laws; a fiscal: his own)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from autos.app.register.accounts import User
from autos.app.register.review import visible_files
from autos.app.verification.verify import verification_html, verify
from autos.errors import AccessDeniedError
from autos.web.auth import require_user
from autos.web.permissions import allowed
from autos.web.state import web_state
from autos.web.templating import render

#: the report is one self-contained page with its own inline style and no script
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'; "
              "base-uri 'none'; form-action 'none'")


def _user(request: Request) -> User:
    user = require_user(request)
    if user.papel == "admin":
        raise AccessDeniedError("o papel de administrador cuida das contas e não vê processos.")
    return user


def verification_page(request: Request) -> Response:
    _user(request)
    return render(request, "verificacao.html", titulo="Verificação dos processos")


def verification_report(request: Request) -> Response:
    user = _user(request)
    state = web_state(request)
    state.today()
    folder = state.config.processos
    files = visible_files(state.autos, folder, lambda ref: allowed(request, user, "ver", ref))
    if user.papel == "procurador":
        files = [folder]  # every processo: the report names the folder, as autos verificar PASTA does
    if not files:
        return render(request, "erro.html", status_code=404, titulo="Nenhum processo", status=404,
                      mensagem="não há processo que você possa ver nesta pasta.", dica=None)
    with verify(state.autos, files, registro=state.config.registro_local) as result:
        html = verification_html(result, state.autos.templates_dir)
    return HTMLResponse(html, headers={"Content-Security-Policy": REPORT_CSP, "Cache-Control": "no-store"})


routes = [
    Route("/verificacao", verification_page, methods=["GET"], name="verificacao"),
    Route("/verificacao/relatorio", verification_report, methods=["GET"], name="verificacao_relatorio"),
]
