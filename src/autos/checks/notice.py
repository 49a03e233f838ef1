"""The notice's problems as findings: a date before the infraction, an AR without its receipt date, an AR
that came back undelivered — read from the deadlines computed once for the case."""

from __future__ import annotations

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
