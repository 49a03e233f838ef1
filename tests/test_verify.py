"""``autos verificar`` (alias ``check``): completeness of whole folders — text, JSON, HTML and exit codes."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.app.verification.verify import iter_verification_json, verification_html, verification_text, verify
from autos.checks.finding import Report
from autos.cli import main

from .conftest import CASOS, DATA, ROOT, SAMPLES

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
VERIFY = DATA / "verify"
COMPLETE = VERIFY / "completos"
PENDING = VERIFY / "pendentes"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.stdout if "--json" in args else result.output  # JSON is stdout; notices go to stderr


# --- text ----------------------------------------------------------------------------------------
def test_complete_folder_exits_0() -> None:
    code, out = run("verificar", str(COMPLETE))
    assert code == 0, out
    assert "3 casos: 3 sem erro, 0 com erro, 0 ilegíveis." in out
    assert "COMPLETO: nenhum caso com erro." in out


def test_mixed_folders_exit_1_with_summary_by_law_kind_and_code(shipped_examples: None) -> None:
    code, out = run("verificar", str(COMPLETE), str(PENDING))
    assert code == 1, out
    summary, cases = out.split("\nCasos:\n")
    assert "6 casos: 3 sem erro, 3 com erro, 0 ilegíveis." in summary
    # by law: every law of the fixtures, with its counts
    assert "Lei nº 3.844/2022 (Timóteo/MG): 2 casos, 1 sem erro, 1 com erro;" in summary
    assert "Lei nº 3.240/2015 (Ferraz de Vasconcelos/SP): 2 casos, 1 sem erro, 1 com erro;" in summary
    assert "Lei nº 3.666/1997 (Cuiabá/MT): 2 casos, 1 sem erro, 1 com erro;" in summary
    # by kind
    assert "Auto de Infração (auto_de_infracao): 6 casos, 3 sem erro, 3 com erro;" in summary
    # by code: counts and the provision each code cites
    assert re.search(r"erro +nulidade +FER-75-FATO +1 achado em 1 caso — Lei nº 3\.240/2015, art\. 75", summary)
    assert re.search(r"erro +vício sanável +CBA-35-LAVRATURA +1 achado em 1 caso — Lei nº 3\.666/1997, art\. 35", summary)
    assert re.search(r"aviso +vício sanável +VALOR-EXEMPLO +6 achados em 6 casos", summary)
    # nullity first, then errors before warnings, in the code table
    assert summary.index("FER-75-FATO") < summary.index("VALOR-EXEMPLO")
    # each case, with its findings and their citations
    for name in ("timoteo-pj.yaml", "ferraz-sem-fato.yaml", "cuiaba-sem-local.yaml", "timoteo-incompleto.yaml"):
        assert name in cases
    assert "✗ " + str(PENDING / "ferraz-sem-fato.yaml") in cases
    assert "[ERRO · nulidade] FER-75-FATO: falta elemento obrigatório (fatos)" in cases
    assert "(Lei nº 3.240/2015, art. 75)" in cases
    assert "[ERRO · nulidade] TIM-20-1-VII" in cases and "linha" in cases and "Como corrigir" in cases
    assert "INCOMPLETO: há casos com erro." in cases


def test_interpretive_choices_shown_once_per_law() -> None:
    _, out = run("verificar", str(COMPLETE), str(PENDING))
    for label in ("Lei nº 3.844/2022 (Timóteo/MG)", "Lei nº 3.240/2015 (Ferraz de Vasconcelos/SP)",
                  "Lei nº 3.666/1997 (Cuiabá/MT)"):
        assert out.count(f"Escolhas interpretativas das regras da {label}:") == 1, label
    # a choice of Timóteo (2 cases of that law) is printed once
    assert out.count("O sistema não aplica percentual automático.") == 1


def test_unreadable_case_exits_2_and_is_listed_with_its_error() -> None:
    code, out = run("verificar", str(VERIFY))
    assert code == 2, out
    assert "7 casos: 3 sem erro, 3 com erro, 1 ilegível." in out
    assert "timoteo-cnpj-invalido.yaml: ILEGÍVEL" in out
    assert "CNPJ '11.222.333/0001-82' inválido" in out
    # counted under the law it declares
    assert "Lei nº 3.844/2022 (Timóteo/MG): 3 casos, 1 sem erro, 1 com erro, 1 ilegível;" in out
    assert "INCOMPLETO: há casos ilegíveis" in out


def test_a_file_that_crashes_the_check_costs_only_its_own_report(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure that is not an AutosError (a library crashing on a value, a defect) makes that one file unreadable,
    with the reason in Portuguese; every other file is reported, in the text, the JSON and the HTML."""
    folder = tmp_path / "pasta"
    folder.mkdir()
    for name in ("sim-2026-000171-sem-defesa.yaml", "sim-2026-000150-recurso-pago.yaml"):
        (folder / name).write_bytes((SAMPLES / "processos" / "timoteo-mg" / name).read_bytes())
    real = Autos.check_processo

    def crashing(self: Autos, loaded: Any) -> Any:
        if loaded.file.name.startswith("sim-2026-000171"):
            raise ValueError("year 10004 is out of range")
        return real(self, loaded)

    monkeypatch.setattr(Autos, "check_processo", crashing)
    html = tmp_path / "r.html"
    code, out = run("verificar", str(folder), "--sem-registro", "--html", str(html))
    assert code == 2, out
    assert "2 casos: 1 sem erro, 0 com erro, 1 ilegível." in out
    assert "sim-2026-000171-sem-defesa.yaml: ILEGÍVEL" in out
    assert "não foi possível verificar o arquivo: erro interno ao tratar este caso; os demais casos seguiram" in out
    assert "sim-2026-000150-recurso-pago.yaml — Processo administrativo nº SIM-2026/000150" in out
    assert "Traceback" not in out
    assert "SIM-2026/000150" in html.read_text(encoding="utf-8")
    code, out = run("verificar", str(folder), "--sem-registro", "--json")
    data = json.loads(out)
    assert [c["situacao"] for c in data["casos"]] == ["sem_erro", "ilegivel"]


def test_english_alias_check() -> None:
    code, out = run("check", str(COMPLETE))
    assert code == 0, out
    assert "Verificação de completude" in out


def test_no_case_found_exits_2(tmp_path: Path) -> None:
    code, out = run("verificar", str(tmp_path))
    assert code == 2
    assert "Nenhum caso" in out


def test_missing_folder_exits_2(tmp_path: Path) -> None:
    code, out = run("verificar", str(tmp_path / "nao-existe"))
    assert code == 2
    assert "arquivo não encontrado" in out


def test_whole_samples_folder_agrees_with_validar() -> None:
    """Whatever samples exist, verificar lists each of them and exits as validar does."""
    v_code, v_out = run("verificar", "--json", str(SAMPLES))
    code, _ = run("validar", str(SAMPLES))
    data = json.loads(v_out)
    assert v_code == code
    files = {Path(c["arquivo"]).resolve() for c in data["casos"]}
    assert files == {p.resolve() for p in SAMPLES.rglob("*.y*ml")}


@pytest.mark.skipif(not (CASOS / "verificacao").is_dir(), reason="tests/data/casos/verificacao ainda não existe")
def test_verification_samples_mix_complete_and_incomplete(autos: Autos) -> None:
    folder = CASOS / "verificacao"
    v = verify(autos, [folder])
    assert {c.arquivo.resolve() for c in v.casos} == {p.resolve() for p in folder.rglob("*.y*ml")}
    status = {c.status for c in v.casos}
    assert {"sem_erro", "com_erro"} <= status
    assert v.exit_code() == run("validar", str(folder))[0] >= 1
    _assert_inert(verification_html(v, ROOT / "templates"))


# --- JSON ----------------------------------------------------------------------------------------
def test_json_output(shipped_examples: None) -> None:
    code, out = run("verificar", "--json", str(VERIFY))
    assert code == 2
    data = json.loads(out)
    assert data["codigo_de_saida"] == 2 and data["completo"] is False
    assert data["totais"] == {"casos": 7, "sem_erro": 3, "com_erro": 3, "ilegiveis": 1,
                              "achados_erro": 12, "achados_aviso": 9}  # 2: PRAZO-EXEMPLO of the 2 Timóteo cases
    by_law = {g["lei"]: g for g in data["por_lei"]}
    assert by_law["timoteo-mg/lei-3844-2022"]["ilegiveis"] == 1
    assert by_law["cuiaba-mt/lei-3666-1997"]["rotulo"] == "Lei nº 3.666/1997 (Cuiabá/MT)"
    assert [g["documento"] for g in data["por_documento"]] == ["auto_de_infracao"]
    codes = {c["codigo"]: c for c in data["por_codigo"]}
    assert codes["FER-75-FATO"] == {"codigo": "FER-75-FATO", "severidade": "erro", "achados": 1, "casos": 1,
                                    "citacoes": ["Lei nº 3.240/2015, art. 75"], "grau": "nulidade",
                                    "grau_rotulo": "nulidade",
                                    # rules/ferraz-de-vasconcelos-sp/achados.yaml: the fact is an essential element
                                    "grau_fundamento": codes["FER-75-FATO"]["grau_fundamento"]}
    assert "Lei nº 3.240/2015, art. 75" in codes["FER-75-FATO"]["grau_fundamento"]
    assert set(data["escolhas_interpretativas"]) == set(by_law)
    choice = data["escolhas_interpretativas"]["timoteo-mg/lei-3844-2022"][0]
    assert set(choice) == {"id", "citacao", "problema", "escolha"}
    situations = {Path(c["arquivo"]).name: c["situacao"] for c in data["casos"]}
    assert situations["timoteo-cnpj-invalido.yaml"] == "ilegivel"
    assert situations["ferraz-sem-fato.yaml"] == "com_erro"
    assert situations["timoteo-pj.yaml"] == "sem_erro"
    unreadable = next(c for c in data["casos"] if c["situacao"] == "ilegivel")
    assert unreadable["erro_de_leitura"]["caminho"] == "autuado.cnpj"
    finding = next(c for c in data["casos"] if c["situacao"] == "com_erro")["achados"][0]
    assert set(finding) >= {"severidade", "codigo", "mensagem", "citacao", "caminho", "linha", "arquivo"}


def test_library_summary(autos: Autos) -> None:
    v = verify(autos, [COMPLETE, PENDING])
    assert v.exit_code() == 1
    assert v.totais["casos"] == 6
    assert [k for k, _ in v.por_lei()] == ["cuiaba-mt/lei-3666-1997", "ferraz-de-vasconcelos-sp/lei-3240-2015",
                                           "timoteo-mg/lei-3844-2022"]
    assert v.to_dict()["totais"] == v.totais


# --- HTML ----------------------------------------------------------------------------------------
class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "section", "footer", "h1", "h2",
                "h3", "p", "br", "span", "div", "strong", "code", "table", "thead", "tbody", "tr", "th", "td", "a"}


def _parse(html: str) -> _Collector:
    c = _Collector()
    c.feed(html)
    c.close()
    return c


def _assert_inert(html: str) -> _Collector:
    """Nothing runs and nothing is fetched or linked: no script/img/link/iframe/form, no event
    handlers, no src, no external or javascript: URLs; only internal #caso-N anchors."""
    doc = _parse(html)
    assert set(doc.tags) <= ALLOWED_TAGS, set(doc.tags) - ALLOWED_TAGS
    for tag, name, value in doc.attrs:
        assert not name.startswith("on"), (tag, name)
        assert name not in {"src", "srcset", "action", "formaction", "background", "poster", "data"}, (tag, name)
        if name != "content":  # meta content (charset, CSP policy) is ours
            assert "javascript:" not in value.lower() and "http" not in value.lower(), (tag, value)
        if name == "href":
            assert re.fullmatch(r"#caso-\d+", value), value
    assert "<script" not in html.lower() and "@import" not in html and "url(" not in html
    return doc


def test_html_report_is_one_inert_file_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / "relatorio.html"
    code, out = run("verificar", str(VERIFY), "--html", str(target))
    assert code == 2
    assert f"relatório HTML gravado: {target}" in out
    assert [p.name for p in tmp_path.iterdir()] == ["relatorio.html"]  # no temporary leftovers
    html = target.read_text(encoding="utf-8")
    doc = _assert_inert(html)
    assert "<style>" in html and "Content-Security-Policy" in html
    text = " ".join(" ".join(doc.text).split())
    for expected in ("Resumo por lei", "Resumo por tipo de documento", "Resumo por código de achado",
                     "Lei nº 3.240/2015 (Ferraz de Vasconcelos/SP)", "FER-75-FATO", "Lei nº 3.240/2015, art. 75",
                     "CNPJ '11.222.333/0001-82' inválido", "Escolhas interpretativas das regras",
                     "INCOMPLETO"):
        assert expected in text, expected
    # the interpretive choices of a law appear once, not once per case
    assert text.count("O sistema não aplica percentual automático.") == 1


def test_html_with_json_keeps_stdout_parseable(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, [*BASE, "verificar", "--json", str(COMPLETE), "--html",
                                       str(tmp_path / "r.html")])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["totais"]["casos"] == 3
    assert (tmp_path / "r.html").is_file()


def test_html_unwritable_target_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "f"
    blocker.write_text("x")
    code, out = run("verificar", str(COMPLETE), "--html", str(blocker / "sub" / "r.html"))
    assert code == 2
    assert "pasta de saída" in out


HOSTILE = [
    '<script>alert("x")</script>',
    "<img src=http://evil.example/x.png onerror=alert(1)>",
    "javascript:alert('x')",
    "\"'><a href=\"http://evil.example\">clique</a>",
]


def _hostile_cases(folder: Path) -> None:
    base = (COMPLETE / "timoteo-pj.yaml").read_text(encoding="utf-8")
    # readable, with findings quoting case data (an unknown infraction id, an unknown penalty)
    readable = base.replace("  - regra: inobservancia-normas-sanitarias",
                            "".join(f"  - regra: {json.dumps(h)}\n" for h in HOSTILE)
                            + "  - regra: inobservancia-normas-sanitarias")
    readable = readable.replace("    valor_base: \"1500\"", f"    valor_base: \"1500\"\n    observacao: {json.dumps(HOSTILE[0])}")
    readable = readable.replace("nome: Laticínios Vale do Aço Ltda.", f"nome: {json.dumps(HOSTILE[1])}")
    (folder / "hostil-legivel.yaml").write_text(readable, encoding="utf-8")
    # unreadable: the error message quotes the law and the file name carries markup and quotes
    (folder / "hostil-lei.yaml").write_text(f"lei: {json.dumps(HOSTILE[0] + HOSTILE[2])}\n" + base.split("\n", 2)[2],
                                            encoding="utf-8")
    (folder / "caso-\"aspas'-<img src=x onerror=alert(1)>.yaml").write_text(
        base.replace('cnpj: "11.222.333/0001-81"', f"cnpj: {json.dumps(HOSTILE[3])}"), encoding="utf-8")


def test_html_escapes_every_value_from_case_data(tmp_path: Path) -> None:
    cases = tmp_path / "casos"
    cases.mkdir()
    _hostile_cases(cases)
    target = tmp_path / "r.html"
    code, out = run("verificar", str(cases), "--html", str(target))
    assert code == 2, out
    html = target.read_text(encoding="utf-8")
    doc = _assert_inert(html)
    text = "".join(doc.text)
    # the hostile values are shown to the reader as text, escaped in the source
    assert HOSTILE[1] in text  # unknown infraction id quoted by REGRA-DESCONHECIDA
    assert HOSTILE[0] + HOSTILE[2] in text  # unknown law quoted by the reading error
    assert "caso-\"aspas'-<img src=x onerror=alert(1)>.yaml" in text  # the file name
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert "&lt;img src=http://evil.example/x.png onerror=alert(1)&gt;" in html
    assert HOSTILE[3] in text  # the invalid CNPJ quoted by the reading error
    assert "&#34;&#39;&gt;&lt;a href=&#34;http://evil.example&#34;&gt;clique&lt;/a&gt;" in html


def test_html_renderer_escapes_in_library(autos: Autos, tmp_path: Path) -> None:
    _hostile_cases(tmp_path)
    html = verification_html(verify(autos, [tmp_path]), ROOT / "templates")
    _assert_inert(html)


@pytest.mark.parametrize("folder", [COMPLETE, VERIFY])
def test_html_and_text_agree_on_counts(autos: Autos, folder: Path) -> None:
    v = verify(autos, [folder])
    text = " ".join(" ".join(_parse(verification_html(v, ROOT / "templates")).text).split())
    t = v.totais
    assert f"{t['casos']} casos" in text and f"{t['sem_erro']} sem erro" in text


# --- streaming -------------------------------------------------------------------------------------
@pytest.mark.parametrize("folders", [[VERIFY], [COMPLETE, PENDING], []])
def test_streamed_json_is_the_json_document(autos: Autos, tmp_path: Path, folders: list[Path]) -> None:
    """The CLI streams the JSON piece by piece; joined, it is the document ``to_dict`` describes."""
    with verify(autos, folders or [tmp_path]) as v:
        assert "".join(iter_verification_json(v)) == json.dumps(v.to_dict(), ensure_ascii=False, indent=2)


def test_verification_keeps_counters_not_reports(autos: Autos) -> None:
    """Memory stays flat: no report outlives its case (cases are spooled as JSON lines), and the spooled cases
    can be read any number of times, in order."""
    import gc

    def alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Report))

    before = alive()
    with verify(autos, [VERIFY]) as v:
        assert alive() == before
        files = [c.arquivo for c in v.casos]
        assert files == [c.arquivo for c in v.casos] == sorted(VERIFY.rglob("*.yaml"))
        assert len(files) == v.totais["casos"] == 7
        text = verification_text(v)
        assert text.count("ILEGÍVEL") == 1 and "7 casos: 3 sem erro, 3 com erro, 1 ilegível." in text


def test_lazy_walk_lists_what_the_sorted_listing_lists(tmp_path: Path) -> None:
    """The folder walk that keeps one listing at a time gives the files, and the order, of the sorted listing."""
    from autos.app.generation.files import iter_case_paths
    from autos.base.yamlio import iter_yaml_files

    for rel in ("b.yaml", "a/z.yml", "a-b/c.yaml", "a.yaml/dentro.yaml", ".oculto/x.yaml", "A/maiuscula.yaml",
                "a/b/c/d.yaml", "a/b.yaml", "nota.txt", "a/b/e.YAML", "a b/ç.yaml", "10.yaml", "9.yaml"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x: 1\n")
    (tmp_path / "ligado").symlink_to(tmp_path / "a", target_is_directory=True)  # not followed, as rglob does
    (tmp_path / "atalho.yaml").symlink_to(tmp_path / "b.yaml")  # a link to a file is a file
    expected = list(iter_yaml_files(tmp_path))
    assert len(expected) == 12
    assert list(iter_case_paths([tmp_path, tmp_path / "b.yaml"])) == [*expected, tmp_path / "b.yaml"]


def test_a_finding_as_json_has_every_field_of_the_finding() -> None:
    """The JSON reports (validar --json, verificar --json) give every field of a finding, in order."""
    import dataclasses

    from autos.checks.finding import Finding

    f = Finding("erro", "CODIGO", "mensagem", "art. 1º", "atos[0].data", 3, "caso.yaml", "como corrigir")
    # then the grade of its code (rules/achados.yaml), added keys: an ungraded code has none
    assert f.to_dict() == {**dataclasses.asdict(f), "grau": None, "grau_fundamento": None}
    assert list(f.to_dict()) == [x.name for x in dataclasses.fields(Finding)] + ["grau", "grau_fundamento"]
    graded = Finding("erro", "IMPEDIMENTO", "m", None, None, None, None).to_dict()
    assert graded["grau"] == "nulidade" and "art. 18" in graded["grau_fundamento"]
