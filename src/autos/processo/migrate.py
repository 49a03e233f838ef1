"""`autos migrar`: old single-document case files grouped into processo files.

An old case file describes ONE document (``documento:``) and repeats the autuado, the facts and the
infractions of its processo. :func:`migrate_cases` groups the documents of the same auto (law + auto
number: the auto's own ``numero``, or the ``auto.numero`` a notice, edital, termo or statement refers to),
turns each document and each fact it states into acts of the processo, orders the acts by date and
returns the processo files' text. What has no place in a processo (a debit statement is generated from the
decision that keeps the fine; a witness of a termo) or disagrees between the documents is *not mapped*:
reported with the file, the line and why — never dropped in silence, never guessed.

Values are copied as the clerk typed them (from the YAML, not from the typed model): ``"031/2026"`` stays
``"031/2026"``. No file I/O here (see :func:`autos.app.processo.service.migrate_files`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autos.base.yamlio import PathKey, format_path
from autos.errors import AutosError
from autos.processo.load import parse_processo
from autos.processo.load_case import LoadedCase

__all__ = [
    "Migrated", "MigrationReport", "Unmapped", "dump_yaml", "leading_comments", "migrate_cases", "old_file_notice",
    "processo_file_name",
]

#: act kinds in the order they are put when two acts share a date (the auto first, the decision last)
_KIND_ORDER = ("notificacao_preliminar", "auto", "apreensao", "notificacao_pessoal", "notificacao_recusa",
               "notificacao_ar", "edital", "defesa", "julgamento", "recurso", "decisao_recurso")
#: notice form of an old ``notificacao.forma`` → act kind
_NOTICE_KIND = {"pessoal": "notificacao_pessoal", "recusa": "notificacao_recusa", "ar": "notificacao_ar",
                "edital": "edital"}
#: processo-level fields, in the order they are written
_PROCESSO_KEYS = ("lei", "numero", "autuado", "local", "data_infracao", "fatos", "infracoes", "atos")
_ACT_KEYS = ("tipo", "numero", "data", "hora", "postagem", "recebimento", "devolucao", "juntada", "publicacoes",
             "referente", "local", "agente", "circunstancias", "penalidades", "assinaturas", "testemunha",
             "itens", "fiel_depositario", "local_deposito", "recolhimento", "descricao", "exigencia", "resultado",
             "valor", "autoridade", "fundamentacao", "observacoes")
_NUM = re.compile(r"^\s*0*(\d+)\s*/\s*(\d{4})\s*$")


def old_file_notice(file: Path | str) -> str:
    """The notice printed (stderr) when an old single-document file is read."""
    return (f"aviso: {file}: arquivo antigo, de um só documento (sem a lista 'atos:'). Ele ainda é "
            "lido, mas a unidade agora é o processo, com todos os seus atos num só arquivo: converta com "
            f"`autos migrar {file} -o PASTA` (o arquivo antigo não é alterado).")


@dataclass(frozen=True)
class Unmapped:
    """Something of an old file that the processo does not carry (or carries from another file)."""

    file: Path
    line: int | None
    path: str
    motivo: str

    def render(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.path}: {self.motivo}" if self.path else f"{where}: {self.motivo}"

    def to_dict(self) -> dict[str, Any]:
        return {"arquivo": str(self.file), "linha": self.line, "caminho": self.path or None, "motivo": self.motivo}


@dataclass
class Migrated:
    """One processo made of old files."""

    lei: str
    numero: str
    sources: list[Path]
    data: dict[str, Any]
    text: str
    nao_mapeado: list[Unmapped] = field(default_factory=list)

    @property
    def file_name(self) -> str:
        return processo_file_name(self.lei, self.numero)


@dataclass
class MigrationReport:
    """What :func:`migrate_cases` made: the processos, and the groups it could not make (with why)."""

    processos: list[Migrated] = field(default_factory=list)
    recusados: list[Unmapped] = field(default_factory=list)


def processo_file_name(lei: str, numero: str) -> str:
    """``timoteo-mg/lei-3844-2022`` + ``SIM-2026/000157`` → ``timoteo-mg/sim-2026-000157.yaml``."""
    slug = re.sub(r"[^0-9a-z]+", "-", numero.casefold()).strip("-") or "processo"
    return f"{lei.split('/', 1)[0]}/{slug}.yaml"


def _number_key(numero: Any) -> str | None:
    if not isinstance(numero, str) or not numero.strip():
        return None
    m = _NUM.match(numero)
    return f"{int(m.group(1))}/{m.group(2)}" if m else numero.strip()


class _Source:
    """One old file: its raw data (as typed), typed case and lines."""

    def __init__(self, loaded: LoadedCase, comments: list[str]) -> None:
        self.loaded = loaded
        self.comments = comments
        self.case = loaded.case
        self.raw: dict[str, Any] = loaded.doc.data
        self.file = loaded.file

    def get(self, *path: str | int) -> Any:
        cur: Any = self.raw
        for p in path:
            if isinstance(p, int):
                if not isinstance(cur, list) or p >= len(cur):
                    return None
            elif not isinstance(cur, dict) or p not in cur:
                return None
            cur = cur[p]
        return cur

    def note(self, path: PathKey, motivo: str) -> Unmapped:
        return Unmapped(self.file, self.loaded.line_of(path) if path else 1, format_path(path) if path else "",
                        motivo)

    @property
    def kind(self) -> str:
        return self.case.documento

    @property
    def auto_number(self) -> str | None:
        if self.kind == "auto_de_infracao":
            return _number_key(self.get("numero"))
        return _number_key(self.get("auto", "numero"))

    @property
    def sort_key(self) -> tuple[str, int]:
        d = self.case.lavratura.data
        return (d.isoformat() if d else "9999", 0 if self.kind == "auto_de_infracao" else 1)


def leading_comments(text: str) -> list[str]:
    """The comment lines at the top of a file (what the clerk wrote about the case)."""
    out = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        out.append(line)
    return out


def migrate_cases(cases: Iterable[LoadedCase], comments: Mapping[Path, list[str]] | None = None) -> MigrationReport:
    """Group the old files by auto (law + auto number) and make one processo of each group; ``comments``:
    each file's leading comments (:func:`leading_comments`), carried to the top of its processo."""
    groups: dict[tuple[str, str], list[_Source]] = {}
    loose: list[_Source] = []
    for lc in cases:
        s = _Source(lc, list((comments or {}).get(lc.file, [])))
        n = s.auto_number
        if n is None:
            loose.append(s)
        else:
            groups.setdefault((lc.case.lei, n), []).append(s)
    # a document that names no auto joins the group of its processo number, if one has it
    by_processo = {(k[0], str(s.get("processo")).strip()): k for k, ss in groups.items() for s in ss
                   if s.get("processo")}
    for s in loose:
        key = by_processo.get((s.case.lei, str(s.get("processo") or "").strip()))
        if key is not None and s.get("processo"):
            groups[key].append(s)
        else:
            groups[(s.case.lei, f"arquivo:{s.file}")] = [s]
    report = MigrationReport()
    for sources in groups.values():
        sources.sort(key=lambda s: s.sort_key)
        _Group(sources).build(report)
    report.processos.sort(key=lambda m: (m.lei, m.numero))
    return report


class _Group:
    def __init__(self, sources: list[_Source]) -> None:
        self.sources = sources
        self.notes: list[Unmapped] = []
        self.acts: list[tuple[dict[str, Any], _Source, PathKey]] = []  # (act, its file, where in it)

    # --- processo-level fields --------------------------------------------------------------------
    def primary(self) -> _Source:
        """The document the processo's fields come from: the auto, else the earliest."""
        return next((s for s in self.sources if s.kind == "auto_de_infracao"), self.sources[0])

    def pick(self, key: str) -> Any:
        """``key`` from the primary document (else the first that has it); other documents that state it
        differently are reported, value by value, with their lines."""
        first = self.primary()
        owner = first if first.get(key) is not None else next((s for s in self.sources if s.get(key) is not None),
                                                                None)
        if owner is None:
            return None
        value = owner.get(key)
        for s in self.sources:
            if s is owner or s.get(key) is None:
                continue
            for path in _conflicts(value, s.get(key), (key,)):
                self.notes.append(s.note(path, f"difere do valor em {owner.file.name} (linha "
                                               f"{owner.loaded.line_of(path)}); o processo fica com o de "
                                               f"{owner.file.name}."))
        return value

    def build(self, report: MigrationReport) -> None:
        first = self.primary()
        lei = first.case.lei
        numero = self.pick("processo")
        if not isinstance(numero, str) or not numero.strip():
            report.recusados.append(first.note(("processo",) if first.get("processo") is not None else (),
                                               "sem número de processo ('processo:'): nenhum dos arquivos "
                                               f"deste auto ({', '.join(s.file.name for s in self.sources)}) o "
                                               "informa; preencha 'processo:' no arquivo antigo e rode de novo."))
            return
        for s in self.sources:
            self.add_document(s)
        self.merge_auto()
        acts = self.ordered()
        data: dict[str, Any] = {"lei": lei, "numero": numero.strip(), "autuado": self.pick("autuado")}
        local = self.place()
        if local is not None:
            data["local"] = local
        for key in ("data_infracao", "fatos", "infracoes"):
            value = self.pick(key)
            if value is not None:
                data[key] = value
        data["atos"] = acts
        text = _header(self.sources) + dump_yaml(data)
        try:
            parse_processo(text, processo_file_name(lei, numero))  # what is written must read back as a processo
        except AutosError as exc:
            report.recusados.append(first.note((), f"o processo {numero.strip()} montado de "
                                               f"{', '.join(s.file.name for s in self.sources)} não seria um arquivo "
                                               f"de processo válido ({exc}); não gravado."))
            return
        report.processos.append(Migrated(lei, numero.strip(), [s.file for s in self.sources], data, text,
                                         self.notes))

    def place(self) -> Any:
        """Where the infraction was found: the auto's place, else the apprehension's."""
        auto = next((s for s in self.sources if s.kind == "auto_de_infracao"), None)
        if auto is not None and auto.get("lavratura", "local"):
            return auto.get("lavratura", "local")
        termo = next((s for s in self.sources if s.kind == "termo_apreensao"), None)
        if termo is not None:
            return termo.get("apreensao", "local") or termo.get("lavratura", "local")
        return None

    # --- acts -------------------------------------------------------------------------------------
    def add(self, act: dict[str, Any], s: _Source, where: PathKey = ("documento",)) -> None:
        self.acts.append(({k: v for k, v in act.items() if v is not None and v != [] and v != {}}, s, where))

    def add_document(self, s: _Source) -> None:
        kind = s.kind
        auto_ref = s.get("numero") if kind == "auto_de_infracao" else s.get("auto", "numero")
        if kind == "auto_de_infracao":
            self.add({"tipo": "auto", "numero": s.get("numero"), "data": s.get("lavratura", "data"),
                      "hora": s.get("lavratura", "hora"), "local": s.get("lavratura", "local"),
                      "agente": s.get("agente"), "circunstancias": s.get("circunstancias"),
                      "penalidades": s.get("penalidades"), "assinaturas": s.get("assinaturas"),
                      "observacoes": s.get("observacoes")}, s)
        elif kind == "notificacao_ar":
            self.auto_from_reference(s)
            ar = s.get("notificacao", "ar") or {}
            act = self.ar_act(s, ar, ("notificacao", "ar"))
            act.update({"numero": s.get("numero"), "local": s.get("lavratura", "local"), "agente": s.get("agente"),
                        "observacoes": s.get("observacoes")})
            if s.get("notificacao", "forma") not in (None, "ar"):
                self.notes.append(s.note(("notificacao", "forma"), "a carta com AR declara outra forma de "
                                         "notificação; não mapeada."))
            self.add(act, s)
            return
        elif kind == "edital_notificacao":
            self.auto_from_reference(s)
            ed = s.get("notificacao", "edital") or {}
            pubs = self.publications(s, ed)
            if not pubs:
                self.notes.append(s.note(("notificacao",), "o edital não informa publicação "
                                         "(notificacao.edital.data_publicacao): preencha atos[].publicacoes."))
            drawn = s.get("lavratura", "data")
            if pubs and drawn is not None and drawn != min(str(x["data"]) for x in pubs):
                # the act is dated its first publication: the edital's document states what was known then
                self.notes.append(s.note(("lavratura", "data"), f"data do edital ({drawn}) não mapeada: o ato de "
                                         "edital tem a data da publicação (a primeira)."))
            self.add({"tipo": "edital", "numero": s.get("numero"), "data": None if pubs else drawn,
                      "publicacoes": pubs, "referente": auto_ref, "local": s.get("lavratura", "local"),
                      "agente": s.get("agente"), "observacoes": s.get("observacoes")}, s)
            return
        elif kind == "termo_apreensao":
            self.auto_from_reference(s)
            self.add(self.apprehension(s), s)
            return
        elif kind == "demonstrativo_debito":
            self.auto_from_reference(s)
            self.notes.append(s.note(("documento",), f"o demonstrativo de débito{_n(s)} não vira ato: no processo "
                                     "ele é gerado da decisão do recurso que mantém a multa (ato "
                                     "'decisao_recurso', resultado 'mantida'); registre a decisão para gerá-lo."))
        elif kind == "notificacao_preliminar":
            self.add(self.preliminary(s), s)
            return
        elif kind == "decisao" and s.get("decisao") is not None:
            self.auto_from_reference(s)
            self.decision(s)
        else:
            self.notes.append(s.note(("documento",), f"documento '{kind}'{_n(s)} sem ato correspondente no "
                                     "processo; não mapeado (registre-o à mão, veja autos regras mostrar LEI)."))
            self.auto_from_reference(s)
        notice = s.get("notificacao")
        if isinstance(notice, dict) and auto_ref is not None:
            self.notice(s, notice, auto_ref)

    def notice(self, s: _Source, n: dict[str, Any], auto_ref: Any) -> None:
        forma = n.get("forma")
        kind = _NOTICE_KIND.get(str(forma))
        if kind is None:
            return
        act: dict[str, Any] = {"tipo": kind, "referente": auto_ref}
        if forma in ("pessoal", "recusa"):
            act["data"] = n.get("data")
            if act["data"] is None:
                self.notes.append(s.note(("notificacao", "data"), "notificação sem data: preencha a data do ato."))
            if forma == "recusa":
                witnesses = s.get("assinaturas", "testemunhas") or []
                if witnesses:
                    act["testemunha"] = witnesses[0]
        elif forma == "ar":
            act.update(self.ar_act(s, n.get("ar") or {}, ("notificacao", "ar")))
        else:
            act["publicacoes"] = self.publications(s, n.get("edital") or {})
        self.add(act, s, ("notificacao",))

    def ar_act(self, s: _Source, ar: dict[str, Any], at: PathKey) -> dict[str, Any]:
        ref = s.get("numero") if s.kind == "auto_de_infracao" else s.get("auto", "numero")
        act: dict[str, Any] = {"tipo": "notificacao_ar",
                               "postagem": ar.get("data_postagem") or s.get("lavratura", "data"),
                               "recebimento": ar.get("data_recebimento"), "juntada": ar.get("data_juntada"),
                               "referente": ref}
        if ar.get("devolvido"):
            self.notes.append(s.note((*at, "devolvido"), "AR devolvido: o arquivo antigo não tem a data da devolução; "
                                     "preencha atos[].devolucao (data e motivo) no processo."
                                     + (f" Motivo informado: {ar.get('motivo_devolucao')}."
                                        if ar.get("motivo_devolucao") else "")))
        return act

    def publications(self, s: _Source, ed: dict[str, Any]) -> list[dict[str, Any]]:
        pubs: list[dict[str, Any]] = []
        if ed.get("data_publicacao"):
            veiculo = ed.get("veiculo")
            meio = "afixacao" if isinstance(veiculo, str) and "quadro" in veiculo.casefold() else "oficial"
            pubs.append({k: v for k, v in (("data", ed["data_publicacao"]), ("meio", meio), ("veiculo", veiculo))
                         if v is not None})
        if ed.get("data_publicacao_jornal"):
            pubs.append({k: v for k, v in (("data", ed["data_publicacao_jornal"]), ("meio", "jornal"),
                                           ("veiculo", ed.get("jornal"))) if v is not None})
        return pubs

    def apprehension(self, s: _Source) -> dict[str, Any]:
        pens = [p for p in (s.get("penalidades") or []) if isinstance(p, dict) and p.get("tipo") == "apreensao"]
        pen = pens[0] if pens else {}
        ap = s.get("apreensao") or {}
        act = {"tipo": "apreensao", "numero": s.get("numero"),
               "data": ap.get("data") or s.get("lavratura", "data"),
               "hora": s.get("lavratura", "hora") or ap.get("hora"),
               "local": ap.get("local") or s.get("lavratura", "local"), "agente": s.get("agente"),
               "itens": pen.get("itens"), "fiel_depositario": pen.get("fiel_depositario"),
               "local_deposito": pen.get("local_deposito") or ap.get("local_recolhimento"),
               "recolhimento": ap.get("data_recolhimento"), "descricao": ap.get("descricao"),
               "referente": None, "observacoes": s.get("observacoes")}
        if ap.get("hora") and s.get("lavratura", "hora") and ap.get("hora") != s.get("lavratura", "hora"):
            self.notes.append(s.note(("apreensao", "hora"), f"hora da apreensão ({ap.get('hora')}) não mapeada: o ato "
                                     f"guarda a hora do termo ({s.get('lavratura', 'hora')})."))
        if ap.get("local") and s.get("lavratura", "local") and ap.get("local") != s.get("lavratura", "local"):
            self.notes.append(s.note(("lavratura", "local"), "local da lavratura do termo não mapeado: o ato guarda "
                                     "o local da apreensão."))
        if s.get("assinaturas", "testemunhas"):
            self.notes.append(s.note(("assinaturas", "testemunhas"), "testemunhas do termo de apreensão não "
                                     "mapeadas: o ato de apreensão não tem testemunhas; anote-as em observacoes."))
        if len(pens) > 1:
            self.notes.append(s.note(("penalidades",), "mais de uma apreensão no termo: só a primeira vira ato."))
        return act

    def preliminary(self, s: _Source) -> dict[str, Any]:
        """A notificação preliminar: its notice is the dated receipt (or the refusal) of the act itself."""
        signatures = s.get("assinaturas")
        n = s.get("notificacao") or {}
        if n.get("forma") in ("pessoal", "recusa"):
            signed = {"situacao": "assinou" if n["forma"] == "pessoal" else "recusou", "data": n.get("data")}
            signatures = {**(signatures or {}), "autuado": {**signed, **((signatures or {}).get("autuado") or {})}}
        elif n:
            self.notes.append(s.note(("notificacao",), f"notificação preliminar por '{n.get('forma')}' não mapeada: "
                                     "o ato registra a ciência pessoal (assinaturas.autuado)."))
        return {"tipo": "notificacao_preliminar", "numero": s.get("numero"), "data": s.get("lavratura", "data"),
                "hora": s.get("lavratura", "hora"), "local": s.get("lavratura", "local"), "agente": s.get("agente"),
                "exigencia": s.get("exigencia"), "penalidades": s.get("penalidades"), "assinaturas": signatures,
                "observacoes": s.get("observacoes")}

    def decision(self, s: _Source) -> None:
        d = s.get("decisao") or {}
        kind = "julgamento" if d.get("instancia") == "primeira" else "decisao_recurso"
        imp = d.get("impugnacao") or {}
        if imp.get("numero") or imp.get("data"):
            self.add({"tipo": imp.get("tipo") or ("defesa" if kind == "julgamento" else "recurso"),
                      "numero": imp.get("numero"), "data": imp.get("data"), "referente": s.get("auto", "numero")}, s)
        self.add({"tipo": kind, "numero": d.get("numero") or s.get("numero"),
                  "data": d.get("data") or s.get("lavratura", "data"), "referente": imp.get("numero"),
                  "resultado": d.get("resultado"), "valor": d.get("valor"), "autoridade": d.get("autoridade"),
                  "fundamentacao": d.get("fundamentacao"), "observacoes": s.get("observacoes")}, s)

    def auto_from_reference(self, s: _Source) -> None:
        """A document that refers to an auto which is not among the files: the auto act is made of the
        reference (number, date) and of the auto's data the document repeats (agent, penalties)."""
        if any(x.kind == "auto_de_infracao" for x in self.sources) or s.get("auto") is None:
            return
        if any(a.get("tipo") == "auto" for a, _, _ in self.acts):
            return
        self.add({"tipo": "auto", "numero": s.get("auto", "numero"), "data": s.get("auto", "data"),
                  "agente": s.get("agente"), "circunstancias": s.get("circunstancias"),
                  "penalidades": [p for p in (s.get("penalidades") or [])
                                  if not (isinstance(p, dict) and p.get("tipo") == "apreensao"
                                          and s.kind == "termo_apreensao")] or None}, s, ("auto",))
        self.notes.append(s.note(("auto",), f"o auto nº {s.get('auto', 'numero')} não está entre os arquivos: o ato "
                                 "'auto' foi montado desta referência (número e data), com o agente e as penalidades "
                                 "deste documento; confira e complete hora, local e assinaturas."))

    def merge_auto(self) -> None:
        """Acts stated by several documents (the same AR letter, the same notice) become one act; a value
        they state differently is reported (the first document's is kept)."""
        merged: list[tuple[dict[str, Any], _Source, PathKey]] = []
        for act, s, where in self.acts:
            twin = next((m for m in merged if _same_act(m[0], act)), None)
            if twin is None:
                merged.append((act, s, where))
                continue
            for key, value in act.items():
                if key not in twin[0]:
                    twin[0][key] = value
                elif key not in ("agente", "local", "observacoes") and _conflicts(twin[0][key], value, (key,)):
                    self.notes.append(s.note(where, f"o ato '{act['tipo']}' também vem de {twin[1].file.name} com "
                                             f"outro valor de '{key}'; o processo fica com o de {twin[1].file.name}."))
        self.acts = merged

    def ordered(self) -> list[dict[str, Any]]:
        def key(item: tuple[int, tuple[dict[str, Any], _Source, PathKey]]) -> tuple[str, int, int]:
            n, (a, _s, _w) = item
            when = a.get("data") or a.get("postagem") or min((p["data"] for p in a.get("publicacoes") or []),
                                                             default=None)
            rank = _KIND_ORDER.index(a["tipo"]) if a["tipo"] in _KIND_ORDER else len(_KIND_ORDER)
            return (str(when or "9999"), rank, n)

        # a reference names the act as that act's own number is typed ("30/2026" cites the auto "030/2026")
        typed = {_number_key(a["numero"]): a["numero"] for a, _s, _w in self.acts if a.get("numero")}
        out = []
        for _n, (a, _s, _w) in sorted(enumerate(self.acts), key=key):
            if a.get("referente") is not None:
                a["referente"] = typed.get(_number_key(a["referente"]), a["referente"])
            out.append({k: a[k] for k in _ACT_KEYS if k in a})
        return out


def _n(s: _Source) -> str:
    return f" nº {s.get('numero')}" if s.get("numero") else ""


def _same_act(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a["tipo"] != b["tipo"]:
        return False
    if a.get("numero") and b.get("numero"):
        return _number_key(a["numero"]) == _number_key(b["numero"])
    if a["tipo"] == "auto":
        return True
    when = ("postagem",) if a["tipo"] == "notificacao_ar" else ("data",)
    return all(a.get(k) == b.get(k) for k in (*when, "referente")) and any(a.get(k) for k in when)


def _conflicts(a: Any, b: Any, path: PathKey) -> list[PathKey]:
    """Paths where both values are given and differ (a value only one of them gives is no conflict)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[PathKey] = []
        for k in a.keys() & b.keys():
            out.extend(_conflicts(a[k], b[k], (*path, k)))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [path]
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in _conflicts(x, y, (*path, i))]
    if isinstance(a, str) and isinstance(b, str):
        return [] if " ".join(a.split()) == " ".join(b.split()) else [path]
    return [] if a == b or a is None or b is None else [path]


def _header(sources: list[_Source]) -> str:
    """The comment on top: which files the processo was made of, and their own leading comments."""
    lines = ["# Processo montado por `autos migrar` a partir de:"]
    for s in sources:
        lines.append(f"#   {s.file}")
        lines.extend(f"#   {line}" for line in s.comments)
    return "\n".join(lines) + "\n"


# --- YAML output: strings typed as strings stay strings (dates plain, hours and numbers quoted) ------------
class _Dumper(yaml.SafeDumper):
    """Every scalar is text to autos' reader: plain wherever YAML allows it, no aliases; hours (``"08:15"``)
    and numbers (``"800"``, ``"45"``) quoted, as the README asks for them."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 — PyYAML's class attribute, emptied here

    def ignore_aliases(self, data: Any) -> bool:
        return True


_QUOTED = re.compile(r"^(\d{1,2}:\d{2}|[\d.,]+)$")


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if _QUOTED.match(value) else None)


_Dumper.add_representer(str, _str)


def dump_yaml(data: dict[str, Any]) -> str:
    out: str = yaml.dump({k: data[k] for k in _PROCESSO_KEYS if k in data}, Dumper=_Dumper, sort_keys=False,
                         allow_unicode=True, width=110, default_flow_style=False, indent=2)
    return out
