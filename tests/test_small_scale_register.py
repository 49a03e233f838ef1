"""Timóteo, Lei nº 3.844/2022, art. 16, § 5º: "A multa sofrerá redução de cinquenta por cento (50%) no caso de se
tratar de indústria de pequeno porte" — applied whenever the register knows the autuado as small-scale. With a
register, ``autos validar`` compares the processo with the others of the same CNPJ."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES

TIM = SAMPLES / "processos" / "timoteo-mg"
KNOWN = TIM / "sim-2026-000142-pj-completo.yaml"  # Laticínios Vale do Aço Ltda., pequeno_porte: true (art. 12)
LATER = TIM / "sim-2026-000150-recurso-pago.yaml"  # the same CNPJ, months later
SMALL = ("  pequeno_porte: true\n  pequeno_porte_fundamento: >-\n"
         "    microempresa (Lei Complementar nº 123/2006, art. 3º, I), conforme a Certidão Simplificada da JUCEMG de\n"
         "    02/03/2026 juntada ao processo, e agroindústria de pequeno porte registrada no SIM sob o nº 0042 (Lei nº\n"
         "    3.844/2022, art. 12; Decreto federal nº 8.471/2015, art. 143-A)\n")


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30", *args])
    return r.exit_code, r.output


def folder_with(tmp_path: Path, later_text: str) -> Path:
    folder = tmp_path / "processos"
    folder.mkdir()
    shutil.copy(KNOWN, folder / KNOWN.name)
    (folder / LATER.name).write_text(later_text, encoding="utf-8")
    code, out = run("registro", "reconstruir", str(folder))
    assert code == 0, out
    return folder / LATER.name


def test_the_sample_applies_the_reduction_the_register_knows(tmp_path: Path) -> None:
    target = folder_with(tmp_path, LATER.read_text(encoding="utf-8"))
    code, out = run("validar", str(target))
    assert code == 0, out
    assert "PEQUENO-PORTE-NAO-APLICADO" not in out


def test_a_fine_without_the_reduction_the_register_knows_is_an_error_art16_p5(tmp_path: Path) -> None:
    text = LATER.read_text(encoding="utf-8")
    assert SMALL in text
    # without § 5º the fine is 1.500 UPFMT, not 750: the reasons of the decisions still answer for 750, but the
    # register's finding comes first
    target = folder_with(tmp_path, text.replace(SMALL, ""))
    code, out = run("validar", str(target))
    assert code == 1, out
    flat = " ".join(out.split())
    assert "[ERRO · vício sanável] PEQUENO-PORTE-NAO-APLICADO" in flat
    assert "conhece Laticínios Vale do Aço Ltda. como de pequeno porte no processo SIM-2026/000142" in flat
    assert "Lei nº 3.844/2022, art. 16, § 5º" in flat and "campo 'autuado.pequeno_porte'" in flat


def test_a_company_no_longer_small_scale_says_why_and_gets_a_warning(tmp_path: Path) -> None:
    text = LATER.read_text(encoding="utf-8").replace(
        SMALL, "  pequeno_porte: false\n  pequeno_porte_fundamento: \"receita bruta de 2025 acima do limite do "
               "art. 143-A do Decreto federal nº 8.471/2015 (balanço de 30/04/2026)\"\n")
    target = folder_with(tmp_path, text)
    code, out = run("validar", str(target))
    flat = " ".join(out.split())
    assert "[AVISO · vício sanável] PEQUENO-PORTE-NAO-APLICADO" in flat and "motivo informado: receita bruta de 2025" in flat
