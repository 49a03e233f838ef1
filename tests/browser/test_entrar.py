"""The sign-in page in a real browser: a wrong password is refused with the reason, the right one opens a
session (the processos page, and its cookie is HttpOnly)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.conftest import Site, capturar, entrar, esperar_status
from tests.browser.contas import ACCOUNTS

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page


def test_wrong_password_is_refused_then_the_right_one_signs_in(page: Page, context: BrowserContext,
                                                                site: Site) -> None:
    page.goto("/")
    assert page.url.endswith("/entrar"), page.url  # nothing without a session: the start page sends to sign-in
    capturar(page, "01-entrar")
    page.fill("#login", ACCOUNTS["fiscal_a"]["login"])
    page.fill("#senha", "senha-errada-123")
    esperar_status(page, 400)
    page.get_by_role("button", name="Entrar").click()
    assert "login ou senha incorretos" in page.get_by_role("alert").inner_text()
    assert not page.url.endswith("/processos")

    entrar(page, "fiscal_a")
    assert page.url.endswith("/processos"), page.url
    assert "SIM-2026/000142" in page.locator("#lista-processos").inner_text()  # his own processos
    capturar(page, "02-processos")
    session = [c for c in context.cookies() if c.get("httpOnly")]
    assert session, context.cookies()
