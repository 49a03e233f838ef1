"""The archival PDF of ``autos gerar --arquivo`` (PDF/A-3b): the file it embeds — the case or processo file it came
from, or, for an edital, only the data it publishes — and its metadata (title, author, subject, keywords)."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import TYPE_CHECKING, Any

from autos.documents.context import EDITAL
from autos.documents.published import published_data
from autos.processo.load_case import LoadedCase
from autos.rules.statute import Statute

if TYPE_CHECKING:  # the renderer imports WeasyPrint (~0.75 s): only when a document is rendered
    from autos.render.pdf import EmbeddedFile, PdfMetadata

__all__ = ["ARCHIVE_VARIANT", "archive_metadata", "source_attachment"]

#: PDF variant of ``gerar --arquivo``: PDF/A-3 allows embedding the case file (ISO 19005-3), level B
ARCHIVE_VARIANT = "pdf/a-3b"


def _ascii_name(name: str) -> str:
    """``caso com espaço.yaml`` → ``caso-com-espaco.yaml``: PDF readers show non-ASCII file names badly."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9._-]+", "-", plain).strip("-") or "caso.yaml"


def source_attachment(loaded: LoadedCase, source: bytes, stamp: datetime, template: str,
                       context: dict[str, Any]) -> EmbeddedFile:
    """The file an archival PDF embeds: the case or processo file it came from; for an edital, only the data it
    publishes and the SHA-256 of that file (LGPD art. 6º, III: :mod:`autos.documents.published`)."""
    from autos.render.pdf import EmbeddedFile

    if EDITAL in (loaded.case.documento, template):
        return EmbeddedFile(name=f"dados-publicados-{_ascii_name(loaded.file.name)}",
                            data=published_data(context, loaded.file.name, source), mime="application/yaml",
                            relationship="Data", when=stamp,
                            description="Dados que este edital publica, com o SHA-256 do arquivo do processo (o "
                            "arquivo não vai anexado: LGPD, art. 6º, III)")
    return EmbeddedFile(name=_ascii_name(loaded.file.name), data=source, mime="application/yaml",
                        relationship="Source", when=stamp,
                        description=f"Caso '{loaded.file.name}' (fatos em YAML) a partir do qual este documento "
                        "foi gerado pelo autos")


def archive_metadata(loaded: LoadedCase, statute: Statute, stamp: datetime) -> PdfMetadata:
    from autos.render.pdf import PdfMetadata

    case, lei = loaded.case, statute.lei
    kind = statute.documentos[case.documento]
    numero = case.numero or "s/n"
    keywords = [kind.titulo, lei.label, statute.id, f"{lei.municipio}/{lei.uf}", f"nº {numero}"]
    if case.processo:
        keywords.append(f"processo {case.processo}")
    keywords.append(lei.urn)
    return PdfMetadata(
        titulo=f"{kind.titulo} nº {numero} — {lei.municipio}/{lei.uf}",
        autor=f"Prefeitura Municipal de {lei.municipio} — {case.agente.nome or 'agente não informado'}",
        assunto=f"{kind.titulo} nº {numero} — {lei.label} ({lei.municipio}/{lei.uf}) — autuado: "
        f"{case.autuado.nome or 'não informado'}",
        palavras_chave=keywords,
        criado_em=stamp,
    )
