from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from autos.app.pipeline import Autos

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = ROOT / "samples"
CASOS = DATA / "casos"  # old single-document case files (the per-document path stays tested)
TODAY = date(2026, 11, 29)  # fixed reference date: tests do not depend on the clock


@pytest.fixture(scope="session")
def autos() -> Autos:
    return Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
