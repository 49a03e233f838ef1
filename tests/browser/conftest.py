"""Browser tests: Debian's chromium, driven by Playwright through its executable path, against ``autos servir``.

Without chromium (or Playwright) the tests are skipped with the reason, unless ``AUTOS_NAVEGADOR_OBRIGATORIO=1``
(set by .ci/run): then a missing browser is a failure. All of them run on one xdist worker (one server, one
browser), so the other worker keeps the rest of the suite going.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser.contas import ACCOUNTS, SENHA, make_site
from tests.browser.servidor import ROOT, Servidor, chromium_executable

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright

CAPTURAS = ROOT / "docs" / "capturas"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.xdist_group("browser"))


def _unavailable(reason: str) -> None:
    if os.environ.get("AUTOS_NAVEGADOR_OBRIGATORIO") == "1":
        pytest.fail(f"testes no navegador obrigatórios (AUTOS_NAVEGADOR_OBRIGATORIO=1), mas {reason}",
                    pytrace=False)
    pytest.skip(f"testes no navegador não rodam: {reason} (instale o pacote Debian 'chromium', como faz .ci/run)")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = chromium_executable()
    if path is None:
        _unavailable("o chromium do Debian não foi encontrado (/usr/lib/chromium/chromium, 'chromium' no PATH "
                      "ou $AUTOS_CHROMIUM)")
    assert path is not None
    return path


# package scope: Playwright's synchronous API runs an event loop in this thread while it is open; closed when the
# browser tests end, so the tests that run after them in the same xdist worker (pyHanko's synchronous calls start
# a loop of their own: asyncio.run) do not find a loop already running
@pytest.fixture(scope="package")
def playwright(chromium_path: str) -> Iterator[Playwright]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("o Playwright para Python não está instalado (pip install -e '.[test]')")
        raise
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="package")
def browser(playwright: Playwright, chromium_path: str) -> Iterator[Browser]:
    # Playwright turns extensions off; chromium's PDF viewer is one (a component extension): without it the
    # preview's <iframe> stays blank, with it the page shows the PDF as a clerk sees it
    browser = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                         args=["--no-sandbox", "--disable-dev-shm-usage"],
                                         ignore_default_args=["--disable-extensions",
                                                              "--disable-component-extensions-with-background-pages"])
    yield browser
    browser.close()


@dataclass(frozen=True)
class Site:
    """The running server and its folder (a copy of the sample processos, with its register and accounts)."""

    base_url: str
    base: Path

    @property
    def processos(self) -> Path:
        return self.base / "processos"

    def url(self, path: str) -> str:
        return self.base_url + path


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("site")
    config = make_site(base)
    with Servidor(config, base / "servidor.log") as server:
        yield Site(server.base_url, base)


@pytest.fixture()
def context(browser: Browser, site: Site) -> Iterator[BrowserContext]:
    ctx = browser.new_context(base_url=site.base_url, accept_downloads=True, locale="pt-BR",
                              viewport={"width": 1180, "height": 900})
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test if the browser reported an error: a script that threw, a resource refused by the
    Content-Security-Policy (an inline style or script the server's CSP blocks), a request that failed."""
    pg = context.new_page()
    problems: list[str] = []

    def console(msg: ConsoleMessage) -> None:
        url = msg.location.get("url") or pg.url
        if msg.type == "error" and not url.endswith("/favicon.ico"):  # asked by the browser itself, not the page
            problems.append(f"console {msg.type}: {msg.text} ({url})")

    pg.on("console", console)
    pg.on("pageerror", lambda exc: problems.append(f"erro de script: {exc} ({pg.url})"))
    _EXPECTED[id(pg)] = []
    yield pg
    expected = _EXPECTED.pop(id(pg))
    unexpected = [p for p in problems if not any(e in p for e in expected)]
    assert not unexpected, "o navegador relatou erros:\n" + "\n".join(unexpected)


_EXPECTED: dict[int, list[str]] = {}


def esperar_status(page: Page, status: int) -> None:
    """The test asks for a page that answers ``status`` (403, 404…): the browser's console line about it is
    expected, not an error of the page."""
    _EXPECTED[id(page)].append(f"the server responded with a status of {status}")


def capturar(page: Page, name: str, **kwargs: Any) -> Path:
    """Screenshot of the whole page into docs/capturas/<name>.png (committed; the README links the folder)."""
    CAPTURAS.mkdir(parents=True, exist_ok=True)
    target = CAPTURAS / f"{name}.png"
    page.screenshot(path=str(target), full_page=True, **kwargs)
    return target


def entrar(page: Page, conta: str) -> None:
    """Sign in as one of the test accounts (``fiscal_a``, ``fiscal_b``, ``procurador``) through the login page."""
    page.goto("/entrar")
    page.fill("#login", ACCOUNTS[conta]["login"])
    page.fill("#senha", SENHA)
    with page.expect_navigation():
        page.get_by_role("button", name="Entrar").click()


def revisar_de_acordo(page: Page, arquivo: str, texto: str) -> None:
    """The procurador opens the processo, records "de acordo" with a note; the page shows it with her name."""
    entrar(page, "procurador")
    page.goto(f"/processo/{arquivo}")
    revisoes = page.locator("#revisoes")
    revisoes.get_by_role("radio", name="De acordo").check()
    revisoes.locator("#texto").fill(texto)
    with page.expect_navigation():
        revisoes.get_by_role("button", name="Registrar").click()
    registrada = page.locator("#revisoes .revisao").last.inner_text()
    assert "De acordo" in registrada and "Paula Mendes" in registrada and texto in registrada, registrada
    assert "revisou" in page.locator("#historico").inner_text()  # the audit log, on the page

