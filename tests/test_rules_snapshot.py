"""Rules validated once and kept on disk between runs (rules/snapshot.py): a later run with the same files unpickles
what the first built, and says exactly what the first said; any changed byte — a rules file, the official values,
the code — is read and validated again, so a broken file is refused every time; a damaged, foreign or disabled
cache only costs time. Each run is a new interpreter: the point is what one process leaves for the next."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import OFFICIAL_VALUES, ROOT, SAMPLES

PROCESSO = SAMPLES / "processos" / "timoteo-mg" / "sim-2026-000142-pj-completo.yaml"

# One run of ``autos validar --json``, counting the YAML files the run parsed (the processo's and the rules').
_PROBE = """
import json, sys
import autos.base.yamlio as yamlio
parsed = []
original = yamlio.parse_yaml
def counting(text, file, *args, **kwargs):
    parsed.append(str(file))
    return original(text, file, *args, **kwargs)
yamlio.parse_yaml = counting
from autos.cli import main
try:
    main(sys.argv[1:], standalone_mode=True)
except SystemExit as exc:
    code = exc.code
print("\\n" + json.dumps({"parsed": parsed, "exit": code}))
"""


def _run(rules: Path, cache: str | None, *args: str, home: Path | None = None) -> tuple[dict[str, object], str]:
    env = dict(os.environ)
    env.pop("AUTOS_CACHE", None)
    if cache is not None:
        env["AUTOS_CACHE"] = cache
    if home is not None:
        env["HOME"] = str(home)
        env.pop("XDG_CACHE_HOME", None)
    proc = subprocess.run([sys.executable, "-c", _PROBE, "--regras", str(rules), "--hoje", "2026-11-30", *args],
                          capture_output=True, text=True, env=env, timeout=120)
    head, _, last = proc.stdout.rstrip().rpartition("\n")
    return json.loads(last), head + proc.stderr


def _rules_parsed(probe: dict[str, object], rules: Path) -> list[str]:
    parsed = probe["parsed"]
    assert isinstance(parsed, list)
    return [p for p in parsed if p.startswith(str(rules))]


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", folder, ignore=shutil.ignore_patterns("*.txt"))
    return folder


def test_a_second_run_reads_no_rules_file_and_says_what_the_first_said(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold, cold_out = _run(rules, str(cache), "validar", "--json", str(PROCESSO))
    assert cold["exit"] == 0, cold_out
    assert len(_rules_parsed(cold, rules)) >= 6  # the three laws, then Timóteo's calendar, deadlines, authorities …
    kept = sorted(p.name.split("-")[0] for p in (cache / "regras").glob("*.pickle"))
    assert "lei" in kept and "calendario.yaml" in kept and "autoridades.yaml" in kept
    warm, warm_out = _run(rules, str(cache), "validar", "--json", str(PROCESSO))
    assert warm["exit"] == 0
    assert _rules_parsed(warm, rules) == []  # only the processo itself is read
    assert warm["parsed"] == [str(PROCESSO)]
    assert warm_out == cold_out
    off, off_out = _run(rules, "0", "validar", "--json", str(PROCESSO))
    assert off_out == cold_out and len(_rules_parsed(off, rules)) >= len(_rules_parsed(cold, rules))


def test_every_sample_says_the_same_from_the_cache_as_from_the_files(tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    folder = str(SAMPLES / "processos")
    for args in (["validar", "--json", folder], ["pendencias", "--json", folder], ["prazos", str(PROCESSO)]):
        _, from_files = _run(ROOT / "rules", "0", *args)
        _, first = _run(ROOT / "rules", cache, *args)
        _, kept = _run(ROOT / "rules", cache, *args)
        assert from_files == first == kept, args


def test_a_changed_rules_file_is_read_again_and_a_broken_one_refused_on_every_run(rules: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    _run(rules, cache, "validar", str(PROCESSO))
    calendar = rules / "timoteo-mg" / "calendario.yaml"
    text = calendar.read_text(encoding="utf-8")
    calendar.write_text(text + "\nchave_desconhecida: 1\n", encoding="utf-8")
    for _ in range(2):
        broken, out = _run(rules, cache, "validar", str(PROCESSO))
        assert broken["exit"] != 0
        assert "chave_desconhecida" in out and "calendario.yaml" in out
        assert str(calendar) in _rules_parsed(broken, rules)
    calendar.write_text(text, encoding="utf-8")  # back as it was: the first run's results serve again
    again, _ = _run(rules, cache, "validar", str(PROCESSO))
    assert again["exit"] == 0 and _rules_parsed(again, rules) == []


def test_other_official_values_are_another_key(rules: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    official = tmp_path / "oficiais"
    shutil.copytree(OFFICIAL_VALUES, official)
    env_before = os.environ.get("AUTOS_VALORES_OFICIAIS")
    os.environ["AUTOS_VALORES_OFICIAIS"] = str(official)
    try:
        first, out_first = _run(rules, cache, "validar", str(PROCESSO))
        file = official / "timoteo-mg" / "valores-oficiais.yaml"
        file.write_text(file.read_text(encoding="utf-8") + "\n# revisado\n", encoding="utf-8")
        changed, out_changed = _run(rules, cache, "validar", str(PROCESSO))
    finally:
        if env_before is None:
            os.environ.pop("AUTOS_VALORES_OFICIAIS")
        else:
            os.environ["AUTOS_VALORES_OFICIAIS"] = env_before
    assert first["exit"] == changed["exit"] == 0 and out_first == out_changed
    assert any(p.startswith(str(rules / "timoteo-mg")) for p in _rules_parsed(changed, rules))


def test_a_damaged_or_foreign_cache_file_is_not_read(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold, out = _run(rules, str(cache), "validar", str(PROCESSO))
    files = sorted((cache / "regras").glob("lei-*.pickle"))
    assert files
    for f in files:
        f.write_bytes(b"not a pickle")
    damaged, damaged_out = _run(rules, str(cache), "validar", str(PROCESSO))
    assert damaged["exit"] == cold["exit"] == 0 and damaged_out == out
    assert len([p for p in _rules_parsed(damaged, rules) if p.endswith("/lei-3844-2022.yaml")]) == 1  # read again
    assert all(f.read_bytes() != b"not a pickle" for f in files)  # and kept again
    for f in (cache / "regras").glob("*.pickle"):
        f.chmod(0o666)  # anyone may write it: it is not trusted
    foreign, foreign_out = _run(rules, str(cache), "validar", str(PROCESSO))
    assert foreign_out == out and len(_rules_parsed(foreign, rules)) >= len(_rules_parsed(cold, rules)) > 0


def test_the_cache_is_private_to_the_user_in_the_home_folder_and_off_writes_nothing(rules: Path,
                                                                                     tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for off in ("0", "off", "não"):
        probe, _ = _run(rules, off, "validar", str(PROCESSO), home=home)
        assert probe["exit"] == 0
    assert list(home.iterdir()) == []
    probe, _ = _run(rules, None, "validar", str(PROCESSO), home=home)
    folder = home / ".cache" / "autos" / "regras"
    assert probe["exit"] == 0 and list(folder.glob("lei-*.pickle"))
    assert folder.stat().st_mode & 0o777 == 0o700
