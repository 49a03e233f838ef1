"""Statutes as data: loading and modelling ``rules/<municipio>-<uf>/<lei>.yaml``.

A statute file holds the law's identity, its fiscal unit with dated R$ values, its infractions and
penalties, and the elements each document kind must contain, every item citing its article. Loading
is strict: unknown or duplicate keys are :class:`RulesError` naming the file, the key and the line.

This module holds the statute as a whole (:class:`Statute`, with the cross-checks of its references), and the
loading (:func:`load_rules`, :class:`RuleSet`); its parts are modelled beside it: the building blocks in
:mod:`autos.rules.statute_base`, the fine formulas in :mod:`autos.rules.fine_rules`, the infractions and penalties in
:mod:`autos.rules.infractions`, the document kinds in :mod:`autos.rules.document_kinds`.
"""



import re
import threading
from functools import cached_property
from pathlib import Path

from pydantic import Field, field_validator, model_validator

from autos.base.citation import Citation
from autos.base.schema import build_model
from autos.base.yamlio import decode_yaml, read_limited
from autos.errors import RulesError
from autos.rules.document_kinds import DocumentKind
from autos.rules.fine_rules import ApprehensionCosts, FineRule, FixedFine, RecidivismHistory
from autos.rules.infractions import Circumstances, Infraction, Penalty, Reduction
from autos.rules.official import municipio_inputs
from autos.rules.preconditions import Regulation
from autos.rules.prescription import Prescription
from autos.rules.snapshot import kept
from autos.rules.statute_base import FiscalUnit, Rounding, StatuteIdentity, _Strict


class Interpretation(_Strict):
    """A choice made where the law is ambiguous or self-contradictory; always shown to the user (``autos regras``,
    ``validar``, the memo). A document that applies it prints ``no_documento`` — the choice as the act states it, in
    the act's own language (no ids, no field names) — or nothing: the problem and the choice are for the clerk and
    the procuradoria, not for the person notified."""

    id: str
    citacao: Citation
    problema: str
    escolha: str
    no_documento: str | None = Field(default=None, description="como o ato que aplica a escolha a enuncia, na "
                                     "linguagem do ato (sem ids nem nomes de campos); sem ele, o documento não a "
                                     "imprime")


class Signatory(_Strict):
    """Who signs a document the municipality issues for the law as a whole (the consolidated edital): a named
    person and the post; ``ato``: the act that designates them; ``exemplo``: not yet the real one."""

    nome: str = Field(min_length=1)
    cargo: str = Field(min_length=1)
    ato: str | None = None
    exemplo: bool = False


#: what a published edital prints of each notified (its row in the consolidated edital), by key — the fields a
#: retificação compares (``autos retificar-edital``), with the label the retificação prints
EDITAL_FIELDS: dict[str, str] = {
    "nome": "nome do notificado",
    "documento": "CPF/CNPJ do notificado",
    "auto": "número do auto de infração",
    "auto_data": "data do auto de infração",
    "processo": "número do processo",
    "infracoes": "dispositivo infringido",
    "multa": "multa",
    "agente": "quem expede o edital individual",
}


class EditalCorrections(_Strict):
    """How a retificação of a published edital acts on the notice (``autos retificar-edital``). The laws are
    silent: ``interpretacao`` records the choice. Correcting a field of ``essenciais`` makes the notice of that
    notified run again from the retificação's publication (by the law's own edital rule); correcting any other
    field keeps the dates of the edital corrected."""

    citacao: Citation  # the law's edital provision
    essenciais: list[str] = Field(min_length=1)
    interpretacao: str

    @field_validator("essenciais")
    @classmethod
    def _fields(cls, v: list[str]) -> list[str]:
        unknown = [f for f in v if f not in EDITAL_FIELDS]
        if unknown:
            raise ValueError(f"campos desconhecidos: {', '.join(unknown)}; use: {', '.join(EDITAL_FIELDS)}")
        return v


class PaymentMeans(_Strict):
    """How the fine is paid, as the demonstrativo states it: the guide, where it is issued and paid, and the
    article (Timóteo art. 29: the SIM's own account; Cuiabá art. 41: collected at the Centro de Controle de
    Zoonoses)."""

    meio: str = Field(min_length=1, description="como se paga: a guia, onde é emitida e onde se paga")
    citacao: Citation | None = Field(default=None, description="o artigo que o determina, se a lei o diz")


class Statute(_Strict):
    lei: StatuteIdentity
    unidade_fiscal: FiscalUnit
    arredondamento: Rounding
    interpretacoes: list[Interpretation] = Field(default_factory=list)
    penalidades: dict[str, Penalty]
    circunstancias: Circumstances | None = None
    reducoes: list[Reduction] = Field(default_factory=list)
    infracoes: dict[str, Infraction]
    documentos: dict[str, DocumentKind]
    reincidencia: RecidivismHistory | None = None
    prescricao: Prescription | None = None
    #: how the fine is paid (the demonstrativo's means of payment, when there is no PIX code)
    pagamento: PaymentMeans | None = None
    #: who signs the consolidated edital of this law (``autos publicar-editais``); none: its cases are refused
    edital_assinatura: Signatory | None = None
    #: what a retificação of a published edital does to the notice (``autos retificar-edital``)
    edital_correcoes: EditalCorrections | None = None
    #: the regulations applied with the law, by id (rules.preconditions.Regulation): an infringed provision names one
    regulamentos: dict[str, Regulation] = Field(default_factory=dict)

    @field_validator("infracoes", "penalidades", "documentos", "regulamentos")
    @classmethod
    def _ids(cls, v: dict[str, object]) -> dict[str, object]:
        for key in v:
            if not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", key):
                raise ValueError(f"identificador '{key}' inválido: use minúsculas, dígitos, '-' e '_'")
        return v

    @model_validator(mode="after")
    def _refs(self) -> "Statute":
        for inf_id, inf in self.infracoes.items():
            for p in inf.penalidades:
                if p not in self.penalidades:
                    raise ValueError(f"a infração '{inf_id}' cita a penalidade desconhecida '{p}'")
            for kind in inf.fundamento_apreensao:
                if kind not in self.documentos:
                    raise ValueError(f"a infração '{inf_id}' cita o documento desconhecido '{kind}' em "
                                     "'fundamento_apreensao'")
        return self

    @model_validator(mode="after")
    def _fine_refs(self) -> "Statute":
        _check_fine_refs(self)
        return self

    # filled in by the loader
    _id: str = ""
    _file: Path = Path()

    @property
    def id(self) -> str:
        return self._id

    @property
    def file(self) -> Path:
        return self._file

    def cite(self, citation: Citation) -> str:
        return citation.full(self.lei.label)

    @cached_property
    def example_values(self) -> bool:
        return any(v.exemplo for v in self.unidade_fiscal.valores)


def formula_for(statute: Statute, infraction: Infraction, penalty_id: str) -> FineRule | None:
    """The formula computing ``penalty_id`` for ``infraction``: its own, else the penalty's."""
    own = infraction.multa
    if own is not None and (own.penalidade or "multa") == penalty_id:
        return own
    pen = statute.penalidades.get(penalty_id)
    return pen.calculo if pen is not None else None


def _check_fine_refs(statute: Statute) -> None:
    """Cross-references of the fine formulas: interpretations and penalties exist; every infraction
    listing a penalty that carries an amount somewhere has a formula for it."""
    interp = {i.id for i in statute.interpretacoes}

    def need(ref: str | None, where: str) -> None:
        if ref is not None and ref not in interp:
            raise ValueError(f"{where} cita a interpretação desconhecida '{ref}' (veja 'interpretacoes')")

    def formula_refs(rule: FineRule, where: str) -> None:
        for ref in rule.interpretacoes:
            need(ref, where)
        if isinstance(rule, FixedFine) and rule.abatimento_caucao is not None:
            need(rule.abatimento_caucao.interpretacao, where)
        if isinstance(rule, ApprehensionCosts):
            for sp in rule.especies.values():
                need(sp.interpretacao, where)

    costed: set[str] = set()
    for pen_id, pen in statute.penalidades.items():
        if pen.calculo is not None:
            if pen.calculo.penalidade not in (None, pen_id):
                raise ValueError(f"o cálculo da penalidade '{pen_id}' não pode ser disparado por outra "
                                 f"penalidade ('{pen.calculo.penalidade}')")
            formula_refs(pen.calculo, f"o cálculo da penalidade '{pen_id}'")
            costed.add(pen_id)
        if pen.efeito_circunstancias is not None:
            need(pen.efeito_circunstancias.interpretacao, f"a penalidade '{pen_id}'")
            if statute.circunstancias is None:
                raise ValueError(f"a penalidade '{pen_id}' tem efeito_circunstancias, mas a lei não tem "
                                 "'circunstancias'")
    rec = statute.reincidencia
    if rec is not None:
        for ref in rec.interpretacoes:
            need(ref, "'reincidencia'")
        if rec.agravante is not None and (statute.circunstancias is None
                                          or rec.agravante not in statute.circunstancias.agravantes):
            raise ValueError(f"'reincidencia' cita a agravante desconhecida '{rec.agravante}' (veja "
                             "'circunstancias.agravantes')")
    if statute.prescricao is not None:
        need(statute.prescricao.interpretacao, "a prescrição ('prescricao')")
    if statute.edital_correcoes is not None:
        need(statute.edital_correcoes.interpretacao, "'edital_correcoes'")
    for pen_id, pen in statute.penalidades.items():
        for cond_id, cond in pen.condicoes.items():
            need(cond.interpretacao, f"a condição '{cond_id}' da penalidade '{pen_id}'")
            if cond.obrigatoria and not cond.infracoes:
                raise ValueError(f"a condição obrigatória '{cond_id}' da penalidade '{pen_id}' precisa de 'infracoes'")
            for other in cond.substituida_por:
                if other not in statute.penalidades or not cond.obrigatoria:
                    raise ValueError(f"a condição '{cond_id}' da penalidade '{pen_id}': 'substituida_por' só vale em "
                                     f"condição obrigatória e com penalidades da lei ('{other}')")
            for inf_ref in cond.infracoes:
                rule = statute.infracoes.get(inf_ref)
                if rule is None or pen_id not in rule.penalidades:
                    raise ValueError(f"a condição '{cond_id}' da penalidade '{pen_id}' cita a infração '{inf_ref}', "
                                     "que não existe ou não admite essa penalidade")
    for kind_id, kind in statute.documentos.items():
        for ref in kind.interpretacoes:
            need(ref, f"o documento '{kind_id}'")
        if kind.recusa is not None:
            need(kind.recusa.interpretacao, f"a recusa do documento '{kind_id}'")
    for red in statute.reducoes:
        need(red.abaixo_do_minimo, f"a redução '{red.id}'")
    for inf_id, inf in statute.infracoes.items():
        need(inf.interpretacao, f"a infração '{inf_id}'")
        need(inf.sem_sancao, f"a infração '{inf_id}' (sem_sancao)")
        for exc in inf.excecoes:
            need(exc.interpretacao, f"a exceção '{exc.id}' da infração '{inf_id}'")
        for pc in inf.pressupostos:
            need(pc.interpretacao, f"o pressuposto '{pc.id}' da infração '{inf_id}'")
        if inf.multa is not None:
            formula_refs(inf.multa, f"a multa da infração '{inf_id}'")
            costed.add(inf.multa.penalidade or "multa")
    for inf_id, inf in statute.infracoes.items():
        for pen_id in inf.penalidades:
            listed = statute.penalidades.get(pen_id)
            if listed is None:
                continue  # reported by _refs
            ranged = listed.multa_minima is not None
            if pen_id in costed and not ranged and formula_for(statute, inf, pen_id) is None:
                raise ValueError(f"a infração '{inf_id}' admite a penalidade '{pen_id}', mas não diz como "
                                 "calculá-la: acrescente 'multa' à infração ou 'calculo' à penalidade")


def _statute_id(path: Path, root: Path) -> str:
    rel = path.relative_to(root)
    return str(rel.with_suffix("")).replace("\\", "/")


class RuleSet:
    """All statutes found under one rules folder, by id (``timoteo-mg/lei-3844-2022``)."""

    def __init__(self, root: Path, statutes: dict[str, Statute]) -> None:
        self.root = root
        self.statutes = statutes

    def get(self, statute_id: str) -> Statute:
        try:
            return self.statutes[statute_id]
        except KeyError:
            known = ", ".join(sorted(self.statutes)) or "(nenhuma)"
            raise RulesError(
                f"lei '{statute_id}' não encontrada nas regras ({self.root}).",
                hint=f"use uma das leis disponíveis: {known}.",
            ) from None


#: the municipality's own files beside its laws (the calendar, the register of authorities, the official values, the
#: grades of the findings)
_NOT_STATUTES = ("calendario", "autoridades", "valores-oficiais", "achados")


def is_statute_file(path: Path) -> bool:
    """Statute files are ``<municipio>-<uf>/<lei>.yaml``; companions carry a second suffix."""
    return path.suffix == ".yaml" and "." not in path.stem and path.stem not in _NOT_STATUTES


#: statutes already built in this process, by (file, rules folder, the file's bytes): a statute is frozen and
#: depends on its own file only, so a program that opens the same rules folder again (a test suite, a server
#: building an ``Autos`` per request, ``autos`` commands run in one process) parses and validates it once
_STATUTES: dict[tuple[str, str, bytes], Statute] = {}
_STATUTES_KEPT = 16
_STATUTES_LOCK = threading.Lock()


def load_statute(path: Path, root: Path) -> Statute:
    data = read_limited(path, RulesError)
    from autos.rules.official import official_key, patched

    key = (str(path), str(root), data + b"\0" + official_key(path.parent))
    cached = _STATUTES.get(key)
    if cached is not None:
        return cached

    def build() -> Statute:
        doc = patched(decode_yaml(data, path, RulesError), "lei")
        built = build_model(Statute, doc, RulesError)
        built._id = _statute_id(path, root)
        built._file = path
        return built

    statute = kept("lei", municipio_inputs(path.parent), build, salt=f"{path}\0{root}")
    with _STATUTES_LOCK:
        while len(_STATUTES) >= _STATUTES_KEPT:
            _STATUTES.pop(next(iter(_STATUTES)))
        _STATUTES[key] = statute
    return statute


def load_rules(root: str | Path) -> RuleSet:
    """Load every statute under ``root``; a missing or empty folder is an error."""
    folder = Path(root)
    if not folder.is_dir():
        raise RulesError(
            "pasta de regras não encontrada.",
            file=folder,
            hint="indique a pasta com --regras (ou --rules) ou use a pasta padrão.",
        )
    statutes: dict[str, Statute] = {}
    for path in sorted(folder.glob("*/*.yaml")):
        if is_statute_file(path):
            st = load_statute(path, folder)
            statutes[st.id] = st
    if not statutes:
        raise RulesError("a pasta de regras não contém nenhuma lei (<municipio>-<uf>/<lei>.yaml).", file=folder)
    return RuleSet(folder, statutes)
