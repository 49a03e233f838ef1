"""The samples' documents re-read against the statutes, in tests that quote the article they check.

Every sample processo (samples/processos) is generated once, as PDF (one pass for the module, one worker), and each
document's extracted text (pypdf) is checked for what the article it rests on requires. Each check first finds the
quoted words in the statute text (rules/<município>/<texto>), so that the article quoted is the law's, then in the
documents. The DOCX of five of these samples are re-read by tests/test_style.py."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main

from .conftest import ROOT, SAMPLES
from .textutil import document_text

# one worker runs this module: the samples are generated once and shared (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("test_samples_read_against_statutes")

PROCESSOS = sorted((SAMPLES / "processos").rglob("*.yaml"))
STATUTES = {
    "ferraz-de-vasconcelos-sp": ROOT / "rules" / "ferraz-de-vasconcelos-sp" / "ferraz-de-vasconcelos-sp-lei-3240-2015-posturas.txt",
    "timoteo-mg": ROOT / "rules" / "timoteo-mg" / "timoteo-mg-lei-3844-2022-sim.txt",
    "cuiaba-mt": ROOT / "rules" / "cuiaba-mt" / "cuiaba-mt-lei-3666-1997-zoonoses.txt",
}


def _flat(text: str) -> str:
    return " ".join(text.split())


class Texts(Mapping[str, str]):
    """File name → flattened text of one municipality's documents, each read (pypdf) the first time a test asks for
    it: every document is generated, but only the kinds the checks below quote are read — pypdf's extraction costs
    about as much as the rendering."""

    def __init__(self) -> None:
        self.files: dict[str, Path] = {}
        self._texts: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        if name not in self._texts:
            self._texts[name] = _flat(document_text(self.files[name]))
        return self._texts[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)


Docs = dict[str, Texts]


@pytest.fixture(scope="session")  # once per xdist worker, even when its tests are not consecutive
def docs(tmp_path_factory: pytest.TempPathFactory) -> Docs:
    """municipality → {file name: flattened text} of every document of every sample processo, as of 2026-11-30."""
    out: Docs = {k: Texts() for k in STATUTES}
    for processo in PROCESSOS:
        folder = tmp_path_factory.mktemp(processo.stem)
        result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
                                           "--hoje", "2026-11-30", "gerar", str(processo), "--formato", "pdf",
                                           "-o", str(folder)])
        assert result.exit_code == 0, result.output
        for pdf in sorted(folder.glob("*.pdf")):
            out[processo.parent.name].files[pdf.name] = pdf
    return out


def law_says(municipio: str, *quotes: str) -> None:
    """The quoted words are the statute's (the scanned Timóteo text is read with its line breaks flattened)."""
    text = _flat(STATUTES[municipio].read_text(encoding="utf-8"))
    for q in quotes:
        assert _flat(q) in text, q


def kind(docs: Docs, municipio: str, prefix: str) -> dict[str, str]:
    found = {n: docs[municipio][n] for n in docs[municipio] if n.startswith(prefix)}  # only these are read
    assert found, (municipio, prefix)
    return found


def test_every_sample_processo_is_generated(docs: Docs) -> None:
    assert sum(len(v) for v in docs.values()) >= 60
    for municipio in STATUTES:
        assert any(n.startswith("auto-de-infracao") for n in docs[municipio]), municipio
    # the Cuiabá samples whose decisions keep the fine (ccz-2026-0077, ccz-2026-0090): the debit statements of the
    # judgement and of the appeal decision, and the notices of both decisions
    for name in ("demonstrativo-debito-cuiaba-mt-ccz-2026-0077-ato-07.pdf",
                 "demonstrativo-debito-cuiaba-mt-ccz-2026-0077-ato-11.pdf",
                 "demonstrativo-debito-cuiaba-mt-ccz-2026-0090-ato-03.pdf",
                 "notificacao-decisao-cuiaba-mt-ccz-2026-0077-ato-12.pdf",
                 # Lei 9.784/1999, art. 56, § 1º, by analogy: the despacho that forwards the appeal
                 "despacho-encaminhamento-cuiaba-mt-ccz-2026-0077-ato-10.pdf"):
        assert name in docs["cuiaba-mt"], name


# --- Timóteo, Lei nº 3.844/2022 -----------------------------------------------------------------------------------


def test_timoteo_every_auto_has_the_elements_of_art20_p1(docs: Docs) -> None:
    law_says("timoteo-mg", "O auto de infração conterá pelo menos os seguintes elementos:",
             "o nome e a qualificação do autuado e, se pessoa jurídica, também de seu responsável legal;",
             "o local, data e hora da sua lavratura;", "a descrição do fato infracional;",
             "o dispositivo legal ou regulamentar infringido;", "o prazo para apresentação de defesa;",
             "a assinatura e identificação do médico veterinário oficial;", "a assinatura do autuado")
    for name, text in kind(docs, "timoteo-mg", "auto-de-infracao").items():
        assert "1. AUTUADO Nome / razão social:" in text, name  # I
        if "Pessoa jurídica" in text:
            assert "Responsável legal:" in text, name  # I: "se pessoa jurídica, também de seu responsável legal"
        assert "2. LOCAL, DATA E HORA DA LAVRATURA Local:" in text and " Hora: " in text, name  # II
        assert "3. DESCRIÇÃO DO FATO INFRACIONAL" in text, name  # III
        assert "4. DISPOSITIVO LEGAL OU REGULAMENTAR INFRINGIDO Lei nº 3.844/2022, art." in text, name  # IV
        assert "Prazo para apresentação de defesa contra o auto de infração:" in text, name  # V
        assert ("Médico Veterinário Oficial" in text or "Médica Veterinária Oficial" in text) and "CRMV-MG" in text, \
            name  # VI
        assert "Autuado" in text, name  # VII: the autuado's signature line (or the certified refusal)


def test_timoteo_every_auto_states_art20_p3(docs: Docs) -> None:
    law_says("timoteo-mg", "emendas, rasuras")
    for name, text in kind(docs, "timoteo-mg", "auto-de-infracao").items():
        assert "Este auto não contém emendas, rasuras ou omissões (Lei nº 3.844/2022, art. 20, § 3º)." in text, name


def test_timoteo_edital_only_for_the_autuado_in_an_uncertain_place_art21_iii(docs: Docs) -> None:
    law_says("timoteo-mg", "por edital, se estiver em local incerto ou desconhecido")
    for name, text in kind(docs, "timoteo-mg", "edital-notificacao").items():
        assert "art. 21, inciso III, estando o autuado em local incerto ou desconhecido, NOTIFICA" in text, name


# --- Ferraz de Vasconcelos, Lei nº 3.240/2015 --------------------------------------------------------------------


def test_ferraz_every_auto_states_the_appeal_of_art78_to_the_prefeito_art79_and_payment_art80(
        docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp",
             "O notificado que não concordar com a multa terá o prazo de 10 (dez) dias corridos, contados da data da "
             "notificação, para apresentar recurso.",
             "O recurso será dirigido ao Prefeito, que terá o prazo de 30 (trinta) dias corridos",
             "Todas as multas previstas na presente Lei deverão ser recolhidas no prazo máximo de 10 (dez) dias úteis")
    for name, text in kind(docs, "ferraz-de-vasconcelos-sp", "auto-de-infracao").items():
        assert "Prazo para apresentar recurso: 10 (dez) dias corridos" in text, name
        assert "(Lei nº 3.240/2015, art. 78)" in text, name
        assert "O recurso será dirigido ao Prefeito, que terá o prazo de 30 (trinta) dias corridos" in text, name
        assert "Prazo para recolher a multa: 10 (dez) dias úteis" in text, name


def test_ferraz_demonstrativo_after_the_appeal_decision_offers_no_appeal_art78_art79(
        docs: Docs) -> None:
    # art. 79: the Prefeito decides the appeal; the law has no second appeal, so the demonstrativo of the decision
    # (art. 80: payment "contados da data da notificação final") does not offer the appeal of art. 78 again (it still
    # states art. 79, who decided)
    law_says("ferraz-de-vasconcelos-sp", "contados da data da notificação final")
    demonstrativos = kind(docs, "ferraz-de-vasconcelos-sp", "demonstrativo-debito")
    for name, text in demonstrativos.items():
        assert "Decisão de recurso nº" in text, name  # Ferraz's only decision is the appeal's (art. 79)
        assert "para apresentar recurso" not in text, name
        assert "O recurso será dirigido ao Prefeito" in text, name
        assert ("As multas deverão ser recolhidas no prazo máximo de 10 (dez) dias úteis, contados da data da "
                "notificação final. (Lei nº 3.240/2015, art. 80)") in text, name


def test_ferraz_ar_letter_is_the_notice_of_art76_ii(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "por carta, acompanhada de cópia do auto, com aviso de recebimento (AR)")
    for name, text in kind(docs, "ferraz-de-vasconcelos-sp", "notificacao-ar").items():
        assert "pela presente carta, registrada com aviso de recebimento (AR), e com fundamento na Lei nº " \
               "3.240/2015, art. 76, inciso II" in text, name
        assert "cuja cópia segue anexa" in text, name


def test_ferraz_edital_says_desconhecido_o_domicilio_fiscal_art76_iii(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "por edital, com prazo de 5 (cinco) dias corridos, se desconhecido o "
                                         "domicílio fiscal do infrator")
    for name, text in kind(docs, "ferraz-de-vasconcelos-sp", "edital-notificacao").items():
        assert "art. 76, inciso III, desconhecido o domicílio fiscal do infrator, NOTIFICA" in text, name
        assert "incerto" not in text, name


# --- Cuiabá, Lei nº 3.666/1997 -----------------------------------------------------------------------------------


def test_cuiaba_auto_keeps_the_costs_of_art11_apart_from_the_penalties_art38(docs: Docs) -> None:
    law_says("cuiaba-mt", "Sem prejuízo das penalidades previstas no Artigo 35, o proprietário do animal apreendido "
                          "ficará sujeito ao pagamento de despesas a que se refere o artigo 11 da presente lei.",
             "Para infração de natureza leve")
    autos = kind(docs, "cuiaba-mt", "auto-de-infracao")
    with_costs = 0
    for name, text in autos.items():
        fine = text.index("Valor da multa:")
        assert "Lei nº 3.666/1997, art. 36, inciso " in text, name  # the fine by gravity (art. 36, I–III)
        if "Despesas do animal apreendido" in text:
            with_costs += 1
            costs = text.index("Despesas do animal apreendido (transporte, multa e diárias), devidas sem prejuízo das "
                               "penalidades (Lei nº 3.666/1997, art. 11, § 3º, combinado com o art. 38)")
            assert costs > fine, name  # a section of its own, after the fine
            assert "Total das despesas:" in text, name
            # the fine is the art. 36 fine alone: its value line names UPF of the fine, not fine + costs
            line = text[fine:text.index(".", text.index("correspondente a", fine) + 20)]
            assert "3 (três) UPF" in line or "5 (cinco) UPF" in line or "7 (sete) UPF" in line or \
                "6 (seis) UPF" in line or "10 (dez) UPF" in line or "14 (quatorze) UPF" in line, (name, line)
    assert with_costs >= 1  # the samples do have an auto with apprehension costs


def test_cuiaba_auto_states_defence_and_appeal_by_analogy_art39(docs: Docs) -> None:
    law_says("cuiaba-mt", "A presente lei será regulamentada pelo Executivo.")
    for name, text in kind(docs, "cuiaba-mt", "auto-de-infracao").items():
        assert "Constituição Federal, art. 5º, LV" in text, name
        assert "Lei federal nº 9.784/1999" in text and "(art. 44)" in text and "(art. 59)" in text, name


def test_cuiaba_termo_de_apreensao_states_the_rescue_term_art11_p2_and_art10(docs: Docs) -> None:
    law_says("cuiaba-mt", "será retirado pelo responsável, dentro do prazo de 03 (três) dias úteis",
             "A Prefeitura Municipal de Cuiabá não responde por indenização")
    for name, text in kind(docs, "cuiaba-mt", "termo-apreensao").items():
        assert "3 (três) dias úteis" in text and "(Lei nº 3.666/1997, art. 11, § 2º)" in text, name
        assert "não responde por indenização" in text and "(Lei nº 3.666/1997, art. 10)" in text, name
        assert "Agente de Controle de Zoonoses" in text or "Agente Sanitário" in text, name  # art. 3º, II–III; 37


# --- the preconditions the acts met, as their documents state them ---------------------------------------------


def test_ferraz_auto_after_an_unanswered_notice_cites_it_and_dates_the_infraction_the_day_after_art4(
        docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "serão notificados para proceder a limpeza no prazo de 30 (trinta) dias",
             "Não sendo atendida a notificação, serão os responsáveis autuados")
    # pm-fv-2026-004417: notified 10/08/2026 (dated receipt), 30 calendar days → 09/09/2026, not met; the infraction
    # is the day after, 10/09/2026; the auto of 15/09/2026 cites the notice
    text = docs["ferraz-de-vasconcelos-sp"]["auto-de-infracao-ferraz-de-vasconcelos-sp-pm-fv-2026-004417-ato-02.pdf"]
    assert ("Notificação preliminar nº 1187/2026, de 10 de agosto de 2026, entregue ao notificado contra recibo "
            "datado de 10 de agosto de 2026; prazo de 30 dias corridos, vencido em 9 de setembro de 2026 sem "
            "atendimento.") in text
    assert "Data da infração: 10 de setembro de 2026" in text


def test_ferraz_art37_fine_comes_after_the_8_business_days_and_the_embargo_with_the_notice(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "notificado a apresenta-los na Secretaria Municipal de Obras no prazo de 8 "
             "(oito) dias úteis, ficando a obra embargada")
    d = docs["ferraz-de-vasconcelos-sp"]
    notice = d["notificacao-preliminar-ferraz-de-vasconcelos-sp-fv-2026-0531-ato-01.pdf"]
    assert "ficando a obra embargada desde esta notificação" in notice  # the embargo comes at once (art. 37)
    auto = d["auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0531-ato-02.pdf"]
    # 26/10/2026 + 8 dias úteis (28/10 and 02/11 without office hours) → 09/11; the fine of 10/11 is after it
    assert "vencido em 9 de novembro de 2026 sem atendimento" in auto and "Data da infração: 10 de novembro" in auto


def test_ferraz_auto_is_drawn_up_on_the_provisions_it_applies_not_on_the_notice_article_art76(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "Da lavratura do auto será notificado o infrator")  # art. 76: the notice
    for name, text in kind(docs, "ferraz-de-vasconcelos-sp", "auto-de-infracao").items():
        assert "Lavrado com fundamento na Lei nº 3.240/2015, art. 76" not in text, name
    text = docs["ferraz-de-vasconcelos-sp"]["auto-de-infracao-ferraz-de-vasconcelos-sp-pm-fv-2026-004417-ato-02.pdf"]
    assert "Lavrado com fundamento na Lei nº 3.240/2015, arts. 3º e 4º" in text


def test_ferraz_reincident_commercial_establishment_is_suspended_art69_p2(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "O estabelecimento comercial que reincidir no descumprimento ao artigo 64, "
             "terá sua atividade suspensa por 30 (trinta) dias")
    text = docs["ferraz-de-vasconcelos-sp"]["auto-de-infracao-ferraz-de-vasconcelos-sp-pm-fv-2026-005377-ato-01.pdf"]
    assert "Suspensão da atividade por 30 dias, com fechamento administrativo e lacração de todas as entradas" in text


def test_timoteo_depositary_is_the_owner_of_the_goods_art16_p4(docs: Docs) -> None:
    law_says("timoteo-mg", "o proprietário ou responsável pelos produtos será o fiel depositário do produto")
    text = docs["timoteo-mg"]["termo-apreensao-timoteo-mg-sim-2026-000203-ato-02.pdf"]
    assert "Antônio Marcos Teixeira" in text and "Ricardo Nunes Batista" not in text


def test_timoteo_first_offender_without_aggravating_circumstance_gets_the_warning_not_the_fine_art16_i(
        docs: Docs) -> None:
    law_says("timoteo-mg", "advertência, quando o infrator for primário e não se verificar circunstância agravante",
             "isolada ou cumulativamente")
    text = docs["timoteo-mg"]["auto-de-infracao-timoteo-mg-sim-2026-000203-ato-01.pdf"]
    assert "Advertência (Lei nº 3.844/2022, art. 16, inciso I)" in text
    assert "Multa (" not in text and "UPFMT" not in text, text
    # the apprehension (III) is cumulated with the warning
    assert "Apreensão de apetrechos" in text


def test_timoteo_provision_infringed_is_a_rule_of_conduct_not_an_example_decree_art20_p1_iv(docs: Docs) -> None:
    law_says("timoteo-mg", "o dispositivo legal ou regulamentar infringido",
             "são responsáveis pela garantia da inocuidade e qualidade dos produtos de origem animal")
    for name, text in kind(docs, "timoteo-mg", "auto-de-infracao").items():
        assert "(exemplo)" not in text and "5.123" not in text, name
    text = docs["timoteo-mg"]["auto-de-infracao-timoteo-mg-sim-2026-000142-ato-01.pdf"]
    assert "Lei nº 3.844/2022, art. 15" in text and "Lei nº 3.844/2022, art. 23, parágrafo único" in text


def test_timoteo_interdiction_states_what_lifts_it_art5_iv(docs: Docs) -> None:
    law_says("timoteo-mg", "bem como levantar a suspensão ou a interdição")
    text = docs["timoteo-mg"]["termo-interdicao-timoteo-mg-sim-2026-000180-ato-02.pdf"]
    assert "Condições para o levantamento: revestir o piso e as paredes da sala de envase" in text


def test_cuiaba_resgate_states_the_payment_before_it_art11_p2(docs: Docs) -> None:
    law_says("cuiaba-mt", "mediante pagamento de multa e taxa referentes a transporte, alimentação, permanência")
    for name, text in kind(docs, "cuiaba-mt", "termo-restituicao").items():
        assert "Pagamento: " in text and " R$ " in text, name


def test_timoteo_demonstrativo_says_how_to_pay_into_the_sims_own_account_art29(docs: Docs) -> None:
    law_says("timoteo-mg", "deverão ser depositados em conta específica")
    text = docs["timoteo-mg"]["demonstrativo-debito-timoteo-mg-sim-2026-000150-ato-04.pdf"]
    assert "para depósito na conta específica do SIM (Lei nº 3.844/2022, art. 29)" in text
    assert "regras do sistema" not in text


def test_cuiaba_demonstrativo_says_the_fine_is_collected_at_the_ccz_art41(docs: Docs) -> None:
    law_says("cuiaba-mt", "A captação de recursos será efetuada no Centro de Controle de Zoonoses")
    text = docs["cuiaba-mt"]["demonstrativo-debito-cuiaba-mt-ccz-2026-0090-ato-03.pdf"]
    assert "documento de arrecadação emitido pelo Centro de Controle de Zoonoses" in text and "art. 41" in text


@pytest.mark.parametrize("municipio,name", [
    ("ferraz-de-vasconcelos-sp", "notificacao-ar-ferraz-de-vasconcelos-sp-fv-2026-0388-ato-03.pdf"),
    ("ferraz-de-vasconcelos-sp", "edital-notificacao-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04.pdf"),
    ("timoteo-mg", "notificacao-ar-timoteo-mg-sim-2026-000188-ato-02.pdf"),
    ("timoteo-mg", "edital-notificacao-timoteo-mg-sim-2026-000188-ato-04.pdf"),
])
def test_the_notice_of_the_auto_says_representation_and_that_the_processo_goes_on_lei9784_art26_p1_iv_v(
        docs: Docs, municipio: str, name: str) -> None:
    """Lei 9.784, art. 26, § 1º, IV ("se o intimado deve comparecer pessoalmente, ou fazer-se representar") and V
    ("informação da continuidade do processo independentemente do seu comparecimento"), by analogy: the laws of
    Ferraz (art. 76) and Timóteo (art. 21) say how to notify, not what the notice says."""
    text = docs[municipio][name]
    assert "pode fazer-se representar por procurador" in text
    assert "o processo prosseguirá independentemente do seu comparecimento ou da sua manifestação" in text


def test_the_notice_of_the_decision_on_appeal_gives_no_further_appeal(docs: Docs) -> None:
    """Lei 9.784, art. 26, § 1º: the notice of the last instance's decision says the instance is closed, and no
    note of the first instance's appeal term contradicts it."""
    for municipio, name in (("timoteo-mg", "notificacao-decisao-timoteo-mg-sim-2026-000150-ato-09.pdf"),
                            ("cuiaba-mt", "notificacao-decisao-cuiaba-mt-ccz-2026-0077-ato-12.pdf")):
        text = docs[municipio][name]
        assert "a lei não prevê outra instância contra ela" in text, name
        assert "recurso da decisão de primeira instância em 10 (dez) dias" not in text, name
        assert "o recurso contra o julgamento segue por analogia" not in text, name


def test_no_document_speaks_the_systems_jargon_or_is_numbered_s_n(docs: Docs) -> None:
    """What a person notified reads is the act's language (Lei 9.784, art. 50, § 1º: clear motivation): no rule
    ids, no "linha do prazo", no "regras do sistema", no "nº s/n" for an act without a number."""
    # the kinds that carried them (the others are read by the checks above; each extraction costs a rendering)
    prefixes = ("demonstrativo-debito", "termo-restituicao", "notificacao-decisao", "decisao-", "notificacao-preliminar")
    for municipio, texts in docs.items():
        for name in [n for n in texts if n.startswith(prefixes)]:
            text = texts[name]
            for jargon in ("nº s/n", "linha do prazo", "regras do sistema", "Escolha interpretativa",
                           "escolha rito-por-analogia", "reincidencia-historico"):
                assert jargon not in text, (name, jargon)


def test_timoteo_auto_names_the_interdiction_it_applies_total_not_total_ou_parcial_art16_vi_art20_p3(
        docs: Docs) -> None:
    law_says("timoteo-mg", "interdição total ou parcial do estabelecimento",
             "O auto de infração não poderá conter emendas, rasuras ou omissões")
    text = docs["timoteo-mg"]["auto-de-infracao-timoteo-mg-sim-2026-000180-ato-01.pdf"]
    assert "Interdição total do estabelecimento (Lei nº 3.844/2022, art. 16, inciso VI, alínea b" in text, text
    assert "total ou parcial" not in text
    assert "A interdição é total, e não parcial" in text


def test_timoteo_termo_certifies_its_own_refusal_before_a_witness_and_the_copy_delivered_art21_p1(
        docs: Docs) -> None:
    law_says("timoteo-mg", "o agente autuante certificará o ocorrido na presença de uma testemunha e o entregará ao "
                           "autuado")
    text = docs["timoteo-mg"]["termo-interdicao-timoteo-mg-sim-2026-000180-ato-02.pdf"]
    assert ("Certificação: Certifico que o responsável legal do autuado, Ricardo Augusto Serra, presente e "
            "cientificado do teor deste termo") in text, text
    assert "lhe entreguei a cópia do termo" in text
    assert "Carlos Eduardo Lima CPF 731.045.829-04 Testemunha" in text
    # the company signs through its legal representative, named under its name
    assert "Entreposto de Mel Serra Azul Ltda. por Ricardo Augusto Serra Responsável — RECUSOU-SE A ASSINAR" in text
    # the auto's refusal is no longer what the termo says of its own ciência
    assert "como nele certificado, e não assinou a ciência deste termo" not in text


def test_timoteo_receipt_of_a_company_names_the_representative_who_received_it_art21_i(docs: Docs) -> None:
    law_says("timoteo-mg", "pessoalmente ou por seu representante legal")
    text = docs["timoteo-mg"]["notificacao-decisao-timoteo-mg-sim-2026-000150-ato-09.pdf"]
    assert ("Laticínios Vale do Aço Ltda. por Maria Aparecida dos Santos, CPF 251.983.460-98, brasileira, casada, "
            "empresária, sócia-administradora Notificado") in text, text


@pytest.mark.parametrize("municipio,name,moved", [
    # Ferraz art. 77, III: afixação em 06/10/2026 + 5 dias = 11/10 (domingo); 12/10 feriado nacional → 13/10
    ("ferraz-de-vasconcelos-sp", "edital-notificacao-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04.pdf",
     "Vencimento prorrogado de 11/10/2026 para 13/10/2026, primeiro dia útil seguinte; dias sem expediente: "
     "11/10/2026 (domingo); 12/10/2026 (Nossa Senhora Aparecida, feriado nacional)."),
    ("ferraz-de-vasconcelos-sp", "certidao-publicacao-edital-ferraz-de-vasconcelos-sp-pm-fv-2026-005102-ato-04.pdf",
     "Vencimento prorrogado de 11/10/2026 para 13/10/2026"),
    # Timóteo art. 21, § 3º: jornal em 04/06/2026 + 10 dias = 14/06 (domingo) → 15/06
    ("timoteo-mg", "certidao-publicacao-edital-timoteo-mg-sim-2026-000188-ato-04.pdf",
     "Vencimento prorrogado de 14/06/2026 para 15/06/2026, primeiro dia útil seguinte; dias sem expediente: "
     "14/06/2026 (domingo)."),
])
def test_the_edital_notice_date_moved_to_the_next_business_day_says_so_lei9784_art66_p1(
        docs: Docs, municipio: str, name: str, moved: str) -> None:
    assert moved in docs[municipio][name], docs[municipio][name]


def test_timoteo_decision_on_appeal_decides_the_destination_of_the_goods_seized_art5_iv_art16_iv(docs: Docs) -> None:
    law_says("timoteo-mg", "dar-lhes destinação final adequada ou")
    first = docs["timoteo-mg"]["decisao-timoteo-mg-sim-2026-000157-ato-04.pdf"]
    # a perishable product does not wait for the final decision: condemned at once, as a sanitary measure, and the
    # costs of art. 17 notified apart before they are charged
    assert "determina-se desde já, como medida sanitária (art. 5º, IV, e art. 16, IV), a sua condenação e" in first
    assert "serão notificadas ao autuado, com prazo para impugná-las, antes de cobradas (art. 17)" in first, first
    last = docs["timoteo-mg"]["decisao-timoteo-mg-sim-2026-000157-ato-08.pdf"]
    assert "Fica mantida a condenação e inutilização dos 47 kg apreendidos" in last, last


@pytest.mark.parametrize("name", [
    "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0388-ato-02.pdf",
    "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0412-ato-01.pdf",
    "auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0520-ato-01.pdf",
])
def test_ferraz_auto_without_the_autuado_says_so_instead_of_a_blank_signature_art76(docs: Docs, name: str) -> None:
    law_says("ferraz-de-vasconcelos-sp", "contra-recibo datado no original")
    text = docs["ferraz-de-vasconcelos-sp"][name]
    assert "ausente no ato da lavratura; a ciência será dada na forma da lei." in text, text


def test_ferraz_termo_keeps_the_embargo_in_force_since_the_notice_art37(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "no prazo de 8 (oito) dias úteis, ficando a obra embargada",
             "permanecendo a obra embargada por 30 (trinta) dias")
    text = docs["ferraz-de-vasconcelos-sp"]["termo-embargo-ferraz-de-vasconcelos-sp-fv-2026-0531-ato-03.pdf"]
    assert ("Fica MANTIDO o embargo da obra situada na Rua Santos Dumont, 15, Vila Correa, Ferraz de Vasconcelos/SP, "
            "vigente desde 26 de outubro de 2026, data da notificação preliminar nº 1290/2026; a partir de 10 de "
            "novembro de 2026, a obra permanece embargada pelo prazo abaixo.") in text, text
    assert "Fica EMBARGADA" not in text


def test_ferraz_letter_with_ar_carries_the_termo_drawn_up_with_the_auto_in_the_absence_art76_ii(docs: Docs) -> None:
    law_says("ferraz-de-vasconcelos-sp", "por carta, acompanhada de cópia do auto")
    text = docs["ferraz-de-vasconcelos-sp"]["notificacao-ar-ferraz-de-vasconcelos-sp-fv-2026-0531-ato-04.pdf"]
    assert ("Segue também, anexa, a cópia do Termo de Embargo nº EMB-12/2026, lavrado com o auto na ausência do "
            "responsável: esta carta também dá ciência dele") in text, text
    assert "Anexos: cópia do Auto de Infração nº 531/2026, lavrado em 10 de novembro de 2026; cópia do Termo de " \
           "Embargo nº EMB-12/2026." in text


def test_ferraz_auto_of_an_absent_autuada_agrees_in_gender_art76(docs: Docs) -> None:
    text = docs["ferraz-de-vasconcelos-sp"]["auto-de-infracao-ferraz-de-vasconcelos-sp-fv-2026-0520-ato-01.pdf"]
    assert "Autuada ausente no ato da lavratura" in text and "Autuado ausente" not in text, text
    # the auto states what happened up to its lavratura, not the later delivery of its copy (art. 76, I)
    assert "23/11/2026" not in text
