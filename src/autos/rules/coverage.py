"""The coverage table of a law: what each dispositivo of the statute text is for the autos, and where.

One file per law, ``rules/<municipio>-<uf>/<lei>.cobertura.yaml``::

    lei: cuiaba-mt/lei-3666-1997
    dispositivos:
      - dispositivo: {artigo: "11", paragrafo: "3"}
        papel: penalidade
        onde: ["lei-3666-1997.yaml#penalidades/despesas-apreensao"]
        testes: ["tests/test_fines.py::test_cuiaba_despesas"]

Every dispositivo the statute text has (:mod:`autos.rules.statute_text`) must have exactly one entry, and no
entry may name a dispositivo the text does not have. ``onde`` names a rules file of the same folder and the
path of the key that encodes the dispositivo (keys separated by ``/``; a list item by its ``id``, its
``codigo`` or its index); ``testes`` names test functions (``tests/arquivo.py::funcao`` or ``…::Classe::metodo``). A
dispositivo that is for the autos but not yet encoded says ``pendente: true`` with the ``motivo``; one that
is not for the autos says ``papel: fora_do_escopo`` with the ``motivo``.

Loading is strict (unknown or duplicate keys are :class:`RulesError` naming the file, the key and the line);
the checks against the text, the rules files and the tests return :class:`CoverageProblem` items.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from autos.base.schema import Count, build_model
from autos.base.yamlio import YamlDoc, load_yaml
from autos.errors import RulesError
from autos.rules.statute_text import Dispositivo, FoundDispositivo

Papel = Literal["infracao", "penalidade", "condicao_penalidade", "elemento_obrigatorio", "prazo",
                "forma_notificacao", "competencia", "nulidade", "definicao", "procedimento", "documento",
                "fora_do_escopo"]
#: every role, in the order the summary prints them
PAPEIS: tuple[str, ...] = get_args(Papel)

#: what each role means, for the printed table
PAPEL_PT: dict[str, str] = {
    "infracao": "infração",
    "penalidade": "penalidade",
    "condicao_penalidade": "condição de penalidade",
    "elemento_obrigatorio": "elemento obrigatório",
    "prazo": "prazo",
    "forma_notificacao": "forma de notificação",
    "competencia": "competência",
    "nulidade": "nulidade",
    "definicao": "definição",
    "procedimento": "procedimento",
    "documento": "documento",
    "fora_do_escopo": "fora do escopo dos autos",
}

COVERAGE_SUFFIX = ".cobertura.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class DispositivoRef(_Strict):
    """The citation shape of the rules: ``artigo`` alone is the caput; ``ocorrencia: 2`` is the second
    dispositivo with the same label (Ferraz de Vasconcelos, art. 37, second parágrafo único)."""

    artigo: str = Field(pattern=r"^\d+$")
    paragrafo: str | None = Field(default=None, pattern=r"^(\d+|unico)$")
    inciso: str | None = Field(default=None, pattern=r"^[IVXLC]+$")
    alinea: str | None = Field(default=None, pattern=r"^[a-z]$")
    ocorrencia: Count | None = Field(default=None, ge=2)

    def dispositivo(self) -> Dispositivo:
        return Dispositivo(self.artigo, self.paragrafo, self.inciso, self.alinea, self.ocorrencia or 1)


class CoverageEntry(_Strict):
    dispositivo: DispositivoRef
    papel: Papel
    onde: list[str] = Field(default_factory=list)
    testes: list[str] = Field(default_factory=list)
    motivo: str | None = Field(default=None, min_length=1)
    pendente: bool = False
    nota: str | None = Field(default=None, min_length=1)

    @field_validator("onde")
    @classmethod
    def _onde(cls, v: list[str]) -> list[str]:
        for item in v:
            file, sep, path = item.partition("#")
            if not sep or not file.endswith(".yaml") or "/" in file or "\\" in file or not path:
                raise ValueError(f"'{item}' não é um lugar nas regras: escreva arquivo.yaml#chave/subchave, "
                                 "com um arquivo da mesma pasta")
        return v

    @field_validator("testes")
    @classmethod
    def _testes(cls, v: list[str]) -> list[str]:
        for item in v:
            file, sep, name = item.partition("::")
            if not sep or not file.startswith("tests/") or not file.endswith(".py") or not name:
                raise ValueError(f"'{item}' não é um teste: escreva tests/arquivo.py::funcao")
        return v

    @model_validator(mode="after")
    def _status(self) -> CoverageEntry:
        if self.papel == "fora_do_escopo":
            if self.motivo is None:
                raise ValueError("papel fora_do_escopo exige 'motivo': diga por que o dispositivo não gera ato "
                                 "nem requisito dos autos")
            if self.pendente:
                raise ValueError("um dispositivo fora do escopo não fica pendente: tire 'pendente' ou mude o papel")
        elif self.pendente:
            if self.motivo is None:
                raise ValueError("'pendente: true' exige 'motivo': diga o que falta codificar")
        else:
            if not self.onde:
                raise ValueError("falta 'onde' (arquivo.yaml#chave da regra que codifica o dispositivo); se ainda "
                                 "não está codificado, escreva 'pendente: true' e o 'motivo'")
            if not self.testes:
                raise ValueError("falta 'testes' (tests/arquivo.py::funcao que confere o dispositivo); se ainda "
                                 "não há teste, escreva 'pendente: true' e o 'motivo'")
        return self


class _Table(_Strict):
    lei: str = Field(pattern=r"^[a-z0-9-]+/[a-z0-9-]+$")
    dispositivos: list[CoverageEntry] = Field(min_length=1)


@dataclass(frozen=True)
class CoverageTable:
    """A loaded coverage table, with the file and the line of each entry."""

    lei: str
    entries: tuple[CoverageEntry, ...]
    doc: YamlDoc

    @property
    def file(self) -> Path:
        return self.doc.file

    def line_of(self, index: int, *keys: str | int) -> int | None:
        return self.doc.line_of(("dispositivos", index, *keys))


@dataclass(frozen=True)
class CoverageProblem:
    """One way the table disagrees with the text, the rules or the tests."""

    codigo: Literal["ausente", "inexistente", "onde", "teste"]
    dispositivo: str
    mensagem: str
    arquivo: str
    linha: int | None

    def render(self) -> str:
        where = f"{self.arquivo}, linha {self.linha}" if self.linha is not None else self.arquivo
        return f"{where}: {self.dispositivo}: {self.mensagem}"

    def to_dict(self) -> dict[str, object]:
        return {"codigo": self.codigo, "dispositivo": self.dispositivo, "mensagem": self.mensagem,
                "arquivo": self.arquivo, "linha": self.linha}


def coverage_file(rules_dir: Path, lei: str) -> Path:
    """``rules/<municipio>-<uf>/<lei>.cobertura.yaml``."""
    municipio_dir, stem = lei.split("/", 1)
    return Path(rules_dir) / municipio_dir / f"{stem}{COVERAGE_SUFFIX}"


def load_coverage(file: Path, lei: str | None = None) -> CoverageTable:
    """Read a coverage table strictly; ``lei`` (when given) must be the law it declares, and no dispositivo
    may have two entries."""
    doc = load_yaml(file, RulesError)
    table = build_model(_Table, doc, RulesError)
    if lei is not None and table.lei != lei:
        raise doc.error(RulesError, ("lei",), f"a tabela declara a lei '{table.lei}', mas está no arquivo da lei "
                        f"'{lei}'.", f"escreva lei: {lei}.")
    seen: dict[Dispositivo, int] = {}
    for i, entry in enumerate(table.dispositivos):
        disp = entry.dispositivo.dispositivo()
        if disp in seen:
            first = doc.line_of(("dispositivos", seen[disp]))
            raise doc.error(RulesError, ("dispositivos", i, "dispositivo"),
                            f"{disp.short()} já tem uma entrada (linha {first}).",
                            "deixe uma só entrada por dispositivo.")
        seen[disp] = i
    return CoverageTable(table.lei, tuple(table.dispositivos), doc)


def check_against_text(table: CoverageTable, found: list[FoundDispositivo], text_name: str) -> list[CoverageProblem]:
    """Every dispositivo of the text has an entry, and every entry names a dispositivo of the text."""
    problems: list[CoverageProblem] = []
    in_table = {e.dispositivo.dispositivo(): i for i, e in enumerate(table.entries)}
    in_text = {f.dispositivo for f in found}
    for f in found:
        if f.dispositivo not in in_table:
            problems.append(CoverageProblem(
                "ausente", f.dispositivo.short(),
                f"está no texto da lei ({text_name}, linha {f.linha}: \"{f.inicio}\") e não na tabela; "
                "acrescente uma entrada com o papel (fora_do_escopo com o motivo, se não for para os autos).",
                str(table.file), None))
    for disp, i in in_table.items():
        if disp not in in_text:
            problems.append(CoverageProblem(
                "inexistente", disp.short(),
                f"não existe no texto da lei ({text_name}); confira o artigo, o parágrafo, o inciso e a alínea.",
                str(table.file), table.line_of(i)))
    return problems


#: what :func:`node_at` returns for a path that does not exist
MISSING = object()


def node_at(data: Any, path: str) -> Any:
    """The value at ``path`` (keys separated by ``/``; a list item by its ``id``, its ``codigo`` or its index),
    or :data:`MISSING` when there is none."""
    node = data
    for part in path.split("/"):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            match = [item for item in node if isinstance(item, dict) and part in (item.get("id"), item.get("codigo"))]
            if match:
                node = match[0]
            elif part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return MISSING
        else:
            return MISSING
    return node


def resolve_path(data: Any, path: str) -> bool:
    """True when ``path`` (see :func:`node_at`) exists in ``data``."""
    return node_at(data, path) is not MISSING


def check_onde(table: CoverageTable) -> list[CoverageProblem]:
    """Every ``onde`` names an existing rules file of the table's folder and a key path that exists in it."""
    problems: list[CoverageProblem] = []
    folder = table.file.parent
    docs: dict[str, YamlDoc | str] = {}
    for i, entry in enumerate(table.entries):
        for j, item in enumerate(entry.onde):
            name, _, path = item.partition("#")
            if name not in docs:
                try:
                    docs[name] = load_yaml(folder / name, RulesError)
                except RulesError as exc:
                    docs[name] = exc.message
            doc = docs[name]
            if isinstance(doc, str):
                message = f"'{item}': o arquivo de regras {name} não pode ser lido ({doc})"
            elif not resolve_path(doc.data, path):
                message = f"'{item}': a chave '{path}' não existe em {name}"
            else:
                continue
            problems.append(CoverageProblem("onde", entry.dispositivo.dispositivo().short(), message,
                                            str(table.file), table.line_of(i, "onde", j)))
    return problems


def _test_names(file: Path) -> set[str]:
    """``funcao`` and ``Classe::metodo`` of every test defined at the top of ``file`` or in its classes."""
    tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(f"{node.name}::{item.name}" for item in node.body
                         if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef))
    return names


def check_testes(table: CoverageTable, repo_root: Path) -> list[CoverageProblem]:
    """Every ``testes`` item names a test function that exists (read with :mod:`ast`, not imported)."""
    problems: list[CoverageProblem] = []
    files: dict[str, set[str] | None] = {}
    for i, entry in enumerate(table.entries):
        for j, item in enumerate(entry.testes):
            name, _, func = item.partition("::")
            func = func.split("[", 1)[0]  # a parametrized id names the same function
            if name not in files:
                path = repo_root / name
                files[name] = _test_names(path) if path.is_file() else None
            names = files[name]
            if names is None:
                message = f"'{item}': o arquivo de testes {name} não existe"
            elif func not in names:
                message = f"'{item}': não há teste '{func}' em {name}"
            else:
                continue
            problems.append(CoverageProblem("teste", entry.dispositivo.dispositivo().short(), message,
                                            str(table.file), table.line_of(i, "testes", j)))
    return problems


def summary(table: CoverageTable) -> dict[str, int]:
    """How many entries of each role (every role, zero included)."""
    counts: Counter[str] = Counter(e.papel for e in table.entries)
    return {papel: counts.get(papel, 0) for papel in PAPEIS}
