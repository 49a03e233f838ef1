"""``autos exportar-debitos --desde D``: the final fines unpaid after their due date, as CSV and
JSON for a dívida ativa system, with hand-computed amounts; bad input writes nothing and exits 2.

Ferraz de Vasconcelos, Lei nº 3.240/2015: lixo domiciliar na via pública, 20 UFM (art. 2º, § 1º, III); UFM of 2026
in the rules, R$ 156,1935 (example value): 20 × 156,1935 = R$ 3.123,87. Appeal in 10 calendar days from the notice
(art. 78); payment in 10 business days from the "notificação final" (art. 80).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.debts import COLUMNS
from autos.cli import main

from .conftest import ROOT
from .test_reincidencia import ferraz
from .textutil import pt_number, spreadsheet_rows

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]
NO = "    reincidente: false\n"
APPEAL = 'tipo: recurso\n    numero: PROT-1/2026\n    data: 2026-08-10\n    referente: "{auto}"'


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def decision(resultado: str, valor: str | None = None) -> list[str]:
    return ['tipo: decisao_recurso\n    numero: DEC-1/2026\n    data: 2026-09-01\n    referente: PROT-1/2026\n'
            f'    resultado: {resultado}\n' + (f'    valor: "{valor}"\n' if valor else "") +
            '    autoridade: Prefeito Municipal',
            'tipo: notificacao_pessoal\n    data: 2026-09-02\n    referente: DEC-1/2026']


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Five Ferraz processos of the same day (auto 03/08/2026, notified 04/08/2026): see each comment."""
    f = tmp_path / "processos"
    # no appeal, no payment: final on 15/08/2026 (art. 78: 10 days until 14/08), due on 18/08/2026 (art. 80: 10
    # business days from 04/08: 05, 06, 07, 10, 11, 12, 13, 14, 17, 18) → exported, 20 UFM = R$ 3.123,87
    ferraz(f, "a-sem-recurso.yaml", "FV-2026/0300", "300/2026", "2026-08-03", extra=NO)
    # appeal decided on 01/09/2026 reducing the fine to R$ 1.500,00, notified on 02/09/2026; due 10 business days
    # later, 17/09/2026 (07/09 is a national holiday) → exported: R$ 1.500,00 = 1500 / 156,1935 = 9,60347… UFM,
    # 9,6035 to 4 places
    ferraz(f, "b-reduzida.yaml", "FV-2026/0301", "301/2026", "2026-08-03", extra=NO,
           acts=[APPEAL.format(auto="301/2026"), *decision("reduzida", "1500.00")])
    # paid: not a debt
    ferraz(f, "c-paga.yaml", "FV-2026/0302", "302/2026", "2026-08-03", extra=NO,
           acts=['tipo: pagamento\n    data: 2026-08-10\n    valor: "3123.87"'])
    # cancelled on appeal: not a debt
    ferraz(f, "d-cancelada.yaml", "FV-2026/0303", "303/2026", "2026-08-03", extra=NO,
           acts=[APPEAL.format(auto="303/2026"), *decision("cancelada")])
    # appeal filed, not decided: not final
    ferraz(f, "e-recurso-pendente.yaml", "FV-2026/0304", "304/2026", "2026-08-03", extra=NO,
           acts=[APPEAL.format(auto="304/2026")])
    return f


def test_exports_final_unpaid_fines_with_hand_computed_amounts(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "saida" / "debitos"
    code, text = run("exportar-debitos", str(folder), "--desde", "2026-08-01", "-o", str(out))
    assert code == 0, text
    assert "2 débitos exportados de 5 processos lidos" in text
    assert ("FV-2026/0300 (ferraz-de-vasconcelos-sp/lei-3240-2015): débito de 20 UFM = R$ 3.123,87 (multa "
            "R$ 3.123,87), vencido em 18/08/2026") in text
    assert ("FV-2026/0301 (ferraz-de-vasconcelos-sp/lei-3240-2015): débito de 9,6035 UFM = R$ 1.500,00 (multa "
            "R$ 1.500,00), vencido em 17/09/2026") in text
    doc = json.loads((tmp_path / "saida" / "debitos.json").read_text(encoding="utf-8"))
    assert doc["desde"] == "2026-08-01" and doc["data_referencia"] == "2026-11-30"
    a, b = doc["debitos"]
    assert (a["despesas_reais"], a["multa_reais"]) == ("0.00", a["debito_reais"])  # Ferraz: no costs, only the fine
    assert (a["processo"], a["debito_unidades"], a["unidade_fiscal"], a["valor_unidade_reais"], a["debito_reais"],
            a["vencimento"], a["definitiva_em"]) == ("FV-2026/0300", "20", "UFM", "156.1935", "3123.87",
                                                     "2026-08-18", "2026-08-15")
    assert a["autuado_nome"] == "Sebastião Nunes Ribeiro" and a["autuado_cpf_cnpj"] == "98765432100"
    assert a["base_legal"] == "Lei nº 3.240/2015, art. 2º, § 1º, inciso III" and a["auto_numero"] == "300/2026"
    assert a["valor_fixado_por"] == "auto de infração"
    assert (b["debito_unidades"], b["debito_reais"], b["vencimento"], b["definitiva_em"]) == (
        "9.6035", "1500.00", "2026-09-17", "2026-09-01")
    assert b["valor_fixado_por"] == "decisão do recurso nº DEC-1/2026 de 01/09/2026"
    # the CSV, read as a pt-BR spreadsheet opens it (BOM, ';', CRLF): the amounts are numbers with a decimal comma
    rows = spreadsheet_rows((tmp_path / "saida" / "debitos.csv").read_bytes(), COLUMNS)
    assert [r["processo"] for r in rows] == ["FV-2026/0300", "FV-2026/0301"]
    assert [(r["debito_unidades"], r["valor_unidade_reais"], r["debito_reais"]) for r in rows] == [
        ("20", "156,1935", "3123,87"), ("9,6035", "156,1935", "1500,00")]
    for r, d in zip(rows, doc["debitos"], strict=True):  # the same numbers as the JSON's exact text (with a point)
        for k in ("multa_reais", "despesas_reais", "debito_unidades", "valor_unidade_reais", "debito_reais"):
            assert pt_number(r[k]) == Decimal(d[k]), k
    assert rows[0]["autuado_nome"] == "Sebastião Nunes Ribeiro"


def test_desde_keeps_only_debts_due_on_or_after_it(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.json"
    code, text = run("exportar-debitos", str(folder), "--desde", "2026-08-19", "-o", str(out), "--formato", "json")
    assert code == 0, text
    assert [d["processo"] for d in json.loads(out.read_text(encoding="utf-8"))["debitos"]] == ["FV-2026/0301"]
    assert not (tmp_path / "d.csv").exists()


def test_refuses_to_overwrite_unless_asked(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.csv"
    out.write_text("anterior", encoding="utf-8")
    code, text = run("exportar-debitos", str(folder), "--desde", "2026-08-01", "-o", str(out), "--formato", "csv")
    assert code == 2 and "já existe" in text and out.read_text(encoding="utf-8") == "anterior"
    code, text = run("exportar-debitos", str(folder), "--desde", "2026-08-01", "-o", str(out), "--formato", "csv",
                     "--substituir")
    assert code == 0 and "FV-2026/0300" in out.read_text(encoding="utf-8-sig")


def test_processo_whose_fine_cannot_be_computed_is_refused_and_listed(tmp_path: Path) -> None:
    f = tmp_path / "p"
    ferraz(f, "sem-reincidente.yaml", "FV-2026/0300", "300/2026", "2026-08-03")  # reincidente not typed
    code, text = run("exportar-debitos", str(f), "--desde", "2026-08-01", "-o", str(tmp_path / "d"))
    assert code == 1, text
    assert "recusado:" in text and "infracoes[0].reincidente" in text


@pytest.mark.parametrize(("kind", "words"), [
    ("data inválida", ["data '2026-13-01' inválida em --desde", "AAAA-MM-DD"]),
    ("nenhum processo", ["nenhum processo encontrado", "nada foi gravado"]),
    ("saída sem permissão", ["não foi possível criar a pasta de saída", "Nada foi gravado"]),
])
def test_bad_input_is_a_portuguese_error_exit_2_and_nothing_written(folder: Path, tmp_path: Path, kind: str,
                                                                    words: list[str]) -> None:
    out = tmp_path / "saida" / "debitos"
    args = [str(folder), "--desde", "2026-08-01", "-o", str(out)]
    if kind == "data inválida":
        args[2] = "2026-13-01"
    elif kind == "nenhum processo":
        empty = tmp_path / "vazia"
        empty.mkdir()
        args[0] = str(empty)
    else:
        blocker = tmp_path / "arquivo"
        blocker.write_text("x", encoding="utf-8")
        out = blocker / "debitos"  # a folder under a file: cannot be created, even by root
        args[4] = str(out)
    result = CliRunner().invoke(main, [*BASE, "exportar-debitos", *args])
    assert result.exit_code == 2, result.output
    for w in words:
        assert w in result.output, result.output
    assert not list(tmp_path.rglob("debitos*")), list(tmp_path.rglob("*"))


def test_without_folders_the_register_gives_the_processos(folder: Path, tmp_path: Path) -> None:
    code, text = run("registro", "reconstruir", str(folder))
    assert code == 0, text
    out = tmp_path / "d.json"
    code, text = run("exportar-debitos", "--registro", str(folder / "registro.sqlite3"), "--desde", "2026-08-01",
                     "-o", str(out), "--formato", "json")
    assert code == 0, text
    assert [d["processo"] for d in json.loads(out.read_text(encoding="utf-8"))["debitos"]] == [
        "FV-2026/0300", "FV-2026/0301"]


def test_a_path_that_does_not_exist_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "debitos.csv"
    code, text = run("exportar-debitos", str(tmp_path / "nao-existe"), "--desde", "2026-08-01", "-o", str(out))
    assert code == 2, text
    assert "nao-existe" in text and "arquivo ou pasta não encontrado; nada foi gravado." in text
    assert not list(tmp_path.iterdir())


# CCZ-2026/0077 (Cuiabá, Lei nº 3.666/1997): a horse (equino, grande porte, art. 11, § 4º, III) loose on the street,
# 2 days in custody (restituted on the 2nd business day of the term of art. 11, § 2º; choice art11-diarias). The fine
# (art. 36, I, leve) is 3 UPF × R$ 107,3327 = R$ 321,9981 → R$ 322,00. The costs of the apprehension (art. 11, § 3º;
# owed "sem prejuízo das penalidades", art. 38) are not a fine: transporte 1,0 + the table's "multa" 2,0 + diárias
# 3,00 + 3,50 = 9,5 UPF × R$ 107,3327 = R$ 1.019,66; the débito 12,5 UPF = R$ 1.341,66. The judgment kept the fine;
# its payment term lapsed on 30/11/2026. The sample paid the costs at the rescue (DAM-5310/2026, R$ 1.019,66).
CUIABA_0077 = ROOT / "samples" / "processos" / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"


@pytest.mark.parametrize(("paid_rescue", "despesas", "debito", "words"), [
    (True, "0.00", "322.00", "débito de 3 UPF = R$ 322,00 (multa R$ 322,00)"),
    (False, "1019.66", "1341.66", "débito de 12,5 UPF = R$ 1.341,66 (multa R$ 322,00 + despesas R$ 1.019,66)"),
])
def test_fine_and_apprehension_costs_are_exported_apart_cuiaba_art11_art36_art38(
        tmp_path: Path, paid_rescue: bool, despesas: str, debito: str, words: str) -> None:
    text = CUIABA_0077.read_text(encoding="utf-8")
    if not paid_rescue:  # the rescue's payment (art. 11, § 2º) left out: the costs are still owed
        text = text[:text.index("  - tipo: pagamento_resgate")] + text[text.index("  - tipo: notificacao_pessoal"):]
    folder = tmp_path / "processos"
    folder.mkdir()
    (folder / CUIABA_0077.name).write_text(text, encoding="utf-8")
    code, out = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-12-10",
                                          "exportar-debitos", str(folder), "--desde", "2026-01-01",
                                          "-o", str(tmp_path / "d")]).exit_code, ""
    assert code == 0
    (d,) = json.loads((tmp_path / "d.json").read_text(encoding="utf-8"))["debitos"]
    assert (d["multa_unidades"], d["multa_reais"], d["despesas_reais"], d["debito_reais"]) == (
        "3", "322.00", despesas, debito)
    assert Decimal(d["multa_reais"]) + Decimal(d["despesas_reais"]) == Decimal(d["debito_reais"])
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-12-10", "exportar-debitos",
                                       str(folder), "--desde", "2026-01-01", "-o", str(tmp_path / "e")])
    assert words in result.output, result.output
    assert "multa R$ 1.770,99" not in result.output
