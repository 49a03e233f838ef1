"""The form pages through Starlette's TestClient: the new processo form offers the law's
choices with their articles and shows the fields they need; the validation endpoint answers the findings of
``autos validar`` on each field; the save writes the processo (number reserved, audit), refuses a value the loader
would refuse with the CLI's message; two clerks editing: the second save gets the conflict page with the diff; the
next act; the spreadsheet upload with its per-row report. No PDF is rendered here."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from starlette.testclient import TestClient

from autos.processo.load import load_processo

from ..conftest import ROOT
from .conftest import OWN, WebEnv, form_token

TIM = "timoteo-mg/lei-3844-2022"
FER = "ferraz-de-vasconcelos-sp/lei-3240-2015"
INF = "inobservancia-normas-sanitarias"
NOVO = f"/processos/novo?lei={TIM}&infracao={INF}"

FILLED = {
    "autuado.nome": "Maria Aparecida dos Santos", "autuado.cpf": "251.983.460-98",
    "autuado.qualificacao": "brasileira, comerciante", "autuado.endereco.logradouro": "Rua das Flores",
    "autuado.endereco.numero": "120", "autuado.endereco.bairro": "Centro", "autuado.endereco.municipio": "Timóteo",
    "autuado.endereco.uf": "MG", "autuado.endereco.cep": "35180-000", "local": "Rua das Flores, 120",
    "fatos": "Constatado, em inspeção,\r\nproduto sem registro.",
    # art. 20, § 1º, IV: the rule of conduct the facts disobey (art. 15 only defines infraction): art. 23, p. único
    "infracoes[0].norma.artigo": "23", "infracoes[0].norma.paragrafo": "unico",
    "atos[0].data": "2026-11-16", "atos[0].hora": "10:30", "atos[0].local": "Rua das Flores, 120",
    "atos[0].agente.cargo": "Médico Veterinário", "atos[0].agente.crmv": "CRMV-MG 1234",
    "atos[0].agente.medico_veterinario_oficial": "true", "atos[0].penalidades[0].valor_base": "1500",
    # art. 16, § 2º and I: the range fine says why the amount, and why not the warning
    "atos[0].penalidades[0].motivo_valor": "Produto sem registro exposto à venda: gravidade e risco à saúde.",
    "atos[0].penalidades[0].motivo_nao_advertencia": "O risco à saúde não se afasta com a advertência.",
    "atos[0].assinaturas.autuado.situacao": "assinou", "atos[0].assinaturas.autuado.data": "2026-11-16",
    "atos[0].assinaturas.autuado.nome_de_quem_assinou": "Maria Aparecida dos Santos",
}


def page_values(html: str) -> dict[str, str]:
    """What a browser would send from the fields form (inputs, selects, textareas)."""
    soup = BeautifulSoup(html, "html.parser")
    form = soup.find(id="formulario-processo")
    assert form is not None
    out: dict[str, str] = {}
    for el in form.find_all(["input", "select", "textarea"]):
        name = el.get("name")
        if not name:
            continue
        if el.name == "select":
            opt = el.find("option", selected=True)
            out[name] = opt.get("value", "") if opt else ""
        elif el.name == "textarea":
            out[name] = el.text
        else:
            out[name] = el.get("value", "")
    return out


def test_the_form_offers_the_choices_with_articles_and_the_fields_they_need(clients: dict[str, TestClient]) -> None:
    c = clients["ana"]
    soup = BeautifulSoup(c.get("/processos/novo").text, "html.parser")
    assert soup.find(id="escolha-lei") is not None and soup.find(id="formulario-processo") is None
    soup = BeautifulSoup(c.get(f"/processos/novo?lei={TIM}").text, "html.parser")
    box = soup.find(id=f"infracao-{INF}")
    assert box is not None and "art. 15" in box.parent.text
    r = c.get(NOVO)
    assert r.status_code == 200
    soup = BeautifulSoup(r.text, "html.parser")
    assert "art. 16, inciso II" in soup.find(id="penalidade-multa").parent.text
    crmv = soup.find(id="campo-atos-0-agente-crmv")
    assert crmv is not None and crmv.get("name") == "atos[0].agente.crmv"
    assert soup.find("label", attrs={"for": "campo-atos-0-agente-crmv"}).text.strip().startswith("CRMV")
    assert soup.find(id="campo-atos-0-data").get("type") == "date"
    assert soup.find(id="campo-atos-0-hora").get("type") == "time"
    assert soup.find(id="campo-autuado-cnpj") is None
    # the fiscal's own name and matrícula come filled (the auto is his)
    assert soup.find(id="campo-atos-0-agente-matricula").get("value") == "20.518"
    # the summary lists the missing elements, each with its code
    codes = {li["data-codigo"] for li in soup.select("#achados-lista li")}
    assert {"TIM-20-1-III", "CAMPO-PROCESSO"} & codes
    pj = BeautifulSoup(c.get(NOVO + "&juridica=1").text, "html.parser")
    assert pj.find(id="campo-autuado-cnpj") is not None and pj.find(id="campo-autuado-responsavel_legal-cpf")
    assert c.get("/processos/novo?lei=nada/lei-1").status_code == 400


def test_the_validation_endpoint_answers_the_findings_of_each_field(clients: dict[str, TestClient]) -> None:
    c = clients["ana"]
    html = c.get(NOVO).text
    values = page_values(html)
    token = values.pop("csrf_token")
    values.update({"numero": "SIM-2026/000950", "atos[0].data": "2026-11-16", "autuado.cpf": "123.456.789-00"})
    r = c.post("/processos/novo/validar", data=values, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    report = r.json()
    cpf = [a for a in report["achados"] if a["campo"] == "autuado.cpf"]
    assert cpf and cpf[0]["codigo"] == "CAMPO-INVALIDO" and "CPF '123.456.789-00' inválido" in cpf[0]["mensagem"]
    assert cpf[0]["id"] == "campo-autuado-cpf"
    codes = {a["codigo"] for a in report["achados"]}
    assert {"TIM-20-1-II", "TIM-20-1-III", "TIM-20-1-VII"} <= codes
    # filling them: the Art. 20 § 1º elements disappear
    values.update(FILLED)
    report = c.post("/processos/novo/validar", data=values, headers={"X-CSRF-Token": token}).json()
    assert not any(a["codigo"].startswith("TIM-20") for a in report["achados"]), report
    assert report["valido"] is True, report["achados"]
    assert "infracoes[0].norma.artigo" in values  # the form offers the rule of conduct the precondition asks
    # without the token: refused
    assert c.post("/processos/novo/validar", data=values).status_code == 403


def test_saving_writes_the_processo_reserves_the_number_and_audits(web: WebEnv,
                                                                   clients: dict[str, TestClient]) -> None:
    c = clients["ana"]
    values = page_values(c.get(NOVO).text)
    values.update({"numero": "SIM-2026/000951", **FILLED})
    r = c.post("/processos/novo", data=values)
    assert r.status_code == 303, r.text
    arquivo = "timoteo-mg/sim-2026-000951.yaml"
    assert r.headers["location"] == f"/processo/{arquivo}"
    p = load_processo(web.folder / arquivo).processo
    assert p.fatos == "Constatado, em inspeção,\nproduto sem registro."
    assert re.fullmatch(r"\d+/2026", p.atos[0].numero or "") and p.atos[0].agente.matricula == "20.518"  # type: ignore[union-attr]
    page = c.get(r.headers["location"])
    assert page.status_code == 200 and "Processo gravado" in page.text
    with web.register() as reg:
        assert any(e.acao == "criou" for e in reg.audit_of(f"processo:{arquivo}"))
    # the same number again: refused with the reason, nothing overwritten
    before = (web.folder / arquivo).read_bytes()
    again = c.post("/processos/novo", data=values)
    assert again.status_code == 409 and "já existe" in again.text
    assert (web.folder / arquivo).read_bytes() == before


def test_a_value_the_loader_refuses_is_refused_by_the_server_with_the_cli_message(
        web: WebEnv, clients: dict[str, TestClient]) -> None:
    c = clients["ana"]
    values = page_values(c.get(NOVO).text)
    values.update({"numero": "SIM-2026/000952", **FILLED, "autuado.cpf": "111.111.111-11",
                   "autuado.nome": "<script>alert(1)</script>"})
    r = c.post("/processos/novo", data=values)
    assert r.status_code == 422
    soup = BeautifulSoup(r.text, "html.parser")
    beside = soup.find(id="achados-campo-autuado-cpf")
    assert "todos os dígitos iguais" in beside.text
    assert "<script>alert(1)</script>" not in r.text and "&lt;script&gt;" in r.text
    assert soup.find(id="campo-autuado-nome").get("value") == "<script>alert(1)</script>"  # kept as typed
    assert not (web.folder / "timoteo-mg" / "sim-2026-000952.yaml").exists()


def test_another_fiscal_cannot_open_the_edit_form_of_a_processo_not_his(clients: dict[str, TestClient]) -> None:
    assert clients["patricia"].get(f"/processo/{OWN}/editar").status_code == 403
    assert clients["procuradora"].get(f"/processo/{OWN}/ato").status_code == 403
    assert clients["procuradora"].get("/processos/novo").status_code == 403
    assert clients["chefe"].get(f"/processos/novo?lei={FER}&infracao=terreno-sem-limpeza").status_code == 403


def test_two_clerks_edit_the_same_processo_the_second_gets_the_diff(web: WebEnv,
                                                                    clients: dict[str, TestClient]) -> None:
    ana, chefe = clients["ana"], clients["chefe"]
    first = page_values(ana.get(f"/processo/{OWN}/editar").text)
    second = page_values(chefe.get(f"/processo/{OWN}/editar").text)
    assert first["sha256"] == second["sha256"] and first["autuado.nome"]
    first["local"] = "Avenida Primeiro de Maio, 10"
    r = ana.post(f"/processo/{OWN}/editar", data=first)
    assert r.status_code == 303, r.text
    after = (web.folder / OWN).read_bytes()
    second["fatos"] = "Outra descrição."
    r = chefe.post(f"/processo/{OWN}/editar", data=second)
    assert r.status_code == 409
    soup = BeautifulSoup(r.text, "html.parser")
    assert "alterado por outra pessoa" in soup.find(id="conflito").text
    diff = soup.find(id="diferencas").text
    assert "+local: Avenida Primeiro de Maio, 10" in diff
    assert (web.folder / OWN).read_bytes() == after  # nothing written
    with web.register() as reg:
        assert [e.acao for e in reg.audit_of(f"processo:{OWN}")].count("alterou") == 1


def test_the_next_act_is_appended_and_its_findings_are_shown(web: WebEnv, clients: dict[str, TestClient]) -> None:
    c = clients["ana"]
    values = page_values(c.get(NOVO).text)
    values.update({"numero": "SIM-2026/000953", **FILLED, "atos[0].numero": "953/2026"})
    assert c.post("/processos/novo", data=values).status_code == 303
    arquivo = "timoteo-mg/sim-2026-000953.yaml"
    original = (web.folder / arquivo).read_text(encoding="utf-8")
    page = c.get(f"/processo/{arquivo}/ato?tipo=notificacao_pessoal")
    assert page.status_code == 200
    soup = BeautifulSoup(page.text, "html.parser")
    ref = soup.find(id="campo-atos-1-referente")
    assert ref is not None and ref.find("option", value="953/2026") is not None
    act = page_values(page.text)
    token = act["csrf_token"]
    act.update({"atos[1].data": "2026-11-17", "atos[1].referente": "953/2026"})
    report = c.post(f"/processo/{arquivo}/ato/validar", data=act, headers={"X-CSRF-Token": token}).json()
    assert report["legivel"] is True
    r = c.post(f"/processo/{arquivo}/ato", data=act)
    assert r.status_code == 303, r.text
    text = (web.folder / arquivo).read_text(encoding="utf-8")
    assert text.startswith(original) and "- tipo: notificacao_pessoal" in text
    # the same form again (old hash): conflict, nothing appended twice
    r = c.post(f"/processo/{arquivo}/ato", data=act)
    assert r.status_code == 409 and "+  - tipo: notificacao_pessoal" in BeautifulSoup(r.text, "html.parser").text
    assert (web.folder / arquivo).read_text(encoding="utf-8") == text


def test_the_spreadsheet_upload_shows_the_rows_written_and_refused(web: WebEnv,
                                                                   clients: dict[str, TestClient]) -> None:
    c = clients["patricia"]
    page = c.get("/importar")
    assert page.status_code == 200
    token = form_token(page.text)
    sheet = (ROOT / "tests" / "data" / "planilhas" / "mutirao-limpeza-ferraz.csv").read_bytes()
    r = c.post("/importar", data={"lei": FER, "csrf_token": token},
               files={"planilha": ("mutirao.csv", sheet, "text/csv")})
    assert r.status_code == 200, r.text
    soup = BeautifulSoup(r.text, "html.parser")
    assert [li["data-linha"] for li in soup.select("#gravados li")] == ["2", "3"]
    rows = {(tr["data-linha"], tr.find_all("td")[1].text) for tr in soup.select("#recusados tbody tr")}
    assert ("6", "fatos") in rows and ("4", "autuado.cpf") in rows
    assert "art. 75" in soup.find(id="recusados").text
    assert (web.folder / "ferraz-de-vasconcelos-sp" / "pm-fv-2026-007001.yaml").is_file()
    # type checked by content; the chefe of Timóteo may not import for Ferraz
    bad = c.post("/importar", data={"lei": FER, "csrf_token": token},
                 files={"planilha": ("mutirao.xlsx", b"numero;infracao\n", "application/octet-stream")})
    assert bad.status_code == 400 and "não é uma planilha do Excel" in bad.text
    chefe = clients["chefe"]
    r = chefe.post("/importar", data={"lei": FER, "csrf_token": form_token(chefe.get("/importar").text)},
                   files={"planilha": ("m.csv", sheet, "text/csv")})
    assert r.status_code == 403


@pytest.mark.parametrize("path", ["/processos/novo", "/importar", f"/processo/{OWN}/editar", f"/processo/{OWN}/ato"])
def test_pages_need_sign_in(web: WebEnv, path: str) -> None:
    r = web.client().get(path)
    assert r.status_code in (303, 302) and "/entrar" in r.headers["location"]


