"""Stage 4b — render PDF: HTML/CSS template (Jinja sandbox, autoescape) → WeasyPrint.

The renderer fetches nothing from the network and nothing outside the templates folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from .errors import RenderError


class _LocalOnlyFetcher(URLFetcher):  # type: ignore[misc]
    """Serves ``file:`` URLs inside the templates folder; refuses everything else."""

    def __init__(self, root: Path) -> None:
        super().__init__(allowed_protocols=["file"])
        self.root = root.resolve()

    def fetch(self, url: str, headers: Any = None) -> Any:
        parsed = urlparse(url)
        if parsed.scheme != "file":
            raise ValueError(f"recurso externo recusado: {url}")
        path = Path(unquote(parsed.path)).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"recurso fora da pasta de modelos recusado: {url}")
        return super().fetch(url, headers)


def strict_html_env(folder: Path) -> SandboxedEnvironment:
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


class PdfRenderer:
    """Renders HTML templates of one templates folder; reuse it across documents (parsed CSS is cached)."""

    def __init__(self, templates_dir: Path) -> None:
        self.folder = (templates_dir / "html").resolve()
        if not self.folder.is_dir():
            raise RenderError("pasta de modelos HTML não encontrada.", file=self.folder,
                              hint="indique a pasta de modelos com --modelos (ou --templates).")
        self.env = strict_html_env(self.folder)
        self.fetcher = _LocalOnlyFetcher(self.folder)

    def html(self, template: str, context: dict[str, Any]) -> str:
        name = f"{template}.html"
        try:
            return self.env.get_template(name).render(context)
        except jinja2.TemplateNotFound:
            raise RenderError(f"modelo '{name}' não encontrado.", file=self.folder / name) from None
        except jinja2.UndefinedError as exc:
            raise RenderError(f"o modelo usa um valor indefinido: {exc.message}.", file=self.folder / name,
                              hint="corrija o nome da variável no modelo.") from None
        except jinja2.TemplateSyntaxError as exc:
            raise RenderError(f"erro de sintaxe no modelo: {exc.message}.", file=exc.filename or name,
                              line=exc.lineno) from None
        except jinja2.exceptions.SecurityError as exc:
            raise RenderError(f"o modelo tentou uma operação proibida: {exc}.", file=self.folder / name) from None

    def pdf(self, template: str, context: dict[str, Any], *, attachments: list[Any] | None = None,
            pdf_variant: str | None = None) -> bytes:
        source = self.html(template, context)
        doc = HTML(string=source, base_url=str(self.folder) + "/", url_fetcher=self.fetcher)
        kwargs: dict[str, Any] = {}
        if attachments:
            kwargs["attachments"] = attachments
        if pdf_variant:
            kwargs["pdf_variant"] = pdf_variant
        data = doc.write_pdf(**kwargs)
        assert isinstance(data, bytes)
        return data
