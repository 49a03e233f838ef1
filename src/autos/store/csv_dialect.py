"""The one CSV dialect of every CSV autos writes — ``autos pendencias --csv``, ``autos exportar-debitos`` and the
editais manifest (``manifesto-editais-AAAA-MM-DD.csv``): what a spreadsheet set up for Brazil (Excel or LibreOffice
in pt-BR) opens by a double click in columns, with its accents and its numbers.

- **UTF-8 with a BOM**: without it Excel reads a CSV in the ANSI code page (cp1252), and "Timóteo" shows as
  "TimÃ³teo";
- **``;`` between cells**: the list separator of the pt-BR locale, where ``,`` is the decimal separator (a CSV
  with ``,`` opens as one column);
- **CRLF line ends** (RFC 4180); a cell holding ``;``, a quote, CR or LF is quoted, quotes doubled;
- **decimal comma** in a number a person reads (a :class:`~decimal.Decimal`: ``5,0770``, ``3123,87``), with no
  thousands separator, so that the spreadsheet reads a number and not a text; whole numbers as they are;
- **no formula**: text starting with ``= + - @``, tab or CR gets a leading apostrophe (OWASP's CSV injection
  advice), which spreadsheets show as text. A number is written by this module and is never neutralised.

Only the CSV takes this form: the JSON next to each CSV keeps the exact values (decimal point, no apostrophe).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

__all__ = ["BOM", "CsvTable", "csv_bytes", "csv_cell"]

BOM = "\ufeff"

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class _PtBr(csv.Dialect):
    delimiter = ";"
    quotechar = '"'
    doublequote = True
    skipinitialspace = False
    lineterminator = "\r\n"
    quoting = csv.QUOTE_MINIMAL


def csv_cell(value: object) -> str:
    """One cell in the dialect: ``None`` empty, a Decimal with a decimal comma, an int as it is, text neutralised
    against formulas. A float is refused: money and measures are Decimal in this project."""
    if value is None:
        return ""
    if isinstance(value, bool | float):
        raise TypeError(f"valor {value!r} numa célula de CSV: use Decimal, int ou texto")
    if isinstance(value, Decimal):
        return f"{value:f}".replace(".", ",")
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


class CsvTable:
    """The lines of one CSV file with ``columns``, written piece by piece (a file streamed in parts, such as the
    manifest) or all at once (:func:`csv_bytes`): :meth:`header` first — it starts the file with the BOM —, then
    one :meth:`row` per record."""

    def __init__(self, columns: Sequence[str]) -> None:
        self.columns = list(columns)
        self._buf = io.StringIO()
        self._writer = csv.writer(self._buf, dialect=_PtBr)

    def _line(self, cells: Iterable[object]) -> str:
        self._buf.seek(0)
        self._buf.truncate()
        self._writer.writerow([csv_cell(c) for c in cells])
        return self._buf.getvalue()

    def header(self) -> str:
        return BOM + self._line(self.columns)

    def row(self, values: Mapping[str, object] | Sequence[object]) -> str:
        """A record: a mapping by column (a missing column is an empty cell, an unknown key an error) or the cells
        in column order."""
        if isinstance(values, Mapping):
            unknown = set(values) - set(self.columns)
            if unknown:
                raise ValueError(f"colunas desconhecidas no CSV: {sorted(unknown)}")
            return self._line(values.get(c) for c in self.columns)
        if len(values) != len(self.columns):
            raise ValueError(f"{len(values)} células para {len(self.columns)} colunas no CSV")
        return self._line(values)


def csv_bytes(columns: Sequence[str], rows: Iterable[Mapping[str, object] | Sequence[object]]) -> bytes:
    """A whole CSV file in the dialect, encoded (UTF-8, BOM first)."""
    table = CsvTable(columns)
    return (table.header() + "".join(table.row(r) for r in rows)).encode("utf-8")
