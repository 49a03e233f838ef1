"""The certificate of the AR's juntada (certidão de juntada do AR) of a notificacao_ar act, dated the juntada,
checked by the extracted text (pypdf, python-docx): the receipt or the return (with the reason) and the
juntada; the date the notice takes effect as each law says; nothing after the juntada."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import DATA, ROOT
from .textutil import document_text

# one worker runs this module: its documents are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_processo_certidao")

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
DOCS = DATA / "processo" / "documentos"
FV_STEM = "ferraz-de-vasconcelos-sp-pm-fv-2026-005377"
TIM_STEM = "timoteo-mg-sim-2026-000210"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_ferraz_certificate_dated_the_juntada_notice_on_the_receipt(tmp_path: Path, ext: str) -> None:
    code, out = run("gerar", str(DOCS / "fv-decisao-recurso.yaml"), "--ato", "2", "--formato", ext,
                    "-o", str(tmp_path))
    assert code == 0, out
    text = document_text(tmp_path / f"certidao-juntada-ar-{FV_STEM}-ato-02.{ext}")
    assert "CERTIFICO" in text and "em 23 de outubro de 2026 foi juntado aos autos" in text
    assert "postada em 19 de outubro de 2026" in text and "Auto de Infração nº 260/2026" in text
    assert "assinado pelo destinatário em 22 de outubro de 2026" in text
    # art. 77, II: notified on the date of the AR's return receipt (22/10), not on the juntada (23/10)
    assert "Notificação considerada feita em 22 de outubro de 2026" in text
    assert "Lei nº 3.240/2015, art. 77, inciso II" in text
    for later in ("29 de outubro", "P-77/2026", "20 de novembro"):  # the appeal and the decision come later
        assert later not in text, later


def test_an_ar_without_juntada_has_no_certificate(tmp_path: Path) -> None:
    code, out = run("gerar", str(DOCS / "fv-ruido-ar.yaml"), "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    assert not list(tmp_path.glob("certidao-*"))


@pytest.fixture(scope="module")
def timoteo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("certidao-tim")
    run("gerar", str(DOCS / "tim-ar-juntada.yaml"), "--formato", "pdf", "-o", str(out))
    return out


def test_timoteo_certificate_of_a_returned_ar(timoteo: Path) -> None:
    text = document_text(timoteo / f"certidao-juntada-ar-{TIM_STEM}-ato-02.pdf")
    assert "em 7 de outubro de 2026 foi juntado aos autos" in text
    assert "SEM ENTREGA" in text and "mudou-se" in text and "não se efetivou" in text
    assert "Notificação considerada feita" not in text
    for later in ("9 de outubro", "14 de outubro", "16 de outubro"):  # the second letter is later
        assert later not in text, later


def test_timoteo_certificate_the_notice_takes_effect_on_the_juntada(timoteo: Path) -> None:
    text = document_text(timoteo / f"certidao-juntada-ar-{TIM_STEM}-ato-03.pdf")
    assert "assinado pelo destinatário em 14 de outubro de 2026" in text
    # art. 21, § 2º: the notice is effective with the juntada of the AR (16/10), not with its receipt (14/10)
    assert "Notificação considerada feita em 16 de outubro de 2026" in text
    assert "Lei nº 3.844/2022, art. 21, § 2º" in text
