"""The grade of each finding code, as data: ``rules/achados.yaml`` and ``rules/<municipio>/achados.yaml``.

A finding's severity (erro/aviso) says whether a document may be issued; its *grade* says what the defect does to
the act: ``nulidade`` (the act is void: competence, precondition, reasons, the sanction's legality, a notice made
without the legal form), ``vicio_sanavel`` (the Administration may correct it) or ``estilo`` (it does not taint
the act). Each entry names the article or ground of its grade. The files are read strictly: an unknown or repeated
key, or a code in two files, is an error naming the file and the key.
"""


import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autos.base.resources import default_rules_dir
from autos.base.schema import build_model
from autos.base.yamlio import load_yaml
from autos.errors import RulesError
from autos.rules.calendar import load_rules_file

__all__ = ["GRADE_LABELS", "GRADE_ORDER", "Grade", "GradeEntry", "GradeTable", "grade_of", "load_grades"]

GRADES_FILE = "achados.yaml"

Grade = Literal["nulidade", "vicio_sanavel", "estilo"]

#: how a user reads each grade
GRADE_LABELS: dict[str, str] = {"nulidade": "nulidade", "vicio_sanavel": "vício sanável", "estilo": "estilo"}

#: nullity first, then curable defects, then style; a code without a grade last
GRADE_ORDER: dict[str | None, int] = {"nulidade": 0, "vicio_sanavel": 1, "estilo": 2, None: 3}


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)
    grau: Grade
    fundamento: str = Field(min_length=1)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    achados: dict[str, _Entry]


@dataclass(frozen=True)
class GradeEntry:
    codigo: str
    grau: Grade
    fundamento: str
    arquivo: Path

    @property
    def rotulo(self) -> str:
        return GRADE_LABELS[self.grau]


@dataclass(frozen=True)
class GradeTable:
    entries: dict[str, GradeEntry]

    def get(self, code: str) -> GradeEntry | None:
        return self.entries.get(code)


def _grade_files(rules_dir: Path) -> list[Path]:
    files = [rules_dir / GRADES_FILE] if (rules_dir / GRADES_FILE).is_file() else []
    return files + sorted(p for p in rules_dir.glob(f"*/{GRADES_FILE}") if p.is_file())


def _load_file(file: Path) -> _File:
    return build_model(_File, load_yaml(file, RulesError), RulesError)


def load_grades(rules_dir: Path) -> GradeTable:
    """Every grade file under ``rules_dir`` (the top one and one per municipality), strictly; a code graded in two
    files is an error naming both."""
    entries: dict[str, GradeEntry] = {}
    for file in _grade_files(rules_dir):
        m = load_rules_file(file, lambda f=file: _load_file(f))  # type: ignore[misc]
        for code, e in m.achados.items():
            if code in entries:
                doc = load_yaml(file, RulesError)
                raise doc.error(RulesError, ("achados", code),
                                f"o código de achado '{code}' já tem gravidade em {entries[code].arquivo}.",
                                "cada código tem uma gravidade só: apague uma das duas entradas.")
            entries[code] = GradeEntry(code, e.grau, e.fundamento, file)
    return GradeTable(entries)


_TABLE: list[GradeTable] = []
_LOCK = threading.Lock()


def _default_table() -> GradeTable:
    with _LOCK:
        if not _TABLE:
            _TABLE.append(load_grades(default_rules_dir()))
        return _TABLE[0]


def grade_of(code: str) -> GradeEntry | None:
    """The grade of ``code`` in the shipped rules' table (read once per process)."""
    return _default_table().get(code)
