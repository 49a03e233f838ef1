"""``autos importar``: a spreadsheet of notices → processo files after validation, with a
per-row report. Data-driven: the fixture sheet's invalid rows are paired with the words their refusal must
contain; the same rows in XLSX (typed cells: numbers, dates) give the same result."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.forms.importing import MAX_ROWS, MAX_SHEET_BYTES, import_sheet, read_sheet
from autos.app.generation.pipeline import Autos
from autos.cli import main
from autos.errors import InputError
from autos.processo.load import load_processo
from autos.store.register import Register

from .conftest import ROOT

FER = "ferraz-de-vasconcelos-sp/lei-3240-2015"
SHEET = ROOT / "tests" / "data" / "planilhas" / "mutirao-limpeza-ferraz.csv"
HOJE = dt.date(2026, 11, 30)

#: the rows of the fixture that are written (row number → processo)
VALID = {2: "PM-FV-2026/007001", 3: "PM-FV-2026/007002"}
#: each refused row and the words its problems must contain, with the column named
REFUSED: dict[int, list[tuple[str | None, list[str]]]] = {
    4: [("autuado.cpf", ["CPF '123.456.789-00' inválido"])],
    5: [("infracao.quantidade", ["'1.500,5' não é um número", "ponto para decimais"]),
        ("infracao.quantidade", ["falta a quantidade (metros lineares de passeio)", "art. 17, § 3º"])],
    6: [("fatos", ["falta elemento obrigatório (fatos)", "art. 75"])],
    7: [("infracao", ["infração 'terreno-inexistente' não existe"])],
    8: [("auto.data", ["data inválida '2026-13-16'", "AAAA-MM-DD"])],
    10: [(None, ["já existe", "PM-FV-2026/007001"])],
}


@pytest.fixture(scope="module")
def autos() -> Autos:
    return Autos(ROOT / "rules", today=HOJE)


def check(report_dict: dict[str, object], out: Path) -> None:
    gravados = {g["linha"]: g for g in report_dict["gravados"]}  # type: ignore[attr-defined]
    assert set(gravados) == set(VALID)
    for n, numero in VALID.items():
        p = load_processo(Path(gravados[n]["arquivo"])).processo
        assert p.numero == numero and p.lei == FER and [i.regra for i in p.infracoes] == ["passeio-mau-estado"]
    recusados = {r["linha"]: r["problemas"] for r in report_dict["recusados"]}  # type: ignore[attr-defined]
    assert set(recusados) == set(REFUSED)
    for n, expected in REFUSED.items():
        for column, words in expected:
            assert any(p["coluna"] == column and all(w in p["mensagem"] + (p["citacao"] or "") for w in words)
                       for p in recusados[n]), (n, column, words, recusados[n])
    files = sorted(p.name for p in (out / "ferraz-de-vasconcelos-sp").iterdir())
    assert files == ["pm-fv-2026-007001.yaml", "pm-fv-2026-007002.yaml"]


def test_csv_campaign_valid_rows_become_processos_refused_rows_say_why(tmp_path: Path) -> None:
    out = tmp_path / "processos"
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", HOJE.isoformat(), "importar",
                                       str(SHEET), "--lei", FER, "-o", str(out), "--registro",
                                       str(tmp_path / "registro.sqlite3"), "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    check(report, out)
    assert [g["reservados"] for g in report["gravados"]] == [["auto nº 1/2026"], ["auto nº 2/2026"]]
    with Register.open(tmp_path / "registro.sqlite3") as reg:
        assert reg.processo_files(FER, "PM-FV-2026/007002") == [
            "processos/ferraz-de-vasconcelos-sp/pm-fv-2026-007002.yaml"]
    # the written processo validates clean with autos validar
    code = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", HOJE.isoformat(), "validar",
                                     report["gravados"][0]["arquivo"]]).exit_code
    assert code == 0
    # the text report names row, column and article
    text = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", HOJE.isoformat(), "importar",
                                     str(SHEET), "--lei", FER, "-o", str(tmp_path / "outra")]).output
    assert "linha 6, coluna 'fatos': [FER-75-FATO]" in text and "(Lei nº 3.240/2015, art. 75)" in text


def xlsx_of(rows: list[list[object]]) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r in rows:
        ws.append(r)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def typed(cell: str, column: str) -> object:
    """The cell as a spreadsheet keeps it: numbers as numbers, dates as dates."""
    if column in ("infracao.quantidade", "infracao.periodo") and cell.isdigit():
        return float(cell) if column == "infracao.quantidade" else int(cell)
    if column == "auto.data" and cell[:4].isdigit():
        try:
            return dt.datetime.fromisoformat(cell)
        except ValueError:
            return cell
    return cell


def test_the_same_sheet_in_xlsx_with_typed_cells_gives_the_same_result(tmp_path: Path, autos: Autos) -> None:
    rows = list(csv.reader(SHEET.read_text(encoding="utf-8").splitlines(), delimiter=";"))
    header = rows[0]
    book = [header] + [[typed(c, header[i]) for i, c in enumerate(r)] for r in rows[1:]]
    f = tmp_path / "mutirao.xlsx"
    f.write_bytes(xlsx_of(book))
    out = tmp_path / "processos"
    report = import_sheet(autos, f, FER, out)
    check(report.to_dict(), out)
    assert load_processo(out / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-007001.yaml").processo.infracoes[0].quantidade \
        == 12


def test_a_spreadsheet_float_with_noise_is_refused_not_rounded(tmp_path: Path, autos: Autos) -> None:
    from autos.app.forms.importing import _cell_text

    assert _cell_text(0.1 + 0.2) == "0.30000000000000004"  # an XLSX cell: kept, for the loader to refuse
    assert _cell_text(350.0) == "350" and _cell_text(dt.datetime(2026, 11, 16)) == "2026-11-16"
    assert _cell_text(dt.time(10, 30)) == "10:30" and _cell_text(True) == "true"
    rows = SHEET.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(";")
    cells = rows[2].split(";")  # a row without quoted text
    cells[header.index("infracao.quantidade")] = "1500.0000000000002"
    f = tmp_path / "ruido.csv"
    f.write_text(rows[0] + "\n" + ";".join(cells) + "\n", encoding="utf-8")
    report = import_sheet(autos, f, FER, tmp_path / "out")
    assert not report.gravados
    (n, problems), = report.recusados
    assert n == 2 and any("13 casas decimais" in p.mensagem and p.coluna == "infracao.quantidade" for p in problems)


@pytest.mark.parametrize(("name", "content", "words"), [
    ("p.csv", b"PK\x03\x04qualquer coisa", ["conteúdo é uma planilha compactada"]),
    ("p.xlsx", b"numero;autuado.nome\n", ["não é uma planilha do Excel"]),
    ("p.xlsx", b"PK\x03\x04quebrado", ["corrompido"]),
    ("p.ods", b"numero\n", ["tipo de planilha não aceito"]),
    ("p.csv", b"numero\x00;x\n", ["tem bytes nulos"]),
    ("p.csv", "numero;nome\nA;Jos\xe9\n".encode("latin-1"), ["não está em UTF-8", "CSV UTF-8"]),
    ("p.csv", b"numero;apelido;infracao\n1;x;terreno-sem-limpeza\n", ["coluna que não é campo do processo", "'apelido'"]),
    ("p.csv", b"numero;autuado.nome\n1;x\n", ["falta a coluna 'infracao'"]),
    ("p.csv", b"numero;numero;infracao\n1;1;x\n", ["aparece duas vezes"]),
    ("p.csv", b"", ["vazia"]),
])
def test_unusable_sheets_are_refused_whole_and_nothing_is_written(tmp_path: Path, autos: Autos, name: str,
                                                                  content: bytes, words: list[str]) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    out = tmp_path / "out"
    with pytest.raises(InputError) as err:
        import_sheet(autos, f, FER, out)
    for w in words:
        assert w in str(err.value)
    assert not out.exists()
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "importar", str(f), "--lei", FER, "-o",
                                       str(out)])
    assert result.exit_code == 2


def test_size_and_row_count_are_bounded(tmp_path: Path) -> None:
    big = tmp_path / "grande.csv"
    big.write_bytes(b"numero;infracao\n" + b"x" * MAX_SHEET_BYTES)
    with pytest.raises(InputError, match="o máximo é"):
        read_sheet(big)
    many = tmp_path / "muitas.csv"
    many.write_text("numero;infracao\n" + "".join(f"{i};terreno-sem-limpeza\n" for i in range(MAX_ROWS + 1)),
                    encoding="utf-8")
    with pytest.raises(InputError, match=f"mais de {MAX_ROWS} linhas"):
        read_sheet(many)
    bomb = tmp_path / "bomba.xlsx"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", "<x/>")
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * (60 * 1024 * 1024))
    bomb.write_bytes(buf.getvalue())
    with pytest.raises(InputError, match="descompactada passa de"):
        read_sheet(bomb)


def test_a_row_for_an_infraction_that_needs_the_preliminary_notice_is_refused_citing_art_4(
        tmp_path: Path, autos: Autos) -> None:
    """Lei 3.240/2015, art. 4º: the owner is notified to clean the lot and only "não cumprindo a notificação"
    is the auto issued. A sheet row carries no notificação preliminar, so the processo would be void: refused,
    with the article and the fix, and nothing written."""
    rows = SHEET.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(";")
    cells = rows[2].split(";")
    cells[header.index("infracao")] = "terreno-sem-limpeza"
    cells[header.index("infracao.quantidade")] = "200"
    f = tmp_path / "terreno.csv"
    f.write_text(rows[0] + "\n" + ";".join(cells) + "\n", encoding="utf-8")
    report = import_sheet(autos, f, FER, tmp_path / "out")
    assert not report.gravados
    (n, problems), = report.recusados
    text = " ".join(p.mensagem + (p.citacao or "") for p in problems)
    assert n == 2 and "notificação preliminar" in text and "art. 4º" in text, problems
