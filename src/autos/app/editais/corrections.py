"""Corrections of a published edital, as SEI records them: retificação, republicação and cancelamento
(``autos retificar-edital``, ``autos republicar-edital``, ``autos cancelar-edital``).

* **retificação** — a new edital, the next number of the same gap-free series, that points to the edital it corrects
  and says what changed: the corrected case (or processo) files are compared with the cases the ledger recorded
  (``texto_caso``), field by field of what the edital publishes, and each difference is printed with the standard
  formula "onde se lê … leia-se …". When a change touches an essential element (the law's rules,
  ``edital_correcoes.essenciais``; the choice, with its reasons, in ``interpretacoes``, ``edital-retificacao``), the
  notice of that notified runs again from the retificação's publication, by the law's own edital rule, and the
  processo file gets the retificação as its edital act (so ``autos prazos`` counts from it); otherwise the dates of
  the edital corrected stand;
* **republicação** — the same content on a new date (the gazette did not come out): a new edital, the next number
  of the series, rendered from the cases the ledger recorded, with the new dates; its consolidated edital says which
  edital it republishes and why; each processo gets its edital act, and the deadlines follow the new date;
* **cancelamento** — the edital is marked cancelled with the date and the reason (never deleted: its number, cases
  and files stay); its cases are free to be published again; the edital act in each processo file becomes comments
  under a note saying why, so the timeline no longer counts it.

Every step is in the ledger and in the manifests (of the correction's date and, for a cancellation, of the edital's
own date). Errors (unknown edital, a cancelled or only reserved one, a second cancellation…) leave nothing written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from autos.app.editais.folder import _fsync_dir, _lock_folder
from autos.app.editais.jobs import Engine, Prepared, RunParams, _row, write_tmp
from autos.app.editais.manifest import CaseProblem, write_manifest
from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options, PublishResult
from autos.base import ptbr
from autos.base.yamlio import parse_yaml, read_limited
from autos.checks.acts import act_document
from autos.compute.edital import auto_index, edital_kinds, edital_rule, needs_newspaper
from autos.documents.context import ementa_clause, letterhead
from autos.documents.counting import counting_clause
from autos.errors import AutosError, CorrectionError, InputError, LedgerError, RecordError, os_error_pt
from autos.processo.load import from_doc as processo_from_doc
from autos.processo.load import is_processo_data
from autos.processo.load_case import LoadedCase, case_from_doc
from autos.render.gazette import verification_code, with_code
from autos.rules.statute import EDITAL_FIELDS, Statute
from autos.store.ledger import EDITAL_KINDS, Correction, EditalRecord, FileRecord, Ledger, PlannedCase, case_key
from autos.store.processo_file import EditalAct, cancel_edital, record_edital

EXIT_OK = 0
EXIT_NOT_RECORDED = 1  #: done, but some processo file could not take its act (listed)

RETIFICACAO_TEMPLATE = "edital_retificacao"


@dataclass(frozen=True)
class CorrectionOptions:
    livro: Path
    edital: str  # the ledger id ("7") or the number in the law's series ("3/2026", with ``lei``)
    motivo: str
    data: date  # retificação, republicação: the new publication (official press); cancelamento: its date
    lei: str | None = None
    casos: tuple[Path, ...] = ()  # retificação: the corrected case or processo files
    data_jornal: date | None = None  # where the law requires the newspaper; default: ``data``
    veiculo: str | None = None  # default: the edital corrected's
    jornal: str | None = None  # default: the edital corrected's
    rules_dir: Path | None = None
    templates_dir: Path | None = None
    today: date | None = None


@dataclass
class CorrectionResult:
    acao: Literal["retificacao", "republicacao", "cancelamento"]
    edital: EditalRecord  # the new edital (retificação, republicação) or the one cancelled
    corrigido: EditalRecord  # the edital corrected (the same as ``edital`` for a cancellation)
    linhas: list[str] = field(default_factory=list)
    registrados: list[str] = field(default_factory=list)
    nao_registrados: list[str] = field(default_factory=list)
    manifesto: list[Path] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return EXIT_NOT_RECORDED if self.nao_registrados else EXIT_OK


# --------------------------------------------------------------------------------------------------
# the edital to correct


_VERB = {"retificacao": "retificado", "republicacao": "republicado", "cancelamento": "cancelado"}


def _check_reason(motivo: str) -> str:
    text = motivo.strip()
    if not text:
        raise CorrectionError("o motivo está vazio: toda correção de edital diz por quê.",
                              hint='informe --motivo "…" (p. ex. "o diário oficial de 06/10/2026 não circulou").')
    bad = [c for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t"]
    if bad:
        raise CorrectionError(f"o motivo tem caractere de controle (U+{ord(bad[0]):04X}); nada foi gravado.",
                              hint="escreva o motivo só com texto.")
    return text


@contextlib.contextmanager
def _target(o: CorrectionOptions, acao: str) -> Iterator[tuple[Ledger, EditalRecord]]:
    """The ledger (locked, as a publication run would lock it) and the edital to correct, or a
    :class:`CorrectionError` saying why it cannot be ``acao`` — before anything is written."""
    _check_reason(o.motivo)
    if not o.livro.is_file():
        raise CorrectionError("livro de editais não encontrado.", file=o.livro,
                              hint="indique o livro em que o edital foi publicado (--livro).")
    ledger = Ledger(o.livro)
    try:
        ledger.lock()
        ref = o.edital.strip()
        if "/" in ref and o.lei is None:
            raise CorrectionError(f"o edital '{ref}' é um número de série: informe a lei com --lei (uma série por "
                                  "lei), ou use o número do edital no livro.", file=o.livro)
        rec = ledger.find(ref, o.lei)
        if rec is None:
            raise CorrectionError(f"o edital '{ref}'{f' ({o.lei})' if o.lei else ''} não existe no livro; nada foi "
                                  "gravado.", file=o.livro, hint="confira o número (N/AAAA, com --lei) ou o número do "
                                  "edital no livro; autos conferir ARQUIVO --livro LIVRO diz o edital de um arquivo.")
        if o.lei is not None and rec.lei != o.lei:
            raise CorrectionError(f"o edital {ref} do livro é da lei {rec.lei}, não de {o.lei}; nada foi gravado.",
                                  file=o.livro)
        if rec.estado != "publicado":
            raise CorrectionError(f"o edital {rec.rotulo} ({rec.lei}) só está reservado (uma publicação que não foi "
                                  f"concluída) e não pode ser {_VERB[acao]}; nada foi gravado.", file=o.livro,
                                  hint="rode autos publicar-editais com a mesma --data: a execução conclui (ou desfaz) "
                                  "a reserva primeiro.")
        if rec.cancelamento is not None:
            c = rec.cancelamento
            what = "já foi cancelado" if acao == "cancelamento" else "foi cancelado"
            raise CorrectionError(f"o edital {rec.rotulo} ({rec.lei}) {what} em {ptbr.format_date(c.data)} (motivo: "
                                  f"{c.motivo}) e não pode ser {_VERB[acao]}; nada foi gravado.", file=o.livro,
                                  hint="os casos de um edital cancelado voltam à publicação: rode autos "
                                  "publicar-editais.")
        yield ledger, rec
    finally:
        ledger.close()


def _no_live_corrections(ledger: Ledger, rec: EditalRecord, acao: str) -> None:
    live = [c for c in ledger.corrections(rec.id) if c.cancelamento is None]
    if live:
        last = live[-1]
        raise CorrectionError(f"o edital {rec.rotulo} ({rec.lei}) foi corrigido pelo edital {last.rotulo} "
                              f"({EDITAL_KINDS[last.tipo]} de {ptbr.format_date(last.data_publicacao)}) e não pode "
                              f"ser {_VERB[acao]} sem ele; nada foi gravado.", file=ledger.path,
                              hint=f"aja sobre o edital {last.rotulo}, ou cancele-o primeiro.")


def _municipio(lei: str) -> str:
    return lei.split("/", 1)[0]


def _is_processo(text: str, arquivo: str) -> bool:
    try:
        return is_processo_data(parse_yaml(text, arquivo, InputError).data)
    except AutosError:
        return False


def _rewrite_manifest(ledger: Ledger, data: date, saida: Path) -> list[Path]:
    """The manifest of ``data`` written again from the ledger, keeping the cases the publication run of that date
    listed as refused or already published (they are only in the manifest)."""
    result = PublishResult(data=data)
    old = saida / f"manifesto-editais-{data.isoformat()}.json"
    if old.is_file():
        try:
            doc = json.loads(old.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            why = os_error_pt(exc) if isinstance(exc, OSError) else "não é um JSON válido"
            raise CorrectionError(f"o manifesto existente não pôde ser lido ({why}); o livro já registra a correção.",
                                  file=old, hint="confira o arquivo; o manifesto é refeito pela próxima correção "
                                  "ou publicação da data.") from None
        for key, target in (("recusados", result.recusados), ("ja_publicados", result.ja_publicados)):
            for c in doc.get(key, []):
                target.append(CaseProblem(c["arquivo"], c.get("caso"), list(c.get("motivos", []))))
    return write_manifest(ledger, data, result, saida)


# --------------------------------------------------------------------------------------------------
# cancelamento


def cancel(o: CorrectionOptions) -> CorrectionResult:
    """Cancel a published edital with its reason (``autos cancelar-edital``)."""
    with _target(o, "cancelamento") as (ledger, rec):
        _no_live_corrections(ledger, rec, "cancelamento")
        if o.data < rec.data_publicacao:
            raise CorrectionError(f"a data do cancelamento ({ptbr.format_date(o.data)}) é anterior à publicação do "
                                  f"edital {rec.rotulo} ({ptbr.format_date(rec.data_publicacao)}); nada foi gravado.",
                                  file=o.livro, hint="confira --data.")
        full = ledger.edital(rec.id, text=True)
        assert full is not None
        folder_lock = _lock_folder(rec.saida)
        try:
            done = ledger.cancel(rec.id, o.data, _check_reason(o.motivo))
            out = CorrectionResult("cancelamento", done, done)
            why = done.cancelamento.motivo if done.cancelamento else ""
            out.linhas.append(f"cancelado: edital {rec.rotulo} ({rec.lei}), publicado em "
                              f"{ptbr.format_date(rec.data_publicacao)}; cancelamento de "
                              f"{ptbr.format_date(o.data)}; motivo: {why}")
            out.linhas.append("o edital continua no livro e os seus arquivos ficam onde estão (autos conferir diz que "
                              "foi cancelado).")
            for c in full.casos:
                live = ledger.case_edital(c.caso)
                out.linhas.append(f"auto {c.auto_numero}: " + (
                    "volta à publicação (nenhum edital vivo o notifica; rode autos publicar-editais)" if live is None
                    else f"continua notificado pelo edital {live[0].rotulo} de "
                         f"{ptbr.format_date(live[0].data_publicacao)}"))
            autos = Engine(_dir(o.rules_dir), _dir(o.templates_dir), o.today).autos
            kinds = edital_kinds(autos.processos.procedure(rec.lei))
            header = [f"EDITAL Nº {rec.numero}/{rec.ano} CANCELADO em {o.data:%d/%m/%Y} (autos cancelar-edital, "
                      "conforme o livro de editais)",
                      f"motivo: {' '.join(_check_reason(o.motivo).split())}",
                      "o ato abaixo não produz efeito"]
            for c in full.casos:
                if not _is_processo(c.texto_caso, c.arquivo):
                    continue
                try:
                    changed = cancel_edital(Path(c.arquivo), kinds, f"{rec.numero}/{rec.ano}", c.auto_numero, header)
                except AutosError as exc:
                    out.nao_registrados.append(f"{c.arquivo}: o cancelamento não foi anotado no processo: "
                                               f"{exc.render()}")
                    continue
                if changed:
                    out.registrados.append(c.arquivo)
            for d in sorted({rec.data_publicacao, o.data}):
                out.manifesto += _rewrite_manifest(ledger, d, rec.saida)
        finally:
            folder_lock.release()
        return out


def _dir(p: Path | None) -> str | None:
    return str(p) if p is not None else None


# --------------------------------------------------------------------------------------------------
# republicação


def republish(o: CorrectionOptions) -> CorrectionResult:
    """Publish a published edital again on a new date (``autos republicar-edital``): a new edital, the next number
    of the series, with the cases the ledger recorded."""
    with _target(o, "republicacao") as (ledger, rec):
        if rec.tipo == "retificacao":
            raise CorrectionError(f"o edital {rec.rotulo} ({rec.lei}) é uma retificação; para publicá-la de novo, "
                                  "rode autos retificar-edital com os mesmos arquivos corrigidos na nova data; nada "
                                  "foi gravado.", file=o.livro)
        _no_live_corrections(ledger, rec, "republicacao")
        if o.data <= rec.data_publicacao:
            raise CorrectionError(f"a republicação ({ptbr.format_date(o.data)}) tem de ser depois da publicação do "
                                  f"edital {rec.rotulo} ({ptbr.format_date(rec.data_publicacao)}); nada foi gravado.",
                                  file=o.livro, hint="confira --data: é a data em que o edital sai de novo.")
        full = ledger.edital(rec.id, text=True)
        assert full is not None
        motivo = " ".join(_check_reason(o.motivo).split())
        municipio = _municipio(rec.lei)
        veiculo = o.veiculo or rec.veiculo
        jornal = o.jornal or rec.jornal
        publisher = Publisher(Options(
            casos=(), data=o.data, saida=rec.saida, data_jornal=o.data_jornal, veiculos=((municipio, veiculo),),
            jornais=((municipio, jornal),) if jornal else (), livro=o.livro, workers=1, rules_dir=o.rules_dir,
            templates_dir=o.templates_dir, today=o.today))
        when = ptbr.format_date(rec.data_publicacao) + (f" ({rec.veiculo})" if rec.veiculo else "")
        nota = (f"Este edital republica o Edital de Notificação Nº {rec.numero}/{rec.ano}, publicado em {when}. "
                f"Motivo: {motivo}. A notificação considera-se feita, e os prazos correm, a partir desta "
                "republicação.")
        publisher.correction = Correction("republicacao", rec.id, motivo, json.dumps({"nota": nota},
                                                                                      ensure_ascii=False))
        folder_lock = _lock_folder(rec.saida)
        try:
            published, items = publisher.publish_cases(ledger, rec.lei, full.casos)
            new = ledger.edital(published.id)
            assert new is not None
            out = CorrectionResult("republicacao", new, rec)
            out.linhas.append(f"republicado: edital {rec.rotulo} ({rec.lei}) como edital {new.rotulo}, "
                              f"{new.publication_phrase}; motivo: {motivo}")
            out.linhas.append("numeração: a republicação leva o número seguinte da série (um número por publicação; "
                              f"o edital {rec.rotulo} fica no livro, apontado por ela).")
            out.linhas += _dates_lines(items)
            out.registrados = list(publisher.result.registrados)
            out.nao_registrados = [f"{c.arquivo}: {' | '.join(c.motivos)}" for c in publisher.result.nao_registrados]
            out.linhas.append(f"caderno: {published.caderno}")
            out.manifesto = _rewrite_manifest(ledger, o.data, rec.saida)
        finally:
            folder_lock.release()
        return out


def _dates_lines(items: list[Prepared]) -> list[str]:
    out = []
    for p in items:
        if p.linha is None:
            continue
        prazos = "; ".join(f"{d['descricao']} até {d['data']}" for d in p.linha["prazos"] if d["data"])
        out.append(f"auto {p.auto_numero}: notificação considerada feita em {p.linha['notificacao_em']}"
                   + (f"; {prazos}" if prazos else "") + f" — {p.linha['efeito']}")
    return out


# --------------------------------------------------------------------------------------------------
# retificação


@dataclass
class _Corrected:
    """One corrected case: the file, the case it corrects, and what changed."""

    path: Path
    text: str
    sha256: str
    planned: PlannedCase  # the case as the ledger recorded it (its latest live edital)
    auto_numero: str
    nome: str
    changes: list[dict[str, Any]]
    essential: bool
    row: dict[str, Any]  # the dates that hold for this notified (new ones when essential)
    processo: bool


def _auto_of(eng: Engine, text: str, path: str) -> tuple[LoadedCase, Statute]:
    """The auto a case or processo text publishes (for a processo: its auto act's document), without asking whether
    it still needs an edital (a corrected processo already has the edital act)."""
    doc = parse_yaml(text, path, InputError)
    if not is_processo_data(doc.data):
        loaded = case_from_doc(doc)
        return loaded, eng.autos.statute_of(loaded)
    proc_loaded = processo_from_doc(doc)
    lei = proc_loaded.processo.lei
    statute = eng.autos.rules.get(lei)
    proc = eng.autos.processos.procedure(lei)
    i = auto_index(proc_loaded, proc)
    document = act_document(proc_loaded, i, proc, statute) if i is not None else None
    if document is None:
        raise InputError("o processo não tem o auto de infração com data; não há o que retificar.", file=path,
                         path="atos")
    return document.loaded, statute


def _published_fields(row: dict[str, Any], loaded: LoadedCase) -> dict[str, str]:
    """What the edital prints of one notified, by :data:`EDITAL_FIELDS` key, as text."""
    infracoes = "; ".join(i["citacao"] + (f" ({i['complemento']})" if i.get("complemento") else "")
                          for i in row["infracoes"])
    multa = (f"{row['multa_unidades']}, correspondente a {row['multa_reais']}" if row["multa_unidades"]
             else "não há multa neste auto")
    agente = loaded.case.agente
    return {
        "nome": row["nome"],
        "documento": f"{row['documento_rotulo']} {row['documento']}".strip(),
        "auto": row["auto"],
        "auto_data": row["auto_data"],
        "processo": row["processo"] or "",
        "infracoes": infracoes,
        "multa": multa,
        "agente": ", ".join(x for x in (agente.nome, agente.cargo) if x) if agente is not None else "",
    }


def rectify(o: CorrectionOptions) -> CorrectionResult:
    """Publish the retificação of a published edital from the corrected case files (``autos retificar-edital``)."""
    if not o.casos:
        raise CorrectionError("indique os arquivos corrigidos (processos ou casos) do edital a retificar.",
                              hint="autos retificar-edital N/AAAA --lei LEI --motivo \"…\" PROCESSO.yaml …")
    with _target(o, "retificacao") as (ledger, rec):
        motivo = " ".join(_check_reason(o.motivo).split())
        full = ledger.edital(rec.id, text=True)
        assert full is not None
        eng = Engine(_dir(o.rules_dir), _dir(o.templates_dir), o.today)
        statute = eng.autos.rules.get(rec.lei)
        law = eng.law(statute)
        rule = edital_rule(law)
        assert rule is not None  # the edital was published under it
        municipio = _municipio(rec.lei)
        veiculo = o.veiculo or rec.veiculo
        jornal = (o.jornal or rec.jornal) if needs_newspaper(rule) else None
        dirs = (_dir(o.rules_dir), _dir(o.templates_dir), o.today)
        old_params = RunParams(rec.data_publicacao, rec.data_jornal or rec.data_publicacao, *dirs,
                               veiculos=((municipio, rec.veiculo),),
                               jornais=((municipio, rec.jornal),) if rec.jornal else (), emissao=rec.data_edital)
        new_params = RunParams(o.data, o.data_jornal or o.data, *dirs, veiculos=((municipio, veiculo),),
                               jornais=((municipio, jornal),) if jornal else (), emissao=o.today)
        if o.data < rec.data_publicacao:
            raise CorrectionError(f"a retificação ({ptbr.format_date(o.data)}) não pode sair antes do edital "
                                  f"{rec.rotulo} ({ptbr.format_date(rec.data_publicacao)}); nada foi gravado.",
                                  file=o.livro, hint="confira --data.")
        ano = o.data.year
        numero_new = f"{ledger.next_number(rec.lei, ano)}/{ano}"
        corrected = [_compare(eng, ledger, full, statute, path, old_params, new_params, numero_new)
                     for path in _unique(o.casos)]
        keys = [c.planned.caso for c in corrected]
        if len(set(keys)) != len(keys):
            raise CorrectionError("dois arquivos corrigidos são do mesmo auto; indique um arquivo por auto.",
                                  file=o.livro)
        folder_lock = _lock_folder(rec.saida)
        try:
            return _publish_rectification(eng, ledger, rec, statute, corrected, motivo, new_params, o)
        finally:
            folder_lock.release()


def _unique(paths: tuple[Path, ...]) -> list[Path]:
    return list(dict.fromkeys(p.resolve() for p in paths))


def _compare(eng: Engine, ledger: Ledger, full: EditalRecord, statute: Statute, path: Path, old_params: RunParams,
             new_params: RunParams, numero_new: str) -> _Corrected:
    """One corrected file against the case the ledger recorded: which case, what changed, the dates that hold."""
    raw = read_limited(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("o arquivo não está em UTF-8.", file=path) from None
    new_case, new_statute = _auto_of(eng, text, str(path))
    if new_statute.id != full.lei:
        raise CorrectionError(f"o arquivo é da lei {new_statute.id}, e o edital {full.rotulo} é da lei {full.lei}.",
                              file=path)
    numero = new_case.case.numero or ""
    try:
        key = case_key(full.lei, numero)
    except ValueError:
        key = ""
    planned = next((c for c in full.casos if c.caso == key), None)
    if planned is None:  # the auto's number itself is what is corrected: the same file the edital published
        planned = next((c for c in full.casos if Path(c.arquivo).resolve() == path), None)
    if planned is None:
        autos = ", ".join(c.auto_numero for c in full.casos)
        raise CorrectionError(f"o arquivo não é de nenhum caso do edital {full.rotulo} ({full.lei}): o auto "
                              f"{numero or '(sem número)'} não está nele (autos do edital: {autos}).", file=path,
                              hint="indique o arquivo corrigido de um auto publicado neste edital.")
    latest = ledger.case_edital(planned.caso, text=True)
    base_text = latest[1].texto_caso if latest is not None and latest[1].texto_caso else planned.texto_caso
    base_file = latest[1].arquivo if latest is not None else planned.arquivo
    old_case, _statute = _auto_of(eng, base_text, base_file)
    law = eng.law(statute)
    numero_old = f"{full.numero}/{full.ano}"
    old_row = _row(eng, old_case, statute, law, old_params, numero_old)
    same_dates_row = _row(eng, new_case, statute, law, old_params, numero_old)
    before, after = _published_fields(old_row, old_case), _published_fields(same_dates_row, new_case)
    rules = statute.edital_correcoes
    essentials = set(rules.essenciais) if rules is not None else set(EDITAL_FIELDS)  # silent rules: all are
    changes = [{"campo": k, "rotulo": label, "onde_se_le": before[k], "leia_se": after[k], "essencial": k in essentials}
               for k, label in EDITAL_FIELDS.items() if before[k] != after[k]]
    if not changes:
        raise CorrectionError(f"o arquivo corrigido não muda nada do que o edital {full.rotulo} publicou do auto "
                              f"{planned.auto_numero} (nome, CPF/CNPJ, auto, dispositivo, multa, processo, quem "
                              "expede); a retificação só corrige o que o edital publica. Nada foi gravado.", file=path,
                              hint="corrija o arquivo do caso antes de retificar, ou retire-o da lista.")
    essential = any(c["essencial"] for c in changes)
    row = _row(eng, new_case, statute, law, new_params, numero_new) if essential else old_row
    return _Corrected(path, text, hashlib.sha256(raw).hexdigest(), planned, numero, after["nome"], changes, essential,
                      row, _is_processo(text, str(path)))


def _publish_rectification(eng: Engine, ledger: Ledger, rec: EditalRecord, statute: Statute,
                           corrected: list[_Corrected], motivo: str, params: RunParams,
                           o: CorrectionOptions) -> CorrectionResult:
    law = eng.law(statute)
    rule = edital_rule(law)
    assert rule is not None
    pub = params.publication(statute, rule, "")
    data_jornal = params.data_jornal if needs_newspaper(rule) else None
    if needs_newspaper(rule) and pub.jornal is None:  # pragma: no cover - the edital corrected named one
        raise CorrectionError("a lei exige o jornal e ele não foi informado (--jornal).", file=o.livro)
    if statute.edital_assinatura is None:
        raise CorrectionError(f"as regras da lei ({statute.file}) não dizem quem assina o edital (edital_assinatura); "
                              "nada foi gravado.")
    municipio, lei_stem = rec.lei.split("/", 1)
    interp = next((i for i in statute.interpretacoes if statute.edital_correcoes is not None
                   and i.id == statute.edital_correcoes.interpretacao), None)
    escolha = (f"Efeito da retificação sobre a notificação — escolha '{interp.id}' das regras da lei "
               f"({statute.cite(interp.citacao)}): {' '.join(interp.escolha.split())}" if interp is not None else
               "As regras da lei não dizem quais correções são essenciais: toda correção é tratada como essencial "
               "(a notificação corre de novo da retificação).")
    alteracoes = json.dumps({
        "casos": [{"caso": c.planned.caso, "auto": c.auto_numero, "essencial": c.essential,
                   "notificacao_em": c.row["notificacao_em"], "alteracoes": c.changes} for c in corrected],
        "escolha": escolha}, ensure_ascii=False)
    casos = [PlannedCase(i + 1, c.planned.caso, c.auto_numero, str(c.path), c.sha256, c.text, c.planned.motivo)
             for i, c in enumerate(corrected)]

    def files_for(numero: int) -> list[FileRecord]:
        base = f"{rec.lei.replace('/', '-')}-{o.data.year}-{numero:04d}"
        rel = Path(municipio) / lei_stem / str(o.data.year) / f"edital-{numero:04d}" / f"retificacao-{base}.pdf"
        if (rec.saida / rel).exists():
            raise LedgerError(f"o arquivo da retificação já existe e este livro não o registrou: {rel}; nada foi "
                              "gravado.", file=rec.saida)
        return [FileRecord("edital_consolidado", str(rel), None,
                           verification_code(rec.lei, str(o.data.year), str(numero), "edital_retificacao"))]

    new = ledger.reserve(rec.lei, params.data, data_jornal, pub.data_edital, pub.veiculo, pub.jornal, rec.saida, casos,
                         files_for, correction=Correction("retificacao", rec.id, motivo, alteracoes))
    f = new.arquivos[0]
    final = new.saida / f.caminho
    tmp = final.with_name(f".{final.name}.tmp")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        assert f.codigo is not None
        ctx = _rectification_context(eng, statute, rec, new, corrected, motivo, escolha, law)
        html = eng.autos.pdf_renderer.html(RETIFICACAO_TEMPLATE, with_code(ctx, f.codigo))
        written = write_tmp(tmp, eng.pdf(html))
        os.replace(tmp, final)
        _fsync_dir(final.parent)
        ledger.commit(new.id, {f.caminho: (written.sha256, written.bytes)})
    except BaseException:
        for path in (tmp, final):
            with contextlib.suppress(OSError):
                path.unlink()
        with contextlib.suppress(OSError):
            final.parent.rmdir()
        with contextlib.suppress(AutosError):
            ledger.undo(new.id)
        raise
    done = ledger.edital(new.id)
    assert done is not None
    out = CorrectionResult("retificacao", done, rec)
    out.linhas.append(f"retificação: edital {done.rotulo} ({done.lei}), {done.publication_phrase}, retifica o edital "
                      f"{rec.rotulo} de {ptbr.format_date(rec.data_publicacao)}; motivo: {motivo}")
    for c in corrected:
        for ch in c.changes:
            out.linhas.append(f"auto {c.auto_numero}: {ch['rotulo']}: onde se lê \"{ch['onde_se_le']}\", leia-se "
                              f"\"{ch['leia_se']}\"" + (" (elemento essencial)" if ch["essencial"] else ""))
        prazos = "; ".join(f"{d['descricao']} até {d['data']}" for d in c.row["prazos"] if d["data"])
        if c.essential:
            out.linhas.append(f"auto {c.auto_numero}: a notificação corre de novo da retificação: considerada feita em "
                              f"{c.row['notificacao_em']}" + (f"; {prazos}" if prazos else "")
                              + f" — {c.row['efeito']}")
        else:
            out.linhas.append(f"auto {c.auto_numero}: correção não essencial: ficam a notificação de "
                              f"{c.row['notificacao_em']} e os prazos do edital {rec.rotulo}"
                              + (f" ({prazos})" if prazos else ""))
    out.linhas.append(escolha)
    out.linhas.append(f"arquivo: {final}")
    kinds = edital_kinds(eng.autos.processos.procedure(rec.lei))
    lei = statute.lei
    for c in corrected:
        if not (c.essential and c.processo):
            continue  # the dates of the edital corrected stand: the processo keeps its edital act as it is
        pubs: list[tuple[date, Literal["oficial", "jornal"], str]] = [(done.data_publicacao, "oficial", done.veiculo)]
        if done.jornal and done.data_jornal:
            pubs.append((done.data_jornal, "jornal", done.jornal))
        act = EditalAct(kinds[0], f"{done.numero}/{done.ano}", done.data_edital, c.auto_numero,
                        f"{lei.municipio}/{lei.uf}", tuple(pubs),
                        f"retificação {done.rotulo} do edital {rec.rotulo} ({rec.lei}), acrescentada por autos "
                        "retificar-edital conforme o livro de editais: a notificação corre de novo da sua publicação")
        try:
            if record_edital(c.path, act):
                out.registrados.append(str(c.path))
        except (RecordError, AutosError) as exc:
            out.nao_registrados.append(f"{c.path}: retificação {done.rotulo} publicada, mas não registrada no "
                                       f"processo: {exc.render()}")
    out.manifesto = _rewrite_manifest(ledger, done.data_publicacao, rec.saida)
    return out


def _rectification_context(eng: Engine, statute: Statute, rec: EditalRecord, new: EditalRecord,
                           corrected: list[_Corrected], motivo: str, escolha: str, law: Any) -> dict[str, Any]:
    lei = statute.lei
    rule = edital_rule(law)
    assert rule is not None and statute.edital_assinatura is not None
    place = f"{lei.municipio}/{lei.uf}"
    orgao = " ".join(lei.orgao.split())
    signer = statute.edital_assinatura
    titulo = f"Retificação — Edital de Notificação nº {new.numero}/{new.ano}"
    published = ptbr.format_date(rec.data_publicacao) + f" ({rec.veiculo}" + (
        f"; {rec.jornal}, em {ptbr.format_date(rec.data_jornal)}" if rec.jornal and rec.data_jornal else "") + ")"
    preambulo = (f"O MUNICÍPIO DE {lei.municipio.upper()}, com fundamento na {rule.base_legal}, RETIFICA o Edital de "
                 f"Notificação Nº {rec.numero}/{rec.ano}, publicado em {published}, nos pontos abaixo; o mais do "
                 "edital retificado permanece como publicado.")
    casos = []
    for c in corrected:
        if c.essential:
            efeito = (f"Correção de elemento essencial: a notificação deste notificado considera-se feita em "
                      f"{c.row['notificacao_em']}, contada da publicação desta retificação — {c.row['efeito']}")
            prazos = [{"descricao": d["descricao"], "data": d["data"], "base_legal": d["base_legal"]}
                      for d in c.row["prazos"]]
        else:
            efeito = (f"Correção que não toca elemento essencial: permanecem a notificação feita em "
                      f"{c.row['notificacao_em']} e os prazos do Edital Nº {rec.numero}/{rec.ano}.")
            prazos = []
        casos.append({"auto": c.auto_numero, "nome": c.nome, "alteracoes": c.changes, "efeito": efeito,
                      "prazos": prazos})
    exemplo = ("ATENÇÃO: o nome e o cargo de quem assina este edital são EXEMPLOS das regras do sistema, não os da "
               "autoridade designada pelo Município.") if signer.exemplo else ""
    issued = new.data_edital
    return {
        "cabecalho": letterhead(statute, eng.autos.letterhead(statute)),
        "lei": {"rotulo": lei.label, "ementa_oracao": ementa_clause(lei.ementa)},
        "edital": {
            "numero": f"{new.numero}/{new.ano}", "forma": rule.descricao, "base_legal": rule.base_legal,
            "preambulo": preambulo, "motivo": motivo, "veiculo": new.veiculo,
            "data_publicacao": ptbr.format_date(new.data_publicacao), "jornal": new.jornal or "",
            "data_jornal": ptbr.format_date(new.data_jornal) if new.data_jornal else "", "escolha": escolha,
            "contagem": counting_clause(law) if any(c["prazos"] for c in casos) else None,
            "fecho": (f"Esta retificação, Nº {new.numero}/{new.ano}, é publicada uma única vez: {new.veiculo}"
                      + (f", e {new.jornal}" if new.jornal else "") + "."),
        },
        "casos": casos,
        "exemplo_aviso": exemplo,
        "assinatura": {"nome": signer.nome, "cargo": signer.cargo},
        "local_data": f"{place}, {ptbr.format_date(issued)}.",
        "rodape": f"{titulo} — {lei.label} — {place}",
        "metadados": {
            "titulo": f"{titulo} — {place}", "autor": f"Prefeitura Municipal de {lei.municipio} — {orgao}",
            "assunto": f"Retificação do Edital nº {rec.numero}/{rec.ano} — {lei.label}",
            "palavras_chave": f"retificação, edital de notificação, {lei.label}, {lei.municipio}",
        },
    }


def summary(result: CorrectionResult) -> str:
    lines = list(result.linhas)
    for arquivo in result.registrados:
        what = "cancelamento anotado" if result.acao == "cancelamento" else "edital registrado"
        lines.append(f"{what} no processo: {arquivo}")
    for item in result.nao_registrados:
        lines.append(f"NÃO registrado no processo: {item}")
    if result.manifesto:
        lines.append("manifesto: " + ", ".join(str(p) for p in result.manifesto))
    return "\n".join(lines)


#: the public names of the three corrections (``autos retificar-edital``, ``republicar-edital``, ``cancelar-edital``)
rectify_edital = rectify
republish_edital = republish
cancel_published_edital = cancel

__all__ = ["CorrectionError", "CorrectionOptions", "CorrectionResult", "cancel", "cancel_published_edital", "rectify",
           "rectify_edital", "republish", "republish_edital", "summary"]
