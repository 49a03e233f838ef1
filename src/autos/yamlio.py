"""Safe, strict YAML reading that remembers where every value came from.

* Only plain data: no object construction (tags other than the core ones are refused).
* Duplicate keys are errors naming the file, the key and both lines.
* Plain scalars stay as the text the user typed (``14:30`` is not turned into 870, ``012`` keeps its
  zero); only ``null``/``~``/empty become ``None``. Typed conversion is left to the models, so nothing
  a user typed is silently changed.
* Anchors and aliases are bounded: expanding them beyond :data:`MAX_NODES` nodes is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import AutosError, InputError

try:  # the C parser is much faster; the tree walk below is ours either way
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

#: largest number of nodes a document may expand to (guards against alias bombs)
MAX_NODES = 200_000

PathKey = tuple[str | int, ...]

_NULLS = {"", "~", "null", "Null", "NULL"}
_STR_TAG = "tag:yaml.org,2002:str"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_COLLECTION_TAGS = {_MAP_TAG, _SEQ_TAG}
_ALLOWED_SCALAR_TAGS = {
    _STR_TAG,
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:timestamp",
}


def format_path(path: PathKey) -> str:
    """``('autuado', 'enderecos', 0, 'cep')`` → ``autuado.enderecos[0].cep``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or "(raiz)"


@dataclass
class YamlDoc:
    """A parsed YAML document and the line (1-based) of every key and list item."""

    data: Any
    file: Path
    lines: dict[PathKey, int] = field(default_factory=dict)

    def line_of(self, path: PathKey) -> int | None:
        """Line of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), None)

    def error(self, cls: type[AutosError], path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return cls(message, file=self.file, path=format_path(path), line=self.line_of(path), hint=hint)


class _Loader(_BaseLoader):
    """PyYAML's loader without implicit typing of untagged scalars, which this module never uses.

    Every scalar is kept as the text typed, so resolving ``14:30`` or ``2026-03-16`` to an int or
    timestamp tag (a regular-expression search per scalar, the costliest part of composing) would only be
    thrown away. Untagged scalars get the str tag, except a plain ``<<``, which keeps the merge tag so that
    it is still refused; explicitly tagged nodes are not resolved at all and are checked by the walk.
    Path resolvers are not used either.
    """

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            return _MERGE_TAG if implicit[0] and value == "<<" else _STR_TAG
        return _SEQ_TAG if kind is yaml.SequenceNode else _MAP_TAG

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None


class _Walker:
    def __init__(self, file: Path, error_cls: type[AutosError]) -> None:
        self.file = file
        self.error_cls = error_cls
        self.lines: dict[PathKey, int] = {}
        self.count = 0

    def fail(self, node: yaml.Node, path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return self.error_cls(
            message,
            file=self.file,
            path=format_path(path),
            line=node.start_mark.line + 1,
            hint=hint,
        )

    def walk(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(
                node,
                path,
                f"o documento é grande demais ou usa âncoras/aliases em excesso (mais de {MAX_NODES} nós).",
                "remova aliases (*nome) repetidos ou divida o arquivo.",
            )
        # the line of ``path`` was recorded by the caller (key or list item) or by parse_yaml (root)
        if isinstance(node, yaml.ScalarNode):  # most nodes
            if node.tag not in _ALLOWED_SCALAR_TAGS:
                raise self.fail(node, path, f"a marca YAML '{node.tag}' não é aceita.",
                                "use apenas textos, números, listas e mapas.")
            if not node.style and node.value in _NULLS:
                return None
            return node.value
        if node.tag not in _COLLECTION_TAGS:
            raise self.fail(node, path, f"a marca YAML '{node.tag}' não é aceita.",
                            "use apenas textos, números, listas e mapas.")
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise self.fail(key_node, path, "a chave de mesclagem '<<' não é aceita.",
                                    "escreva os campos por extenso.")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "chave inválida: use um texto simples como chave.")
                key = str(key_node.value)
                line = key_node.start_mark.line + 1
                if key in seen:
                    raise self.fail(
                        key_node,
                        (*path, key),
                        f"chave duplicada '{key}' (já aparece na linha {seen[key]}).",
                        "deixe só uma ocorrência da chave.",
                    )
                seen[key] = line
                child: PathKey = (*path, key)
                self.lines[child] = line
                out[key] = self.walk(value_node, child)
            return out
        assert isinstance(node, yaml.SequenceNode)
        items = []
        for i, item in enumerate(node.value):
            child = (*path, i)
            self.lines[child] = item.start_mark.line + 1
            items.append(self.walk(item, child))
        return items


_PROBLEMS = {
    "did not find expected ',' or ']'": "faltou ',' ou ']' para fechar a lista",
    "did not find expected ',' or '}'": "faltou ',' ou '}' para fechar o mapa",
    "mapping values are not allowed here": "dois-pontos em lugar inesperado (um texto com ':' precisa de aspas)",
    "could not find expected ':'": "faltou ':' depois da chave",
    "found character '\\t' that cannot start any token": "há uma tabulação; use espaços para indentar",
    "did not find expected key": "indentação inconsistente",
    "found undefined alias": "alias (*nome) sem âncora (&nome) correspondente",
    "found unexpected end of stream": "o arquivo terminou antes de fechar aspas, colchetes ou chaves",
    "expected <block end>, but found '<block mapping start>'": "indentação inconsistente",
    "expected a single document in the stream": "o arquivo tem mais de um documento (---); deixe só um",
}


def _problem_pt(problem: str) -> str:
    for en, pt in _PROBLEMS.items():
        if problem.startswith(en):
            return pt
    return problem


def parse_yaml(text: str, file: str | Path, error_cls: type[AutosError] = InputError) -> YamlDoc:
    """Parse one YAML document from ``text``; errors name ``file`` and the line."""
    path = Path(file)
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark is not None else None
            problem = _problem_pt(exc.problem or "erro de sintaxe")
            ctx = exc.context_mark
            if ctx is not None and line is not None and ctx.line + 1 != line:
                problem += f"; o trecho começa na linha {ctx.line + 1}"
            raise error_cls(
                f"YAML malformado ({problem}).",
                file=path,
                line=line,
                hint="confira a indentação (espaços, não tabulações), os dois-pontos e as aspas.",
            ) from None
        except yaml.YAMLError as exc:
            raise error_cls(f"YAML malformado ({exc}).", file=path) from None
    finally:
        loader.dispose()
    if node is None:
        raise error_cls("o arquivo está vazio.", file=path, hint="preencha o arquivo conforme o modelo.")
    walker = _Walker(path, error_cls)
    walker.lines[()] = node.start_mark.line + 1
    data = walker.walk(node, ())
    return YamlDoc(data=data, file=path, lines=walker.lines)


def load_yaml(file: str | Path, error_cls: type[AutosError] = InputError) -> YamlDoc:
    """Read and parse a YAML file (UTF-8)."""
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error_cls("arquivo não encontrado.", file=path, hint="confira o caminho informado.") from None
    except IsADirectoryError:
        raise error_cls("é uma pasta, não um arquivo YAML.", file=path) from None
    except UnicodeDecodeError:
        raise error_cls("o arquivo não está em UTF-8.", file=path,
                        hint="salve o arquivo com a codificação UTF-8.") from None
    except OSError as exc:
        raise error_cls(f"não foi possível ler o arquivo ({exc.strerror}).", file=path) from None
    return parse_yaml(text, path, error_cls)


def iter_yaml_files(folder: Path) -> Iterator[Path]:
    """YAML files under ``folder``, sorted, recursively."""
    yield from sorted(p for p in folder.rglob("*") if p.suffix in {".yaml", ".yml"} and p.is_file())
