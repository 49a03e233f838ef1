"""The processo's documents in the web application: the timeline drawn on the processo
page, one act's document page, its PDF preview (MINUTA while it has errors), issuing (CSRF, permission, refused with
the findings while there are errors, audited) and the downloads of the issued files, found through the register.

Four PDFs are rendered in the whole module: one preview (a MINUTA), one issue (its PDF and DOCX) and a preview before
and after its processo is edited (the preview cache)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from starlette.testclient import TestClient

from autos.app.register.preview import issued_documents

from ..textutil import docx_text, pdf_text
from .conftest import FERRAZ, OWN, WebEnv, form_token

pytestmark = pytest.mark.xdist_group("web_documents")

DOC = f"/processo/{OWN}/ato/1/documento/auto_de_infracao"
BROKEN = "timoteo-mg/sim-2026-000999-sem-local.yaml"  # ana's too: the auto without its place (art. 20, § 1º, II)
BROKEN_DOC = f"/processo/{BROKEN}/ato/1/documento/auto_de_infracao"


@pytest.fixture(scope="module")
def broken(web: WebEnv) -> Path:
    text = (web.folder / OWN).read_text(encoding="utf-8")
    local = "    local: Feira livre da Praça 1º de Maio, Timóteo/MG\n"
    text = text.replace(local, "", 1).replace("numero: SIM-2026/000171", "numero: SIM-2026/000999")
    text = text.replace('"21/2026"', '"99/2026"')
    target = web.folder / BROKEN
    target.write_text(text, encoding="utf-8")
    return target


def _soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def test_processo_page_draws_the_timeline_and_links_each_document(clients: dict[str, TestClient]) -> None:
    r = clients["ana"].get(f"/processo/{OWN}")
    assert r.status_code == 200
    page = _soup(r.text)
    svg = page.select_one("#linha-do-tempo #linha-do-tempo-svg svg")
    assert svg is not None and svg.get("role") == "img"
    title = svg.find("title")
    assert title is not None and title.get_text() == "Linha do tempo do processo SIM-2026/000171 em 30/11/2026"
    states = [t.get_text() for g in svg.select("g.prazo") for t in g.find_all("text")][2::3]
    assert states == ["CUMPRIDO", "PERDIDO", "PERDIDO"]  # the hand-worked terms of tests/test_timeline_svg.py
    links = {a["id"]: a["href"] for a in page.select("#documentos a.previsualizar")}
    assert links["previsualizar-1-auto_de_infracao"] == DOC
    assert "previsualizar-2-termo_apreensao" in links


def test_document_page_without_errors_offers_preview_and_issue(clients: dict[str, TestClient]) -> None:
    r = clients["ana"].get(DOC)
    assert r.status_code == 200
    page = _soup(r.text)
    assert page.select_one("#sem-pendencias") is not None and page.select_one("#selo-minuta") is None
    frame = page.select_one("iframe#previa-pdf")
    assert frame is not None and frame["src"] == DOC + "/previa.pdf" and frame.get("title")
    form = page.select_one("form#emitir-form")
    assert form is not None and form["action"] == f"/processo/{OWN}/ato/1/emitir?tipo=auto_de_infracao"
    assert form.select_one('input[name="csrf_token"]') is not None and page.select_one("#emitir-botao") is not None
    # a procurador reads the document but cannot issue it
    r = clients["procuradora"].get(DOC)
    assert r.status_code == 200 and _soup(r.text).select_one("form#emitir-form") is None


def test_document_page_with_errors_is_a_minuta_listing_the_findings(clients: dict[str, TestClient],
                                                                     broken: Path) -> None:
    r = clients["ana"].get(BROKEN_DOC)
    assert r.status_code == 200
    page = _soup(r.text)
    selo = page.select_one("#selo-minuta")
    assert selo is not None and "MINUTA" in selo.get_text() and "1 pendência" in selo.get_text()
    found = " ".join(li.get_text(" ") for li in page.select("#achados-documento .achados li.erro"))
    assert "TIM-20-1-II" in found and "art. 20, § 1º, inciso II" in found and "atos[0].local" in found
    # the processo page says it before the document is opened
    row = _soup(clients["ana"].get(f"/processo/{BROKEN}").text).select_one("#documento-1-auto_de_infracao")
    assert row is not None and "MINUTA — 1 pendência" in row.get_text()
    row = _soup(clients["ana"].get(f"/processo/{OWN}").text).select_one("#documento-1-auto_de_infracao")
    assert row is not None and "pode ser emitido" in row.get_text()


def test_preview_pdf_of_an_act_with_errors_is_a_minuta(clients: dict[str, TestClient], broken: Path) -> None:
    r = clients["ana"].get(BROKEN_DOC + "/previa.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("inline;")
    assert "-MINUTA.pdf" in r.headers["content-disposition"] and r.headers["x-content-type-options"] == "nosniff"
    text = pdf_text(r.content)
    assert "MINUTA" in text and "99/2026" in text and "art. 20, § 1º, inciso II" in text


def test_preview_asked_again_comes_from_the_cache_until_the_file_changes(web: WebEnv,
                                                                         clients: dict[str, TestClient]) -> None:
    """The worker keeps the previews it rendered (X-Previa-Cache says whether this one was rendered now); the clerk
    edits the processo and the next preview is the new text, never the cached PDF."""
    text = (web.folder / OWN).read_text(encoding="utf-8")
    own = "timoteo-mg/sim-2026-000997-cache.yaml"
    text = text.replace("numero: SIM-2026/000171", "numero: SIM-2026/000997").replace('"21/2026"', '"97/2026"')
    (web.folder / own).write_text(text, encoding="utf-8")
    url = f"/processo/{own}/ato/1/documento/auto_de_infracao/previa.pdf"
    first = clients["ana"].get(url)
    assert first.status_code == 200 and first.headers["x-previa-cache"] == "falta"
    assert "linguiça suína frescal" in pdf_text(first.content)
    again = clients["ana"].get(url)
    assert again.headers["x-previa-cache"] == "acerto" and again.content == first.content
    assert clients["patricia"].get(url).status_code == 403  # a cached preview is still behind the permission
    (web.folder / own).write_text(text.replace("linguiça suína frescal", "chouriço caseiro"), encoding="utf-8")
    edited = clients["ana"].get(url)
    assert edited.status_code == 200 and edited.headers["x-previa-cache"] == "falta"
    shown = pdf_text(edited.content)
    assert "chouriço caseiro" in shown and "linguiça suína frescal" not in shown and "97/2026" in shown


def test_access_to_documents_follows_the_processo(web: WebEnv, clients: dict[str, TestClient]) -> None:
    assert clients["patricia"].get(DOC).status_code == 403  # another fiscal's processo
    assert clients["patricia"].get(DOC + "/previa.pdf").status_code == 403
    assert clients["admin"].get(DOC).status_code == 403
    anonymous = web.client()
    r = anonymous.get(DOC + "/emitido.pdf")
    assert r.status_code == 303 and r.headers["location"].startswith("/entrar")
    assert clients["patricia"].get(f"/processo/{FERRAZ}/ato/1/documento/nao_existe").status_code == 404
    assert clients["ana"].get(f"/processo/{OWN}/ato/1/documento/..%2Fregistro/emitido.pdf").status_code == 404
    assert clients["ana"].get("/processo/../../etc/passwd.yaml/ato/1/documento/x/emitido.pdf").status_code == 404


def _issue(client: TestClient, processo: str, page: str) -> object:
    token = form_token(client.get(page).text)
    return client.post(f"/processo/{processo}/ato/1/emitir?tipo=auto_de_infracao", data={"csrf_token": token})


def test_issue_is_refused_with_the_findings_while_there_are_errors(web: WebEnv, clients: dict[str, TestClient],
                                                                   broken: Path) -> None:
    r = _issue(clients["ana"], BROKEN, BROKEN_DOC)
    assert r.status_code == 409  # type: ignore[attr-defined]
    page = _soup(r.text)  # type: ignore[attr-defined]
    box = page.select_one("#emissao-recusada")
    assert box is not None
    text = box.get_text(" ")
    assert "ato 1 (Auto de Infração de 01/10/2026): 1 pendência; nada foi emitido" in text
    assert "TIM-20-1-II" in text and "Lei nº 3.844/2022, art. 20, § 1º, inciso II" in text
    with web.register() as reg:
        assert issued_documents(reg, broken) == []
        assert not [e for e in reg.audit_of(f"processo:{BROKEN}") if e.acao == "emitiu"]


def test_issue_needs_the_token_and_the_permission(web: WebEnv, clients: dict[str, TestClient]) -> None:
    r = clients["ana"].post(f"/processo/{OWN}/ato/1/emitir?tipo=auto_de_infracao", data={})
    assert r.status_code == 403
    r = _issue(clients["procuradora"], OWN, DOC)
    assert r.status_code == 403  # type: ignore[attr-defined]
    with web.register() as reg:
        assert issued_documents(reg, web.folder / OWN) == []


def test_issue_writes_and_records_the_files_which_are_then_downloaded(web: WebEnv,
                                                                      clients: dict[str, TestClient]) -> None:
    ana = clients["ana"]
    r = _issue(ana, OWN, DOC)
    assert r.status_code == 303 and r.headers["location"] == DOC + "#emitidos"  # type: ignore[attr-defined]
    page = _soup(ana.get(DOC).text)
    assert "Ato 1 emitido" in page.get_text()
    rows = [tr.find_all("td") for tr in page.select("#emitidos tbody tr")]
    assert sorted(td[0].get_text() for td in rows) == ["auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.docx",
                                                       "auto-de-infracao-timoteo-mg-sim-2026-000171-ato-01.pdf"]
    pdf_link, docx_link = page.select_one("a#baixar-pdf"), page.select_one("a#baixar-docx")
    assert pdf_link is not None and docx_link is not None
    with web.register() as reg:
        records = {Path(x.caminho).suffix: x for x in issued_documents(reg, web.folder / OWN)}
        audit = [e for e in reg.audit_of(f"processo:{OWN}") if e.acao == "emitiu"]
    assert [e.login for e in audit] == ["ana"] and records[".pdf"].sha256 in (audit[0].detalhe or "")
    r = ana.get(str(pdf_link["href"]))
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("attachment;")
    assert hashlib.sha256(r.content).hexdigest() == records[".pdf"].sha256
    text = pdf_text(r.content)
    assert "MINUTA" not in text and "21/2026" in text and "José Carlos Pereira" in text
    r = clients["procuradora"].get(str(docx_link["href"]))  # every user who may see the processo
    assert r.status_code == 200 and hashlib.sha256(r.content).hexdigest() == records[".docx"].sha256
    assert "José Carlos Pereira" in docx_text(r.content)
    assert clients["patricia"].get(str(pdf_link["href"])).status_code == 403
    # nothing issued for the apreensão yet
    assert ana.get(f"/processo/{OWN}/ato/2/documento/termo_apreensao/emitido.pdf").status_code == 404
