"""The processos list (the data of ``autos pendencias``) and the processo page for the legal review: findings with the article as ``autos validar`` gives them, the fine's memo of ``autos multa``, the
deadlines of ``autos prazos``; the procurador's "de acordo" or parecer kept with who and when, and audited; every
value escaped."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path

from bs4 import BeautifulSoup
from starlette.testclient import TestClient

from autos.app.generation.pipeline import Autos
from autos.app.register.review import processo_ref, resolve_processo
from autos.errors import NotFoundError

from ..conftest import ROOT
from .conftest import OWN, WebEnv, form_token

HOJE = date(2026, 11, 30)
RUIDO = "ferraz-de-vasconcelos-sp/pm-fv-2026-005377-ruido-bar.yaml"


def soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def words(html: str) -> str:
    return " ".join(soup(html).get_text(" ", strip=True).split())


def test_list_is_autos_pendencias_in_its_order(web: WebEnv, clients: dict[str, TestClient]) -> None:
    """The procurador sees every processo, one row each, in the order of autos pendencias (the first row of each
    processo there), with its most urgent item."""
    autos = Autos(ROOT / "rules", ROOT / "templates", HOJE)
    report = autos.pending([web.folder], HOJE)
    expected: list[str] = []
    for row in report.rows:
        name = row.timeline.file.relative_to(web.folder).as_posix()
        if name not in expected:
            expected.append(name)
    rest = sorted(t.file.relative_to(web.folder).as_posix() for t in report.timelines
                  if t.file.relative_to(web.folder).as_posix() not in expected)
    page = clients["procuradora"].get("/processos")
    rows = soup(page.text).select("#lista-processos tbody tr")
    shown = [r.select_one("a")["href"].removeprefix("/processo/") for r in rows]
    assert shown == expected + rest
    first = report.rows[0]
    cells = [td.get_text(" ", strip=True) for td in rows[0].select("td")]
    assert cells[0] == first.pendencia.urgencia  # type: ignore[union-attr]
    assert first.pendencia.acao in cells[5]  # type: ignore[union-attr]
    assert rows[0]["class"] == [first.pendencia.urgencia.replace(" ", "-")]  # type: ignore[union-attr]


def test_list_filters(web: WebEnv, clients: dict[str, TestClient]) -> None:
    c = clients["procuradora"]

    def shown(query: str) -> list[str]:
        rows = soup(c.get("/processos?" + query).text).select("#lista-processos tbody tr")
        return [r.select_one("a")["href"].removeprefix("/processo/") for r in rows]

    everything = shown("")
    assert len(everything) == len(list(web.folder.rglob("*.yaml")))
    timoteo = shown("lei=timoteo-mg%2Flei-3844-2022")
    assert timoteo and all(x.startswith("timoteo-mg/") for x in timoteo)
    assert shown("agente=patr%C3%ADcia") == [x for x in everything if "fv-2026-05" in x]
    assert shown("busca=SIM-2026%2F000171") == [OWN]
    by_name = soup(c.get("/processos?busca=jos%C3%A9+carlos").text).select("#lista-processos td[data-rotulo=Autuado]")
    assert OWN in shown("busca=jos%C3%A9+carlos") and len(by_name) < len(everything)
    assert all("José Carlos" in td.get_text() for td in by_name)
    vencidos = shown("situacao=vencido")
    rows = soup(c.get("/processos?situacao=vencido").text).select("#lista-processos tbody tr td.urgencia")
    assert vencidos and {td.get_text(strip=True) for td in rows} == {"vencido"}
    until = shown("vence_ate=2026-11-30")
    dates = [td.get_text(strip=True) for td in
             soup(c.get("/processos?vence_ate=2026-11-30").text).select("#lista-processos td[data-rotulo=Vence]")]
    assert until and all(d != "—" and date(int(d[6:]), int(d[3:5]), int(d[:2])) <= HOJE for d in dates)
    assert set(until) < set(everything)
    assert shown("busca=nada-disso") == []
    assert "Nenhum processo com estes filtros" in words(c.get("/processos?busca=nada-disso").text)


def test_processo_page_has_findings_with_article_fine_memo_and_deadlines(web: WebEnv,
                                                                         clients: dict[str, TestClient]) -> None:
    autos = Autos(ROOT / "rules", ROOT / "templates", HOJE)
    file = web.folder / RUIDO
    report = autos.validate(file)
    fine = autos.processo_fine_of(file)
    timeline = autos.deadlines_report(file)
    page = clients["procuradora"].get(f"/processo/{RUIDO}")
    assert page.status_code == 200
    text = words(page.text)
    doc = soup(page.text)
    for f in report.findings:  # every finding of autos validar, with its code, article and message
        assert f.codigo in text
        assert " ".join(f.mensagem.split()) in text
        if f.citacao:
            assert f.citacao in text
    act1 = words(str(doc.select_one("#ato-1")))
    assert "FER-76-CIENCIA" in act1 and "Lei nº 3.240/2015, art. 76" in act1  # the act's own finding, in its act
    memo = words(str(doc.select_one("#multa")))
    assert fine.calculo is not None
    for step in fine.calculo.memo():
        assert " ".join(step.descricao.split()) in memo and " ".join(step.resultado.split()) in memo
    # the official UFM of the test values, in Brazilian notation (R$ 156,1935, not Python's 156.1935)
    assert "R$ 9.371,61" in memo and "UFM = R$ 156,1935" in memo and "VALOR DE EXEMPLO" not in memo
    prazos = words(str(doc.select_one("#prazos")))
    for p in timeline.prazos:  # type: ignore[union-attr]
        assert p.deadline.descricao in prazos and p.estado in prazos
    assert doc.select_one("#documentos") is not None and doc.select_one("#linha-do-tempo") is not None


def test_procurador_records_de_acordo_and_parecer_with_who_and_when(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    c = env.client("procuradora")
    page = c.get(f"/processo/{OWN}")
    assert "Nenhuma revisão registrada" in words(page.text)
    token = form_token(page.text)
    r = c.post(f"/processo/{OWN}/revisao", data={"tipo": "de_acordo", "texto": "", "csrf_token": token})
    assert r.status_code == 303 and r.headers["location"] == f"/processo/{OWN}#revisoes"
    parecer = "Opino pela manutenção do auto.\nA defesa é intempestiva <script>alert('x')</script>."
    r = c.post(f"/processo/{OWN}/revisao", data={"tipo": "parecer", "texto": parecer, "csrf_token": token})
    assert r.status_code == 303
    page = c.get(f"/processo/{OWN}")
    assert "Parecer registrado." in words(page.text)  # the notice after the redirect
    reviews = soup(page.text).select("#revisoes .revisao")
    assert len(reviews) == 2
    first, second = (words(str(x)) for x in reviews)
    assert first.startswith("De acordo — Procuradora Municipal (procuradora),")
    assert second.startswith("Parecer — Procuradora Municipal (procuradora),") and "Opino pela manutenção" in second
    assert "<script>alert" not in page.text and "&lt;script&gt;alert" in page.text
    with env.register() as reg:
        stored = reg.reviews_of("timoteo-mg/lei-3844-2022", "SIM-2026/000171")
        audit = reg.audit_of(f"processo:{OWN}")
    assert [(x.tipo, x.login, x.nome) for x in stored] == [("de_acordo", "procuradora", "Procuradora Municipal"),
                                                           ("parecer", "procuradora", "Procuradora Municipal")]
    assert stored[1].texto == parecer.strip() and stored[0].registrado_em[:4] == str(date.today().year)
    assert [(e.login, e.acao, e.detalhe) for e in audit] == [("procuradora", "revisou", "de acordo"),
                                                             ("procuradora", "revisou", "parecer")]
    assert "revisou" in words(str(soup(page.text).select_one("#historico")))
    other = env.client("chefe").get(f"/processo/{OWN}")  # shown to every reader of the processo
    assert len(soup(other.text).select("#revisoes .revisao")) == 2
    assert soup(other.text).select_one("#revisoes form") is None  # but only the procurador records


def test_an_empty_parecer_is_refused_with_the_reason(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    c = env.client("procuradora")
    token = form_token(c.get(f"/processo/{OWN}").text)
    for data, status, message in (({"tipo": "parecer", "texto": "   "}, 400, "o parecer está em branco"),
                                  ({"tipo": "outro", "texto": "x"}, 400, "tipo de revisão desconhecido"),
                                  ({"tipo": "parecer", "texto": "a" * 20_001}, 400, "o limite é 20.000")):
        r = c.post(f"/processo/{OWN}/revisao", data={**data, "csrf_token": token})
        assert r.status_code == status and message in words(r.text)
    with env.register() as reg:
        assert reg.reviews_of("timoteo-mg/lei-3844-2022", "SIM-2026/000171") == []


def test_values_typed_in_a_processo_are_escaped(new_env: Callable[..., WebEnv]) -> None:
    env = new_env()
    hostile = env.folder / "timoteo-mg" / "sim-2026-000999-hostil.yaml"
    shutil.copy(env.folder / OWN, hostile)
    text = hostile.read_text(encoding="utf-8")
    text = text.replace("numero: SIM-2026/000171", 'numero: "SIM-2026/000999<script>alert(1)</script>"')
    text = text.replace("nome: José Carlos Pereira", 'nome: "<script>alert(2)</script><img src=x onerror=alert(3)>"')
    assert "alert(2)" in text
    hostile.write_text(text, encoding="utf-8")
    c = env.client("procuradora")
    for path in ("/processos", "/processo/timoteo-mg/sim-2026-000999-hostil.yaml",
                 "/processos?busca=%3Cscript%3Ealert(2)"):
        r = c.get(path)
        assert r.status_code == 200, path
        doc = soup(r.text)
        assert not [s for s in doc.select("script") if "alert" in (s.string or "") or not s.get("src")], path
        assert doc.select("img") == [], path
        assert "&lt;script&gt;alert(2)&lt;/script&gt;&lt;img src=x onerror=alert(3)&gt;" in r.text, path


def test_processo_names_outside_the_folder_are_not_found(tmp_path: Path) -> None:
    folder = tmp_path / "processos"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "p.yaml").write_text("lei: x\n", encoding="utf-8")
    (tmp_path / "segredo.yaml").write_text("lei: x\n", encoding="utf-8")
    (folder / "link.yaml").symlink_to(tmp_path / "segredo.yaml")
    assert resolve_processo(folder, "a/p.yaml") == folder.resolve() / "a" / "p.yaml"
    for bad in ("../segredo.yaml", "/etc/passwd.yaml", "a/../../segredo.yaml", "link.yaml", "a/p.txt", "",
                "a\\p.yaml", "a/nao.yaml"):
        try:
            resolve_processo(folder, bad)
        except NotFoundError:
            continue
        raise AssertionError(bad)
    autos = Autos(ROOT / "rules", ROOT / "templates", HOJE)
    try:
        processo_ref(autos, folder, "a/p.yaml")  # a YAML file that is not a processo
    except NotFoundError as exc:
        assert "não é um arquivo de processo" in str(exc)
    else:
        raise AssertionError("not a processo")


def test_processo_page_puts_nullity_first_with_the_grade_and_its_ground(new_env: Callable[..., WebEnv]) -> None:
    """rules/achados.yaml: a decision by an authority the register does not know is void (Lei 9.784/1999, arts. 11
    and 13, por analogia); the hour the auto omits (Lei nº 3.666/1997, art. 35, does not require it) is style."""
    env = new_env()
    name = "cuiaba-mt/04-recurso-decidido-pelo-secretario.yaml"
    shutil.copy(ROOT / "samples" / "verificacao" / name, env.folder / name)
    page = env.client("procuradora").get(f"/processo/{name}")
    assert page.status_code == 200
    doc = soup(page.text)
    order = {"nulidade": 0, "vício sanável": 1, "estilo": 2}
    lists = [[order[s.get_text(strip=True)] for s in ul.select("li .grau")] for ul in doc.select("ul.achados")]
    assert lists and all(g == sorted(g) for g in lists)
    text = words(page.text)
    assert "nulidade AUTORIDADE-DESCONHECIDA" in text and "estilo CBA-35-HORA" in text
    assert "Grau: competência: autoridade que não existe no registro de autoridades" in text
