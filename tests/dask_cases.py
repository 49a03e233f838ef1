"""What the Dask tests share: a small batch of cases (variants of the fixture cases of ``test_publish.py``), the
run's invariants (the kill drills' ones: no gap, no duplicate, every file hashed, no stray file) and a normalised
view of a ledger and of the published documents' text, to compare a Dask run with a process-pool run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from autos.store.ledger import Ledger

from .conftest import ROOT
from .test_publish import CASES
from .textutil import docx_text, pdf_text

RUNBOOK = ROOT / "docs" / "runbook-distribuido.md"


def runbook_env() -> dict[str, str]:
    """The ``DASK_…`` lines of the runbook's ``/etc/autos/ambiente`` (the deployment's Dask settings)."""
    text = RUNBOOK.read_text(encoding="utf-8")
    block = text[text.index("`/etc/autos/ambiente`"):]
    block = block[block.index("```") + 3:]
    block = block[:block.index("```")]
    pairs = (line.split("=", 1) for line in block.splitlines() if line.startswith("DASK_"))
    return {k: v for k, v in pairs}


F301 = CASES / "ferraz" / "auto-301-domicilio-desconhecido.yaml"
T31 = CASES / "timoteo" / "auto-31-pj-local-incerto.yaml"


def _variant(source: Path, numero: str) -> str:
    text = source.read_text(encoding="utf-8")
    first = text[text.index('numero: "'):].split("\n", 1)[0]
    return text.replace(first, f'numero: "{numero}"', 1)


def make_cases(folder: Path, ferraz: int = 4, timoteo: int = 2) -> Path:
    """``ferraz`` + ``timoteo`` candidate autos (distinct numbers), plus one malformed file (refused)."""
    for i in range(ferraz):
        (folder / "ferraz").mkdir(parents=True, exist_ok=True)
        (folder / "ferraz" / f"auto-{401 + i}.yaml").write_text(_variant(F301, f"{401 + i}/2026"), encoding="utf-8")
    for i in range(timoteo):
        (folder / "timoteo").mkdir(parents=True, exist_ok=True)
        (folder / "timoteo" / f"auto-{41 + i}.yaml").write_text(_variant(T31, f"{41 + i}/2026"), encoding="utf-8")
    (folder / "malformado.yaml").write_text("lei: [sem fim\n", encoding="utf-8")
    return folder


def assert_invariants(out: Path, expected_cases: int) -> list[tuple[str, int, str, list[str]]]:
    """The kill drills' invariants: every edital published, numbered 1..n per law (no gap, no duplicate), every
    case in exactly one edital, every ledger file on disk with its hash, and no other file (no temporary left)."""
    ledger = out / "livro-editais.sqlite3"
    with Ledger(ledger, readonly=True) as led:
        assert led.problems() == []
        editais = led.editais()
        state = [(e.lei, e.numero, e.estado, [c.auto_numero for c in e.casos]) for e in editais]
        files = [(e.saida / f.caminho, f.sha256) for e in editais for f in e.arquivos]
    assert all(st == "publicado" for _l, _n, st, _c in state), state
    for lei in {lei for lei, *_ in state}:
        assert sorted(n for law, n, *_ in state if law == lei) == list(range(1, 1 + sum(
            1 for law, *_ in state if law == lei)))
    cases = [(lei, c) for lei, _n, _s, cs in state for c in cs]
    assert len(cases) == len(set(cases)) == expected_cases
    for path, sha in files:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == sha, path
    on_disk = {p for p in out.rglob("*") if p.is_file() and p.parent != out}
    assert on_disk == {p for p, _ in files}, on_disk ^ {p for p, _ in files}  # no stray or temporary file
    return state


def ledger_view(out: Path) -> list[dict[str, Any]]:
    """The ledger's contents that do not depend on when or where the run happened (no timestamps, no ids)."""
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        return [{"lei": e.lei, "numero": e.numero, "ano": e.ano, "estado": e.estado,
                 "data_publicacao": e.data_publicacao.isoformat(), "data_edital": e.data_edital.isoformat(),
                 "veiculo": e.veiculo, "jornal": e.jornal,
                 "casos": [(c.caso, c.auto_numero, c.arquivo, c.sha256_caso, c.motivo) for c in e.casos],
                 "arquivos": [(f.tipo, f.caminho, f.caso, f.codigo) for f in e.arquivos]}
                for e in led.editais()]


def documents_text(out: Path) -> dict[str, str]:
    """Every published document's text (PDF and DOCX), by path relative to the output folder."""
    texts: dict[str, str] = {}
    for p in sorted(out.rglob("*")):
        if p.suffix == ".pdf":
            texts[str(p.relative_to(out))] = pdf_text(p.read_bytes())
        elif p.suffix == ".docx":
            texts[str(p.relative_to(out))] = docx_text(p.read_bytes())
    return texts


def manifest_view(out: Path, data: str) -> dict[str, Any]:
    doc = json.loads((out / f"manifesto-editais-{data}.json").read_text(encoding="utf-8"))
    for e in doc["editais"]:
        e.pop("publicado_em")
        for f in e["arquivos"]:
            f.pop("sha256")
            f.pop("bytes")
    return dict(doc)
