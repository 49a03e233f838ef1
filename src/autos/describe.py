"""Human-readable listings of the rules (``autos regras``)."""

from __future__ import annotations

from .rules import RuleSet, Statute


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
    out += ["", "Penalidades:"]
    for pid, pen in st.penalidades.items():
        out.append(f"  {pid} — {st.cite(pen.citacao)} — {pen.nome}")
    for kid, kind in st.documentos.items():
        out += ["", f"Elementos obrigatórios de '{kid}' ({kind.titulo}, {st.cite(kind.citacao)}):"]
        for el in kind.elementos:
            out.append(f"  [{el.severidade}] {el.codigo} — {st.cite(el.citacao)} — {el.descricao}")
    if st.interpretacoes:
        out += ["", "Escolhas onde a lei é omissa ou ambígua:"]
        for i in st.interpretacoes:
            out.append(f"  {i.id} ({st.cite(i.citacao)})")
            out.append(f"    problema: {_flat(i.problema)}")
            out.append(f"    escolha: {_flat(i.escolha)}")
    return "\n".join(out)
