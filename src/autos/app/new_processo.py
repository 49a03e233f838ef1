"""`autos novo`: a new processo file with every field its auto needs, each commented in Portuguese.

Which fields the auto needs is data: the law's processo rules (``processo_campos`` and the ``campos`` of
the initial act, each with its article) and the elements of the auto de infração in the statute's rules
(``documentos.auto_de_infracao.elementos``, case paths translated to the processo file as
:mod:`autos.checks.acts` does). Each infraction chosen gets the facts its fine formula needs
(quantidade, periodo, capacidade, gravidade…). Every value is left blank for the clerk; ``autos
validar`` on the new file lists, as findings with the article, what is still missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from autos.errors import InputError, OutputError
from autos.processo.fields import FIELD_DOCS
from autos.rules.procedure import Procedure, load_procedure
from autos.rules.statute import (
    ApprehensionCosts,
    CapacityFine,
    FixedFine,
    GravityFine,
    PeriodicDoublingFine,
    QuantityFine,
    RuleSet,
    Statute,
    formula_for,
)
from autos.store.files import write_atomic

__all__ = ["new_processo_text", "write_new_processo"]

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


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def comment(self, indent: int, text: str) -> None:
        if text:
            self.lines.append(f"{' ' * indent}# {text}")

    def field(self, indent: int, key: str, comment: str, value: str = "", item: bool = False) -> None:
        self.comment(indent, comment)
        lead = " " * indent + ("- " if item else "")
        self.lines.append(f"{lead}{key}:{' ' + value if value else ''}")


def _infraction_fields(statute: Statute, inf_id: str, penalty: str | None) -> list[tuple[str, str]]:
    """(field, comment) of the facts this infraction's fine needs."""
    inf = statute.infracoes[inf_id]
    out: list[tuple[str, str]] = []
    if inf.exige_complemento:
        rotulo = inf.complemento_rotulo or FIELD_DOCS["Infracao.complemento"]
        out.append(("complemento", f"{rotulo} — exigido por {statute.cite(inf.citacao)}"))
    f = formula_for(statute, inf, penalty) if penalty else None
    if f is None:
        return out
    where = statute.cite(f.citacao)
    if isinstance(f, QuantityFine):
        out.append(("quantidade", f"quantidade constatada, em {f.medida}: a multa de {where} é de "
                                  f"{f.unidades} {statute.unidade_fiscal.sigla} para cada {f.por} {f.medida}"))
    if isinstance(f, FixedFine | QuantityFine) and f.repeticao is not None:
        out.append(("periodo", f"período de {f.repeticao.dias} dias cobrado por este auto (1 = primeira multa), "
                               f"{statute.cite(f.repeticao.citacao)}"))
    if isinstance(f, PeriodicDoublingFine):
        out.append(("periodo", f"período de {f.dias} dias sem atendimento cobrado por este auto (1 = valor "
                               f"inicial; a multa dobra a cada período), {where}"))
    if isinstance(f, FixedFine) and f.advertencia_previa is not None:
        out.append(("advertencia_previa", f"{FIELD_DOCS['Infracao.advertencia_previa']} — a multa só cabe após "
                                          f"advertência escrita ({statute.cite(f.advertencia_previa.citacao)})"))
    if isinstance(f, CapacityFine):
        out.append(("capacidade", f"{FIELD_DOCS['Infracao.capacidade']}: a multa de {where} varia por faixa "
                                  "de capacidade"))
    if isinstance(f, FixedFine) and f.abatimento_caucao is not None:
        out.append(("caucao_depositada", f"{FIELD_DOCS['Infracao.caucao_depositada']} "
                                         f"({statute.cite(f.abatimento_caucao.citacao)})"))
        out.append(("capacidade", f"{FIELD_DOCS['Infracao.capacidade']}: define o valor da caução"))
    if isinstance(f, GravityFine):
        out.append(("gravidade", f"gravidade atribuída pelo agente: {', '.join(f.niveis)} ({where})"))
    if isinstance(f, ApprehensionCosts):
        out.append(("especie", f"espécie do animal apreendido: {', '.join(f.especies)} ({where})"))
        out.append(("quantidade", "número de animais apreendidos"))
        out.append(("dias_custodia", f"{FIELD_DOCS['Infracao.dias_custodia']} ({statute.cite(f.citacao_diarias)})"))
    if f.reincidencia is not None:
        out.append(("reincidente", f"{FIELD_DOCS['Infracao.reincidente']} ({statute.cite(f.reincidencia.citacao)})"))
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


def new_processo_text(rules: RuleSet, lei: str, infracoes: list[str], numero: str, juridica: bool = False) -> str:
    """The text of a new processo file for ``lei`` with the auto of ``infracoes``; values left blank."""
    statute = _check_choice(rules, lei, infracoes)
    if not numero.strip():
        raise InputError("o número do processo não pode ficar vazio (--numero).")
    proc = load_procedure(rules.root, lei)
    needs = _needs(statute, proc, juridica)
    lei_label = statute.lei.label
    admitted = [set(statute.infracoes[i].penalidades) for i in infracoes]
    penalty = "multa" if all("multa" in a for a in admitted) else None
    w = _Writer()
    w.comment(0, f"Processo administrativo — {lei_label}. Criado por `autos novo`.")
    w.comment(0, "Preencha os campos vazios (depois dos dois-pontos). `autos validar ESTE_ARQUIVO` diz o que")
    w.comment(0, "ainda falta, com o artigo. Datas: AAAA-MM-DD; horas: \"HH:MM\" entre aspas.")
    w.field(0, "lei", "lei do processo (não altere)", lei)
    w.field(0, "numero", "número do processo administrativo", json.dumps(numero.strip(), ensure_ascii=False))

    # autuado
    tipo = "pessoa_juridica" if juridica else "pessoa_fisica"
    w.field(0, "autuado", needs.comment(("autuado",), "Processo.autuado"))
    w.field(2, "tipo", FIELD_DOCS["Autuado.tipo"], tipo)
    doc_field = "cnpj" if juridica else "cpf"
    for name in ("nome", doc_field, "qualificacao"):
        if name == "nome" or needs.has(("autuado", name)):
            w.field(2, name, needs.comment(("autuado", name), f"Autuado.{name}"))
    if needs.has(("autuado", "endereco")):
        w.field(2, "endereco", needs.comment(("autuado", "endereco"), "Autuado.endereco")
                + " (se o autuado está em local incerto, troque por endereco_desconhecido: true)")
        for name in _ENDERECO:
            w.field(4, name, FIELD_DOCS[f"Endereco.{name}"])
    if juridica:
        w.field(2, "responsavel_legal", needs.comment(("autuado", "responsavel_legal"), "Autuado.responsavel_legal"))
        for name in ("nome", "cpf", "qualificacao"):
            w.field(4, name, needs.comment(("autuado", "responsavel_legal", name), f"Pessoa.{name}"))

    # where and what
    w.field(0, "local", needs.comment(("local",), "", "local da infração"))
    if needs.has(("data_infracao",)):
        w.field(0, "data_infracao", needs.comment(("data_infracao",), "", "data da infração (AAAA-MM-DD)"))
    w.field(0, "fatos", needs.comment(("fatos",), "Processo.fatos"))
    w.field(0, "infracoes", needs.comment(("infracoes",), "Processo.infracoes"))
    for inf_id in infracoes:
        inf = statute.infracoes[inf_id]
        w.field(2, "regra", f"{_one_line(inf.descricao)} ({statute.cite(inf.citacao)})", inf_id, item=True)
        for name, comment in _infraction_fields(statute, inf_id, penalty):
            w.field(4, name, _one_line(comment))

    # the auto
    auto_kind = proc.initial_kind()
    rule = proc.atos[auto_kind]
    w.field(0, "atos", FIELD_DOCS["Processo.atos"] + "; acrescente os seguintes (notificação, defesa…) abaixo do "
            "auto, na ordem em que acontecerem")
    w.field(2, "tipo", f"{rule.nome} ({proc.cite(rule.citacao)})", auto_kind, item=True)
    w.field(4, "numero", "número do auto (número/ano, p. ex. 17/2026)")
    w.field(4, "data", needs.comment(("auto", "data"), "", "data da lavratura (AAAA-MM-DD)"))
    for name in ("hora", "local"):
        if needs.has(("auto", name)):
            w.field(4, name, needs.comment(("auto", name), "", "hora da lavratura (\"HH:MM\", entre aspas)"
                                           if name == "hora" else "local da lavratura do auto"))
    if needs.has(("auto", "agente")):
        w.field(4, "agente", needs.comment(("auto", "agente"), "Ato.agente"))
        for name in ("nome", "cargo", "matricula", "crmv", "medico_veterinario_oficial"):
            if name in ("nome", "cargo", "matricula") or needs.has(("auto", "agente", name)):
                w.field(6, name, needs.comment(("auto", "agente", name), f"Agente.{name}"))
    if needs.has(("auto", "penalidades")) or penalty is not None:
        others = sorted(set().union(*admitted) - {penalty} if penalty else set().union(*admitted))
        comment = needs.comment(("auto", "penalidades"), "Ato.penalidades")
        comment += f"; cabíveis para estas infrações: {', '.join(sorted(set().union(*admitted)))}"
        w.field(4, "penalidades", _one_line(comment))
        if penalty is not None:
            pen = statute.penalidades[penalty]
            w.field(6, "tipo", f"{pen.nome} ({statute.cite(pen.citacao)})"
                    + (f"; outras: {', '.join(others)}" if others else ""), penalty, item=True)
            if pen.multa_minima is not None:
                w.field(8, "valor_base", f"valor-base da multa em {statute.unidade_fiscal.sigla}, entre "
                        f"{pen.multa_minima} e {pen.multa_maxima} ({statute.cite(pen.citacao)}), entre aspas")
    if needs.has(("auto", "assinaturas")):
        w.field(4, "assinaturas", needs.comment(("auto", "assinaturas"), "Ato.assinaturas"))
        w.field(6, "autuado", FIELD_DOCS["Assinaturas.autuado"])
        for name in ("situacao", "data", "nome_de_quem_assinou"):
            w.field(8, name, needs.comment(("auto", "assinaturas", "autuado", name), f"AssinaturaAutuado.{name}"))
    return "\n".join(w.lines) + "\n"


def write_new_processo(rules: RuleSet, target: Path, lei: str, infracoes: list[str], numero: str,
                       juridica: bool = False, replace: bool = False) -> None:
    """Write the new processo to ``target`` atomically; an existing file is kept unless ``replace``."""
    text = new_processo_text(rules, lei, infracoes, numero, juridica)
    if target.exists() and not replace:
        raise OutputError("o arquivo já existe; nada foi gravado.", file=target,
                          hint="escolha outro nome (-o) ou use --substituir para sobrescrever.")
    write_atomic(target, text.encode())
