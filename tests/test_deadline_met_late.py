"""A deadline met after it expired is "cumprido com atraso (N dias corridos)", never plain "cumprido": in the
timeline, its JSON, the text of ``autos prazos``, the picture of the timeline and the web processo page.

FV-2026/0388 (Ferraz de Vasconcelos, Lei nº 3.240/2015): the payment term of art. 80 lapsed on Friday 24/07/2026;
the inscription in dívida ativa (Lei nº 4.320/1964, art. 39, § 2º) is due in 5 days (Lei nº 9.784/1999, art. 24,
by analogy): 24/07 + 5 = Wednesday 29/07/2026. It was done on 20/08/2026: 29/07 → 20/08 is 2 days of July (30, 31)
and 20 of August = 22 dias corridos of delay (counted as calendar days from the deadline's last day to the act).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import date

import pytest
from click.testing import CliRunner

from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.compute.strip import timeline_strip
from autos.render.timeline_svg import timeline_svg

from .conftest import ROOT, SAMPLES

FILE = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0388-divida-ativa.yaml"
HOJE = date(2026, 11, 30)
DA = "inscricao_divida_ativa_lei9784_art24"
LATE = "cumprido com atraso (22 dias corridos)"


@pytest.fixture(scope="module")
def service() -> ProcessoService:
    return ProcessoService(ROOT / "rules")


def test_inscription_done_22_days_late_is_not_cumprido_lei9784_art24(service: ProcessoService) -> None:
    t = service.timeline_of(FILE, HOJE)
    (da,) = [p for p in t.prazos if p.id == DA]
    assert da.fim == date(2026, 7, 29)
    assert (da.estado, da.atraso_dias, da.rotulo) == ("cumprido com atraso", 22, LATE)
    d = da.to_dict()
    assert (d["estado"], d["atraso_dias"], d["rotulo"]) == ("cumprido com atraso", 22, LATE)
    # a deadline met in time stays "cumprido", with no delay
    on_time = [p for p in t.prazos if p.estado == "cumprido"]
    assert on_time and all(p.atraso_dias is None and p.rotulo == "cumprido" for p in on_time)


def test_prazos_text_and_json_say_the_delay_art80_then_lei9784_art24() -> None:
    runner = CliRunner()
    base = ["--regras", str(ROOT / "rules"), "--hoje", HOJE.isoformat(), "prazos", str(FILE)]
    text = runner.invoke(main, base)
    assert text.exit_code == 0, text.output
    line = next(x for x in text.output.splitlines() if "de 24/07/2026 a 29/07/2026" in x)
    assert "CUMPRIDO COM ATRASO (22 DIAS CORRIDOS)" in line
    assert "— CUMPRIDO (" not in line and "— CUMPRIDO\n" not in text.output.split(line)[0][-1:]
    js = runner.invoke(main, [*base, "--json"])
    assert js.exit_code == 0, js.output
    prazos = json.loads(js.stdout)["prazos"]
    (da,) = [p for p in prazos if p["id"] == DA]
    assert (da["estado"], da["atraso_dias"], da["rotulo"]) == ("cumprido com atraso", 22, LATE)


def test_timeline_picture_writes_cumprido_com_atraso_with_the_days(service: ProcessoService) -> None:
    root = ET.fromstring(timeline_svg(timeline_strip(service.timeline_of(FILE, HOJE)), id_prefix="l"))
    svg = "{http://www.w3.org/2000/svg}"
    rows = [" | ".join("".join(x.itertext()) for x in g.findall(f"{svg}text"))
            for g in root.iter(f"{svg}g") if "prazo" in (g.get("class") or "").split()]
    (row,) = [r for r in rows if "29/07/2026" in r and "24/07/2026" in r and "5 dias" in r]
    assert row.endswith("| CUMPRIDO COM ATRASO (22 dias corridos)"), row
    assert "cumprido em 20/08/2026" in row
    legend = " ".join(root.find(f"{svg}g[@class='legenda']").itertext())  # type: ignore[union-attr]
    assert "cumprido com atraso: o ato foi praticado depois do vencimento" in legend
