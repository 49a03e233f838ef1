"""Who signs each act of a processo, and whether the register of authorities makes them competent for it.

The register (:mod:`autos.rules.authorities`, ``rules/<municipio>/autoridades.yaml``) says which posts may practise
which act kinds of a law, on what basis, and who holds each post when. For every act whose kind the register
governs (some post of the law has it in its ``competencias``), the signer is found — the act's own ``agente`` (by
matrícula, else by name), the auto's agent for an act without one (as its document prints it), the ``autoridade``
of a decision (by name, matrícula or the post's name) — and checked **on the act's date**:

* ``AUTORIDADE-DESCONHECIDA``: nobody in the register answers to that name, matrícula or post (an office the law
  does not name, such as a "Secretário Municipal de Agricultura" in Timóteo, whose SIM belongs to the Secretaria
  Municipal de Desenvolvimento Econômico, Turismo e Agricultura, art. 1º);
* ``AGENTE-DIVERGENTE``: the matrícula is someone else's;
* ``AUTORIDADE-FORA-DO-CARGO``: the person did not hold the post on that date;
* ``COMPETENCIA-AUSENTE``: the post has no competence for the act then (a Secretary deciding an appeal against an
  organ of the Fundação de Saúde de Cuiabá with no legal basis);
* ``DESIGNACAO-AUSENTE``: the law gives the competence to designated servants (Timóteo art. 20) and the register
  has no act designating this one;
* ``IMPEDIMENTO``: the agent who drew up the auto judges its defence or appeal (Lei federal nº 9.784/1999, art. 18,
  by analogy), or the authority that judged the first instance decides the appeal against itself (art. 56, § 1º).

All are errors (``erro``): an act by an incompetent or impeded authority is void. :func:`act_signer` gives the
document of an act its signer (:class:`~autos.processo.case.Signatario`: the person, the post, the basis).
No file I/O: the register comes in loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from autos.base.yamlio import PathKey, format_path
from autos.compute.finding import Finding
from autos.processo.case import Agente, Signatario
from autos.processo.load import LoadedProcesso
from autos.rules.authorities import Authorities, Holder, Signer, normalize_name
from autos.rules.calendar import format_date
from autos.rules.procedure import Procedure

__all__ = ["DECISIONS", "RECEIPTS", "SIGNED_BY_AUTHORITY", "SignerSource", "act_signer", "appeal_authority",
           "appeal_lies", "competence_findings", "signer_source"]

#: act kinds that decide the auto (first instance) or an appeal: signed by their ``autoridade``
DECISIONS = ("julgamento", "decisao_recurso")
#: act kinds signed by the authority they name (``autoridade``): the decisions, and the despacho in which the
#: authority that judged does not reconsider and forwards the appeal (Lei 9.784/1999, art. 56, § 1º, by analogy)
SIGNED_BY_AUTHORITY = (*DECISIONS, "encaminhamento_recurso")
#: act kinds whose document is a receipt: signed by their own ``agente`` only (who received the protocol)
RECEIPTS = ("defesa", "recurso")
_LEI_9784_ART18 = "Lei federal nº 9.784/1999, art. 18 (impedimento), por analogia"
_LEI_9784_ART56 = "Lei federal nº 9.784/1999, art. 56, § 1º (recurso à autoridade superior), por analogia"


@dataclass(frozen=True)
class SignerSource:
    """Whom act ``i`` names as its signer: an agent (of the act itself or of the auto) or a decision's authority."""

    path: PathKey  # where the name is typed
    agente: Agente | None = None
    autoridade: str | None = None
    own: bool = True  # the act names its signer itself (not the auto's agent by default)


def _auto_index(loaded: LoadedProcesso, proc: Procedure) -> int | None:
    initial = proc.initial_kind()
    return next((i for i, a in enumerate(loaded.processo.atos) if a.tipo == initial), None)


def signer_source(loaded: LoadedProcesso, proc: Procedure, i: int) -> SignerSource | None:
    """Who act ``i`` is signed by, as the processo says (``None``: it names nobody; the document's elements say
    what is missing)."""
    a = loaded.processo.atos[i]
    if a.tipo in SIGNED_BY_AUTHORITY:
        return SignerSource(("atos", i, "autoridade"), autoridade=a.autoridade) if a.autoridade else None
    if a.agente is not None:
        return SignerSource(("atos", i, "agente"), agente=a.agente)
    if a.tipo in RECEIPTS:
        return None
    k = _auto_index(loaded, proc)
    if k is None or k == i:
        return None
    auto = loaded.processo.atos[k]
    return SignerSource(("atos", k, "agente"), agente=auto.agente, own=False) if auto.agente is not None else None


def _governed(auth: Authorities, lei: str, kind: str) -> bool:
    return any(c.lei == lei and kind in c.atos for p in auth.cargos.values() for c in p.competencias)


@dataclass
class _Resolved:
    holder: int | None
    problem: tuple[str, str, str] | None  # (code, message, hint)


def _resolve(auth: Authorities, src: SignerSource, d: date, lei: str = "", kind: str = "") -> _Resolved:
    """The holder ``src`` names on ``d`` (of one person's entries, the one serving then whose post has the competence
    for ``kind``, if any), or why none."""
    def _serving(found: list[tuple[int, Holder]], d: date) -> int:
        on = [k for k, h in found if h.serves(d)]
        fit = [k for k in on if auth.competences(auth.titulares[k].cargo, lei, kind, d)]
        return (fit or on or [found[0][0]])[0]

    if src.agente is not None:
        ag = src.agente
        if ag.matricula:
            found = auth.by_matricula(ag.matricula)
            if found:
                k, h = found[0]
                if ag.nome and normalize_name(ag.nome) != normalize_name(h.nome):
                    return _Resolved(None, ("AGENTE-DIVERGENTE", f"a matrícula {ag.matricula} é de {h.display} "
                                            f"({auth.cargos[h.cargo].nome}) no registro de autoridades, não de "
                                            f"{ag.nome}", "confira o nome e a matrícula do agente."))
                return _Resolved(k, None)
        if ag.nome:
            found = auth.by_name(ag.nome)
            if found:
                if ag.matricula and found[0][1].matricula:
                    h = found[0][1]
                    return _Resolved(None, ("AGENTE-DIVERGENTE", f"{ag.nome} tem a matrícula {h.matricula} no "
                                            f"registro de autoridades, não {ag.matricula}",
                                            "confira o nome e a matrícula do agente."))
                return _Resolved(_serving(found, d), None)
        who = ag.nome or (f"matrícula {ag.matricula}" if ag.matricula else "o agente")
        return _Resolved(None, ("AUTORIDADE-DESCONHECIDA", f"{who} não está no registro de autoridades",
                                "use o nome e a matrícula de um titular do registro; se é servidor do Município, "
                                "acrescente-o em 'titulares' (com o ato de designação, se a lei o exige)."))
    text = src.autoridade or ""
    pieces = [text, text.split(",", 1)[0]]
    for piece in pieces:
        found = auth.by_name(piece) or auth.by_matricula(piece)
        if found:
            return _Resolved(_serving(found, d), None)
    for piece in pieces:
        posts = auth.posts_named(piece)
        if posts:
            holders = [(k, h) for k, h in enumerate(auth.titulares) if h.cargo in posts]
            if any(h.serves(d) for _, h in holders):
                return _Resolved(_serving(holders, d), None)
            return _Resolved(None, ("AUTORIDADE-FORA-DO-CARGO", f"o registro de autoridades não tem titular de "
                                    f"'{auth.cargos[posts[0]].nome}' em {format_date(d)}",
                                    "acrescente o titular do cargo nessa data em 'titulares' (desde, ate)."))
    return _Resolved(None, ("AUTORIDADE-DESCONHECIDA", f"'{text}' não é pessoa nem cargo do registro de autoridades",
                            "escreva em 'autoridade' o nome, a matrícula ou o cargo de um titular do registro."))


def _organs(auth: Authorities) -> str:
    return "; ".join(f"{o.nome} ({o.citacao.short()})" for o in auth.orgaos.values())


def _who_may(auth: Authorities, proc: Procedure, kind: str, d: date) -> str:
    posts = auth.competent_posts(proc.lei, kind, d)
    if not posts:
        return "nenhum cargo do registro nessa data"
    out = []
    for pid in posts:
        c = auth.competences(pid, proc.lei, kind, d)[0]
        basis = c.citacao.full(proc.citacao) if c.citacao is not None else (c.ato.text() if c.ato else "")
        if c.por == "delegacao" and c.ato is not None:
            basis += f", por delegação ({c.ato.text()})"
        if c.interpretacao:
            basis += f" (escolha {c.interpretacao} das regras do processo)"
        out.append(f"{auth.post_label(pid)}, {basis}")
    return "; ".join(out)


def _label(loaded: LoadedProcesso, proc: Procedure, i: int) -> str:
    a = loaded.processo.atos[i]
    r = proc.atos.get(a.tipo)
    name = r.nome if r else a.tipo
    num = f" nº {a.numero}" if a.numero else ""
    when = f" de {format_date(d)}" if (d := a.data_do_ato) else ""
    return f"{name}{num}{when} (atos[{i}])"


def _finding(loaded: LoadedProcesso, code: str, message: str, path: PathKey, base: str | None,
             hint: str | None) -> Finding:
    return Finding(severidade="erro", codigo=code, mensagem=message, citacao=base, caminho=format_path(path),
                   linha=loaded.line_of(path), dica=hint)


def _holder_of(auth: Authorities, src: SignerSource | None, d: date | None, proc: Procedure) -> int | None:
    if src is None or d is None:
        return None
    return _resolve(auth, src, d, proc.lei, proc.initial_kind()).holder


def competence_findings(loaded: LoadedProcesso, proc: Procedure, auth: Authorities | None) -> list[Finding]:
    """Every act's signer against the register on the act's date (see the module's docstring); none without a
    register (the municipality has no ``autoridades.yaml``)."""
    if auth is None:
        return []
    out: list[Finding] = []
    p = loaded.processo
    auto = _auto_index(loaded, proc)
    auto_src = signer_source(loaded, proc, auto) if auto is not None else None
    auto_holder = _holder_of(auth, auto_src, p.atos[auto].data_do_ato, proc) if auto is not None else None
    judged_by: int | None = None
    for i, a in enumerate(p.atos):
        rule = proc.atos.get(a.tipo)
        d = a.data_do_ato
        if rule is None or d is None or not _governed(auth, proc.lei, a.tipo):
            continue
        src = signer_source(loaded, proc, i)
        if src is None:
            continue
        label = _label(loaded, proc, i)
        where = src.path if src.own else ("atos", i)
        by_auto = "" if src.own else " (o agente do auto, que o assina por não ter o ato agente próprio)"
        res = _resolve(auth, src, d, proc.lei, a.tipo)
        if res.problem is not None and not src.own and i != auto and auto_holder is None:
            continue  # the auto's agent, already reported on the auto
        if res.problem is not None:
            code, msg, hint = res.problem
            extra = f" Órgãos que a lei nomeia: {_organs(auth)}." if code == "AUTORIDADE-DESCONHECIDA" else ""
            out.append(_finding(loaded, code, f"{label}{by_auto}: {msg}; quem pode praticá-lo em {format_date(d)}: "
                                f"{_who_may(auth, proc, a.tipo, d)}.{extra}", where, proc.cite(rule.citacao),
                                f"{hint} Registro: {auth.file}."))
            continue
        assert res.holder is not None
        h = auth.titulares[res.holder]
        if not h.serves(d):
            end = f" até {format_date(h.ate)}" if h.ate else ""
            out.append(_finding(loaded, "AUTORIDADE-FORA-DO-CARGO", f"{label}{by_auto}: {h.display} ocupa o cargo "
                                f"de {auth.cargos[h.cargo].nome} desde {format_date(h.desde)}{end}, não em "
                                f"{format_date(d)}; quem pode praticá-lo nessa data: "
                                f"{_who_may(auth, proc, a.tipo, d)}.", where, proc.cite(rule.citacao),
                                f"confira a data do ato ou o período do titular em {auth.file}."))
            continue
        if not auth.competences(h.cargo, proc.lei, a.tipo, d):
            out.append(_finding(loaded, "COMPETENCIA-AUSENTE", f"{label}{by_auto}: {h.display}, "
                                f"{auth.post_label(h.cargo)}, não tem competência para {rule.nome} em "
                                f"{format_date(d)}; pela {proc.citacao} e pelo registro de autoridades, quem o "
                                f"pratica é: {_who_may(auth, proc, a.tipo, d)}.", where, proc.cite(rule.citacao),
                                "o ato praticado por autoridade incompetente é nulo: refaça-o pela autoridade "
                                f"competente ou, se há lei ou ato que dê a competência, registre-o em {auth.file} "
                                "(cargos.<cargo>.competencias, com o artigo ou o ato publicado)."))
            continue
        need = auth.needs_designation(res.holder, proc.lei, a.tipo, d)
        if need is not None:
            cite = need.citacao.full(proc.citacao) if need.citacao is not None else proc.citacao
            out.append(_finding(loaded, "DESIGNACAO-AUSENTE", f"{label}{by_auto}: a {cite} dá a competência aos "
                                f"servidores designados, e o registro de autoridades não tem o ato que designa "
                                f"{h.display}.", where, cite,
                                f"informe em {auth.file}, titulares[{res.holder}].designacao, a portaria de designação "
                                "(espécie, número, data e publicação)."))
            continue
        if a.tipo in DECISIONS:
            impeded = _impediment(loaded, proc, auth, i, res.holder, auto, auto_holder, judged_by, label)
            if impeded is not None:
                out.append(impeded)
            if a.tipo == "julgamento":
                judged_by = res.holder
    return out


def _impediment(loaded: LoadedProcesso, proc: Procedure, auth: Authorities, i: int, holder: int, auto: int | None,
                auto_holder: int | None, judged_by: int | None, label: str) -> Finding | None:
    a = loaded.processo.atos[i]
    h = auth.titulares[holder]
    path: PathKey = ("atos", i, "autoridade")
    same = auto_holder is not None and normalize_name(auth.titulares[auto_holder].nome) == normalize_name(h.nome)
    if same and auto is not None:
        return _finding(loaded, "IMPEDIMENTO", f"{label}: {h.display} lavrou o auto de infração "
                        f"({_label(loaded, proc, auto)}) e não pode julgar a defesa ou o recurso contra ele: quem "
                        "acusa não decide (Lei federal nº 9.784/1999, art. 18, por analogia; escolha "
                        "impedimento-autuante das regras do processo).", path, _LEI_9784_ART18,
                        "a decisão deve ser de outra autoridade competente (veja o registro de autoridades).")
    if a.tipo == "decisao_recurso" and judged_by is not None and \
            normalize_name(auth.titulares[judged_by].nome) == normalize_name(h.nome):
        return _finding(loaded, "IMPEDIMENTO", f"{label}: {h.display} julgou a primeira instância e não pode decidir "
                        "o recurso contra a própria decisão: o recurso sobe à autoridade superior (Lei federal nº "
                        "9.784/1999, art. 56, § 1º, por analogia).", path, _LEI_9784_ART56,
                        "a decisão do recurso deve ser da autoridade competente para o recurso (veja o registro de "
                        "autoridades).")
    return None


def act_signer(loaded: LoadedProcesso, proc: Procedure, auth: Authorities | None, i: int) -> Signatario | None:
    """The signer of act ``i``'s documents as the register knows them on the act's date, with the basis of the
    competence; ``None`` when the processo names nobody, the register is absent or does not make them competent
    (then :func:`competence_findings` says why)."""
    if auth is None:
        return None
    a = loaded.processo.atos[i]
    d = a.data_do_ato
    src = signer_source(loaded, proc, i)
    if src is None or d is None:
        return None
    res = _resolve(auth, src, d, proc.lei, a.tipo)
    if res.holder is None:
        return None
    s: Signer | None = auth.signer(res.holder, proc.lei, a.tipo, d, {proc.lei: proc.citacao})
    if s is None:
        return None
    return Signatario(nome=s.nome, cargo=s.cargo, orgao=s.orgao, matricula=s.matricula, competencia=s.competencia,
                      delegacao=s.delegacao, exemplo=s.exemplo, fontes=list(s.fontes))


def appeal_lies(proc: Procedure, kind: str) -> bool:
    """Whether the law's rite has an appeal against a decision of ``kind`` (an act kind that cites it and follows
    it, as Timóteo's and Cuiabá's ``recurso`` against the ``julgamento``); if not, the decision closes the
    administrative instance."""
    return any(r.preclusivo and kind in r.cita and kind in r.segue for r in proc.atos.values())


def appeal_authority(auth: Authorities | None, proc: Procedure, d: date) -> str | None:
    """Who decides an appeal lodged on ``d`` (the posts competent for ``decisao_recurso``, with their organ)."""
    if auth is None:
        return None
    posts = [p for p in auth.competent_posts(proc.lei, "decisao_recurso", d)
             if not any(c.por == "delegacao" for c in auth.competences(p, proc.lei, "decisao_recurso", d))]
    if not posts:
        posts = auth.competent_posts(proc.lei, "decisao_recurso", d)
    return " ou ".join(auth.post_label(p) for p in posts) or None


def payment_deadline(proc: Procedure, kind: str, resultado: str | None) -> str | None:
    """The id of the deadline to pay the fine a decision of ``kind`` keeps or reduces: the one the notice of that
    decision starts and a payment meets (``None``: the rite starts none from it, as Ferraz, whose payment runs from
    the notificação final, art. 80)."""
    for rule in proc.atos.values():
        if rule.forma is None:
            continue
        for s in rule.inicia:
            b = proc.prazos.get(s.prazo or "")
            if (b is not None and kind in s.se_referente and (not s.se_resultado or resultado in s.se_resultado)
                    and any(proc.atos[k].encerra for k in b.cumprido_por if k in proc.atos)):
                return s.prazo
    return None


def appeal_deadline(proc: Procedure, kind: str) -> str | None:
    """The id of the deadline to appeal against a decision of ``kind``: the one the notice of that decision starts
    and an appeal meets (``None``: no appeal lies)."""
    for rule in proc.atos.values():
        if rule.forma is None:
            continue
        for s in rule.inicia:
            b = proc.prazos.get(s.prazo or "")
            if b is not None and kind in s.se_referente and any(
                    proc.atos[k].preclusivo and kind in proc.atos[k].cita for k in b.cumprido_por if k in proc.atos):
                return s.prazo
    return None
