"""Acts that hold up: a decision answers every argument with facts and grounds and decides in the law's unit
(Lei federal nº 9.784/1999, art. 50, by analogy), and every act is signed by someone the municipality's register of
authorities makes competent on the act's date, who is not impeded (art. 18 and art. 56, § 1º, by analogy).

Void processos are fixture files (``tests/data/validade``), each paired in ``expectations.yaml`` with the code, the
line, the field and the words its error must contain; the ``*-valido.yaml`` ones, the same processos done right,
validate clean. Cases that need a register other than the shipped one (a person holding two posts, a holder without
designation, a holder who left office) use a copy of the rules folder with the register changed in the test."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml

from autos import Autos
from autos.checks.finding import Finding

from .conftest import DATA, ROOT

HOJE = date(2026, 11, 30)
HERE = DATA / "validade"
EXPECTED: dict[str, dict[str, object]] = yaml.safe_load((HERE / "expectations.yaml").read_text(encoding="utf-8"))
VALID = sorted(p.name for p in HERE.glob("*-valido.yaml"))


@pytest.fixture(scope="module")
def autos() -> Autos:
    return Autos(ROOT / "rules", today=HOJE)


def errors(autos: Autos, file: Path) -> list[Finding]:
    report = autos.validate(file)
    assert report.error is None, report.error
    return [f for f in report.findings if f.severidade == "erro"]


def test_every_fixture_is_valid_or_has_its_expectation() -> None:
    files = {p.name for p in HERE.glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(EXPECTED) | set(VALID)


@pytest.mark.parametrize("name", VALID)
def test_the_processo_done_right_has_no_error(autos: Autos, name: str) -> None:
    assert not errors(autos, HERE / name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_void_act_is_an_error_naming_the_act_the_line_the_article_and_the_fix(autos: Autos, name: str) -> None:
    exp = EXPECTED[name]
    found = [f for f in errors(autos, HERE / name) if f.codigo == exp["codigo"]]
    assert found, [(f.codigo, f.mensagem) for f in errors(autos, HERE / name)]
    f = found[0]
    assert (f.linha, f.caminho) == (exp["linha"], exp["caminho"]), (f.linha, f.caminho)
    assert f.dica, f  # how to fix it
    for words in exp["contem"]:  # type: ignore[attr-defined]
        assert words in f.mensagem or words in (f.citacao or ""), (words, f.mensagem, f.citacao)
    if f.codigo.startswith(("AUTORIDADE", "AGENTE", "COMPETENCIA", "IMPEDIMENTO", "DEFESA", "ARGUMENTO", "RAZAO",
                            "DECISAO", "REDUCAO", "MULTA-FAIXA", "ADVERTENCIA")):
        # the act, by its place in the file (or, from a decision's document, by its number and date)
        assert "atos[" in f.mensagem or re.match(r"ato \d+ \(", f.mensagem), f.mensagem


def test_a_void_decision_refuses_its_documents_but_not_the_earlier_ones(autos: Autos, tmp_path: Path) -> None:
    # Lei 9.784/1999, art. 50: the judgement that leaves argument 2 unanswered is not issued, nor its debit
    # statement; the receipt of the defence, earlier and sound, is
    file = HERE / "tim-argumento-sem-resposta.yaml"
    outcome = {n: type(x).__name__ for ato in (3, 4) for n, x in autos.generate_processo(file, tmp_path, "pdf",
                                                                                         ato=ato)}
    assert outcome == {3: "Generated", 4: "RefusedError"}  # the receipt; the julgamento
    assert not list(tmp_path.glob("decisao-*")) and not list(tmp_path.glob("demonstrativo-*"))


# --- competence that depends on the register: a copy of the rules with the register changed -----------------


def _rules_with(tmp_path: Path, municipio: str, change: dict[str, object]) -> Path:
    """A copy of the shipped rules with ``titulares`` of ``municipio``'s register changed by ``change``:
    ``{"add": [holder…]}`` appends holders; ``{"edit": {index: {key: value | None}}}`` edits (None removes)."""
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    file = rules / municipio / "autoridades.yaml"
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    for holder in change.get("add", []):  # type: ignore[attr-defined]
        data["titulares"].append(holder)
    for index, edits in change.get("edit", {}).items():  # type: ignore[attr-defined]
        for key, value in edits.items():
            if value is None:
                data["titulares"][index].pop(key)
            else:
                data["titulares"][index][key] = value
    file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return rules


def _holder(rules: Path, municipio: str, nome: str) -> int:
    data = yaml.safe_load((rules / municipio / "autoridades.yaml").read_text(encoding="utf-8"))
    return next(i for i, h in enumerate(data["titulares"]) if h["nome"] == nome)


def test_the_judge_of_the_first_instance_does_not_decide_the_appeal_against_it_lei9784_art56_p1(
        tmp_path: Path) -> None:
    # the Secretário also acting as Coordenador do SIM: he may judge, and may decide appeals, but not the appeal
    # against his own judgement (art. 56, § 1º: the appeal goes to the superior authority)
    rules = _rules_with(tmp_path, "timoteo-mg", {"add": [{"cargo": "coordenador-sim", "nome": "Rodrigo Alves Pimenta",
                                                          "matricula": "10.045", "desde": "2026-01-01"}]})
    text = (HERE / "tim-recurso-secretaria-inexistente.yaml").read_text(encoding="utf-8")
    text = text.replace("autoridade: Coordenador do SIM", "autoridade: Rodrigo Alves Pimenta").replace(
        "autoridade: Secretário Municipal de Agricultura",
        "autoridade: Rodrigo Alves Pimenta, Secretário Municipal de Desenvolvimento Econômico, Turismo e Agricultura")
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    found = errors(Autos(rules, today=HOJE), file)
    assert [f.codigo for f in found] == ["IMPEDIMENTO"], [(f.codigo, f.mensagem) for f in found]
    assert "julgou a primeira instância" in found[0].mensagem and "art. 56, § 1º" in (found[0].citacao or "")
    assert found[0].caminho == "atos[7].autoridade"


def test_a_servant_not_designated_may_not_draw_up_the_auto_timoteo_art20(tmp_path: Path, shipped_examples: None) -> None:
    # art. 20: "São autoridades competentes para lavrar auto de infração os servidores designados" (the register
    # alone: an official value's act would designate her)
    rules0 = ROOT / "rules"
    k = _holder(rules0, "timoteo-mg", "Ana Paula Moreira")
    rules = _rules_with(tmp_path, "timoteo-mg", {"edit": {k: {"designacao": None}}})
    found = errors(Autos(rules, today=HOJE), HERE / "tim-valido.yaml")
    assert found and found[0].codigo == "DESIGNACAO-AUSENTE", [(f.codigo, f.mensagem) for f in found]
    assert "servidores designados" in found[0].mensagem and "art. 20" in (found[0].citacao or "")
    assert found[0].caminho == "atos[0].agente"


def test_an_agent_out_of_office_on_the_acts_date_is_an_error(tmp_path: Path) -> None:
    rules0 = ROOT / "rules"
    k = _holder(rules0, "timoteo-mg", "Ana Paula Moreira")
    rules = _rules_with(tmp_path, "timoteo-mg", {"edit": {k: {"ate": "2026-08-31"}}})
    found = errors(Autos(rules, today=HOJE), HERE / "tim-valido.yaml")
    codes = [f.codigo for f in found]
    assert codes and set(codes) == {"AUTORIDADE-FORA-DO-CARGO"}, [(f.codigo, f.mensagem) for f in found]
    assert "até 31/08/2026, não em 01/09/2026" in found[0].mensagem


def test_the_decision_by_delegation_needs_the_published_decree_ferraz_art79_pu(tmp_path: Path) -> None:
    # the same decision, a year later (after the Decreto nº 7.015/2025 of 03/02/2025): competent by delegation
    text = (HERE / "fer-delegacao-antes-do-decreto.yaml").read_text(encoding="utf-8").replace("2025-", "2026-")
    file = tmp_path / "p.yaml"
    file.write_text(text.replace("/2025", "/2026"), encoding="utf-8")
    assert not errors(Autos(ROOT / "rules", today=HOJE), file)


# --- the documents: reasons, the notice of art. 26, § 1º, the receipt, the signer -----------------------------


@pytest.fixture(scope="module")
def sim150(autos: Autos, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documents of samples' SIM-2026/000150 (defence, judgement, appeal, despacho, decision), PDF and DOCX."""
    out = tmp_path_factory.mktemp("sim150")
    for ato in (1, 4, 5, 6, 7, 8, 9):
        for n, done in autos.generate_processo(ROOT / "samples" / "processos" / "timoteo-mg" /
                                               "sim-2026-000150-recurso-pago.yaml", out, "ambos", ato=ato):
            assert not isinstance(done, Exception), (n, done)
    return out


def _text(folder: Path, stem: str, ext: str) -> str:
    from .textutil import document_text
    return document_text(folder / f"{stem}-timoteo-mg-sim-2026-000150-{ext}")


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_the_decision_prints_report_reasons_and_dispositivo_in_the_laws_unit(sim150: Path, ext: str) -> None:
    text = _text(sim150, "decisao", f"ato-08.{ext}")
    # relatório: the auto, its fine (art. 16, II: 1.500 UPFMT, § 5º: halved = 750 UPFMT × R$ 5,077 = R$ 3.807,75),
    # and what the appeal argues, item by item
    assert "RELATÓRIO" in text and "aplica multa de 750 (setecentas e cinquenta) UPFMT" in text
    # timely, with the term it met: the AR-88 was joined to the processo on 17/09 (art. 21, § 2º), 10 days (Lei
    # 9.784, art. 59) → 27/09 (Sunday) → 28/09
    assert ("Recurso nº PROT-1500/2026 protocolado em 25 de setembro de 2026, tempestivo (prazo de 10 dias corridos, "
            "contado de 17 de setembro de 2026, data em que a notificação se considerou feita, até 28 de setembro de "
            "2026), em que alega: (1) Reitera a pane da câmara fria") in text
    # razões: each argument, the conclusion, the facts, the legal grounds (Lei 9.784/1999, art. 50)
    assert "Argumento 1 — Reitera a pane da câmara fria" in text and "ACOLHIDO EM PARTE" in text
    assert "Fatos: A declaração do técnico" in text and "Fundamentos: A pane não afasta a infração" in text
    # dispositivo: 1.000 UPFMT refixed, halved by § 5º = 500 UPFMT × R$ 5,077 = R$ 2.538,50, with the reason
    assert ("REDUZIDA a multa para 500 (quinhentas) UPFMT, correspondentes a R$ 2.538,50") in text
    assert "Motivo do valor: A falha do compressor" in text
    assert "Esta decisão encerra a instância administrativa" in text  # no appeal against the appeal decision
    # the authority: the Secretário of the Secretaria the SIM belongs to (art. 1º), with the basis
    assert "Rodrigo Alves Pimenta" in text and "Secretário Municipal de Desenvolvimento Econômico, Turismo e " \
                                               "Agricultura" in text
    # art. 1º makes the SIM part of the Secretaria; the appeal goes up to it by analogy with Lei 9.784, art. 56, § 1º
    assert ("Competência: Lei nº 3.844/2022, art. 1º (o SIM integra a Secretaria; o recurso sobe à autoridade "
            "superior — Lei federal nº 9.784/1999, art. 56, § 1º, por analogia).") in text
    assert "Secretário Municipal de Agricultura" not in text


def test_the_judgement_says_the_appeal_to_whom_and_in_what_term(sim150: Path) -> None:
    text = _text(sim150, "decisao", "ato-04.pdf")
    # Lei 9.784/1999, art. 59 (10 days) and art. 56, § 1º (to the superior, through the one who decided)
    assert ("Cabe recurso desta decisão, no prazo de 10 (dez) dias corridos") in text
    assert "dirigido ao Secretário Municipal de Desenvolvimento Econômico, Turismo e Agricultura" in text
    assert "Dra. Mariana Lopes Ferreira" in text and "Coordenadora do Serviço de Inspeção Municipal — SIM" in text
    # art. 5º, V: the SIM applies the sanctions; art. 6º, p.u.: coordinated by a veterinarian; designated by portaria
    assert ("Competência: Lei nº 3.844/2022, art. 5º, inciso V (o SIM aplica as sanções, coordenado por médico "
            "veterinário, art. 6º, parágrafo único); designação: Portaria nº 107/2025") in text


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_the_notice_of_a_decision_has_what_lei9784_art26_p1_requires(sim150: Path, ext: str) -> None:
    text = _text(sim150, "notificacao-decisao", f"ato-05.{ext}")
    # I: the notified and the organ
    # the company, a legal person, in the feminine (a sociedade): NOTIFICADA
    assert "Fica Laticínios Vale do Aço Ltda. (CNPJ 61.274.039/0001-91) NOTIFICADA" in text
    assert ("Órgão: Serviço de Inspeção Municipal de Produtos de Origem Animal — SIM, da Secretaria Municipal de "
            "Desenvolvimento Econômico, Turismo e Agricultura.") in text
    # II: the purpose; III and IV: no appearance; V: the processo goes on regardless
    assert "Finalidade: Dar ciência ao notificado da Decisão de primeira instância nº DEC-5/2026" in text
    assert "Esta notificação não exige comparecimento" in text
    assert "O processo prossegue independentemente de manifestação do notificado" in text
    # VI: the decision (its answers) and where to read it in full; the appeal, to whom and when
    assert "Argumento 3 (A empresa é agroindústria de pequeno porte e primária" in text and "REJEITADO" in text
    assert "O inteiro teor da decisão — relatório, razões e dispositivo — acompanha esta notificação" in text
    assert "Cabe recurso desta decisão" in text and "dirigido ao Secretário Municipal de Desenvolvimento" in text
    assert "cópia do auto" not in text


def test_a_personal_notice_of_a_decision_speaks_of_the_decision_not_of_the_copy_of_the_auto(sim150: Path) -> None:
    # Timóteo art. 20, § 2º (the dated signature on the copy of the auto is the notice) applies to the auto; the
    # notice of a decision takes effect on the date the notified signs it (art. 21, I)
    text = _text(sim150, "notificacao-decisao", "ato-09.pdf")
    assert ("considera-se feita na data aposta pelo notificado ao receber esta notificação, com o teor da decisão"
            in text)
    assert "cópia do auto" not in text
    assert "Notificação considerada feita em 22 de outubro de 2026" in text
    # the date is the notified's: the notice carries the dated receipt they sign (Lei 9.784, art. 26, § 3º)
    assert "Recebi a cópia desta notificação, com o inteiro teor da decisão, em 22 de outubro de 2026." in text
    assert "Notificado" in text.split("Recebi a cópia desta notificação", 1)[1]


@pytest.mark.parametrize("ext", ["pdf", "docx"])
def test_a_notice_by_post_has_no_receipt_to_sign(sim150: Path, ext: str) -> None:
    text = _text(sim150, "notificacao-decisao", f"ato-05.{ext}")  # the judgement, notified by AR (art. 21, II)
    assert "Recebi a cópia desta notificação" not in text


def test_the_receipt_records_the_date_and_who_received_it_and_rules_on_no_timeliness(sim150: Path) -> None:
    text = _text(sim150, "protocolo", "ato-06.pdf")
    assert "Recebido em 25 de setembro de 2026, sob o nº PROT-1500/2026, o recurso" in text
    assert "tempestiv" not in text.lower()  # the deciding authority rules on it (Lei 9.784/1999, art. 63, I)
    assert "Cláudia Regina Matos" in text and "Agente Administrativo — Protocolo do SIM" in text
    assert ("Competência: Lei nº 3.844/2022, art. 19 (processo próprio, com ampla defesa; o protocolo recebe e data "
            "a peça — Lei federal nº 9.784/1999, art. 6º, parágrafo único, por analogia); designação: Portaria nº "
            "110/2025") in text


def test_the_auto_names_the_agent_the_designation_and_the_reasons_of_the_amount(sim150: Path) -> None:
    text = _text(sim150, "auto-de-infracao", "ato-01.pdf")
    # art. 20: designated servants; art. 16, § 2º: the circumstances weighed and why the amount
    # the designation as the Municipality's official values record it (the test act), not the register's example
    assert ("Competência: Lei nº 3.844/2022, art. 20; designação: Portaria nº 101/2025, de 02/01/2025, publicada no "
            "Diário Oficial de teste, de 03/01/2025") in text
    assert "Circunstâncias consideradas e motivo do valor: Valor-base de 1.500 UPFMT" in text


# --- the void examples of samples/verificacao ---------------------------------------------------------------

_ROW = re.compile(r"^\| `([^`]+\.yaml)` \| `([A-Z0-9-]+)` \|")


def _listed() -> list[tuple[str, str]]:
    text = (ROOT / "samples" / "verificacao" / "README.md").read_text(encoding="utf-8")
    section = text.split("## Atos que não se sustentam", 1)[1]
    return [(m[1], m[2]) for line in section.splitlines() if (m := _ROW.match(line))]


def test_the_void_examples_are_listed_with_their_finding() -> None:
    listed = _listed()
    assert len(listed) >= 6
    mine = {"ARGUMENTO-SEM-RESPOSTA", "AUTORIDADE-DESCONHECIDA", "IMPEDIMENTO", "REDUCAO-EM-REAIS",
            "COMPETENCIA-AUSENTE"}
    assert {code for _, code in listed} == mine


@pytest.mark.parametrize(("name", "code"), _listed())
def test_void_example_raises_the_finding_the_readme_lists(autos: Autos, name: str, code: str) -> None:
    file = ROOT / "samples" / "verificacao" / name
    assert code in {f.codigo for f in errors(autos, file)}
    assert code in file.read_text(encoding="utf-8").split("\nlei:", 1)[0]  # its comment announces it
