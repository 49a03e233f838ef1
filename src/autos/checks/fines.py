"""The fine calculator's problems as findings: a fine that cannot be priced, a provision whose text is defective."""

from __future__ import annotations

from autos.base import ptbr
from autos.checks.finding import Finding
from autos.compute.fines import FineOutcome, _compute, _path_key
from autos.processo.load_case import LoadedCase
from autos.rules.statute import Statute


def fine_findings(loaded: LoadedCase, statute: Statute, outcome: FineOutcome | None = None) -> list[Finding]:
    """Findings for ``validate_case(..., extra_checks=[fine_findings])``, from ``outcome`` when the fines are
    already computed (:class:`~autos.compute.result.CaseComputation`):

    * ``MULTA-INCALCULAVEL`` (erro): a fact the fine needs is missing or outside the law's tables
      (problems the validator already reports with its own code are not repeated);
    * ``MULTA-ABAIXO-DO-MINIMO`` (aviso): a reduction (Timóteo art. 16, § 5º) took a range fine below the
      floor of its range (art. 16, II); the message states the choice recorded in the rules;
    * ``LEI-TEXTO-DEFEITUOSO`` (aviso): the case cites a provision whose text is defective; the
      message states the choice recorded in the rules.
    """
    if outcome is None:
        outcome = _compute(loaded.case, statute)
    findings: list[Finding] = []
    for prob in outcome.problems:
        if prob.covered:
            continue
        err = prob.error
        key = _path_key(err.path) if err.path else ()
        findings.append(Finding(severidade="erro", codigo="MULTA-INCALCULAVEL", mensagem=err.message, citacao=None,
                                caminho=err.path, linha=loaded.line_of(key) if key else None,
                                arquivo=str(loaded.file), dica=err.hint))
    if outcome.result is not None:
        for item in outcome.result.itens:
            if item.abaixo_do_minimo is None:
                continue
            floor, path, why = item.abaixo_do_minimo
            findings.append(Finding(
                severidade="aviso", codigo="MULTA-ABAIXO-DO-MINIMO",
                mensagem=f"multa de {ptbr.format_decimal(item.unidades)} {outcome.result.sigla}: {why}.",
                citacao=item.base_legal, caminho=path, linha=loaded.line_of(_path_key(path)),
                arquivo=str(loaded.file),
                dica=f"confira a escolha registrada nas regras; para manter o mínimo de "
                f"{ptbr.format_decimal(floor)} {outcome.result.sigla}, altere-a e o valor-base."))
    seen: set[tuple[str, str]] = set()
    for d in outcome.defects:
        if (d.path, d.interpretation_id) in seen:
            continue
        seen.add((d.path, d.interpretation_id))
        findings.append(Finding(severidade="aviso", codigo="LEI-TEXTO-DEFEITUOSO", mensagem=d.text,
                                citacao=d.citation, caminho=d.path, linha=loaded.line_of(_path_key(d.path)),
                                arquivo=str(loaded.file),
                                dica="confira a escolha registrada nas regras antes de emitir o documento."))
    return findings
