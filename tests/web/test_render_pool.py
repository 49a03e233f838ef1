"""The server's render pool under bad input and load: previews are rendered in the application's pool of
processes (started by its lifespan, closed at shutdown), whatever connection asked for them; a cached preview
never goes to the pool; a render process that dies is replaced and the preview that waited on it gets a
Portuguese 500 page, not a hung request. Without its lifespan (a TestClient not used as a context) the
application renders in the request's thread (the rest of tests/web runs that way).

Three PDFs are rendered in the pool here, one in process."""

from __future__ import annotations

import html
import os
import signal
import time
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient

from ..textutil import pdf_text
from .conftest import CONFIG, OWN, WebEnv, sign_in

pytestmark = pytest.mark.xdist_group("web_render_pool")

POOL_CONFIG = CONFIG.replace("sessao_horas = 8\n", "sessao_horas = 8\nprocessos_de_trabalho = 1\n")
DOC = f"/processo/{OWN}/ato/1/documento/auto_de_infracao/previa.pdf"
TERMO = f"/processo/{OWN}/ato/2/documento/termo_apreensao/previa.pdf"


def _gone(pid: int, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_previews_render_in_the_pool_and_a_dead_render_process_is_replaced(
        new_env: Callable[..., WebEnv]) -> None:
    env = new_env(POOL_CONFIG)
    state = env.app.state.autos_web
    with TestClient(env.app, raise_server_exceptions=False, follow_redirects=False) as c:
        pool = state.render_pool
        assert pool is not None and pool.workers == 1
        sign_in(c, "ana")
        first = c.get(DOC)
        assert first.status_code == 200 and first.headers["x-previa-cache"] == "falta"
        assert "SIM-2026/000171" in pdf_text(first.content)
        (pid,) = pool.pids()
        assert pid != os.getpid()

        # an error raised in the render process comes back as itself: the document kind the act does not have
        missing = c.get(f"/processo/{OWN}/ato/1/documento/nao_existe/previa.pdf")
        assert missing.status_code == 400
        shown = html.unescape(missing.text)
        assert "não tem o documento 'nao_existe'" in shown and "documentos deste ato: auto_de_infracao" in shown

        os.kill(pid, signal.SIGKILL)
        assert _gone(pid)
        cached = c.get(DOC)  # a hit never goes to the pool: served while the pool is broken
        assert cached.status_code == 200 and cached.headers["x-previa-cache"] == "acerto"
        assert cached.content == first.content

        died = c.get(TERMO)
        assert died.status_code == 500 and died.headers["content-type"].startswith("text/html")
        assert "terminou inesperadamente" in died.text and "abra a página de novo" in died.text

        again = c.get(TERMO)  # the pool was replaced: the same preview now renders
        assert again.status_code == 200 and again.headers["x-previa-cache"] == "falta"
        assert "SIM-2026/000171" in pdf_text(again.content)
        (new_pid,) = pool.pids()
        assert new_pid != pid
    assert state.render_pool is None  # shutdown closed the pool: its process ended
    assert _gone(new_pid)


def test_without_the_lifespan_previews_render_in_the_request_thread(new_env: Callable[..., WebEnv]) -> None:
    env = new_env(POOL_CONFIG)
    c = env.client("ana")
    r = c.get(DOC)
    assert env.app.state.autos_web.render_pool is None
    assert r.status_code == 200 and r.headers["x-previa-cache"] == "falta"
    assert "SIM-2026/000171" in pdf_text(r.content)
