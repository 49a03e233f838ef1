"""Accounts (``/admin/usuarios``: list, create, deactivate) and the audit log (``/admin/auditoria``), for the
administrator only."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from autos.app.register.accounts import PAPEIS, PAPEL_NOMES, create_user, deactivate_user, list_users
from autos.errors import InputError
from autos.store.register import Register
from autos.web.csrf import checked_form
from autos.web.permissions import require
from autos.web.state import register, web_state, with_register
from autos.web.templating import flash, render


def _page(request: Request, *, status_code: int = 200, erro: str | None = None,
          valores: dict[str, str] | None = None) -> Response:
    config = web_state(request).config
    return render(request, "admin_usuarios.html", status_code=status_code, titulo="Contas",
                  usuarios=list_users(register(request)), papeis=PAPEIS, papel_nomes=PAPEL_NOMES,
                  departamentos=sorted(config.departamentos), erro=erro, valores=valores or {})


def users_page(request: Request) -> Response:
    require(request, "administrar")
    return _page(request)


async def users_create(request: Request) -> Response:
    form = await checked_form(request, max_files=0, max_fields=20)
    values = {k: str(form.get(k) or "") for k in ("login", "nome", "papel", "matricula", "departamento")}
    senha = str(form.get("senha") or "")
    config = web_state(request).config

    def work(reg: Register) -> Response:
        admin = require(request, "administrar")
        if senha != str(form.get("senha2") or ""):
            return _page(request, status_code=400, erro="as duas senhas digitadas são diferentes.", valores=values)
        try:
            user = create_user(reg, values["login"], senha, nome=values["nome"], papel=values["papel"],
                               matricula=values["matricula"] or None, departamento=values["departamento"] or None,
                               departamentos=tuple(config.departamentos) or None, por=admin.login)
        except InputError as exc:
            return _page(request, status_code=400, erro=exc.render(), valores=values)
        response = RedirectResponse(str(request.url_for("admin_usuarios").path), status_code=303)
        flash(request, response, f"Conta '{user.login}' criada ({user.papel_nome}).")
        return response

    return await with_register(request, work)


async def users_deactivate(request: Request) -> Response:
    await checked_form(request, max_files=0, max_fields=5)
    login = request.path_params["login"]

    def work(reg: Register) -> Response:
        admin = require(request, "administrar")
        if login == admin.login:
            raise InputError("você não pode desativar a própria conta.", hint="peça a outro administrador.")
        user = deactivate_user(reg, login, por=admin.login)
        response = RedirectResponse(str(request.url_for("admin_usuarios").path), status_code=303)
        flash(request, response, f"Conta '{user.login}' desativada; as sessões dela foram encerradas.")
        return response

    return await with_register(request, work)


def audit_page(request: Request) -> Response:
    require(request, "administrar")
    return render(request, "admin_auditoria.html", titulo="Auditoria", entradas=register(request).audit_recent(500))


routes = [
    Route("/admin/usuarios", users_page, methods=["GET"], name="admin_usuarios"),
    Route("/admin/usuarios", users_create, methods=["POST"], name="admin_usuarios_criar"),
    Route("/admin/usuarios/{login}/desativar", users_deactivate, methods=["POST"], name="admin_usuarios_desativar"),
    Route("/admin/auditoria", audit_page, methods=["GET"], name="admin_auditoria"),
]
