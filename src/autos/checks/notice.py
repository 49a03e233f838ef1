"""The notice's problems as findings: a date before the infraction, an AR without its receipt date, an AR
that came back undelivered — read from the deadlines computed once for the case."""

from __future__ import annotations

from autos.base.dotted import resolve
from autos.checks.finding import Finding
from autos.compute.notice import returned_undelivered
from autos.compute.result import CaseComputation
from autos.processo.load_case import LoadedCase


def notice_findings(loaded: LoadedCase, computed: CaseComputation) -> list[Finding]:
    """Notice problems as erro findings (``NOTIFICACAO``); an AR returned undelivered as an aviso."""
    exc = computed.deadlines_error
    if exc is not None:
        return [Finding(severidade="erro", codigo="NOTIFICACAO", mensagem=exc.message, citacao=None,
                        caminho=exc.path, linha=exc.line, arquivo=str(loaded.file), dica=exc.hint)]
    if returned_undelivered(loaded):
        ar = loaded.case.notificacao.ar if loaded.case.notificacao else None
        motivo = f" ({ar.motivo_devolucao})" if ar and ar.motivo_devolucao else ""
        path = ("notificacao", "ar", "devolvido")
        law = computed.deadlines.law if computed.deadlines is not None else None
        assert law is not None
        return [Finding(severidade="aviso", codigo="NOTIFICACAO-PENDENTE",
                        mensagem=f"o AR voltou sem entrega{motivo}: a notificação por carta não se efetivou e "
                        "nenhum prazo corre ainda.", citacao=law.notificacao.base_legal,
                        caminho="notificacao.ar.devolvido", linha=loaded.line_of(path), arquivo=str(loaded.file),
                        dica="notifique de novo, pessoalmente ou, se o domicílio for desconhecido, por edital "
                        "(autos publicar-editais).")]
    return []


def example_deadline_findings(loaded: LoadedCase, computed: CaseComputation) -> list[Finding]:
    """An aviso (``PRAZO-EXEMPLO``) for each deadline of the document whose term is an EXAMPLE of the rules
    (``exemplo: true`` in the law's prazos file: the law leaves the term to a regulation), as ``VALOR-EXEMPLO``
    does for an example fiscal-unit value: the deadlines that run from the notice, those the act starts and those
    the document kind declares as its own elements."""
    found: dict[str, tuple[str, str]] = {}  # id → (description, legal basis), in the order met
    cd = computed.deadlines
    if cd is not None:
        for d in cd.all():
            if d.exemplo:
                found.setdefault(d.id, (d.descricao, d.base_legal))
        for rule in cd.pending:
            if rule.exemplo:
                found.setdefault(rule.id, (rule.descricao, rule.base_legal))
    if isinstance(computed.act_terms, tuple):
        for term in computed.act_terms:
            if term.rule.exemplo:
                found.setdefault(term.rule.id, (term.rule.descricao, term.rule.base_legal))
    kind = computed.statute.documentos.get(loaded.case.documento)
    if kind is not None and computed.law_of is not None:
        law = computed.law()
        for el in kind.elementos:
            # a fixed id, or the one the case names (notificação preliminar: exigencia.prazo)
            wanted = el.prazo if el.prazo_campo is None else resolve(loaded.case, el.prazo_campo)
            if el.verificacao == "prazo" and isinstance(wanted, str) and wanted in law.prazos:
                rule = law.deadline(wanted)
                if rule.exemplo:
                    found.setdefault(rule.id, (rule.descricao, rule.base_legal))
    return [Finding(severidade="aviso", codigo="PRAZO-EXEMPLO",
                    mensagem=f"o prazo \"{descricao}\" é um EXEMPLO das regras do sistema, não um prazo fixado na "
                    "lei; o documento dirá isso de forma visível.", citacao=base, caminho=None, linha=None,
                    arquivo=str(loaded.file),
                    dica="confirme o prazo no regulamento e corrija as regras de prazos da lei (exemplo: false), "
                    "com o ato de origem.")
            for descricao, base in found.values()]
