"""``autos servir``: the TOML configuration (defaults, paths relative to the file, errors naming the file and the key)
and the real server started by the command (uvicorn, by name), answering on loopback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.app import server as server_module
from autos.app.server import CONFIG_ENV, config_from_environment, default_config, default_workers, load_config
from autos.cli import main
from autos.errors import InputError

from ..conftest import ROOT, SAMPLES
from ..procs import free_port


def test_defaults_are_the_samples_and_their_register_on_loopback() -> None:
    c = default_config()
    assert c.processos == SAMPLES / "processos" and c.registro == SAMPLES / "processos" / "registro.sqlite3"
    assert (c.host, c.porta, c.cookie_seguro, c.hoje) == ("127.0.0.1", 8000, False, None)
    assert c.chave_arquivo == SAMPLES / "processos" / "registro.sqlite3.chave-web"
    assert c.documentos_pasta == SAMPLES / "processos" / "documentos-emitidos"


def test_config_file_paths_relative_to_it_and_departments(tmp_path: Path) -> None:
    (tmp_path / "dados").mkdir()
    file = tmp_path / "web.toml"
    file.write_text('[servidor]\nhost = "0.0.0.0"\nporta = 8080\ncookie_seguro = true\nsessao_horas = 1.5\n'
                    'proxies = ["10.0.0.1", "10.0.0.2"]\nchave = "segredo"\n'
                    '[dados]\nprocessos = "dados"\nhoje = 2026-11-30\ndocumentos = "emitidos"\n'
                    '[departamentos]\n"Posturas" = ["ferraz-de-vasconcelos-sp/lei-3240-2015"]\n', encoding="utf-8")
    c = load_config(file, porta=9000)
    assert c.processos == tmp_path / "dados" and c.registro == tmp_path / "dados" / "registro.sqlite3"
    assert (c.host, c.porta, c.cookie_seguro, c.sessao_horas, c.hoje) == ("0.0.0.0", 9000, True, 1.5,
                                                                            date(2026, 11, 30))
    assert c.proxies == ("10.0.0.1", "10.0.0.2") and c.chave_arquivo == tmp_path / "segredo"
    assert c.documentos_pasta == tmp_path / "emitidos"
    assert c.leis_do_departamento("Posturas") == ("ferraz-de-vasconcelos-sp/lei-3240-2015",)
    assert c.leis_do_departamento(None) == ()


@pytest.mark.parametrize(("text", "words"), [
    ("[servidor]\nportas = 1\n", ["chave desconhecida em [servidor]: 'portas'", "porta"]),
    ("[banco]\nx = 1\n", ["seção desconhecida: [banco]"]),
    ('[servidor]\nporta = "oito mil"\n', ["valor de tipo errado em [servidor] porta"]),
    ("[servidor]\nporta = 70000\n", ["porta fora de 1–65535"]),
    ("[servidor]\ncookie_seguro = 1\n", ["valor de tipo errado em [servidor] cookie_seguro"]),
    ("[servidor]\nporta = true\n", ["valor de tipo errado em [servidor] porta"]),
    ("[servidor\n", ["não é TOML válido"]),
    ('[dados]\nprocessos = "nao-existe"\n', ["a pasta dos processos não existe"]),
    ('[dados]\nhoje = "30/11/2026"\n', ["data inválida", "AAAA-MM-DD"]),
    ('[departamentos]\n"Posturas" = "ferraz"\n', ["deve ter uma lista de leis"]),
])
def test_bad_config_names_the_file_and_the_key(tmp_path: Path, text: str, words: list[str]) -> None:
    file = tmp_path / "web.toml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_config(file)
    message = str(err.value)
    assert str(file) in message or "web.toml" in message
    for w in words:
        assert w in message
    result = CliRunner().invoke(main, ["servir", "--config", str(file)])  # the command stops before serving
    assert result.exit_code == 2 and words[0] in result.output and "Traceback" not in result.output


def test_the_workers_read_the_config_and_the_overrides_from_the_environment(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "p").mkdir()
    file = tmp_path / "web.toml"
    file.write_text('[dados]\nprocessos = "p"\n', encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(file))
    monkeypatch.setenv("AUTOS_WEB_PORTA", "8123")
    monkeypatch.setenv("AUTOS_WEB_HOJE", "2026-11-30")
    monkeypatch.setenv("AUTOS_WEB_MODELOS", str(ROOT / "templates"))
    c = config_from_environment()
    assert (c.processos, c.porta, c.hoje, c.modelos) == (tmp_path / "p", 8123, date(2026, 11, 30), ROOT / "templates")


def test_worker_processes_default_to_the_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without processos_de_trabalho, the render pool has one process per core this process may run on (a
    preview renders one PDF at a time per process); the config file's value wins when given. autos servir runs ONE
    uvicorn process whatever the value: uvicorn's workers would each keep the connections they accepted."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 2, 5})  # 3 cores allowed (taskset, cgroup)
    assert default_workers() == 3
    assert default_config().processos_de_trabalho == 3
    (tmp_path / "p").mkdir()
    file = tmp_path / "web.toml"
    file.write_text('[dados]\nprocessos = "p"\n', encoding="utf-8")
    assert load_config(file).processos_de_trabalho == 3
    file.write_text('[servidor]\nprocessos_de_trabalho = 1\n[dados]\nprocessos = "p"\n', encoding="utf-8")
    assert load_config(file).processos_de_trabalho == 1
    started: dict[str, object] = {}
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.update(kw, app=app))
    for name in ("AUTOS_WEB_HOST", "AUTOS_WEB_PORTA", "AUTOS_WEB_REGRAS", "AUTOS_WEB_MODELOS", "AUTOS_WEB_HOJE",
                 CONFIG_ENV):
        monkeypatch.delenv(name, raising=False)
    server_module.serve(None)
    assert started.get("workers", 1) == 1 and started["app"] == "autos.web.app:app_from_environment"
    server_module.serve(file)
    assert started.get("workers", 1) == 1


def _worker_children(pid: int) -> int:
    """How many of ``pid``'s child processes are multiprocessing workers (uvicorn's, started with spawn)."""
    count = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            count += b"spawn_main" in cmdline
    return count


def test_autos_servir_answers_on_loopback(tmp_path: Path) -> None:
    """The command starts uvicorn with the application (by name, as its workers would), one worker process per core
    by default, and serves the sign-in page; bounded: gives up after 60 s."""
    (tmp_path / "processos").mkdir()
    config = tmp_path / "web.toml"
    config.write_text('[dados]\nprocessos = "processos"\n', encoding="utf-8")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTOS_")}
    server = subprocess.Popen([sys.executable, "-m", "autos.cli", "servir", "--config", str(config), "--porta",
                               str(port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        body = ""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/entrar", timeout=5) as r:
                    body = r.read().decode("utf-8")
                    headers = r.headers
                break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None:
                    break
                time.sleep(0.3)
        assert "Entrar" in body, server.stdout.read() if server.poll() is not None else "sem resposta"
        assert "content-security-policy" in {k.lower() for k in headers}
        assert "server" not in {k.lower() for k in headers}  # uvicorn's Server header is off
        assert (tmp_path / "processos" / "registro.sqlite3").is_file()  # the register was created
        if default_workers() > 1:  # one uvicorn worker per core (one process serving itself otherwise)
            assert _worker_children(server.pid) == default_workers()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
