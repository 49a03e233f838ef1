"""Bad input: each file gives one Portuguese message with file, YAML path and line (data-driven)."""

from __future__ import annotations

import contextlib
import copy
import errno
import json
import os
import shutil
import threading
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from pydantic import ValidationError

from autos.app.editais import jobs
from autos.app.generation.pipeline import Autos
from autos.app.processo.schemas import case_json_schema
from autos.base.schema import _FALLBACK, _MESSAGES, MAX_COUNT, _message, parse_amount, parse_count
from autos.base.yamlio import MAX_FILE_BYTES, MAX_TEXT_CHARS, parse_yaml
from autos.cli import main
from autos.errors import InputError, RulesError, os_error_pt
from autos.processo.case import Case
from autos.processo.load import load_processo
from autos.processo.load_case import parse_case
from autos.rules.statute import load_rules

from .conftest import DATA

INVALID = DATA / "invalid"
EXPECT = yaml.safe_load((INVALID / "expectations.yaml").read_text(encoding="utf-8"))


def test_every_invalid_fixture_has_an_expectation() -> None:
    files = {p.name for p in INVALID.glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(EXPECT)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_invalid_case_is_refused_with_located_message(autos: Autos, name: str) -> None:
    exp = EXPECT[name]
    with pytest.raises(InputError) as info:
        autos.check(autos.load(INVALID / name))
    err = info.value
    text = str(err)
    assert name in text
    if "linha" in exp:
        assert err.line == exp["linha"], text
        assert f"linha {exp['linha']}" in text
    for words in exp["contem"]:
        assert words in text, f"{words!r} not in {text!r}"


def test_validate_reports_unreadable_case_instead_of_raising(autos: Autos) -> None:
    report = autos.validate(INVALID / "cpf-invalido.yaml")
    assert report.error is not None and not report.ok


def test_missing_rules_folder(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="pasta de regras não encontrada"):
        load_rules(tmp_path / "nao-existe")


def test_unknown_key_in_rules_names_file_key_and_line(tmp_path: Path) -> None:
    src = (DATA.parent.parent / "rules" / "timoteo-mg" / "lei-3844-2022.yaml").read_text(encoding="utf-8")
    broken = src.replace("arredondamento:\n  casas: 2\n", "arredondamento:\n  casas: 2\n  centavos: sim\n")
    folder = tmp_path / "regras" / "timoteo-mg"
    folder.mkdir(parents=True)
    (folder / "lei-3844-2022.yaml").write_text(broken, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "regras")
    text = str(info.value)
    assert "lei-3844-2022.yaml" in text and "campo desconhecido 'centavos'" in text
    assert info.value.line == broken.splitlines().index("  centavos: sim") + 1


def test_duplicate_key_in_rules(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="chave duplicada 'sigla'"):
        parse_yaml("unidade_fiscal:\n  sigla: A\n  sigla: B\n", tmp_path / "x.yaml", RulesError)


def test_plain_scalars_are_kept_as_typed() -> None:
    """YAML 1.1 would turn 14:30 into 870 and 0123 into 83; nothing a user typed is changed."""
    doc = parse_yaml("hora: 14:30\nnumero: 0123\nsim: yes\n", "x.yaml")
    assert doc.data == {"hora": "14:30", "numero": "0123", "sim": "yes"}


@pytest.mark.parametrize(("old", "new", "words"), [
    # Lei 3.844/2022 (Timóteo), arts. 20 § 2º and 21 § 1º: the signature check quotes them from the rules
    ('          recusa: {artigo: "21", paragrafo: "1"}    # recusa certificada na presença de uma testemunha\n', "",
     ["TIM-20-1-VII", "'citacoes'", "'recusa'"]),
    ("          ciencia: {artigo: \"21\"}", "          intimacao: {artigo: \"21\"}", ["citacoes", "intimacao"]),
])
def test_signature_check_needs_its_citations(tmp_path: Path, old: str, new: str, words: list[str]) -> None:
    src = (DATA.parent.parent / "rules" / "timoteo-mg" / "lei-3844-2022.yaml").read_text(encoding="utf-8")
    assert old in src
    folder = tmp_path / "regras" / "timoteo-mg"
    folder.mkdir(parents=True)
    (folder / "lei-3844-2022.yaml").write_text(src.replace(old, new), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "regras")
    for w in words:
        assert w in str(info.value)


# --------------------------------------------------------------------------------------------------
# hostile input: every bad file stops `validar` and `gerar` alike, with exit 2 and Portuguese


HOSTILE = DATA / "hostile"
HOSTILE_CASES = yaml.safe_load((HOSTILE / "casos" / "expectations.yaml").read_text(encoding="utf-8"))
HOSTILE_RULES = yaml.safe_load((HOSTILE / "regras" / "expectations.yaml").read_text(encoding="utf-8"))
ROOT = DATA.parent.parent
CLI_BASE = ["--modelos", str(ROOT / "templates"), "--hoje", "2026-11-29"]
RULES_SAMPLE = DATA / "casos" / "timoteo-mg" / "auto-pf-recusa-testemunha.yaml"

#: wording of the libraries under the loaders; none may reach a user
ENGLISH = ["Traceback", "Error:", "Input should", "unacceptable character", "control characters",
           "not allowed", "Exceeds the limit", "int_max_str_digits", "Datetimes provided", "should have",
           "Value error", "validation error", "errors.pydantic.dev", "found ", "expected ", "while ",
           "maximum", "exceeded", "position ", "<unicode string>", "Overflow", "InvalidOperation",
           "RecursionError", "decimal.Decimal", "Invalid", "invalid", "must be", "cannot"]


def _english(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output  # click >= 8.2: stdout and stderr


def _assert_refused(args: list[str], out_dir: Path | None, exp: dict[str, object], line: int | None) -> None:
    code, out = _run(args)
    assert code == 2, out
    for words in exp["contem"]:  # type: ignore[attr-defined]
        assert words in out, f"{words!r} not in {out!r}"
    if line is not None:
        assert f"linha {line}," in out or f"linha {line}:" in out, out
    assert not _english(out), (_english(out), out)
    if out_dir is not None:
        assert not out_dir.exists() or not any(out_dir.rglob("*")), sorted(out_dir.rglob("*"))


def test_every_hostile_case_has_an_expectation() -> None:
    files = {p.name for p in (HOSTILE / "casos").glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(HOSTILE_CASES)


@pytest.mark.parametrize("command", ["validar", "gerar"])
@pytest.mark.parametrize("name", sorted(HOSTILE_CASES))
def test_hostile_case_exits_2_in_portuguese(autos: Autos, tmp_path: Path, name: str, command: str) -> None:
    exp = HOSTILE_CASES[name]
    file = HOSTILE / "casos" / name
    out_dir = tmp_path / "saida"
    extra = ["-o", str(out_dir)] if command == "gerar" else []
    _assert_refused([*CLI_BASE, "--regras", str(ROOT / "rules"), command, str(file), *extra], out_dir, exp,
                    exp["linha"])
    # the API says the same (file, field, line) as the command line
    with pytest.raises(InputError) as info:
        autos.load(file)
    assert info.value.line == exp["linha"] and name in str(info.value)


HOSTILE_PROCESSOS = yaml.safe_load((HOSTILE / "processos" / "expectations.yaml").read_text(encoding="utf-8"))


def test_every_hostile_processo_has_an_expectation() -> None:
    files = {p.name for p in (HOSTILE / "processos").glob("*.yaml")} - {"expectations.yaml"}
    assert files == set(HOSTILE_PROCESSOS)


@pytest.mark.parametrize("command", ["validar", "gerar", "multa"])
@pytest.mark.parametrize("name", sorted(HOSTILE_PROCESSOS))
def test_hostile_processo_exits_2_in_portuguese(tmp_path: Path, name: str, command: str) -> None:
    exp = HOSTILE_PROCESSOS[name]
    file = HOSTILE / "processos" / name
    out_dir = tmp_path / "saida"
    extra = ["-o", str(out_dir)] if command == "gerar" else []
    _assert_refused([*CLI_BASE, "--regras", str(ROOT / "rules"), command, str(file), *extra], out_dir,
                    {"contem": [name, *exp["contem"]]}, exp["linha"])
    with pytest.raises(InputError) as info:  # the API says the same (file, field, line) as the command line
        load_processo(file)
    assert info.value.line == exp["linha"] and name in str(info.value)


def test_the_night_refuses_a_hostile_processo_with_the_same_message() -> None:
    """``publicar-editais`` reads processos through the same model: the act number has one rule everywhere."""
    params = jobs.RunParams(date(2026, 11, 27), date(2026, 11, 27), str(ROOT / "rules"), str(ROOT / "templates"),
                            date(2026, 11, 29), jornais=(("timoteo-mg", "Jornal Diário do Aço"),))
    files = [HOSTILE / "processos" / name for name in sorted(HOSTILE_PROCESSOS)]
    with jobs.inline_engine(str(ROOT / "rules"), str(ROOT / "templates"), date(2026, 11, 29)):
        prepared = jobs.prepare_many([str(f) for f in files], params)
    for file, done in zip(files, prepared, strict=True):
        with pytest.raises(InputError) as info:
            load_processo(file)
        # the summary prints "recusado: FILE: reason": the reason is the same message without the file again
        assert done.estado == "recusado" and done.motivos == [info.value.render(of_file=str(file))], done.motivos
        assert str(file) not in done.motivos[0] and f"linha {info.value.line}" in done.motivos[0]
        assert not _english(" ".join(done.motivos))


def test_verificar_lists_hostile_processos_and_reports_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "pasta"
    folder.mkdir()
    for name in HOSTILE_PROCESSOS:
        shutil.copy(HOSTILE / "processos" / name, folder / name)
    good = ROOT / "samples" / "processos" / "timoteo-mg" / "sim-2026-000171-sem-defesa.yaml"
    shutil.copy(good, folder / good.name)
    html = tmp_path / "relatorio.html"
    result = CliRunner().invoke(main, [*CLI_BASE, "--regras", str(ROOT / "rules"), "verificar", str(folder),
                                       "--sem-registro", "--json", "--html", str(html)])
    out = result.output
    assert result.exit_code == 2, out
    data = json.loads(result.stdout)
    cases = {Path(c["arquivo"]).name: c for c in data["casos"]}
    assert set(cases) == {*HOSTILE_PROCESSOS, good.name}
    assert data["totais"]["ilegiveis"] == len(HOSTILE_PROCESSOS)
    assert cases[good.name]["situacao"] != "ilegivel" and cases[good.name]["prescricao"] is not None
    page = html.read_text(encoding="utf-8")
    for name, exp in HOSTILE_PROCESSOS.items():
        assert cases[name]["situacao"] == "ilegivel"
        error = cases[name]["erro_de_leitura"]
        assert error["linha"] == exp["linha"], error
        text = f"{error['arquivo']}, linha {error['linha']}, campo '{error['caminho']}': {error['mensagem']}"
        for words in exp["contem"]:
            assert words in text, (words, text)
        assert name in page
    assert not _english(out)


def _hostile_rules(tmp_path: Path, exp: dict[str, object]) -> tuple[Path, int | None]:
    """A copy of rules/ with the change ``exp`` describes; the line the error must name (or None)."""
    folder = tmp_path / "regras"
    shutil.copytree(ROOT / "rules", folder)
    target = folder / str(exp["arquivo"])
    original = target.read_text(encoding="utf-8") if target.exists() else ""
    line = exp.get("linha")
    if "substituir" in exp:
        old, new = exp["substituir"]  # type: ignore[misc]
        assert old in original
        target.write_text(original.replace(old, new, 1), encoding="utf-8")
        line = original[:original.index(old)].count("\n") + 1
    elif "acrescentar_de" in exp:
        extra = (HOSTILE / "regras" / str(exp["acrescentar_de"])).read_text(encoding="utf-8")
        target.write_text(original + extra, encoding="utf-8")
        line = len(original.splitlines()) + int(exp["linha_apos_original"])  # type: ignore[call-overload]
    elif "conteudo_de" in exp:
        target.write_text((HOSTILE / "regras" / str(exp["conteudo_de"])).read_text(encoding="utf-8"),
                          encoding="utf-8")
    elif exp.get("pipe"):
        os.mkfifo(target)
    return folder, line  # type: ignore[return-value]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
@pytest.mark.parametrize("command", ["validar", "gerar"])
@pytest.mark.parametrize("name", sorted(HOSTILE_RULES))
def test_hostile_rules_exit_2_in_portuguese(tmp_path: Path, name: str, command: str, shipped_examples: None) -> None:
    # the rules file alone (no official values: the fiscal-unit values of the test municipalities would replace
    # the hostile ones of the years they set)
    exp = HOSTILE_RULES[name]
    folder, line = _hostile_rules(tmp_path, exp)
    out_dir = tmp_path / "saida"
    extra = ["-o", str(out_dir)] if command == "gerar" else []
    done = threading.Event()
    if exp.get("pipe"):  # should the pipe be opened (the bug), unblock it after a while: fail, don't hang
        threading.Thread(target=_unblock_pipe, args=(folder / str(exp["arquivo"]), done), daemon=True).start()
    try:
        _assert_refused([*CLI_BASE, "--regras", str(folder), command, str(RULES_SAMPLE), *extra], out_dir, exp,
                        line)
        code, out = _run([*CLI_BASE, "--regras", str(folder), "validar", str(RULES_SAMPLE)])
        assert code == 2 and "[ERRO" not in out  # the rules' fault is not reported as a finding of the case
    finally:
        done.set()


def _unblock_pipe(fifo: Path, done: threading.Event) -> None:
    while not done.wait(20):
        with contextlib.suppress(OSError):  # OSError: nobody is reading it
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # a reader blocked in open() gets EOF


def test_file_larger_than_the_bound_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "grande.yaml"
    text = RULES_SAMPLE.read_text(encoding="utf-8")
    big.write_text(text + "observacoes: >-\n" + ("  " + "x" * 98 + "\n") * (MAX_FILE_BYTES // 100 + 1),
                   encoding="utf-8")
    assert big.stat().st_size > MAX_FILE_BYTES
    for command in ("validar", "gerar"):
        _assert_refused([*CLI_BASE, "--regras", str(ROOT / "rules"), command, str(big), "-o",
                         str(tmp_path / "saida")][: None if command == "gerar" else -2],
                        tmp_path / "saida", {"contem": ["grande.yaml", "o limite é 1.048.576 bytes"]}, None)


def test_word_line_break_is_a_line_break(autos: Autos, tmp_path: Path) -> None:
    """``\\v`` (Word's Shift+Enter, as a YAML escape) is read as ``\\n``: the same case as with ``\\n``."""
    text = RULES_SAMPLE.read_text(encoding="utf-8")
    start = text.index("fatos: >-\n")
    end = text.index("infracoes:")
    word = text[:start] + 'fatos: "Linha um\\vLinha dois"\n' + text[end:]
    plain = text[:start] + 'fatos: "Linha um\\nLinha dois"\n' + text[end:]
    a, b = parse_case(word, "word.yaml"), parse_case(plain, "plain.yaml")
    assert a.case.fatos == "Linha um\nLinha dois" == b.case.fatos
    ra, rb = autos.check(a), autos.check(b)
    assert [(f.codigo, f.mensagem) for f in ra.findings] == [(f.codigo, f.mensagem) for f in rb.findings]


@pytest.mark.parametrize(("value", "ok"), [
    ("1500", True), ("1500.5", True), ("-3", True), ("0012.2500", True), (" 800 ", True),
    ("999999999999.9999", True), ("1000000000000", False), ("1500.00001", False), ("1e3", False),
    ("1_000", False), ("NaN", False), ("Infinity", False), ("", False), ("1.", False), (".5", False),
])
def test_amount_notation(value: str, ok: bool) -> None:
    if ok:
        assert parse_amount(value) == Decimal(value.strip())
    else:
        with pytest.raises(ValueError):
            parse_amount(value)


def test_amount_refuses_floats_and_booleans() -> None:
    for value in (1500.5, True, None, [1]):
        with pytest.raises(ValueError):
            parse_amount(value)
    assert parse_amount(Decimal("2.5")) == Decimal("2.5") and parse_amount(7) == Decimal(7)
    with pytest.raises(ValueError):
        parse_amount(Decimal("1E+5000"))


def test_count_bounds() -> None:
    assert parse_count("999999") == MAX_COUNT
    for value in ("1000000", "9" * 5000, "1.0", "2e3", "dez"):
        with pytest.raises(ValueError):
            parse_count(value)


@pytest.mark.parametrize("kind", sorted(_MESSAGES))
def test_every_mapped_pydantic_error_is_portuguese(kind: str) -> None:
    """Each error type the converter maps gives Portuguese even with pydantic's usual context (or none)."""
    ctx = {"max_length": 5, "min_length": 1, "gt": 0, "ge": 0, "lt": 9, "le": 9, "multiple_of": 2,
           "max_digits": 3, "decimal_places": 2, "whole_digits": 1, "pattern": "x", "expected": "'a' or 'b'",
           "tag": "x", "expected_tags": "'a', 'b'", "discriminator": "'tipo'", "error": "x"}
    for context in (ctx, {}):
        err = {"type": kind, "loc": ("x",), "msg": "Input should be English", "input": "abc", "ctx": context}
        text = _message(err, "x", Case)
        assert text and "Input should" not in text and "{" not in text, (kind, text)


def test_unmapped_pydantic_error_never_shows_english() -> None:
    err = {"type": "url_parsing", "loc": ("x",), "msg": "Input should be a valid URL", "input": "a"}
    assert _message(err, "x", Case) == _FALLBACK


def test_the_error_types_users_can_meet_are_all_mapped() -> None:
    """Feed the case model the wrong thing for each kind of field and collect the error types pydantic
    produces: each must be one the converter maps (or handles: missing, extra, literal, value_error)."""
    handled = set(_MESSAGES) | {"missing", "extra_forbidden", "literal_error", "value_error", "assertion_error"}
    base = yaml.safe_load(RULES_SAMPLE.read_text(encoding="utf-8"))
    wrong: list[tuple[tuple[str | int, ...], object]] = [
        (("lavratura", "data"), "2026-02-30"), (("lavratura", "data"), "2026-04-09 10:30"),
        (("lavratura", "data"), ["x"]), (("lavratura", "hora"), "25:99"), (("lavratura",), "texto"),
        (("autuado", "primario"), "talvez"), (("autuado", "nome"), ["a"]), (("autuado", "uf"), "mg"),
        (("autuado", "tipo"), "robo"), (("infracoes",), "x"), (("infracoes", 0, "periodo"), "1.5"),
        (("penalidades", 0, "valor_base"), "x" * 30), (("fatos",), "x" * 20001), (("numero",), "17-2026"),
        (("notificacao", "forma"), "pombo"), (("assinaturas", "testemunhas"), {"a": 1}),
        (("autuado", "cpf"), "1"), (("infracoes", 0), {"complemento": "x"}),
    ]
    seen: set[str] = set()
    for path, value in wrong:
        data = copy.deepcopy(base)
        node = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        try:
            Case.model_validate(data)
        except ValidationError as exc:
            seen |= {e["type"] for e in exc.errors()}
    assert seen, "no error produced"
    assert seen <= handled, seen - handled


def test_json_schema_states_the_bounds() -> None:
    schema = json.dumps(case_json_schema())
    assert f'"maxLength": {MAX_TEXT_CHARS}' in schema
    assert "\\\\d{1,12}(\\\\.\\\\d{1,4})?" in schema
    assert f'"maximum": {MAX_COUNT}' in schema
    assert '"pattern": "^(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}$"' in schema  # the years of a date


def test_os_errors_are_told_in_portuguese() -> None:
    # one table for reading (yamlio), writing (output) and the publisher
    assert os_error_pt(PermissionError(errno.EACCES, "Permission denied")) == "sem permissão"
    assert os_error_pt(OSError(errno.ENOSPC, "No space left on device")) == "disco cheio: não há espaço para gravar"
    assert os_error_pt(OSError(errno.ECONNRESET, "Connection reset")) == f"erro do sistema nº {errno.ECONNRESET}"


def test_directory_given_as_a_case(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="é uma pasta"):
        Autos(ROOT / "rules", ROOT / "templates").load(tmp_path)


def test_crlf_and_bom_files_read_as_the_same_case(autos: Autos, tmp_path: Path) -> None:
    """Files are read as bytes (to bound their size): Windows line ends and a UTF-8 BOM change nothing."""
    raw = RULES_SAMPLE.read_bytes()
    windows = tmp_path / "windows.yaml"
    windows.write_bytes(b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"))
    assert autos.load(windows).case == autos.load(RULES_SAMPLE).case


@pytest.mark.parametrize("quando", ["{campo: ato.forma}", "{campo: ato.forma, igual: edital, diferente: edital}"])
def test_element_condition_needs_exactly_one_comparison(tmp_path: Path, quando: str) -> None:
    src = (DATA.parent.parent / "rules" / "timoteo-mg" / "lei-3844-2022.yaml").read_text(encoding="utf-8")
    old = "quando: {campo: ato.forma, diferente: edital}"
    assert old in src
    folder = tmp_path / "regras" / "timoteo-mg"
    folder.mkdir(parents=True)
    (folder / "lei-3844-2022.yaml").write_text(src.replace(old, f"quando: {quando}", 1), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "regras")
    assert "lei-3844-2022.yaml" in str(info.value) and "exatamente um de 'igual' ou 'diferente'" in str(info.value)
