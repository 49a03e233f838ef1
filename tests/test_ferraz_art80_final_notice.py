"""Ferraz de Vasconcelos, Lei nº 3.240/2015, art. 80: "Todas as multas previstas na presente Lei deverão ser
recolhidas no prazo máximo de 10 (dez) dias úteis, contados da data da notificação final." The law does not say
which notice is final; the rules read it (lei-3240-2015.prazos.yaml, pagamento_art80; processo.yaml,
interpretacoes/notificacao-final): the notice of the auto when there is no appeal (art. 78), the notice of the
decision of the appeal otherwise. Every Ferraz document that prints the payment term says it counts from the
notificação final, with that condition — not from "the notice" of the auto as if it were unconditional. The words
"se não houver recurso" are the rules' reading, not the statute's: the test checks the statute says only
"notificação final"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES
from .textutil import fold, pdf_text

pytestmark = pytest.mark.xdist_group("test_ferraz_art80_final_notice")

STATUTE = ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt"
FOLDER = SAMPLES / "processos" / "ferraz-de-vasconcelos-sp"
#: FV-2026/0388: auto, notice by AR and dívida ativa; FV-2026/0412: appeal, decision and its notice
FILES = ("fv-2026-0388-divida-ativa.yaml", "fv-2026-0412-recurso-pago.yaml")
FINAL = ("contados a partir da data da notificação final (art. 80): a notificação do auto, se não houver recurso no "
         "prazo do art. 78; havendo recurso, a notificação da decisão do recurso que mantiver ou reduzir a multa")


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("ferraz-art80")
    files = [str(FOLDER / f) for f in FILES if (FOLDER / f).exists()]
    assert len(files) == len(FILES), sorted(p.name for p in FOLDER.glob("*.yaml"))
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "gerar", *files, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return {p.name: pdf_text(p.read_bytes()) for p in sorted(Path(out).glob("*.pdf"))}


def test_the_statute_counts_the_payment_from_the_final_notice_art80() -> None:
    text = fold(STATUTE.read_text(encoding="utf-8"))
    art80 = re.search(r"Art\. 80\.(.*?)Art\. 81\.", text)
    assert art80 is not None
    assert "contados da data da notificação final" in art80[1]
    assert "recurso" not in art80[1]  # the condition is the rules' reading, recorded as such


def test_every_payment_line_counts_from_the_final_notice_with_its_condition_art80(texts: dict[str, str]) -> None:
    with_payment = {n: t for n, t in texts.items() if "Prazo para recolher a multa:" in t}
    kinds = {n.split("-ferraz")[0] for n in with_payment}
    assert {"auto-de-infracao", "notificacao-ar", "notificacao-decisao"} <= kinds, kinds
    for name, text in with_payment.items():
        line = text.split("Prazo para recolher a multa:", 1)[1][:400]
        assert FINAL in fold(line), (name, line)
        assert "contados a partir da data em que a notificação se considera feita" not in fold(line), name


def test_no_document_says_the_auto_is_grounded_on_the_forms_of_notice_art76(texts: dict[str, str]) -> None:
    # art. 76 lists the forms of notice (I pessoal, II carta com AR, III edital); the auto rests on the article of the
    # infraction, never on art. 76
    for name, text in texts.items():
        assert not re.search(r"lavrad[oa] com fundamento[^.]{0,200}art\. 76", fold(text)), name


# FV-2026/0412: the appeal's decision DEC-PREF-71/2026 reduced the fine to the simple one of art. 68, 30 UFM (no
# doubling for recidivism: the earlier decision was not final). 30 UFM × R$ 156,1935 (the rules' EXAMPLE UFM of 2026)
# = R$ 4.685,805 → R$ 4.685,81 (the rules' rounding: half up). The auto's memo keeps 60 UFM = R$ 9.371,61.
# The demonstrativo has its own number, 14/2026 (the decision act's 'demonstrativo'), never the decision's.
DEMO = "demonstrativo-debito-ferraz-de-vasconcelos-sp-fv-2026-0412-ato-05.pdf"


def test_demonstrativo_after_a_reduction_is_due_the_decided_amount_art68_art80(texts: dict[str, str]) -> None:
    text = fold(texts[DEMO])
    assert "DEMONSTRATIVO DE DÉBITO Nº 14/2026" in text
    assert "DEMONSTRATIVO DE DÉBITO Nº DEC-PREF-71/2026" not in text
    assert "Débito do auto, antes da decisão".upper() in text.upper()
    assert "Total em reais: R$ 9.371,61" in text  # the auto's memo, labelled as before the decision
    due = text.split("TOTAL DEVIDO", 1)[1]
    assert due.startswith(" Total devido: 30 (trinta) UFM, correspondentes a R$ 4.685,81"), due[:200]
    # due: 10 dias úteis from the notice of this decision (art. 80), a later act: the term, without a date yet
    assert "Vencimento: 10 (dez) dias úteis, contados a partir da data da notificação final (art. 80)" in due
    # Lei 3.240 says nothing of the means (its rules have no 'pagamento'): the guide of the issuing organ, in plain words
    assert "Meio de pagamento: guia de recolhimento a retirar no órgão que emitiu este demonstrativo" in due
    assert "regras do sistema" not in due
