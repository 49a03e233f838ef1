"""A reduction the law gives to small-scale industry (Timóteo, Lei nº 3.844/2022, art. 16, § 5º: "A multa sofrerá
redução de cinquenta por cento (50%) no caso de se tratar de indústria de pequeno porte") applied whenever the
register knows the autuado as small-scale, for ``autos validar`` with a register.

The register gives the other processos of the same person (CPF/CNPJ) under the same law; a processo that does not
mark the autuado as small-scale while another one does (``autuado.pequeno_porte: true``, with its ground) charges
the fine without the reduction the law makes mandatory: an error (``PEQUENO-PORTE-NAO-APLICADO``), naming both
files — unless this processo says why the company is no longer small-scale (``pequeno_porte_fundamento`` with
``pequeno_porte: false``), then a warning. Without a register nothing changes.
"""

from __future__ import annotations

from autos.checks.finding import Finding
from autos.errors import AutosError
from autos.processo.load import LoadedProcesso, load_processo
from autos.rules.statute import Statute
from autos.store.register import Register

__all__ = ["small_scale_findings"]

#: the case path of the fact that triggers the reduction (the rules' ``reducoes[].quando``)
SMALL_SCALE = "autuado.pequeno_porte"


def small_scale_findings(register: Register, loaded: LoadedProcesso, statute: Statute) -> list[Finding]:
    """The finding of the module's docstring, or none."""
    reductions = [r for r in statute.reducoes if r.quando == SMALL_SCALE]
    a = loaded.processo.autuado
    if not reductions or a.pequeno_porte or not a.documento:
        return []
    me = register.relative(loaded.file)
    try:
        others = register.processos_of_person(a.documento, loaded.processo.lei)
    except ValueError:
        return []  # an invalid CPF/CNPJ is the model's error
    for arquivo, numero, _ in others:
        if arquivo == me or numero == loaded.processo.numero:
            continue
        path = register.absolute(arquivo)
        try:
            other = load_processo(path).processo.autuado
        except AutosError:
            continue  # unreadable: the history's own warnings say so
        if not other.pequeno_porte:
            continue
        red = reductions[0]
        cite = statute.cite(red.citacao)
        why = f" ({other.pequeno_porte_fundamento})" if other.pequeno_porte_fundamento else ""
        said = (a.pequeno_porte_fundamento or "").strip()
        message = (f"o registro {register.path} conhece {a.nome or 'o autuado'} como de pequeno porte no processo "
                   f"{numero} ({path}){why}, e este processo ({loaded.file}) não o marca: a multa fica sem a "
                   f"{red.descricao}, que a lei manda aplicar")
        if said:
            return [Finding("aviso", "PEQUENO-PORTE-NAO-APLICADO", f"{message}; motivo informado: {said}", cite,
                            "autuado.pequeno_porte", loaded.line_of(("autuado",)), str(loaded.file),
                            "confira o motivo antes da assinatura.")]
        return [Finding("erro", "PEQUENO-PORTE-NAO-APLICADO", message, cite, "autuado.pequeno_porte",
                        loaded.line_of(("autuado",)), str(loaded.file),
                        "informe autuado.pequeno_porte: true com o fundamento (autuado.pequeno_porte_fundamento); se a "
                        "empresa deixou de ser de pequeno porte, diga por quê em autuado.pequeno_porte_fundamento.")]
    return []
