"""Human-readable listings of the rules (``autos regras``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from autos.base import ptbr
from autos.base.citation import Citation
from autos.compute.fine_labels import total_label
from autos.compute.fines import FineResult
from autos.rules.authorities import Authorities
from autos.rules.preconditions import Precondition, Requirement
from autos.rules.procedure import Procedure
from autos.rules.statute import Interpretation, RuleSet, Statute

if TYPE_CHECKING:  # the coverage table is read only by ``regras cobertura`` (start-up of the others)
    from autos.app.verification.coverage import CoverageReport


def describe_rules(rules: RuleSet) -> str:
    lines = [f"Regras em {rules.root}:"]
    for sid, st in sorted(rules.statutes.items()):
        lines.append(f"  {sid}: {st.lei.label} — {st.lei.municipio}/{st.lei.uf} "
                     f"(IBGE {st.lei.ibge}); unidade fiscal {st.unidade_fiscal.sigla}; "
                     f"documentos: {', '.join(sorted(st.documentos))}")
    return "\n".join(lines)


def _flat(text: str) -> str:
    return " ".join(text.split())


def describe_statute(st: Statute) -> str:
    lei = st.lei
    out = [
        f"{lei.label} — {lei.municipio}/{lei.uf} (IBGE {lei.ibge})",
        f"  {_flat(lei.ementa)}",
        f"  URN: {lei.urn}",
        f"  Arquivo de regras: {st.file}",
        "",
        f"Unidade fiscal: {st.unidade_fiscal.sigla} — {st.unidade_fiscal.nome} ({st.cite(st.unidade_fiscal.citacao)})",
    ]
    for v in st.unidade_fiscal.valores:
        until = f" até {v.ate.isoformat()}" if v.ate else ""
        mark = " [EXEMPLO]" if v.exemplo else ""
        out.append(f"  desde {v.desde.isoformat()}{until}: R$ {v.valor}{mark} — {v.fonte}")
    out.append(f"Arredondamento: {st.arredondamento.casas} casas, {st.arredondamento.modo.replace('_', ' ')}")
    out += ["", "Infrações (id — dispositivo — descrição):"]
    for iid, inf in st.infracoes.items():
        out.append(f"  {iid} — {st.cite(inf.citacao)} — {_flat(inf.descricao)}")
        if inf.fundamento_apreensao:
            kinds = " e o ".join(st.documentos[k].titulo for k in inf.fundamento_apreensao)
            out.append(f"      fundamento da apreensão, não infração: só o {kinds} o citam")
        if inf.sem_sancao is not None:  # forbidden without a penalty in the law: refused (INFRACAO-SEM-SANCAO)
            out.append(f"      sem penalidade nesta lei: o auto é recusado (escolha {inf.sem_sancao})")
        for exc in inf.excecoes:  # the cases the law takes out of it (infracoes[].excecao)
            out.append(f"      exceção {exc.id} [{exc.codigo}]: {_flat(exc.descricao)} ({st.cite(exc.citacao)})")
        out += _preconditions(inf.pressupostos, st.cite, lambda k: k, "      ")
    out += ["", "Penalidades:"]
    for pid, pen in st.penalidades.items():
        out.append(f"  {pid} — {st.cite(pen.citacao)} — {pen.nome}")
        if pen.natureza == "despesa":
            out.append("      despesa devida além das penalidades, com total próprio (não é penalidade)")
        for cid, cond in pen.condicoes.items():  # the cases the law allows it in (penalidades[].condicao)
            mandatory = " — obrigatória nesse caso: o auto que não a aplica é recusado" if cond.obrigatoria else ""
            out.append(f"      só quando {cid}: {_flat(cond.descricao)} ({st.cite(cond.citacao)}){mandatory}")
    if st.regulamentos:
        out += ["", "Regulamentos aplicados com a lei (infracoes[].norma.regulamento):"]
        for rid, reg in st.regulamentos.items():
            mark = " [EXEMPLO: não confirmado; o auto que o cita é recusado]" if reg.exemplo else ""
            where = f"; publicação: {reg.publicacao}" if reg.publicacao else ""
            source = f"; {_flat(reg.fonte)}" if reg.fonte else ""
            out.append(f"  {rid} — {reg.label()}{mark} — {_flat(reg.ementa)} (aplica-se pela "
                       f"{st.cite(reg.fundamento)}{where}{source})")
    for kid, kind in st.documentos.items():
        out += ["", f"Elementos obrigatórios de '{kid}' ({kind.titulo}, {st.cite(kind.citacao)}):"]
        for el in kind.elementos:
            out.append(f"  [{el.severidade}] {el.codigo} — {st.cite(el.citacao)} — {el.descricao}")
    out += _choices("Escolhas onde a lei é omissa ou ambígua:", st.interpretacoes, st.cite)
    return "\n".join(out)


def _choices(title: str, choices: Sequence[Interpretation], cite: Callable[[Citation], str]) -> list[str]:
    """The interpretive choices, each with its provision, the problem and the choice (none: no lines)."""
    if not choices:
        return []
    out = ["", title]
    for i in choices:
        out += [f"  {i.id} ({cite(i.citacao)})", f"    problema: {_flat(i.problema)}",
                f"    escolha: {_flat(i.escolha)}"]
    return out


def _requirement(req: Requirement, name: Callable[[str], str], cite: Callable[[Citation], str]) -> str:
    """What a precondition's predicate checks, in words (the closed set of :mod:`autos.rules.preconditions`)."""
    def kind(k: str) -> str:
        return f"'{k}'" + (f" ({name(k)})" if name(k) != k else "")

    if (m := req.ato_anterior) is not None:
        what = " ou ".join(kind(k) for k in m.tipos) or f"notificação por {m.forma}"
        extra = [("citando o mesmo ato", m.mesmo_referente),
                 ("devolvido por endereço que não acha o autuado (mudou-se, desconhecido…)", m.devolvido_sem_localizar),
                 ("registrado depois da última devolução do AR", m.depois_da_devolucao)]
        return f"ato anterior {what}" + "".join(f", {t}" for t, on in extra if on)
    if (n := req.notificacao_nao_atendida) is not None:
        return (f"cita ('referente') a {kind(n.ato)} com recibo datado, de prazo {', '.join(n.prazos)}, "
                "vencido antes do auto; a infração é do dia seguinte ao fim do prazo")
    if req.penalidade_no_auto is not None:
        return f"o auto lista a penalidade '{req.penalidade_no_auto}'"
    if req.depositario is not None:
        return "o fiel depositário é " + " ou ".join({"autuado": "o autuado",
                                                      "responsavel_legal": "o responsável legal"}[w]
                                                     for w in req.depositario)
    if (f := req.fato) is not None:
        return f"infracoes[].{f.campo} ({f.rotulo}) maior que {f.maior_que}"
    c = req.norma_de_conduta
    assert c is not None
    laws = "; ".join(cite(x) for x in c.artigos_da_lei)
    return ("infracoes[].norma: " + (f"um destes artigos — {laws}" if laws else "")
            + (" ou um artigo de regulamento do registro (não de exemplo)" if c.regulamentos else ""))


def _preconditions(pres: Sequence[Precondition], cite: Callable[[Citation], str], name: Callable[[str], str],
                   indent: str = "    ") -> list[str]:
    """``autos regras mostrar``: each precondition of an act or infraction, with its finding code and article."""
    if not pres:
        return []
    out = [f"{indent}pressupostos (sem eles o ato é recusado):"]
    for pc in pres:
        when = ("; só se o processo conhece o endereço do autuado" if pc.quando and pc.quando.endereco_conhecido
                else "")
        on = f"; no ato {', '.join(pc.atos)}" if pc.atos else ""
        choice = f"; escolha {pc.interpretacao}" if pc.interpretacao else ""
        what = _requirement(pc.exige, name, cite)
        out.append(f"{indent}  [{pc.codigo}] {cite(pc.citacao)} — {_flat(pc.descricao)} ({what}{when}{on}{choice})")
    return out


def describe_authorities(auth: Authorities, proc: Procedure) -> list[str]:
    """The register of authorities as it applies to ``proc``'s law: each post, the acts it may practise and on what
    basis (the article, the act of attribution or of delegation, the recorded choice), and who holds it."""
    out = ["", f"Registro de autoridades (arquivo: {auth.file}):", "Órgãos que a lei nomeia:"]
    out += [f"  {o.nome} ({proc.cite(o.citacao)})" + (f", da {auth.orgaos[o.vinculado_a].nome}" if o.vinculado_a
                                                       in auth.orgaos else "") for o in auth.orgaos.values()]
    out.append("Cargos, o que cada um pratica e com que fundamento:")
    for pid, post in auth.cargos.items():
        out.append(f"  {post.nome} ({auth.organ_chain(post.orgao)}):")
        for c in post.competencias:
            if c.lei != proc.lei:
                continue
            basis = [proc.cite(c.citacao)] if c.citacao is not None else []
            if c.ato is not None:
                basis.append(c.ato.text() + (" — EXEMPLO" if c.ato.exemplo else ""))
            if c.por == "delegacao" and c.delegante in auth.cargos:
                basis.insert(0, f"por delegação do {auth.cargos[c.delegante].nome}")
            if c.designacao:
                basis.append("o titular precisa de ato de designação")
            if c.interpretacao:
                basis.append(f"escolha {c.interpretacao}")
            out.append(f"    {', '.join(c.atos)} — {'; '.join(basis)}")
        for h in auth.titulares:
            if h.cargo == pid:
                until = f" até {h.ate.strftime('%d/%m/%Y')}" if h.ate else ""
                out.append(f"    titular: {h.display}" + (f", matrícula {h.matricula}" if h.matricula else "")
                           + f", desde {h.desde.strftime('%d/%m/%Y')}{until}" + (" — EXEMPLO" if h.exemplo else ""))
    return out


def describe_procedure(proc: Procedure, authorities: Authorities | None = None) -> str:
    """``autos regras mostrar``: the rite of the processo — the acts the law provides for (each with its article,
    the fields it requires and the deadlines it starts), the acts it does not, and the choices made where it is
    silent or ambiguous."""
    out = [f"Rito do processo (arquivo de regras: {proc.file}):", "",
           "Atos que a lei prevê (id — dispositivo — descrição):"]
    for kind, act in proc.atos.items():
        out.append(f"  {kind} — {proc.cite(act.citacao)} — {_flat(act.descricao)}")
        if act.campos:
            out.append("    exige: " + "; ".join(f"{f.campo} ({proc.cite(f.citacao)})" for f in act.campos))
        if act.segue:
            out.append("    depois de: " + ", ".join(act.segue))
        if act.exige_vencido:
            out.append("    só depois de vencido o prazo: " + ", ".join(act.exige_vencido))
        if act.antecipacao is not None:
            ea = act.antecipacao
            out.append(f"    antes do fim do prazo, só se {_flat(ea.descricao)} ({proc.cite(ea.citacao)}; "
                       "fundamentação no ato)")
        if act.precede_infracao:
            out.append("    precede a infração (a infração é não atendê-lo): pode ter data anterior à da infração")
        out += _preconditions(act.pressupostos, proc.cite, lambda k: proc.atos[k].nome if k in proc.atos else k)
        starts = sorted({s.prazo if s.prazo is not None else f"o indicado em '{s.do_campo}.prazo'"
                         for s in act.inicia})
        if starts:
            out.append("    inicia os prazos: " + ", ".join(starts))
    if proc.nao_previstos:
        out += ["", "Atos que a lei não prevê:"]
        for kind, (citation, motivo) in proc.nao_previstos.items():
            out.append(f"  {kind} ({proc.cite(citation)}): {_flat(motivo)}")
    out += _choices("Escolhas do rito onde a lei é omissa ou ambígua:", proc.interpretacoes, proc.cite)
    if authorities is not None:
        out += describe_authorities(authorities, proc)
    return "\n".join(out)


def describe_fines(result: FineResult | None) -> str:
    """``autos multa``: the memória de cálculo, step by step, with totals in figures and words."""
    if result is None:
        return "O caso não propõe multa."
    st = result.statute
    v = result.valor_unidade
    out = [f"Memória de cálculo — {st.lei.label} ({st.lei.municipio}/{st.lei.uf})",
           f"Data de referência (infração): {ptbr.format_date(result.data_referencia)}; "
           f"{st.unidade_fiscal.sigla} = R$ {ptbr.format_decimal(v.valor)} desde {ptbr.format_date_short(v.desde)} "
           f"({v.fonte}){' — VALOR DE EXEMPLO' if v.exemplo else ''}", ""]
    for n, step in enumerate(result.memo(), 1):
        basis = f" [{step.base_legal}]" if step.base_legal else ""
        out.append(f"{n:>2}. {step.descricao}{basis}")
        out.append(f"    = {step.resultado}")
    label = total_label(result.part("penalidade"), result.part("despesa"))
    out += ["", f"{label}: {result.unidades_texto()}", f"       {result.reais_texto()}"]
    for aviso in getattr(result, "avisos", []):
        out.append(f"AVISO: {aviso}")
    if result.exemplo:
        out.append("AVISO: valor da unidade fiscal de EXEMPLO — substitua nas regras pelo valor oficial.")
    if result.escolhas:
        out += ["", "Escolhas interpretativas aplicadas:"]
        out.extend(f"  - {' '.join(e.split())}" for e in result.escolhas)
    return "\n".join(out)


def describe_coverage(report: CoverageReport) -> str:
    """``autos regras cobertura LEI``: dispositivo → papel → onde → testes, the summary and the problems."""
    from autos.rules.coverage import PAPEL_PT

    found = sum(1 for r in report.rows if r.linha_texto is not None)
    out = [f"Cobertura — {report.label} ({report.lei})",
           f"Texto: {report.texto} ({found} dispositivos); tabela: {report.tabela}", ""]
    for row in report.rows:
        e = row.entry
        where = f" [texto, linha {row.linha_texto}]" if row.linha_texto is not None else " [NÃO ESTÁ NO TEXTO]"
        if e is None:
            out.append(f"{row.dispositivo.short()}{where} — SEM ENTRADA NA TABELA")
            continue
        status = " — PENDENTE" if e.pendente else ""
        out.append(f"{row.dispositivo.short()}{where} — {PAPEL_PT[e.papel]}{status}")
        if e.onde:
            out.append(f"    onde: {'; '.join(e.onde)}")
        if e.testes:
            out.append(f"    testes: {'; '.join(e.testes)}")
        if e.motivo:
            out.append(f"    motivo: {_flat(e.motivo)}")
        if e.nota:
            out.append(f"    nota: {_flat(e.nota)}")
    out += ["", f"Resumo ({sum(report.resumo.values())} entradas):"]
    out += [f"  {PAPEL_PT[papel]}: {n}" for papel, n in report.resumo.items() if n]
    out.append(f"  pendentes: {report.pendentes}")
    if report.problems:
        out += ["", f"Problemas ({len(report.problems)}):"]
        out += [f"  {p.render()}" for p in report.problems]
    else:
        out += ["", "Nenhum problema: todo dispositivo do texto está na tabela e cada lugar nas regras existe."]
    return "\n".join(out)
