"""Checks across processos (``autos verificar``): what no single file can show.

Every file read (a processo, or a one-document case file of the old format) is reduced to a :class:`Filed` —
its numbered acts, the acts it cites, the facts it files — and, with a register, the processos the register
indexes are added the same way (``registro=True``: known, not read now). :class:`CrossChecker` then finds:

- ``CRUZ-NUMERO-REPETIDO`` (erro): the same number of the same act kind of the same law in two files (a number
  ``N/AAAA`` is compared as N and year: ``0245/2026`` is ``245/2026``); ``CRUZ-PROCESSO-REPETIDO`` (erro): the
  same processo number of the same law in two files;
- ``CRUZ-ATO-CITADO-AUSENTE`` (erro): an act cites an act that is in no file nor in the register — in a processo,
  the ``referente`` of an act whose kind cites (``cita`` in ``<lei>.processo.yaml``) that is not the number of an
  earlier act of the same processo; in a case file, ``auto.numero`` (the auto a notice, edital, termo or
  statement refers to); ``CRUZ-ATO-EM-OUTRO-PROCESSO`` (erro): that act is in another processo;
- ``CRUZ-MESMOS-FATOS`` (aviso): the same autuado (CPF/CNPJ, digits only), the same infraction (rule id) and the
  same date of the infraction in two files that file facts (processos and autos), at the same place when both
  give it (compared without case, accents aside, punctuation and repeated spaces).

Only findings that involve at least one file read are reported; a register entry only completes the picture.
Pure: no I/O (whether a register's file still exists is asked through a callback). :class:`CrossChecker` keeps what
it is given in dicts; its storage is five small methods, which :class:`autos.app.verification.cross.SpooledCrossChecker`
implements over a temporary database on disk for ``autos verificar`` (memory flat however many files).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from autos.base.ptbr import count_noun, format_date
from autos.checks.finding import Finding
from autos.compute.prescription import PrescriptionState
from autos.processo.case import document_key

__all__ = ["CROSS_CODES", "Citing", "CrossChecker", "Filed", "NumberedAct", "number_index", "number_key", "place_key",
           "prescription_findings", "processo_index"]

#: the codes of this module, with what each means (for the README and the tests)
CROSS_CODES = ("CRUZ-NUMERO-REPETIDO", "CRUZ-PROCESSO-REPETIDO", "CRUZ-ATO-CITADO-AUSENTE",
               "CRUZ-ATO-EM-OUTRO-PROCESSO", "CRUZ-MESMOS-FATOS")

NumberKey = tuple[int, int] | str


def number_key(numero: str) -> NumberKey:
    """``(N, AAAA)`` of an ``N/AAAA`` number; any other number as typed, trimmed and case-folded."""
    try:
        return document_key(numero)
    except ValueError:
        return " ".join(numero.split()).casefold()


def place_key(local: str | None) -> str | None:
    """A place compared as words: no accents, no case, no punctuation, single spaces."""
    if not local:
        return None
    text = unicodedata.normalize("NFKD", local)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    words = re.findall(r"[0-9a-z]+", text)
    return " ".join(words) or None


@dataclass(frozen=True, slots=True)
class NumberedAct:
    ordem: int  # 1-based, as autos prazos numbers the acts; 0 in a one-document case file
    tipo: str
    numero: str
    nome: str  # "auto de infração"
    base: str | None  # the article of the act kind
    linha: int | None
    caminho: str


@dataclass(frozen=True, slots=True)
class Citing:
    """An act that cites another by number and did not find it in its own file."""

    ordem: int
    nome: str
    referente: str
    tipos: tuple[str, ...]  # the kinds it may cite
    nomes: str  # their names, for the message
    base: str | None
    linha: int | None
    caminho: str


@dataclass(frozen=True, slots=True)
class Filed:
    """What the cross checks keep of one file (or of one processo of the register)."""

    arquivo: str
    lei: str
    processo: str | None
    linha_processo: int | None
    autuado: str | None  # CPF/CNPJ digits
    infracoes: tuple[str, ...]
    data: str | None  # date of the infraction, ISO
    local: str | None  # place_key of the place
    linha_fatos: int | None
    atos: tuple[NumberedAct, ...]
    citacoes: tuple[Citing, ...] = ()
    fatos: bool = True  # files facts (a processo, an auto), not a later document about an auto
    registro: bool = False  # from the register's index, not read now

    def label(self) -> str:
        """``arquivo (processo N)``; a register entry says so (``processo N, no registro``)."""
        parts = [f"processo {self.processo}"] if self.processo else []
        if self.registro:
            parts.append("no registro")
        return f"{self.arquivo} ({', '.join(parts)})" if parts else self.arquivo


def number_index(lei: str, tipo: str, numero: str) -> str:
    """The key of a numbered act across files: ``str`` of (law, kind, :func:`number_key`), which is also the order
    duplicates are reported in."""
    return str((lei, tipo, number_key(numero)))


def processo_index(processo: str) -> str:
    return " ".join(processo.split()).casefold()


class CrossChecker:
    """Accumulates the files, then :meth:`findings` across them. What it keeps is reached through :meth:`add`,
    :meth:`_duplicate_keys`, :meth:`_numbered`, :meth:`_processo_groups`, :meth:`_fact_groups` and
    :meth:`_citing_acts` (here, dicts in memory)."""

    def __init__(self) -> None:
        self._numbers: dict[str, list[tuple[Filed, NumberedAct]]] = {}
        self._processos: dict[tuple[str, str], list[Filed]] = {}
        self._facts: dict[tuple[str, str, str, str], list[Filed]] = {}
        self._citing: list[tuple[Filed, Citing]] = []
        self.arquivos = 0
        self.do_registro = 0

    def add(self, f: Filed) -> None:
        self._count(f)
        for a in f.atos:
            self._numbers.setdefault(number_index(f.lei, a.tipo, a.numero), []).append((f, a))
        if f.processo:
            self._processos.setdefault((f.lei, processo_index(f.processo)), []).append(f)
        if f.fatos and f.autuado and f.data:
            for regra in dict.fromkeys(f.infracoes):
                self._facts.setdefault((f.lei, f.autuado, regra, f.data), []).append(f)
        for c in f.citacoes:
            if not f.registro:
                self._citing.append((f, c))

    def close(self) -> None:
        """Free what is kept (nothing to do in memory)."""

    def _count(self, f: Filed) -> None:
        if f.registro:
            self.do_registro += 1
        else:
            self.arquivos += 1

    # --- what is kept, as the checks read it --------------------------------------------------------
    def _duplicate_keys(self) -> Iterable[tuple[str, str]]:
        """(key, law) of every act key held by two acts or more, in key order."""
        return sorted((k, found[0][0].lei) for k, found in self._numbers.items() if len(found) > 1)

    def _numbered(self, key: str) -> list[tuple[Filed, NumberedAct]]:
        """The acts of one key, in the order they were added."""
        return self._numbers.get(key, [])

    def _processo_groups(self) -> Iterable[list[Filed]]:
        """The files of each processo number (law, number) held by two files or more, in number order."""
        return [found for _k, found in sorted(self._processos.items()) if len(found) > 1]

    def _fact_groups(self) -> Iterable[tuple[str, str, list[Filed]]]:
        """(infraction, date, files) of each (law, autuado, infraction, date) filed twice or more, in that order."""
        return [(k[2], k[3], found) for k, found in sorted(self._facts.items()) if len(found) > 1]

    def _citing_acts(self) -> Iterable[tuple[Filed, Citing]]:
        """Each act of a file read that cites an act of another, in the order added."""
        return self._citing

    def findings(self, exists: Callable[[Filed], bool] = lambda f: True, registro: str | None = None) -> list[Finding]:
        """Every finding across the files added; ``exists`` tells whether a register entry's file is still there
        (an entry whose file is gone is left out); ``registro`` names the register in the messages."""
        out: list[Finding] = []
        live: dict[tuple[str, str | None], bool] = {}

        def alive(f: Filed) -> bool:
            if not f.registro:
                return True
            k = (f.arquivo, f.processo)
            if k not in live:
                live[k] = exists(f)
            return live[k]

        out += self._duplicate_numbers(alive)
        out += self._duplicate_processos(alive)
        out += self._citations(alive, registro)
        out += self._same_facts(alive)
        return out

    # --- duplicate numbers ---------------------------------------------------------------------------
    def _duplicate_numbers(self, alive: Callable[[Filed], bool]) -> Iterable[Finding]:
        for key, lei in self._duplicate_keys():
            found = self._numbered(key)
            by_file: dict[str, tuple[Filed, NumberedAct]] = {}
            for f, a in found:
                if alive(f):
                    by_file.setdefault(f.arquivo, (f, a))  # two in one processo: the timeline's NUMERO-REPETIDO
            if len(by_file) < 2:
                continue
            entries = sorted(by_file.values(), key=lambda fa: (fa[0].registro, fa[0].arquivo))
            first, act = entries[0]
            if first.registro:
                continue  # only the register's processos: not about the files read
            for other, oact in entries[1:]:
                yield Finding(
                    "erro", "CRUZ-NUMERO-REPETIDO",
                    f"o número {act.numero} de {act.nome} ({lei}) está em dois arquivos: "
                    f"{first.label()}{_ato(act.ordem)} e {other.label()}{_ato(oact.ordem)} (lá escrito {oact.numero})",
                    act.base, act.caminho, act.linha, first.arquivo,
                    "cada número é de um só ato: corrija o número em um dos dois arquivos (autos numerar reserva "
                    "o próximo livre, com registro).")

    def _duplicate_processos(self, alive: Callable[[Filed], bool]) -> Iterable[Finding]:
        for found in self._processo_groups():
            lei = found[0].lei
            files = sorted({f.arquivo: f for f in found if alive(f)}.values(), key=lambda f: (f.registro, f.arquivo))
            if len(files) < 2 or files[0].registro:
                continue
            first = files[0]
            for other in files[1:]:
                yield Finding(
                    "erro", "CRUZ-PROCESSO-REPETIDO",
                    f"o processo {first.processo} ({lei}) está em dois arquivos: {first.label()} e {other.label()}",
                    None, "numero", first.linha_processo, first.arquivo,
                    "um processo tem um só arquivo: apague a cópia, ou dê ao outro processo o seu número.")

    # --- citations -----------------------------------------------------------------------------------
    def _citations(self, alive: Callable[[Filed], bool], registro: str | None) -> Iterable[Finding]:
        n, m = self.arquivos, self.do_registro
        where = f"{'no' if n == 1 else 'nos'} {count_noun(n, 'arquivo verificado', 'arquivos verificados')}"
        if registro is not None:
            where += (f" nem {'no' if m == 1 else 'nos'} {count_noun(m, 'outro processo', 'outros processos')} do "
                      f"registro {registro}")
        for f, c in self._citing_acts():
            hits = [(g, a) for t in c.tipos for g, a in self._numbered(number_index(f.lei, t, c.referente))
                    if g.arquivo != f.arquivo and alive(g)]
            if not hits:
                yield Finding("erro", "CRUZ-ATO-CITADO-AUSENTE",
                              f"{c.nome}{_ato(c.ordem, ' ')} cita o ato nº {c.referente} ({c.nomes}), que não está em "
                              f"nenhum processo: nem neste arquivo, nem {where}", c.base, c.caminho, c.linha, f.arquivo,
                              "confira o número citado; se o ato existe, junte ao processo o arquivo em que ele "
                              "está (ou inclua a pasta dele na verificação).")
                continue
            g, a = sorted(hits, key=lambda h: (h[0].registro, h[0].arquivo))[0]
            if not f.processo and not f.fatos:
                continue  # a one-document case file citing an auto that exists: the old format, nothing wrong
            yield Finding("erro", "CRUZ-ATO-EM-OUTRO-PROCESSO",
                          f"{c.nome}{_ato(c.ordem, ' ')} de {f.label()} cita {a.nome} nº {c.referente}, que está em "
                          f"outro processo: {g.label()}{_ato(a.ordem)}",
                          c.base, c.caminho, c.linha, f.arquivo,
                          "um ato cita atos do seu próprio processo: junte este ato ao processo do ato citado (ou "
                          "corrija o número citado).")

    # --- the same facts ------------------------------------------------------------------------------
    def _same_facts(self, alive: Callable[[Filed], bool]) -> Iterable[Finding]:
        seen: set[tuple[str, str]] = set()
        for regra, when, found in self._fact_groups():
            files = sorted({f.arquivo: f for f in found if alive(f)}.values(), key=lambda f: (f.registro, f.arquivo))
            if len(files) < 2 or files[0].registro:
                continue
            first = files[0]
            for other in files[1:]:
                if first.local and other.local and first.local != other.local:
                    continue  # same person, infraction and day at two places: two facts
                pair = (first.arquivo, other.arquivo)
                if pair in seen:
                    continue  # reported once per pair, whatever the number of infractions in common
                seen.add(pair)
                place = ("no mesmo local" if first.local and other.local
                         else "(local não comparado: um dos dois não o informa)")
                yield Finding(
                    "aviso", "CRUZ-MESMOS-FATOS",
                    f"os mesmos fatos em dois processos: o mesmo autuado, a mesma infração ({regra}) e a mesma data "
                    f"({format_date(date.fromisoformat(when))}) {place} — {first.label()} e {other.label()}",
                    "vedação do bis in idem: o mesmo fato não é autuado nem punido duas vezes", "infracoes",
                    first.linha_fatos, first.arquivo,
                    "se é o mesmo fato, mantenha um só processo (o outro é arquivado, com o motivo); se são fatos "
                    "distintos, diga no campo 'fatos' de cada um o que os distingue (local, hora).")


def _ato(ordem: int, style: str = ",") -> str:
    """``, ato 3`` (or `` (ato 3)``) — nothing for a one-document case file (``ordem`` 0)."""
    if not ordem:
        return ""
    return f" (ato {ordem})" if style == " " else f", ato {ordem}"


def prescription_findings(state: PrescriptionState, arquivo: str, linha: int | None, hoje: date,
                          aviso_dias: int) -> list[Finding]:
    """The findings of a processo's prescription: an erro when it fell before a final decision (or has fallen
    with none), an aviso when it falls within ``aviso_dias`` days with no final decision."""
    rule = state.rule
    if state.data is None or state.inicio is None:
        return []
    why = (f"{rule.anos} anos da infração de {format_date(state.inicio)}"
           + (f", interrompida em {format_date(state.interrupcao[1])} pelo ato {state.interrupcao[0] + 1}"
              if state.interrupcao else ""))
    base = rule.base_legal + (f"; {rule.interrupcao.base_legal}" if rule.interrupcao and state.interrupcao else "")
    if state.situacao == "decidida depois de prescrita":
        assert state.decisao is not None
        i, when = state.decisao
        return [Finding("erro", "PRESCRICAO-ANTES-DA-DECISAO",
                        f"a pretensão punitiva prescreveu em {format_date(state.data)} ({why}), antes da decisão "
                        f"definitiva (ato {i + 1}, de {format_date(when)}): a penalidade não podia mais ser aplicada",
                        base, f"atos[{i}].data", linha, arquivo,
                        "declare a prescrição e arquive o processo; se houve causa de interrupção que o processo não "
                        "registra, acrescente o ato com a sua data.")]
    if state.situacao == "prescrita":
        return [Finding("erro", "PRESCRICAO-CONSUMADA",
                        f"a pretensão punitiva prescreveu em {format_date(state.data)} ({why}) sem decisão definitiva",
                        base, "atos", linha, arquivo,
                        "a penalidade não pode mais ser aplicada: declare a prescrição e arquive o processo; se houve "
                        "causa de interrupção que o processo não registra, acrescente o ato com a sua data.")]
    if state.situacao == "em curso" and state.data <= hoje + timedelta(days=aviso_dias):
        return [Finding("aviso", "PRESCRICAO-PROXIMA",
                        f"a pretensão punitiva prescreve em {format_date(state.data)} ({why}), daqui a "
                        f"{count_noun((state.data - hoje).days, 'dia', 'dias')}, e o processo ainda não tem decisão "
                        "definitiva",
                        base, "atos", linha, arquivo, "dê prioridade à decisão deste processo.")]
    return []
