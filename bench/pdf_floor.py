"""The floor of the PDF benchmarks: WeasyPrint on the same HTML, with the stylesheet and the fonts reused.

A program that makes many PDFs with WeasyPrint builds its ``FontConfiguration`` once and parses its stylesheet
once; a fresh ``HTML(string=...).write_pdf()`` per document (the "naive" reference the benchmarks used before)
does both again for every document, so it is not the least a renderer must do. :class:`PdfFloor` does only what
WeasyPrint itself must do for each document: the page's single ``<link rel="stylesheet">`` to a file of the
templates folder is parsed once (``CSS(filename=...)``) and passed as a stylesheet, with one font configuration
for every document. No finisher, no URL fetcher, no metadata: what ``autos`` adds on top is what the ratio shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

_LINK = re.compile(r'<link rel="stylesheet" href="([A-Za-z0-9_.-]+\.css)">')


class PdfFloor:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fonts = FontConfiguration()
        self._css: dict[str, Any] = {}

    def pdf(self, source: str) -> bytes:
        sheets = []
        links = _LINK.findall(source)
        if len(links) == 1 and "<style" not in source:
            if links[0] not in self._css:
                self._css[links[0]] = CSS(filename=str(self.folder / links[0]), font_config=self.fonts)
            sheets.append(self._css[links[0]])
            source = _LINK.sub("", source, count=1)
        data = HTML(string=source, base_url=str(self.folder) + "/").write_pdf(stylesheets=sheets,
                                                                                 font_config=self.fonts)
        assert isinstance(data, bytes)
        return data
