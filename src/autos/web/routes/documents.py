"""A processo's documents (issue 14, item 3): the page of one act's document with its PDF shown inline (MINUTA while
it has errors), issuing the act (POST, CSRF-checked, refused with the findings while there are errors; audited),
and the downloads of the issued PDF and DOCX.

Thin as the command line: each handler checks the permission on the processo named in the URL
(:func:`~autos.web.permissions.processo_access`: sign-in, 404 outside the processos folder, 403) and calls one
function of :mod:`autos.app.register.preview`. An issued file is looked up in the register by the processo, the act and
the document kind — never by a path taken from the URL — and served only while its bytes have the SHA-256 recorded when
it was issued.

URLs (``{arquivo}``: the processo file relative to the processos folder):

- ``GET  /processo/{arquivo}/ato/{n}/documento/{tipo}`` — the document's page (findings, preview, issue, downloads)
- ``GET  /processo/{arquivo}/ato/{n}/documento/{tipo}/previa.pdf`` — the preview PDF (inline)
- ``POST /processo/{arquivo}/ato/{n}/emitir`` — issue every document of act ``n`` (PDF and DOCX)
- ``GET  /processo/{arquivo}/ato/{n}/documento/{tipo}/emitido.pdf`` and ``…/emitido.docx`` — the issued files
"""

from __future__ import annotations

import asyncio
import re
from pathlib import PurePosixPath
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from autos.app.register.preview import (
    Extension,
    IssueResult,
    Preview,
    PreviewJob,
    act_pieces,
    issue,
    issued_documents,
    issued_file,
    preview,
    preview_job,
)
from autos.errors import NotFoundError, RefusedError
from autos.store.register import Register
from autos.web.csrf import checked_form
from autos.web.permissions import allowed, processo_access
from autos.web.state import register, web_state, with_register
from autos.web.templating import flash, render

_KIND = re.compile(r"[a-z][a-z0-9_]{0,63}")
_MEDIA = {"pdf": "application/pdf",
          "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


def _ato(request: Request) -> int:
    """The act number of the URL (1-based); a path segment that is not one is a page that does not exist."""
    value = str(request.path_params["ato"])
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise NotFoundError(f"ato inexistente: '{value[:16]}'.")
    return int(value)


def _kind(request: Request) -> str:
    tipo = str(request.path_params["tipo"])
    if not _KIND.fullmatch(tipo):
        raise NotFoundError(f"tipo de documento desconhecido: '{tipo[:64]}'.")
    return tipo


def _headers(nome: str, disposition: str) -> dict[str, str]:
    ascii_name = re.sub(r"[^A-Za-z0-9._-]+", "-", nome)
    return {"Content-Disposition": f"{disposition}; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(nome)}",
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def document_page(request: Request) -> Response:
    arquivo, ato, tipo = request.path_params["arquivo"], _ato(request), _kind(request)
    access = processo_access(request, arquivo, "ver")
    state = web_state(request)
    state.today()
    pieces = act_pieces(state.autos, access.file, ato)
    piece = next((p for p in pieces if p.documento == tipo), None)
    if piece is None:
        raise NotFoundError(f"o ato {ato} deste processo não tem o documento '{tipo}'.")
    emitidos = [(PurePosixPath(r.caminho).name, r) for r in issued_documents(register(request), access.file)
                if r.ato == ato and r.documento == tipo]
    formatos = {PurePosixPath(nome).suffix.lstrip(".") for nome, _ in emitidos}
    return render(request, "documento.html", titulo=f"{piece.titulo} — ato {ato}", ref=access.ref, peca=piece,
                  pecas=pieces, emitidos=emitidos, formatos=formatos,
                  pode_emitir=allowed(request, access.user, "emitir", access.ref))


async def preview_pdf(request: Request) -> Response:
    """The preview PDF: the permission check, the file read and the cache look-up in a worker thread; the render
    in the server's render pool (:class:`~autos.app.register.preview.PreviewPool`, every core), awaited without holding
    a thread; in the thread itself when the application runs without its pool."""
    arquivo, ato, tipo = request.path_params["arquivo"], _ato(request), _kind(request)
    state = web_state(request)
    pool = state.render_pool

    def prepare() -> Preview | PreviewJob:
        access = processo_access(request, arquivo, "ver")
        state.today()
        if pool is None:
            return preview(state.autos, access.file, ato, tipo, cache=state.previews)
        return preview_job(state.autos, access.file, ato, tipo, cache=state.previews)

    found = await run_in_threadpool(prepare)
    if isinstance(found, Preview):
        shown = found
    else:
        assert pool is not None
        state.previews.miss()
        shown = await asyncio.wrap_future(pool.submit(found))
        if found.key is not None:
            state.previews.put(found.key, shown)
    headers = _headers(shown.nome, "inline")
    headers["X-Previa-Cache"] = "acerto" if shown.cached else "falta"  # for the load test's hit rate
    return Response(shown.pdf, media_type="application/pdf", headers=headers)


async def issue_post(request: Request) -> Response:
    await checked_form(request, max_files=0, max_fields=5, max_part_size=4 * 1024)
    arquivo, ato = request.path_params["arquivo"], _ato(request)
    state = web_state(request)

    def work(_reg: Register) -> IssueResult:
        access = processo_access(request, arquivo, "emitir")
        state.today()
        return issue(state.autos, access.file, ato, state.config.documentos_pasta, state.config.registro_local,
                     por=access.user.login, objeto=f"processo:{access.ref.arquivo}")

    try:
        done = await with_register(request, work)
    except RefusedError as exc:
        return _refused_page(request, arquivo, ato, exc)
    tipo = request.query_params.get("tipo") or ""
    target = (request.url_for("documento", arquivo=arquivo, ato=ato, tipo=tipo).path + "#emitidos"
              if _KIND.fullmatch(tipo) else request.url_for("processo", arquivo=arquivo).path + "#documentos")
    response = RedirectResponse(target, status_code=303)
    names = ", ".join(d.path.name for d in done.documentos)
    flash(request, response, f"Ato {ato} emitido: {names}. O SHA-256 de cada arquivo foi registrado.")
    return response


def _refused_page(request: Request, arquivo: str, ato: int, exc: RefusedError) -> Response:
    return render(request, "documento_recusado.html", status_code=409, titulo=f"Emissão do ato {ato} recusada",
                  arquivo=arquivo, ato=ato, mensagem=exc.message, dica=exc.hint)


def _download(request: Request, ext: Extension) -> Response:
    arquivo, ato, tipo = request.path_params["arquivo"], _ato(request), _kind(request)
    access = processo_access(request, arquivo, "ver")
    found = issued_file(register(request), access.file, ato, tipo, ext)
    return Response(found.data, media_type=_MEDIA[ext], headers=_headers(found.nome, "attachment"))


def download_pdf(request: Request) -> Response:
    return _download(request, "pdf")


def download_docx(request: Request) -> Response:
    return _download(request, "docx")


_DOC = "/processo/{arquivo:processo}/ato/{ato}/documento/{tipo}"
routes = [
    Route(_DOC, document_page, methods=["GET"], name="documento"),
    Route(_DOC + "/previa.pdf", preview_pdf, methods=["GET"], name="documento_previa"),
    Route(_DOC + "/emitido.pdf", download_pdf, methods=["GET"], name="documento_pdf"),
    Route(_DOC + "/emitido.docx", download_docx, methods=["GET"], name="documento_docx"),
    Route("/processo/{arquivo:processo}/ato/{ato}/emitir", issue_post, methods=["POST"], name="documento_emitir"),
]
