"""Every value of the rules still an EXAMPLE (``exemplo: true``), per municipality (``autos regras exemplos``).

Read after the municipality's official values (:mod:`autos.rules.official`) are applied: what they set or confirm
is no longer listed. Each entry names the file, the line, what the value is and how to make it official.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from autos.base.yamlio import PathKey, YamlDoc, format_path, load_yaml
from autos.errors import RulesError
from autos.rules.official import FILE_NAME, patched

__all__ = ["Example", "list_examples"]


@dataclass(frozen=True)
class Example:
    """One example value of the rules."""

    municipio: str
    lei: str | None  # the law file it belongs to (None: the municipality's calendar or register)
    arquivo: str  # rules/<municipio>/<file>
    linha: int | None
    caminho: str  # its YAML path
    o_que: str  # Portuguese: what the value is
    como_corrigir: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _kind(name: str) -> str:
    if name == "calendario.yaml":
        return "calendario"
    if name == "autoridades.yaml":
        return "autoridades"
    if name.endswith(".prazos.yaml"):
        return "prazos"
    if name.endswith(".processo.yaml"):
        return "processo"
    return "lei"


def _what(kind: str, path: PathKey, node: dict[str, Any]) -> tuple[str, str]:
    """What the example at ``path`` is and the key of ``valores-oficiais.yaml`` that sets it."""
    nome = node.get("nome")
    if kind == "lei" and path[:2] == ("unidade_fiscal", "valores"):
        year = str(node.get("desde", "?"))[:4]
        return f"valor da unidade fiscal de {year} (R$ {node.get('valor')})", f"unidade_fiscal (ano: {year})"
    if kind == "lei" and path[:1] == ("regulamentos",):
        return f"regulamento {path[1]} ({node.get('tipo')} nº {node.get('numero')})", f"regulamentos.{path[1]}"
    if kind in ("prazos", "processo"):
        return f"prazo {path[1]} ({node.get('quantidade')} {node.get('tipo')})", f"prazos.{path[1]}"
    if kind == "calendario":
        return f"dia sem expediente '{nome}' ({path[0]})", f"calendario (nome: {nome})"
    if path[:1] == ("titulares",) and len(path) == 2:
        return f"titular {nome} ({node.get('cargo')})", f"titulares (nome: {nome})"
    if path[:1] == ("titulares",):
        return f"ato de designação {node.get('especie')} nº {node.get('numero')}", "titulares (o ato do titular)"
    return f"ato {node.get('especie')} nº {node.get('numero')} ({format_path(path)})", \
        f"atos_das_autoridades (numero: {node.get('numero')})"


def _walk(node: Any, path: PathKey = ()) -> list[tuple[PathKey, dict[str, Any]]]:
    out: list[tuple[PathKey, dict[str, Any]]] = []
    if isinstance(node, dict):
        if str(node.get("exemplo")).lower() == "true":
            out.append((path, node))
        for k, v in node.items():
            out.extend(_walk(v, (*path, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_walk(v, (*path, i)))
    return out


def _file_examples(file: Path) -> list[Example]:
    kind = _kind(file.name)
    doc: YamlDoc = patched(load_yaml(file, RulesError), kind)
    mun = file.parent.name
    lei = None if kind in ("calendario", "autoridades") else f"{mun}/{file.name.split('.', 1)[0]}"
    out = []
    for path, node in _walk(doc.data):
        what, key = _what(kind, path, node)
        out.append(Example(mun, lei, f"rules/{mun}/{file.name}", doc.line_of((*path, "exemplo")), format_path(path),
                           what, f"defina-o (com o ato: espécie, número, data e publicação) em rules/{mun}/{FILE_NAME}"
                           f", chave {key}"))
    return out


def list_examples(root: Path, lei: str | None = None) -> list[Example]:
    """Every example value under the rules folder ``root`` (or of law ``lei`` and its municipality's calendar and
    register), by municipality and file, in the order of the files."""
    out: list[Example] = []
    for folder in sorted(p for p in Path(root).iterdir() if p.is_dir()):
        if lei is not None and folder.name != lei.split("/", 1)[0]:
            continue
        for file in sorted(folder.glob("*.yaml")):
            if file.name == FILE_NAME or file.name.endswith(".cobertura.yaml"):
                continue
            if lei is not None and _kind(file.name) not in ("calendario", "autoridades") \
                    and file.name.split(".", 1)[0] != lei.split("/", 1)[-1]:
                continue
            out.extend(_file_examples(file))
    return out
