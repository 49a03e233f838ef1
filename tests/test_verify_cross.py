"""``autos verificar`` across processos: duplicate numbers, acts citing missing acts, the same
facts filed twice, the register's processos and reserved numbers, and the prescription of the punitive claim per
law — every expected date worked out by hand in the fixture's header comment (``tests/data/prescricao/``) from the
Decreto nº 20.910/1932 (arts. 1º, 8º and 9º), the Súmula 383 do STF and the Lei nº 810/1949 (arts. 1º to 3º)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app.generation.pipeline import Autos
from autos.app.register.service import rebuild_folder
from autos.app.verification.verify import verification_html, verification_text, verify
from autos.cli import main
from autos.compute.prescription import add_months
from autos.errors import RulesError
from autos.rules.statute import load_rules
from autos.store.register import Register

from .conftest import DATA, ROOT, TODAY

PRESC = DATA / "prescricao"
CROSS = DATA / "cruzado"
LAWS = ("timoteo-mg/lei-3844-2022", "ferraz-de-vasconcelos-sp/lei-3240-2015", "cuiaba-mt/lei-3666-1997")


def _autos(hoje: date) -> Autos:
    return Autos(ROOT / "rules", ROOT / "templates", today=hoje)


def _cli(*args: str, hoje: str = "2026-11-29") -> tuple[int, str]:
    r = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
                                  "--hoje", hoje, *args])
    return r.exit_code, r.stdout if "--json" in args else r.output


# --- counting years and months (Lei nº 810/1949) -------------------------------------------------------
@pytest.mark.parametrize(("start", "months", "end"), [
    (date(2022, 1, 10), 60, date(2027, 1, 10)),  # art. 1º: to the same day and month of the fifth year
    (date(2024, 2, 29), 60, date(2029, 3, 1)),  # art. 3º: 29/02/2029 does not exist → the first day after
    (date(2024, 8, 31), 30, date(2027, 3, 1)),  # art. 3º: 31/02/2027 does not exist → 01/03/2027
    (date(2024, 1, 31), 1, date(2024, 3, 1)),  # art. 2º and 3º: 31/02/2024 does not exist → 01/03/2024
    (date(2026, 10, 1), 30, date(2029, 4, 1)),  # half of the five years (Decreto 20.910/1932, art. 9º)
    (date(2026, 12, 15), 1, date(2027, 1, 15)),  # across the year
])
def test_add_months_lei_810_1949(start: date, months: int, end: date) -> None:
    assert add_months(start, months) == end


# --- the rules ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lei", LAWS)
def test_every_law_records_its_prescription_choice(lei: str) -> None:
    st = load_rules(ROOT / "rules").get(lei)
    p = st.prescricao
    assert p is not None and p.anos == 5 and p.conta_de == "infracao"
    assert "Decreto nº 20.910/1932, art. 1º" in p.base_legal
    assert p.interrupcao is not None and p.interrupcao.recomeca_meses == 30  # half of 60 months (art. 9º)
    choice = next(i for i in st.interpretacoes if i.id == p.interpretacao)
    for words in ("20.910/1932", "9.873/1999", "Federal",
                  "Súmula 383", "art. 8º", "art. 4º", "810/1949"):
        assert words in choice.escolha, words
    assert "omissa" in choice.problema


def _rules_copy(tmp_path: Path, old: str, new: str) -> Path:
    root = tmp_path / "regras"
    shutil.copytree(ROOT / "rules", root)
    f = root / "cuiaba-mt" / "lei-3666-1997.yaml"
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


@pytest.mark.parametrize(("old", "new", "words"), [
    ("\n  decisoes:", "\n  meses: 60\n  decisoes:", ["prescricao", "meses"]),
    ("prescricao:\n  anos: 5\n", "prescricao:\n  anos: 0\n", ["prescricao", "anos"]),
    ("  interpretacao: prescricao-punitiva", "  interpretacao: prescricao-outra", ["prescricao-outra"]),
])
def test_strict_loader_refuses_a_bad_prescription_block(tmp_path: Path, old: str, new: str,
                                                        words: list[str]) -> None:
    with pytest.raises(RulesError) as exc:
        load_rules(_rules_copy(tmp_path, old, new))
    for w in words:
        assert w in str(exc.value)


def test_prescription_naming_an_act_the_rite_lacks_is_a_rules_error(tmp_path: Path) -> None:
    root = _rules_copy(tmp_path, "  decisoes: [julgamento, decisao_recurso]", "  decisoes: [sentenca]")
    with pytest.raises(RulesError) as exc:
        verify(Autos(root, ROOT / "templates", today=TODAY), [PRESC / "cuiaba-sumula-383.yaml"], use_register=False)
    assert "sentenca" in str(exc.value) and "prescricao" in str(exc.value)


# --- the prescription, per law (dates by hand in each fixture's header) ----------------------------------
#: file, reference date, state, last day, finding code (None: no finding of prescription), words it must contain
PRESCRIPTION = [
    # Timóteo: notice after half the term → 30 more months from it (Decreto 20.910/1932, arts. 8º and 9º)
    ("timoteo-interrompida-na-segunda-metade.yaml", "2026-11-29", "em curso", "2029-04-01", None, []),
    ("timoteo-interrompida-na-segunda-metade.yaml", "2029-03-02", "em curso", "2029-04-01", "PRESCRICAO-PROXIMA",
     ["prescreve em 1º de abril de 2029", "daqui a 30 dias", "interrompida em 1º de outubro de 2026 pelo ato 3"]),
    ("timoteo-interrompida-na-segunda-metade.yaml", "2029-04-01", "em curso", "2029-04-01", "PRESCRICAO-PROXIMA",
     ["daqui a 0 dias"]),  # the last day is still in time
    ("timoteo-interrompida-na-segunda-metade.yaml", "2029-04-02", "prescrita", "2029-04-01", "PRESCRICAO-CONSUMADA",
     ["prescreveu em 1º de abril de 2029", "infração de 10 de janeiro de 2022", "sem decisão definitiva"]),
    # Timóteo: the notice came after the five years (01/03/2027): nothing to interrupt; the appeal's decision of
    # 20/10/2027 came too late (Decreto 20.910/1932, art. 1º)
    ("timoteo-decidida-depois-de-prescrita.yaml", "2027-12-01", "decidida depois de prescrita", "2027-03-01",
     "PRESCRICAO-ANTES-DA-DECISAO", ["prescreveu em 1º de março de 2027", "antes da decisão definitiva (ato 8, de "
                                     "20 de outubro de 2027)"]),
    # Ferraz: the auto applies the fine (art. 78); an appeal pending → no final decision; notice after half
    ("ferraz-recurso-pendente.yaml", "2026-11-29", "em curso", "2029-03-01", None, []),
    ("ferraz-recurso-pendente.yaml", "2029-03-02", "prescrita", "2029-03-01", "PRESCRICAO-CONSUMADA",
     ["prescreveu em 1º de março de 2029", "infração de 31 de janeiro de 2024",
      "interrompida em 1º de setembro de 2026 pelo ato 3"]),
    ("ferraz-auto-sem-recurso.yaml", "2026-11-29", "exercida", "2031-11-20", None, []),
    # Cuiabá: notice before half → the five years stand (Súmula 383 do STF); 31/08/2024 + 5 years
    ("cuiaba-sumula-383.yaml", "2026-11-29", "em curso", "2029-08-31", None, []),
    ("cuiaba-sumula-383.yaml", "2029-03-15", "em curso", "2029-08-31", "PRESCRICAO-PROXIMA",
     ["prescreve em 31 de agosto de 2029", "daqui a 169 dias"]),
    ("cuiaba-sumula-383.yaml", "2029-09-01", "prescrita", "2029-08-31", "PRESCRICAO-CONSUMADA",
     ["prescreveu em 31 de agosto de 2029", "interrompida em 18 de novembro de 2026"]),
    ("cuiaba-recurso-exercida.yaml", "2026-11-29", "exercida", "2031-08-10", None, []),
]


@pytest.mark.parametrize(("name", "hoje", "situacao", "fim", "code", "words"), PRESCRIPTION,
                         ids=[f"{p[0]}@{p[1]}" for p in PRESCRIPTION])
def test_prescription_per_law(name: str, hoje: str, situacao: str, fim: str, code: str | None,
                              words: list[str]) -> None:
    with verify(_autos(date.fromisoformat(hoje)), [PRESC / name], use_register=False) as v:
        (case,) = list(v.casos)
    p = case.dados["prescricao"]
    assert (p["situacao"], p["data"]) == (situacao, fim)
    found = [f for f in case.dados["achados"] if f["codigo"].startswith("PRESCRICAO")]
    if code is None:
        assert found == []
        return
    (f,) = found
    assert f["codigo"] == code
    assert f["severidade"] == ("aviso" if code == "PRESCRICAO-PROXIMA" else "erro")
    assert "Decreto nº 20.910/1932, art. 1º" in f["citacao"]
    for w in words:
        assert w in f["mensagem"], (w, f["mensagem"])
    # nothing else is wrong with the fixture: the finding is the prescription's
    assert [g["codigo"] for g in case.dados["achados"] if g["severidade"] == "erro"] in ([], [code])


def test_open_processos_show_the_date_in_text_json_and_html() -> None:
    with verify(_autos(TODAY), [PRESC], use_register=False) as v:
        text = verification_text(v)
        html = verification_html(v, ROOT / "templates")
    line = ("prescrição da pretensão punitiva em 01/04/2029 — sem decisão que aplique a penalidade (5 anos da "
            "infração de 10/01/2022, interrompida em 01/10/2026 pelo ato 3;")
    assert line in text and line in html
    assert "prescrição da pretensão punitiva em 31/08/2029" in text
    # a processo decided in time does not clutter the text (the JSON has it)
    assert "prescrição da pretensão punitiva em 10/08/2031" not in text
    _, out = _cli("verificar", str(PRESC), "--json", "--sem-registro")
    doc = json.loads(out)
    by_file = {Path(c["arquivo"]).name: c["prescricao"] for c in doc["casos"]}
    assert by_file["cuiaba-recurso-exercida.yaml"]["data"] == "2031-08-10"
    assert by_file["cuiaba-recurso-exercida.yaml"]["decisao_definitiva_ato"] == 11  # after the rescue payment and the despacho


# --- across processos: fixture folders, each with the findings it must give ------------------------------
#: folder → (code, severity, words) expected; an empty list: no finding across processos
CROSS_CASES: dict[str, list[tuple[str, str, list[str]]]] = {
    "numero-repetido": [("CRUZ-NUMERO-REPETIDO", "erro", ["21/2026", "sim-a.yaml", "sim-b.yaml", "lá escrito 021/2026",
                                                          "SIM-2026/000171", "SIM-2026/000901"])],
    "processo-repetido": [("CRUZ-PROCESSO-REPETIDO", "erro", ["FV-2026/0520", "a.yaml", "b.yaml"])],
    "citado-ausente": [("CRUZ-ATO-CITADO-AUSENTE", "erro", ["999/2026", "nem nos 2 arquivos verificados",
                                                            "auto de infração ou decisão do recurso"])],
    "em-outro-processo": [("CRUZ-ATO-EM-OUTRO-PROCESSO", "erro", ["520/2026", "notificacao.yaml", "auto.yaml",
                                                                  "processo FV-2026/0520"])],
    "mesmos-fatos": [("CRUZ-MESMOS-FATOS", "aviso", ["animal-solto", "10 de agosto de 2026", "no mesmo local",
                                                     "ccz-77.yaml", "ccz-177.yaml"])],
    "mesmos-fatos-outro-local": [],
    "caso-antigo-auto-ausente": [("CRUZ-ATO-CITADO-AUSENTE", "erro", ["20/2026", "notificacao-ar-mel.yaml",
                                                                      "auto.numero"])],
}


@pytest.mark.parametrize("folder", sorted(CROSS_CASES))
def test_cross_findings(folder: str) -> None:
    with verify(_autos(TODAY), [CROSS / folder], use_register=False) as v:
        got = [(f.codigo, f.severidade, f"{f.arquivo}: {f.render()}") for f in v.cruzados]
        text = verification_text(v)
        code = v.exit_code()
    expected = CROSS_CASES[folder]
    assert [(c, s) for c, s, _ in got] == [(c, s) for c, s, _ in expected], got
    for (_, _, rendered), (_, _, words) in zip(got, expected, strict=True):
        for w in words:
            assert w in rendered, (w, rendered)
    assert "Entre processos (sem registro: só os arquivos verificados)" in text
    if any(s == "erro" for _, s, _ in expected):
        assert code == 1
        assert "INCOMPLETO" in text


def test_cross_findings_in_json_and_html_and_exit_code() -> None:
    code, out = _cli("verificar", str(CROSS / "numero-repetido"), "--json", "--sem-registro")
    assert code == 1
    doc = json.loads(out)
    (f,) = doc["entre_processos"]
    assert f["codigo"] == "CRUZ-NUMERO-REPETIDO" and f["linha"] is not None and f["caminho"] == "atos[0].numero"
    assert doc["registros"] == []
    assert any(c["codigo"] == "CRUZ-NUMERO-REPETIDO" for c in doc["por_codigo"])
    with verify(_autos(TODAY), [CROSS / "numero-repetido"], use_register=False) as v:
        html = verification_html(v, ROOT / "templates")
    assert "CRUZ-NUMERO-REPETIDO" in html and "Entre processos" in html and "sim-b.yaml" in html


def test_only_warnings_across_processos_do_not_fail_the_folder() -> None:
    code, out = _cli("verificar", str(CROSS / "mesmos-fatos"), "--sem-registro")
    assert code == 0, out
    assert "CRUZ-MESMOS-FATOS" in out


# --- with the register ---------------------------------------------------------------------------------------
def _register_setup(tmp_path: Path) -> tuple[Path, Path]:
    """tmp/outros/sim-a.yaml indexed in tmp/registro.sqlite3; tmp/verificar/sim-b.yaml (auto 021/2026) to verify."""
    (tmp_path / "outros").mkdir()
    (tmp_path / "verificar").mkdir()
    shutil.copy(CROSS / "numero-repetido" / "sim-a.yaml", tmp_path / "outros")
    shutil.copy(CROSS / "numero-repetido" / "sim-b.yaml", tmp_path / "verificar")
    reg = tmp_path / "registro.sqlite3"
    rebuild_folder(tmp_path / "outros", reg)
    return reg, tmp_path / "verificar"


def test_register_found_beside_the_folder_brings_the_other_processos(tmp_path: Path) -> None:
    reg, folder = _register_setup(tmp_path)
    code, out = _cli("verificar", str(folder))
    assert code == 1, out
    assert f"Entre processos (com o registro {reg.resolve()})" in out
    assert "CRUZ-NUMERO-REPETIDO" in out and "(processo SIM-2026/000171, no registro)" in out
    assert str(tmp_path / "outros" / "sim-a.yaml") in out
    # without it: only the file given, nothing across
    code, out = _cli("verificar", str(folder), "--sem-registro")
    assert code == 0, out
    assert "CRUZ-NUMERO-REPETIDO" not in out


def test_register_given_and_a_gone_file_is_left_out(tmp_path: Path) -> None:
    reg, folder = _register_setup(tmp_path)
    moved = tmp_path / "registro-copia.sqlite3"
    shutil.copy(reg, moved)
    reg.unlink()
    code, out = _cli("verificar", str(folder), "--registro", str(moved))
    assert code == 1 and "CRUZ-NUMERO-REPETIDO" in out, out
    (tmp_path / "outros" / "sim-a.yaml").unlink()  # the register still indexes it: a stale entry is not a finding
    code, out = _cli("verificar", str(folder), "--registro", str(moved))
    assert code == 0, out
    assert "CRUZ-NUMERO-REPETIDO" not in out


def test_a_file_read_now_wins_over_its_own_register_entry(tmp_path: Path) -> None:
    reg, _ = _register_setup(tmp_path)
    code, out = _cli("verificar", str(tmp_path / "outros"), "--registro", str(reg))
    assert code == 0, out  # sim-a.yaml is read and indexed: not a duplicate of itself
    assert "nenhum achado" in out


def test_register_reserved_numbers_cancelled_and_for_another(tmp_path: Path) -> None:
    folder = tmp_path / "verificar"
    folder.mkdir()
    shutil.copy(CROSS / "numero-repetido" / "sim-b.yaml", folder)
    reg = tmp_path / "registro.sqlite3"
    with Register.open(reg, create=True) as r:
        for _ in range(20):
            r.reserve("timoteo-mg/lei-3844-2022", "auto", 2026)
        r.reserve("timoteo-mg/lei-3844-2022", "auto", 2026)  # 21/2026
        r.cancel("timoteo-mg/lei-3844-2022", "auto", 21, 2026, "auto lavrado em papel, anulado")
    code, out = _cli("verificar", str(folder), "--registro", str(reg))
    assert code == 1, out
    assert "REG-NUMERO-CANCELADO" in out and "auto lavrado em papel, anulado" in out


def test_unusable_register_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "registro.sqlite3"
    bad.write_bytes(b"isto nao e um banco sqlite" * 100)
    code, out = _cli("verificar", str(CROSS / "numero-repetido"), "--registro", str(bad))
    assert code == 2
    assert "registro" in out


def test_the_checker_on_disk_finds_what_the_checker_in_memory_finds() -> None:
    """``autos verificar`` keeps what the checks across files need on disk (SpooledCrossChecker, memory flat): the
    same findings, in the same order, as the checker in memory, on every folder of tests/data/cruzado read together
    (each file also added twice, so that every kind of group has files from several folders)."""
    from autos.app.verification.cross import SpooledCrossChecker
    from autos.app.verification.verify import check_case
    from autos.checks.cross import CrossChecker

    autos = _autos(TODAY)
    filed = [c.filed for p in sorted(CROSS.rglob("*.yaml")) if (c := check_case(autos, p)).filed is not None]
    memory, disk = CrossChecker(), SpooledCrossChecker()
    for f in [*filed, *(dataclasses.replace(f, arquivo=f.arquivo + ".copia") for f in filed)]:
        memory.add(f)
        disk.add(f)
    try:
        got = disk.findings()
    finally:
        disk.close()
    assert got == memory.findings()
    assert {f.codigo for f in got} >= {"CRUZ-NUMERO-REPETIDO", "CRUZ-PROCESSO-REPETIDO", "CRUZ-MESMOS-FATOS",
                                       "CRUZ-ATO-EM-OUTRO-PROCESSO"}
