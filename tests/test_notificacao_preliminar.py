"""Ferraz's notificação preliminar as an act of the processo (arts. 3º to 6º): it may open the processo before
the auto, its document states the order and the term of the law, and the auto follows it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pypdf
from click.testing import CliRunner

from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.processo import load_processo

from .conftest import ROOT, SAMPLES

TERRENO = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-004417-terreno.yaml"
CALCADA = SAMPLES / "verificacao" / "ferraz-de-vasconcelos-sp" / "01-notificacao-preliminar-calcada.yaml"
CABRAS = SAMPLES / "verificacao" / "cuiaba-mt" / "01-apreensao-cabras-sem-dono.yaml"


def _codes(file: Path) -> set[str]:
    t = ProcessoService(ROOT / "rules").check(load_processo(file), date(2026, 11, 30))
    return {f.codigo for f in t.achados}


def test_an_act_that_may_precede_the_auto_opens_a_processo_without_sem_auto() -> None:
    assert "SEM-AUTO" not in _codes(CALCADA)  # waiting for the 30 days of art. 6º, not missing the auto
    assert "SEM-AUTO" not in _codes(CABRAS)  # Cuiabá art. 9º: the animal is taken before anyone is autuado


def test_the_auto_after_the_notice_is_in_order() -> None:
    codes = _codes(TERRENO)
    assert not codes & {"SEM-AUTO", "ANTES-DO-AUTO", "FORA-DE-ORDEM", "ANTES-DA-INFRACAO"}, codes


def test_document_of_the_notice_states_the_order_and_the_term(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["--hoje", "2026-11-30", "gerar", str(TERRENO), "--ato", "1", "--formato", "pdf",
                                  "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    (pdf,) = tmp_path.rglob("*.pdf")
    text = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages).split())
    assert "NOTIFICAÇÃO PRELIMINAR" in text and "Nº 1187/2026" in text
    assert "roçar, capinar e limpar o terreno do lote 14" in text
    # art. 4º: 30 dias from the personal notice of 10/08/2026 (a Monday) → 09/09/2026
    assert "30 (trinta) dias corridos" in text and "9 de setembro de 2026" in text
    assert "Ciência: pessoalmente" in text and "10 de agosto de 2026" in text
    # the order states only what was known on 10/08: nothing of the auto of 15/09
    assert "231/2026" not in text and "15 de setembro" not in text
