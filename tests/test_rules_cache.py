"""A rules folder opened again in the same process is not parsed again, unless a file changed (load_statute)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from autos.errors import RulesError
from autos.rules.statute import load_rules

from .conftest import ROOT

TIMOTEO = "timoteo-mg/lei-3844-2022"


def test_same_files_give_the_same_statutes_and_a_changed_file_is_read_again(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    first, again = load_rules(rules), load_rules(rules)
    assert again.statutes[TIMOTEO] is first.statutes[TIMOTEO]
    assert again.get(TIMOTEO).file == rules / "timoteo-mg" / "lei-3844-2022.yaml"
    other = load_rules(ROOT / "rules")  # the same bytes elsewhere: its own id and file
    assert other.statutes[TIMOTEO] is not first.statutes[TIMOTEO]
    assert other.get(TIMOTEO).file == ROOT / "rules" / "timoteo-mg" / "lei-3844-2022.yaml"
    statute = rules / "timoteo-mg" / "lei-3844-2022.yaml"
    text = statute.read_text(encoding="utf-8")
    assert "  municipio: Timóteo\n" in text
    statute.write_text(text.replace("  municipio: Timóteo\n", "  municipio: Timóteo (MG)\n", 1), encoding="utf-8")
    changed = load_rules(rules)
    assert changed.statutes[TIMOTEO] is not first.statutes[TIMOTEO]
    assert changed.get(TIMOTEO).lei.municipio == "Timóteo (MG)" != first.get(TIMOTEO).lei.municipio
    statute.write_text(text.replace("infracoes:", "infracoes_:", 1), encoding="utf-8")
    with pytest.raises(RulesError, match="infracoes_"):
        load_rules(rules)  # an invalid file is refused every time it is opened, never served from before
    with pytest.raises(RulesError, match="infracoes_"):
        load_rules(rules)
