"""The processo timeline against the statutes.

Every expected date below was worked out by hand from the statute text (article in the test name or
comment), with the weekday and the holidays of 2026 written next to it; none is copied from the output.
Holidays used: 07/09 (Independência), 12/10 (Aparecida), 14/10 (aniversário de Ferraz de Vasconcelos,
calendário municipal), 02/11 (Finados), 20/11 (Consciência Negra).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
import yaml

from autos.app.processo.service import ProcessoService
from autos.compute.timeline import Timeline
from autos.errors import AutosError, InputError

from .conftest import DATA, ROOT, SAMPLES

HOJE = date(2026, 11, 30)
PROC = DATA / "processo"
SAMPLE = SAMPLES / "processos"


@pytest.fixture(scope="module")
def service() -> ProcessoService:
    return ProcessoService(ROOT / "rules")


def _timeline(service: ProcessoService, file: Path, hoje: date = HOJE) -> Timeline:
    return service.timeline_of(file, hoje)


#: the 5 days to notify the auto (Lei 9.784/1999, art. 24, by analogy) start with every auto: checked on their own
#: in test_the_auto_must_be_notified_in_five_days_lei9784_art24, left out of the other lists
AUTO_NOTICE = "notificacao_auto_lei9784_art24"


def _deadlines(t: Timeline) -> list[tuple[str, date, date, str]]:
    return [(p.id, p.deadline.inicio, p.fim, p.estado) for p in t.prazos if p.id != AUTO_NOTICE]


def _auto_notice(t: Timeline) -> tuple[date, date, str]:
    (p,) = [p for p in t.prazos if p.id == AUTO_NOTICE]
    return p.deadline.inicio, p.fim, p.estado


# --- Timóteo (Lei nº 3.844/2022) ----------------------------------------------------------------------


def test_timoteo_full_processo_art20_art21_and_lei9784_by_analogy(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml")
    assert not t.achados
    assert _deadlines(t) == [
        # art. 20, § 2º: signature and date on the auto = intimação (03/08, seg); art. 20, § 1º, V: 15 days
        # (EXEMPLO) → 18/08 (ter)
        ("defesa_art20_p1_v", date(2026, 8, 3), date(2026, 8, 18), "cumprido"),
        # Lei 9.784/1999, art. 49: 30 days from the defence (14/08) → 13/09 (dom) → 14/09 (seg)
        ("julgamento_lei9784_art49", date(2026, 8, 14), date(2026, 9, 14), "cumprido"),
        # art. 24: 5 days from the judgment (10/09) → 15/09 (ter); the AR was posted on 11/09
        ("notificacao_decisao_lei9784_art24", date(2026, 9, 10), date(2026, 9, 15), "cumprido"),
        # art. 21, § 2º: notice by AR takes effect on the juntada (17/09); art. 59: 10 days → 27/09 (dom) → 28/09
        ("recurso_lei9784_art59", date(2026, 9, 17), date(2026, 9, 28), "cumprido"),
        # payment (EXEMPLO, 30 days) → 17/10 (sáb) → 19/10 (seg); the appeal of 25/09 makes it moot
        ("pagamento_exemplo", date(2026, 9, 17), date(2026, 10, 19), "prejudicado"),
        # art. 56, § 1º (analogy): 5 days from the appeal (25/09) → 30/09 (qua), met by the despacho of 29/09
        ("reconsideracao_lei9784_art56_p1", date(2026, 9, 25), date(2026, 9, 30), "cumprido"),
        # art. 59, § 1º: 30 days from the appeal (25/09) → 25/10 (dom) → 26/10 (seg)
        ("decisao_recurso_lei9784_art59_p1", date(2026, 9, 25), date(2026, 10, 26), "cumprido"),
        # art. 24: 5 days from the appeal decision (20/10) → 25/10 (dom) → 26/10 (seg)
        ("notificacao_decisao_lei9784_art24", date(2026, 10, 20), date(2026, 10, 26), "cumprido"),
        # payment from the notice of the appeal decision (22/10): 30 days → 21/11 (sáb) → 23/11 (seg)
        ("pagamento_exemplo", date(2026, 10, 22), date(2026, 11, 23), "cumprido"),
    ]
    assert t.encerrado and t.situacao == "encerrado: pagamento da multa em 13/11/2026"
    assert not t.pendencias
    assert t.atos[4].efetiva == date(2026, 9, 17)


def test_timoteo_edital_art21_p3_ten_days_after_the_later_publication(service: ProcessoService) -> None:
    # art. 21, § 3º: official press 03/11, local paper 05/11; effective 10 days after the later one:
    # 15/11 (dom) → 16/11 (seg); defence (art. 20, § 1º, V, 15 days) → 01/12 (ter)
    t = _timeline(service, PROC / "validos" / "timoteo-edital.yaml")
    assert t.atos[2].efetiva == date(2026, 11, 16)  # atos[1]: the registers searched (art. 21, § 2º)
    assert _deadlines(t) == [("defesa_art20_p1_v", date(2026, 11, 16), date(2026, 12, 1), "em curso")]
    assert t.situacao == "aguardando defesa até 01/12/2026"
    assert t.proximo is not None and t.proximo.urgencia == "esta semana"


def test_timoteo_no_defence_starts_the_judgment_term_when_the_defence_term_lapses(service: ProcessoService) -> None:
    file = SAMPLE / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
    # ciência 01/10 (qui) + 15 days (art. 20, § 1º, V) = 16/10 (sex)
    before = _timeline(service, file, date(2026, 10, 10))
    assert _deadlines(before) == [("defesa_art20_p1_v", date(2026, 10, 1), date(2026, 10, 16), "em curso")]
    assert before.situacao == "aguardando defesa até 16/10/2026"
    # lapsed: Lei 9.784/1999, art. 49, 30 days from 16/10 → 15/11 (dom) → 16/11 (seg), overdue on 30/11
    after = _timeline(service, file)
    assert _deadlines(after) == [
        ("defesa_art20_p1_v", date(2026, 10, 1), date(2026, 10, 16), "perdido"),
        ("julgamento_lei9784_art49", date(2026, 10, 16), date(2026, 11, 16), "perdido"),
    ]
    assert after.situacao == "julgamento: vencido em 16/11/2026"
    assert after.proximo is not None and after.proximo.quem == "administracao"


def test_timoteo_interdiction_art16_p3_twelve_months(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "timoteo-mg" / "sim-2026-000180-interdicao.yaml")
    # art. 16, § 3º: 12 months from 26/10/2026, date to date → 26/10/2027 (ter)
    assert ("cassacao_por_interdicao_art16_p3", date(2026, 10, 26), date(2027, 10, 26), "em curso") in _deadlines(t)
    # refusal certified with a witness (art. 21, § 1º) on 26/10: defence until 10/11; filed 05/11;
    # judgment (Lei 9.784/1999, art. 49) 30 days from 05/11 → 05/12 (sáb) → 07/12 (seg)
    assert ("julgamento_lei9784_art49", date(2026, 11, 5), date(2026, 12, 7), "em curso") in _deadlines(t)
    assert t.situacao == "julgamento até 07/12/2026"


def test_timoteo_ar_returned_undelivered_runs_no_defence_and_asks_for_new_notice(service: ProcessoService) -> None:
    # AR back on 20/11 (mudou-se): notice failed (art. 21, II); Lei 9.784/1999, art. 24: 5 days → 25/11 (qua)
    t = _timeline(service, PROC / "validos" / "timoteo-ar-devolvido.yaml")
    assert t.atos[1].frustrada and t.atos[1].efetiva is None
    assert _deadlines(t) == [("renotificacao_lei9784_art24", date(2026, 11, 20), date(2026, 11, 25), "perdido")]
    assert t.pendencias[0].urgencia == "vencido"


def test_timoteo_cancelled_judgment_closes_the_processo_and_starts_no_appeal(service: ProcessoService) -> None:
    t = _timeline(service, PROC / "validos" / "timoteo-julgamento-cancelado.yaml")
    ids = [p.id for p in t.prazos]
    assert "recurso_lei9784_art59" not in ids and "pagamento_exemplo" not in ids
    # defence 08/10 + 30 days (art. 49) = 07/11 (sáb) → 09/11 (seg)
    assert ("julgamento_lei9784_art49", date(2026, 10, 8), date(2026, 11, 9), "cumprido") in _deadlines(t)
    assert t.encerrado and "cancelada" in t.situacao


# --- Ferraz de Vasconcelos (Lei nº 3.240/2015) ------------------------------------------------------


def test_ferraz_appeal_art78_art79_and_payment_art80_from_the_final_notice(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "ferraz-de-vasconcelos-sp" / "fv-2026-0412-recurso-pago.yaml")
    assert not t.achados
    assert _deadlines(t) == [
        # art. 78: 10 dias corridos from the notice (01/09, ter) → 11/09 (sex)
        ("recurso_art78", date(2026, 9, 1), date(2026, 9, 11), "cumprido"),
        # art. 80: 10 dias úteis from 01/09: 02, 03, 04, 08, 09, 10, 11, 14, 15, 16 (07/09 feriado) → 16/09;
        # moot: the appeal of 08/09 (notificação final is then the notice of the decision)
        ("pagamento_art80", date(2026, 9, 1), date(2026, 9, 16), "prejudicado"),
        # art. 79: 30 dias corridos from the appeal's receipt (08/09) → 08/10 (qui)
        ("decisao_recurso_art79", date(2026, 9, 8), date(2026, 10, 8), "cumprido"),
        # Lei 9.784/1999, art. 24: 5 days from the decision (01/10) → 06/10 (ter)
        ("notificacao_decisao_lei9784_art24", date(2026, 10, 1), date(2026, 10, 6), "cumprido"),
        # art. 77, II: notice by letter on the date of the AR's receipt (06/10); art. 80: 10 dias úteis:
        # 07, 08, 09, 13, 15, 16, 19, 20, 21, 22 (12/10 Aparecida, 14/10 aniversário do município) → 22/10
        ("pagamento_art80", date(2026, 10, 6), date(2026, 10, 22), "cumprido"),
    ]
    assert t.situacao == "encerrado: pagamento da multa em 20/10/2026"


def test_ferraz_divida_ativa_after_payment_term_art80(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "ferraz-de-vasconcelos-sp" / "fv-2026-0388-divida-ativa.yaml")
    assert not [f for f in t.achados if f.severidade == "erro"]
    assert _deadlines(t) == [
        # art. 4º: the notice of 01/06 (dated receipt) gave 30 days → 01/07, not met; the auto of 06/07 cites it,
        # within the 5 days the rules give the inspection (Lei 9.784/1999, art. 24, by analogy)
        ("limpeza_terreno_art4", date(2026, 6, 1), date(2026, 7, 1), "perdido"),
        ("auto_apos_preliminar_lei9784_art24", date(2026, 7, 1), date(2026, 7, 6), "cumprido"),
        # art. 77, II: AR received 10/07 (sex); art. 78: 10 days → 20/07 (seg), no appeal
        ("recurso_art78", date(2026, 7, 10), date(2026, 7, 20), "perdido"),
        # art. 80: 10 dias úteis: 13–17/07 and 20–24/07 → 24/07 (sex), not paid
        ("pagamento_art80", date(2026, 7, 10), date(2026, 7, 24), "perdido"),
        # Lei 4.320/1964, art. 39, § 2º, in 5 days (Lei 9.784/1999, art. 24): 24/07 → 29/07 (qua); done 20/08, late
        ("inscricao_divida_ativa_lei9784_art24", date(2026, 7, 24), date(2026, 7, 29), "cumprido com atraso"),
    ]
    da = [p for p in t.prazos if p.id != AUTO_NOTICE][4]
    assert da.nota is not None and "22 dias corridos depois do vencimento" in da.nota
    assert t.situacao == "encerrado: inscrição em dívida ativa em 20/08/2026"


def test_ferraz_edital_art77_iii_five_days_then_appeal_and_payment(service: ProcessoService) -> None:
    # art. 76, III, art. 77, III: posted 03/11 (ter) + 5 dias corridos = 08/11 (dom) → 09/11 (seg)
    # art. 78: 10 days → 19/11 (qui); art. 80: 10 dias úteis from 09/11: 10, 11, 12, 13, 16, 17, 18, 19, 23,
    # 24 (20/11 Consciência Negra) → 24/11; then dívida ativa in 5 days: 29/11 (dom) → 30/11 (seg) = hoje
    t = _timeline(service, PROC / "validos" / "ferraz-edital.yaml")
    assert t.atos[2].efetiva == date(2026, 11, 9)  # atos[1]: the search for the domicile (art. 76, III)
    assert _deadlines(t) == [
        ("recurso_art78", date(2026, 11, 9), date(2026, 11, 19), "perdido"),
        ("pagamento_art80", date(2026, 11, 9), date(2026, 11, 24), "perdido"),
        ("inscricao_divida_ativa_lei9784_art24", date(2026, 11, 24), date(2026, 11, 30), "em curso"),
    ]
    assert t.proximo is not None and t.proximo.urgencia == "hoje"


def test_ferraz_appeal_after_ten_days_art78_is_intempestivo_and_does_not_suspend_payment(
        service: ProcessoService) -> None:
    # notice 01/09 → appeal term (art. 78) ends 11/09; appeal filed 12/09
    t = _timeline(service, PROC / "validos" / "ferraz-recurso-intempestivo.yaml")
    assert t.atos[2].intempestivo == date(2026, 9, 11)
    warning = [f for f in t.achados if f.codigo == "INTEMPESTIVO"]
    assert len(warning) == 1 and warning[0].severidade == "aviso"
    assert "intempestivo" in warning[0].mensagem and "11/09/2026" in warning[0].mensagem
    assert "art. 78" in (warning[0].citacao or "")
    states = {p.id: p.estado for p in t.prazos}
    assert states["recurso_art78"] == "perdido"
    assert states["pagamento_art80"] == "perdido"  # not moot: the late appeal has no effect
    assert "decisao_recurso_art79" not in states
    assert t.exit_code() == 0  # a warning, not an error in the file


# --- Cuiabá (Lei nº 3.666/1997) -------------------------------------------------------------------------


def test_ferraz_notificacao_preliminar_art4_thirty_days_then_the_auto(service: ProcessoService, tmp_path: Path) -> None:
    sample = SAMPLE / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-004417-terreno.yaml"
    # only the notificação preliminar, signed by the autuado on 10/08 (seg): art. 4º, 30 dias corridos excluding
    # the first day: 11–31/08 (21 days) + 01–09/09 (9) → 09/09 (qua); nothing closed on 09/09
    text = sample.read_text(encoding="utf-8")
    only = tmp_path / "preliminar.yaml"
    only.write_text(text[: text.index("  - tipo: auto")], encoding="utf-8")
    t = _timeline(service, only, date(2026, 8, 20))
    assert not t.achados
    assert _deadlines(t) == [("limpeza_terreno_art4", date(2026, 8, 10), date(2026, 9, 9), "em curso")]
    assert t.situacao == "aguardando atendimento da notificação preliminar até 09/09/2026"
    # not complied by 09/09: the administration inspects and writes the auto — 5 days by analogy with
    # Lei 9.784/1999, art. 24 (the rules' choice): 09/09 → 14/09 (seg)
    t = _timeline(service, only, date(2026, 9, 12))
    assert _deadlines(t) == [
        ("limpeza_terreno_art4", date(2026, 8, 10), date(2026, 9, 9), "perdido"),
        ("auto_apos_preliminar_lei9784_art24", date(2026, 9, 9), date(2026, 9, 14), "em curso"),
    ]
    # the whole sample: the auto of 15/09 meets it one day late (14/09 → 15/09: 1 dia corrido, so "cumprido com
    # atraso", never plain "cumprido") and starts the appeal term (art. 78)
    t = _timeline(service, sample, date(2026, 12, 1))
    assert _deadlines(t)[:3] == [
        ("limpeza_terreno_art4", date(2026, 8, 10), date(2026, 9, 9), "perdido"),
        ("auto_apos_preliminar_lei9784_art24", date(2026, 9, 9), date(2026, 9, 14), "cumprido com atraso"),
        ("recurso_art78", date(2026, 9, 15), date(2026, 9, 25), "perdido"),
    ]


@pytest.mark.parametrize(("sample", "auto_notice"), [
    # Timóteo art. 21: auto 03/08/2026 (seg) + 5 dias corridos = 08/08 (sáb) → 10/08 (seg); notified in person 03/08
    ("timoteo-mg/sim-2026-000150-recurso-pago.yaml", (date(2026, 8, 3), date(2026, 8, 10), "cumprido")),
    # Ferraz art. 76: auto 29/08/2026 (sáb) + 5 = 03/09 (qui); notified in person 01/09
    ("ferraz-de-vasconcelos-sp/fv-2026-0412-recurso-pago.yaml", (date(2026, 8, 29), date(2026, 9, 3), "cumprido")),
    # Cuiabá art. 35 (the law does not regulate the notice): auto 12/08/2026 (qua) + 5 = 17/08 (seg); notified 12/08
    ("cuiaba-mt/ccz-2026-0077-recurso.yaml", (date(2026, 8, 12), date(2026, 8, 17), "cumprido")),
])
def test_the_auto_must_be_notified_in_five_days_lei9784_art24(service: ProcessoService, sample: str,
                                                             auto_notice: tuple[date, date, str]) -> None:
    # no law sets a term to notify the auto: Lei 9.784/1999, art. 24 (5 days), by analogy, as for the other acts
    # of the administration — so an auto nobody notified is on the clerk's list instead of "sem prazo em curso"
    assert _auto_notice(_timeline(service, SAMPLE / sample)) == auto_notice


def test_an_auto_not_notified_is_overdue_on_the_clerks_list(service: ProcessoService, tmp_path: Path) -> None:
    text = (SAMPLE / "timoteo-mg" / "sim-2026-000150-recurso-pago.yaml").read_text(encoding="utf-8")
    only = tmp_path / "so-o-auto.yaml"
    only.write_text(text[: text.index("  - tipo: notificacao_pessoal")], encoding="utf-8")
    t = _timeline(service, only, date(2026, 11, 30))
    assert _auto_notice(t) == (date(2026, 8, 3), date(2026, 8, 10), "perdido")
    assert t.situacao == "notificação do auto: vencido em 10/08/2026"
    assert [(x.quem, x.acao, x.vence, x.urgencia) for x in t.pendencias] == [
        ("administracao", "notificação do auto", date(2026, 8, 10), "vencido")]


def test_cuiaba_rescue_art11_p2_and_rite_by_analogy(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml")
    assert not t.achados
    assert _deadlines(t) == [
        # art. 11, § 2º: 3 dias úteis from the recolhimento (10/08, seg): 11, 12, 13 → 13/08; rescued 12/08
        ("resgate_art11_p2", date(2026, 8, 10), date(2026, 8, 13), "cumprido"),
        # Lei 9.784/1999, art. 44 (analogy): 10 days from 12/08 → 22/08 (sáb) → 24/08 (seg)
        ("defesa_lei9784_art44", date(2026, 8, 12), date(2026, 8, 24), "cumprido"),
        # art. 49: 30 days from the defence (20/08) → 19/09 (sáb) → 21/09 (seg)
        ("julgamento_lei9784_art49", date(2026, 8, 20), date(2026, 9, 21), "cumprido"),
        # art. 24: 5 days from 15/09 → 20/09 (dom) → 21/09 (seg)
        ("notificacao_decisao_lei9784_art24", date(2026, 9, 15), date(2026, 9, 21), "cumprido"),
        # art. 26, § 3º (analogy): AR received 21/09; art. 59: 10 days → 01/10 (qui)
        ("recurso_lei9784_art59", date(2026, 9, 21), date(2026, 10, 1), "cumprido"),
        # payment (EXEMPLO, 30 days) → 21/10 (qua); moot by the appeal of 28/09
        ("pagamento_exemplo", date(2026, 9, 21), date(2026, 10, 21), "prejudicado"),
        # art. 56, § 1º (analogy): 5 days from 28/09 → 03/10 (sáb) → 05/10 (seg), met by the despacho of 30/09
        ("reconsideracao_lei9784_art56_p1", date(2026, 9, 28), date(2026, 10, 5), "cumprido"),
        # art. 59, § 1º: 30 days from 28/09 → 28/10 (qua)
        ("decisao_recurso_lei9784_art59_p1", date(2026, 9, 28), date(2026, 10, 28), "cumprido"),
        # art. 24: 5 days from 26/10 → 31/10 (sáb), 01/11 (dom), 02/11 (Finados) → 03/11 (ter)
        ("notificacao_decisao_lei9784_art24", date(2026, 10, 26), date(2026, 11, 3), "cumprido"),
        # payment from 29/10: 30 days → 28/11 (sáb) → 30/11 (seg) = hoje
        ("pagamento_exemplo", date(2026, 10, 29), date(2026, 11, 30), "em curso"),
    ]
    assert t.situacao == "aguardando pagamento da multa até 30/11/2026"
    assert t.proximo is not None and t.proximo.urgencia == "hoje"
    assert any("Lei federal nº 9.784/1999" in x for x in t.interpretacoes)


def test_cuiaba_divida_ativa_after_judgment_by_default(service: ProcessoService) -> None:
    t = _timeline(service, SAMPLE / "cuiaba-mt" / "ccz-2026-0090-divida-ativa.yaml")
    got = _deadlines(t)
    # notice 01/06 (seg), the dated signature on the auto, + 10 days (art. 44) = 11/06 (qui), no defence → judgment
    # term 30 days → 11/07 (sáb) → 13/07 (seg); notice of the decision 03/07 → appeal 13/07, payment (30 days)
    # 02/08 (dom) → 03/08 (seg); dívida ativa in 5 days → 08/08 (sáb) → 10/08 (seg), inscribed on 01/09:
    # 10/08 → 01/09 = 21 + 1 = 22 dias corridos late
    assert got == [
        ("defesa_lei9784_art44", date(2026, 6, 1), date(2026, 6, 11), "perdido"),
        ("julgamento_lei9784_art49", date(2026, 6, 11), date(2026, 7, 13), "cumprido"),
        ("notificacao_decisao_lei9784_art24", date(2026, 7, 1), date(2026, 7, 6), "cumprido"),
        ("recurso_lei9784_art59", date(2026, 7, 3), date(2026, 7, 13), "perdido"),
        ("pagamento_exemplo", date(2026, 7, 3), date(2026, 8, 3), "perdido"),
        ("inscricao_divida_ativa_lei9784_art24", date(2026, 8, 3), date(2026, 8, 10), "cumprido com atraso"),
    ]
    assert [p.atraso_dias for p in t.prazos if p.estado == "cumprido com atraso"] == [22]
    assert t.encerrado and not t.pendencias


# --- invalid and unusable files ------------------------------------------------------------------------

_INVALID = yaml.safe_load((PROC / "invalidos" / "expectations.yaml").read_text(encoding="utf-8"))
_UNUSABLE = yaml.safe_load((PROC / "ilegiveis" / "expectations.yaml").read_text(encoding="utf-8"))


def test_every_invalid_fixture_has_an_expectation() -> None:
    files = {p.name for p in (PROC / "invalidos").glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(_INVALID)
    files = {p.name for p in (PROC / "ilegiveis").glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(_UNUSABLE)


@pytest.mark.parametrize("name", sorted(_INVALID))
def test_invalid_timeline_is_an_error_citing_the_law(service: ProcessoService, name: str) -> None:
    exp = _INVALID[name]
    t = _timeline(service, PROC / "invalidos" / name)
    errors = [f for f in t.achados if f.severidade == "erro" and f.codigo == exp["codigo"]]
    assert errors, [f.codigo for f in t.achados]
    f = errors[0]
    assert f.linha == exp["linha"]
    for words in exp["contem"]:
        assert words in f.mensagem or words in (f.citacao or ""), (words, f.mensagem)
    if "base_legal" in exp:
        assert exp["base_legal"] in (f.citacao or "")
    assert t.exit_code() == 1
    if not t.prazos:  # structure unsound: no deadline computed, and the situation says why
        assert re.search(r"\d+ erros? no processo", t.situacao) and "prazos" in t.situacao, t.situacao


@pytest.mark.parametrize("name", sorted(_UNUSABLE))
def test_unusable_processo_file_is_an_input_error(service: ProcessoService, name: str) -> None:
    exp = _UNUSABLE[name]
    with pytest.raises(InputError) as info:
        _timeline(service, PROC / "ilegiveis" / name)
    err: AutosError = info.value
    assert err.line == exp["linha"]
    assert err.file is not None and err.file.endswith(name)
    for words in exp["contem"]:
        assert words in str(err), (words, str(err))
    assert err.exit_code == 2


def test_timeline_json_has_states_and_next_act(service: ProcessoService) -> None:
    d = _timeline(service, SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml").to_dict()
    assert d["proximo"] == {"quem": "autuado", "acao": "pagamento da multa", "vence": "2026-11-30",
                            "urgencia": "hoje", "base_legal": d["prazos"][-1]["base_legal"],
                            "prazo": "pagamento_exemplo"}
    assert [p["estado"] for p in d["prazos"]].count("em curso") == 1
    assert d["prazos"][-1]["exemplo"] is False  # the payment term fixed by the test official values' decree


def test_judgment_before_the_defence_term_ends_is_flagged_and_not_owed_again(service: ProcessoService) -> None:
    # ciência 01/10 + 15 days (art. 20, § 1º, V) = 16/10; judged on 10/10 with no defence (art. 19: ampla
    # defesa): the judgment counts, but the processo is warned; nothing is shown as owed afterwards
    t = _timeline(service, PROC / "validos" / "timoteo-julgamento-antecipado.yaml")
    early = [f for f in t.achados if f.codigo == "ATO-ANTECIPADO"]
    assert len(early) == 1 and early[0].severidade == "aviso"
    assert "16/10/2026" in early[0].mensagem and "julgamento" in early[0].mensagem
    states = {p.id: p.estado for p in t.prazos}
    assert states["julgamento_lei9784_art49"] == "cumprido"
    assert all(x.acao != "julgamento" for x in t.pendencias)


def test_two_notices_defence_in_time_for_the_later_one(service: ProcessoService) -> None:
    # personal notice 01/10 → defence until 16/10; AR joined 08/10 (art. 21, § 2º) → until 23/10 (sex);
    # the later count replaces the earlier (interpretation 'notificacao-repetida'); defence filed 20/10: in
    # time, not intempestivo; one judgment term only: 20/10 + 30 days (Lei 9.784/1999, art. 49) = 19/11 (qui)
    t = _timeline(service, PROC / "validos" / "timoteo-duas-notificacoes.yaml")
    assert t.atos[3].intempestivo is None
    assert [(p.id, p.fim, p.estado) for p in t.prazos if p.id != AUTO_NOTICE] == [
        ("defesa_art20_p1_v", date(2026, 10, 16), "prejudicado"),
        ("defesa_art20_p1_v", date(2026, 10, 23), "cumprido"),
        ("julgamento_lei9784_art49", date(2026, 11, 19), "perdido"),
    ]


def test_ar_received_but_not_joined_is_the_clerks_task_art21_p2(service: ProcessoService) -> None:
    t = _timeline(service, PROC / "validos" / "timoteo-ar-sem-juntada.yaml")
    # art. 21, § 2º: the notice only takes effect with the juntada (the AR posted meets the term to notify)
    assert [p.id for p in t.prazos] == [AUTO_NOTICE]
    assert [(x.quem, x.urgencia) for x in t.pendencias] == [("administracao", "sem prazo")]
    assert "juntada" in t.pendencias[0].acao


def test_cuiaba_animal_not_rescued_art11_p5(service: ProcessoService) -> None:
    # art. 11, § 2º: recolhido 19/11 (qui); 3 dias úteis: 20/11 (Consciência Negra), 21–22 (fim de semana),
    # 23, 24, 25 → 25/11 (qua); not rescued: art. 11, § 5º, another destination is due
    t = _timeline(service, PROC / "validos" / "cuiaba-animal-nao-resgatado.yaml")
    rescue = t.prazos[0]
    assert (rescue.id, rescue.fim, rescue.estado) == ("resgate_art11_p2", date(2026, 11, 25), "perdido")
    assert [d.date for d in rescue.deadline.dias_pulados] == [date(2026, 11, 20), date(2026, 11, 21),
                                                               date(2026, 11, 22)]
    (first,) = [x for x in t.pendencias if "outra destinação" in x.acao]
    assert first.urgencia == "vencido" and first.vence == date(2026, 11, 25)
