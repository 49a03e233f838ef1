"""The spreadsheet import page (``/importar``): a CSV or XLSX of notices, one processo per row, validated row by
row by :func:`autos.app.forms.importing.import_sheet`; the page shows the files written and each refused row with its
column and message. The upload is bounded (size by the form parser and again by the library, type by content)."""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from autos.app.forms.importing import MAX_SHEET_BYTES, ImportReport, import_sheet
from autos.app.register.review import ProcessoRef, relative_name
from autos.errors import InputError
from autos.store.register import Register
from autos.web.csrf import checked_form
from autos.web.permissions import require
from autos.web.state import web_state, with_register
from autos.web.templating import render

_SUFFIXES = (".csv", ".xlsx", ".txt")


def _leis(request: Request) -> list[tuple[str, str]]:
    state = web_state(request)
    return [(lei, s.lei.label + " — " + s.lei.municipio) for lei, s in sorted(state.autos.rules.statutes.items())]


def importar_page(request: Request) -> Response:
    require(request, "criar")
    return render(request, "importar.html", titulo="Importar planilha", leis=_leis(request), relatorio=None,
                  erro=None, lei=None, limite_mib=MAX_SHEET_BYTES // (1024 * 1024), arquivos={})


async def importar_enviar(request: Request) -> Response:
    # max_part_size bounds the text fields; the file is bounded by the body limit and read up to MAX_SHEET_BYTES + 1
    form = await checked_form(request, max_files=1, max_fields=5, max_part_size=64 * 1024)
    user = require(request, "criar")
    state = web_state(request)
    lei = str(form.get("lei") or "")
    upload = form.get("planilha")
    common: dict[str, Any] = {"titulo": "Importar planilha", "leis": _leis(request), "lei": lei,
                              "limite_mib": MAX_SHEET_BYTES // (1024 * 1024)}
    if not isinstance(upload, UploadFile) or not upload.filename:
        return render(request, "importar.html", status_code=400, relatorio=None, arquivos={},
                      erro="escolha a planilha (CSV ou XLSX) a importar.", **common)
    require(request, "criar", ProcessoRef(state.config.processos, "", lei, None, None))
    raw = await upload.read(MAX_SHEET_BYTES + 1)
    filename = upload.filename
    suffix = PurePath(filename).suffix.lower()
    name = PurePath("planilha" + (suffix if suffix in _SUFFIXES else suffix[:8]))

    def work(reg: Register) -> ImportReport:
        report = import_sheet(state.autos, Path(name), lei,
                              state.config.processos, reg, raw=raw)
        for linha, file, reservados in report.gravados:
            reg.audit(user.login, "criou", f"processo:{relative_name(state.config.processos, file)}",
                      f"importado da planilha {filename[:100]}, linha {linha}"
                      + (f" ({', '.join(reservados)})" if reservados else ""))
        return report

    try:
        report = await with_register(request, work)
    except InputError as exc:
        return render(request, "importar.html", status_code=400, relatorio=None, arquivos={}, erro=exc.render(),
                      **common)
    arquivos = {str(f): relative_name(state.config.processos, f) for _, f, _ in report.gravados}
    return render(request, "importar.html", status_code=200, relatorio=report, erro=None, arquivos=arquivos,
                  **common)


routes = [
    Route("/importar", importar_page, methods=["GET"], name="importar"),
    Route("/importar", importar_enviar, methods=["POST"], name="importar_enviar"),
]
