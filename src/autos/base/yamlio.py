"""Safe, strict YAML reading that remembers where every value came from.

* Only plain data: no object construction (tags other than the core ones are refused).
* Duplicate keys are errors naming the file, the key and both lines.
* Plain scalars stay as the text the user typed (``14:30`` is not turned into 870, ``012`` keeps its
  zero); only ``null``/``~``/empty become ``None``. Typed conversion is left to the models, so nothing
  a user typed is silently changed.
* Anchors and aliases are bounded: expanding them beyond :data:`MAX_NODES` nodes is refused.
* Every file kind (cases, rules, calendars, deadline rules) gets the same bounds, checked here before
  any model sees the data: file size (:data:`MAX_FILE_BYTES`, checked before reading; only regular
  files are opened, so a named pipe cannot hang a run), nesting depth (:data:`MAX_DEPTH`, checked
  while walking, before Python's recursion limit), text length (:data:`MAX_TEXT_CHARS` per value).
* Control characters are refused with the file, the field and the line, whether typed raw or written
  as a YAML escape (``"\\0"``, ``"\\e"``, ``"\\uFFFE"``); the one exception is the vertical tab
  (``"\\v"``), which is what Word's manual line break (Shift+Enter) becomes: inside a value it is a
  line break and is read as one (``\\n``).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autos.errors import AutosError, InputError, os_error_pt

try:  # the C parser is much faster; the tree walk below is ours either way
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

#: largest number of nodes a document may expand to (guards against alias bombs)
MAX_NODES = 200_000
#: largest YAML file read, in bytes (1 MiB; the largest statute file is about 50 kB, a case about 3 kB)
MAX_FILE_BYTES = 1024 * 1024
#: deepest nesting of lists and maps (the case model is 4 levels deep, the rules about 7)
MAX_DEPTH = 32
#: longest text of one value, in characters (about ten pages; the longest ``fatos`` in samples is < 600)
MAX_TEXT_CHARS = 20_000

# Characters no value may contain: C0 controls except tab, line feed and carriage return, DEL, C1
# controls (U+0080–U+009F, which includes YAML's ``\N``), surrogates and Unicode noncharacters.
_NONCHARS = "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef" + _NONCHARS + "]")


def _printable(text: str) -> bool:
    """True when ``text`` surely has none of :data:`_CONTROL` (every control, surrogate and noncharacter
    is non-printable for Python; some harmless characters such as U+00A0 are too, hence the regex after)."""
    return text.isprintable()


#: Word's manual line break, read as a line break inside a value
_WORD_LINE_BREAK = "\x0b"

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


class FromYamlDoc:
    """Mixin of a model read from a YAML document (a case, a processo): its file and the line of each value.
    The class using it declares the ``doc`` field."""

    doc: YamlDoc

    @property
    def file(self) -> Path:
        return self.doc.file

    def line_of(self, path: PathKey) -> int | None:
        return self.doc.line_of(path)


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


def describe_char(ch: str) -> str:
    """``U+0000 (NUL)``-like description of a character, for messages."""
    names = {"\x00": "caractere nulo", "\x1b": "ESC", "\x0c": "quebra de página", "\x0b": "tabulação vertical",
             "\x85": "próxima linha, NEL", "\x7f": "DEL"}
    code = f"U+{ord(ch):04X}"
    return f"{code} ({names[ch]})" if ch in names else code


def _char_hint(ch: str) -> str:
    if ch == "\x0c":
        return "apague a quebra de página (no Word, Ctrl+Enter); use uma quebra de linha comum."
    return ("apague o caractere; ele costuma vir de texto copiado de outro programa "
            "(cole como texto simples) ou de um escape entre aspas duplas (\\0, \\e, \\u…).")


class _Walker:
    def __init__(self, file: Path, error_cls: type[AutosError], source: str = "",
                 raw: list[tuple[int, str]] | None = None) -> None:
        self.file = file
        self.source = source  # the text parsed (for the line of a raw control character)
        self.raw = raw or []
        self.error_cls = error_cls
        self.lines: dict[PathKey, int] = {}
        self.count = 0

    def text(self, node: yaml.ScalarNode, path: PathKey, what: str = "o valor") -> str:
        """The scalar's text, with Word's manual line breaks read as line breaks; control characters
        and overlong texts are refused."""
        value = str(node.value)
        if len(value) > MAX_TEXT_CHARS:
            raise self.fail(node, path, f"{what} tem {len(value)} caracteres; o limite é {MAX_TEXT_CHARS} "
                            "por campo.", "resuma o texto ou mova anexos para o processo.")
        if _WORD_LINE_BREAK in value:
            value = value.replace(_WORD_LINE_BREAK, "\n")
        bad = None if _printable(value) else _CONTROL.search(value)
        if bad is not None:
            ch = bad.group()
            if ch == _RAW_MARK and self.raw:  # typed raw in the file: the character and line it had there
                start, end = node.start_mark.index, node.end_mark.index
                offset, ch = next(((o, c) for o, c in self.raw if start <= o < end), self.raw[0])
                raise self.error_cls(f"{what} contém um caractere não imprimível {describe_char(ch)}, que o "
                                     "YAML não aceita.", file=self.file, path=format_path(path),
                                     line=self.source.count("\n", 0, offset) + 1, hint=_raw_hint(ch))
            raise self.fail(node, path, f"{what} contém um caractere não imprimível {describe_char(ch)} na "
                            f"posição {bad.start() + 1} do texto.", _char_hint(ch))
        return value

    def fail(self, node: yaml.Node, path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return self.error_cls(
            message,
            file=self.file,
            path=format_path(path),
            line=node.start_mark.line + 1,
            hint=hint,
        )

    def walk(self, node: yaml.Node, path: PathKey, depth: int = 0) -> Any:
        """Convert ``node`` (and what it contains) to plain data; ``depth`` is the number of lists and maps
        around it, bounded by :data:`MAX_DEPTH` (well before Python's recursion limit)."""
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
            value = node.value
            if not node.style and value in _NULLS:
                return None
            if len(value) <= MAX_TEXT_CHARS and value.isprintable():  # the usual case, in C
                return value
            return self.text(node, path)
        if node.tag not in _COLLECTION_TAGS:
            raise self.fail(node, path, f"a marca YAML '{node.tag}' não é aceita.",
                            "use apenas textos, números, listas e mapas.")
        if depth >= MAX_DEPTH:
            # name the last key, not 32 list indices
            keys = [i for i, part in enumerate(path) if isinstance(part, str)]
            shown = path[:keys[-1] + 1] if keys else path[:1]
            raise self.fail(node, shown, f"listas e mapas aninhados em mais de {MAX_DEPTH} níveis.",
                            "confira a indentação e os colchetes; nenhum arquivo do autos vai tão fundo.")
        depth += 1
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise self.fail(key_node, path, "a chave de mesclagem '<<' não é aceita.",
                                    "escreva os campos por extenso.")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "chave inválida: use um texto simples como chave.")
                key = key_node.value
                if len(key) > MAX_TEXT_CHARS or not key.isprintable():
                    key = self.text(key_node, path, "a chave")
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
                out[key] = self.walk(value_node, child, depth)
            return out
        assert isinstance(node, yaml.SequenceNode)
        items = []
        for i, item in enumerate(node.value):
            child = (*path, i)
            self.lines[child] = item.start_mark.line + 1
            items.append(self.walk(item, child, depth))
        return items


_PROBLEMS = {
    "did not find expected ',' or ']'": "faltou ',' ou ']' para fechar a lista",
    "did not find expected ',' or '}'": "faltou ',' ou '}' para fechar o mapa",
    "mapping values are not allowed": "dois-pontos em lugar inesperado (um texto com ':' precisa de aspas)",
    "mapping keys are not allowed": "'?' em lugar inesperado (um texto que começa com '?' precisa de aspas)",
    "could not find expected ':'": "faltou ':' depois da chave",
    "found character '\\t' that cannot start any token": "há uma tabulação; use espaços para indentar",
    "found character that cannot start any token": "um valor começa com um caractere reservado do YAML "
                                                   "(@, `, % ou tabulação); ponha o texto entre aspas",
    "found a tab character": "há uma tabulação; use espaços para indentar",
    "did not find expected key": "indentação inconsistente",
    "did not find expected '-' indicator": "indentação inconsistente numa lista (itens começam com '- ')",
    "did not find expected <document start>": "texto fora de lugar depois de um valor (confira as aspas e a "
                                              "indentação)",
    "did not find expected node content": "falta um valor",
    "did not find expected comment or line break": "texto fora de lugar depois de '|' ou '>'",
    "did not find expected whitespace or line break": "falta um espaço depois de um marcador",
    "found undefined alias": "alias (*nome) sem âncora (&nome) correspondente",
    "found duplicate anchor": "âncora (&nome) repetida",
    "found undefined tag handle": "marca (!) desconhecida",
    "found unexpected end of stream": "o arquivo terminou antes de fechar aspas, colchetes ou chaves",
    "found unknown escape character": "escape desconhecido entre aspas duplas (uma barra invertida '\\' "
                                      "precisa ser escrita '\\\\', ou use aspas simples)",
    "did not find expected hexdecimal number": "escape \\x, \\u ou \\U incompleto entre aspas duplas",
    "found invalid Unicode character escape code": "escape \\u ou \\U de um caractere que não existe",
    "expected <block end>, but found '<block mapping start>'": "indentação inconsistente",
    "expected <block end>": "indentação inconsistente",
    "expected a single document in the stream": "o arquivo tem mais de um documento (---); deixe só um",
    "but found another document": "o arquivo tem mais de um documento (---); deixe só um",
    "found duplicate %YAML directive": "diretiva %YAML repetida",
    "found incompatible YAML document": "versão de YAML não suportada (use YAML 1.1 ou 1.2)",
    "exceeded maximum nesting depth": "listas e mapas aninhados em níveis demais",
}


def _problem_pt(problem: str | None, context: str | None) -> str:
    """The Portuguese wording of a PyYAML problem; never the English one (unknown ones get a generic text)."""
    for text in (problem or "", context or ""):
        for en, pt in _PROBLEMS.items():
            if text.startswith(en):
                return pt
    return "erro de sintaxe YAML"


#: stands for a raw control character while parsing (a noncharacter the YAML reader accepts), so that
#: the walk can name the field it is in
_RAW_MARK = "\ufdd0"


def _mask_raw(text: str) -> tuple[str, list[tuple[int, str]]]:
    """Replace the characters YAML refuses in a file by :data:`_RAW_MARK` (the parser would stop with an
    English message and no field); return the text and the (offset, character) of each one."""
    if _printable(text.replace("\n", "").replace("\t", "").replace("\r", "")):
        return text, []  # the usual case, checked in C (the regular expression costs ~20 ns a character)
    found = [(m.start(), m.group()) for m in _CONTROL.finditer(text)]
    if not found:
        return text, found
    return _CONTROL.sub(_RAW_MARK, text), found


def _raw_hint(ch: str) -> str:
    if ch == _WORD_LINE_BREAK:
        return ("é a quebra de linha manual do Word (Shift+Enter); troque-a por uma quebra de linha comum, "
                "ou escreva o texto entre aspas duplas com \\v ou \\n no lugar dela.")
    return _char_hint(ch)


def parse_yaml(text: str, file: str | Path, error_cls: type[AutosError] = InputError) -> YamlDoc:
    """Parse one YAML document from ``text``; errors name ``file`` and the line."""
    path = _as_path(file)
    if len(text) > MAX_FILE_BYTES:
        raise _too_big(path, len(text), error_cls)
    text, raw = _mask_raw(text)
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark is not None else None
            problem = _problem_pt(exc.problem, exc.context)
            ctx = exc.context_mark
            if ctx is not None and line is not None and ctx.line + 1 != line:
                problem += f"; o trecho começa na linha {ctx.line + 1}"
            raise error_cls(
                f"YAML malformado ({problem}).",
                file=path,
                line=line,
                hint="confira a indentação (espaços, não tabulações), os dois-pontos e as aspas.",
            ) from None
        except yaml.YAMLError:
            raise error_cls("YAML malformado (erro de leitura).", file=path,
                            hint="confira se o arquivo é um texto YAML salvo em UTF-8.") from None
    finally:
        loader.dispose()
    if node is None:
        raise error_cls("o arquivo está vazio.", file=path, hint="preencha o arquivo conforme o modelo.")
    walker = _Walker(path, error_cls, text, raw)
    walker.lines[()] = node.start_mark.line + 1
    data = walker.walk(node, ())
    if raw:  # only in comments, or in a key or value the walk did not reach
        offset, ch = raw[0]
        raise error_cls(f"o arquivo contém um caractere não imprimível {describe_char(ch)}.",
                        file=path, line=text.count("\n", 0, offset) + 1, hint=_raw_hint(ch))
    return YamlDoc(data=data, file=path, lines=walker.lines)


def _too_big(path: Path, size: int, error_cls: type[AutosError]) -> AutosError:
    return error_cls(f"o arquivo tem {size:,} bytes; o limite é {MAX_FILE_BYTES:,} bytes (1 MiB).".replace(",", "."),
                     file=path, hint="um caso ou arquivo de regras não precisa de tanto: confira se é o "
                     "arquivo certo, ou divida-o.")


def _as_path(file: str | Path) -> Path:
    return file if isinstance(file, Path) else Path(file)


def read_limited(file: str | Path, error_cls: type[AutosError] = InputError) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`; anything else (a folder, a named
    pipe, a device, a larger file) is refused without blocking or reading it whole."""
    path = _as_path(file)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise error_cls("arquivo não encontrado.", file=path, hint="confira o caminho informado.") from None
    except IsADirectoryError:
        raise error_cls("é uma pasta, não um arquivo YAML.", file=path) from None
    except OSError as exc:
        raise error_cls(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=path) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error_cls("é uma pasta, não um arquivo YAML.", file=path)
        if not stat.S_ISREG(st.st_mode):
            raise error_cls("não é um arquivo comum (é um pipe, dispositivo ou soquete); o autos só lê arquivos.",
                            file=path, hint="indique um arquivo YAML salvo em disco.")
        if st.st_size > MAX_FILE_BYTES:
            raise _too_big(path, st.st_size, error_cls)
        chunks = [os.read(fd, st.st_size + 1)]  # one read for a regular file; more only if it grew
        size = len(chunks[0])
        while chunks[-1] and size <= MAX_FILE_BYTES:
            chunks.append(os.read(fd, MAX_FILE_BYTES + 1 - size))
            size += len(chunks[-1])
        data = b"".join(chunks)
    except OSError as exc:
        raise error_cls(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=path) from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:  # grew while being read
        raise _too_big(path, len(data), error_cls)
    return data


def load_yaml(file: str | Path, error_cls: type[AutosError] = InputError) -> YamlDoc:
    """Read and parse a YAML file (UTF-8, a regular file of at most :data:`MAX_FILE_BYTES`)."""
    path = _as_path(file)
    return decode_yaml(read_limited(path, error_cls), path, error_cls)


def decode_yaml(data: bytes, file: str | Path, error_cls: type[AutosError] = InputError) -> YamlDoc:
    """Parse the bytes of a YAML file already read (:func:`read_limited`): UTF-8, an optional BOM."""
    path = _as_path(file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error_cls("o arquivo não está em UTF-8.", file=path, line=line,
                        hint="salve o arquivo com a codificação UTF-8.") from None
    text = text.removeprefix("\ufeff")
    return parse_yaml(text, path, error_cls)


def iter_yaml_files(folder: Path) -> Iterator[Path]:
    """YAML files under ``folder``, sorted, recursively."""
    yield from sorted(p for p in folder.rglob("*") if p.suffix in {".yaml", ".yml"} and p.is_file())


def walk_yaml_files(folder: Path) -> Iterator[Path]:
    """The files :func:`iter_yaml_files` lists (``*.yaml``/``*.yml`` below ``folder``, in path order, symbolic
    links to folders not followed, unreadable folders skipped), walking depth-first with each folder's entries
    sorted by name — the order of sorted paths — so that only one folder's names are held at once: a folder of
    100,000 files costs no more memory than one of 1,000 (a ``Path`` per file, sorted, was ~0.6 KB each)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted((e.name, e.is_dir() and not e.is_symlink()) for e in it)
    except PermissionError:
        return
    for name, is_dir in entries:
        path = folder / name
        if path.suffix in (".yaml", ".yml") and path.is_file():
            yield path
        if is_dir:
            yield from walk_yaml_files(path)


def yaml_files_under(paths: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    """The files given and the YAML files of the folders given (:func:`iter_yaml_files`), in the order given; and
    the paths that are neither, for the caller to report."""
    files: list[Path] = []
    missing: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(iter_yaml_files(p))
        elif p.is_file():
            files.append(p)
        else:
            missing.append(p)
    return files, missing
