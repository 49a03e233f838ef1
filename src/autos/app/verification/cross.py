"""``autos verificar`` across processos: what each file read leaves for the cross checks, the prescription of each
processo, and the register's processos and reserved numbers.

Each file is read once, by :func:`autos.app.verification.verify.check_case`; this module turns what was read into a
:class:`autos.checks.cross.Filed` (a few strings per numbered act) and computes the processo's prescription
(:mod:`autos.compute.prescription`). :class:`CrossRun` gathers them and, at the end, adds the register's
processos (read in three queries: :meth:`autos.store.register.Register.indexed_processos`) and its reserved
numbers (one query), then returns the findings across them.

The register is ``--registro`` / ``AUTOS_REGISTRO`` when given, else ``registro.sqlite3`` found beside the
folders or files verified (or in a folder above them); without one, the checks run on the files given alone.
"""

from __future__ import annotations

import pickle
import re
import sqlite3
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path

from autos.checks.cross import (
    Citing,
    CrossChecker,
    Filed,
    NumberedAct,
    number_index,
    number_key,
    place_key,
    prescription_findings,
    processo_index,
)
from autos.checks.finding import Finding
from autos.checks.processo import ProcessoReport
from autos.compute.prescription import ActFacts, PrescriptionState, prescription_of
from autos.errors import RulesError
from autos.processo.case import Case, document_key
from autos.processo.load import LoadedProcesso
from autos.processo.load_case import LoadedCase
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute
from autos.store.register import Register, Reservation

__all__ = ["PRESCRIPTION_WARNING_DAYS", "CrossRun", "SpooledCrossChecker", "filed_case", "filed_processo",
           "processo_prescription"]

#: an open processo whose prescription falls within this many days gets a PRESCRICAO-PROXIMA warning
PRESCRIPTION_WARNING_DAYS = 180


def _digits(documento: str | None) -> str | None:
    return re.sub(r"\D", "", documento) or None if documento else None


def _either(names: list[str]) -> str:
    """``auto de infração ou decisão do recurso``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " ou " + names[-1]


def filed_processo(loaded: LoadedProcesso, proc: Procedure | None) -> Filed:
    """What the cross checks keep of a processo read now."""
    p = loaded.processo
    atos: list[NumberedAct] = []
    citing: list[Citing] = []
    earlier: set[object] = set()
    for i, a in enumerate(p.atos):
        r = proc.atos.get(a.tipo) if proc is not None else None
        nome = r.nome if r is not None else a.tipo
        base = proc.cite(r.citacao) if proc is not None and r is not None else None
        if a.referente and r is not None and r.cita and proc is not None and number_key(a.referente) not in earlier:
            citing.append(Citing(i + 1, nome, a.referente, tuple(r.cita),
                                 _either([proc.atos[k].nome for k in r.cita if k in proc.atos]), base,
                                 loaded.line_of(("atos", i, "referente")), f"atos[{i}].referente"))
        if a.numero:
            earlier.add(number_key(a.numero))
            atos.append(NumberedAct(i + 1, a.tipo, a.numero, nome, base, loaded.line_of(("atos", i, "numero")),
                                    f"atos[{i}].numero"))
    first = next((a.data_do_ato for a in p.atos if a.data_do_ato is not None), None)
    when = p.data_infracao or first
    return Filed(str(loaded.file), p.lei, p.numero, loaded.line_of(("numero",)), _digits(p.autuado.documento),
                 tuple(i.regra for i in p.infracoes), when.isoformat() if when else None, place_key(p.local),
                 loaded.line_of(("infracoes",)), tuple(atos), tuple(citing))


def filed_case(loaded: LoadedCase, statute: Statute | None) -> Filed:
    """What the cross checks keep of a one-document case file (the old format): its own number as an act of its
    kind (an auto de infração is the act ``auto``), the auto it cites (``auto.numero``), and its facts if it is
    an auto."""
    c: Case = loaded.case
    kind = statute.documentos.get(c.documento) if statute is not None else None
    nome = kind.titulo if kind is not None else c.documento
    base = statute.cite(kind.citacao) if statute is not None and kind is not None else None
    is_auto = c.documento == "auto_de_infracao"
    tipo = "auto" if is_auto else c.documento
    atos = (NumberedAct(0, tipo, c.numero, nome, base, loaded.line_of(("numero",)), "numero"),) if c.numero else ()
    citing: tuple[Citing, ...] = ()
    if not is_auto and c.auto is not None and c.auto.numero:
        citing = (Citing(0, nome, c.auto.numero, ("auto",), "auto de infração", base,
                         loaded.line_of(("auto", "numero")), "auto.numero"),)
    when = c.infraction_date
    return Filed(str(loaded.file), c.lei, None, None, _digits(c.autuado.documento),
                 tuple(i.regra for i in c.infracoes), when.isoformat() if when else None, None,
                 loaded.line_of(("infracoes",)), atos, citing, fatos=is_auto)


def processo_prescription(report: ProcessoReport, loaded: LoadedProcesso, statute: Statute, proc: Procedure,
                          hoje: date) -> PrescriptionState | None:
    """The processo's prescription (``None`` where the law's rules have no ``prescricao``); its findings are added
    to ``report``."""
    rule = statute.prescricao
    if rule is None:
        return None
    unknown = [k for k in (*rule.decisoes, *rule.recursos, *(rule.interrupcao.atos if rule.interrupcao else ()))
               if k not in proc.atos]
    if unknown:
        raise RulesError(f"a prescrição ('prescricao') cita {'o ato' if len(unknown) == 1 else 'os atos'} que o rito "
                         f"da lei não prevê: {', '.join(unknown)}.",
                         file=statute.file, path="prescricao",
                         hint=f"use tipos de ato de {statute.id}.processo.yaml: {', '.join(sorted(proc.atos))}.")
    timeline = report.timeline
    effective = {s.indice: s.efetiva for s in timeline.atos} if timeline is not None else {}
    p = loaded.processo
    facts = [ActFacts(a.tipo, a.data_do_ato, effective.get(i) if proc.atos.get(a.tipo) is not None
                      and proc.atos[a.tipo].forma is not None else a.data_do_ato, a.numero, a.resultado)
             for i, a in enumerate(p.atos)]
    state = prescription_of(rule, facts, p.data_infracao, hoje,
                            encerrado=timeline.encerrado if timeline is not None else False)
    report.findings.extend(prescription_findings(state, str(loaded.file), loaded.line_of(("atos",)), hoje,
                                                 PRESCRIPTION_WARNING_DAYS))
    return state


_INDEX = """
CREATE TABLE arquivos (id INTEGER PRIMARY KEY, filed BLOB NOT NULL);
CREATE TABLE numeros (chave TEXT NOT NULL, lei TEXT NOT NULL, arquivo INTEGER NOT NULL, ato INTEGER NOT NULL);
CREATE INDEX numeros_chave ON numeros (chave);
CREATE TABLE processos (lei TEXT NOT NULL, numero TEXT NOT NULL, arquivo INTEGER NOT NULL);
CREATE TABLE fatos (lei TEXT NOT NULL, autuado TEXT NOT NULL, regra TEXT NOT NULL, data TEXT NOT NULL,
                    arquivo INTEGER NOT NULL);
CREATE TABLE citacoes (arquivo INTEGER NOT NULL, citacao INTEGER NOT NULL);
"""


class SpooledCrossChecker(CrossChecker):
    """The checks across files of :class:`autos.checks.cross.CrossChecker`, with what they keep of each file in a
    private temporary SQLite database (on disk, in SQLite's page cache of a few MB, deleted when closed): the file
    itself (pickled) and the keys it is grouped by. The groups are formed there; only the files of a group of two
    or more, or of a citation, are read back. In memory, ``autos verificar`` kept every file's acts until the end of
    the run (~2.5 KB per processo)."""

    def __init__(self) -> None:
        super().__init__()
        self._db = sqlite3.connect("")  # "": a private temporary database on disk, deleted when closed
        self._db.executescript(_INDEX)

    def close(self) -> None:
        self._db.close()

    def add(self, f: Filed) -> None:
        self._count(f)
        db = self._db
        fid = db.execute("INSERT INTO arquivos (filed) VALUES (?)", (pickle.dumps(f),)).lastrowid
        db.executemany("INSERT INTO numeros VALUES (?, ?, ?, ?)",
                       [(number_index(f.lei, a.tipo, a.numero), f.lei, fid, i) for i, a in enumerate(f.atos)])
        if f.processo:
            db.execute("INSERT INTO processos VALUES (?, ?, ?)", (f.lei, processo_index(f.processo), fid))
        if f.fatos and f.autuado and f.data:
            db.executemany("INSERT INTO fatos VALUES (?, ?, ?, ?, ?)",
                           [(f.lei, f.autuado, regra, f.data, fid) for regra in dict.fromkeys(f.infracoes)])
        if not f.registro:
            db.executemany("INSERT INTO citacoes VALUES (?, ?)", [(fid, i) for i in range(len(f.citacoes))])

    def _filed(self, fid: int) -> Filed:
        (data,) = self._db.execute("SELECT filed FROM arquivos WHERE id = ?", (fid,)).fetchone()
        f: Filed = pickle.loads(data)  # written by add() above, in this checker's own database
        return f

    def _files(self, ids: str) -> list[Filed]:
        return [self._filed(int(i)) for i in ids.split(",")]

    def _duplicate_keys(self) -> Iterable[tuple[str, str]]:
        return self._db.execute(
            "SELECT chave, lei FROM numeros GROUP BY chave HAVING COUNT(*) > 1 ORDER BY chave").fetchall()

    def _numbered(self, key: str) -> list[tuple[Filed, NumberedAct]]:
        out = []
        for fid, i in self._db.execute("SELECT arquivo, ato FROM numeros WHERE chave = ? ORDER BY rowid",
                                       (key,)).fetchall():
            f = self._filed(fid)
            out.append((f, f.atos[i]))
        return out

    def _processo_groups(self) -> Iterable[list[Filed]]:
        # the order of the files within a group does not matter: the checks sort them by file
        for (ids,) in self._db.execute("SELECT group_concat(arquivo) FROM processos GROUP BY lei, numero "
                                       "HAVING COUNT(*) > 1 ORDER BY lei, numero").fetchall():
            yield self._files(ids)

    def _fact_groups(self) -> Iterable[tuple[str, str, list[Filed]]]:
        for regra, when, ids in self._db.execute(
                "SELECT regra, data, group_concat(arquivo) FROM fatos GROUP BY lei, autuado, regra, data "
                "HAVING COUNT(*) > 1 ORDER BY lei, autuado, regra, data").fetchall():
            yield regra, when, self._files(ids)

    def _citing_acts(self) -> Iterator[tuple[Filed, Citing]]:
        for fid, i in self._db.execute("SELECT arquivo, citacao FROM citacoes ORDER BY rowid").fetchall():
            f = self._filed(fid)
            yield f, f.citacoes[i]


class CrossRun:
    """The cross checks of one ``autos verificar``: the files read, then (at :meth:`findings`) the registers'."""

    def __init__(self, registers: list[Register], procedures: dict[str, Procedure | None]) -> None:
        self.registers = registers
        self.procedures = procedures  # law id → its rite (None: the rules have none), shared with the run
        self.checker: CrossChecker = SpooledCrossChecker()  # what it is given, on disk
        #: with a register only (whose index is read in memory anyway): the resolved paths of the files read, and
        #: the processos read that have numbered acts (for the reserved numbers)
        self._read: set[str] = set()
        self._numbered: list[Filed] = []

    def add(self, f: Filed) -> None:
        self.checker.add(f)
        if self.registers:
            self._read.add(str(Path(f.arquivo).resolve()))
            if f.processo and f.atos:
                self._numbered.append(f)

    def close(self) -> None:
        self.checker.close()

    def findings(self) -> list[Finding]:
        """The findings across every file read and every processo of the registers."""
        out: list[Finding] = []
        for reg in self.registers:
            for e in reg.indexed_processos():
                path = reg.absolute(e.arquivo)
                if str(path.resolve()) in self._read:
                    continue  # read now: the file, not the index, is what counts
                self.checker.add(self._filed_of(e.lei, e.numero, str(path), e.autuado_documento, e.data_infracao,
                                                e.infracoes, e.atos))
        names = ", ".join(str(r.path) for r in self.registers) or None
        out += self.checker.findings(lambda f: Path(f.arquivo).exists(), names)
        for reg in self.registers:
            out += self._reservations(reg)
        return out

    def _filed_of(self, lei: str, numero: str, arquivo: str, documento: str | None, data: str | None,
                  infracoes: tuple[str, ...], atos: tuple[tuple[int, str, str], ...]) -> Filed:
        proc = self.procedures.get(lei)
        acts = []
        for ordem, tipo, n in atos:
            r = proc.atos.get(tipo) if proc is not None else None
            acts.append(NumberedAct(ordem, tipo, n, r.nome if r is not None else tipo,
                                    proc.cite(r.citacao) if proc is not None and r is not None else None, None,
                                    f"atos[{ordem - 1}].numero"))
        return Filed(arquivo, lei, numero, None, documento, infracoes, data, None, None, tuple(acts), registro=True)

    def _reservations(self, reg: Register) -> list[Finding]:
        """Numbers of the processos read that the register cancelled or reserved for another processo (the same
        checks as ``autos validar`` with a register, from one read of the reserved numbers)."""
        reserved: dict[tuple[str, str, int, int], Reservation] = {
            (r.lei, r.tipo, r.ano, r.numero): r for r in reg.reservations()}
        if not reserved:
            return []
        out: list[Finding] = []
        for f in self._numbered:
            for a in f.atos:
                try:
                    n, ano = document_key(a.numero)
                except ValueError:
                    continue
                r = reserved.get((f.lei, a.tipo, ano, n))
                if r is None:
                    continue
                if r.estado == "cancelado":
                    out.append(Finding("erro", "REG-NUMERO-CANCELADO",
                                       f"o número {n}/{ano} ({a.nome}) de {f.arquivo} foi cancelado no registro "
                                       f"{reg.path} em {r.cancelado_em}: {r.motivo}", a.base, a.caminho, a.linha,
                                       f.arquivo, "use o número reservado para este ato (autos numerar) ou reserve "
                                       "outro."))
                elif r.processo is not None and f.processo is not None and r.processo != f.processo:
                    other = reg.absolute(r.arquivo) if r.arquivo else "arquivo desconhecido"
                    out.append(Finding("erro", "REG-NUMERO-DE-OUTRO",
                                       f"o número {n}/{ano} ({a.nome}) foi reservado para o processo {r.processo} "
                                       f"({other}), não para o processo {f.processo} ({f.arquivo}); registro "
                                       f"{reg.path}", a.base, a.caminho, a.linha, f.arquivo,
                                       "corrija o número deste ato ou reserve um para ele com autos numerar."))
        return out
