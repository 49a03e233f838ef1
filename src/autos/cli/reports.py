"""Text of ``autos validar`` and ``autos prazos`` (a case file): reports and deadline tables for people."""

from __future__ import annotations

from typing import Any

from autos.base.ptbr import count_noun
from autos.checks.finding import Report
from autos.compute.notice import CaseDeadlines
from autos.documents.lines import rule_term


def reports_text(reports: list[Report]) -> str:
    """A readable Portuguese report for people (``autos validar``)."""
    out: list[str] = []
    for r in reports:
        if r.error is not None:
            out.append(f"✗ {r.file}: não foi possível ler o caso.\n  {r.error}")
            continue
        label = f" ({r.statute.lei.label}, {r.statute.lei.municipio}/{r.statute.lei.uf})" if r.statute else ""
        status = "✓" if r.ok else "✗"
        summary = f"{count_noun(len(r.errors), 'erro', 'erros')}, {count_noun(len(r.warnings), 'aviso', 'avisos')}"
        out.append(f"{status} {r.file}{label}: {summary}")
        out.extend(f"  {line}" for line in getattr(r, "historico", ()))  # reincidência from the register
        for f in r.findings:
            out.append("  " + f.render().replace("\n", "\n  "))
    statutes = {r.statute.id: r.statute for r in reports if r.statute is not None}
    for st in statutes.values():
        if st.interpretacoes:
            out.append(f"\nEscolhas interpretativas das regras da {st.lei.label} ({st.lei.municipio}/{st.lei.uf}):")
            for i in st.interpretacoes:
                out.append(f"  - {st.cite(i.citacao)}: {' '.join(i.escolha.split())}")
    total_err = sum(1 for r in reports if not r.ok)
    out.append(f"\n{count_noun(len(reports), 'caso verificado', 'casos verificados')}; {total_err} com erro.")
    return "\n".join(out)


def deadlines_table(cd: CaseDeadlines) -> str:
    """``autos prazos``: one block per date, with basis and skipped days."""
    out: list[str] = []
    for d in cd.all():
        fim = d.fim.strftime("%d/%m/%Y %H:%M") if hasattr(d.fim, "hour") else d.fim.strftime("%d/%m/%Y")
        out.append(f"{fim}  {d.descricao} ({d.base_legal})")
        out.extend(f"    {line}" for line in d.explicacao())
    for rule in cd.pending:
        out.append(f"—           {rule.descricao} ({rule.base_legal}): {rule_term(rule)}, contados a partir da "
                   f"{rule.conta_de_descricao}; sem data porque o caso ainda não registra a notificação.")
    return "\n".join(out)


def deadlines_json(cd: CaseDeadlines) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for d in cd.all():
        out.append({
            "id": d.id, "descricao": d.descricao, "base_legal": d.base_legal,
            "inicio": d.inicio.isoformat(), "fim": d.fim.isoformat(),
            "prazo": d.prazo_texto(), "dias_pulados": [{"data": s.date.isoformat(), "motivo": s.reason}
                                                       for s in d.dias_pulados],
            "escolhas": d.escolhas, "exemplo": d.exemplo, "explicacao": d.explicacao(),
        })
    for rule in cd.pending:
        out.append({"id": rule.id, "descricao": rule.descricao, "base_legal": rule.base_legal, "inicio": None,
                    "fim": None, "prazo": rule_term(rule), "exemplo": rule.exemplo})
    return out
