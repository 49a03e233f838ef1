"""The forms: a new processo (``/processos/novo``), a processo edited (``/processo/<arquivo>/editar``) and the next act
of a processo (``/processo/<arquivo>/ato``), each with its JSON validation endpoint (the findings of ``autos validar``
beside each field while the clerk types). Thin: each handler parses the request, checks the permission and calls
one function of :mod:`autos.app.forms.processo_form` or :mod:`autos.app.forms.act_form`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from autos.app.forms import act_form
from autos.app.forms import processo_form as forms
from autos.app.register.accounts import User
from autos.app.register.review import ProcessoRef, relative_name
from autos.errors import AutosError, EditConflictError
from autos.processo.load import load_processo
from autos.processo.text import parse_dotted
from autos.store.register import Register
from autos.web.csrf import checked_form
from autos.web.permissions import processo_access, require
from autos.web.state import web_state, with_register
from autos.web.templating import flash, render

#: names of a form that are not fields of the processo
_RESERVED = {"csrf_token", "sha256", "texto_base"}
_MAX_FIELDS = forms.MAX_FIELDS
_MAX_PART = 1024 * 1024


def _values(form: FormData) -> dict[str, str]:
    """The processo fields of a posted form (text only; the token and the hash are not fields)."""
    out: dict[str, str] = {}
    for key, value in form.multi_items():
        if key in _RESERVED or not isinstance(value, str):
            continue
        out[key] = value
    return out


async def _edit_post(request: Request) -> tuple[str, dict[str, str], str, str | None]:
    """What a save of an existing processo posts: its file (from the URL), the values, the SHA-256 of the file as
    it was loaded and the text it was loaded with (to show what changed meanwhile)."""
    form_data = await checked_form(request, max_files=0, max_fields=_MAX_FIELDS, max_part_size=_MAX_PART)
    base = form_data.get("texto_base")
    return (request.path_params["arquivo"], _values(form_data), str(form_data.get("sha256") or ""),
            base if isinstance(base, str) else None)


def _conflict_page(request: Request, exc: EditConflictError, arquivo: str) -> Response:
    return render(request, "processo_conflito.html", status_code=409, titulo="Processo alterado por outra pessoa",
                  erro=exc, arquivo=arquivo)


def _to_processo(request: Request, arquivo: str, message: str) -> Response:
    response = RedirectResponse(request.url_for("processo", arquivo=arquivo).path, status_code=303)
    flash(request, response, message)
    return response


def _choices(params: Mapping[str, Any], multi: Any) -> tuple[str | None, list[str], bool, list[str] | None]:
    lei = str(params.get("lei") or "") or None
    infracoes = [str(x) for x in multi("infracao") if str(x)]
    pens = [str(x) for x in multi("penalidade") if str(x)]
    return lei, infracoes, bool(params.get("juridica")), (pens or None) if params.get("escolheu_penalidades") else None


def _choices_of_values(values: Mapping[str, str]) -> tuple[str | None, list[str], bool, list[str] | None]:
    """The choices a posted form was made of (its fixed fields)."""
    infracoes, pens = [], []
    for key, value in values.items():
        path = parse_dotted(key)
        if path and len(path) == 3 and path[0] == "infracoes" and path[2] == "regra":
            infracoes.append(value)
        elif path and len(path) == 5 and path[:3] == ("atos", 0, "penalidades") and path[4] == "tipo":
            pens.append(value)
    return (values.get("lei") or None, infracoes, values.get("autuado.tipo") == "pessoa_juridica", pens or None)


def _names(form: forms.ProcessoForm | act_form.ActForm) -> list[str]:
    return [f.nome for f in form.campos if not f.fixo]


def _prefill(user: User, form: forms.ProcessoForm) -> dict[str, str]:
    """The preset values, and the agent's name and matrícula of a fiscal (the auto is his)."""
    values = {f.nome: f.valor for f in form.campos if not f.grupo and f.valor}
    if user.papel == "fiscal":
        if form.campo("atos[0].agente.nome") is not None:
            values["atos[0].agente.nome"] = user.nome
        if form.campo("atos[0].agente.matricula") is not None and user.matricula:
            values["atos[0].agente.matricula"] = user.matricula
    return values


def _page(request: Request, form: forms.ProcessoForm, values: Mapping[str, str], report: forms.DraftReport | None,
          *, status_code: int = 200, erro: str | None = None, edicao: forms.Editing | None = None,
          arquivo: str | None = None) -> Response:
    extras = {k: v for k, v in values.items() if form.campo(k) is None} if edicao is not None else {}
    return render(request, "processo_formulario.html", status_code=status_code,
                  titulo="Editar processo" if edicao else "Novo processo", form=form, valores=values,
                  achados=report.por_campo() if report else {}, relatorio=report, erro=erro, edicao=edicao,
                  extras=extras, arquivo=arquivo)


# --- a new processo ---------------------------------------------------------------------------------


def novo_page(request: Request) -> Response:
    user = require(request, "criar")
    state = web_state(request)
    lei, infracoes, juridica, pens = _choices(request.query_params, request.query_params.getlist)
    if lei is not None:
        require(request, "criar", ProcessoRef(state.config.processos, "", lei, None, None))
    form = forms.processo_form(state.autos, lei, infracoes, juridica, pens)
    values = _prefill(user, form)
    report = forms.validate_draft(state.autos, values, campos=_names(form)) if form.completo else None
    return _page(request, form, values, report)


async def novo_validar(request: Request) -> Response:
    form_data = await checked_form(request, max_files=0, max_fields=_MAX_FIELDS, max_part_size=_MAX_PART)
    require(request, "criar")
    state = web_state(request)
    values = _values(form_data)

    def work() -> dict[str, Any]:
        lei, infracoes, juridica, pens = _choices_of_values(values)
        form = forms.processo_form(state.autos, lei, infracoes, juridica, pens)
        return forms.validate_draft(state.autos, values, campos=_names(form)).to_dict()

    return JSONResponse(await run_in_threadpool(work), headers={"Cache-Control": "no-store"})


async def novo_salvar(request: Request) -> Response:
    form_data = await checked_form(request, max_files=0, max_fields=_MAX_FIELDS, max_part_size=_MAX_PART)
    state = web_state(request)
    values = _values(form_data)
    lei, infracoes, juridica, pens = _choices_of_values(values)
    user = require(request, "criar", ProcessoRef(state.config.processos, "", lei or "", None, None))

    def work(reg: Register) -> tuple[forms.Saved | None, forms.ProcessoForm, forms.DraftReport | None, str | None]:
        form = forms.processo_form(state.autos, lei, infracoes, juridica, pens)
        try:
            saved = forms.save_new_processo(state.autos, values, state.config.processos, reg)
        except forms.FormInvalid as exc:
            return None, form, exc.report, None
        except AutosError as exc:
            return None, form, forms.validate_draft(state.autos, values, campos=_names(form)), exc.render()
        arquivo = relative_name(state.config.processos, saved.arquivo)
        reg.audit(user.login, "criou", f"processo:{arquivo}",
                  "; ".join(saved.reservados) if saved.reservados else None)
        return saved, form, None, None

    saved, form, report, erro = await with_register(request, work)
    if saved is None:
        return _page(request, form, values, report, status_code=422 if erro is None else 409, erro=erro)
    arquivo = relative_name(state.config.processos, saved.arquivo)
    return _to_processo(request, arquivo, "Processo gravado" + (f" (reservado: {', '.join(saved.reservados)})."
                                                                if saved.reservados else "."))


# --- a processo edited --------------------------------------------------------------------------------


def _edit_form(state: Any, values: Mapping[str, str]) -> forms.ProcessoForm:
    lei, infracoes, juridica, pens = _choices_of_values(values)
    try:
        return forms.processo_form(state.autos, lei, infracoes, juridica, pens)
    except AutosError:  # a file whose choices are not in the rules: its values still go back as they are
        return forms.ProcessoForm(forms.law_choices(state.autos.rules), lei)


def editar_page(request: Request) -> Response:
    arquivo = request.path_params["arquivo"]
    access = processo_access(request, arquivo, "editar")
    state = web_state(request)
    edicao = forms.load_for_edit(access.file)
    form = _edit_form(state, edicao.valores)
    report = forms.validate_draft(state.autos, edicao.valores, campos=_names(form), file=access.file)
    return _page(request, form, edicao.valores, report, edicao=edicao, arquivo=arquivo)


async def editar_validar(request: Request) -> Response:
    form_data = await checked_form(request, max_files=0, max_fields=_MAX_FIELDS, max_part_size=_MAX_PART)
    arquivo = request.path_params["arquivo"]
    values = _values(form_data)

    def work() -> dict[str, Any]:
        access = processo_access(request, arquivo, "editar")
        state = web_state(request)
        form = _edit_form(state, values)
        return forms.validate_draft(state.autos, values, campos=_names(form), file=access.file).to_dict()

    return JSONResponse(await run_in_threadpool(work), headers={"Cache-Control": "no-store"})


async def editar_salvar(request: Request) -> Response:
    arquivo, values, sha, base_text = await _edit_post(request)

    def work(reg: Register) -> Response | None:
        access = processo_access(request, arquivo, "editar")
        state = web_state(request)
        try:
            forms.save_processo(state.autos, values, access.file, sha, base_text=base_text, register=reg)
        except EditConflictError as exc:
            return _conflict_page(request, exc, arquivo)
        except forms.FormInvalid as exc:
            edicao = forms.Editing(access.file, sha, base_text or "", values)
            return _page(request, _edit_form(state, values), values, exc.report, status_code=422, edicao=edicao,
                         arquivo=arquivo)
        reg.audit(access.user.login, "alterou", f"processo:{arquivo}", "formulário do processo")
        return None

    page = await with_register(request, work)
    return page if page is not None else _to_processo(request, arquivo, "Processo gravado.")


# --- the next act ----------------------------------------------------------------------------------------


def ato_page(request: Request) -> Response:
    arquivo = request.path_params["arquivo"]
    access = processo_access(request, arquivo, "editar")
    state = web_state(request)
    edicao = forms.load_for_edit(access.file)
    tipo = str(request.query_params.get("tipo") or "") or None
    form = act_form.act_form(state.autos, load_processo(access.file), tipo)
    values = {f.nome: f.valor for f in form.campos if f.valor}
    report = (act_form.validate_act_draft(state.autos, access.file, values, campos=_names(form))
              if form.tipo else None)
    return render(request, "processo_ato.html", titulo="Novo ato", form=form, valores=values, arquivo=arquivo,
                  achados=report.por_campo() if report else {}, relatorio=report, edicao=edicao, erro=None)


async def ato_validar(request: Request) -> Response:
    form_data = await checked_form(request, max_files=0, max_fields=_MAX_FIELDS, max_part_size=_MAX_PART)
    arquivo = request.path_params["arquivo"]
    values = _values(form_data)

    def work() -> dict[str, Any]:
        access = processo_access(request, arquivo, "editar")
        state = web_state(request)
        return act_form.validate_act_draft(state.autos, access.file, values, campos=list(values)).to_dict()

    return JSONResponse(await run_in_threadpool(work), headers={"Cache-Control": "no-store"})


async def ato_salvar(request: Request) -> Response:
    arquivo, values, sha, base_text = await _edit_post(request)
    tipos = [v for k, v in values.items() if k.endswith("].tipo") and k.count(".") == 1]  # the acts added

    def work(reg: Register) -> Response | str:
        access = processo_access(request, arquivo, "editar")
        state = web_state(request)
        try:
            saved = act_form.append_act(state.autos, access.file, sha, values, base_text=base_text, register=reg)
        except EditConflictError as exc:
            return _conflict_page(request, exc, arquivo)
        except forms.FormInvalid as exc:
            loaded = load_processo(access.file)
            form = act_form.act_form(state.autos, loaded, tipos[0] if tipos else None)
            return render(request, "processo_ato.html", status_code=422, titulo="Novo ato", form=form,
                          valores=values, arquivo=arquivo, achados=exc.report.por_campo(), relatorio=exc.report,
                          edicao=forms.Editing(access.file, sha, base_text or "", values), erro=None)
        reg.audit(access.user.login, "alterou", f"processo:{arquivo}",
                  f"ato acrescentado: {', '.join(tipos)}" + (f" ({', '.join(saved.reservados)})"
                                                            if saved.reservados else ""))
        return "Ato acrescentado ao processo."

    result = await with_register(request, work)
    return _to_processo(request, arquivo, result) if isinstance(result, str) else result


routes = [
    Route("/processos/novo", novo_page, methods=["GET"], name="processo_novo"),
    Route("/processos/novo", novo_salvar, methods=["POST"], name="processo_novo_salvar"),
    Route("/processos/novo/validar", novo_validar, methods=["POST"], name="processo_novo_validar"),
    Route("/processo/{arquivo:processo}/editar", editar_page, methods=["GET"], name="processo_editar"),
    Route("/processo/{arquivo:processo}/editar", editar_salvar, methods=["POST"], name="processo_editar_salvar"),
    Route("/processo/{arquivo:processo}/editar/validar", editar_validar, methods=["POST"],
          name="processo_editar_validar"),
    Route("/processo/{arquivo:processo}/ato", ato_page, methods=["GET"], name="processo_ato"),
    Route("/processo/{arquivo:processo}/ato", ato_salvar, methods=["POST"], name="processo_ato_salvar"),
    Route("/processo/{arquivo:processo}/ato/validar", ato_validar, methods=["POST"], name="processo_ato_validar"),
]
