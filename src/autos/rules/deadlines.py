"""The deadline rules of each law, strictly loaded from ``rules/<municipio_dir>/<lei>.prazos.yaml``.

Everything legal is data in that file:

* ``contagem`` — the default counting rule of the law. None of the three laws says how to count, so each
  file states the default of Lei federal nº 9.784/1999, art. 66: the day of the start is excluded, the
  day of the end is included, an end on a day without office hours moves to the next business day
  (§ 1º), days count continuously (§ 2º) and months count date to date, the last day of the month being
  the end when the day does not exist (§ 3º). A deadline may override the move (``prorroga_fim_sem_expediente``)
  and must then say why (``escolha``/``justificativa``).
* ``notificacao`` — how each way of giving notice (pessoal, recusa, ar, edital) takes effect.
* ``prazos`` — the deadlines, each citing its article, counted from an ``evento`` (``conta_de``).
* ``ciclos`` — recurring fines ("a cada 30 dias, até o efetivo atendimento").

The counting itself is :mod:`autos.compute.deadlines`.
"""


from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autos.base.schema import Count, build_model
from autos.base.yamlio import PathKey, YamlDoc, load_yaml
from autos.errors import AutosError, ComputeError, RulesError
from autos.rules.calendar import load_rules_file
from autos.rules.official import official_key, patched
from autos.rules.statute import Statute

__all__ = [
    "NOTICE_EVENT",
    "NOTICE_FORMS",
    "CountingDefaults",
    "CycleRule",
    "DeadlineRule",
    "LawDeadlines",
    "NoticeFormRule",
    "NoticeRules",
    "law_deadlines",
    "load_law_deadlines",
]

CountKind = Literal["dias_corridos", "dias_uteis", "meses", "horas", "dia_seguinte"]
NoticeForm = Literal["pessoal", "recusa", "ar", "edital"]
FactName = Literal["data_ciencia", "ar_recebimento", "ar_juntada", "edital_publicacao", "edital_jornal", "testemunha"]

NOTICE_FORMS: tuple[str, ...] = ("pessoal", "recusa", "ar", "edital")

#: the event every notice-run deadline is counted from
NOTICE_EVENT = "notificacao"


# --------------------------------------------------------------------------------------------------
# rules (loaded from the prazos file)


@dataclass(frozen=True)
class DeadlineRule:
    id: str
    descricao: str
    base_legal: str
    tipo: CountKind
    quantidade: int
    conta_de: str
    conta_de_descricao: str
    prorroga: bool
    escolha: str | None = None
    justificativa: str | None = None
    exemplo: bool = False
    depois_de: str | None = None
    observacao: str | None = None
    texto_legal: str | None = None
    #: the deadline exists only when the auto proposes this penalty (Ferraz art. 80: paying "as multas" — an auto
    #: that only apprehends a vehicle, art. 59, has nothing to pay)
    so_com_penalidade: str | None = None


@dataclass(frozen=True)
class NoticeFormRule:
    forma: str
    descricao: str
    base_legal: str
    exige: tuple[str, ...]
    data_base: tuple[str, ...]
    criterio: Literal["unica", "mais_tardia"]
    base_descricao: str
    prazo_tipo: CountKind | None = None
    #: the same, for the notice of a decision (Timóteo art. 20, § 2º speaks of the copy of the auto)
    base_descricao_decisao: str | None = None
    prazo_quantidade: int = 0
    prorroga: bool = True
    condicao: str | None = None
    escolha: str | None = None
    justificativa: str | None = None
    #: edital: the case the law admits it in, in the law's own words (printed by the edital)
    hipotese: str | None = None


@dataclass(frozen=True)
class NoticeRules:
    base_legal: str
    omissa: bool
    adotado: str | None
    formas: dict[str, NoticeFormRule]


@dataclass(frozen=True)
class CycleRule:
    id: str
    descricao: str
    base_legal: str
    a_cada_dias: int
    observacao: str | None = None


@dataclass(frozen=True)
class CountingDefaults:
    prorroga_fim_sem_expediente: bool
    base_legal: str
    justificativa: str


@dataclass
class LawDeadlines:
    """The counting rules, notice rules and deadlines of one law."""

    file: Path
    municipio_dir: str
    lei_file_stem: str
    citacao: str  # "Lei nº 3.240/2015"
    municipio: str
    uf: str
    ibge: str
    contagem: CountingDefaults
    eventos: dict[str, str]
    notificacao: NoticeRules
    apos_notificacao: tuple[str, ...]
    prazos: dict[str, DeadlineRule]
    ciclos: dict[str, CycleRule]

    def deadline(self, deadline_id: str) -> DeadlineRule:
        try:
            return self.prazos[deadline_id]
        except KeyError:
            raise ComputeError(
                f"prazo '{deadline_id}' não existe nas regras da {self.citacao}.",
                file=self.file,
                hint=f"use um de: {', '.join(sorted(self.prazos))}.",
            ) from None

    def is_example(self, deadline_id: str) -> bool:
        """True when the deadline's length is an example still to be confirmed (documents must say so)."""
        return self.deadline(deadline_id).exemplo

    def examples(self) -> list[str]:
        return sorted(k for k, r in self.prazos.items() if r.exemplo)

    def cycle(self, cycle_id: str) -> CycleRule:
        try:
            return self.ciclos[cycle_id]
        except KeyError:
            raise ComputeError(
                f"ciclo de multa '{cycle_id}' não existe nas regras da {self.citacao}.",
                file=self.file,
                hint=f"use um de: {', '.join(sorted(self.ciclos))}.",
            ) from None


# --------------------------------------------------------------------------------------------------
# the prazos file format


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Lei(_Model):
    citacao: str
    municipio: str
    uf: str
    ibge: str
    ementa: str | None = None


class _Contagem(_Model):
    exclui_dia_do_inicio: bool
    inclui_dia_do_fim: bool
    prorroga_fim_sem_expediente: bool
    base_legal: str
    justificativa: str


class _Evento(_Model):
    descricao: str


class _PrazoSimples(_Model):
    tipo: Literal["dias_corridos", "dias_uteis", "meses", "horas"]
    quantidade: Count = Field(gt=0)


class _Forma(_Model):
    descricao: str
    base_legal: str
    exige: list[FactName]
    data_base: list[Literal["data_ciencia", "ar_recebimento", "ar_juntada", "edital_publicacao", "edital_jornal"]]
    criterio: Literal["unica", "mais_tardia"] = "unica"
    base_descricao: str
    base_descricao_decisao: str | None = None
    prazo: _PrazoSimples | None = None
    prorroga_fim_sem_expediente: bool | None = None
    condicao: str | None = None
    escolha: str | None = None
    justificativa: str | None = None
    hipotese: str | None = None


class _Notificacao(_Model):
    base_legal: str
    omissa: bool = False
    adotado: str | None = None
    formas: dict[Literal["pessoal", "recusa", "ar", "edital"], _Forma]


class _Prazo(_Model):
    descricao: str
    base_legal: str
    tipo: Literal["dias_corridos", "dias_uteis", "meses", "horas", "dia_seguinte"]
    quantidade: Count | None = Field(default=None, gt=0)
    conta_de: str
    #: where the term counts from in the law's own words, when they say more than the event (Ferraz art. 80:
    #: "da data da notificação final", with the rules' reading of it): the documents and explanations print it
    conta_de_texto: str | None = None
    depois_de: str | None = None
    prorroga_fim_sem_expediente: bool | None = None
    escolha: str | None = None
    justificativa: str | None = None
    exemplo: bool = False
    observacao: str | None = None
    texto_legal: str | None = None
    so_com_penalidade: str | None = None


class _Ciclo(_Model):
    descricao: str
    base_legal: str
    a_cada_dias: Count = Field(gt=0)
    observacao: str | None = None


class _PrazosFile(_Model):
    lei: _Lei
    contagem: _Contagem
    eventos: dict[str, _Evento]
    notificacao: _Notificacao
    apos_notificacao: list[str] = []
    prazos: dict[str, _Prazo]
    ciclos: dict[str, _Ciclo] = {}


def load_law_deadlines(rules_dir: Path, municipio_dir: str, lei_file_stem: str) -> LawDeadlines:
    """Read ``rules_dir/<municipio_dir>/<lei_file_stem>.prazos.yaml`` strictly: unknown or duplicate
    keys, missing fields, dangling references and choices without justification are
    :class:`RulesError` naming the file, the key and the line."""
    file = Path(rules_dir) / municipio_dir / f"{lei_file_stem}.prazos.yaml"

    def load() -> LawDeadlines:
        doc = patched(load_yaml(file, RulesError), "prazos")
        m = build_model(_PrazosFile, doc, RulesError)
        return _build_law(doc, m, municipio_dir, lei_file_stem)

    return load_rules_file(file, load)


def _build_law(doc: YamlDoc, m: _PrazosFile, municipio_dir: str, stem: str) -> LawDeadlines:
    def err(path: PathKey, message: str, hint: str | None = None) -> AutosError:
        return doc.error(RulesError, path, message, hint)

    def check_choice(path: PathKey, escolha: str | None, justificativa: str | None) -> None:
        if (escolha is None) != (justificativa is None):
            missing = "justificativa" if justificativa is None else "escolha"
            raise err(
                path,
                f"'escolha' e 'justificativa' andam juntas: falta '{missing}'.",
                "toda escolha interpretativa precisa dizer por que foi feita.",
            )

    suffix = municipio_dir.rsplit("-", 1)[-1].upper()
    if suffix != m.lei.uf:
        raise err(("lei", "uf"), f"a UF '{m.lei.uf}' não confere com a pasta '{municipio_dir}'.")
    c = m.contagem
    if not c.exclui_dia_do_inicio:
        raise err(
            ("contagem", "exclui_dia_do_inicio"),
            "só é suportada a contagem que exclui o dia do início.",
            "use true (Lei federal nº 9.784/1999, art. 66).",
        )
    if not c.inclui_dia_do_fim:
        raise err(
            ("contagem", "inclui_dia_do_fim"),
            "só é suportada a contagem que inclui o dia do fim.",
            "use true (Lei federal nº 9.784/1999, art. 66).",
        )
    if NOTICE_EVENT not in m.eventos:
        raise err(("eventos",), f"falta o evento '{NOTICE_EVENT}' (data em que a notificação se considera feita).")
    eventos = {k: v.descricao.strip() for k, v in m.eventos.items()}

    n = m.notificacao
    if n.omissa and not n.adotado:
        raise err(("notificacao",), "a lei é marcada como omissa, mas falta 'adotado' (o padrão adotado e sua base).")
    if not n.formas:
        raise err(("notificacao", "formas"), "nenhuma forma de notificação cadastrada.")
    formas: dict[str, NoticeFormRule] = {}
    for forma, f in n.formas.items():
        path: PathKey = ("notificacao", "formas", forma)
        check_choice(path, f.escolha, f.justificativa)
        if not f.data_base:
            raise err((*path, "data_base"), "informe a data de que a notificação depende.")
        for i, fact in enumerate(f.data_base):
            if fact not in f.exige:
                raise err((*path, "data_base", i), f"'{fact}' é data-base mas não está em 'exige'.")
        if f.criterio == "unica" and len(f.data_base) != 1:
            raise err((*path, "criterio"), "com mais de uma data-base, use criterio: mais_tardia.")
        if f.prorroga_fim_sem_expediente is not None and f.prazo is None:
            raise err((*path, "prorroga_fim_sem_expediente"), "só faz sentido com 'prazo'.")
        formas[forma] = NoticeFormRule(
            forma=forma,
            descricao=f.descricao.strip(),
            base_legal=f.base_legal.strip(),
            exige=tuple(f.exige),
            data_base=tuple(f.data_base),
            criterio=f.criterio,
            base_descricao=f.base_descricao.strip(),
            base_descricao_decisao=f.base_descricao_decisao.strip() if f.base_descricao_decisao else None,
            prazo_tipo=f.prazo.tipo if f.prazo else None,
            prazo_quantidade=f.prazo.quantidade if f.prazo else 0,
            prorroga=(
                f.prorroga_fim_sem_expediente
                if f.prorroga_fim_sem_expediente is not None
                else c.prorroga_fim_sem_expediente
            ),
            condicao=f.condicao.strip() if f.condicao else None,
            hipotese=" ".join(f.hipotese.split()) if f.hipotese else None,
            escolha=f.escolha.strip() if f.escolha else None,
            justificativa=f.justificativa.strip() if f.justificativa else None,
        )

    prazos: dict[str, DeadlineRule] = {}
    for pid, p in m.prazos.items():
        path = ("prazos", pid)
        check_choice(path, p.escolha, p.justificativa)
        if p.conta_de not in eventos:
            raise err(
                (*path, "conta_de"),
                f"evento '{p.conta_de}' não está em 'eventos'.",
                f"use um de: {', '.join(sorted(eventos))}, ou cadastre o evento.",
            )
        if p.prorroga_fim_sem_expediente is not None and p.escolha is None:
            raise err(
                (*path, "prorroga_fim_sem_expediente"),
                "ao mudar a regra de prorrogação do fim, explique com 'escolha' e 'justificativa'.",
            )
        if p.exemplo and p.justificativa is None:
            raise err((*path, "exemplo"), "um prazo de exemplo precisa de 'justificativa' (por que este valor).")
        if p.tipo == "dia_seguinte":
            if p.depois_de is None:
                raise err(path, "o tipo 'dia_seguinte' exige 'depois_de' (o prazo de referência).")
            if p.quantidade is not None:
                raise err((*path, "quantidade"), "o tipo 'dia_seguinte' não tem quantidade.")
        else:
            if p.depois_de is not None:
                raise err((*path, "depois_de"), "'depois_de' só vale para o tipo 'dia_seguinte'.")
            if p.quantidade is None:
                raise err(path, "falta a 'quantidade' do prazo.")
        prazos[pid] = DeadlineRule(
            id=pid,
            descricao=p.descricao.strip(),
            base_legal=p.base_legal.strip(),
            tipo=p.tipo,
            quantidade=p.quantidade or 0,
            conta_de=p.conta_de,
            conta_de_descricao=" ".join(p.conta_de_texto.split()) if p.conta_de_texto else eventos[p.conta_de],
            prorroga=(
                p.prorroga_fim_sem_expediente
                if p.prorroga_fim_sem_expediente is not None
                else c.prorroga_fim_sem_expediente
            ),
            escolha=p.escolha.strip() if p.escolha else None,
            justificativa=p.justificativa.strip() if p.justificativa else None,
            exemplo=p.exemplo,
            depois_de=p.depois_de,
            observacao=p.observacao.strip() if p.observacao else None,
            texto_legal=" ".join(p.texto_legal.split()) if p.texto_legal else None,
            so_com_penalidade=p.so_com_penalidade,
        )
    for pid, rule in prazos.items():
        if rule.depois_de is not None:
            ref = prazos.get(rule.depois_de)
            if ref is None or ref.tipo == "dia_seguinte":
                raise err(("prazos", pid, "depois_de"), f"'{rule.depois_de}' não é um prazo contável deste arquivo.")
            if ref.conta_de != rule.conta_de:
                raise err(
                    ("prazos", pid, "conta_de"), f"deve ser o mesmo evento do prazo de referência ('{ref.conta_de}')."
                )

    seen: set[str] = set()
    for i, pid in enumerate(m.apos_notificacao):
        if pid not in prazos:
            raise err(("apos_notificacao", i), f"prazo '{pid}' não existe em 'prazos'.")
        if prazos[pid].conta_de != NOTICE_EVENT:
            raise err(
                ("apos_notificacao", i), f"o prazo '{pid}' não corre da notificação (conta_de: {prazos[pid].conta_de})."
            )
        if pid in seen:
            raise err(("apos_notificacao", i), f"o prazo '{pid}' aparece duas vezes.")
        seen.add(pid)

    ciclos = {
        cid: CycleRule(
            cid,
            x.descricao.strip(),
            x.base_legal.strip(),
            x.a_cada_dias,
            x.observacao.strip() if x.observacao else None,
        )
        for cid, x in m.ciclos.items()
    }
    return LawDeadlines(
        file=doc.file,
        municipio_dir=municipio_dir,
        lei_file_stem=stem,
        citacao=m.lei.citacao.strip(),
        municipio=m.lei.municipio.strip(),
        uf=m.lei.uf,
        ibge=m.lei.ibge,
        contagem=CountingDefaults(
            c.prorroga_fim_sem_expediente, c.base_legal.strip(), " ".join(c.justificativa.split())
        ),
        eventos=eventos,
        notificacao=NoticeRules(
            n.base_legal.strip(), n.omissa, " ".join(n.adotado.split()) if n.adotado else None, formas
        ),
        apos_notificacao=tuple(m.apos_notificacao),
        prazos=prazos,
        ciclos=ciclos,
    )


# --------------------------------------------------------------------------------------------------
# the deadline rules of a statute, found next to its file

_LAWS: dict[tuple[str, int, bytes], LawDeadlines] = {}


def law_deadlines(statute: Statute) -> LawDeadlines:
    """The deadline rules (``<lei>.prazos.yaml``) next to a statute file, cached while the file is unchanged."""
    municipio_dir, stem = statute.id.split("/", 1)
    root = statute.file.parent.parent
    file = root / municipio_dir / f"{stem}.prazos.yaml"
    try:
        key = (str(file.resolve()), file.stat().st_mtime_ns, official_key(file.parent))
    except OSError:
        key = (str(file), -1, b"")
    if key not in _LAWS:
        _LAWS[key] = load_law_deadlines(root, municipio_dir, stem)
    return _LAWS[key]
