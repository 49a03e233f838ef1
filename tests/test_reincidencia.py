"""Reincidência from the register's history, per law, worked out from the statute text.

Ferraz de Vasconcelos, Lei nº 3.240/2015, art. 2º, § 5º: "As multas previstas neste artigo serão aplicadas em dobro
em caso de reincidência" — lixo domiciliar na via pública, 20 UFM (art. 2º, § 1º, III), 40 UFM reincidente.
Cuiabá, Lei nº 3.666/1997, art. 36, § 1º: "Na reincidência, a multa será aplicada em dobro" — infração leve,
3 UPF (art. 36, I), 6 UPF reincidente. Timóteo, Lei nº 3.844/2022, art. 16, § 2º, II, a: reincidência do infrator
é agravante. Where the laws are silent (what counts, the window, from when), the rules' choice
``reincidencia-historico``: five years from the final decision to the new infraction (Decreto 2.181/1997, art. 27,
parágrafo único, by analogy); Ferraz counts the same infraction, Cuiabá and Timóteo any infraction of the law.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from autos.cli import main

from .conftest import ROOT

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]
FER = "ferraz-de-vasconcelos-sp/lei-3240-2015"
CBA = "cuiaba-mt/lei-3666-1997"
TIM = "timoteo-mg/lei-3844-2022"
CPF = "987.654.321-00"

#: the UFM of 2026 in rules/ferraz-…/lei-3240-2015.yaml (example value), the UPF of Cuiabá
UFM_2026 = "156,1935"
UPF_2026 = "107,3327"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def _acts(acts: list[str]) -> str:
    return "".join(f"  - {a}\n" for a in acts)


def ferraz(folder: Path, name: str, numero: str, auto: str, data: str, *, cpf: str = CPF,
           regra: str = "lixo-domiciliar", extra: str = "", acts: list[str] | None = None) -> Path:
    """A Ferraz processo: auto with a fine, personal notice the next day, then ``acts``."""
    d = data.split("-")
    notice = f"{d[0]}-{d[1]}-{int(d[2]) + 1:02d}"
    text = f"""lei: {FER}
numero: {numero}
autuado:
  tipo: pessoa_fisica
  nome: Sebastião Nunes Ribeiro
  cpf: "{cpf}"
  endereco: {{logradouro: Rua Romeu Tortima, numero: "77", bairro: Centro, municipio: Ferraz de Vasconcelos,
             uf: SP, cep: "08500-020"}}
local: Rua Romeu Tortima, 77, Centro, Ferraz de Vasconcelos/SP
fatos: Sacos de lixo domiciliar lançados na calçada da Rua Romeu Tortima.
infracoes:
  - regra: {regra}
{extra}atos:
  - tipo: auto
    numero: "{auto}"
    data: {data}
    local: Rua Romeu Tortima, 77, Centro, Ferraz de Vasconcelos/SP
    agente: {{nome: Marcos Vinícius Prado, cargo: Fiscal de Posturas, matricula: "4471"}}
    penalidades:
      - {{tipo: multa}}
  - tipo: notificacao_pessoal
    data: {notice}
    referente: "{auto}"
{_acts(acts or [])}"""
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def cuiaba(folder: Path, name: str, numero: str, auto: str, data: str, *, cpf: str = CPF,
           regra: str = "animal-solto", extra: str = "", acts: list[str] | None = None) -> Path:
    d = data.split("-")
    notice = f"{d[0]}-{d[1]}-{int(d[2]) + 1:02d}"
    text = f"""lei: {CBA}
numero: {numero}
autuado:
  tipo: pessoa_fisica
  nome: Cláudia Fernandes Lima
  cpf: "{cpf}"
  endereco: {{logradouro: Rua Barão de Melgaço, numero: "310", bairro: Centro Norte, municipio: Cuiabá, uf: MT,
             cep: "78005-300"}}
local: Avenida Historiador Rubens de Mendonça, 2000, Cuiabá/MT
fatos: Animal solto na via pública, sem condutor.
infracoes:
  - regra: {regra}
    gravidade: leve
{extra}atos:
  - tipo: auto
    numero: "{auto}"
    data: {data}
    local: Centro de Controle de Zoonoses, Cuiabá/MT
    agente: {{nome: Fábio Henrique Duarte, cargo: Agente de Controle de Zoonoses, matricula: "31.208"}}
    penalidades:
      - {{tipo: multa}}
  - tipo: notificacao_pessoal
    data: {notice}
    referente: "{auto}"
{_acts(acts or [])}"""
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def timoteo(folder: Path, name: str, numero: str, auto: str, data: str, *, cpf: str = CPF,
            agravantes: str = "[]", extra: str = "", acts: list[str] | None = None) -> Path:
    d = data.split("-")
    notice = f"{d[0]}-{d[1]}-{int(d[2]) + 1:02d}"
    text = f"""lei: {TIM}
numero: {numero}
autuado:
  tipo: pessoa_fisica
  nome: José Carlos Pereira
  cpf: "{cpf}"
  qualificacao: brasileiro, casado, feirante
  endereco: {{logradouro: Rua Bahia, numero: "210", bairro: Timirim, municipio: Timóteo, uf: MG, cep: "35182-000"}}
local: Feira livre da Praça 1º de Maio, Timóteo/MG
fatos: Venda de linguiça frescal sem registro no SIM nem rotulagem.
infracoes:
  - regra: inobservancia-normas-sanitarias
    norma: {{artigo: "23", paragrafo: unico}}
{extra}atos:
  - tipo: auto
    numero: "{auto}"
    data: {data}
    hora: "08:15"
    local: Feira livre da Praça 1º de Maio, Timóteo/MG
    agente: {{nome: Dra. Ana Paula Rocha, cargo: Médica Veterinária Oficial, matricula: "20.518",
             crmv: CRMV-MG 23501, medico_veterinario_oficial: true}}
    circunstancias: {{atenuantes: [], agravantes: {agravantes}}}
    penalidades:
      - {{tipo: multa, valor_base: "1000", motivo_valor: "Linguiça frescal sem registro nem rótulo exposta à venda:
         gravidade e risco à saúde do consumidor (art. 16, § 2º).", motivo_nao_advertencia: "O risco à saúde do
         consumidor não se afasta com a advertência (art. 16, § 2º)."}}
    assinaturas:
      autuado: {{situacao: assinou, data: {data}}}
  - tipo: notificacao_pessoal
    data: {notice}
    referente: "{auto}"
{_acts(acts or [])}"""
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def validar(folder: Path, target: Path) -> tuple[int, str]:
    code, out = run("registro", "reconstruir", str(folder))
    assert code == 0, out
    return run("validar", str(target))


PAID = 'tipo: pagamento\n    data: {d}\n    valor: "100.00"'


def paid(d: str) -> str:
    return PAID.format(d=d)


# --------------------------------------------------------------------------------------------------
# Ferraz de Vasconcelos: art. 2º, § 5º (em dobro), the same infraction


def test_ferraz_art2_p5_earlier_final_processo_inside_window_doubles_the_fine(tmp_path: Path) -> None:
    """Earlier processo paid on 20/03/2025 (final); new infraction on 01/10/2026, 1 year and 6 months later:
    reincidente. 20 UFM (art. 2º, § 1º, III) × 2 (art. 2º, § 5º) = 40 UFM × R$ 156,1935 = R$ 6.247,74."""
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", acts=[paid("2025-03-20")])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert "reincidente — infração 1 (lixo-domiciliar): Auto nº 112/2025 de 10/03/2025 (processo FV-2025/0112" in out
    assert "decisão definitiva em 20/03/2025 (pagamento da multa de 20/03/2025)" in out
    assert "REINCIDENCIA-DO-HISTORICO" in out and "reincidente: true" in out
    assert "multa do auto (com a reincidência do histórico): 40 UFM = R$ 6.247,74" in out
    assert code == 0, out  # a warning: the history fills what the file does not say


def test_ferraz_art78_appeal_deadline_lapsed_is_final(tmp_path: Path) -> None:
    """Notified on 04/08/2026, no appeal in the 10 days of art. 78 (until 14/08/2026): final on 15/08/2026."""
    ferraz(tmp_path, "anterior.yaml", "FV-2026/0300", "300/2026", "2026-08-03")
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01", extra="    reincidente: true\n")
    code, out = validar(tmp_path, new)
    assert "decisão definitiva em 15/08/2026 (prazo para apresentar recurso vencido em 14/08/2026" in out
    assert "multa do auto (com os valores do arquivo): 40 UFM = R$ 6.247,74" in out
    assert code == 0, out


@pytest.mark.parametrize(("final", "reincidente"), [("2021-10-01", True), ("2021-09-30", False)])
def test_ferraz_window_of_five_years_from_the_final_decision(tmp_path: Path, final: str, reincidente: bool) -> None:
    """Five years from the final decision to the new infraction (01/10/2026): paid on 01/10/2021 counts (the
    last day), paid on 30/09/2021 does not (Decreto 2.181/1997, art. 27, parágrafo único, by analogy)."""
    ferraz(tmp_path, "anterior.yaml", "FV-2021/0050", "50/2021", "2021-09-20", acts=[paid(final)])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    if reincidente:
        assert "reincidente — infração 1" in out and "40 UFM = R$ 6.247,74" in out
    else:
        assert "não reincidente — infração 1 (lixo-domiciliar)" in out and "nos 5 anos antes de 01/10/2026" in out
        assert "20 UFM = R$ 3.123,87" in out
    assert code == 0, out


@pytest.mark.parametrize("acts", [
    # an appeal filed in time and not decided: the decision is not final
    ['tipo: recurso\n    numero: PROT-1/2026\n    data: 2026-08-10\n    referente: "300/2026"'],
    # the appeal decided cancelling the fine: never final as a punishment
    ['tipo: recurso\n    numero: PROT-1/2026\n    data: 2026-08-10\n    referente: "300/2026"',
     'tipo: decisao_recurso\n    numero: DEC-1/2026\n    data: 2026-09-01\n    referente: PROT-1/2026\n'
     '    resultado: cancelada\n    autoridade: Prefeito Municipal'],
], ids=["recurso-pendente", "multa-cancelada"])
def test_ferraz_earlier_processo_not_final_does_not_count(tmp_path: Path, acts: list[str]) -> None:
    ferraz(tmp_path, "anterior.yaml", "FV-2026/0300", "300/2026", "2026-08-03", acts=acts)
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert "não reincidente — infração 1 (lixo-domiciliar)" in out
    assert "multa do auto (com a reincidência do histórico): 20 UFM = R$ 3.123,87" in out
    assert code == 0, out


def test_ferraz_counts_only_the_same_infraction(tmp_path: Path) -> None:
    """Ferraz: each doubling is in the infraction's own article ("as multas previstas neste artigo"); an earlier
    final processo for another infraction does not count."""
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", regra="lixo-fora-do-horario",
           acts=[paid("2025-03-20")])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert "não reincidente — infração 1 (lixo-domiciliar): nenhum processo anterior do mesmo autuado pela mesma " \
           "infração" in out
    assert code == 0, out


def test_earlier_processo_under_another_law_does_not_count(tmp_path: Path) -> None:
    cuiaba(tmp_path, "cuiaba.yaml", "CCZ-2025/0010", "10/2025", "2025-03-10", acts=[paid("2025-03-20")])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert "não reincidente — infração 1" in out and "20 UFM = R$ 3.123,87" in out
    assert code == 0, out


@pytest.mark.parametrize(("earlier", "new"), [("987.654.321-00", "98765432100"), ("98765432100", "987.654.321-00")])
def test_cpf_typed_with_or_without_dots_is_the_same_person(tmp_path: Path, earlier: str, new: str) -> None:
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", cpf=earlier,
           acts=[paid("2025-03-20")])
    target = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01", cpf=new)
    code, out = validar(tmp_path, target)
    assert "reincidente — infração 1 (lixo-domiciliar): Auto nº 112/2025" in out, out
    assert code == 0, out


def test_another_person_does_not_count(tmp_path: Path) -> None:
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", cpf="123.456.789-09",
           acts=[paid("2025-03-20")])
    target = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01")
    code, out = validar(tmp_path, target)
    assert "não reincidente" in out
    assert code == 0, out


# --------------------------------------------------------------------------------------------------
# disagreement with the history, and the override with its reason


def test_typed_reincidente_that_disagrees_with_history_is_an_error(tmp_path: Path) -> None:
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", acts=[paid("2025-03-20")])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01", extra="    reincidente: false\n")
    code, out = validar(tmp_path, new)
    assert code == 1, out
    assert "[ERRO · nulidade] REINCIDENCIA-DIVERGENTE: infração 1 (lixo-domiciliar): reincidente: false, mas o histórico do " \
           "registro diz reincidente" in out
    assert "campo 'infracoes[0].reincidente'" in out and "reincidente_motivo" in out
    assert "20 UFM = R$ 3.123,87" in out  # the typed value is the one the file's documents would use


def test_without_register_the_typed_value_is_used_as_before(tmp_path: Path) -> None:
    ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", acts=[paid("2025-03-20")])
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01", extra="    reincidente: false\n")
    code, out = run("validar", str(new))  # no registro.sqlite3 in the folder
    assert code == 0, out
    assert "REINCIDENCIA" not in out and "reincidente —" not in out


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def _docx_text(path: Path) -> str:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as z:
        xml = z.read("word/document.xml").decode("utf-8")
    import re

    return re.sub(r"<[^>]+>", "", xml)


@pytest.mark.parametrize(("typed", "earlier", "fine"), [
    ("false", True, "R$ 3.123,87"),   # the history says reincidente; the clerk says no, with the reason
    ("true", False, "R$ 6.247,74"),   # no final processo in the register; the clerk knows of a paper one
])
def test_override_with_reason_is_a_warning_and_the_documents_print_it(tmp_path: Path, typed: str, earlier: bool,
                                                                     fine: str) -> None:
    motivo = ("auto anterior nº 112/2025 anulado pela Procuradoria (parecer 44/2026)" if earlier else
              "auto nº 90/2024 lavrado em papel, pago em 02/05/2024, fora do registro")
    if earlier:
        ferraz(tmp_path, "anterior.yaml", "FV-2025/0112", "112/2025", "2025-03-10", acts=[paid("2025-03-20")])
    kept = ['tipo: recurso\n    numero: PROT-9/2026\n    data: 2026-10-05\n    referente: "700/2026"\n'
            '    agente: {nome: Renata Alves Cardoso, matricula: "5.330"}\n'
            '    argumentos: [{id: "1", texto: "Os sacos de lixo não eram do recorrente."}]',
            'tipo: decisao_recurso\n    numero: DEC-9/2026\n    data: 2026-10-20\n    referente: PROT-9/2026\n'
            '    resultado: mantida\n    autoridade: Prefeito Municipal\n'
            '    razoes: [{argumento: "1", conclusao: rejeitado, fatos: "O agente viu o recorrente lançar os sacos na '
            'calçada.", fundamentos: "É ato lesivo lançar lixo em passeio público (art. 2º, I)."}]']
    new = ferraz(tmp_path, "novo.yaml", "FV-2026/0700", "700/2026", "2026-10-01", acts=kept,
                 extra=f"    reincidente: {typed}\n    reincidente_motivo: \"{motivo}\"\n" + (
                     # the repeat rests on the paper auto, named with the day its fine became definitive
                     '    antecedente: {auto: "90/2024", definitiva_em: 2024-05-02, como: "multa paga"}\n'
                     if typed == "true" else ""))
    code, out = validar(tmp_path, new)
    assert code == 0, out
    assert "[AVISO · vício sanável] REINCIDENCIA-CONTRA-HISTORICO" in out and f"com o motivo: {motivo}" in out
    assert f"= {fine}" in out
    out_dir = tmp_path / "saida"
    code, out = run("gerar", str(new), "-o", str(out_dir), "--minuta")
    assert code in (0, 1), out
    autos = sorted(out_dir.glob("auto-de-infracao-*"))
    assert {p.suffix for p in autos} == {".pdf", ".docx"}, out
    demonstrativos = sorted(out_dir.glob("demonstrativo-debito-*"))  # from the decision that keeps the fine
    assert {p.suffix for p in demonstrativos} == {".pdf", ".docx"}, sorted(p.name for p in out_dir.iterdir())
    for doc in autos + demonstrativos:
        text = _pdf_text(doc) if doc.suffix == ".pdf" else _docx_text(doc)
        flat = " ".join(text.split())
        assert f"— motivo: {motivo}" in flat and "histórico do registro" not in flat, (doc, flat[-2000:])


# --------------------------------------------------------------------------------------------------
# Cuiabá: art. 36, § 1º (em dobro), any infraction of the law


def test_cuiaba_art36_p1_any_earlier_final_infraction_doubles_the_fine(tmp_path: Path) -> None:
    """An earlier final processo for another infraction (cão sem guia) counts: 3 UPF (art. 36, I) × 2
    (art. 36, § 1º) = 6 UPF × R$ 107,3327 = R$ 643,9962 → R$ 644,00 (centavo, metade para cima)."""
    cuiaba(tmp_path, "anterior.yaml", "CCZ-2025/0010", "10/2025", "2025-03-10", regra="cao-sem-guia",
           acts=[paid("2025-03-20")])
    new = cuiaba(tmp_path, "novo.yaml", "CCZ-2026/0200", "200/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert "reincidente — infração 1 (animal-solto): Auto nº 10/2025 de 10/03/2025 (processo CCZ-2025/0010" in out
    assert "multa do auto (com a reincidência do histórico): 6 UPF = R$ 644,00" in out
    assert code == 0, out


def test_cuiaba_decision_on_appeal_is_final_and_not_final_before(tmp_path: Path) -> None:
    """Judged (mantida) on 10/09/2026, appeal decided (mantida) on 20/10/2026: final on 20/10/2026. A new
    infraction on 15/10/2026 is before it (not reincidente); one on 01/11/2026 after (reincidente)."""
    acts = ['tipo: julgamento\n    numero: DEC-1/2026\n    data: 2026-09-10\n    referente: "50/2026"\n'
            '    resultado: mantida\n    autoridade: Coordenadora do CCZ',
            'tipo: notificacao_pessoal\n    data: 2026-09-11\n    referente: DEC-1/2026',
            'tipo: recurso\n    numero: PROT-2/2026\n    data: 2026-09-15\n    referente: DEC-1/2026',
            'tipo: decisao_recurso\n    numero: DEC-2/2026\n    data: 2026-10-20\n    referente: PROT-2/2026\n'
            '    resultado: mantida\n    autoridade: Secretário Municipal de Saúde']
    cuiaba(tmp_path, "anterior.yaml", "CCZ-2026/0050", "50/2026", "2026-08-03", acts=acts)
    before = cuiaba(tmp_path, "antes.yaml", "CCZ-2026/0190", "190/2026", "2026-10-15")
    after = cuiaba(tmp_path, "depois.yaml", "CCZ-2026/0200", "200/2026", "2026-11-01")
    code, out = validar(tmp_path, before)
    assert "não reincidente — infração 1" in out and "3 UPF = R$ 322,00" in out, out
    code, out = run("validar", str(after))
    assert "decisão definitiva em 20/10/2026 (decisão do recurso nº DEC-2/2026 de 20/10/2026)" in out, out
    assert "6 UPF = R$ 644,00" in out


# --------------------------------------------------------------------------------------------------
# Timóteo: art. 16, § 2º, II, a — reincidência is an aggravating circumstance, any infraction of the law


def test_timoteo_art16_p2_II_a_history_requires_the_aggravating_circumstance(tmp_path: Path) -> None:
    timoteo(tmp_path, "anterior.yaml", "SIM-2025/000010", "10/2025", "2025-03-10", acts=[paid("2025-03-20")])
    without = timoteo(tmp_path, "sem.yaml", "SIM-2026/000300", "300/2026", "2026-10-01")
    code, out = validar(tmp_path, without)
    assert code == 1, out
    assert "reincidente — infração 1 (inobservancia-normas-sanitarias): Auto nº 10/2025 de 10/03/2025" in out
    assert "REINCIDENCIA-DIVERGENTE: o auto: a agravante 'a' (reincidência) não está marcada no auto" in out
    assert "campo 'atos[0].circunstancias.agravantes'" in out
    with_a = timoteo(tmp_path / "b", "com.yaml", "SIM-2026/000300", "300/2026", "2026-10-01", agravantes="[a]")
    timoteo(tmp_path / "b", "anterior.yaml", "SIM-2025/000010", "10/2025", "2025-03-10",
            acts=[paid("2025-03-20")])
    code, out = validar(tmp_path / "b", with_a)
    assert "REINCIDENCIA-DIVERGENTE" not in out and "reincidente — infração 1" in out, out
    # the range fine (art. 16, II) is the agent's valor-base: 1.000 UPFMT × R$ 5,0770 = R$ 5.077,00
    assert "multa do auto (com os valores do arquivo): 1.000 UPFMT = R$ 5.077,00" in out


def test_timoteo_aggravating_circumstance_without_history_is_an_error_unless_reasoned(tmp_path: Path) -> None:
    new = timoteo(tmp_path, "novo.yaml", "SIM-2026/000300", "300/2026", "2026-10-01", agravantes="[a]")
    code, out = validar(tmp_path, new)
    assert code == 1 and "a agravante 'a' (reincidência) está marcada no auto, mas o histórico do registro diz " \
                         "não reincidente" in out, out
    motivo = "auto nº 3/2023 do SIM, anterior ao registro, pago em 2023"
    new = timoteo(tmp_path, "novo.yaml", "SIM-2026/000300", "300/2026", "2026-10-01", agravantes="[a]",
                  extra=f"    reincidente_motivo: \"{motivo}\"\n")
    code, out = validar(tmp_path, new)
    assert code == 0 and "REINCIDENCIA-CONTRA-HISTORICO" in out, out
    code, out = run("multa", str(new))
    # in the act's words: no rule id, no talk of the register (Lei 9.784, art. 50, § 1º)
    assert f"Reincidência reconhecida pelo agente — motivo: {motivo}" in " ".join(out.split()), out


# --------------------------------------------------------------------------------------------------
# the rules


@pytest.mark.parametrize("lei", [FER, CBA, TIM])
def test_reincidencia_rules_name_acts_and_deadlines_of_the_law_and_record_the_choice(lei: str) -> None:
    from autos.app.generation.pipeline import Autos

    autos = Autos(ROOT / "rules", ROOT / "templates")
    statute = autos.rules.get(lei)
    rule = statute.reincidencia
    assert rule is not None and rule.anos == 5
    procedure = autos.processos.procedure(lei)
    assert set(rule.definitiva.atos) <= set(procedure.atos)
    assert set(rule.definitiva.prazos) <= set(procedure.prazos) | set(procedure.law.prazos), rule.definitiva.prazos
    chosen = {i.id: i for i in statute.interpretacoes}["reincidencia-historico"]
    assert "2.181/1997, art. 27" in " ".join(chosen.escolha.split())


def test_reincidencia_rules_are_strict(tmp_path: Path) -> None:
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    f = rules / "cuiaba-mt" / "lei-3666-1997.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("  conta: qualquer_infracao\n",
                                                       "  conta: qualquer_infracao\n  janela: 5\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["--regras", str(rules), "regras"])
    assert result.exit_code == 2 and "janela" in result.output, result.output


# --------------------------------------------------------------------------------------------------
# the same questions for the three laws


def _law_processo(lei: str, folder: Path, name: str, numero: str, auto: str, data: str, *, cpf: str = CPF,
                  acts: list[str] | None = None, typed: bool = False) -> Path:
    if lei == FER:
        return ferraz(folder, name, numero, auto, data, cpf=cpf, acts=acts, extra=NO_TYPED if typed else "")
    if lei == CBA:
        return cuiaba(folder, name, numero, auto, data, cpf=cpf, acts=acts, extra=NO_TYPED if typed else "")
    return timoteo(folder, name, numero, auto, data, cpf=cpf, acts=acts)


NO_TYPED = "    reincidente: false\n"


@pytest.mark.parametrize("lei", [FER, CBA, TIM])
@pytest.mark.parametrize(("earlier", "counts"), [
    ("final-dentro", True),         # paid on 01/10/2021: the fifth anniversary is the new infraction's day
    ("final-fora", False),          # paid on 30/09/2021: more than five years before 01/10/2026
    ("nao-definitivo", False),      # an appeal (after the auto in Ferraz, after the judgement elsewhere) pending
    ("outra-pessoa", False),        # another CPF
], ids=lambda v: str(v))
def test_each_law_counts_only_a_final_decision_of_the_same_person_within_five_years(
        tmp_path: Path, lei: str, earlier: str, counts: bool) -> None:
    acts = {"final-dentro": [paid("2021-10-01")], "final-fora": [paid("2021-09-30")],
            "outra-pessoa": [paid("2026-03-20")]}.get(earlier)
    date_earlier = "2021-09-20" if earlier.startswith("final") else "2026-03-10"
    if earlier == "nao-definitivo":
        if lei == FER:
            acts = ['tipo: recurso\n    numero: PROT-5/2026\n    data: 2026-03-15\n    referente: "5/2026"']
        else:
            acts = ['tipo: julgamento\n    numero: DEC-5/2026\n    data: 2026-09-20\n    referente: "5/2026"\n'
                    '    resultado: mantida\n    autoridade: Autoridade julgadora',
                    'tipo: notificacao_pessoal\n    data: 2026-09-21\n    referente: DEC-5/2026',
                    'tipo: recurso\n    numero: PROT-5/2026\n    data: 2026-09-25\n    referente: DEC-5/2026']
    numero = {FER: "FV-{}/0005", CBA: "CCZ-{}/0005", TIM: "SIM-{}/000005"}[lei].format(date_earlier[:4])
    _law_processo(lei, tmp_path, "anterior.yaml", numero, f"5/{date_earlier[:4]}", date_earlier, acts=acts,
                  cpf="123.456.789-09" if earlier == "outra-pessoa" else CPF, typed=True)
    new_numero = {FER: "FV-2026/0700", CBA: "CCZ-2026/0700", TIM: "SIM-2026/000700"}[lei]
    new = _law_processo(lei, tmp_path, "novo.yaml", new_numero, "700/2026", "2026-10-01")
    code, out = validar(tmp_path, new)
    assert ("reincidente — infração 1" in out and "não reincidente — infração 1" not in out) == counts, out
    if counts:
        assert f"Auto nº 5/2021 de 20/09/2021 (processo {numero}" in out
        assert "decisão definitiva em 01/10/2021 (pagamento da multa de 01/10/2021)" in out
