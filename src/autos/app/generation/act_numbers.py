"""``autos gerar`` over several processos: an act number belongs to one processo only.

Two processos of the same law that give the same number to acts of the same series (an auto nº 77/2026, a
notificação nº AR-640/2026, a decisão nº DEC-12/2026…) would issue two documents with one number: the second
processo (in the order of the run) is refused, naming both files and the line of each act, and writes nothing;
the first is generated as usual. The series is the kind of act (``tipo``) within the law (``lei``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autos.base.yamlio import load_yaml
from autos.errors import AutosError, DuplicateActNumberError

__all__ = ["DuplicateActNumberError", "duplicate_act_numbers"]


@dataclass(frozen=True)
class _Use:
    file: Path
    index: int
    line: int | None


def duplicate_act_numbers(files: list[Path]) -> dict[Path, DuplicateActNumberError]:
    """The processos of ``files`` (in order) that reuse an act number of an earlier one, each with its error. A file
    that cannot be read is left to the generation, which reports it."""
    seen: dict[tuple[str, str, str], _Use] = {}
    refused: dict[Path, DuplicateActNumberError] = {}
    for file in files:
        try:
            doc = load_yaml(file)
        except AutosError:
            continue
        data = doc.data if isinstance(doc.data, dict) else {}
        lei, atos = data.get("lei"), data.get("atos")
        if not isinstance(lei, str) or not isinstance(atos, list):
            continue
        mine: dict[tuple[str, str, str], _Use] = {}
        for i, ato in enumerate(atos):
            if not isinstance(ato, dict) or not isinstance(ato.get("tipo"), str) or ato.get("numero") is None:
                continue
            key = (lei, ato["tipo"], " ".join(str(ato["numero"]).split()).upper())
            use = _Use(file, i, doc.line_of(("atos", i, "numero")))
            first = seen.get(key)
            if first is not None and file not in refused:
                where = f"linha {first.line}" if first.line else f"atos[{first.index}]"
                refused[file] = DuplicateActNumberError(
                    f"o número {ato['numero']} do ato '{ato['tipo']}' (atos[{i}]) já é de outro processo da mesma "
                    f"lei: {first.file}, {where} (atos[{first.index}]). Dois documentos da mesma série não podem "
                    "ter o mesmo número; nada foi gerado para este processo.",
                    file=file, path=f"atos[{i}].numero", line=use.line,
                    hint="confira qual dos dois processos tem o número certo e renumere o outro na série.")
            mine.setdefault(key, use)
        if file not in refused:
            for key, use in mine.items():
                seen.setdefault(key, use)
    return refused
