"""``autos gerar`` over a folder: an act number is used by one processo only, within the series of its kind of act
and law. FV-2026/0520 (Ferraz, Lei nº 3.240/2015) has the auto nº 520/2026; a second processo, FV-2026/0521, that
gives its auto the same number would issue a second "Auto de Infração nº 520/2026": it is refused (exit 1), its
message in Portuguese names both files, and nothing is written for it; the first is generated as usual. The auto
identifies itself by its number (art. 75 ff.; Lei nº 9.784/1999, art. 22, by analogy: the acts are written and
identified), which two different autos cannot share."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES

FIRST = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp" / "fv-2026-0520-prazo-de-recurso.yaml"


def _folder(tmp: Path, auto_number: str) -> Path:
    folder = tmp / "processos"
    folder.mkdir()
    text = FIRST.read_text(encoding="utf-8")
    (folder / "a-fv-0520.yaml").write_text(text, encoding="utf-8")
    second = text.replace("numero: FV-2026/0520", "numero: FV-2026/0521", 1).replace(
        'numero: "520/2026"', f'numero: "{auto_number}"', 1).replace('referente: "520/2026"',
                                                                       f'referente: "{auto_number}"')
    assert second != text
    (folder / "b-fv-0521.yaml").write_text(second, encoding="utf-8")
    return folder


def _gerar(folder: Path, out: Path) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", "gerar", str(folder),
                                  "-o", str(out), "--formato", "pdf"])
    return r.exit_code, r.output


@pytest.mark.parametrize(("number", "code"), [("520/2026", 1), ("521/2026", 0)])
def test_second_processo_reusing_an_auto_number_is_refused_naming_both_files(tmp_path: Path, number: str,
                                                                             code: int) -> None:
    folder = _folder(tmp_path, number)
    out = tmp_path / "saida"
    got, text = _gerar(folder, out)
    assert got == code, text
    written = sorted(p.name for p in out.glob("*.pdf"))
    assert any("fv-2026-0520" in n for n in written), written
    if code == 1:
        assert "o número 520/2026 do ato 'auto'" in text and "já é de outro processo da mesma lei" in text
        assert "b-fv-0521.yaml" in text and "a-fv-0520.yaml" in text
        assert not any("fv-2026-0521" in n for n in written), written  # nothing for the refused processo
    else:
        assert any("fv-2026-0521" in n for n in written), written
