"""`autos novo`: a new processo file with every field its auto needs, each commented in Portuguese.

Which fields the auto needs is data: the law's processo rules (``processo_campos`` and the ``campos`` of
the initial act, each with its article) and the elements of the auto de infração in the statute's rules
(``documentos.auto_de_infracao.elementos``, case paths translated to the processo file as
:mod:`autos.checks.acts` does). Each infraction chosen gets the facts its fine formula needs
(quantidade, periodo, capacidade, gravidade…). Every value is left blank for the clerk; ``autos
validar`` on the new file lists, as findings with the article, what is still missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from autos.errors import InputError, OutputError
from autos.processo.fields import FIELD_DOCS
from autos.processo.text import PathKey, Slot, render_slots, yaml_scalar
from autos.rules.fine_rules import (
    ApprehensionCosts,
    CapacityFine,
    FixedFine,
    GravityFine,
    PeriodicDoublingFine,
    QuantityFine,
)
from autos.rules.procedure import Procedure, load_procedure
from autos.rules.statute import RuleSet, Statute, formula_for
from autos.store.files import write_atomic

__all__ = ["NewProcessoPlan", "new_processo_text", "plan_new_processo", "write_new_processo"]

Path_ = tuple[str, ...]

#: the auto document kind whose elements the new file must carry
AUTO_DOCUMENT = "auto_de_infracao"

#: case path of an element → path in the processo file (the auto is ``atos[0]``, written ``auto.…`` here)
_CASE_TO_PROCESSO: dict[str, Path_] = {
    "lavratura.local": ("auto", "local"), "lavratura.data": ("auto", "data"), "lavratura.hora": ("auto", "hora"),
    "penalidades": ("auto", "penalidades"), "numero": ("auto", "numero"), "processo": ("numero",),
}

_ENDERECO = ("logradouro", "numero", "bairro", "municipio", "uf", "cep")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _valid_ids(what: str, ids: Iterable[str]) -> str:
    return f"{what} válidos: {', '.join(sorted(ids))}."


class _Needs:
    """The fields the auto needs, each with why (element or rule and article)."""

    def __init__(self) -> None:
        self.why: dict[Path_, list[str]] = {}

    def add(self, path: Path_, reason: str) -> None:
        reasons = self.why.setdefault(path, [])
        if reason not in reasons:
            reasons.append(reason)

    def has(self, path: Path_) -> bool:
        return any(p[: len(path)] == path for p in self.why)

    def comment(self, path: Path_, model_key: str, fallback: str = "") -> str:
        doc = FIELD_DOCS.get(model_key, fallback)
        reasons = self.why.get(path, [])
        if reasons:
            return _one_line(f"{doc} — exigido: {'; '.join(reasons)}" if doc else f"exigido: {'; '.join(reasons)}")
        return _one_line(doc)


def _needs(statute: Statute, proc: Procedure, juridica: bool) -> _Needs:
    needs = _Needs()
    for f in proc.processo_campos:
        needs.add((f.campo,), f"{proc.cite(f.citacao)}")
    auto_rule = proc.atos[proc.initial_kind()]
    for f in auto_rule.campos:
        needs.add(("auto", f.campo), f"{proc.cite(f.citacao)}")
    kind = statute.documentos.get(AUTO_DOCUMENT)
    for el in kind.elementos if kind is not None else []:
        if el.severidade != "erro":
            continue
        if (el.quando is not None and el.quando.campo == "autuado.tipo"
                and (el.quando.igual == "pessoa_juridica") != juridica):
            continue  # the element of the other kind of autuado
        reason = f"{_one_line(el.descricao)} ({statute.cite(el.citacao)})"
        for campo in el.campos:
            path = _CASE_TO_PROCESSO.get(campo)
            if path is None:
                parts = tuple(campo.split("."))
                if "[" in campo or parts[0] in ("notificacao", "auto", "apreensao"):
                    continue  # stated by a later act, not by the auto
                if parts == ("autuado", "documento"):
                    parts = ("autuado", "cnpj" if juridica else "cpf")
                path = ("auto", *parts) if parts[0] in ("agente", "assinaturas", "circunstancias") else parts
            needs.add(path, reason)
        if el.verificacao == "dispositivos":
            needs.add(("infracoes",), reason)
        elif el.verificacao == "veterinario_oficial":
            needs.add(("auto", "agente", "medico_veterinario_oficial"), reason)
            needs.add(("auto", "agente", "crmv"), reason)
        elif el.verificacao == "assinatura_ou_recusa":
            for name in ("situacao", "data", "nome_de_quem_assinou"):
                needs.add(("auto", "assinaturas", "autuado", name), reason)
    return needs


class _Plan:
    """The slots of the new file in order (see :mod:`autos.processo.text`)."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []

    def field(self, path: PathKey, comment: str, value: str = "", reasons: Iterable[str] = (),
              choices: Iterable[str] = ()) -> None:
        self.slots.append(Slot(path, _one_line(comment), value, tuple(reasons), tuple(choices)))


def _infraction_fields(statute: Statute, inf_id: str,
                       penalty: str | None) -> list[tuple[str, str, tuple[str, ...]]]:
    """(field, comment, choices) of the facts this infraction's fine needs."""
    inf = statute.infracoes[inf_id]
    out: list[tuple[str, str, tuple[str, ...]]] = []

    def add(name: str, comment: str, choices: tuple[str, ...] = ()) -> None:
        out.append((name, comment, choices))

    for pc in inf.pressupostos:  # the facts and the rule of conduct its preconditions ask of the infraction
        if pc.exige.fato is not None:
            add(pc.exige.fato.campo, f"{pc.exige.fato.rotulo} — deve passar de {pc.exige.fato.maior_que} "
                                     f"({statute.cite(pc.citacao)})")
        if (c := pc.exige.norma_de_conduta) is not None:
            laws = " ou ".join(statute.cite(x) for x in c.artigos_da_lei)
            regs = ", ".join(k for k, r in statute.regulamentos.items() if not r.exemplo)
            add("norma", f"norma de conduta infringida ({statute.cite(pc.citacao)}): um artigo da lei ({laws})"
                         + (f" ou o de um regulamento do registro ({regs})" if c.regulamentos and regs else ""))
            add("norma.artigo", FIELD_DOCS["NormaInfringida.artigo"])
            add("norma.paragrafo", FIELD_DOCS["NormaInfringida.paragrafo"])
            if c.regulamentos and regs:
                add("norma.regulamento", FIELD_DOCS["NormaInfringida.regulamento"], tuple(regs.split(", ")))
    if inf.exige_complemento and not any(pc.exige.norma_de_conduta for pc in inf.pressupostos):
        rotulo = inf.complemento_rotulo or FIELD_DOCS["Infracao.complemento"]
        add("complemento", f"{rotulo} — exigido por {statute.cite(inf.citacao)}")
    f = formula_for(statute, inf, penalty) if penalty else None
    if f is None:
        return out
    where = statute.cite(f.citacao)
    if isinstance(f, QuantityFine):
        add("quantidade", f"quantidade constatada, em {f.medida}: a multa de {where} é de "
                          f"{f.unidades} {statute.unidade_fiscal.sigla} para cada {f.por} {f.medida}")
    if isinstance(f, FixedFine | QuantityFine) and f.repeticao is not None:
        add("periodo", f"período de {f.repeticao.dias} dias cobrado por este auto (1 = primeira multa), "
                       f"{statute.cite(f.repeticao.citacao)}")
    if isinstance(f, PeriodicDoublingFine):
        add("periodo", f"período de {f.dias} dias sem atendimento cobrado por este auto (1 = valor "
                       f"inicial; a multa dobra a cada período), {where}")
    if isinstance(f, FixedFine) and f.advertencia_previa is not None:
        add("advertencia_previa", f"{FIELD_DOCS['Infracao.advertencia_previa']} — a multa só cabe após "
                                  f"advertência escrita ({statute.cite(f.advertencia_previa.citacao)})")
    if isinstance(f, CapacityFine):
        add("capacidade", f"{FIELD_DOCS['Infracao.capacidade']}: a multa de {where} varia por faixa de capacidade")
    if isinstance(f, FixedFine) and f.abatimento_caucao is not None:
        add("caucao_depositada", f"{FIELD_DOCS['Infracao.caucao_depositada']} "
                                 f"({statute.cite(f.abatimento_caucao.citacao)})")
        add("capacidade", f"{FIELD_DOCS['Infracao.capacidade']}: define o valor da caução")
    if isinstance(f, GravityFine):
        add("gravidade", f"gravidade atribuída pelo agente: {', '.join(f.niveis)} ({where})", tuple(f.niveis))
    if isinstance(f, ApprehensionCosts):
        add("especie", f"espécie do animal apreendido: {', '.join(f.especies)} ({where})", tuple(f.especies))
        add("quantidade", "número de animais apreendidos")
        add("dias_custodia", f"{FIELD_DOCS['Infracao.dias_custodia']} ({statute.cite(f.citacao_diarias)})")
    if f.reincidencia is not None:
        add("reincidente", f"{FIELD_DOCS['Infracao.reincidente']} ({statute.cite(f.reincidencia.citacao)})")
    return out


def _check_choice(rules: RuleSet, lei: str, infracoes: list[str]) -> Statute:
    if lei not in rules.statutes:
        raise InputError(f"lei '{lei}' não encontrada nas regras.", hint=_valid_ids("Ids de lei", rules.statutes))
    statute = rules.statutes[lei]
    if not infracoes:
        raise InputError("informe ao menos uma infração (--infracao ID).",
                         hint=_valid_ids(f"Ids de infração da lei {lei}", statute.infracoes))
    for inf_id in infracoes:
        if inf_id not in statute.infracoes:
            raise InputError(f"infração '{inf_id}' não existe na lei {lei}.",
                             hint=_valid_ids(f"Ids de infração da lei {lei}", statute.infracoes))
    return statute


@dataclass(frozen=True)
class NewProcessoPlan:
    """What a new processo of these choices holds: the header comment and the slots (path, comment, preset
    value, why the law asks for it) in file order — the one source of `autos novo`, the web form and the
    spreadsheet import."""

    statute: Statute
    procedure: Procedure
    header: tuple[str, ...]
    slots: tuple[Slot, ...]
    penalidades: tuple[str, ...]  # the penalties proposed (ids), in order

    def text(self) -> str:
        return render_slots(self.header, self.slots)


def _check_penalties(statute: Statute, infracoes: list[str], penalidades: list[str] | None) -> list[str]:
    admitted = [set(statute.infracoes[i].penalidades) for i in infracoes]
    union = set().union(*admitted)
    if penalidades is None:
        return ["multa"] if all("multa" in a for a in admitted) else []
    for pid in penalidades:
        if pid not in union:
            raise InputError(f"penalidade '{pid}' não é cabível para as infrações escolhidas.",
                             hint=_valid_ids("Ids de penalidade cabíveis", union))
    return list(dict.fromkeys(penalidades))


def plan_new_processo(rules: RuleSet, lei: str, infracoes: list[str], numero: str, juridica: bool = False,
                      numero_auto: str | None = None, penalidades: list[str] | None = None,
                      origem: str = "por `autos novo`", procedure: Procedure | None = None) -> NewProcessoPlan:
    """The slots of a new processo file for ``lei`` with the auto of ``infracoes`` proposing ``penalidades``
    (None: the fine, where every infraction admits it); values left blank except the law, the numbers, the
    kind of autuado and the ids chosen."""
    statute = _check_choice(rules, lei, infracoes)
    proc = procedure if procedure is not None else load_procedure(rules.root, lei)
    needs = _needs(statute, proc, juridica)
    chosen = _check_penalties(statute, infracoes, penalidades)
    admitted = sorted(set().union(*(statute.infracoes[i].penalidades for i in infracoes)))
    w = _Plan()
    why = needs.why.get
    header = (f"Processo administrativo — {statute.lei.label}. Criado {origem}.",
              "Preencha os campos vazios (depois dos dois-pontos). `autos validar ESTE_ARQUIVO` diz o que",
              "ainda falta, com o artigo. Datas: AAAA-MM-DD; horas: \"HH:MM\" entre aspas.")
    w.field(("lei",), "lei do processo (não altere)", lei)
    w.field(("numero",), "número do processo administrativo", yaml_scalar(numero.strip()) if numero.strip() else "",
            ["número do processo (obrigatório)"])

    # autuado
    tipo = "pessoa_juridica" if juridica else "pessoa_fisica"
    w.field(("autuado",), needs.comment(("autuado",), "Processo.autuado"), reasons=why(("autuado",), []))
    w.field(("autuado", "tipo"), FIELD_DOCS["Autuado.tipo"], tipo)
    doc_field = "cnpj" if juridica else "cpf"
    for name in ("nome", doc_field, "qualificacao"):
        if name == "nome" or needs.has(("autuado", name)):
            w.field(("autuado", name), needs.comment(("autuado", name), f"Autuado.{name}"),
                    reasons=why(("autuado", name), []))
    if needs.has(("autuado", "endereco")):
        reasons = why(("autuado", "endereco"), [])
        w.field(("autuado", "endereco"), needs.comment(("autuado", "endereco"), "Autuado.endereco")
                + " (se o autuado está em local incerto, troque por endereco_desconhecido: true)", reasons=reasons)
        for name in _ENDERECO:
            w.field(("autuado", "endereco", name), FIELD_DOCS[f"Endereco.{name}"], reasons=reasons)
    if juridica:
        w.field(("autuado", "responsavel_legal"),
                needs.comment(("autuado", "responsavel_legal"), "Autuado.responsavel_legal"))
        for name in ("nome", "cpf", "qualificacao"):
            rl = ("autuado", "responsavel_legal", name)
            w.field(rl, needs.comment(rl, f"Pessoa.{name}"), reasons=why(rl, []))

    # where and what
    w.field(("local",), needs.comment(("local",), "", "local da infração"), reasons=why(("local",), []))
    if needs.has(("data_infracao",)):
        w.field(("data_infracao",), needs.comment(("data_infracao",), "", "data da infração (AAAA-MM-DD)"),
                reasons=why(("data_infracao",), []))
    w.field(("fatos",), needs.comment(("fatos",), "Processo.fatos"), reasons=why(("fatos",), []))
    w.field(("infracoes",), needs.comment(("infracoes",), "Processo.infracoes"), reasons=why(("infracoes",), []))
    fine = "multa" if "multa" in chosen else None
    for i, inf_id in enumerate(infracoes):
        inf = statute.infracoes[inf_id]
        w.field(("infracoes", i, "regra"), f"{_one_line(inf.descricao)} ({statute.cite(inf.citacao)})", inf_id)
        seen: set[str] = set()
        for name, comment, options in _infraction_fields(statute, inf_id, fine):
            if name in seen:
                continue
            seen.add(name)
            w.field(("infracoes", i, *name.split(".")), comment, reasons=[_one_line(comment)], choices=options)

    # the auto
    auto_kind = proc.initial_kind()
    rule = proc.atos[auto_kind]
    auto: PathKey = ("atos", 0)
    w.field(("atos",), FIELD_DOCS["Processo.atos"] + "; acrescente os seguintes (notificação, defesa…) abaixo do "
            "auto, na ordem em que acontecerem")
    w.field((*auto, "tipo"), f"{rule.nome} ({proc.cite(rule.citacao)})", auto_kind)
    if numero_auto is not None:
        w.field((*auto, "numero"), "número do auto, reservado no registro (autos numerar): não altere",
                yaml_scalar(numero_auto))
    else:
        w.field((*auto, "numero"), "número do auto (número/ano, p. ex. 17/2026)")
    w.field((*auto, "data"), needs.comment(("auto", "data"), "", "data da lavratura (AAAA-MM-DD)"),
            reasons=why(("auto", "data"), []))
    for name in ("hora", "local"):
        if needs.has(("auto", name)):
            w.field((*auto, name), needs.comment(("auto", name), "", "hora da lavratura (\"HH:MM\", entre aspas)"
                                                 if name == "hora" else "local da lavratura do auto"),
                    reasons=why(("auto", name), []))
    if needs.has(("auto", "agente")):
        w.field((*auto, "agente"), needs.comment(("auto", "agente"), "Ato.agente"), reasons=why(("auto", "agente"), []))
        for name in ("nome", "cargo", "matricula", "crmv", "medico_veterinario_oficial"):
            if name in ("nome", "cargo", "matricula") or needs.has(("auto", "agente", name)):
                w.field((*auto, "agente", name), needs.comment(("auto", "agente", name), f"Agente.{name}"),
                        reasons=why(("auto", "agente", name), why(("auto", "agente"), [])))
    if needs.has(("auto", "penalidades")) or chosen:
        comment = needs.comment(("auto", "penalidades"), "Ato.penalidades")
        comment += f"; cabíveis para estas infrações: {', '.join(admitted)}"
        w.field((*auto, "penalidades"), comment, reasons=why(("auto", "penalidades"), []))
        for j, pid in enumerate(chosen):
            pen = statute.penalidades[pid]
            others = [p for p in admitted if p not in chosen]
            at: PathKey = (*auto, "penalidades", j)
            w.field((*at, "tipo"), f"{pen.nome} ({statute.cite(pen.citacao)})"
                    + (f"; outras: {', '.join(others)}" if others and j == 0 else ""), pid)
            if pen.multa_minima is not None:
                w.field((*at, "valor_base"), f"valor-base da multa em {statute.unidade_fiscal.sigla}, entre "
                        f"{pen.multa_minima} e {pen.multa_maxima} ({statute.cite(pen.citacao)}), entre aspas",
                        reasons=[f"multa de {pen.multa_minima} a {pen.multa_maxima} {statute.unidade_fiscal.sigla} "
                                 f"({statute.cite(pen.citacao)})"])
                # the amount of a range is motivated (Timóteo art. 16, § 2º), and where the law gives the warning to a
                # first offender, the fine says why not the warning (art. 16, I): autos.checks.reasons
                w.field((*at, "motivo_valor"), f"{FIELD_DOCS['PenalidadeProposta.motivo_valor']}",
                        reasons=[f"multa de faixa motivada ({statute.cite(pen.citacao)})"])
                warning = next((w_id for w_id, w_pen in statute.penalidades.items()
                                if w_pen.somente_primario_sem_agravante and w_id in admitted), None)
                if warning is not None:
                    wpen = statute.penalidades[warning]
                    w.field((*at, "motivo_nao_advertencia"),
                            f"{FIELD_DOCS['PenalidadeProposta.motivo_nao_advertencia']} ({statute.cite(wpen.citacao)}: "
                            "ao primário sem agravante cabe a advertência, não a multa; sem saber se é primário, "
                            "diga o processo anterior)",
                            reasons=[f"{wpen.nome} ao primário sem agravante ({statute.cite(wpen.citacao)})"])
            if pen.condicoes:
                cases = "; ".join(f"{cid}: {_one_line(c.descricao)} ({statute.cite(c.citacao)})"
                                  for cid, c in pen.condicoes.items())
                w.field((*at, "condicao"), f"o caso em que a lei admite a {pen.nome}: {cases}",
                        reasons=[f"{pen.nome} só nos casos de {statute.cite(pen.citacao)}"], choices=pen.condicoes)
            if pen.exige_itens:
                w.field((*at, "itens"), f"{FIELD_DOCS['PenalidadeProposta.itens']} ({statute.cite(pen.citacao)})",
                        reasons=[f"{pen.nome}: os itens ({statute.cite(pen.citacao)})"])
                for name in ("descricao", "quantidade"):
                    w.field((*at, "itens", 0, name), FIELD_DOCS[f"ItemApreendido.{name}"],
                            reasons=[f"{pen.nome}: os itens ({statute.cite(pen.citacao)})"] if name == "descricao"
                            else [])
    if needs.has(("auto", "assinaturas")):
        w.field((*auto, "assinaturas"), needs.comment(("auto", "assinaturas"), "Ato.assinaturas"),
                reasons=why(("auto", "assinaturas"), []))
        w.field((*auto, "assinaturas", "autuado"), FIELD_DOCS["Assinaturas.autuado"])
        for name in ("situacao", "data", "nome_de_quem_assinou"):
            path = (*auto, "assinaturas", "autuado", name)
            w.field(path, needs.comment(("auto", "assinaturas", "autuado", name), f"AssinaturaAutuado.{name}"),
                    reasons=why(("auto", "assinaturas", "autuado", name), []))
    return NewProcessoPlan(statute, proc, header, tuple(w.slots), tuple(chosen))


def new_processo_text(rules: RuleSet, lei: str, infracoes: list[str], numero: str, juridica: bool = False,
                      numero_auto: str | None = None) -> str:
    """The text of a new processo file for ``lei`` with the auto of ``infracoes``; values left blank except the
    auto's number when one was reserved (``numero_auto``)."""
    if not numero.strip():
        _check_choice(rules, lei, infracoes)
        raise InputError("o número do processo não pode ficar vazio (--numero).")
    return plan_new_processo(rules, lei, infracoes, numero, juridica, numero_auto).text()


def write_new_processo(rules: RuleSet, target: Path, lei: str, infracoes: list[str], numero: str,
                       juridica: bool = False, replace: bool = False, numero_auto: str | None = None) -> None:
    """Write the new processo to ``target`` atomically; an existing file is kept unless ``replace``."""
    text = new_processo_text(rules, lei, infracoes, numero, juridica, numero_auto)
    if target.exists() and not replace:
        raise OutputError("o arquivo já existe; nada foi gravado.", file=target,
                          hint="escolha outro nome (-o) ou use --substituir para sobrescrever.")
    write_atomic(target, text.encode())
