"""``autos conferir``: is this file (or this processo's edital) the one the ledger recorded as published?"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from autos.base import ptbr
from autos.errors import AutosError, InputError, LedgerError, os_error_pt
from autos.render.gazette import claimed_codes
from autos.store.database import Location
from autos.store.ledger import DEFAULT_LEDGER_NAME, EDITAL_KINDS, EditalRecord, Ledger, Match, case_key

EXIT_OK = 0
EXIT_REJECTED = 1

FILE_LABELS = {
    "edital_consolidado": "edital consolidado (PDF)",
    "edital_individual_pdf": "edital individual (PDF)",
    "edital_individual_docx": "edital individual (DOCX)",
    "caderno": "caderno para o diário oficial (PDF unificado)",
}


@dataclass
class LedgerVerification:
    arquivo: Path
    sha256: str
    livro: Location
    confere: bool
    linhas: list[str]

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.confere else EXIT_REJECTED


#: the ledger ``autos conferir`` trusts when ``--livro`` is not given
LEDGER_ENV = "AUTOS_LIVRO"


def _absolute(ledger: Location) -> Location:
    return ledger.absolute() if isinstance(ledger, Path) else ledger
def _correction_lines(ledger: Ledger, rec: EditalRecord, lines: list[str]) -> bool:
    """What the ledger says of the corrections of ``rec`` (what it corrects, what corrected it, its cancellation),
    appended to ``lines``; ``False`` when the edital was cancelled (the file is the one published, but it no longer
    has any effect)."""
    if rec.tipo != "edital" and rec.corrige is not None:
        target = ledger.edital(rec.corrige)
        if target is not None:
            lines.append(f"É {EDITAL_KINDS[rec.tipo]} do edital {target.rotulo}, publicado em "
                         f"{ptbr.format_date(target.data_publicacao)}; motivo: {rec.motivo}.")
    for corr in ledger.corrections(rec.id):
        lines.append(f"O edital foi corrigido: {EDITAL_KINDS[corr.tipo]} pelo edital {corr.rotulo}, publicado em "
                     f"{ptbr.format_date(corr.data_publicacao)} (motivo: {corr.motivo})"
                     + (", depois cancelada." if corr.cancelamento is not None else "."))
    c = rec.cancelamento
    if c is None:
        return True
    lines.append(f"CANCELADO: o edital {rec.rotulo} ({rec.lei}) foi cancelado em {ptbr.format_date(c.data)}, "
                 f"registrado no livro em {c.cancelado_em:%d/%m/%Y %H:%M}; motivo: {c.motivo}. O arquivo é o "
                 "publicado, "
                 "mas o edital não produz efeito.")
    return False


def _describe(m: Match) -> str:
    e, f = m.arquivo, m.edital
    label = ("documento da retificação (PDF)" if f.tipo == "retificacao" and e.tipo == "edital_consolidado"
             else FILE_LABELS.get(e.tipo, e.tipo))
    text = (f"{label} do edital {f.rotulo} ({f.lei}), publicado em "
            f"{ptbr.format_date(f.data_publicacao)}")
    if e.caso:
        text += f"; caso: auto nº {e.caso.split('#', 1)[1]}"
    return text


def verify_file(path: Path, ledger_path: Location | None, *, source: str = "--livro") -> LedgerVerification:
    """Recompute the SHA-256 of ``path`` and compare it with the ledger ``ledger_path``; say what the file claims
    to be. Only the ledger the user names (``--livro``, or the configured :data:`LEDGER_ENV`; ``source`` says
    which) is trusted: never one found next to the file, which could have come with a forged file."""
    if ledger_path is None:
        raise LedgerError("nenhum livro de editais indicado: o conferir só confia no livro que você indicar, nunca "
                          "num livro encontrado ao lado do arquivo (ele pode ter vindo junto com um arquivo falso).",
                          file=path, hint=f"indique o livro oficial com --livro CAMINHO ou configure a variável de "
                          f"ambiente {LEDGER_ENV} (o livro da publicação é {DEFAULT_LEDGER_NAME} na pasta de saída).")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"não foi possível ler o arquivo ({os_error_pt(exc)}).", file=path) from None
    found = _absolute(ledger_path)
    if isinstance(found, Path) and not found.is_file():
        raise LedgerError(f"livro de editais não encontrado (indicado por {source}).", file=found,
                          hint=f"confira o caminho de --livro ou da variável {LEDGER_ENV}.")
    sha = hashlib.sha256(data).hexdigest()
    with Ledger(found, readonly=True) as ledger:
        head = f"Livro consultado: {found} (indicado por {source})."
        matches = [m for m in ledger.by_hash(sha) if m.edital.estado == "publicado"]
        if matches:
            m = matches[0]
            lines = [head, f"CONFERE: o SHA-256 do arquivo está registrado no livro de editais ({found}).",
                     f"É o {_describe(m)}.",
                     f"Código de verificação: {m.arquivo.codigo or '(DOCX, sem código impresso)'}.",
                     f"SHA-256: {sha}"]
            ok = _correction_lines(ledger, m.edital, lines)
            return LedgerVerification(path, sha, found, ok, lines)
        lines = [head, "NÃO CONFERE: este arquivo não é nenhum dos arquivos publicados registrados no livro "
                 f"({found}).", f"SHA-256 do arquivo: {sha}"]
        claims = claimed_codes(data)
        if not claims:
            lines.append("O arquivo não traz código de verificação legível.")
        for label, code in claims:
            rows = ledger.by_code(code)
            if not rows:
                lines.append(f"O arquivo traz o {label} {code}, que não existe neste livro.")
                continue
            m = rows[0]
            if data[:4] == b"PK\x03\x04" and m.arquivo.tipo == "edital_individual_pdf":
                m = ledger.sibling(m, "edital_individual_docx") or m  # the DOCX prints its PDF's code
            lines.append(f"O arquivo diz ser, pelo {label} {code}, o {_describe(m)}; mas o SHA-256 não confere "
                         f"com o registrado ({m.arquivo.sha256 or 'edital ainda não concluído'}): o arquivo foi "
                         "alterado depois da publicação ou não é o publicado.")
        return LedgerVerification(path, sha, found, False, lines)


# --------------------------------------------------------------------------------------------------
# a processo: is the edital it records the one the ledger published (and is this file that edital's)?


def verify_processo(processo: Path, ledger_path: Location | None, *, arquivo: Path | None = None,
                    source: str = "--livro", rules_dir: Path | None = None) -> LedgerVerification:
    """Compare the edital act(s) of ``processo`` with what the ledger recorded for its auto: the edital's number,
    the publication dates and vehicles. With ``arquivo`` (a published PDF or DOCX), also say whether that file is
    the one recorded and belongs to this processo's edital (its consolidated edital, its gazette, or this auto's
    individual edital). Only the ledger the user names is trusted, as in :func:`verify_file`."""
    from autos.app.processo.service import ProcessoService
    from autos.processo.load import load_processo

    file_check = verify_file(arquivo, ledger_path, source=source) if arquivo is not None else None
    if ledger_path is None:
        verify_file(processo, None, source=source)  # raises the Portuguese error about the missing ledger
    assert ledger_path is not None
    loaded = load_processo(processo)
    p = loaded.processo
    proc = ProcessoService(rules_dir).procedure(p.lei)
    initial = proc.initial_kind()
    auto = next((a for a in p.atos if a.tipo == initial), None)
    found = _absolute(ledger_path)
    lines = [f"Livro consultado: {found} (indicado por {source}).", f"Processo: {p.numero} ({processo})."]
    if file_check is not None:
        lines += [f"Arquivo: {arquivo}"] + [f"  {x}" for x in file_check.linhas[1:]]
    if auto is None or not auto.numero:
        lines.append("NÃO CONFERE: o processo não tem auto numerado; não há edital dele a conferir.")
        return LedgerVerification(processo, "", found, False, lines)
    try:
        caso = case_key(p.lei, auto.numero)
    except ValueError as exc:
        lines.append(f"NÃO CONFERE: o número do auto ('{auto.numero}') não é N/AAAA ({exc}).")
        return LedgerVerification(processo, "", found, False, lines)
    kinds = {k for k, r in proc.atos.items() if r.forma == "edital"}
    acts = [(i, a) for i, a in enumerate(p.atos) if a.tipo in kinds and a.referente == auto.numero]
    with Ledger(found, readonly=True) as ledger:
        hit = ledger.case_edital(caso)
        rec = ledger.edital(hit[0].id) if hit is not None else None
        while rec is not None and rec.tipo == "retificacao" and rec.corrige is not None and not _essential(rec, caso):
            rec = ledger.edital(rec.corrige)  # the dates of the edital corrected stand: the processo keeps its act
    ok = True
    if rec is None or rec.estado != "publicado":
        lines.append(f"NÃO CONFERE: o livro não registra edital publicado para o auto nº {auto.numero} deste processo"
                     + (f" (o edital {rec.rotulo} está reservado e não foi concluído)." if rec is not None else "."))
        if acts:
            editais = ptbr.count_noun(len(acts), "edital", "editais")
            lines.append(f"O processo registra {editais} do auto (atos[{acts[0][0]}], linha "
                         f"{loaded.line_of(('atos', acts[0][0]))}) que o livro não tem: publicação feita fora do "
                         "autos ou livro errado.")
        ok = False
    else:
        numero = f"{rec.numero}/{rec.ano}"
        lines.append(f"O livro registra o edital {rec.rotulo} ({rec.lei}) do auto nº {auto.numero}, "
                     f"{rec.publication_phrase}.")
        same = [(i, a) for i, a in acts if a.numero == numero]
        if not same:
            ok = False
            lines.append("NÃO CONFERE: o processo não tem o ato desse edital"
                         + (f" (tem edital nº {', '.join(str(a.numero) for _, a in acts)})" if acts else "")
                         + "; rode autos publicar-editais de novo para registrá-lo no processo.")
        else:
            i, a = same[-1]
            where = f"atos[{i}], linha {loaded.line_of(('atos', i))}"
            wanted: set[tuple[str, date, str | None]] = {("oficial", rec.data_publicacao, rec.veiculo)}
            if rec.jornal and rec.data_jornal:
                wanted.add(("jornal", rec.data_jornal, rec.jornal))
            have: set[tuple[str, date, str | None]] = {(x.meio, x.data, x.veiculo) for x in a.publicacoes or []}
            if have != wanted:
                ok = False
                lines.append(f"NÃO CONFERE: as publicações do edital no processo ({where}) diferem das do livro: no "
                             f"processo {_pubs(have)}; no livro {_pubs(wanted)}.")
            else:
                lines.append(f"CONFERE: o edital {rec.rotulo} registrado no processo ({where}) é o do livro, com as "
                             "mesmas publicações.")
        if file_check is not None:
            m = _match_of(found, file_check.sha256)
            if m is None:
                ok = False
            elif m.edital.id != rec.id or (m.arquivo.caso is not None and m.arquivo.caso != caso):
                ok = False
                lines.append(f"NÃO CONFERE: o arquivo é publicado, mas não é deste processo: é o {_describe(m)}.")
            else:
                lines.append(f"CONFERE: o arquivo é o {_describe(m)}, deste processo.")
    if file_check is not None and not file_check.confere:
        ok = False
    return LedgerVerification(processo, "", found, ok, lines)


def _essential(rec: EditalRecord, caso: str) -> bool:
    """Whether the retificação ``rec`` corrected an essential element of ``caso`` (its notice runs again from it)."""
    import json

    for c in json.loads(rec.alteracoes or "{}").get("casos", []):
        if c.get("caso") == caso:
            return bool(c.get("essencial"))
    return False


def _pubs(items: set[tuple[str, date, str | None]]) -> str:
    return "; ".join(f"{m} em {ptbr.format_date(d)} ({v or 'sem veículo'})"
                     for m, d, v in sorted(items, key=lambda t: (t[1], t[0]))) or "nenhuma"


def _match_of(ledger_path: Location, sha: str) -> Match | None:
    with Ledger(ledger_path, readonly=True) as ledger:
        return next((m for m in ledger.by_hash(sha) if m.edital.estado == "publicado"), None)


# --------------------------------------------------------------------------------------------------
# a file against the register of the processos and/or the ledger of the editais


def verify_file_in(path: Path, *, registro: Location | None, livro: Location | None,
                   source: str = "--livro") -> LedgerVerification:
    """``autos conferir ARQUIVO`` with the register (``--registro``/``AUTOS_REGISTRO``) and/or the ledger
    (``--livro``/``AUTOS_LIVRO``): each one's lines (the code the file prints, and whether its SHA-256 is the one
    recorded for it), the ledger's first, as without the register; the file is confirmed when either knows it
    byte for byte. Without the register this is :func:`verify_file`."""
    if registro is None:
        return verify_file(path, livro, source=source)
    from autos.app.register.service import verify_document

    in_register = verify_document(path, registro)
    if livro is None:
        return LedgerVerification(path, in_register.linhas[1].removeprefix("SHA-256: "), registro,
                                  in_register.exit_code == 0, in_register.linhas)
    in_ledger = verify_file(path, livro, source=source)
    ok = in_ledger.confere or in_register.exit_code == 0
    where = [name for name, hit in (("livro de editais", in_ledger.confere),
                                     ("registro dos processos", in_register.exit_code == 0)) if hit]
    verdict = (f"Resultado: CONFERE ({' e '.join(where)})." if ok
               else "Resultado: NÃO CONFERE — nem o livro de editais nem o registro dos processos têm este arquivo.")
    return LedgerVerification(path, in_ledger.sha256, in_ledger.livro, ok,
                        [*in_ledger.linhas, "", "Registro dos processos:", *in_register.linhas, "", verdict])


@dataclass
class Outcome:
    """What ``autos conferir`` prints and its exit code; ``error`` (exit 2) is printed after ``text`` — the
    signatures already checked when the register or ledger then could not be used."""

    text: str
    exit_code: int
    error: AutosError | None = None


def check(arquivo: Path | None, *, processo: Path | None = None, livro: Location | None = None,
          registro: Location | None = None, codigo: str | None = None, anchors: Iterable[Path] = (),
          crls: Iterable[Path] = (), fetch: bool = False, as_json: bool = False, source: str = "--livro",
          rules_dir: Path | None = None) -> Outcome:
    """``autos conferir``: a typed verification code (``codigo``, in the register), or a file and/or a processo's
    edital against the ledger and the register, followed by the file's digital signatures (trusting only
    ``anchors``, revocation from ``crls``; the network only with ``fetch``). Unusable input raises
    :class:`AutosError`."""
    from autos.app.verification.conferir_assinaturas import conferir_output, signature_section, trust_from_options

    if codigo is not None:
        from autos.app.register.service import REGISTER_ENV, verify_code

        if registro is None:
            raise InputError("indique o registro em que procurar o código.", hint="autos conferir --codigo CÓDIGO "
                             f"--registro REGISTRO (ou a variável {REGISTER_ENV}).")
        found = verify_code(codigo, registro)
        return Outcome("\n".join(found.linhas), found.exit_code)
    if arquivo is None and processo is None:
        raise InputError("indique o arquivo publicado (PDF ou DOCX), o processo (--processo ARQUIVO.yaml) ou os dois.",
                         hint="autos conferir ARQUIVO.pdf --livro LIVRO, ou autos conferir --processo P.yaml --livro "
                         "LIVRO.")
    section = (signature_section(arquivo, trust_from_options(anchors, crls, fetch=fetch))
               if arquivo is not None else None)
    if section is not None and section.signed and livro is None and processo is None and registro is None:
        return Outcome(*conferir_output(arquivo, None, None, section, as_json=as_json))
    try:
        if processo is not None:
            result, kind = verify_processo(processo, livro, arquivo=arquivo, source=source,
                                           rules_dir=rules_dir), "processo"
        else:
            assert arquivo is not None
            result = verify_file_in(arquivo, registro=registro, livro=livro, source=source)
            kind = "registro" if livro is None and registro is not None else "livro"
    except AutosError as exc:
        if section is None:
            raise
        # what the signature check found, before the error of the register or ledger
        return Outcome("\n".join(section.linhas), 2, exc)
    return Outcome(*conferir_output(arquivo, result, kind, section, as_json=as_json))


#: ``autos conferir`` as a function (the public name of :func:`check`)
conferir = check
