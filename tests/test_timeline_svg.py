"""The timeline drawn as a calendar strip: ``render.timeline_svg`` over ``timeline_strip``, and
``autos pendencias --html`` with each processo's strip. The SVG is parsed as XML (so an unescaped value fails the
test) and checked by its text."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.compute.strip import timeline_strip
from autos.render.timeline_svg import timeline_svg

from .conftest import ROOT, SAMPLES

SVG = "{http://www.w3.org/2000/svg}"
SEM_DEFESA = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"


@pytest.fixture(scope="module")
def service() -> ProcessoService:
    return ProcessoService(ROOT / "rules")


def _svg(service: ProcessoService, file: Path, hoje: date, prefix: str = "linha") -> ET.Element:
    text = timeline_svg(timeline_strip(service.timeline_of(file, hoje)), id_prefix=prefix)
    return ET.fromstring(text)  # well-formed XML, or the test fails here


def _rows(root: ET.Element, cls: str) -> list[str]:
    """The visible text of each row of a class (``ato``, ``prazo``), its lines joined by " | "."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if cls in (g.get("class") or "").split():
            out.append(" | ".join("".join(t.itertext()) for t in g.findall(f"{SVG}text")))
    return out


# SIM-2026/000171 (Timóteo, Lei nº 3.844/2022): auto nº 21/2026, apreensão and notificação pessoal, all on
# Thursday 01/10/2026; the autuado never filed a defence, no judgement yet. Worked by hand:
# - notify the auto within 5 days (Lei federal nº 9.784/1999, art. 24, by analogy; art. 21 of the law): 01/10 + 5
#   = Tuesday 06/10/2026, met by the notificação pessoal of 01/10/2026;
# - defence (art. 20, § 1º, V — 15 days, the rules' EXAMPLE term), from the personal notice, effective the same
#   day (art. 21, I): 01/10 + 15 = Friday 16/10/2026 (days counted excluding the first: 9.784/1999, art. 66);
# - judgement (9.784/1999, art. 49: 30 days) from the day the defence term lapsed, 16/10: 16/10 + 30 = Sunday
#   15/11/2026, Proclamação da República, moved to Monday 16/11/2026 (art. 66, § 1º).
# On 10/10/2026 the defence is running and the judgement term has not started; on 30/11/2026 both are missed.


def test_strip_of_a_processo_while_the_defence_runs(service: ProcessoService) -> None:
    root = _svg(service, SEM_DEFESA, date(2026, 10, 10))
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert title.text == "Linha do tempo do processo SIM-2026/000171 em 10/10/2026"
    assert _rows(root, "ato") == [
        "1. Auto de infração nº 21/2026 | 01/10/2026 — Lei nº 3.844/2022, art. 20",
        "2. Apreensão nº TA-SIM-14/2026 | 01/10/2026 — Lei nº 3.844/2022, art. 16, inciso III",
        "3. Notificação pessoal | 01/10/2026 — Lei nº 3.844/2022, art. 21, inciso I",
    ]
    assert _rows(root, "prazo") == [
        "Prazo para notificar o autuado do auto de infração (5 dias corridos) | de 01/10/2026 a 06/10/2026 — "
        "CUMPRIDO, cumprido em 01/10/2026 | CUMPRIDO",
        "Prazo para apresentação de defesa contra o auto de infração (15 dias corridos) | de 01/10/2026 a "
        "16/10/2026 — EM CURSO | EM CURSO",
    ]
    text = " ".join(root.itertext())
    assert "Situação: aguardando defesa até 16/10/2026" in text and "hoje 10/10/2026" in text
    # the legend says each state in words, not only by colour
    for words in ("cumprido: o ato foi praticado", "em curso: o prazo ainda corre", "perdido: venceu sem o ato",
                  "prejudicado: ficou sem efeito"):
        assert words in text
    # the description says everything for a screen reader
    assert desc.text is not None and "Lei nº 3.844/2022, art. 20, § 1º, V" in desc.text
    assert "de 01/10/2026 a 16/10/2026 — EM CURSO" in desc.text


def test_strip_of_the_same_processo_once_both_terms_are_missed(service: ProcessoService) -> None:
    root = _svg(service, SEM_DEFESA, date(2026, 11, 30))
    rows = _rows(root, "prazo")
    assert rows[1].endswith("de 01/10/2026 a 16/10/2026 — PERDIDO | PERDIDO")
    assert rows[2] == ("Prazo para julgar o auto, concluída a defesa (ou vencido o prazo sem ela) (30 dias "
                       "corridos) | de 16/10/2026 a 16/11/2026 — PERDIDO | PERDIDO")
    classes = [g.get("class") for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("prazo")]
    assert classes == ["prazo cumprido", "prazo perdido", "prazo perdido"]
    # the bars sit on the calendar: the judgement bar starts where the defence bar ends (16/10)
    bars = [g.find(f"{SVG}rect") for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("prazo")]
    assert all(b is not None for b in bars)
    defence, judgement = bars[1], bars[2]
    assert defence is not None and judgement is not None
    assert float(defence.get("x", "0")) + float(defence.get("width", "0")) == pytest.approx(
        float(judgement.get("x", "0")), abs=0.2)
    assert "Situação: julgamento: vencido em 16/11/2026" in " ".join(root.itertext())


def test_prejudicado_and_met_dates_on_a_long_processo(service: ProcessoService) -> None:
    root = _svg(service, SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml", date(2026, 11, 30))
    rows = _rows(root, "prazo")
    assert any(r.endswith("— PREJUDICADO | PREJUDICADO") for r in rows)
    assert any("cumprido em 20/08/2026" in r for r in rows)  # the defence filed on 20/08/2026
    months = [t.text for t in root.iter(f"{SVG}text") if t.text and re.fullmatch(r"[a-z]{3}/\d{4}", t.text)]
    assert months == ["set/2026", "out/2026", "nov/2026"]


def test_every_value_from_the_processo_is_escaped(tmp_path: Path, service: ProcessoService) -> None:
    hostile = 'SIM <script>alert("x")</script> & \'q\''
    text = SEM_DEFESA.read_text(encoding="utf-8").replace("numero: SIM-2026/000171", f"numero: {json.dumps(hostile)}")
    # the auto's number is N/AAAA (checked on reading); another act's number is free text, printed as typed
    text = text.replace('    numero: "TA-SIM-14/2026"\n', '    numero: "TA-1/2026 <b>&amp;"\n')
    file = tmp_path / "hostil.yaml"
    file.write_text(text, encoding="utf-8")
    raw = timeline_svg(timeline_strip(service.timeline_of(file, date(2026, 11, 30))), id_prefix='x" onload="y')
    root = ET.fromstring(raw)
    assert "<script" not in raw and "<b>" not in raw and 'onload="' not in raw
    assert not [e for e in root.iter() if e.tag in (f"{SVG}script", f"{SVG}a", f"{SVG}foreignObject")]
    assert not [k for e in root.iter() for k in e.attrib if k.startswith("on") or k.endswith("href")]
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"Linha do tempo do processo {hostile} em 30/11/2026"
    assert _rows(root, "ato")[1].startswith("2. Apreensão nº TA-1/2026 <b>&amp; | ")


def test_pendencias_html_has_each_processo_strip(tmp_path: Path) -> None:
    target = tmp_path / "pendencias.html"
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "pendencias", "--hoje", "2026-11-30",
                                       str(SEM_DEFESA), str(SAMPLES / "processos" / "cuiaba-mt"), "--html",
                                       str(target)])
    assert result.exit_code == 0, result.output
    page = target.read_text(encoding="utf-8")
    assert "<script" not in page and "href=" not in page and "src=" not in page and "@import" not in page
    svgs = page.count("<svg ")
    assert svgs == 5  # one per processo: SIM-2026/000171 and the four of Cuiabá
    start = page.index("Linha do tempo do processo SIM-2026/000171 em 30/11/2026")
    strip = page[page.rindex("<svg ", 0, start):page.index("</svg>", start) + 6]
    root = ET.fromstring(strip)
    assert [r.rsplit(" | ", 1)[1] for r in _rows(root, "prazo")] == ["CUMPRIDO", "PERDIDO", "PERDIDO"]
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # several strips in one page: ids kept apart
