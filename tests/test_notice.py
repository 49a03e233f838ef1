"""The bridge from a case to the deadline engine: which case field an error points at."""

from __future__ import annotations

from pathlib import Path

import pytest

from autos.app.generation.pipeline import Autos
from autos.errors import InputError

from .conftest import CASOS, DATA, SAMPLES


def test_notice_before_infraction_points_at_the_field_the_date_came_from(autos: Autos, tmp_path: Path) -> None:
    """Timóteo art. 21, III: an edital published before the infraction is refused. Without
    data_infracao the infraction date is the auto's date (auto.data, 12/05/2026)."""
    src = (CASOS / "timoteo-mg" / "edital-pj-local-incerto.yaml").read_text(encoding="utf-8")
    src = src.replace("data_infracao: 2026-05-12\n", "").replace("data_publicacao: 2026-06-02",
                                                                 "data_publicacao: 2026-05-01")
    case = tmp_path / "edital.yaml"
    case.write_text(src, encoding="utf-8")
    with pytest.raises(InputError) as info:
        autos.deadlines_of(case)
    assert "12/05/2026" in info.value.message
    report = autos.validate(case)
    notice = [f for f in report.errors if f.codigo == "NOTIFICACAO"]
    assert notice, [f.render() for f in report.findings]
    assert notice[0].caminho == "notificacao.edital.data_publicacao"
    assert notice[0].linha == src.splitlines().index("    data_publicacao: 2026-05-01") + 1


#: old per-document case files of autos awaiting an edital (samples/editais now holds processos)
AWAITING = DATA / "publish" / "casos"


@pytest.mark.parametrize("name", ["ferraz/auto-301-domicilio-desconhecido.yaml", "ferraz/auto-302-ar-mudou-se.yaml",
                                  "timoteo/auto-31-pj-local-incerto.yaml", "timoteo/auto-32-pf-ar-desconhecido.yaml"])
def test_autos_awaiting_edital_are_complete(autos: Autos, name: str) -> None:
    """An auto drawn up without the autuado (unknown domicile) or whose AR came back undelivered is a
    complete auto; the notice is still to come (Ferraz art. 76, III; Timóteo art. 21, III)."""
    report = autos.validate(AWAITING / name)
    assert report.ok, [f.render() for f in report.errors]


def test_returned_ar_runs_no_deadline_and_warns(autos: Autos) -> None:
    case = AWAITING / "ferraz" / "auto-302-ar-mudou-se.yaml"
    cd = autos.deadlines_of(case)
    assert cd.notice is None and cd.following == []
    assert [r.id for r in cd.pending]  # the terms are still stated, without dates
    report = autos.validate(case)
    pending = [f for f in report.warnings if f.codigo == "NOTIFICACAO-PENDENTE"]
    assert pending and "Mudou-se" in pending[0].mensagem and pending[0].linha is not None


def test_samples_awaiting_edital_are_planned_for_publication(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from autos.cli import main

    result = CliRunner().invoke(main, ["--hoje", "2026-11-29", "publicar-editais", str(SAMPLES / "editais"),
                                       "--data", "2026-11-27", "-o", str(tmp_path / "pub"), "--dry-run",
                                       "--jornal", "timoteo-mg=Jornal Diário do Aço"])
    assert result.exit_code == 0, result.output
    assert "auto 301/2026, auto 302/2026" in result.output and "auto 31/2026, auto 32/2026" in result.output
    assert "nada foi gravado" in result.output
