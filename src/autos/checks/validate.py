"""Stage 2 — validate: check a loaded case against its statute and report findings.

A finding has a severity (``erro`` blocks a final document, ``aviso`` does not), a stable code, a
Portuguese message, the legal citation, and the YAML path and line it points at. The checks are
driven by the statute's rules (required elements, penalties, circumstances); the code here only
knows *kinds* of checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from itertools import pairwise
from typing import Any

from autos.base.dotted import resolve
from autos.base.yamlio import PathKey, format_path
from autos.checks.finding import Finding, Report
from autos.compute.fines import compute_fines, costs_by_day
from autos.compute.result import CaseComputation
from autos.errors import AutosError, InputError, RulesFileError
from autos.processo.case import Case, PenalidadeProposta
from autos.processo.load_case import LoadedCase
from autos.rules.deadlines import NOTICE_EVENT, law_deadlines
from autos.rules.document_kinds import Element
from autos.rules.infractions import EXCEPTION_KIND_PT, Penalty
from autos.rules.statute import RuleSet, Statute
from autos.rules.statute_base import Severity


def _split(dotted: str) -> PathKey:
    return tuple(dotted.split("."))


_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[(?:([A-Za-z_][A-Za-z0-9_]*)=([^\]]*))?\])?")


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def select(obj: Any, dotted: str) -> list[tuple[PathKey, Any]]:
    """Values of a dotted path, each with its concrete path; lists are entered with ``[]`` (every item)
    or ``[campo=valor]`` (items whose field has that value): ``penalidades[tipo=apreensao].itens``.
    A path without lists gives one value (``None`` when absent); a list selector matching no item, none."""
    found: list[tuple[PathKey, Any]] = [((), obj)]
    for part in dotted.split("."):
        m = _SEGMENT.fullmatch(part)
        if m is None:
            raise ValueError(f"invalid path segment {part!r} in {dotted!r}")
        name, listed, key, wanted = m.groups()
        step: list[tuple[PathKey, Any]] = []
        for path, cur in found:
            value = getattr(cur, name, None) if cur is not None else None
            here: PathKey = (*path, name)
            if not listed:
                step.append((here, value))
                continue
            for i, item in enumerate(value or []):
                if key is None or _text(getattr(item, key, None)) == wanted:
                    step.append(((*here, i), item))
        found = step
    return found


def _yaml_value(value: Any) -> str:
    """A value as the user writes it in the YAML file (``true``/``false`` for booleans)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | tuple | dict):
        return len(value) == 0
    return False


class _Checker:
    def __init__(self, loaded: LoadedCase, statute: Statute, today: date,
                 defence_check: Callable[[Statute, str | None], str | None] | None,
                 computed: CaseComputation | None) -> None:
        self.loaded = loaded
        self.computed = computed
        self.case: Case = loaded.case
        self.statute = statute
        self.today = today
        self.defence_check = defence_check
        self.findings: list[Finding] = []

    def add(self, sev: Severity, code: str, message: str, path: PathKey | str | None,
            citation: str | None = None, hint: str | None = None) -> None:
        key: PathKey = _split(path) if isinstance(path, str) else (path or ())
        self.findings.append(Finding(
            severidade=sev,
            codigo=code,
            mensagem=message,
            citacao=citation,
            caminho=format_path(key) if key else None,
            linha=self.loaded.line_of(key) if key else None,
            arquivo=str(self.loaded.file),
            dica=hint,
        ))

    # --- required elements -------------------------------------------------------------------
    def elements(self) -> None:
        kind = self.statute.documentos[self.case.documento]
        for el in kind.elementos:
            if el.quando is not None and not el.quando.holds(resolve(self.case, el.quando.campo)):
                continue
            getattr(self, f"_el_{el.verificacao}")(el)

    def _missing(self, el: Element, what: str, path: PathKey | str | None) -> None:
        cite = self.statute.cite(el.citacao)
        self.add(el.severidade, el.codigo, f"falta {what}: {el.descricao}.", path, cite, el.dica)

    def _pretty(self, dotted: str) -> str:
        return dotted.replace("autuado.documento", f"autuado.{self.case.autuado.documento_rotulo.lower()}")

    def _key(self, path: PathKey) -> PathKey:
        if path == ("autuado", "documento"):
            return ("autuado", self.case.autuado.documento_rotulo.lower())
        return path

    def _absent_at(self, dotted: str) -> PathKey | None:
        """Where a required field is missing (its first blank value, or the list that has no item), else None."""
        values = select(self.case, dotted)
        if not values:  # a list with no (matching) item: point at the list
            head = dotted.split("[", 1)[0]
            return tuple(head.split("."))
        for path, value in values:
            if _blank(value):
                return path
        return None

    def _el_campos(self, el: Element) -> None:
        absent = [(f, at) for f in el.campos if (at := self._absent_at(f)) is not None]
        if absent:
            pretty = ", ".join(self._pretty(f) for f, _ in absent)
            self._missing(el, f"elemento obrigatório ({pretty})", self._key(absent[0][1]))

    def _el_valores(self, el: Element) -> None:
        allowed = ", ".join(_text(v) for v in el.valores)
        for f in el.campos:
            for path, value in select(self.case, f):
                if _blank(value) or value in el.valores or _text(value) in el.valores:
                    continue
                self.add(el.severidade, el.codigo, f"o campo '{format_path(path)}' vale '{_text(value)}', mas "
                         f"{el.descricao} (valor exigido: {allowed}).", path, self.statute.cite(el.citacao), el.dica)
                return

    def _el_datas_em_ordem(self, el: Element) -> None:
        dated: list[tuple[PathKey, date]] = []
        for f in el.campos:
            values = [(p, v) for p, v in select(self.case, f) if isinstance(v, date)]
            if values:
                dated.append(values[0])
        for (p1, d1), (p2, d2) in pairwise(dated):
            if d2 < d1:
                self.add(el.severidade, el.codigo, f"a data em '{format_path(p2)}' ({d2.strftime('%d/%m/%Y')}) é "
                         f"anterior à data em '{format_path(p1)}' ({d1.strftime('%d/%m/%Y')}): {el.descricao}.",
                         p2, self.statute.cite(el.citacao), el.dica)
                return

    def _el_prazo(self, el: Element) -> None:
        cite = self.statute.cite(el.citacao)
        deadline_id = el.prazo
        if el.prazo_campo is not None:
            value = resolve(self.case, el.prazo_campo)
            if _blank(value):
                self._missing(el, f"elemento obrigatório ({el.prazo_campo})", el.prazo_campo)
                return
            deadline_id = str(value)
            if el.valores and deadline_id not in el.valores:
                self.add(el.severidade, el.codigo, f"o prazo '{deadline_id}' não é um dos previstos para este "
                         f"documento: {el.descricao}.", el.prazo_campo, cite,
                         f"use um destes: {', '.join(_text(v) for v in el.valores)}.")
                return
        assert deadline_id is not None
        try:
            law = self.computed.law() if self.computed is not None else law_deadlines(self.statute)
        except RulesFileError:
            raise  # the rules are unusable: not a finding of this case
        except AutosError as exc:
            self.add("erro", el.codigo, f"as regras de prazos da lei não puderam ser lidas: {exc.message}", None,
                     cite, el.dica)
            return
        rule = law.prazos.get(deadline_id)
        if rule is None:
            self.add("erro", el.codigo, f"o prazo '{deadline_id}' não está nas regras de prazos ({law.file}).",
                     el.prazo_campo, cite, f"use um de: {', '.join(sorted(law.prazos))}.")
            return
        from_notice = rule.conta_de == NOTICE_EVENT
        if from_notice == bool(el.campos):
            where = "da data informada em " + el.campos[0] if el.campos else "da notificação"
            self.add("erro", el.codigo, f"o prazo '{deadline_id}' ({rule.base_legal}) corre da "
                     f"{rule.conta_de_descricao}, e este documento o conta {where}.", el.prazo_campo, cite, el.dica)
            return
        if el.campos:
            self._el_campos(el)

    def _el_multa_calculada(self, el: Element) -> None:

        try:
            result = self.computed.fines() if self.computed is not None else compute_fines(self.case, self.statute)
        except AutosError:
            return  # reported with its path by fines.fine_findings (MULTA-INCALCULAVEL)
        if result is None:
            self._missing(el, "o valor a cobrar (nenhuma penalidade proposta tem valor)", "penalidades")

    def _el_custas_por_dia(self, el: Element) -> None:

        assert el.penalidade is not None
        try:
            by_day = (self.computed.costs_by_day(el.penalidade) if self.computed is not None
                      else costs_by_day(self.case, self.statute, el.penalidade))
        except AutosError as exc:
            self.add(el.severidade, el.codigo, f"as despesas por dia não podem ser calculadas: {exc.message}",
                     _dotted_key(exc.path) if exc.path else "infracoes", self.statute.cite(el.citacao),
                     exc.hint or el.dica)
            return
        if not by_day:
            self.add(el.severidade, el.codigo, f"nenhuma infração do caso admite a penalidade "
                     f"'{el.penalidade}': {el.descricao}.", "infracoes", self.statute.cite(el.citacao), el.dica)

    def _el_dispositivos(self, el: Element) -> None:
        if not self.case.infracoes:
            self._missing(el, "elemento obrigatório (infracoes)", "infracoes")
            return
        for i, inf in enumerate(self.case.infracoes):
            rule = self.statute.infracoes.get(inf.regra)
            if rule is None:
                known = ", ".join(sorted(self.statute.infracoes))
                self.add("erro", "REGRA-DESCONHECIDA",
                         f"a infração '{inf.regra}' não existe nas regras da {self.statute.lei.label}.",
                         ("infracoes", i, "regra"), self.statute.cite(el.citacao),
                         f"use um destes identificadores: {known}.")
            elif rule.fundamento_apreensao and self.case.documento not in rule.fundamento_apreensao:
                docs = self.statute.documentos
                only = " e o ".join(docs[k].titulo for k in rule.fundamento_apreensao)
                self.add("erro", "FUNDAMENTO-NAO-E-INFRACAO",
                         f"'{inf.regra}' ({self.statute.cite(rule.citacao)}) não é infração: é fundamento da "
                         f"apreensão, que só o {only} cita; o {docs[self.case.documento].titulo} exige a conduta "
                         "infringida.", ("infracoes", i, "regra"), self.statute.cite(rule.citacao),
                         "cite em 'infracoes' a conduta proibida que o fato constitui (veja `autos regras mostrar`), "
                         "ou lavre só o termo de apreensão.")
            elif rule.exige_complemento and _blank(inf.complemento) and rule.fundamento_apreensao:
                what = " ".join((rule.complemento_rotulo or "complemento").split())
                self.add(el.severidade, el.codigo, f"o fundamento da apreensão '{inf.regra}' "
                         f"({self.statute.cite(rule.citacao)}) exige o complemento: {what}.", ("infracoes", i),
                         self.statute.cite(rule.citacao), f"informe infracoes[{i}].complemento: {what}.")
            elif rule.exige_complemento and _blank(inf.complemento) and (inf.norma is None or inf.norma.artigo is None):
                self.add(el.severidade, el.codigo,
                         f"a infração '{inf.regra}' exige o {rule.complemento_rotulo or 'complemento'}.",
                         ("infracoes", i), self.statute.cite(el.citacao),
                         f"informe infracoes[{i}].complemento (p. ex. o artigo do regulamento infringido).")

    def _el_prazo_defesa(self, el: Element) -> None:
        if self.defence_check is None:
            problem: str | None = "o motor de prazos não foi consultado"
        else:
            problem = self.defence_check(self.statute, el.prazo)
        if problem:
            self.add(el.severidade, el.codigo, f"o prazo para apresentação de defesa não pode ser informado: "
                     f"{problem}.", None, self.statute.cite(el.citacao), el.dica)

    def _el_veterinario_oficial(self, el: Element) -> None:
        ag = self.case.agente
        if ag.medico_veterinario_oficial is not True:
            self.add(el.severidade, el.codigo,
                     "o agente autuante não está identificado como médico veterinário oficial.",
                     "agente.medico_veterinario_oficial" if ag.medico_veterinario_oficial is not None else "agente",
                     self.statute.cite(el.citacao), el.dica)
        elif _blank(ag.crmv):
            self.add(el.severidade, el.codigo, "falta o CRMV do médico veterinário oficial.", "agente",
                     self.statute.cite(el.citacao), el.dica)

    def _el_assinatura_ou_recusa(self, el: Element) -> None:
        sig = self.case.assinaturas.autuado
        cite = self.statute.cite(el.citacao)
        if sig is None or sig.situacao is None:
            self._missing(el, "elemento obrigatório (assinaturas.autuado.situacao)", "assinaturas")
            return
        if sig.situacao == "assinou":
            if sig.data is None:
                self.add(el.severidade, el.codigo, "o autuado assinou, mas falta a data aposta na assinatura "
                         f"(ela caracteriza a intimação, {el.citacoes['data'].short()}).", "assinaturas.autuado",
                         cite, "informe assinaturas.autuado.data.")
        elif sig.situacao == "recusou":
            named = [t for t in self.case.assinaturas.testemunhas if not _blank(t.nome)]
            if not named:
                self.add(el.severidade, el.codigo, "o autuado recusou-se a assinar, mas não há testemunha; a "
                         "recusa deve ser certificada na presença de uma testemunha "
                         f"({el.citacoes['recusa'].short()}).",
                         "assinaturas", cite, "informe assinaturas.testemunhas com nome e CPF.")
        else:  # ausente
            forma = self.case.notificacao.forma if self.case.notificacao else None
            if forma is None and self.case.ato is not None:
                forma = self.case.ato.ciencia_posterior  # a processo: the later notice act's form
            if forma is None and self.case.autuado.endereco_desconhecido:
                forma = "edital"  # unknown domicile: the notice will be by edital
            if forma in ("ar", "edital"):
                self.add("aviso", el.codigo, f"autuado ausente na lavratura; a ciência será por "
                         f"{'carta com AR' if forma == 'ar' else 'edital'} ({el.citacoes['ciencia'].short()}).",
                         "assinaturas.autuado", cite)
            else:
                self.add(el.severidade, el.codigo, "autuado ausente na lavratura e sem notificação por AR ou "
                         "edital registrada.", "assinaturas.autuado", cite,
                         "registre em 'notificacao' a forma de ciência (ar ou edital).")

    # --- penalties ---------------------------------------------------------------------------
    def penalties(self) -> None:
        st = self.statute
        allowed: set[str] = set()
        for inf in self.case.infracoes:
            rule = st.infracoes.get(inf.regra)
            if rule:
                allowed.update(rule.penalidades)
        if not self.case.penalidades:
            self.add("aviso", "PENALIDADE-AUSENTE", "nenhuma penalidade proposta no caso.", None,
                     None, "informe em 'penalidades' a penalidade proposta (p. ex. multa com valor_base).")
        for i, prop in enumerate(self.case.penalidades):
            path: PathKey = ("penalidades", i)
            pen = st.penalidades.get(prop.tipo)
            if pen is None:
                self.add("erro", "PENALIDADE-DESCONHECIDA", f"penalidade '{prop.tipo}' não prevista na "
                         f"{st.lei.label}.", (*path, "tipo"), None,
                         f"use uma destas: {', '.join(sorted(st.penalidades))}.")
                continue
            cite = st.cite(pen.citacao)
            if allowed and prop.tipo not in allowed:
                self.add("erro", "PENALIDADE-INCABIVEL", f"a penalidade '{pen.nome}' não está prevista para as "
                         "infrações citadas.", (*path, "tipo"), cite)
            if pen.somente_primario_sem_agravante:
                if self.case.autuado.primario is not True:
                    self.add("erro", "ADVERTENCIA-NAO-PRIMARIO", "advertência só cabe quando o infrator for "
                             "primário; o caso não informa autuado.primario: true.", (*path, "tipo"), cite,
                             "confirme a primariedade em autuado.primario ou proponha multa.")
                if self.case.circunstancias.agravantes:
                    self.add("erro", "ADVERTENCIA-COM-AGRAVANTE", "advertência não cabe quando se verifica "
                             "circunstância agravante.", (*path, "tipo"), cite,
                             "retire a advertência ou revise as agravantes.")
            if pen.multa_minima is not None or pen.multa_maxima is not None:
                sigla = st.unidade_fiscal.sigla
                if prop.valor_base is None:
                    self.add("erro", "MULTA-SEM-VALOR", f"multa proposta sem valor-base em {sigla}.", path,
                             cite, f"informe penalidades[{i}].valor_base em {sigla}.")
                elif (pen.multa_minima is not None and prop.valor_base < pen.multa_minima) or (
                        pen.multa_maxima is not None and prop.valor_base > pen.multa_maxima):
                    self.add("erro", "MULTA-FORA-DA-FAIXA", f"valor-base de {prop.valor_base} {sigla} fora da "
                             f"faixa legal de {pen.multa_minima} a {pen.multa_maxima} {sigla}.",
                             (*path, "valor_base"), cite, "ajuste o valor-base para dentro da faixa.")
            if pen.exige_itens and not prop.itens:
                self.add("erro", "ITENS-AUSENTES", f"a {pen.nome} exige a lista dos itens.", path, cite,
                         f"informe penalidades[{i}].itens com descrição e quantidade.")
            self._penalty_condition(i, prop, pen)
            self._fine_to_first_offender(i, prop, allowed)

    def _fine_to_first_offender(self, i: int, prop: PenalidadeProposta, allowed: set[str]) -> None:
        """Where the law gives the warning to the first offender without aggravating circumstances (Timóteo art. 16,
        I), a fine to such an offender is an error (choice advertencia-primario of the rules)."""
        st, case = self.statute, self.case
        pen = st.penalidades[prop.tipo]
        if pen.multa_minima is None and pen.multa_maxima is None:
            return
        warning = next((pid for pid, w in st.penalidades.items() if w.somente_primario_sem_agravante), None)
        if (warning is None or warning not in allowed or case.autuado.primario is not True
                or case.circunstancias.agravantes or any(x.tipo == warning for x in case.penalidades)):
            return
        wpen = st.penalidades[warning]
        self.add("erro", "MULTA-AO-PRIMARIO", f"o autuado é primário e não há agravante, caso em que a penalidade da "
                 f"lei é a {wpen.nome} ({st.cite(wpen.citacao)}), não a {pen.nome}"
                 + ("; a razão dada para afastá-la (motivo_nao_advertencia) não é agravante da lei." if
                    prop.motivo_nao_advertencia and prop.motivo_nao_advertencia.strip() else "."), ("penalidades", i),
                 st.cite(wpen.citacao), f"proponha a {wpen.nome} (as medidas como a apreensão ficam) ou registre em "
                 "circunstancias.agravantes a agravante verificada.")

    def _penalty_condition(self, i: int, prop: PenalidadeProposta, pen: Penalty) -> None:
        """A penalty the law allows only in listed cases (Timóteo art. 16, V and VI; Ferraz art. 69, §§ 2º and 3º)
        needs the case to name one (``condicao``), and the case's facts must fit it."""
        if not pen.condicoes:
            return
        st, case = self.statute, self.case
        path: PathKey = ("penalidades", i, "condicao")
        listed = "; ".join(f"{cid} ({st.cite(c.citacao)}: {' '.join(c.descricao.split())})"
                           for cid, c in pen.condicoes.items())
        cond = pen.condicoes.get(prop.condicao) if prop.condicao else None
        if cond is None:
            what = (f"a condição '{prop.condicao}' não é uma das previstas" if prop.condicao else
                    "o caso não diz em qual dos casos previstos ela cabe")
            self.add("erro", "PENALIDADE-SEM-CONDICAO", f"a {pen.nome} só cabe nos casos que a lei enumera; {what}.",
                     path if prop.condicao else ("penalidades", i), st.cite(pen.citacao),
                     f"informe penalidades[{i}].condicao: {listed}.")
            return
        cite = st.cite(cond.citacao)
        rules = [inf for inf in case.infracoes if not cond.infracoes or inf.regra in cond.infracoes]
        if not rules:
            self.add("erro", "PENALIDADE-CONDICAO-INFRACAO", f"a condição '{prop.condicao}' da {pen.nome} vale só "
                     f"para as infrações {', '.join(cond.infracoes)}, que o caso não cita.", path, cite,
                     "cite a infração da condição em 'infracoes' ou escolha outra condição.")
        elif cond.reincidente and not any(inf.reincidente for inf in rules):
            self.add("erro", "PENALIDADE-CONDICAO-REINCIDENCIA", f"a condição '{prop.condicao}' da {pen.nome} exige "
                     "reincidência, e o caso não a informa (infracoes[].reincidente: true).", path, cite,
                     "informe a reincidência na infração, com o auto anterior nos fatos, ou retire a penalidade.")
        if cond.pessoa_juridica and case.autuado.tipo != "pessoa_juridica":
            self.add("erro", "PENALIDADE-CONDICAO-ESTABELECIMENTO", f"a condição '{prop.condicao}' da {pen.nome} "
                     "vale para estabelecimento (pessoa jurídica).", path, cite,
                     "confira autuado.tipo ou retire a penalidade.")

    def exceptions(self) -> None:
        """The cases the law takes out of an infraction (``excecoes`` of the rule: Ferraz art. 63, I–XI; arts. 12
        and 23, dispensations; art. 57, tolerance): a case whose facts fall under one (``infracoes[].excecao``)
        gets the exception's finding — the document has no legal basis for that infraction. An infraction the law
        forbids without a penalty (``sem_sancao``) is refused with the recorded choice."""
        st = self.statute
        by_id = {i.id: i for i in st.interpretacoes}
        for i, inf in enumerate(self.case.infracoes):
            rule = st.infracoes.get(inf.regra)
            if rule is None:
                continue  # REGRA-DESCONHECIDA
            if rule.sem_sancao is not None:
                it = by_id[rule.sem_sancao]
                self.add("erro", "INFRACAO-SEM-SANCAO", f"a {st.lei.label} proíbe a conduta da infração "
                         f"'{inf.regra}' ({st.cite(rule.citacao)}), mas não fixa penalidade para ela: "
                         f"{' '.join(it.problema.split())} Escolha adotada ({it.id}): {' '.join(it.escolha.split())}",
                         ("infracoes", i, "regra"), st.cite(rule.citacao),
                         "não lavre o auto por esta infração com estas regras; se o Município confirmar a penalidade "
                         "(e a lei que a fixa), codifique-a nas regras ('penalidades' e 'multa' da infração).")
            if inf.excecao is None:
                continue
            exc = next((e for e in rule.excecoes if e.id == inf.excecao), None)
            path: PathKey = ("infracoes", i, "excecao")
            if exc is None:
                known = ", ".join(f"{e.id} ({e.citacao.short()})" for e in rule.excecoes)
                self.add("erro", "EXCECAO-DESCONHECIDA", f"a exceção '{inf.excecao}' não é uma das que a "
                         f"{st.lei.label} prevê para a infração '{inf.regra}'.", path, st.cite(rule.citacao),
                         f"use uma destas: {known}." if known else
                         "a lei não prevê exceção para esta infração: retire infracoes[].excecao.")
                continue
            what = EXCEPTION_KIND_PT[exc.tipo]
            where = exc.citacao.short() + (f" ({exc.citacao_regra.short()})" if exc.citacao_regra else "")
            self.add(exc.severidade, exc.codigo, f"os fatos enquadram a infração '{inf.regra}' na {what} do "
                     f"{where} — {' '.join(exc.descricao.split())}: {' '.join(exc.efeito.split())}",
                     path, st.cite(exc.citacao),
                     "não lavre o documento por esta infração; se os fatos não se enquadram na exceção, retire "
                     f"infracoes[{i}].excecao e descreva-os em 'fatos'.")

    def refusal(self) -> None:
        """The law's rule on a refusal (``recusa`` of the kind): where the certified refusal is not a notice
        (Ferraz art. 76, I, and art. 77, I: the personal notice needs a dated receipt), the notice must be given
        in another form — a personal notice of a refusing autuado is an error, none yet a warning."""
        kind = self.statute.documentos.get(self.case.documento)
        rule = kind.recusa if kind is not None else None
        sig = self.case.assinaturas.autuado
        if rule is None or rule.ciencia or sig is None or sig.situacao != "recusou":
            return
        forma = self.case.notificacao.forma if self.case.notificacao else None
        if forma is None and self.case.ato is not None:
            forma = self.case.ato.ciencia_posterior
        if forma in ("ar", "edital"):
            return
        cite = self.statute.cite(rule.citacao)
        hint = rule.dica or "notifique o autuado em outra forma prevista na lei."
        if forma is None:
            self.add("aviso", "RECUSA-NAO-NOTIFICA", "o autuado recusou-se a dar ciência do auto, e a recusa não é "
                     f"notificação pela {self.statute.lei.label}; a notificação ainda deve ser feita.",
                     ("assinaturas", "autuado", "situacao"), cite, hint)
            return
        self.add("erro", "RECUSA-NAO-NOTIFICA", f"o autuado recusou-se a dar ciência do auto, e a notificação "
                 f"registrada é '{forma}'; pela {self.statute.lei.label} a recusa não vale como notificação pessoal.",
                 ("assinaturas", "autuado", "situacao"), cite, hint)

    def circumstances(self) -> None:
        st = self.statute
        given = self.case.circunstancias
        if st.circunstancias is None:
            if given.atenuantes or given.agravantes:
                self.add("erro", "CIRCUNSTANCIA-NAO-PREVISTA",
                         f"a {st.lei.label} não prevê circunstâncias atenuantes ou agravantes.", "circunstancias")
            return
        for field, table in (("atenuantes", st.circunstancias.atenuantes),
                             ("agravantes", st.circunstancias.agravantes)):
            for i, letter in enumerate(getattr(given, field)):
                if letter not in table:
                    any_cite = next(iter(table.values())).citacao
                    self.add("erro", "CIRCUNSTANCIA-DESCONHECIDA",
                             f"circunstância {field[:-1]} '{letter}' não está listada na lei.",
                             ("circunstancias", field, i),
                             st.cite(any_cite.model_copy(update={"alinea": None})),
                             f"use as alíneas {', '.join(sorted(table))}.")
        self._circumstance_facts()
        if "a" in given.agravantes and self.case.autuado.primario is True:
            self.add("aviso", "PRIMARIO-REINCIDENTE", "o autuado está marcado como primário e a reincidência "
                     "como agravante; confira.", "autuado.primario")

    def _circumstance_facts(self) -> None:
        """Each circumstance against the fact it presupposes (``exige``: Timóteo art. 16, § 2º, I, a, primariedade
        of an offender who is primário) and against its opposite in the other list (``contraria``: I, e, "não
        afetar a qualidade", with II, g, "afetar a qualidade"), both from the rules."""
        st, given = self.statute, self.case.circunstancias
        assert st.circunstancias is not None
        tables = {"atenuantes": st.circunstancias.atenuantes, "agravantes": st.circunstancias.agravantes}
        names = {"atenuantes": "atenuante", "agravantes": "agravante"}
        for field, other in (("atenuantes", "agravantes"), ("agravantes", "atenuantes")):
            for i, letter in enumerate(getattr(given, field)):
                c = tables[field].get(letter)
                if c is None:
                    continue
                path: PathKey = ("circunstancias", field, i)
                what = f"a circunstância {names[field]} '{letter}' ({c.descricao})"
                if c.exige is not None:
                    need = c.exige
                    actual = resolve(self.case, need.campo)
                    if actual is None or not need.holds(actual):  # rules read as typed
                        want = _yaml_value(need.igual)
                        stated = (f"o caso não informa {need.campo}" if actual is None
                                  else f"o caso informa {need.campo}: {_yaml_value(actual)}")
                        self.add("erro", "CIRCUNSTANCIA-SEM-FATO", f"{what} pressupõe {need.campo}: {want}; {stated}.",
                                 path, st.cite(c.citacao),
                                 f"retire a circunstância ou, se for o caso, informe {need.campo}: {want}.")
                if c.contraria is not None and c.contraria in getattr(given, other) and field == "atenuantes":
                    opp = tables[other][c.contraria]
                    self.add("erro", "CIRCUNSTANCIA-CONTRADITORIA",
                             f"{what} contradiz a circunstância {names[other]} '{c.contraria}' ({opp.descricao}, "
                             f"{st.cite(opp.citacao)}): as duas não podem valer para a mesma infração.",
                             path, st.cite(c.citacao), "mantenha só a que os fatos descritos sustentam.")

    # --- dates and misc ----------------------------------------------------------------------
    def dates(self) -> None:
        lav = self.case.lavratura.data
        if lav and lav > self.today:
            self.add("erro", "DATA-FUTURA", f"a data da lavratura ({lav.strftime('%d/%m/%Y')}) está no futuro.",
                     "lavratura.data", None, "confira o ano e o mês da lavratura.")
        inf = self.case.data_infracao
        if inf and lav and inf > lav:
            self.add("erro", "INFRACAO-APOS-LAVRATURA", "a data da infração é posterior à da lavratura.",
                     "data_infracao")
        if self.case.autuado.pequeno_porte and _blank(self.case.autuado.pequeno_porte_fundamento):
            reds = [r for r in self.statute.reducoes if r.quando == "autuado.pequeno_porte"]
            self.add("aviso", "PEQUENO-PORTE-SEM-FUNDAMENTO", "o enquadramento como pequeno porte não informa "
                     "o fundamento.", "autuado.pequeno_porte",
                     self.statute.cite(reds[0].citacao) if reds else None,
                     "informe autuado.pequeno_porte_fundamento.")
        if self.statute.example_values:
            self.add("aviso", "VALOR-EXEMPLO", f"o valor da {self.statute.unidade_fiscal.sigla} nas regras é um "
                     "EXEMPLO; o documento dirá isso de forma visível.", None,
                     self.statute.cite(self.statute.unidade_fiscal.citacao),
                     "substitua o valor nas regras pelo fixado pelo Município, com o ato de origem.")


def _dotted_key(path: str) -> PathKey:
    """``infracoes[0].especie`` → ``('infracoes', 0, 'especie')``."""
    key: list[str | int] = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        key.append(name)
        key.extend(int(i) for i in re.findall(r"\d+", "[" + rest) if rest)
    return tuple(key)


def statute_for(loaded: LoadedCase, rules: RuleSet) -> Statute:
    """The case's statute; ``InputError`` (file, path, line) if the statute or its document kind does not exist."""
    case = loaded.case
    if case.lei not in rules.statutes:
        raise InputError(f"lei '{case.lei}' não encontrada nas regras.", file=loaded.file, path="lei",
                         line=loaded.line_of(("lei",)),
                         hint=f"use uma destas: {', '.join(sorted(rules.statutes))}.")
    statute = rules.statutes[case.lei]
    if case.documento not in statute.documentos:
        raise InputError(f"a {statute.lei.label} não prevê o documento '{case.documento}'.", file=loaded.file,
                         path="documento", line=loaded.line_of(("documento",)),
                         hint=f"use um destes: {', '.join(sorted(statute.documentos))}.")
    return statute


def validate_case(loaded: LoadedCase, rules: RuleSet, *, today: date | None = None,
                  extra_checks: list[Callable[[LoadedCase, Statute], list[Finding]]] | None = None,
                  defence_check: Callable[[Statute, str | None], str | None] | None = None,
                  computed: CaseComputation | None = None) -> Report:
    """Run every check of the case's statute; ``InputError`` if the statute or kind does not exist. The fines
    and custody costs are read from ``computed`` when given (computed once for the case), else computed here."""
    statute = statute_for(loaded, rules)
    checker = _Checker(loaded, statute, today or date.today(), defence_check, computed)
    checker.elements()
    checker.penalties()
    checker.exceptions()
    checker.refusal()
    checker.circumstances()
    checker.dates()
    findings = checker.findings
    for extra in extra_checks or []:
        findings.extend(extra(loaded, statute))
    order = {"erro": 0, "aviso": 1}
    findings.sort(key=lambda f: (order[f.severidade], f.linha or 0))
    return Report(file=loaded.file, statute=statute, findings=findings)
