"""``autos prazos PROCESSO.yaml`` and ``autos pendencias``: exit codes, ordering, filters, CSV and HTML."""

from __future__ import annotations

import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from autos.cli import main

from .conftest import CASOS, DATA, ROOT, SAMPLES
from .textutil import spreadsheet_rows

BASE = ["--regras", str(ROOT / "rules"), "--hoje", "2026-11-30"]
PROC = DATA / "processo"
SAMPLE = SAMPLES / "processos"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    if "--csv" in args:  # the bytes of stdout, as a file redirected from it has them (click's .stdout folds CRLF)
        return result.exit_code, result.stdout_bytes.decode("utf-8")
    return result.exit_code, result.stdout if "--json" in args else result.output  # JSON is stdout; notices go to stderr


# --- autos prazos ---------------------------------------------------------------------------------


def test_prazos_on_a_processo_shows_the_timeline_and_exits_0() -> None:
    code, out = run("prazos", str(SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml"))
    assert code == 0, out
    assert "Situação em 30/11/2026: aguardando pagamento da multa até 30/11/2026" in out
    assert "Próximo ato: pagamento da multa (autuado) — até 30/11/2026 [hoje]" in out
    assert "EM CURSO" in out and "PREJUDICADO" in out and "CUMPRIDO" in out
    assert "Escolhas interpretativas" in out and "9.784/1999" in out
    # the engine's reasoning: the end of the notice-of-decision term moved over the weekend and Finados
    assert "02/11/2026 — Finados, feriado nacional" in out


def test_hora_is_accepted_on_any_act(tmp_path: Path) -> None:
    text = (SAMPLE / "ferraz-de-vasconcelos-sp" / "fv-2026-0520-prazo-de-recurso.yaml").read_text(encoding="utf-8")
    text = text.replace("    data: 2026-11-23\n", '    data: 2026-11-23\n    hora: "10:40"\n')
    file = tmp_path / "p.yaml"
    file.write_text(text, encoding="utf-8")
    code, out = run("prazos", str(file))
    assert code == 0, out


def test_prazos_json_on_a_processo() -> None:
    code, out = run("prazos", "--json", str(SAMPLE / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"))
    assert code == 0
    data = json.loads(out)
    assert data["situacao"] == "julgamento: vencido em 16/11/2026"
    assert data["proximo"]["urgencia"] == "vencido"
    estados = [p["estado"] for p in data["prazos"] if p["id"] != "notificacao_auto_lei9784_art24"]
    assert estados == ["perdido", "perdido"]


def test_prazos_on_an_invalid_processo_exits_1_with_the_article() -> None:
    code, out = run("prazos", str(PROC / "invalidos" / "ferraz-defesa.yaml"))
    assert code == 1
    assert "ATO-NAO-PREVISTO" in out and "não prevê o ato 'defesa'" in out and "linha 11" in out


def test_prazos_on_an_unusable_processo_exits_2() -> None:
    result = CliRunner().invoke(main, [*BASE, "prazos", str(PROC / "ilegiveis" / "chave-desconhecida.yaml")])
    assert result.exit_code == 2
    assert "campo desconhecido 'protocolo'" in result.output and "linha 8" in result.output


def test_prazos_on_an_old_case_file_works_as_before() -> None:
    code, out = run("prazos", str(CASOS / "timoteo-mg" / "auto-pj-completo.yaml"))
    assert code == 0
    assert "31/03/2026" in out and "art. 20, § 1º, V" in out  # 16/03 + 15 days: the old per-document output


# --- autos pendencias -------------------------------------------------------------------------------


PENDING_COLUMNS = ["urgencia", "vence", "processo", "lei", "autuado", "agente", "quem", "acao", "base_legal",
                   "situacao", "erros", "arquivo"]


def _rows(out: str) -> list[dict[str, str]]:
    """The rows of ``autos pendencias --csv`` as a pt-BR spreadsheet reads them (the dialect checked)."""
    return spreadsheet_rows(out.encode("utf-8"), PENDING_COLUMNS)


def test_pendencias_samples_show_every_bucket_in_order() -> None:
    code, out = run("pendencias", str(SAMPLE), "--csv")
    assert code == 0, out
    rows = _rows(out)
    got = [(r["urgencia"], r["vence"], r["processo"]) for r in rows]
    assert got == [
        ("vencido", "2026-04-30", "SIM-2026/000142"),  # judgment 30 days after the defence term (no defence)
        ("vencido", "2026-07-30", "SIM-2026/000188"),  # the same, the notice by edital effective 15/06
        # the same: ciência by the dated signature on the auto, 14/07 (Timóteo art. 20, § 2º); defence 15 days
        # (EXEMPLO) → 29/07; judgment 30 days after it (Lei 9.784, art. 49) → 28/08
        ("vencido", "2026-08-28", "SIM-2026/000203"),
        ("vencido", "2026-10-05", "PM-FV 2026/004417"),  # dívida ativa: the Ferraz art. 80 payment term ran out
        ("vencido", "2026-11-03", "PM-FV 2026/005102"),  # the same, after the edital
        ("vencido", "2026-11-16", "SIM-2026/000171"),  # judgment by default overdue (Lei 9.784, art. 49)
        ("vencido", "2026-11-24", "CCZ-2026/000512"),  # horse not rescued in 3 working days: other destination
        ("hoje", "2026-11-30", "CCZ-2026/000512"),  # defence (Lei 9.784, art. 44, by analogy) ends today
        ("hoje", "2026-11-30", "CCZ-2026/0077"),  # payment (EXEMPLO) ends today
        ("esta semana", "2026-12-03", "FV-2026/0520"),  # appeal, Ferraz art. 78
        ("esta semana", "2026-12-07", "FV-2026/0520"),  # payment, Ferraz art. 80
        ("esta semana", "2026-12-07", "SIM-2026/000180"),  # judgment after the defence of 05/11
        ("depois", "2026-12-10", "FV-2026/0531"),  # embargo, Ferraz art. 37
        ("depois", "2027-10-26", "SIM-2026/000180"),  # interdiction, Timóteo art. 16, § 3º
        ("sem prazo", "", "FV-2026/0531"),  # AR posted, not yet back
        ("sem prazo", "", "PM-FV 2026/005377"),  # final notice (art. 80) posted, not yet back
    ]
    closed = {"SIM-2026/000150", "FV-2026/0412", "FV-2026/0388", "CCZ-2026/0090", "SIM-2026/000157",
              "CCZ-2026/000391"}
    assert not closed & {r["processo"] for r in rows}


def test_pendencias_text_groups_by_urgency() -> None:
    code, out = run("pendencias", "--hoje", "2026-11-30", str(SAMPLE))
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("== ")]
    assert heads == ["== VENCIDO ==", "== HOJE ==", "== ESTA SEMANA ==", "== DEPOIS ==", "== SEM PRAZO =="]
    assert f"{len(list(SAMPLE.rglob('*.yaml')))} processos" in out


def test_pendencias_local_hoje_overrides_the_global_one() -> None:
    # on 10/10/2026 the Timóteo processo 000171 is still within its defence term (until 16/10)
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "pendencias", "--hoje", "2026-10-10",
                                       "--json", str(SAMPLE / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml")])
    data = json.loads(result.output)
    assert [(p["urgencia"], p["vence"], p["acao"]) for p in data["pendencias"]] == [
        ("esta semana", "2026-10-16", "defesa")]


def test_pendencias_filters_by_law_and_agent() -> None:
    code, out = run("pendencias", str(SAMPLE), "--csv", "--lei", "ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert code == 0
    assert {r["processo"] for r in _rows(out)} == {"FV-2026/0520", "FV-2026/0531", "PM-FV 2026/004417",
                                                   "PM-FV 2026/005102", "PM-FV 2026/005377"}
    code, out = run("pendencias", str(SAMPLE), "--csv", "--agente", "patrícia")
    assert {r["processo"] for r in _rows(out)} == {"FV-2026/0520", "FV-2026/0531"}
    code, out = run("pendencias", str(SAMPLE), "--json", "--agente", "Ninguém")
    assert code == 0 and json.loads(out)["pendencias"] == []


def _hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "casos"
    folder.mkdir()
    text = (SAMPLE / "ferraz-de-vasconcelos-sp" / "fv-2026-0520-prazo-de-recurso.yaml").read_text(encoding="utf-8")
    text = text.replace("nome: Luciana Moreira Campos", 'nome: "=HYPERLINK(\\"http://x\\") <script>alert(1)</script>"')
    text = text.replace("numero: FV-2026/0520", 'numero: "+55 & <b>"')
    (folder / "hostil.yaml").write_text(text, encoding="utf-8")
    return folder


def test_pendencias_csv_neutralises_formulas(tmp_path: Path) -> None:
    code, out = run("pendencias", str(_hostile(tmp_path)), "--csv")
    assert code == 0
    rows = _rows(out)
    assert rows and all(r["autuado"].startswith("'=HYPERLINK") for r in rows)
    assert all(r["processo"] == "'+55 & <b>" for r in rows)
    for r in rows:
        assert not any(v[:1] in "=+-@" for v in r.values() if v), r


def test_pendencias_csv_opens_in_columns_with_accents_in_a_pt_br_spreadsheet() -> None:
    """UTF-8 with a BOM, ``;``, CRLF (README, "Arquivos CSV"): the accents of the name survive, a legal basis with
    a ``;`` inside stays one cell, the count of errors is a number."""
    code, out = run("pendencias", str(SAMPLE / "timoteo-mg" / "sim-2026-000142-pj-completo.yaml"), "--csv")
    assert code == 0, out
    assert out.startswith("\ufeffurgencia;vence;processo;")
    [row] = _rows(out)
    assert (row["processo"], row["autuado"]) == ("SIM-2026/000142", "Laticínios Vale do Aço Ltda.")
    # judgment 30 days after the defence term (Lei 9.784/1999, art. 49, by analogy), as in the samples' list above
    assert row["base_legal"] == ("Lei federal nº 9.784/1999, art. 49 (por analogia; Lei nº 3.844/2022, arts. 19 e 31, "
                                 "parágrafo único, j)")
    assert row["erros"] == "0"


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links.extend(v or "" for k, v in attrs if k in ("href", "src"))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_pendencias_html_is_self_contained_and_escaped(tmp_path: Path) -> None:
    target = tmp_path / "saida" / "pendencias.html"
    code, _ = run("pendencias", str(_hostile(tmp_path)), str(SAMPLE), "--html", str(target))
    assert code == 0
    page = target.read_text(encoding="utf-8")
    p = _Collect()
    p.feed(page)
    assert "script" not in p.tags and "b" not in p.tags and not p.links
    text = " ".join(p.text)
    assert "<script>alert(1)</script>" in text and "+55 & <b>" in text  # shown as text, escaped in the source
    assert "&lt;script&gt;" in page
    assert "SIM-2026/000171" in text and "vencido" in text


def test_pendencias_exit_1_when_a_processo_has_errors(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml", folder)
    shutil.copy(PROC / "invalidos" / "ferraz-defesa.yaml", folder)
    code, out = run("pendencias", str(folder), "--json")
    assert code == 1
    data = json.loads(out)
    assert {(r["processo"], r["erros"]) for r in data["pendencias"]} == {("CCZ-2026/0077", 0), ("F-1/2026", 1)}


def test_pendencias_exit_2_on_unusable_file_or_nothing_found(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml", folder)
    shutil.copy(PROC / "ilegiveis" / "data-invalida.yaml", folder)
    code, out = run("pendencias", str(folder))
    assert code == 2
    assert "CCZ-2026/0077" in out and "data inválida '2026-13-01'" in out
    empty = tmp_path / "vazia"
    empty.mkdir()
    code, _ = run("pendencias", str(empty))
    assert code == 2
    code, out = run("pendencias", str(tmp_path / "nao-existe"))
    assert code == 2 and "não encontrado" in out


def test_pendencias_skips_old_case_files_in_a_folder() -> None:
    code, out = run("pendencias", str(CASOS / "timoteo-mg"), "--json")
    assert code == 2  # no processo file there: the list cannot be given as complete
    assert json.loads(out)["processos"] == 0


def test_pendencias_reports_a_malformed_processo_in_a_folder_but_skips_case_files(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    shutil.copy(SAMPLE / "cuiaba-mt" / "ccz-2026-0077-recurso.yaml", folder)
    shutil.copy(CASOS / "timoteo-mg" / "auto-pj-completo.yaml", folder)  # a case file: not a processo
    (folder / "caso-quebrado.yaml").write_text("lei: x\ndocumento: auto_de_infracao\nfatos: [a\n", encoding="utf-8")
    code, out = run("pendencias", str(folder), "--json")
    assert code == 0, out
    assert json.loads(out)["processos"] == 1
    (folder / "processo-quebrado.yaml").write_text("lei: x\natos:\n  - tipo: auto\n    data: [2026\n",
                                                   encoding="utf-8")
    code, out = run("pendencias", str(folder), "--json")
    assert code == 2
    fails = json.loads(out)["falhas"]
    assert len(fails) == 1 and fails[0]["arquivo"].endswith("processo-quebrado.yaml")
    assert "YAML malformado" in fails[0]["mensagem"]


@pytest.mark.parametrize("lei", ["timoteo-mg/lei-3844-2022", "ferraz-de-vasconcelos-sp/lei-3240-2015",
                                 "cuiaba-mt/lei-3666-1997"])
def test_regras_mostrar_shows_the_rite_and_its_choices(lei: str) -> None:
    """Every act kind, act the law lacks and interpretive choice of the processo rules reaches the user."""
    code, out = run("regras", "mostrar", lei)
    assert code == 0, out
    assert "Rito do processo" in out
    municipio, stem = lei.split("/")
    data = yaml.safe_load((ROOT / "rules" / municipio / f"{stem}.processo.yaml").read_text(encoding="utf-8"))
    for kind in data["atos"]:
        assert f"\n  {kind} — " in out, kind
    for kind in data.get("nao_previstos", {}):
        assert f"\n  {kind} (" in out, kind
    assert data.get("interpretacoes"), "every law's rite records at least one choice"
    for choice in data["interpretacoes"]:
        assert f"\n  {choice['id']} (" in out, choice["id"]


def test_regras_mostrar_ferraz_rite_cites_the_statute() -> None:
    code, out = run("regras", "mostrar", "ferraz-de-vasconcelos-sp/lei-3240-2015")
    assert code == 0, out
    # Art. 79: the appeal goes to the Prefeito, who decides in 30 days; p.u.: delegation (the authority is required)
    assert "decisao_recurso — Lei nº 3.240/2015, art. 79 —" in out
    assert "autoridade (Lei nº 3.240/2015, art. 79, parágrafo único)" in out
    # Art. 78: no prior defence — the notified person appeals in 10 days
    assert "defesa (Lei nº 3.240/2015, art. 78):" in out
