"""Access in a real browser: a fiscal sees his own processos and cannot open another fiscal's (the 403 page, in
Portuguese, showing nothing of the processo). The procurador's review is in test_cenario.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import capturar, entrar, esperar_status

if TYPE_CHECKING:
    from playwright.sync_api import Page

PROCESSO_A = "timoteo-mg/sim-2026-000142-pj-completo.yaml"  # auto by fiscal A (matrícula 20.315)
PROCESSO_B = "timoteo-mg/sim-2026-000171-sem-defesa.yaml"  # auto by fiscal B (matrícula 20.518)


def test_a_fiscal_cannot_open_another_fiscals_processo(page: Page) -> None:
    entrar(page, "fiscal_b")
    lista = page.locator("#lista-processos")
    assert "SIM-2026/000171" in lista.inner_text()
    assert "SIM-2026/000142" not in lista.inner_text()  # not even listed

    esperar_status(page, 403)
    response = page.goto(f"/processo/{PROCESSO_A}")
    assert response is not None and response.status == 403
    body = page.locator("main").inner_text()
    assert "Acesso negado" in body and "403" in body
    assert "Laticínios" not in body and "Vale do Aço" not in body  # nothing of the processo's content leaks
    capturar(page, "09-acesso-negado")

    response = page.goto(f"/processo/{PROCESSO_B}")  # his own opens
    assert response is not None and response.status == 200
    assert "SIM-2026/000171" in page.locator("h1").inner_text()

