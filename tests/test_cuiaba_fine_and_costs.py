"""Cuiabá, Lei nº 3.666/1997: the fine of art. 36 and the costs of the apprehended animal (art. 11, § 3º; art. 38:
"sem prejuízo das penalidades previstas no Artigo 35") are never one "multa". The memória de cálculo names the
table's "MULTA" parcel a cost, and the sum the "Débito", with each part; the reading that the table's "multa" is not
a second penalty for the same fact (bis in idem) is an interpretive choice of the rules, shown to the user.

CCZ-2026/0077: a horse (equino, grande porte, art. 11, § 4º, III) collected on Monday 10/08/2026 and restituted on
12/08, the 2nd business day of the retrieval term (art. 11, § 2º, the collection day excluded; choice art11-diarias):
2 days in custody. Fine: art. 36, I (leve), 3 UPF × R$ 107,3327 = R$ 321,9981 → R$ 322,00. Costs: transporte 1,0 +
"multa" 2,0 + diárias 3,00 + 3,50 (art. 11, § 3º) = 9,5 UPF × R$ 107,3327 = R$ 1.019,66065 → R$ 1.019,66. Débito:
12,5 UPF = R$ 1.341,65875 → R$ 1.341,66.
"""

from __future__ import annotations

from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
FILE = SAMPLES / "processos" / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"


def test_memo_names_fine_and_costs_apart_and_their_sum_the_debito_art11_art36_art38() -> None:
    result = CliRunner().invoke(main, [*BASE, "multa", str(FILE)])
    assert result.exit_code == 0, result.output
    out = result.output
    # the law's word ("multa", art. 11, § 3º), cumulated with the fine of art. 36 by art. 38
    assert ('Parcela "multa" da tabela do art. 11, § 3º, devida com as despesas, sem prejuízo da multa do art. 36 '
            '(art. 38) [Lei nº 3.666/1997, art. 11, § 3º]') in out
    assert "Débito (multa R$ 322,00 + despesas R$ 1.019,66): 12,5 (doze inteiros e cinco décimos) UPF" in out
    assert "R$ 1.341,66" in out
    assert "\nTotal: 12,5" not in out and "Multa (tabela de custos)" not in out
    assert "art11-multa-bis-in-idem" in out  # the choice applied to this memo, listed under it


def test_bis_in_idem_reading_is_an_interpretive_choice_shown_by_regras_mostrar_art11_art36() -> None:
    result = CliRunner().invoke(main, [*BASE, "regras", "mostrar", "cuiaba-mt/lei-3666-1997"])
    assert result.exit_code == 0, result.output
    block = result.output.split("art11-multa-bis-in-idem", 1)[1][:2500]
    assert "bis in idem" in block and "art. 36" in block and "procuradoria" in block
    assert "despesa do recolhimento, não como penalidade" in " ".join(block.split())
