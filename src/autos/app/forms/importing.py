"""``autos importar``: a spreadsheet of notices (CSV or XLSX, one row per processo) → processo files, after
validation, with a report of each refused row (row, column, message with the article).

Each row is a form: its columns are the fields of the processo file by their path (``autuado.nome``,
``autuado.endereco.logradouro``, ``infracoes[0].quantidade``), with two shorthands — ``auto.`` for the auto
(``atos[0].``) and ``infracao`` for the first infraction (``infracao`` = ``infracoes[0].regra``, ``infracao.quantidade``
= ``infracoes[0].quantidade``). The law comes from ``--lei``; what the form fixes from the choices (the kind of act,
the penalty: the fine where every infraction admits it) comes from
:func:`autos.app.processo.new_processo.plan_new_processo`.
A row is checked exactly as the form checks it (:func:`autos.app.forms.processo_form.validate_draft`): a row with an
error finding or a value the loader would refuse is not written; the others are saved by
:func:`autos.app.forms.processo_form.save_new_processo` (atomic, never over an existing file, the auto's number
reserved from the register).

Input is bounded and its type is checked by content, not only by the name: an XLSX is a ZIP with an Excel workbook
in it (its parts' sizes summed before openpyxl opens it), a CSV is UTF-8 text without NUL bytes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autos.app.forms.processo_form import (
    UNREADABLE,
    _field_for,
    _plan,
    parse_processo_scalar,
    save_new_processo,
    validate_draft,
)
from autos.app.generation.pipeline import Autos
from autos.base.ptbr import count_noun
from autos.errors import AutosError, InputError, keep_original, os_error_pt
from autos.processo.paths import field_info
from autos.processo.text import dotted, parse_dotted
from autos.store.register import Register

__all__ = ["MAX_COLUMNS", "MAX_ROWS", "MAX_SHEET_BYTES", "ImportReport", "RowProblem", "import_sheet", "read_sheet"]

#: largest spreadsheet read (5 MiB: a campaign of 2.000 lots in CSV is about 1 MiB)
MAX_SHEET_BYTES = 5 * 1024 * 1024
#: most data rows (one per processo)
MAX_ROWS = 2000
#: most columns
MAX_COLUMNS = 200
#: largest sum of the uncompressed parts of an XLSX (a ZIP bomb is refused before it is opened)
MAX_XLSX_UNZIPPED = 50 * 1024 * 1024

_ALIASES = {"auto": "atos[0]", "infracao": "infracoes[0]"}


@dataclass(frozen=True)
class RowProblem:
    """Why a row was refused: its number in the sheet (the header is row 1), the column, the message."""

    linha: int
    coluna: str | None  # the column's header; None: about the whole row
    mensagem: str
    codigo: str
    citacao: str | None = None

    def render(self) -> str:
        where = f"linha {self.linha}" + (f", coluna '{self.coluna}'" if self.coluna else "")
        return f"{where}: [{self.codigo}] {self.mensagem}" + (f" ({self.citacao})" if self.citacao else "")

    def to_dict(self) -> dict[str, Any]:
        return {"linha": self.linha, "coluna": self.coluna, "codigo": self.codigo, "mensagem": self.mensagem,
                "citacao": self.citacao}


@dataclass
class ImportReport:
    """What ``autos importar`` did: the files written (row, file, numbers reserved) and the rows refused."""

    planilha: Path
    lei: str
    gravados: list[tuple[int, Path, tuple[str, ...]]] = field(default_factory=list)
    recusados: list[tuple[int, list[RowProblem]]] = field(default_factory=list)

    def exit_code(self) -> int:
        return 1 if self.recusados else 0

    def lines(self) -> list[str]:
        out = [f"planilha: {self.planilha} ({self.lei})"]
        out += [f"linha {n}: gravado {f}" + (f" (reservado: {', '.join(r)})" if r else "") for n, f, r in self.gravados]
        for n, problems in self.recusados:
            out.append(f"linha {n}: RECUSADA ({count_noun(len(problems), 'problema', 'problemas')})")
            out += [f"  {p.render()}" for p in problems]
        written = count_noun(len(self.gravados), "processo gravado", "processos gravados")
        out.append(f"{written}, {count_noun(len(self.recusados), 'linha recusada', 'linhas recusadas')}.")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"planilha": str(self.planilha), "lei": self.lei,
                "gravados": [{"linha": n, "arquivo": str(f), "reservados": list(r)} for n, f, r in self.gravados],
                "recusados": [{"linha": n, "problemas": [p.to_dict() for p in ps]} for n, ps in self.recusados],
                "codigo_saida": self.exit_code()}


# --------------------------------------------------------------------------------------------------
# reading


def _cell_text(value: object) -> str:
    """An XLSX cell as the text a clerk would have typed: numbers as written (1500, 12.5; a float with
    representation noise such as 1500.0000000000002 is kept, and the loader refuses it with its message), dates
    AAAA-MM-DD, times HH:MM, booleans true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.strftime("%H:%M") if not value.second else value.strftime("%H:%M:%S")
    return str(value)


def _kind(raw: bytes, file: Path) -> str:
    suffix = file.suffix.lower()
    if raw.startswith(b"PK\x03\x04"):
        if suffix != ".xlsx":
            raise InputError(f"o arquivo tem nome {suffix or 'sem extensão'}, mas o conteúdo é uma planilha "
                             "compactada (XLSX ou outro arquivo ZIP).", file=file,
                             hint="salve a planilha como .xlsx (Pasta de Trabalho do Excel) ou como CSV UTF-8.")
        return "xlsx"
    if suffix == ".xlsx":
        raise InputError("o arquivo tem nome .xlsx, mas o conteúdo não é uma planilha do Excel.", file=file,
                         hint="abra-o na planilha e salve-o de novo como Pasta de Trabalho do Excel (.xlsx).")
    if suffix not in (".csv", ".txt"):
        raise InputError(f"tipo de planilha não aceito ({suffix or 'sem extensão'}).", file=file,
                         hint="use CSV (UTF-8) ou XLSX.")
    if b"\x00" in raw:
        raise InputError("o arquivo .csv não é texto (tem bytes nulos).", file=file,
                         hint="salve a planilha como CSV UTF-8 (delimitado por vírgulas).")
    return "csv"


def _csv_rows(raw: bytes, file: Path) -> list[list[str]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"o arquivo CSV não está em UTF-8 (byte inválido na posição {exc.start}).", file=file,
                         hint="no Excel, salve como 'CSV UTF-8 (delimitado por vírgulas)'; no LibreOffice, escolha "
                         "o conjunto de caracteres Unicode (UTF-8).") from None
    first = text.split("\n", 1)[0]
    delimiter = max((";", ",", "\t"), key=first.count)
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            rows.append(row)
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        keep_original(exc, f"CSV {file}")
        why = ("caractere nulo (U+0000)" if "nul" in str(exc).lower() else "campo longo demais" if "limit" in
               str(exc).lower() else "aspas que não fecham")
        raise InputError(f"CSV malformado na linha {len(rows) + 1} ({why}).", file=file,
                         hint="confira as aspas da linha.") from None
    return rows


def _xlsx_rows(raw: bytes, file: Path) -> list[list[str]]:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            names = set(z.namelist())
            if "xl/workbook.xml" not in names:
                raise InputError("o arquivo .xlsx não tem uma pasta de trabalho do Excel (xl/workbook.xml).",
                                 file=file, hint="salve a planilha de novo como .xlsx.")
            if sum(i.file_size for i in z.infolist()) > MAX_XLSX_UNZIPPED:
                raise InputError(f"a planilha descompactada passa de {MAX_XLSX_UNZIPPED // (1024 * 1024)} MiB.",
                                 file=file, hint=f"divida a planilha em partes de até {MAX_ROWS} linhas.")
    except zipfile.BadZipFile:
        raise InputError("o arquivo .xlsx está corrompido (não é um ZIP válido).", file=file,
                         hint="abra-o na planilha e salve-o de novo.") from None
    from openpyxl import load_workbook  # only the import of an XLSX needs it

    rows: list[list[str]] = []
    try:
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken workbook
        keep_original(exc, f"planilha {file}")
        raise InputError("não foi possível ler a planilha (o .xlsx está incompleto ou corrompido).", file=file,
                         hint="abra-a na planilha e salve-a de novo como .xlsx.") from None
    try:
        ws = wb.worksheets[0]
        for values in ws.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1):
            rows.append([_cell_text(v) for v in values])
            if len(rows) > MAX_ROWS + 1:
                break
    finally:
        wb.close()
    return rows


def read_sheet(file: Path, raw: bytes | None = None) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the data rows ``(row number, cells)`` of a CSV or XLSX (``raw``: its bytes, when already
    read, as an upload); blank rows are skipped. Too big, too many rows or columns, a type that does not match
    its content: :class:`InputError`."""
    if raw is None:
        try:
            size = file.stat().st_size
        except OSError as exc:
            raise InputError(f"não foi possível ler a planilha ({os_error_pt(exc)}).", file=file) from None
        if size > MAX_SHEET_BYTES:
            raise _too_big(file, size)
        raw = file.read_bytes()
    if len(raw) > MAX_SHEET_BYTES:
        raise _too_big(file, len(raw))
    rows = _xlsx_rows(raw, file) if _kind(raw, file) == "xlsx" else _csv_rows(raw, file)
    if not rows:
        raise InputError("a planilha está vazia.", file=file, hint="a primeira linha tem os nomes das colunas.")
    if len(rows) > MAX_ROWS + 1:
        raise InputError(f"a planilha tem mais de {MAX_ROWS} linhas de dados.", file=file,
                         hint=f"divida-a em partes de até {MAX_ROWS} linhas.")
    header = [h.strip() for h in rows[0]]
    while header and not header[-1]:
        header.pop()
    if len(header) > MAX_COLUMNS:
        raise InputError(f"a planilha tem mais de {MAX_COLUMNS} colunas.", file=file)
    data = [(i + 2, r) for i, r in enumerate(rows[1:]) if any(c.strip() for c in r)]
    return header, data


def _too_big(file: Path, size: int) -> InputError:
    return InputError(f"a planilha tem {size} bytes; o máximo é {MAX_SHEET_BYTES} ({MAX_SHEET_BYTES // (1024 * 1024)} "
                      "MiB).", file=file, hint=f"divida-a em partes de até {MAX_ROWS} linhas.")


def column_path(name: str) -> str | None:
    """The field a column names (its header): a path of the processo file, with ``auto.`` for ``atos[0].`` and
    ``infracao`` for ``infracoes[0]``; None for anything else."""
    head, dot, rest = name.partition(".")
    if head in _ALIASES:
        name = _ALIASES[head] + (dot + rest if dot else ".regra" if head == "infracao" else "")
    path = parse_dotted(name)
    info = field_info(path) if path is not None else None
    if path is None or name == "lei" or info is None or info.kind in ("grupo", "lista"):
        return None
    return dotted(path)


# --------------------------------------------------------------------------------------------------
# importing


def _columns(header: list[str], file: Path) -> list[str]:
    paths: list[str] = []
    unknown: list[str] = []
    for i, name in enumerate(header):
        path = column_path(name) if name else None
        if path is None:
            unknown.append(f"{i + 1} ('{name[:60]}')" if name else f"{i + 1} (sem nome)")
        elif path in paths:
            raise InputError(f"a coluna '{name}' aparece duas vezes na planilha.", file=file,
                             hint="cada campo do processo tem uma só coluna.")
        paths.append(path or "")
    if unknown:
        what = "coluna que não é campo" if len(unknown) == 1 else "colunas que não são campos"
        raise InputError(f"{what} do processo: {', '.join(unknown)}; nada foi importado.",
                         file=file, hint="use os nomes de campo do arquivo de processo (autuado.nome, "
                         "autuado.cpf, local, fatos, infracao, infracao.quantidade, auto.data, auto.agente.nome…; "
                         "veja a tabela no README).")
    if "infracoes[0].regra" not in paths:
        raise InputError("falta a coluna 'infracao' (o id da infração nas regras da lei).", file=file,
                         hint="acrescente a coluna infracao (veja autos regras mostrar LEI).")
    return paths


def _row_values(autos: Autos, lei: str, columns: list[str], cells: list[str]) -> dict[str, str]:
    """The form values of a row: the plan of its choices (law, infraction, kind of autuado) and its cells."""
    typed = {c: (cells[i] if i < len(cells) else "") for i, c in enumerate(columns)}
    extra = [v for v in cells[len(columns):] if v.strip()]
    if extra:
        raise InputError(f"a linha tem {count_noun(len(extra), 'valor', 'valores')} em colunas sem nome.",
                         hint="dê nome à coluna ou apague os valores.")
    infracoes = [typed[c].strip() for c in columns if c.endswith(".regra") and typed[c].strip()]
    juridica = typed.get("autuado.tipo", "").strip() == "pessoa_juridica"
    pens = [typed[c].strip() for c in columns if c.startswith("atos[0].penalidades[") and c.endswith("].tipo")
            and typed[c].strip()]
    plan = _plan(autos, lei, infracoes, juridica, pens or None)
    values = {dotted(s.path): parse_processo_scalar(s.value) for s in plan.slots if s.value}
    values.update({c: v for c, v in typed.items() if v.strip()})
    return values


def import_sheet(autos: Autos, file: Path, lei: str, out_dir: Path, register: Register | None = None,
                 raw: bytes | None = None) -> ImportReport:
    """Validate every row of the sheet ``file`` and write each valid one as a processo of ``lei`` in
    ``out_dir`` (``<municipio>/<numero>.yaml``); the refused rows, with why, are in the report."""
    if lei not in autos.rules.statutes:
        raise InputError(f"lei '{lei}' não encontrada nas regras.",
                         hint=f"Ids de lei válidos: {', '.join(sorted(autos.rules.statutes))}.")
    header, rows = read_sheet(file, raw)
    columns = _columns(header, file)
    by_path = dict(zip(columns, header, strict=True))
    report = ImportReport(file, lei)
    statute = autos.rules.statutes[lei]
    for number, cells in rows:
        unknown = [RowProblem(number, by_path[c], f"infração '{cells[i].strip()}' não existe na lei {lei}.",
                              UNREADABLE, None)
                   for i, c in enumerate(columns) if c.startswith("infracoes[") and c.endswith("].regra")
                   and i < len(cells) and cells[i].strip() and cells[i].strip() not in statute.infracoes]
        if unknown:
            report.recusados.append((number, unknown))
            continue
        try:
            values = _row_values(autos, lei, columns, cells)
        except AutosError as exc:
            report.recusados.append((number, [RowProblem(number, None, exc.render(), UNREADABLE)]))
            continue
        draft = validate_draft(autos, values, campos=columns)
        problems = [RowProblem(number, _column(by_path, f.caminho, columns, name), f.mensagem, f.codigo, f.citacao)
                    for name, f in draft.achados if f.severidade == "erro"]
        if problems:
            report.recusados.append((number, problems))
            continue
        try:
            saved = save_new_processo(autos, values, out_dir, register)
        except AutosError as exc:
            report.recusados.append((number, [RowProblem(number, None, exc.render(), type(exc).__name__)]))
            continue
        report.gravados.append((number, saved.arquivo, saved.reservados))
    return report


def _column(by_path: Mapping[str, str], caminho: str | None, columns: list[str], name: str | None) -> str | None:
    """The header of the column a finding is about; a field with no column is named by its path."""
    col = _field_for(caminho, columns) if caminho else None
    if col is not None and col in by_path:
        return by_path[col]
    return f"{caminho} (sem coluna)" if caminho else name
