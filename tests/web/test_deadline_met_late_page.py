"""The web processo page says a deadline met late with its delay: FV-2026/0388 (Ferraz, Lei nº 3.240/2015) inscribed
in dívida ativa on 20/08/2026, 5 days (Lei nº 9.784/1999, art. 24, by analogy) after the art. 80 term lapsed on
24/07 → due 29/07/2026: 29/07 → 20/08 = 22 dias corridos late."""

from __future__ import annotations

from bs4 import BeautifulSoup
from starlette.testclient import TestClient

LATE = "ferraz-de-vasconcelos-sp/fv-2026-0388-divida-ativa.yaml"


def test_processo_page_shows_cumprido_com_atraso_with_the_days(clients: dict[str, TestClient]) -> None:
    r = clients["procuradora"].get(f"/processo/{LATE}")
    assert r.status_code == 200, r.text
    page = BeautifulSoup(r.text, "html.parser")
    seals = [s.get_text() for s in page.select("#prazos .selo")]
    assert "cumprido com atraso (22 dias corridos)" in seals
    svg_states = [t.get_text() for g in page.select("svg g.prazo") for t in g.find_all("text")][2::3]
    assert "CUMPRIDO COM ATRASO (22 dias corridos)" in svg_states
