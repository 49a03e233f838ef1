"""The issue's scenario in a real browser, end to end, on the real server:

a fiscal creates a Timóteo auto from nothing (law → infraction → the fields it needs), sees each missing element
of Art. 20 § 1º of Lei nº 3.844/2022 listed with its article and disappear as she fills it, saves, previews the
PDF, issues it (PDF and DOCX with their hashes) and downloads the PDF, whose extracted text is checked; then a
procurador records "de acordo" on it, and the other fiscal is refused it (403).
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING

from pypdf import PdfReader

from tests.browser.conftest import Site, capturar, entrar, revisar_de_acordo

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LEI = "timoteo-mg/lei-3844-2022"
ELEMENTOS = ("TIM-20-1-I", "TIM-20-1-II", "TIM-20-1-III", "TIM-20-1-IV", "TIM-20-1-VI", "TIM-20-1-VII")
AUTUADO = "Joaquim Teixeira Lopes"


def _codigos(page: Page) -> list[str]:
    return [c or "" for c in page.locator("#achados-lista li").evaluate_all(
        "els => els.map(e => e.dataset.codigo)")]


def _some(page: Page, codigo: str) -> None:
    """The finding ``codigo`` leaves the summary once the page's validation fetch has answered."""
    page.locator(f'#achados-lista li[data-codigo="{codigo}"]').first.wait_for(state="detached")


def _texto_pdf(data: bytes) -> str:
    text = "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)
    return re.sub(r"\s+", " ", text)


def test_a_clerk_creates_previews_issues_and_downloads_a_timoteo_auto_then_it_is_reviewed(
        page: Page, browser: Browser, site: Site) -> None:
    entrar(page, "fiscal_a")
    page.click("#novo-processo")
    page.select_option("#escolha-lei", LEI)
    page.locator("#infracao-inobservancia-normas-sanitarias").check()
    page.locator("#formulario-processo").wait_for()
    # the fiscal is the agent: his name and matrícula come filled (the permission rule reads the matrícula)
    assert page.input_value("#campo-atos-0-agente-matricula") == "20.315"

    page.fill("#campo-atos-0-data", "2026-11-20")
    for codigo in ELEMENTOS:  # every element of art. 20 § 1º the empty auto lacks, each with its article
        item = page.locator(f'#achados-lista li[data-codigo="{codigo}"]').first
        item.wait_for()
        inciso = codigo.rsplit("-", 1)[1]
        assert f"art. 20, § 1º, inciso {inciso}" in item.inner_text(), item.inner_text()
    # beside its field too: the description of the fact (inciso III) on the 'fatos' textarea
    assert page.locator('#achados-campo-fatos li[data-codigo="TIM-20-1-III"]').count() == 1
    capturar(page, "04-novo-processo-achados")

    # CPF checked as typed: a wrong check digit is refused beside the field, then the right one is accepted
    page.fill("#campo-autuado-cpf", "251.983.460-97")
    page.locator("#achados-campo-autuado-cpf li").first.wait_for()
    page.fill("#campo-autuado-cpf", "251.983.460-98")
    page.locator("#achados-campo-autuado-cpf li").first.wait_for(state="detached")

    page.fill("#campo-numero", "SIM-2026/000300")
    # I — name and qualification of the autuado
    page.fill("#campo-autuado-nome", AUTUADO)
    page.fill("#campo-autuado-qualificacao", "brasileiro, comerciante, feirante")
    page.fill("#campo-autuado-endereco-logradouro", "Rua das Acácias")
    page.fill("#campo-autuado-endereco-numero", "45")
    page.fill("#campo-autuado-endereco-bairro", "Centro-Sul")
    page.fill("#campo-autuado-endereco-municipio", "Timóteo")
    page.fill("#campo-autuado-endereco-uf", "MG")
    page.fill("#campo-autuado-endereco-cep", "35180-010")
    _some(page, "TIM-20-1-I")
    # II — place, date and time
    page.fill("#campo-local", "Feira livre da Praça 1º de Maio, Centro-Sul, Timóteo/MG")
    page.fill("#campo-atos-0-hora", "09:40")
    page.fill("#campo-atos-0-local", "Feira livre da Praça 1º de Maio, Centro-Sul, Timóteo/MG")
    _some(page, "TIM-20-1-II")
    # III — the fact
    page.fill("#campo-fatos", "Exposição à venda de 30 kg de queijo minas frescal sem rótulo nem registro, "
              "fora de refrigeração, em banca da feira livre.")
    _some(page, "TIM-20-1-III")
    # IV — the provision infringed: art. 15 only defines infraction, the auto names the rule of conduct the fact
    # disobeys (precondition DISPOSITIVO-SEM-NORMA): here the law's own art. 23, parágrafo único
    page.fill("#campo-infracoes-0-norma-artigo", "23")
    page.fill("#campo-infracoes-0-norma-paragrafo", "unico")
    _some(page, "TIM-20-1-IV")
    _some(page, "DISPOSITIVO-SEM-NORMA")
    # VI — the official veterinarian (and art. 6º)
    page.fill("#campo-atos-0-agente-cargo", "Médico Veterinário Oficial — Fiscal do SIM")
    page.fill("#campo-atos-0-agente-crmv", "CRMV-MG 15.847")
    page.select_option("#campo-atos-0-agente-medico_veterinario_oficial", "true")
    _some(page, "TIM-20-1-VI")
    _some(page, "TIM-6-VET")
    # VII — the autuado's signature
    page.select_option("#campo-atos-0-assinaturas-autuado-situacao", "assinou")
    page.fill("#campo-atos-0-assinaturas-autuado-data", "2026-11-20")
    page.fill("#campo-atos-0-assinaturas-autuado-nome_de_quem_assinou", AUTUADO)
    _some(page, "TIM-20-1-VII")
    page.fill("#campo-atos-0-penalidades-0-valor_base", "300")
    # a fine within the range of art. 16, II says why that amount and why not a warning (art. 16, § 2º, and I)
    page.fill("#campo-atos-0-penalidades-0-motivo_valor", "Produto perecível fora de refrigeração, exposto à venda em "
              "feira livre (art. 16, § 2º, II, f e g); autuado primário (§ 2º, I, a): valor perto do mínimo.")
    page.fill("#campo-atos-0-penalidades-0-motivo_nao_advertencia", "A infração afetou a qualidade do produto, "
              "circunstância agravante (art. 16, § 2º, II, g): a advertência exige que não haja agravante (art. 16, I).")
    page.locator("#achados-situacao", has_text="nada: o processo está completo").wait_for()
    assert not set(_codigos(page)) & {*ELEMENTOS, "TIM-6-VET"}, _codigos(page)

    with page.expect_navigation():
        page.click("#salvar")
    assert "Processo gravado" in page.locator("main").inner_text()
    arquivo = page.url.split("/processo/", 1)[1].split("#")[0]
    assert (site.processos / arquivo).is_file()  # the same processo YAML the command line reads
    assert AUTUADO in (site.processos / arquivo).read_text(encoding="utf-8")
    assert page.locator("#linha-do-tempo svg").count() == 1  # the timeline drawn as a picture
    capturar(page, "03-processo")

    # preview: the document page shows the PDF; the PDF is the auto, not a MINUTA
    with page.expect_response(lambda r: r.url.endswith("/previa.pdf")) as shown:
        page.click("#previsualizar-1-auto_de_infracao")
    assert shown.value.status == 200  # the frame loaded the PDF
    page.locator("#sem-pendencias").wait_for()
    previa = page.locator("#previa-pdf").get_attribute("src")
    assert previa
    resp = page.request.get(previa)
    assert resp.status == 200 and resp.headers["content-type"].startswith("application/pdf")
    texto_previa = _texto_pdf(resp.body())
    assert AUTUADO in texto_previa and "MINUTA" not in texto_previa, texto_previa[:500]
    page.wait_for_timeout(2500)  # only for the screenshot: chromium's PDF viewer draws the page after it loads
    capturar(page, "05-previa")

    # issue, then download the PDF the register recorded
    with page.expect_navigation():
        page.click("#emitir-botao")
    assert "emitido" in page.locator("main").inner_text()
    assert page.locator("#emitidos code").count() >= 2  # the PDF's and the DOCX's SHA-256
    with page.expect_download() as baixado:
        page.click("#baixar-pdf")
    pdf = baixado.value.path().read_bytes()
    texto = _texto_pdf(pdf)
    for esperado in (AUTUADO, "251.983.460-98", "Feira livre da Praça 1º de Maio", "queijo minas frescal",
                     "art. 23, parágrafo único", "CRMV-MG 15.847", "art. 20"):
        assert esperado in texto, (esperado, texto[:1500])
    assert "MINUTA" not in texto

    # the procurador reviews it, in her own browser session
    ctx = browser.new_context(base_url=site.base_url, locale="pt-BR")
    try:
        revisora = ctx.new_page()
        revisar_de_acordo(revisora, arquivo, "De acordo com a lavratura: art. 20, § 1º, atendido.")
        capturar(revisora, "06-revisao")
    finally:
        ctx.close()

    # and the other fiscal cannot open it
    ctx = browser.new_context(base_url=site.base_url, locale="pt-BR")
    try:
        outro = ctx.new_page()
        entrar(outro, "fiscal_b")
        resposta = outro.goto(f"/processo/{arquivo}")
        assert resposta is not None and resposta.status == 403
        assert AUTUADO not in outro.locator("main").inner_text()
    finally:
        ctx.close()
