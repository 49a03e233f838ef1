"""The command line, end to end through click (exit codes, JSON, aliases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import CASOS, DATA, ROOT

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
INCOMPLETE = str(CASOS / "pendentes" / "timoteo-auto-incompleto.yaml")
COMPLETE = str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.stdout if "--json" in args else result.output  # JSON is stdout; notices go to stderr


def test_validar_incomplete_exits_1_and_names_each_inciso() -> None:
    code, out = run("validar", INCOMPLETE)
    assert code == 1
    for inciso in ("§ 1º, inciso I)", "inciso II)", "inciso III)", "inciso IV)", "inciso VI)", "inciso VII)"):
        assert inciso in out, inciso
    assert "linha" in out and "Como corrigir" in out


def test_validar_complete_exits_0() -> None:
    code, out = run("validar", COMPLETE)
    assert code == 0, out
    assert "0 erros" in out


def test_validar_unreadable_exits_2() -> None:
    code, out = run("validar", str(DATA / "invalid" / "cpf-invalido.yaml"))
    assert code == 2
    assert "CPF '123.456.789-00' inválido" in out


def test_validar_json_and_english_alias() -> None:
    code, out = run("validate", "--json", INCOMPLETE)
    assert code == 1
    data = json.loads(out)
    assert data[0]["valido"] is False
    codes = {a["codigo"] for a in data[0]["achados"]}
    assert {"TIM-20-1-I", "TIM-20-1-III", "TIM-20-1-VII"} <= codes
    first = data[0]["achados"][0]
    assert set(first) >= {"severidade", "codigo", "mensagem", "citacao", "caminho", "linha", "arquivo"}


def test_gerar_refuses_incomplete_and_writes_nothing(tmp_path: Path) -> None:
    code, out = run("gerar", INCOMPLETE, "-o", str(tmp_path / "s"))
    assert code == 1
    assert "--minuta" in out
    assert not (tmp_path / "s").exists() or not list((tmp_path / "s").iterdir())


def test_gerar_formats(tmp_path: Path) -> None:
    code, out = run("gerar", COMPLETE, "--formato", "pdf", "-o", str(tmp_path))
    assert code == 0, out
    assert [p.suffix for p in tmp_path.iterdir()] == [".pdf"]


def test_gerar_unwritable_output_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "f"
    blocker.write_text("x")
    code, out = run("gerar", COMPLETE, "-o", str(blocker / "sub"))
    assert code == 2
    assert "pasta de saída" in out


def test_missing_rules_folder_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--regras", str(tmp_path / "nada"), "validar", COMPLETE])
    assert result.exit_code == 2
    assert "pasta de regras não encontrada" in result.output


def test_regras_mostrar_shows_choices() -> None:
    code, out = run("regras", "mostrar", "timoteo-mg/lei-3844-2022")
    assert code == 0
    assert "Escolhas onde a lei é omissa ou ambígua" in out
    assert "TIM-20-1-V" in out and "art. 20, § 1º, inciso V" in out
    # the one example the test official values leave: the example decree (samples/verificacao 08)
    assert "[EXEMPLO" in out and "decreto-municipal-5123-2022" in out


@pytest.mark.parametrize("cmd", [["regras"], ["rules", "listar"]])
def test_regras_lists_statutes(cmd: list[str]) -> None:
    code, out = run(*cmd)
    assert code == 0 and "timoteo-mg/lei-3844-2022" in out


def test_schema_is_json_schema_of_the_case(tmp_path: Path) -> None:
    code, out = run("schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"].endswith("2020-12/schema")
    assert {"lei", "autuado", "lavratura", "infracoes"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    code, _ = run("schema", "-o", str(tmp_path / "caso.schema.json"))
    assert code == 0 and json.loads((tmp_path / "caso.schema.json").read_text())["title"]


def test_prazos_prints_basis_and_dates() -> None:
    # Lei 3.844/2022, art. 21, I: notice on 16/03/2026; art. 20, § 1º, V: 15 dias corridos → 31/03/2026
    code, out = run("prazos", COMPLETE)
    assert code == 0, out
    assert "16/03/2026  Ciência pessoal" in out
    assert "31/03/2026  Prazo para apresentação de defesa" in out and "art. 20, § 1º, V" in out
    code, out = run("deadlines", "--json", COMPLETE)
    data = json.loads(out)
    assert [d["fim"] for d in data] == ["2026-03-16", "2026-03-31"]


def test_multa_prints_memo() -> None:
    # art. 16, II and § 5º: 1.500 UPFMT − 50% = 750 UPFMT × R$ 5,0770 = R$ 3.807,75
    code, out = run("multa", COMPLETE)
    assert code == 0, out
    assert "art. 16, § 5º" in out and "750 (setecentas e cinquenta) UPFMT" in out
    assert "R$ 3.807,75 (três mil oitocentos e sete reais e setenta e cinco centavos)" in out
    code, out = run("fine", "--json", COMPLETE)
    assert json.loads(out)["total_reais"] == "3807.75"


def test_prazos_bad_notice_exits_2(tmp_path: Path) -> None:
    src = Path(COMPLETE).read_text(encoding="utf-8").replace(
        "notificacao:\n  forma: pessoal\n  data: 2026-03-16", "notificacao:\n  forma: pessoal\n  data: 2026-03-10")
    case = tmp_path / "c.yaml"
    case.write_text(src, encoding="utf-8")
    code, out = run("prazos", str(case))
    assert code == 2
    assert "notificacao.data" in out and "linha" in out


def test_library_warnings_and_errors_reach_stderr_in_portuguese(capsys: pytest.CaptureFixture[str]) -> None:
    """What the library logs (the ``autos`` loggers: the Dask coordinator's warning, the web application's errors)
    is printed by the command line as its own lines — ``aviso:`` or ``erro:``, a logged exception with its traceback."""
    import logging
    import sys

    from autos.cli import _WARNINGS

    try:
        raise ValueError("falha de teste")
    except ValueError:
        failed = logging.LogRecord("autos.web", logging.ERROR, __file__, 1, "erro inesperado em %s", ("/processo",),
                                   sys.exc_info())
    _WARNINGS.emit(failed)
    _WARNINGS.emit(logging.LogRecord("autos.app.batch.cluster", logging.WARNING, __file__, 1, "perfilador ligado", None,
                                     None))
    err = capsys.readouterr().err
    assert err.startswith("erro: erro inesperado em /processo\nTraceback (most recent call last):")
    assert "ValueError: falha de teste\naviso: perfilador ligado\n" in err
