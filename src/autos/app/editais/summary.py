"""The Portuguese summary ``autos publicar-editais`` prints at the end of a run."""

from __future__ import annotations

from autos.app.editais.run import Options, PublishResult
from autos.base import ptbr


def summary(result: PublishResult, options: Options) -> str:
    lines = [f"Publicação de editais de {ptbr.format_date(result.data)} — livro: {options.ledger_path}"]
    if options.dry_run:
        lines.append("SIMULAÇÃO (--dry-run): nada foi gravado, nenhum número foi reservado.")
        for plan in result.planejados:
            casos = ptbr.count_noun(len(plan.casos), "caso", "casos")
            lines.append(f"seria publicado: edital Nº {plan.numero}/{plan.ano} ({plan.lei}) com {casos}: "
                         + ", ".join(f"auto {p.auto_numero}" for p in plan.casos))
    for e in result.publicados:
        how = " (concluído após uma execução interrompida)" if e.id in result.recuperados else ""
        casos = ptbr.count_noun(e.casos, "caso", "casos")
        lines.append(f"publicado: edital {e.rotulo} ({e.lei}) com {casos}{how}; caderno: {e.caderno}")
    if not result.publicados and not options.dry_run and result.erro is None:
        lines.append("nada novo a publicar nesta data.")
    lines.append(f"casos lidos: {result.lidos}; recusados: {len(result.recusados)}; já publicados antes (não "
                 f"republicados): {len(result.ja_publicados)}; sem edital (notificação por outra forma): "
                 f"{result.sem_edital}; outros documentos (ignorados): {result.ignorados}"
                 + (f"; processos com o edital já registrado: {result.edital_no_processo}"
                    if result.edital_no_processo else ""))
    for c in result.recusados:
        lines.append(f"recusado: {c.arquivo}: {' | '.join(c.motivos)}")
    for c in result.ja_publicados:
        lines.append(f"já publicado: {c.arquivo}: {' | '.join(c.motivos)}")
    for arquivo in result.registrados:
        lines.append(f"edital registrado no processo: {arquivo}")
    for c in result.nao_registrados:
        lines.append(f"NÃO registrado no processo: {c.arquivo}: {' | '.join(c.motivos)}")
    if result.manifesto:
        lines.append("manifesto: " + ", ".join(str(p) for p in result.manifesto))
    return "\n".join(lines)
