"""``autos regras cobertura LEI``: the coverage table of a law, checked against its text and its rules."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autos.base.yamlio import read_limited
from autos.errors import RulesError
from autos.rules.coverage import (
    PAPEIS,
    CoverageEntry,
    CoverageProblem,
    CoverageTable,
    check_against_text,
    check_onde,
    coverage_file,
    load_coverage,
    summary,
)
from autos.rules.statute import RuleSet
from autos.rules.statute_text import Dispositivo, FoundDispositivo, parse_dispositivos


@dataclass(frozen=True)
class CoverageRow:
    """One row of the printed table: the dispositivo, where it is in the text, and its entry."""

    dispositivo: Dispositivo
    linha_texto: int | None
    entry: CoverageEntry | None

    def to_dict(self) -> dict[str, object]:
        e = self.entry
        return {
            "dispositivo": self.dispositivo.short(),
            "linha_texto": self.linha_texto,
            "papel": e.papel if e else None,
            "onde": list(e.onde) if e else [],
            "testes": list(e.testes) if e else [],
            "pendente": e.pendente if e else False,
            "motivo": e.motivo if e else None,
            "nota": e.nota if e else None,
        }


@dataclass(frozen=True)
class CoverageReport:
    lei: str
    label: str
    texto: Path
    tabela: Path
    rows: tuple[CoverageRow, ...]
    resumo: dict[str, int]
    pendentes: int
    problems: tuple[CoverageProblem, ...]

    def exit_code(self) -> int:
        return 1 if self.problems else 0

    def to_dict(self) -> dict[str, object]:
        return {
            "lei": self.lei,
            "texto": str(self.texto),
            "tabela": str(self.tabela),
            "dispositivos_no_texto": sum(1 for r in self.rows if r.linha_texto is not None),
            "resumo": self.resumo,
            "pendentes": self.pendentes,
            "problemas": [p.to_dict() for p in self.problems],
            "dispositivos": [r.to_dict() for r in self.rows],
        }


def statute_text_file(rules: RuleSet, lei: str) -> Path:
    """The statute's published text, beside its rules (``lei.fonte_texto``)."""
    statute = rules.get(lei)
    name = statute.lei.fonte_texto
    if name is None:
        raise RulesError("a lei não diz onde está o seu texto.", file=statute.file, path="lei.fonte_texto",
                         hint="acrescente 'fonte_texto' com o nome do arquivo .txt do texto da lei, na mesma pasta.")
    return statute.file.parent / name


def read_statute_text(file: Path) -> list[FoundDispositivo]:
    data = read_limited(file, RulesError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError("o texto da lei não está em UTF-8.", file=file,
                         hint="salve o texto com a codificação UTF-8.") from None
    return parse_dispositivos(text)


def coverage_report(rules: RuleSet, lei: str) -> CoverageReport:
    """Load the table of ``lei`` and check it against the statute text and the rules files."""
    statute = rules.get(lei)
    texto = statute_text_file(rules, lei)
    found = read_statute_text(texto)
    tabela = coverage_file(rules.root, lei)
    if not tabela.is_file():
        raise RulesError("a lei não tem tabela de cobertura.", file=tabela,
                         hint="crie o arquivo com 'lei' e 'dispositivos' (veja o README, seção da cobertura).")
    table = load_coverage(tabela, lei)
    problems = check_against_text(table, found, texto.name) + check_onde(table)
    return CoverageReport(lei, statute.lei.label, texto, tabela, _rows(table, found), summary(table),
                          sum(1 for e in table.entries if e.pendente), tuple(problems))


def _rows(table: CoverageTable, found: list[FoundDispositivo]) -> tuple[CoverageRow, ...]:
    by_disp = {e.dispositivo.dispositivo(): e for e in table.entries}
    rows = [CoverageRow(f.dispositivo, f.linha, by_disp.get(f.dispositivo)) for f in found]
    in_text = {f.dispositivo for f in found}
    rows += [CoverageRow(d, None, e) for d, e in by_disp.items() if d not in in_text]
    return tuple(rows)


__all__ = ["PAPEIS", "CoverageReport", "CoverageRow", "coverage_report", "read_statute_text", "statute_text_file"]
