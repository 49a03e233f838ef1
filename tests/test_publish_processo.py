"""``autos publicar-editais`` and ``autos conferir`` on processo files.

The fixture processos (tests/data/publish/processos, expectations in ``esperado.yaml``) publish, on 06/10/2026
(newspaper 07/10/2026), one edital for Ferraz de Vasconcelos (autos 301 and 302) and one for Timóteo (autos 31
and 32). After publication each of those processo files has one more act, the edital, and nothing else of the
file changed; ``autos prazos`` then counts from it. Dates by hand, as in test_publish.py:

* Ferraz (art. 77, III): 06/10 + 5 days = 11/10 (Sunday); 12/10 national holiday → notice 13/10/2026.
  Appeal (art. 78, 10 calendar days) → 23/10/2026; payment (art. 80, 10 business days; 14/10 municipal
  holiday, 28/10 Servant's Day) → 29/10/2026.
* Timóteo (art. 21, § 3º): the later publication, 07/10, + 10 days = 17/10 (Saturday) → 19/10/2026.
  Defence (15 calendar days, EXAMPLE value of the rules) → 03/11/2026.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from autos.app.editais import jobs
from autos.app.editais.faults import FAULT_ENV
from autos.app.editais.publish import Publisher
from autos.app.editais.run import Options, PublishResult, place_option
from autos.app.processo.service import ProcessoService
from autos.cli import main
from autos.errors import RecordError
from autos.store import processo_file
from autos.store.ledger import Ledger
from autos.store.processo_file import EditalAct, insert_act, record_edital

from .conftest import DATA, ROOT, TODAY

PROCESSOS = DATA / "publish" / "processos"
EXPECTED = yaml.safe_load((PROCESSOS / "esperado.yaml").read_text(encoding="utf-8"))
DATA_PUB = date(2026, 10, 6)
DATA_JORNAL = date(2026, 10, 7)
FERRAZ = "ferraz-de-vasconcelos-sp/lei-3240-2015"
TIMOTEO = "timoteo-mg/lei-3844-2022"
PUBLISHED = ["ferraz/fv-301-domicilio-desconhecido.yaml", "ferraz/fv-302-ar-mudou-se.yaml",
             "timoteo/sim-31-pj-local-incerto.yaml", "timoteo/sim-32-ar-desconhecido.yaml"]
VEICULOS = place_option(["timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
                         "Quadro de Editais do Paço Municipal"])
JORNAIS = place_option(["Jornal Diário do Aço"])


def options(saida: Path, casos: Path, **kw: object) -> Options:
    base: dict[str, object] = {
        "casos": casos, "data": DATA_PUB, "saida": saida, "data_jornal": DATA_JORNAL, "workers": 1,
        "rules_dir": ROOT / "rules", "templates_dir": ROOT / "templates", "today": TODAY,
        "veiculos": VEICULOS, "jornais": JORNAIS,
    }
    base.update(kw)
    return Options(**base)  # type: ignore[arg-type]


def publish(saida: Path, casos: Path, **kw: object) -> PublishResult:
    return Publisher(options(saida, casos, **kw)).run()


def tree(*folders: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``folders``: path → (sha256, mtime_ns)."""
    return {str(p): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for f in folders for p in sorted(f.rglob("*")) if p.is_file()}


def inserted(before: str, after: str) -> list[str]:
    """The lines ``after`` adds to ``before``; fails if anything was removed or changed."""
    ops = difflib.SequenceMatcher(a=before.splitlines(keepends=True), b=after.splitlines(keepends=True),
                                  autojunk=False).get_opcodes()
    assert all(tag in ("equal", "insert") for tag, *_ in ops), ops
    lines = after.splitlines(keepends=True)
    return [x for tag, _a1, _a2, b1, b2 in ops if tag == "insert" for x in lines[b1:b2]]


@pytest.fixture
def casos(tmp_path: Path) -> Path:
    folder = tmp_path / "processos"
    shutil.copytree(PROCESSOS, folder, ignore=shutil.ignore_patterns("esperado.yaml"))
    return folder


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, PublishResult]:
    root = tmp_path_factory.mktemp("pub")
    folder = root / "processos"
    shutil.copytree(PROCESSOS, folder, ignore=shutil.ignore_patterns("esperado.yaml"))
    out = root / "editais"
    return folder, out, publish(out, folder)


# --------------------------------------------------------------------------------------------------
# selection: the timeline decides (data-driven)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_selection_of_each_processo(name: str) -> None:
    expected = EXPECTED[name]
    params = jobs.RunParams(DATA_PUB, DATA_JORNAL, str(ROOT / "rules"), str(ROOT / "templates"), TODAY,
                            VEICULOS, JORNAIS)
    with jobs.inline_engine(str(ROOT / "rules"), str(ROOT / "templates"), TODAY):
        [prepared] = jobs.prepare_many([str(PROCESSOS / name)], params)
    assert prepared.estado == expected["estado"], prepared.motivos
    text = " ".join([prepared.motivo, *prepared.motivos])
    for word in expected["palavras"]:
        assert word in text, text
    assert prepared.processo is not None  # read as a processo, not as an old case file


# --------------------------------------------------------------------------------------------------
# publication: the edital act lands in the processo file, and prazos counts from it


def test_publishes_one_edital_per_law_and_records_it_in_each_processo(
        published: tuple[Path, Path, PublishResult]) -> None:
    folder, _out, result = published
    assert result.erro is None and result.exit_code == 1  # fv-303, 306, 307 refused (listed)
    assert sorted((e.lei, e.numero, e.casos) for e in result.publicados) == [(FERRAZ, 1, 2), (TIMOTEO, 1, 2)]
    assert sorted(Path(f).relative_to(folder).as_posix() for f in result.registrados) == PUBLISHED
    assert result.nao_registrados == []
    refused = {Path(c.arquivo).name for c in result.recusados}
    assert refused == {"fv-303-ar-ausente.yaml", "fv-306-fora-de-ordem.yaml", "fv-307-edital-sem-publicacao.yaml"}
    for name in set(EXPECTED) - set(PUBLISHED):  # the others are left exactly as they were
        assert (folder / name).read_bytes() == (PROCESSOS / name).read_bytes(), name


@pytest.mark.parametrize("name", PUBLISHED)
def test_only_the_edital_act_is_added_to_the_file(published: tuple[Path, Path, PublishResult], name: str) -> None:
    folder, _out, _result = published
    before = (PROCESSOS / name).read_text(encoding="utf-8")
    after = (folder / name).read_text(encoding="utf-8")
    added = inserted(before, after)
    lei = FERRAZ if name.startswith("ferraz") else TIMOTEO
    assert added[0].lstrip().startswith(f"# edital Nº 1/2026 ({lei})")
    assert [x.split(":")[0].strip(" -") for x in added[1:6]] == ["tipo", "numero", "data", "referente", "local"]
    text = "".join(added)
    if lei == TIMOTEO:
        assert ('{data: 2026-10-06, meio: oficial, veiculo: "Diário Oficial Eletrônico do Município de Timóteo"}'
                in text)
        assert "{data: 2026-10-07, meio: jornal, veiculo: \"Jornal Diário do Aço\"}" in text
    else:
        assert "{data: 2026-10-06, meio: oficial, veiculo: \"Quadro de Editais do Paço Municipal\"}" in text
        assert "meio: jornal" not in text  # Ferraz: the official press only (art. 76, III)


def test_clerk_layout_is_kept_and_the_act_goes_after_the_last_one(
        published: tuple[Path, Path, PublishResult]) -> None:
    """fv-302 has items at column 0, flow mappings, a block scalar with a blank line, a trailing comment inside
    the last act (the search for the domicile after the AR came back, Ferraz art. 76, III) and a key after
    ``atos``: the act is inserted after the last act's content, dash at column 0."""
    folder, _out, _result = published
    after = (folder / "ferraz/fv-302-ar-mudou-se.yaml").read_text(encoding="utf-8")
    assert ('matricula: "4.712"}   # quem diligenciou\n'
            "# edital Nº 1/2026 (ferraz-de-vasconcelos-sp/lei-3240-2015)") in after
    assert after.endswith("  # (certidão da diligência juntada em 02/10)\n\n# observações do processo\n"
                          "observacoes: processo acompanhado pela fiscalização de posturas\n")
    assert "\n- tipo: edital\n  numero: \"1/2026\"\n  data: 2026-10-06\n  referente: \"302/2026\"\n" in after


@pytest.mark.parametrize(("name", "efetiva", "prazos"), [
    ("ferraz/fv-302-ar-mudou-se.yaml", date(2026, 10, 13),
     {"recurso_art78": date(2026, 10, 23), "pagamento_art80": date(2026, 10, 29)}),
    ("ferraz/fv-301-domicilio-desconhecido.yaml", date(2026, 10, 13),
     {"recurso_art78": date(2026, 10, 23), "pagamento_art80": date(2026, 10, 29)}),
    ("timoteo/sim-31-pj-local-incerto.yaml", date(2026, 10, 19), {"defesa_art20_p1_v": date(2026, 11, 3)}),
    ("timoteo/sim-32-ar-desconhecido.yaml", date(2026, 10, 19), {"defesa_art20_p1_v": date(2026, 11, 3)}),
])
def test_prazos_shows_the_edital_act_and_its_deadlines(published: tuple[Path, Path, PublishResult], name: str,
                                                      efetiva: date, prazos: dict[str, date]) -> None:
    folder, _out, _result = published
    t = ProcessoService(ROOT / "rules").timeline_of(folder / name, date(2026, 10, 20))
    assert not t.has_errors, [f.mensagem for f in t.achados]
    edital = t.atos[-1]
    assert (edital.tipo, edital.numero, edital.efetiva) == ("edital", "1/2026", efetiva)
    started = {d.id: d.fim for d in t.prazos if d.iniciado_por == edital.indice}
    assert started == prazos
    if "ar-" in name:  # the renotification the returned AR called for is met by the edital
        renot = [d for d in t.prazos if d.id == "renotificacao_lei9784_art24"]
        assert renot and renot[0].cumprido_por == edital.indice


def test_cli_prazos_prints_the_edital(published: tuple[Path, Path, PublishResult]) -> None:
    folder, _out, _result = published
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", "2026-10-20", "prazos",
                                       str(folder / "timoteo/sim-32-ar-desconhecido.yaml")])
    assert result.exit_code == 0, result.output
    assert "edital nº 1/2026, referente a 32/2026" in result.output
    assert "notificação efetiva em 19/10/2026" in result.output
    assert "aguardando defesa até 03/11/2026" in result.output


def test_second_run_changes_nothing(casos: Path, tmp_path: Path) -> None:
    out = tmp_path / "editais"
    first = publish(out, casos)
    assert len(first.registrados) == 4
    before = tree(casos, out)
    again = publish(out, casos)
    assert again.erro is None and again.publicados == [] and again.registrados == []
    assert again.edital_no_processo == 5  # the four published now and fv-308, published before
    assert tree(casos, out) == before  # same bytes, same mtimes: processos, editais, ledger, manifest


# --------------------------------------------------------------------------------------------------
# a run killed between the commit and the processo files: the next run records, publishes nothing again


def _cli(casos: Path, out: Path, fault: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(FAULT_ENV, None)
    if fault:
        env[FAULT_ENV] = fault
    return subprocess.run(
        [sys.executable, "-m", "autos.cli", "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
         "--hoje", TODAY.isoformat(), "publicar-editais", str(casos), "--data", DATA_PUB.isoformat(),
         "--data-jornal", DATA_JORNAL.isoformat(), "-o", str(out), "--processos", "1",
         "--veiculo", "Quadro de Editais do Paço Municipal",
         "--veiculo", "timoteo-mg=Diário Oficial Eletrônico do Município de Timóteo",
         "--jornal", "Jornal Diário do Aço"],
        capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL drill")
@pytest.mark.parametrize(("fault", "recorded_before"), [
    ("commit:1", 0),  # Ferraz's edital committed, no processo file touched yet
    ("registro:1", 1),  # the first processo took its act, the second not
])
def test_killed_between_commit_and_processo_is_completed_by_the_next_run(
        casos: Path, tmp_path: Path, fault: str, recorded_before: int) -> None:
    out = tmp_path / "out"
    killed = _cli(casos, out, fault)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    ferraz = [casos / n for n in PUBLISHED if n.startswith("ferraz")]
    has_act = [("- tipo: edital" in p.read_text(encoding="utf-8")) for p in ferraz]
    assert sum(has_act) == recorded_before
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert next((e.lei, e.estado) for e in led.editais()) == (FERRAZ, "publicado")
    again = _cli(casos, out, None)
    assert again.returncode == 1, again.stderr  # the refused processos (fv-303, 306, 307) are listed
    assert "registrado no processo" in again.stderr and "parou antes de registrá-lo" in again.stderr
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        assert sorted((e.lei, e.numero, e.estado) for e in led.editais()) == [
            (FERRAZ, 1, "publicado"), (TIMOTEO, 1, "publicado")]  # no second number for anyone
    for name in PUBLISHED:
        text = (casos / name).read_text(encoding="utf-8")
        assert text.count("- tipo: edital") == 1, name
        inserted((PROCESSOS / name).read_text(encoding="utf-8"), text)


# --------------------------------------------------------------------------------------------------
# the text insertion itself: what it refuses, and a file edited while it writes


def _act() -> EditalAct:
    return EditalAct("edital", "1/2026", DATA_PUB, "302/2026", "Ferraz de Vasconcelos/SP",
                     ((DATA_PUB, "oficial", "Quadro de Editais do Paço Municipal"),), "edital Nº 1/2026 (teste)")


def test_crlf_bom_and_no_final_newline_are_kept(tmp_path: Path) -> None:
    src = (PROCESSOS / "ferraz/fv-302-ar-mudou-se.yaml").read_text(encoding="utf-8")
    src = src[:src.index("\n  # (AR juntado")].rstrip("\n")  # the file ends in the last act, no line break
    raw = b"\xef\xbb\xbf" + src.replace("\n", "\r\n").encode()
    f = tmp_path / "p.yaml"
    f.write_bytes(raw)
    assert record_edital(f, _act()) is True
    new = f.read_bytes()
    assert new.startswith(raw) and b"\n" not in new.replace(b"\r\n", b"")  # CRLF throughout, BOM kept
    assert new[len(raw):].startswith(b"\r\n# edital")
    assert record_edital(f, _act()) is False and f.read_bytes() == new  # idempotent


def test_flow_style_atos_is_refused_and_nothing_written(tmp_path: Path) -> None:
    src = (PROCESSOS / "ferraz/fv-301-domicilio-desconhecido.yaml").read_text(encoding="utf-8")
    head = src[:src.index("\natos:") + 1]
    f = tmp_path / "p.yaml"
    f.write_text(head + 'atos: [{tipo: auto, numero: "301/2026", data: 2026-09-15}]\n', encoding="utf-8")
    before = f.read_bytes()
    with pytest.raises(RecordError) as info:
        record_edital(f, EditalAct("edital", "1/2026", DATA_PUB, "301/2026", "Ferraz de Vasconcelos/SP",
                                   ((DATA_PUB, "oficial", "Quadro"),), "teste"))
    assert "em linha" in info.value.message and info.value.line is not None
    assert f.read_bytes() == before and list(tmp_path.iterdir()) == [f]


def test_auto_renumbered_since_selection_is_not_recorded(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text((PROCESSOS / "ferraz/fv-302-ar-mudou-se.yaml").read_text(encoding="utf-8")
                 .replace('"302/2026"', '"312/2026"'), encoding="utf-8")
    before = f.read_bytes()
    with pytest.raises(RecordError) as info:
        record_edital(f, _act())
    assert "não tem mais o ato nº 302/2026" in info.value.message
    assert f.read_bytes() == before


def test_file_edited_while_recording_is_left_to_the_clerk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "p.yaml"
    shutil.copy(PROCESSOS / "ferraz/fv-302-ar-mudou-se.yaml", f)
    real = processo_file.read_limited
    calls = []

    def editing(path: Path, *args: object) -> bytes:
        calls.append(path)
        if len(calls) == 2:  # the clerk saves the file between our read and our rename
            Path(path).write_text(Path(path).read_text(encoding="utf-8") + "# editado\n", encoding="utf-8")
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(processo_file, "read_limited", editing)
    with pytest.raises(RecordError) as info:
        record_edital(f, _act())
    assert "mudou enquanto" in info.value.message
    assert f.read_text(encoding="utf-8").endswith("# editado\n") and "tipo: edital" not in f.read_text("utf-8")
    assert list(tmp_path.iterdir()) == [f]  # no temporary file left


def test_publisher_lists_a_processo_it_could_not_record_and_records_it_later(casos: Path, tmp_path: Path) -> None:
    """The edital is published (ledger, files); the processo whose ``atos`` is in flow style is listed (exit 1)
    and left untouched; once the clerk writes it in blocks, the next run records the act, publishing nothing."""
    f = casos / "ferraz/fv-301-domicilio-desconhecido.yaml"
    block = f.read_text(encoding="utf-8")
    head, _, _ = block.partition("\natos:\n")
    head += "\n"
    agente = '{nome: Márcia Regina Tavares, cargo: Agente Fiscal de Posturas, matricula: "4.712"}'
    flow = head + ('atos: [{tipo: notificacao_preliminar, numero: "1190/2026", data: 2026-08-10, hora: "11:05", '
                   f'local: "Rua Benedito Pereira de Moraes, lote 14", agente: {agente}, exigencia: {{descricao: "roçar '
                   'e limpar o terreno", prazo: limpeza_terreno_art4}, penalidades: [{tipo: multa}], assinaturas: '
                   '{autuado: {situacao: assinou, data: 2026-08-10, nome_de_quem_assinou: Roberto Alves de Souza}}}, '
                   '{tipo: auto, numero: "301/2026", data: 2026-09-15, hora: "10:20", referente: "1190/2026", local: '
                   f'"Rua Benedito Pereira de Moraes, lote 14, Ferraz de Vasconcelos/SP", agente: {agente}, '
                   'penalidades: [{tipo: multa}], assinaturas: {autuado: {situacao: ausente}}}, '
                   '{tipo: diligencia, data: 2026-09-18, referente: "301/2026", descricao: "cadastros consultados: '
                   'nenhum endereço"}]\n')
    f.write_text(flow, encoding="utf-8")
    out = tmp_path / "out"
    first = publish(out, casos)
    assert first.erro is None and first.exit_code == 1
    assert [Path(c.arquivo).name for c in first.nao_registrados] == [f.name]
    assert "em linha" in first.nao_registrados[0].motivos[0]
    assert f.read_text(encoding="utf-8") == flow
    f.write_text(block, encoding="utf-8")
    second = publish(out, casos)
    assert second.publicados == [] and [Path(x).name for x in second.registrados] == [f.name]
    assert inserted(block, f.read_text(encoding="utf-8"))[1].strip() == "- tipo: edital"


def test_insert_act_refuses_a_result_that_would_not_read_back(tmp_path: Path) -> None:
    """The inserted text is read back before anything is written: a block that does not parse as the same
    processo plus the act (here a comment with a line break, which the publisher never makes) is refused."""
    src = (PROCESSOS / "ferraz/fv-301-domicilio-desconhecido.yaml").read_text(encoding="utf-8")
    with pytest.raises(RecordError):
        insert_act(src + "    # fim\n", tmp_path / "p.yaml", EditalAct(
            "edital", "1/2026", DATA_PUB, "301/2026", "X", ((DATA_PUB, "oficial", "Q"),), "a\nb: [c"))


# --------------------------------------------------------------------------------------------------
# autos conferir on a processo


def _conferir(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "conferir", *args])
    return result.exit_code, result.output


def _individual(out: Path, lei_dir: str, auto: str) -> Path:
    return next((out / lei_dir).rglob(f"*-auto-{auto}.pdf"))


def test_conferir_processo_and_its_pdf(published: tuple[Path, Path, PublishResult]) -> None:
    folder, out, _result = published
    ledger = str(out / "livro-editais.sqlite3")
    proc = str(folder / "timoteo/sim-32-ar-desconhecido.yaml")
    code, text = _conferir("--processo", proc, "--livro", ledger)
    assert code == 0, text
    assert "CONFERE: o edital Nº 1/2026 registrado no processo" in text and "NÃO CONFERE" not in text
    own = _individual(out, "timoteo-mg", "2026-0032")
    code, text = _conferir(str(own), "--processo", proc, "--livro", ledger)
    assert code == 0 and "deste processo" in text, text
    gazette = next((out / "timoteo-mg").rglob("caderno-*.pdf"))
    assert _conferir(str(gazette), "--processo", proc, "--livro", ledger)[0] == 0
    other = _individual(out, "timoteo-mg", "2026-0031")  # published, but another auto's edital
    code, text = _conferir(str(other), "--processo", proc, "--livro", ledger)
    assert code == 1 and "não é deste processo" in text and "auto nº 31/2026" in text, text
    ferraz = _individual(out, "ferraz-de-vasconcelos-sp", "2026-0302")  # another law's edital
    assert _conferir(str(ferraz), "--processo", proc, "--livro", ledger)[0] == 1


def test_conferir_processo_whose_edital_differs_from_the_ledger(published: tuple[Path, Path, PublishResult],
                                                               tmp_path: Path) -> None:
    folder, out, _result = published
    ledger = str(out / "livro-editais.sqlite3")
    text = (folder / "timoteo/sim-31-pj-local-incerto.yaml").read_text(encoding="utf-8")
    changed = tmp_path / "p.yaml"
    changed.write_text(text.replace("{data: 2026-10-07, meio: jornal", "{data: 2026-10-08, meio: jornal"),
                       encoding="utf-8")
    code, out_text = _conferir("--processo", str(changed), "--livro", ledger)
    assert code == 1 and "diferem das do livro" in out_text and "8 de outubro de 2026" in out_text, out_text
    never = PROCESSOS / "ferraz/fv-303-ar-ausente.yaml"  # never published
    code, out_text = _conferir("--processo", str(never), "--livro", ledger)
    assert code == 1 and "não registra edital publicado" in out_text
    code, out_text = _conferir("--livro", ledger)
    assert code == 2 and "indique o arquivo publicado" in out_text


# --------------------------------------------------------------------------------------------------
# the recorded edital is a valid act of the processo (validar), as the publisher judged it


def test_validar_accepts_the_recorded_edital_after_an_ar_returned_for_unknown_address(
        published: tuple[Path, Path, PublishResult]) -> None:
    """The edital document of the processo reads the domicile as unknown from the AR's return reason
    ('Mudou-se'), as the selection did (Ferraz art. 76, III): validar finds no error in it."""
    from autos.app.generation.pipeline import Autos

    folder, _out, _result = published
    report = Autos(ROOT / "rules", ROOT / "templates", TODAY).validate(folder / "ferraz/fv-302-ar-mudou-se.yaml")
    assert not report.errors, [f.render() for f in report.errors]


def test_validar_refuses_an_edital_after_an_ar_returned_for_absence(tmp_path: Path) -> None:
    """An AR returned 'Ausente' does not show an unknown domicile: an edital typed by hand after it is an error
    with the article (Ferraz art. 76, III), as the publisher refuses it."""
    from autos.app.generation.pipeline import Autos

    src = (PROCESSOS / "ferraz/fv-303-ar-ausente.yaml").read_text(encoding="utf-8")
    f = tmp_path / "p.yaml"
    f.write_text(src + '  - tipo: edital\n    numero: "5/2026"\n    data: 2026-10-06\n    local: Ferraz de '
                 'Vasconcelos/SP\n    referente: "303/2026"\n    publicacoes:\n      - {data: 2026-10-06, meio: '
                 'oficial, veiculo: Quadro de Editais}\n', encoding="utf-8")
    report = Autos(ROOT / "rules", ROOT / "templates", TODAY).validate(f)
    codes = [x.codigo for x in report.errors]
    # the document's element, and the edital's precondition: the letter to the known address came back for a reason
    # that does not show an unknown domicile, and no search for the domicile was made
    assert sorted(codes) == ["EDITAL-SEM-DILIGENCIA", "EDITAL-SEM-TENTATIVA", "FER-76-III-DOMICILIO"], codes
    assert all("art. 76, inciso III" in x.render() for x in report.errors)
    tried = next(x for x in report.errors if x.codigo == "EDITAL-SEM-TENTATIVA")
    assert "voltou por 'Ausente (três tentativas)', motivo que não mostra domicílio desconhecido" in tried.mensagem


def test_cli_takes_several_folders_and_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    before = tree(PROCESSOS)
    result = CliRunner().invoke(main, [
        "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", TODAY.isoformat(),
        "publicar-editais", str(PROCESSOS / "ferraz"), str(PROCESSOS / "timoteo" / "sim-32-ar-desconhecido.yaml"),
        "--data", DATA_PUB.isoformat(), "-o", str(tmp_path / "out"), "--dry-run",
        "--jornal", "timoteo-mg=Jornal Diário do Aço"])  # Timóteo, art. 21, § 3º: the newspaper is named
    assert result.exit_code == 1, result.output  # fv-303, 306 and 307 are refused
    assert f"edital Nº 1/2026 ({FERRAZ}) com 2 casos: auto 301/2026, auto 302/2026" in result.output
    assert f"edital Nº 1/2026 ({TIMOTEO}) com 1 caso: auto 32/2026" in result.output
    assert "casos lidos: 9;" in result.output
    assert tree(PROCESSOS) == before and not (tmp_path / "out").exists()
