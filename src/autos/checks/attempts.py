"""The notices an edital follows: the letters with AR that came back undelivered and the searches for the
domicile the processo records before it (Ferraz art. 76, III: "se desconhecido o domicílio fiscal"; Timóteo art.
21, III, and § 2º). The edital states them — which attempt failed, when and why — so that its own text shows the
case in which the law admits it (:mod:`autos.compute.preconditions` checks that they exist)."""

from __future__ import annotations

from datetime import date

from autos.processo.case import TentativaNotificacao
from autos.processo.load import LoadedProcesso
from autos.rules.procedure import Procedure

__all__ = ["prior_attempts"]

#: the act kind that records the search for the domicile (rules/<mun>/*.processo.yaml)
SEARCH = "diligencia"


def prior_attempts(loaded: LoadedProcesso, i: int, proc: Procedure, as_of: date) -> list[TentativaNotificacao]:
    """The failed letters with AR (returned by ``as_of``) and the searches before act ``i`` that refer to the same
    act (the auto), in the processo's order."""
    p = loaded.processo
    ref = p.atos[i].referente
    out: list[TentativaNotificacao] = []
    for b in p.atos[:i]:
        rule = proc.atos.get(b.tipo)
        d = b.data_do_ato
        if rule is None or d is None or d > as_of or (ref is not None and b.referente != ref):
            continue
        if rule.forma == "ar" and b.devolucao is not None and b.devolucao.data <= as_of:
            out.append(TentativaNotificacao(nome=rule.nome, numero=b.numero, data=d, devolucao=b.devolucao.data,
                                            motivo=b.devolucao.motivo))
        elif b.tipo == SEARCH:
            out.append(TentativaNotificacao(nome=rule.nome, numero=b.numero, data=d, descricao=b.descricao))
    return out
