"""The preconditions of each act, checked: what the rules say must already be in the processo for the act to be valid.

The rules declare them as data (:mod:`autos.rules.preconditions`): under an act kind of the law's rite
(``atos.<kind>.pressupostos``), under an infraction of the law (``infracoes.<id>.pressupostos``, checked on the act
that imposes it — the auto unless it says otherwise) and, for a penalty the law imposes in a case
(``penalidades.<id>.condicoes.<caso>.obrigatoria``), on the auto. :func:`check_preconditions` turns each one that the
processo does not meet into an error finding of the timeline, with the act, the path and line, the article, what is
missing and how to fix it; :func:`unmet_before` says what a prospective act (the edital ``autos publicar-editais``
is about to add) would miss. Pure: the processo, its checked timeline and the rules in, findings out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal

from autos.base.citation import Citation
from autos.base.yamlio import PathKey, format_path, load_yaml
from autos.compute.finding import Finding
from autos.compute.timeline import Timeline
from autos.errors import AutosError, RulesError
from autos.processo.case import Pessoa, returned_for_unknown_address
from autos.processo.load import LoadedProcesso
from autos.processo.model import Ato
from autos.rules.calendar import format_date
from autos.rules.fine_rules import ApprehensionCosts
from autos.rules.preconditions import ActMatch, ConductRule, FactRequirement, Precondition, UnansweredNotice
from autos.rules.procedure import Procedure
from autos.rules.statute import Statute

__all__ = ["check_preconditions", "check_rules", "unmet_before"]

#: the finding of a penalty the law imposes in the case and the auto does not apply
MANDATORY_PENALTY = "PENALIDADE-OBRIGATORIA"
#: the termo applies the measure with another extent than the auto (total for parcial…)
EXTENT_MISMATCH = "MEDIDA-DIFERENTE-DO-AUTO"


@dataclass(frozen=True)
class _Problem:
    detail: str  # what the processo has or lacks, as the message says it
    path: PathKey  # where in the processo file


class _Checker:
    def __init__(self, loaded: LoadedProcesso, atos: list[Ato], proc: Procedure, statute: Statute,
                 timeline: Timeline | None) -> None:
        self.loaded = loaded
        self.p = loaded.processo
        self.atos = atos
        self.proc = proc
        self.statute = statute
        self.timeline = timeline
        initial = proc.initial_kind()
        self.auto = next((i for i, a in enumerate(atos) if a.tipo == initial), None)

    # ---- helpers -------------------------------------------------------------------------------------------------
    def name(self, kind: str) -> str:
        r = self.proc.atos.get(kind)
        return r.nome if r is not None else kind

    def label(self, i: int) -> str:
        a = self.atos[i]
        num = f" nº {a.numero}" if a.numero else ""
        when = f" de {format_date(d)}" if (d := a.data_do_ato) else ""
        return f"{self.name(a.tipo)}{num}{when} (atos[{i}])"

    def cite(self, c: Citation) -> str:
        return self.statute.cite(c)

    def returns(self, i: int) -> list[int]:
        """The ARs citing what act ``i`` cites that came back, by its date, for an address that does not find the
        person (mudou-se, desconhecido…), in order."""
        a, d = self.atos[i], self.atos[i].data_do_ato
        return [j for j, b in enumerate(self.atos[:i])
                if (rb := self.proc.atos.get(b.tipo)) is not None and rb.forma == "ar" and b.referente == a.referente
                and b.devolucao is not None and d is not None and b.devolucao.data <= d
                and returned_for_unknown_address(b.devolucao.motivo)]

    # ---- predicates ----------------------------------------------------------------------------------------------
    def earlier_act(self, i: int, m: ActMatch) -> _Problem | None:
        a, d = self.atos[i], self.atos[i].data_do_ato
        if d is None:
            return None  # the timeline reports the act without a date
        found: list[int] = []
        other_returns: list[int] = []
        for j, b in enumerate(self.atos[:i]):
            rb = self.proc.atos.get(b.tipo)
            bd = b.data_do_ato
            if rb is None or bd is None or bd > d:
                continue
            if (m.tipos and b.tipo not in m.tipos) or (m.forma is not None and rb.forma != m.forma):
                continue
            if m.mesmo_referente and b.referente != a.referente:
                continue
            if m.devolvido_sem_localizar:
                dev = b.devolucao
                if dev is None or dev.data > d:
                    continue
                if not returned_for_unknown_address(dev.motivo):
                    other_returns.append(j)
                    continue
            found.append(j)
        what = self.describe(m, a)
        if m.depois_da_devolucao and found:
            back = self.returns(i)
            if back:
                last = self.atos[back[-1]]
                assert last.devolucao is not None
                since = last.devolucao.data
                after = [j for j in found if (bd := self.atos[j].data_do_ato) is not None and bd >= since]
                if not after:
                    before = ", ".join(self.label(j) for j in found)
                    return _Problem(f"segue a devolução do AR ({self.label(back[-1])}, devolvido em "
                                    f"{format_date(since)} por '{last.devolucao.motivo}'), e o processo não registra a "
                                    f"{what} feita depois da devolução ({before} é anterior a ela)", ("atos", i))
        if found:
            return None
        if m.depois_da_devolucao and (back := self.returns(i)):
            last = self.atos[back[-1]]
            assert last.devolucao is not None
            return _Problem(f"segue só a devolução do AR ({self.label(back[-1])}, devolvido em "
                            f"{format_date(last.devolucao.data)} por '{last.devolucao.motivo}'), e o processo não "
                            f"registra a {what} feita depois da devolução", ("atos", i))
        detail = f"o processo não registra, antes dele, {what}"
        if other_returns:
            detail += "; " + "; ".join(f"{self.label(j)} voltou por '{_motivo(self.atos[j])}', motivo que não mostra "
                                       "domicílio desconhecido" for j in other_returns)
        return _Problem(detail, ("atos", i))

    def describe(self, m: ActMatch, a: Ato) -> str:
        """The act ``m`` asks for, in words: ``carta com AR ao autuado, devolvida sem localizá-lo``."""
        if m.tipos:
            what = " ou ".join(self.name(k) for k in m.tipos)
        else:
            what = {"ar": "notificação por AR", "pessoal": "notificação pessoal", "recusa": "certidão de recusa",
                    "edital": "edital"}[m.forma or "ar"]
        if m.mesmo_referente and a.referente:
            what += f" do ato nº {a.referente}"
        if m.devolvido_sem_localizar:
            what += " devolvida por motivo que não localiza o autuado (mudou-se, desconhecido, endereço insuficiente…)"
        return what

    def unanswered(self, i: int, n: UnansweredNotice, k: int) -> _Problem | None:
        a, d = self.atos[i], self.atos[i].data_do_ato
        inf = self.p.infracoes[k]
        notice = self.name(n.ato)
        prelims = [j for j in range(i) if self.atos[j].tipo == n.ato]
        cited = next((j for j in prelims if a.referente is not None and self.atos[j].numero == a.referente), None)
        if cited is None:
            if inf.periodo is not None and inf.periodo > 1 and not prelims:
                return None  # a later period's auto: the notice is in the processo of the first (recorded choice)
            if prelims:
                nums = ", ".join(self.label(j) for j in prelims)
                return _Problem(f"não cita a {notice} não atendida: informe em 'referente' o número da {notice} "
                                f"({nums})", ("atos", i, "referente") if a.referente else ("atos", i))
            return _Problem(f"o processo não tem a {notice} que a infração pressupõe, nem o auto a cita "
                            f"('referente')", ("atos", i))
        b = self.atos[cited]
        pid = b.exigencia.prazo if b.exigencia is not None else None
        if pid not in n.prazos:
            allowed = "; ".join(f"{x} ({self.proc.law.deadline(x).base_legal})" for x in n.prazos
                                if x in self.proc.law.prazos)
            return _Problem(f"a {self.label(cited)} dá o prazo '{pid or 'nenhum'}', que não é o do artigo desta "
                            f"infração ({allowed})", ("atos", cited, "exigencia", "prazo"))
        sig = b.assinaturas.autuado if b.assinaturas is not None else None
        if sig is None or sig.situacao != "assinou" or sig.data is None:
            return _Problem(f"a {self.label(cited)} não tem o recibo datado do notificado (assinaturas.autuado: "
                            "assinou, com a data): sem ele não há prova de que a notificação se fez, nem data de que "
                            "corra o prazo", ("atos", cited, "assinaturas"))
        if self.timeline is None or d is None:
            return None
        term = next((ds for ds in self.timeline.prazos if ds.id == pid and ds.iniciado_por == cited), None)
        if term is None:
            return None  # the timeline was not computed: its errors come first
        end = _day(term.fim)
        if d <= end:
            return _Problem(f"foi lavrado em {format_date(d)}, antes de vencer o prazo da {self.label(cited)} "
                            f"({term.deadline.prazo_texto()}, até {format_date(end)}): só a notificação não atendida "
                            "no prazo é infração", ("atos", i, "data"))
        expected = end + timedelta(days=1)
        infr = self.p.data_infracao or d
        path: PathKey = ("data_infracao",) if self.p.data_infracao is not None else ("atos", i, "data")
        source = "data_infracao" if self.p.data_infracao is not None else "a data do auto, sem data_infracao"
        if (inf.periodo or 1) == 1 and infr != expected:
            return _Problem(f"a data da infração é {format_date(infr)} ({source}), mas, vencido em {format_date(end)} "
                            f"o prazo da {self.label(cited)} sem atendimento, a infração se consuma no dia seguinte: "
                            f"{format_date(expected)} (informe data_infracao: {expected.isoformat()})", path)
        if infr < expected:
            return _Problem(f"a data da infração ({format_date(infr)}) é anterior ao fim do prazo da "
                            f"{self.label(cited)} ({format_date(end)})", path)
        return None

    def penalty_in_auto(self, i: int, pen: str) -> _Problem | None:
        if self.auto is None or self.auto == i:
            return None  # no auto yet: the timeline says so
        auto = self.atos[self.auto]
        if any(x.tipo == pen for x in auto.penalidades or []):
            return None
        penalty = self.statute.penalidades.get(pen)
        what = penalty.nome if penalty is not None else pen
        empty = "; a seção de penalidades do auto está vazia" if not auto.penalidades else ""
        return _Problem(f"o {self.label(self.auto)} não lista, em 'penalidades', a penalidade '{pen}' ({what}) que "
                        f"o ato {self.label(i)} executa{empty}",
                        ("atos", self.auto, "penalidades") if auto.penalidades is not None else ("atos", self.auto))

    def depositary(self, i: int, who: list[str]) -> _Problem | None:
        a = self.atos[i]
        aut = self.p.autuado
        people: list[tuple[str, Pessoa]] = []
        if "autuado" in who and aut.tipo == "pessoa_fisica":
            people.append(("o autuado", Pessoa(nome=aut.nome, cpf=aut.cpf)))
        if "responsavel_legal" in who and aut.responsavel_legal is not None:
            people.append(("o seu responsável legal", aut.responsavel_legal))
        named: list[tuple[PathKey, Pessoa]] = []
        if a.fiel_depositario is not None:
            named.append((("atos", i, "fiel_depositario"), a.fiel_depositario))
        for n, x in enumerate(a.penalidades or []):
            if x.fiel_depositario is not None:
                named.append((("atos", i, "penalidades", n, "fiel_depositario"), x.fiel_depositario))
        for path, dep in named:
            if not any(_same_person(dep, p) for _w, p in people):
                whom = " nem ".join(f"{w} ({p.nome or 'sem nome'})" for w, p in people) or "o autuado"
                doc = f", CPF {dep.cpf}" if dep.cpf else ""
                return _Problem(f"o fiel depositário ({dep.nome or 'sem nome'}{doc}) não é {whom}", path)
        return None

    def fact(self, f: FactRequirement, k: int) -> _Problem | None:
        inf = self.p.infracoes[k]
        value = getattr(inf, f.campo)
        if value is None:
            return _Problem(f"infracoes[{k}] não informa {f.rotulo} ('{f.campo}')", ("infracoes", k))
        if Decimal(value) <= f.maior_que:
            return _Problem(f"infracoes[{k}].{f.campo} é {value}: {f.rotulo} deve ser maior que {f.maior_que}",
                            ("infracoes", k, f.campo))
        return None

    def conduct(self, c: ConductRule, k: int) -> _Problem | None:
        inf = self.p.infracoes[k]
        rule = self.statute.infracoes.get(inf.regra)
        defined = f"a {self.cite(rule.citacao)}, que só define a infração" if rule is not None else "o dispositivo"
        allowed = [self.cite(x) for x in c.artigos_da_lei]
        options = (f"um destes artigos da lei — {'; '.join(allowed)} — " if allowed else "") + (
            "ou o artigo de um regulamento do registro 'regulamentos' das regras" if c.regulamentos else "")
        n = inf.norma
        if n is not None and n.artigo is None:
            return _Problem(f"infracoes[{k}].norma não diz o artigo da norma de conduta infringida ({options})",
                            ("infracoes", k, "norma"))
        if n is None:
            free = (f"; o complemento '{inf.complemento}' é texto livre, que não se confere contra a lei nem contra o "
                    "registro de regulamentos") if inf.complemento else ""
            return _Problem(f"infracoes[{k}] cita só {defined}, sem a norma de conduta infringida ('norma': "
                            f"{options}){free}", ("infracoes", k))
        if n.regulamento is not None:
            reg = self.statute.regulamentos.get(n.regulamento) if c.regulamentos else None
            if reg is None:
                known = ", ".join(sorted(self.statute.regulamentos)) or "nenhum"
                return _Problem(f"infracoes[{k}].norma cita o regulamento '{n.regulamento}', que não está no registro "
                                f"'regulamentos' das regras (registrados: {known})",
                                ("infracoes", k, "norma", "regulamento"))
            if reg.exemplo:
                why = f": {' '.join(reg.fonte.split())}" if reg.fonte else ""
                return _Problem(f"infracoes[{k}].norma cita o {reg.label()}, regulamento de EXEMPLO, não confirmado "
                                f"pelo Município{why}", ("infracoes", k, "norma", "regulamento"))
            return None
        assert n.artigo is not None
        own = Citation(artigo=n.artigo, paragrafo=n.paragrafo, inciso=n.inciso, alinea=n.alinea)
        if own not in c.artigos_da_lei:
            return _Problem(f"infracoes[{k}].norma cita a {self.cite(own)}, que não é norma de conduta admitida para "
                            f"esta infração (use {options})", ("infracoes", k, "norma"))
        return None

    # ---- the checks ----------------------------------------------------------------------------------------------
    def evaluate(self, pc: Precondition, i: int, k: int | None) -> _Problem | None:
        if pc.quando is not None and pc.quando.endereco_conhecido is not None:
            end = self.p.autuado.endereco
            if (end is not None and bool(end.logradouro)) != pc.quando.endereco_conhecido:
                return None
        req = pc.exige
        if req.ato_anterior is not None:
            return self.earlier_act(i, req.ato_anterior)
        if req.penalidade_no_auto is not None:
            return self.penalty_in_auto(i, req.penalidade_no_auto)
        if req.depositario is not None:
            return self.depositary(i, list(req.depositario))
        problems = [x for kk in ([k] if k is not None else range(len(self.p.infracoes)))
                    if (x := self.per_infraction(pc, i, kk)) is not None]
        return problems[0] if problems else None

    def per_infraction(self, pc: Precondition, i: int, k: int) -> _Problem | None:
        req = pc.exige
        if req.notificacao_nao_atendida is not None:
            return self.unanswered(i, req.notificacao_nao_atendida, k)
        if req.fato is not None:
            return self.fact(req.fato, k)
        assert req.norma_de_conduta is not None
        return self.conduct(req.norma_de_conduta, k)

    def finding(self, pc: Precondition, i: int, problem: _Problem) -> Finding:
        choice = f" (escolha {pc.interpretacao}, veja `autos regras mostrar`)" if pc.interpretacao else ""
        cite = self.cite(pc.citacao)
        message = (f"{self.label(i)} sem o pressuposto da {cite}: {' '.join(pc.descricao.split())} — "
                   f"{problem.detail}{choice}.")
        return Finding(severidade="erro", codigo=pc.codigo, mensagem=message, citacao=cite,
                       caminho=format_path(problem.path), linha=self.loaded.line_of(problem.path),
                       dica=" ".join(pc.dica.split()))

    def act_level(self, i: int) -> list[Finding]:
        rule = self.proc.atos.get(self.atos[i].tipo)
        out = []
        for pc in rule.pressupostos if rule is not None else []:
            problem = self.evaluate(pc, i, None)
            if problem is not None:
                out.append(self.finding(pc, i, problem))
        return out

    def infraction_level(self) -> list[Finding]:
        out = []
        for k, inf in enumerate(self.p.infracoes):
            rule = self.statute.infracoes.get(inf.regra)
            for pc in rule.pressupostos if rule is not None else []:
                kinds = pc.atos or [self.proc.initial_kind()]
                for i, a in enumerate(self.atos):
                    if a.tipo in kinds and (problem := self.evaluate(pc, i, k)) is not None:
                        out.append(self.finding(pc, i, problem))
        return out

    def measure_extent(self) -> list[Finding]:
        """A measure's act that applies it total or parcial (``abrangencia``) applies what the auto applied: the auto
        is the act the defence answers, and its penalty may not be changed by the termo that executes it."""
        if self.auto is None:
            return []
        out = []
        for i, a in enumerate(self.atos):
            if a.abrangencia is None:
                continue
            for k, x in enumerate(self.atos[self.auto].penalidades or []):
                if x.tipo != a.tipo or x.abrangencia is None or x.abrangencia == a.abrangencia:
                    continue
                pen = self.statute.penalidades.get(x.tipo)
                cite = self.cite(pen.citacao) if pen is not None else None
                path: PathKey = ("atos", i, "abrangencia")
                out.append(Finding(
                    severidade="erro", codigo=EXTENT_MISMATCH,
                    mensagem=f"{self.label(i)} aplica a medida {a.abrangencia}, mas o {self.label(self.auto)} a "
                    f"aplicou {x.abrangencia} (atos[{self.auto}].penalidades[{k}].abrangencia): o termo executa a "
                    "penalidade do auto, não a muda.", citacao=cite, caminho=format_path(path),
                    linha=self.loaded.line_of(path),
                    dica="confira qual das duas foi aplicada e corrija a outra; para mudar a medida, lavre novo "
                    "auto."))
        return out

    def mandatory_penalties(self) -> list[Finding]:
        if self.auto is None:
            return []
        auto = self.atos[self.auto]
        pj = self.p.autuado.tipo == "pessoa_juridica"
        out = []
        for pen_id, pen in self.statute.penalidades.items():
            for cid, cond in pen.condicoes.items():
                if not cond.obrigatoria:
                    continue
                for inf in self.p.infracoes:
                    if (inf.regra not in cond.infracoes or (cond.reincidente and inf.reincidente is not True)
                            or (cond.pessoa_juridica and not pj)):
                        continue
                    if any((x.tipo == pen_id and x.condicao == cid) or x.tipo in cond.substituida_por
                           for x in auto.penalidades or []):
                        continue
                    path: PathKey = ("atos", self.auto, "penalidades") if auto.penalidades is not None else (
                        "atos", self.auto)
                    cite = self.cite(cond.citacao)
                    choice = f" (escolha {cond.interpretacao})" if cond.interpretacao else ""
                    facts = ", ".join([inf.regra, *(["reincidente"] if cond.reincidente else []),
                                       *(["pessoa jurídica"] if cond.pessoa_juridica else [])])
                    out.append(Finding(
                        severidade="erro", codigo=MANDATORY_PENALTY,
                        mensagem=f"{self.label(self.auto)}: a {cite} impõe {pen.nome} quando "
                        f"{' '.join(cond.descricao.split())} — o caso deste processo ({facts}) —, e o auto não a "
                        f"aplica{choice}.", citacao=cite, caminho=format_path(path), linha=self.loaded.line_of(path),
                        dica=f"inclua em 'penalidades' do auto {{tipo: {pen_id}, condicao: {cid}}} e registre o ato "
                        "que a executa (veja `autos regras mostrar`)."))
        return out


def _motivo(a: Ato) -> str:
    return a.devolucao.motivo if a.devolucao is not None else ""


def _day(d: date) -> date:
    return d.date() if isinstance(d, datetime) else d


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold().strip()


def _same_person(a: Pessoa, b: Pessoa) -> bool:
    """The same person: by CPF digits when both have one, else by the name (accents and case aside)."""
    da, db = ("".join(c for c in x.cpf or "" if c.isdigit()) for x in (a, b))
    if da and db:
        return da == db
    return bool(a.nome and b.nome and _fold(a.nome) == _fold(b.nome))


def check_preconditions(loaded: LoadedProcesso, proc: Procedure, statute: Statute,
                        timeline: Timeline) -> list[Finding]:
    """Every precondition of the rules the processo does not meet, one error finding each (the acts' own, in order;
    the infractions'; the penalties the law imposes in the case)."""
    c = _Checker(loaded, list(loaded.processo.atos), proc, statute, timeline)
    out: list[Finding] = []
    for i in range(len(c.atos)):
        out.extend(c.act_level(i))
    out.extend(c.infraction_level())
    out.extend(c.mandatory_penalties())
    out.extend(c.measure_extent())
    return out


def unmet_before(loaded: LoadedProcesso, proc: Procedure, statute: Statute, timeline: Timeline | None, kind: str,
                 when: date, referente: str | None) -> list[str]:
    """What an act of ``kind``, dated ``when`` and citing ``referente``, would miss if it were added to the processo
    now (``autos publicar-editais`` before it appends the edital): each unmet precondition of the act kind, in
    words, with its article."""
    atos = [*loaded.processo.atos, Ato(tipo=kind, data=when, referente=referente)]
    c = _Checker(loaded, atos, proc, statute, timeline)
    return [f.mensagem + f" Como corrigir: {f.dica}" for f in c.act_level(len(atos) - 1)]


# ---- the rules' own references across the two files ------------------------------------------------------------


def check_rules(proc: Procedure, statute: Statute) -> None:
    """The references of the preconditions that span the law's two rules files (act kinds, deadlines, penalties,
    recorded choices): a :class:`RulesError` naming the file, the key and the line, so that a municipality writing
    its own rules sees the typo, not a silent precondition."""
    choices = {x.id for x in proc.interpretacoes} | {x.id for x in statute.interpretacoes}
    prazos = set(proc.prazos) | set(proc.law.prazos)

    def fail(file: str, path: PathKey, message: str, hint: str) -> AutosError:
        try:
            line = load_yaml(file, RulesError).line_of(path)
        except AutosError:  # pragma: no cover - the file was read a moment ago
            line = None
        return RulesError(message, file=file, path=format_path(path), line=line, hint=hint)

    def refs(pc: Precondition, file: str, where: PathKey, kind_ok: Callable[[str], bool]) -> None:
        if pc.interpretacao is not None and pc.interpretacao not in choices:
            raise fail(file, (*where, "interpretacao"), f"o pressuposto '{pc.id}' cita a interpretação desconhecida "
                       f"'{pc.interpretacao}'.", "use um id de 'interpretacoes' das regras da lei ou do rito.")
        req = pc.exige
        kinds = [*pc.atos, *(req.ato_anterior.tipos if req.ato_anterior else []),
                 *([req.notificacao_nao_atendida.ato] if req.notificacao_nao_atendida else [])]
        for kind in kinds:
            if not kind_ok(kind):
                raise fail(file, where, f"o pressuposto '{pc.id}' cita o ato '{kind}', que o rito da lei não tem.",
                           f"use um dos atos de {proc.file.name}: {', '.join(sorted(proc.atos))}.")
        for pid in req.notificacao_nao_atendida.prazos if req.notificacao_nao_atendida else []:
            if pid not in prazos:
                raise fail(file, where, f"o pressuposto '{pc.id}' cita o prazo '{pid}', que o rito da lei não tem.",
                           "use um id dos prazos da lei ou do rito.")
        pen = req.penalidade_no_auto
        if pen is not None and pen not in statute.penalidades:
            raise fail(file, (*where, "exige", "penalidade_no_auto"), f"o pressuposto '{pc.id}' cita a penalidade "
                       f"'{pen}', que a lei não tem.", f"use uma de: {', '.join(sorted(statute.penalidades))}.")

    for kind, rule in proc.atos.items():
        for n, pc in enumerate(rule.pressupostos):
            refs(pc, str(proc.file), ("atos", kind, "pressupostos", n), lambda k: k in proc.atos)
    for inf_id, inf in statute.infracoes.items():
        for n, pc in enumerate(inf.pressupostos):
            refs(pc, str(statute.file), ("infracoes", inf_id, "pressupostos", n), lambda k: k in proc.atos)
    formulas = [(("penalidades", pen_id, "calculo"), f"da penalidade '{pen_id}'", pen.calculo)
                for pen_id, pen in statute.penalidades.items()]
    formulas += [(("infracoes", inf_id, "multa"), f"da infração '{inf_id}'", inf.multa)
                 for inf_id, inf in statute.infracoes.items()]
    for where, whose, calc in formulas:
        days_of = calc.prazo_diarias if isinstance(calc, ApprehensionCosts) else None
        if days_of is not None and days_of not in prazos:
            raise fail(str(statute.file), (*where, "prazo_diarias"), f"as diárias {whose} contam-se pelo prazo "
                       f"'{days_of}', que a lei não tem.", f"use um id dos prazos da lei: {', '.join(sorted(prazos))}.")
