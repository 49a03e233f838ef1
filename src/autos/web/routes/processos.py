"""The processos: the list (``/processos``, the data of ``autos pendencias``), a processo's page for its legal review
(``/processo/<arquivo>``) and the procurador's "de acordo" or parecer (``POST /processo/<arquivo>/revisao``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from autos.app.register.accounts import User
from autos.app.register.review import (
    REVIEW_KINDS,
    ProcessoRef,
    ReviewFilters,
    processo_list,
    processo_review,
    record_review,
)
from autos.compute.timeline import URGENCY_ORDER, Timeline
from autos.errors import AccessDeniedError
from autos.store.register import Register
from autos.web.auth import require_user
from autos.web.csrf import checked_form
from autos.web.permissions import allowed, can, processo_access
from autos.web.state import register, web_state, with_register
from autos.web.templating import flash, render

#: the situations offered by the list's filter (the urgencies of autos pendencias)
SITUACOES = (*URGENCY_ORDER, "com erros", "nada pendente")


def _reader(request: Request) -> User:
    """A user who reads processos (every role but the administrator's)."""
    user = require_user(request)
    if user.papel == "admin":
        raise AccessDeniedError("o papel de administrador cuida das contas e não vê processos.",
                                hint="entre com uma conta de fiscal, chefia ou procurador.")
    return user


def processos_page(request: Request) -> Response:
    user = _reader(request)
    state = web_state(request)
    filters = ReviewFilters.parse(dict(request.query_params))
    leis = state.config.leis_do_departamento(user.departamento)

    def visible(t: Timeline) -> bool:
        return can(user, "ver", ProcessoRef(t.file, "", t.lei, t.numero, t.agente_matricula), leis=leis)

    lista = processo_list(state.autos, state.config.processos, state.today(), filters, visible)
    return render(request, "processos.html", titulo="Processos", lista=lista, filtros=filters, situacoes=SITUACOES,
                  falhas=lista.falhas if user.papel == "procurador" else [],
                  pode_criar=allowed(request, user, "criar"))


def processo_page(request: Request) -> Response:
    access = processo_access(request, request.path_params["arquivo"], "ver")
    state = web_state(request)
    state.today()
    review = processo_review(state.autos, register(request), access.ref)
    user = access.user
    return render(request, "processo.html", titulo=f"Processo {review.report.processo or access.ref.arquivo}",
                  r=review, ref=access.ref, t=review.timeline, tipos_revisao=REVIEW_KINDS,
                  pode_revisar=allowed(request, user, "revisar", access.ref),
                  pode_editar=allowed(request, user, "editar", access.ref),
                  pode_emitir=allowed(request, user, "emitir", access.ref))


async def processo_review_post(request: Request) -> Response:
    form = await checked_form(request, max_files=0, max_fields=10, max_part_size=256 * 1024)
    arquivo = request.path_params["arquivo"]
    tipo = str(form.get("tipo") or "")
    texto = str(form.get("texto") or "")

    def work(reg: Register) -> str:
        access = processo_access(request, arquivo, "revisar")
        record_review(reg, access.ref, tipo, texto, access.user.login, access.user.nome)
        return "De acordo registrado." if tipo == "de_acordo" else "Parecer registrado."

    message = await with_register(request, work)
    response = RedirectResponse(request.url_for("processo", arquivo=arquivo).path + "#revisoes", status_code=303)
    flash(request, response, message)
    return response


routes = [
    Route("/processos", processos_page, methods=["GET"], name="processos"),
    Route("/processo/{arquivo:processo}", processo_page, methods=["GET"], name="processo"),
    Route("/processo/{arquivo:processo}/revisao", processo_review_post, methods=["POST"], name="processo_revisao"),
]
