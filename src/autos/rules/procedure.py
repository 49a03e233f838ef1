"""The procedure of a law as data: ``rules/<municipio-uf>/<lei>.processo.yaml``.

The file declares which acts the law provides for in an administrative *processo* (auto, notices,
defence, judgment, appeal, payment, dívida ativa, apprehension, embargo, interdiction…), each with the
article it comes from, the fields it requires, the acts it must follow and cite, and the deadlines it
starts. Deadlines are those of ``<lei>.prazos.yaml`` (by id) plus new ones declared here (``novo``);
both are counted by :mod:`autos.rules.deadlines`. Where the law is silent, the choice made is an entry of
``interpretacoes``, shown to the user.

Loading is strict (:func:`autos.base.schema.build_model`, ``extra="forbid"``): unknown and duplicate keys,
dangling references and ids that clash with the prazos file are :class:`RulesError` naming the file,
the key and the line.
"""


import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autos.base.citation import Citation
from autos.base.schema import build_model
from autos.base.yamlio import PathKey, YamlDoc, load_yaml
from autos.errors import AutosError, RulesError
from autos.rules.deadlines import DeadlineRule, LawDeadlines, load_law_deadlines
from autos.rules.official import municipio_inputs, patched
from autos.rules.preconditions import Precondition
from autos.rules.snapshot import kept
from autos.rules.statute import Interpretation

__all__ = [
    "ACT_FIELDS",
    "ActRule",
    "DeadlineBehaviour",
    "Procedure",
    "ProcessoField",
    "load_procedure",
    "procedure_file",
]

Obrigado = Literal["autuado", "administracao"]
Resultado = Literal["mantida", "reduzida", "cancelada"]

#: fields every act may carry, whatever its kind (a kind may still require one, e.g. ``hora``)
CORE_FIELDS: frozenset[str] = frozenset({"tipo", "numero", "data", "hora", "referente", "observacoes"})

#: the other fields of an act (see :class:`autos.processo.model.Ato`); a kind names those it requires
#: (``campos``) or admits (``aceita``)
ACT_FIELDS: frozenset[str] = frozenset({
    "hora", "local", "agente", "circunstancias", "penalidades", "assinaturas", "testemunha", "postagem",
    "recebimento", "devolucao", "juntada", "publicacoes", "resultado", "valor", "autoridade",
    "fundamentacao", "itens", "fiel_depositario", "local_deposito", "recolhimento", "destino", "abrangencia",
    "descricao", "exigencia", "condicoes_levantamento", "argumentos", "relatorio", "razoes", "dispositivo",
    "valor_base", "motivo_valor", "demonstrativo",
})

#: processo-level fields a law may require (``processo_campos``)
PROCESSO_FIELDS: frozenset[str] = frozenset({"autuado", "local", "fatos", "infracoes", "data_infracao"})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ProcessoField(_Strict):
    """A field the law requires, with the article that requires it."""

    campo: str
    citacao: Citation


class _Condition(_Strict):
    ato: str
    resultado: list[Resultado] = Field(default_factory=list)


class _Start(_Strict):
    """A deadline an act starts, and when. ``prazo`` names the deadline; ``do_campo: exigencia`` takes it from
    the act itself (a notificação preliminar names, in ``exigencia.prazo``, the term of the article it applies:
    Ferraz art. 4º and the others its rules list) — exactly one of the two."""

    prazo: str | None = None
    do_campo: Literal["exigencia"] | None = None
    objeto: Literal["este", "referente"] = "este"
    se_referente: list[str] = Field(default_factory=list)
    se_resultado: list[Resultado] = Field(default_factory=list)
    se_frustrada: bool = False
    conta_de_campo: Literal["data", "recolhimento"] = "data"


class EarlyAct(_Strict):
    """When an act may come before the deadline of ``exige_vencido`` lapsed (Cuiabá art. 11, § 7º: the animal
    captured in an area of a serious zoonosis outbreak may be put down without waiting for the rescue term): its
    ``destino`` holds ``destino`` and it states the ground in ``fundamentacao``. Accepted with a warning that cites
    ``citacao``, so that the ground is checked by a person; without them, the early act is an error as before."""

    citacao: Citation
    destino: str = Field(min_length=1)  # words the act's destino must contain (lower case), e.g. "sacrif"
    descricao: str  # what the exception allows, as the warning says it


class ActRule(_Strict):
    """One kind of act the law provides for."""

    nome: str
    descricao: str
    citacao: Citation
    inicial: bool = False
    forma: Literal["pessoal", "recusa", "ar", "edital"] | None = None
    pode_preceder_auto: bool = False
    preclusivo: bool = False
    segue: list[str] = Field(default_factory=list)
    cita: list[str] = Field(default_factory=list)
    #: a measure already in force since an earlier act of these kinds (Ferraz art. 37: the notificação embargoes
    #: the work, "ficando a obra embargada"): the measure's act may cite it in ``referente``, and its termo then
    #: keeps the measure in force since that act's date instead of imposing it anew
    vigente_desde: list[str] = Field(default_factory=list)
    campos: list[ProcessoField] = Field(default_factory=list)
    aceita: list[str] = Field(default_factory=list)
    inicia: list[_Start] = Field(default_factory=list)
    exige_vencido: list[str] = Field(default_factory=list)
    antecipacao: EarlyAct | None = None  # the case in which the act may come before ``exige_vencido`` lapsed
    #: what must already be in the processo for the act to be valid (:mod:`autos.rules.preconditions`)
    pressupostos: list[Precondition] = Field(default_factory=list)
    #: the act comes before the infraction it warns of (a notificação preliminar: the infraction is not answering
    #: it), so it may be dated before ``data_infracao``
    precede_infracao: bool = False
    #: the act is only for these infractions of the law's rules (Ferraz art. 71: the services of chapters III to
    #: VII); empty: any
    so_infracoes: list[str] = Field(default_factory=list)
    encerra: bool = False
    encerra_se_resultado: list[Resultado] = Field(default_factory=list)
    #: the act ends the act it cites (a levantamento its embargo, a restitution its apprehension): no other act
    #: that ends it may cite it again
    encerra_citado: bool = False
    #: the act pays the costs on top of the penalties (Cuiabá art. 11, § 2º: the rescue's payment of transport,
    #: the table's "multa" and the daily charges), not the fine: a debt export nets it from the costs only
    quita_despesas: bool = False


class _NewDeadline(_Strict):
    """A deadline the prazos file does not have (same conventions as ``<lei>.prazos.yaml``)."""

    descricao: str
    base_legal: str
    tipo: Literal["dias_corridos", "dias_uteis", "meses"]
    quantidade: int = Field(gt=0)
    conta_de: str
    prorroga_fim_sem_expediente: bool | None = None
    escolha: str | None = None
    justificativa: str | None = None
    exemplo: bool = False
    observacao: str | None = None


class DeadlineBehaviour(_Strict):
    """How a deadline lives in a processo: who must act, which act meets it, what makes it moot."""

    acao: str
    obrigado: Obrigado
    #: the acts that meet it; empty for an obligation no act of the processo records as done (the autuado's
    #: compliance with a notificação preliminar is seen in the field: what the processo records is its lapse)
    cumprido_por: list[str] = Field(default_factory=list)
    prejudicado_por: list[_Condition] = Field(default_factory=list)
    ao_vencer: list[str] = Field(default_factory=list)
    providencia: str | None = None
    novo: _NewDeadline | None = None


class _NotProvided(_Strict):
    citacao: Citation
    motivo: str


class _ProcedureFile(_Strict):
    lei: str
    processo_campos: list[ProcessoField] = Field(default_factory=list)
    atos: dict[str, ActRule]
    nao_previstos: dict[str, _NotProvided] = Field(default_factory=dict)
    prazos: dict[str, DeadlineBehaviour]
    interpretacoes: list[Interpretation] = Field(default_factory=list)


@dataclass(frozen=True)
class Procedure:
    """The procedure rules of one law, with its deadlines (prazos file plus the new ones) merged."""

    lei: str
    file: Path
    law: LawDeadlines
    atos: dict[str, ActRule]
    prazos: dict[str, DeadlineBehaviour]
    processo_campos: tuple[ProcessoField, ...]
    nao_previstos: dict[str, tuple[Citation, str]]
    interpretacoes: tuple[Interpretation, ...]
    #: ``cite`` memo: id of a citation -> (the citation, its text); the citation is kept, so its id stays its own
    _cites: dict[int, tuple[Citation, str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def citacao(self) -> str:
        """``Lei nº 3.844/2022``."""
        return self.law.citacao

    def cite(self, citation: Citation) -> str:
        hit = self._cites.get(id(citation))
        if hit is not None and hit[0] is citation:
            return hit[1]
        text = citation.full(self.law.citacao)
        self._cites[id(citation)] = (citation, text)
        return text

    def initial_kind(self) -> str:
        return self._initial

    @cached_property
    def _initial(self) -> str:
        return next(k for k, a in self.atos.items() if a.inicial)

    @cached_property
    def interpretacoes_texto(self) -> list[str]:
        """Each interpretative choice as ``autos prazos`` shows it (the same for every processo of the law)."""
        return [f"{self.cite(x.citacao)} — {' '.join(x.problema.split())} Escolha: {' '.join(x.escolha.split())}"
                for x in self.interpretacoes]

    @cached_property
    def campos_aceitos(self) -> dict[str, frozenset[str]]:
        """Per act kind, the fields it takes: the core ones, those it requires and those it admits."""
        return {k: CORE_FIELDS | {f.campo for f in a.campos} | set(a.aceita) for k, a in self.atos.items()}


def _check_preconditions(err: Callable[..., AutosError], path: PathKey, pres: list[Precondition], kinds: set[str],
                         prazos: set[str]) -> None:
    """The references of an act kind's preconditions: unique ids, act kinds and deadlines the rite has."""
    seen: set[str] = set()
    for i, pc in enumerate(pres):
        where: PathKey = (*path, "pressupostos", i)
        if pc.id in seen:
            raise err((*where, "id"), f"dois pressupostos com o id '{pc.id}'.", "cada pressuposto tem id próprio.")
        seen.add(pc.id)
        if pc.atos:
            raise err((*where, "atos"), "'atos' só vale no pressuposto de uma infração (regras da lei): aqui o "
                      "pressuposto já é do ato em que está.")
        req = pc.exige
        refs: list[tuple[PathKey, str]] = []
        if req.ato_anterior is not None:
            refs += [((*where, "exige", "ato_anterior", "tipos", j), k) for j, k in enumerate(req.ato_anterior.tipos)]
        if req.notificacao_nao_atendida is not None:
            refs.append(((*where, "exige", "notificacao_nao_atendida", "ato"), req.notificacao_nao_atendida.ato))
            for j, pid in enumerate(req.notificacao_nao_atendida.prazos):
                if pid not in prazos:
                    raise err((*where, "exige", "notificacao_nao_atendida", "prazos", j),
                              f"prazo '{pid}' não está em 'prazos' nem no arquivo de prazos da lei.")
        for at, kind in refs:
            if kind not in kinds:
                raise err(at, f"ato '{kind}' não está em 'atos'.", f"use um dos atos: {', '.join(sorted(kinds))}.")


def procedure_file(rules_dir: Path, lei: str) -> Path:
    municipio_dir, stem = lei.split("/", 1)
    return Path(rules_dir) / municipio_dir / f"{stem}.processo.yaml"


def load_procedure(rules_dir: Path, lei: str) -> Procedure:
    """Read ``rules_dir/<municipio>/<lei>.processo.yaml`` and the law's prazos file, strictly."""
    if lei.count("/") != 1:
        raise RulesError(f"identificador de lei inválido '{lei}'.", hint="use municipio-uf/lei, p. ex. "
                         "timoteo-mg/lei-3844-2022.")
    municipio_dir, stem = lei.split("/", 1)
    file = procedure_file(rules_dir, lei)
    if not file.is_file():
        raise RulesError(f"a lei '{lei}' não tem regras de processo ({file.name}).", file=file,
                         hint="crie o arquivo de regras do processo da lei (veja rules/*/*.processo.yaml).")

    def build() -> Procedure:
        doc = patched(load_yaml(file, RulesError), "processo")
        model = build_model(_ProcedureFile, doc, RulesError)
        law = load_law_deadlines(Path(rules_dir), municipio_dir, stem)
        return _build(doc, model, law, lei)

    return kept("processo", municipio_inputs(file.parent), build, salt=f"{rules_dir}\0{lei}")


def _build(doc: YamlDoc, m: _ProcedureFile, law: LawDeadlines, lei: str) -> Procedure:
    def err(path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return doc.error(RulesError, path, message, hint)

    if m.lei != lei:
        raise err(("lei",), f"o arquivo declara a lei '{m.lei}', mas está na pasta da lei '{lei}'.")
    kinds = set(m.atos)
    initial = [k for k, a in m.atos.items() if a.inicial]
    if len(initial) != 1:
        raise err(("atos",), f"deve haver exatamente um ato 'inicial: true' (o auto); há {len(initial)}.")

    new: dict[str, DeadlineRule] = {}
    for pid, b in m.prazos.items():
        path: PathKey = ("prazos", pid)
        if b.novo is None:
            if pid not in law.prazos:
                raise err(path, f"o prazo '{pid}' não existe em {law.file.name} e não traz 'novo'.",
                          "use um id do arquivo de prazos ou declare o prazo com 'novo'.")
            continue
        if pid in law.prazos:
            raise err((*path, "novo"), f"o prazo '{pid}' já existe em {law.file.name}: não o redeclare.",
                      "retire 'novo' e reutilize o prazo do arquivo de prazos.")
        n = b.novo
        if (n.escolha is None) != (n.justificativa is None):
            raise err((*path, "novo"), "'escolha' e 'justificativa' andam juntas.",
                      "toda escolha interpretativa precisa dizer por que foi feita.")
        if n.exemplo and n.justificativa is None:
            raise err((*path, "novo", "exemplo"), "um prazo de exemplo precisa de 'justificativa'.")
        new[pid] = DeadlineRule(
            id=pid, descricao=n.descricao.strip(), base_legal=n.base_legal.strip(), tipo=n.tipo,
            quantidade=n.quantidade, conta_de=pid, conta_de_descricao=n.conta_de.strip(),
            prorroga=(n.prorroga_fim_sem_expediente if n.prorroga_fim_sem_expediente is not None
                      else law.contagem.prorroga_fim_sem_expediente),
            escolha=" ".join(n.escolha.split()) if n.escolha else None,
            justificativa=" ".join(n.justificativa.split()) if n.justificativa else None,
            exemplo=n.exemplo, observacao=" ".join(n.observacao.split()) if n.observacao else None,
        )
    for pid, b in m.prazos.items():
        path = ("prazos", pid)
        for i, kind in enumerate(b.cumprido_por):
            if kind not in kinds:
                raise err((*path, "cumprido_por", i), f"ato '{kind}' não está em 'atos'.")
        for i, c in enumerate(b.prejudicado_por):
            if c.ato not in kinds:
                raise err((*path, "prejudicado_por", i, "ato"), f"ato '{c.ato}' não está em 'atos'.")
        for i, nxt in enumerate(b.ao_vencer):
            if nxt not in m.prazos:
                raise err((*path, "ao_vencer", i), f"prazo '{nxt}' não está em 'prazos'.")

    for kind, a in m.atos.items():
        path = ("atos", kind)
        for key, refs in (("segue", a.segue), ("cita", a.cita), ("vigente_desde", a.vigente_desde)):
            for i, ref in enumerate(refs):
                if ref not in kinds:
                    raise err((*path, key, i), f"ato '{ref}' não está em 'atos'.")
        for i, f in enumerate(a.campos):
            if f.campo not in ACT_FIELDS:
                raise err((*path, "campos", i, "campo"), f"campo de ato desconhecido '{f.campo}'.",
                          f"use um de: {', '.join(sorted(ACT_FIELDS))}.")
        for i, name in enumerate(a.aceita):
            if name not in ACT_FIELDS:
                raise err((*path, "aceita", i), f"campo de ato desconhecido '{name}'.",
                          f"use um de: {', '.join(sorted(ACT_FIELDS))}.")
        for i, s in enumerate(a.inicia):
            if (s.prazo is None) == (s.do_campo is None):
                raise err((*path, "inicia", i), "indique 'prazo' (o id do prazo) ou 'do_campo: exigencia' (o prazo "
                          "que o próprio ato indica), um dos dois.")
            if s.do_campo == "exigencia" and "exigencia" not in {f.campo for f in a.campos}:
                raise err((*path, "inicia", i, "do_campo"), "'do_campo: exigencia' exige o campo 'exigencia' em "
                          "'campos' deste ato.")
            if s.prazo is not None and s.prazo not in m.prazos:
                raise err((*path, "inicia", i, "prazo"), f"prazo '{s.prazo}' não está em 'prazos'.",
                          "declare em 'prazos' como o prazo se cumpre (acao, obrigado, cumprido_por).")
            for j, ref in enumerate(s.se_referente):
                if ref not in a.cita:
                    raise err((*path, "inicia", i, "se_referente", j), f"'{ref}' não está em 'cita' deste ato.")
            if s.objeto == "referente" and not a.cita:
                raise err((*path, "inicia", i, "objeto"), "objeto 'referente' exige que o ato cite outro ('cita').")
            if s.se_frustrada and a.forma != "ar":
                raise err((*path, "inicia", i, "se_frustrada"), "só uma notificação por AR pode ser frustrada.")
        for i, pid in enumerate(a.exige_vencido):
            if pid not in m.prazos:
                raise err((*path, "exige_vencido", i), f"prazo '{pid}' não está em 'prazos'.")
        if a.antecipacao is not None and not a.exige_vencido:
            raise err((*path, "antecipacao"), "'antecipacao' só vale para um ato com 'exige_vencido'.")
        _check_preconditions(err, path, a.pressupostos, kinds, set(m.prazos) | set(law.prazos))
        admitted = {f.campo for f in a.campos} | set(a.aceita)
        if a.antecipacao is not None and not {"destino", "fundamentacao"} <= admitted:
            raise err((*path, "antecipacao"), "o ato com 'antecipacao' deve admitir 'destino' e 'fundamentacao'.")
        if a.forma is not None and a.forma not in law.notificacao.formas:
            raise err((*path, "forma"), f"a forma '{a.forma}' não está nas formas de notificação de "
                      f"{law.file.name}.", f"use uma de: {', '.join(law.notificacao.formas)}.")
    for i, f in enumerate(m.processo_campos):
        if f.campo not in PROCESSO_FIELDS:
            raise err(("processo_campos", i, "campo"), f"campo de processo desconhecido '{f.campo}'.",
                      f"use um de: {', '.join(sorted(PROCESSO_FIELDS))}.")
    for kind in m.nao_previstos:
        if kind in kinds:
            raise err(("nao_previstos", kind), f"o ato '{kind}' está em 'atos' e em 'nao_previstos'.")

    merged = dataclasses.replace(law, prazos={**law.prazos, **new})
    return Procedure(
        lei=lei, file=doc.file, law=merged, atos=dict(m.atos), prazos=dict(m.prazos),
        processo_campos=tuple(m.processo_campos),
        nao_previstos={k: (v.citacao, " ".join(v.motivo.split())) for k, v in m.nao_previstos.items()},
        interpretacoes=tuple(m.interpretacoes),
    )
