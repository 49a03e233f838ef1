"""The bridge from a case to the deadline engine: which case field an error points at."""

from __future__ import annotations

from pathlib import Path

import pytest

from autos.errors import InputError
from autos.pipeline import Autos

from .conftest import SAMPLES


def test_notice_before_infraction_points_at_the_field_the_date_came_from(autos: Autos, tmp_path: Path) -> None:
    """Timóteo art. 21, III: an edital published before the infraction is refused. Without
    data_infracao the infraction date is the auto's date (auto.data, 12/05/2026)."""
    src = (SAMPLES / "timoteo-mg" / "edital-pj-local-incerto.yaml").read_text(encoding="utf-8")
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
