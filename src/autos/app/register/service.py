"""The register's use cases: finding it, rebuilding it from a folder, numbering, the checks of ``autos validar``,
recording and looking up the documents ``autos gerar`` wrote (``autos conferir``).

The register itself (schema, storage, transactions) is :mod:`autos.store.register`; this module reads folders and
files and takes the clock. Where no register is given (``--registro`` or ``AUTOS_REGISTRO``) one is looked for
as ``registro.sqlite3`` in the folder of the processo and in the folders above it; without one, ``validar`` and
``gerar`` behave as before the register existed (``gerar`` still never replaces a different document).
``autos conferir`` trusts only a register it is given, never one found beside the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from autos.app.generation.pipeline import Autos
from autos.app.generation.results import Generated
from autos.app.processo.new_processo import new_processo_text, write_new_processo
from autos.base.ptbr import count_noun
from autos.base.yamlio import iter_yaml_files, load_yaml
from autos.checks.finding import Finding, Report
from autos.checks.processo import ProcessoReport
from autos.errors import AutosError, InputError, OutputError, RegisterError, os_error_pt
from autos.processo.case import document_key
from autos.processo.load import LoadedProcesso, from_doc, is_processo_data, load_processo
from autos.rules.procedure import Procedure
from autos.store.database import Location, find_register
from autos.store.register import (
    DEFAULT_REGISTER_NAME,
    DocumentRecord,
    IndexDiff,
    IndexEntry,
    Register,
    Reservation,
    index_entry,
    sha256_of,
)

__all__ = ["REGISTER_ENV", "ProcessoRecorder", "Rebuilt", "RegisterVerification", "cancel_number",
           "find_register", "new_processo_reserving", "open_register", "rebuild_folder", "record_written",
           "register_findings", "reserve_number", "stamp_of", "verify_code", "verify_document"]

#: environment variable naming the register (as ``--registro``)
REGISTER_ENV = "AUTOS_REGISTRO"


def open_register(given: Location | None, start: Path, *, create: bool = False, readonly: bool = False,
                  required: bool = True) -> Register | None:
    """The register ``given`` (created if ``create``), else the one found from ``start``; None when there is none
    and it is not ``required``."""
    if given is not None:
        return Register.open(given, create=create and not readonly, readonly=readonly)
    found = find_register(start)
    if found is None:
        if required:
            raise RegisterError(f"nenhum registro ({DEFAULT_REGISTER_NAME}) encontrado em {start.resolve()} nem "
                                "nas pastas acima.",
                                hint="crie o registro com autos registro reconstruir PASTA_DOS_PROCESSOS ou indique-o "
                                f"com --registro (ou a variável {REGISTER_ENV}).")
        return None
    return Register.open(found, readonly=readonly)


# --------------------------------------------------------------------------------------------------
# rebuilding


@dataclass
class Rebuilt:
    """``autos registro reconstruir``: what differs, how many processos, which files could not be read."""

    register: Location
    diff: IndexDiff
    processos: int
    falhas: list[AutosError] = field(default_factory=list)

    def exit_code(self) -> int:
        return 2 if self.falhas else 0

    def lines(self) -> list[str]:
        out = [f"registro: {self.register} ({count_noun(self.processos, 'processo indexado', 'processos indexados')})"]
        d = self.diff
        out += [f"novo: {a}" for a in d.novos]
        out += [f"alterado: {a}" for a in d.alterados]
        out += [f"movido: {a} → {b} (os números reservados o acompanham)" for a, b in d.movidos]
        out += [f"removido: {a} (o arquivo não está mais na pasta)" for a in d.removidos]
        if d.empty:
            out.append("sem diferenças: o índice já correspondia aos arquivos.")
        out += [f"ilegível (fora do índice): {e}" for e in self.falhas]
        return out


def _entries(register: Register, folder: Path, falhas: list[AutosError]) -> Iterator[IndexEntry]:
    for f in iter_yaml_files(folder):
        try:
            raw = f.read_bytes()
            doc = load_yaml(f, InputError)
            if not is_processo_data(doc.data):
                continue  # a case file (one document), not a processo
            loaded = from_doc(doc)
            yield _entry(register, loaded, raw)
        except AutosError as exc:
            falhas.append(exc)
        except OSError as exc:
            falhas.append(InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=f))


def _entry(register: Register, loaded: LoadedProcesso, raw: bytes) -> IndexEntry:
    try:
        return index_entry(loaded, register.relative(loaded.file), sha256_of(raw))
    except ValueError as exc:  # the CPF/CNPJ passed the model: a defect, reported with the file
        raise InputError(str(exc), file=loaded.file, path="autuado") from None


def rebuild_folder(folder: Path, given: Location | None) -> Rebuilt:
    """Rebuild the index of every processo under ``folder`` (the register: ``given`` or
    ``folder/registro.sqlite3``, created if missing). Unreadable files are listed and left out."""
    if not folder.is_dir():
        raise InputError("a pasta dos processos não existe.", file=folder, hint="confira o caminho.")
    path = given if given is not None else folder / DEFAULT_REGISTER_NAME
    with Register.open(path, create=True) as register:
        falhas: list[AutosError] = []
        entries = list(_entries(register, folder, falhas))
        diff = register.rebuild(entries)
    return Rebuilt(path, diff, len(entries), falhas)


# --------------------------------------------------------------------------------------------------
# numbering


def check_kind(procedure: Procedure, tipo: str) -> None:
    if tipo not in procedure.atos:
        raise InputError(f"a lei {procedure.lei} não prevê o ato '{tipo}'.",
                         hint=f"tipos de ato válidos: {', '.join(sorted(procedure.atos))} (autos regras mostrar "
                         f"{procedure.lei}).")


def reserve_number(register: Register, procedure: Procedure, tipo: str, ano: int, *, processo: str | None = None,
                   arquivo: Path | None = None) -> Reservation:
    """Reserve the next ``tipo`` number of the law for ``ano`` (for ``processo``/``arquivo`` when known)."""
    check_kind(procedure, tipo)
    if not 1900 <= ano <= 2999:
        raise InputError(f"ano {ano} fora do intervalo 1900–2999.", hint="use --ano AAAA.")
    return register.reserve(procedure.lei, tipo, ano, processo=processo,
                            arquivo=register.relative(arquivo) if arquivo is not None else None)


def cancel_number(register: Register, numero: str, motivo: str, *, lei: str | None = None,
                  tipo: str | None = None) -> Reservation:
    """``autos numerar --cancelar N/AAAA --motivo "…"``: the reservation of that number (in the series of ``lei``
    and ``tipo`` when given; without them, the only series that reserved it) is marked cancelled."""
    try:
        n, ano = document_key(numero)
    except ValueError as exc:
        raise InputError(str(exc), hint="use --cancelar N/AAAA, p. ex. 23/2026.") from None
    if lei is not None and tipo is not None:
        return register.cancel(lei, tipo, n, ano, motivo)
    found = [r for r in register.reservations_at(ano, n)
             if (lei is None or r.lei == lei) and (tipo is None or r.tipo == tipo)]
    if not found:
        raise RegisterError(f"o número {n}/{ano} não foi reservado neste registro; nada foi cancelado.",
                            file=register.path, hint="confira o número (autos registro numeros).")
    active = [r for r in found if r.estado == "reservado"]
    found = active or found[:1]  # only cancelled ones: cancel() says when and why
    if len(found) > 1:
        series = "; ".join(f"{r.lei} --ato {r.tipo}" for r in found)
        raise InputError(f"o número {n}/{ano} foi reservado em mais de uma série ({series}); nada foi cancelado.",
                         hint=f"informe a lei e o tipo de ato: autos numerar LEI --ato TIPO --cancelar {n}/{ano} "
                         '--motivo "…".')
    return register.cancel(found[0].lei, found[0].tipo, n, ano, motivo)


# --------------------------------------------------------------------------------------------------
# autos validar


def _dotted(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


def _finding(loaded: LoadedProcesso, path: tuple[str | int, ...], code: str, message: str, hint: str) -> Finding:
    return Finding("erro", code, message, None, _dotted(path), loaded.line_of(path), str(loaded.file), hint)


def register_findings(register: Register, loaded: LoadedProcesso) -> list[Finding]:
    """The numbers of this processo against the register: a number reserved for another processo, used by
    another processo, cancelled, or not the one reserved for this processo — each naming both files."""
    p = loaded.processo
    me = register.relative(loaded.file)
    out: list[Finding] = []
    kinds_numbered: dict[str, set[tuple[int, int]]] = {}
    for arquivo in register.processo_files(p.lei, p.numero):
        if arquivo != me and register.absolute(arquivo).exists():
            out.append(_finding(loaded, ("numero",), "REG-PROCESSO-REPETIDO",
                                f"o processo {p.numero} ({p.lei}) já está no registro em outro arquivo: "
                                f"{register.absolute(arquivo)} (este arquivo: {loaded.file})",
                                "um processo tem um só arquivo: se é uma cópia, apague-a; se é outro processo, dê-lhe "
                                "o seu número; depois rode autos registro reconstruir."))
    for i, ato in enumerate(p.atos):
        path: tuple[str | int, ...] = ("atos", i, "numero")
        key = _key(ato.numero)
        if key is None:
            continue
        kinds_numbered.setdefault(ato.tipo, set()).add(key)
        n, ano = key
        r = register.reservation(p.lei, ato.tipo, ano, n)
        if r is not None and r.estado == "cancelado":
            out.append(_finding(loaded, path, "REG-NUMERO-CANCELADO",
                                f"o número {n}/{ano} ({ato.tipo}) foi cancelado no registro {register.path} em "
                                f"{r.cancelado_em}: {r.motivo}", "use o número reservado para este ato (autos "
                                "numerar) ou reserve outro."))
        elif r is not None and r.processo is not None and r.processo != p.numero:
            other = register.absolute(r.arquivo) if r.arquivo else "arquivo desconhecido"
            out.append(_finding(loaded, path, "REG-NUMERO-DE-OUTRO",
                                f"o número {n}/{ano} ({ato.tipo}) foi reservado para o processo {r.processo} "
                                f"({other}), não para este ({loaded.file}); registro {register.path}",
                                "corrija o número deste ato ou reserve um para ele com autos numerar."))
        for arquivo, numero, ordem in register.users(p.lei, ato.tipo, ano, n):
            if arquivo == me:
                continue
            if numero == p.numero and not register.absolute(arquivo).exists():
                out.append(Finding("aviso", "REG-INDICE-DESATUALIZADO",
                                   f"o registro {register.path} tem este processo ({numero}) em "
                                   f"{register.absolute(arquivo)}, que não existe mais: o arquivo foi movido ou "
                                   "renomeado", None, _dotted(path), loaded.line_of(path), str(loaded.file),
                                   "rode autos registro reconstruir PASTA (os números reservados acompanham o "
                                   "arquivo)."))
                continue
            out.append(_finding(loaded, path, "REG-NUMERO-REPETIDO",
                                f"o número {n}/{ano} ({ato.tipo}) já está no processo {numero}: "
                                f"{register.absolute(arquivo)}, ato {ordem} (este arquivo: {loaded.file})",
                                "um número é de um só ato: corrija um dos dois arquivos (autos numerar reserva o "
                                "próximo livre) e rode autos registro reconstruir."))
    for r in register.reserved_for(p.lei, p.numero):
        if r.estado != "reservado" or r.tipo not in kinds_numbered:
            continue
        if (r.numero, r.ano) in kinds_numbered[r.tipo]:
            continue
        i = next(j for j, a in enumerate(p.atos) if a.tipo == r.tipo and _key(a.numero) is not None)
        typed = p.atos[i].numero
        where = register.absolute(r.arquivo) if r.arquivo else register.path
        out.append(_finding(loaded, ("atos", i, "numero"), "REG-NUMERO-NAO-RESERVADO",
                            f"o número reservado para o {r.tipo} deste processo ({p.numero}) é {r.rotulo} "
                            f"(reservado em {r.reservado_em} para {where}), mas {loaded.file} traz {typed}",
                            f"escreva {r.rotulo} ou cancele a reserva com autos numerar --cancelar {r.rotulo} "
                            '--motivo "…".'))
    return out


def _key(numero: str | None) -> tuple[int, int] | None:
    if not numero:
        return None
    try:
        return document_key(numero)
    except ValueError:
        return None


def processos_with_register(reports: Sequence[Report],
                            given: Location | None) -> Iterator[tuple[ProcessoReport, Register, LoadedProcesso]]:
    """Each processo report that has a register (``given``, or the one found beside the file), with that register
    (opened read-only once, closed at the end) and the processo as loaded now; a processo without a register, or
    whose file changed meanwhile and no longer loads (the next run reports it), is skipped."""
    opened: dict[Location, Register] = {}
    by_folder: dict[Path, Path | None] = {}
    try:
        for report in reports:
            if report.error is not None or not isinstance(report, ProcessoReport):
                continue
            path = given
            if path is None:
                folder = report.file.resolve().parent
                if folder not in by_folder:
                    by_folder[folder] = find_register(folder)
                path = by_folder[folder]
            if path is None:
                continue
            if path not in opened:
                opened[path] = Register.open(path, readonly=True)
            try:
                loaded = load_processo(report.file)
            except AutosError:
                continue
            yield report, opened[path], loaded
    finally:
        for r in opened.values():
            r.close()


# --------------------------------------------------------------------------------------------------
# documents written and autos conferir


def stamp_of(register: Register | None, target: Path) -> datetime | None:
    """When the document at ``target`` was last written, per the register (its "gerado em")."""
    if register is None:
        return None
    records = register.documents_at(register.relative(target))
    return datetime.fromisoformat(records[0].gravado_em) if records else None


def record_written(register: Register, loaded_file: Path, lei: str, processo: str, ato: int, documento: str,
                   files: Sequence[tuple[Path, str, int]], when: datetime, codigo: str | None = None) -> None:
    """Record ``(path, sha256, bytes)`` of the documents of one act as written at ``when``, with the
    verification code they print."""
    register.record_documents([
        DocumentRecord(register.relative(p), sha, size, register.relative(loaded_file), lei, processo, ato,
                       documento, when.isoformat(timespec="seconds"), codigo)
        for p, sha, size in files])


@dataclass(frozen=True)
class RegisterVerification:
    linhas: list[str]
    exit_code: int


def verify_document(file: Path, registro: Location) -> RegisterVerification:
    """``autos conferir ARQUIVO --registro R``: is this file, byte for byte, a document the register recorded? Also
    the verification code the file prints (PDF text, DOCX footer) and what the register knows of that code: a
    file whose code is recorded but whose bytes are not was changed after it was issued, or is not the one issued."""
    from autos.render.gazette import claimed_codes

    try:
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=file) from None
    sha = sha256_of(data)
    codes = [code for _label, code in claimed_codes(data)]
    with Register.open(registro, readonly=True) as register:
        found = register.documents_with(sha)
        lines = [f"arquivo: {file}", f"SHA-256: {sha}", f"registro: {registro}"]
        lines.append(f"código de verificação impresso no documento: {', '.join(codes)}" if codes
                     else "o documento não traz código de verificação legível.")
        if not found:
            lines.append("NÃO CONFERE: nenhum documento com este conteúdo foi gerado pelo autos segundo este "
                         "registro (o arquivo foi alterado, é de outro registro ou não foi gerado pelo autos).")
            for code in codes:
                known = register.documents_by_code(code)
                if not known:
                    lines.append(f"  o código {code} não está neste registro: o documento não foi emitido com este "
                                 "registro (ou o código foi alterado).")
                    continue
                r = known[0]
                lines.append(f"  pelo código {code}, o arquivo diz ser o {r.documento} do ato {r.ato} do processo "
                             f"{r.processo} ({r.lei}), gerado como {register.absolute(r.caminho)}; mas o SHA-256 não "
                             f"confere com o registrado ({', '.join(sorted({k.sha256 for k in known}))}): o arquivo "
                             "foi alterado ou não é o emitido.")
            return RegisterVerification(lines, 1)
        for r in found:
            when = datetime.fromisoformat(r.gravado_em)
            lines.append(f"CONFERE: {r.documento} do ato {r.ato} do processo {r.processo} ({r.lei}), gerado em "
                         f"{when:%d/%m/%Y %H:%M} como {register.absolute(r.caminho)} a partir de "
                         f"{register.absolute(r.arquivo)}.")
            recorded = [c for c in codes if any((k.caminho, k.sha256) == (r.caminho, r.sha256)
                                                for k in register.documents_by_code(c))]
            if recorded:
                lines.append(f"  o código de verificação {recorded[0]} é o registrado para este documento.")
            newer = [d for d in register.documents_at(r.caminho) if d.gravado_em > r.gravado_em]
            if newer:
                lines.append(f"  atenção: o documento foi substituído depois, em "
                             f"{datetime.fromisoformat(newer[0].gravado_em):%d/%m/%Y %H:%M} (autos gerar "
                             "--substituir); este arquivo é a versão anterior.")
        return RegisterVerification(lines, 0)


def verify_code(typed: str, registro: Location) -> RegisterVerification:
    """``autos conferir --codigo C --registro R``: the document(s) the register recorded under a verification code
    typed from a printed copy. A code whose check character does not match (a typo) is refused before the lookup;
    the register then says which document, processo and act it is, and the SHA-256 of each version recorded."""
    from autos.render.verification import typed_code

    code = typed_code(typed)
    if code is None:
        raise InputError(f"'{typed}' não é um código de verificação válido: o último caractere confere os outros, e "
                         "este não confere (erro de digitação?).",
                         hint="digite os 12 caracteres como estão no documento, p. ex. QM10-V59P-9D4G (maiúsculas ou "
                         "minúsculas, com ou sem hífens); um edital é conferido pelo arquivo, com --livro.")
    with Register.open(registro, readonly=True) as register:
        found = register.documents_by_code(code)
        lines = [f"código: {code}", f"registro: {registro}"]
        if not found:
            lines.append(f"NÃO CONFERE: o código {code} não está neste registro (documento de outro registro, de um "
                         "arquivo antigo de um só documento, que não é registrado, ou código alterado).")
            return RegisterVerification(lines, 1)
        r = found[0]
        lines.append(f"CONFERE: o código {code} é do {r.documento} do ato {r.ato} do processo {r.processo} ({r.lei}), "
                     f"gerado a partir de {register.absolute(r.arquivo)}.")
        for d in found:
            when = datetime.fromisoformat(d.gravado_em)
            lines.append(f"  {register.absolute(d.caminho)} — gerado em {when:%d/%m/%Y %H:%M} — SHA-256 {d.sha256}")
        if len({d.gravado_em for d in found}) > 1:
            lines.append("  o documento foi substituído (autos gerar --substituir): a versão em vigor é a primeira "
                         "da lista.")
        return RegisterVerification(lines, 0)


# --------------------------------------------------------------------------------------------------
# autos novo --reservar


def new_processo_reserving(autos: Autos, register: Register, target: Path, lei: str, infracoes: list[str],
                           numero: str, juridica: bool, replace: bool, ano: int) -> Reservation:
    """``autos novo … --reservar``: reserve the auto's number for this processo and write the new file with it.
    Nothing is reserved for input that would be refused; a file that cannot be written cancels its reservation
    (recorded with the reason: no silent gap)."""
    rules = autos.rules
    new_processo_text(rules, lei, infracoes, numero, juridica)  # refuses a bad law or infraction before reserving
    procedure = autos.procedure_of(lei)
    assert procedure is not None  # new_processo_text read it
    if target.exists() and not replace:
        raise OutputError("o arquivo já existe; nada foi gravado nem reservado.", file=target,
                          hint="escolha outro nome (-o) ou use --substituir para sobrescrever.")
    kind = procedure.initial_kind()
    r = reserve_number(register, procedure, kind, ano, processo=numero.strip(), arquivo=target)
    try:
        write_new_processo(rules, target, lei, infracoes, numero, juridica, replace, numero_auto=r.rotulo)
    except AutosError as exc:
        register.cancel(lei, kind, r.numero, r.ano, f"a gravação de {target} falhou: {exc.message}")
        raise
    return r


# --------------------------------------------------------------------------------------------------
# autos gerar: the register of each processo


class _ForProcesso:
    """What ``gerar`` needs from the register for one processo (nothing when it has no register)."""

    def __init__(self, register: Register | None, file: Path) -> None:
        self.register = register
        self.file = file
        self._who: tuple[str, str] | None = None

    def stamp_of(self, target: Path) -> datetime | None:
        return stamp_of(self.register, target)

    def record(self, ato: int, done: Generated) -> None:
        if self.register is None or done.stamp is None:
            return
        if self._who is None:
            p = load_processo(self.file).processo
            self._who = (p.lei, p.numero)
        lei, numero = self._who
        record_written(self.register, self.file, lei, numero, ato, done.documento or "", done.hashes, done.stamp,
                       done.codigo)


class ProcessoRecorder:
    """Opens, once each, the register of every processo ``autos gerar`` writes documents for."""

    def __init__(self, given: Location | None) -> None:
        self.given = given
        self._open: dict[Location, Register] = {}

    def for_processo(self, file: Path) -> _ForProcesso:
        path = self.given if self.given is not None else find_register(file)
        if path is None:
            return _ForProcesso(None, file)
        key = path.resolve() if isinstance(path, Path) else path
        if key not in self._open:
            self._open[key] = Register.open(path)
        return _ForProcesso(self._open[key], file)

    def __enter__(self) -> ProcessoRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        for r in self._open.values():
            r.close()
