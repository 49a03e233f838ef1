"""The register and the ledger on PostgreSQL: explicit migrations, a schema from a newer
version, a database never migrated, an unreachable server, wrong credentials — each a Portuguese message naming the
database with its password masked, exit 2, nothing written; the URL's password never printed; the publication and
``autos conferir`` with ``--banco``. Needs the server binaries (skipped without them unless
``AUTOS_POSTGRES_OBRIGATORIO=1``)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from autos.cli import main
from autos.errors import RegisterError
from autos.store.banco import components
from autos.store.database import DatabaseUrl, mask_url
from autos.store.register import Register

from . import pg
from .conftest import ROOT

BASE = ["--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"), "--hoje", "2026-11-30"]
TIM = "timoteo-mg/lei-3844-2022"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args], env=env)
    return result.exit_code, result.output


def _empty_database(cluster: pg.Cluster, *, collation: str = "C") -> str:
    name = f"vazio{cluster.new_database()}"
    cluster.sql(f"CREATE DATABASE {name} TEMPLATE template0 LOCALE '{collation}' ENCODING 'UTF8'")
    return name


def test_masked_url_hides_the_password() -> None:
    assert mask_url("postgresql://autos:s3gr3d0@db:5432/autos") == "postgresql://autos:***@db:5432/autos"
    assert mask_url("postgresql://autos@db/autos?password=x&sslmode=require") == \
        "postgresql://autos@db/autos?password=***&sslmode=require"
    assert "s3gr3d0" not in str(DatabaseUrl("postgresql://autos:s3gr3d0@db/autos"))
    code, out = run("registro", "numeros", "--banco", "mysql://autos:s3gr3d0@db/autos")
    assert code == 2 and "não é o endereço de um banco PostgreSQL" in out and "s3gr3d0" not in out


def test_banco_and_registro_typed_together_are_refused(tmp_path: Path) -> None:
    code, out = run("registro", "numeros", "--banco", "postgresql://a@b/c", "--registro", str(tmp_path / "r.sqlite3"))
    assert code == 2 and "--banco" in out and "--registro" in out and "use um só" in out
    # the variable yields to the option typed
    code, out = run("registro", "numeros", "--registro", str(tmp_path / "nao-existe.sqlite3"),
                    env={"AUTOS_BANCO": "postgresql://a@b/c"})
    assert code == 2 and "o registro não existe" in out


def test_migrar_creates_then_says_nothing_to_do_and_records_each_step(pg_cluster: pg.Cluster) -> None:
    db = _empty_database(pg_cluster)
    url = pg_cluster.url(db)
    code, out = run("banco", "versao", "--banco", url)
    assert code == 1 and "registro: formato 0 no banco" in out and "rode autos banco migrar" in out
    # never migrated: every command says to run the migration, nothing created
    code, out = run("registro", "numeros", "--banco", url)
    assert code == 2 and "não tem as tabelas do autos" in out and "autos banco migrar" in out
    assert pg.PASSWORD not in out and "autos:***@" in out
    assert pg_cluster.sql("SELECT to_regclass('numeros') IS NULL", db) == "t"
    code, out = run("banco", "migrar", "--banco", url)
    assert code == 0, out
    versions = {c.name: c.version for c in components()}
    assert f"registro: criado no formato {versions['registro']}" in out
    assert f"livro: criado no formato {versions['livro']}" in out and pg.PASSWORD not in out
    recorded = pg_cluster.sql("SELECT componente || ':' || versao FROM schema_migrations "
                              "ORDER BY componente, versao", db).split()
    assert recorded == [f"livro:{n}" for n in range(1, versions["livro"] + 1)] + \
        [f"registro:{n}" for n in range(1, versions["registro"] + 1)]
    code, out = run("banco", "migrar", "--banco", url)
    assert code == 0 and "(já estava)" in out
    code, out = run("banco", "versao", "--banco", url, env={"AUTOS_BANCO": ""})
    assert code == 0 and f"registro: formato {versions['registro']} no banco, {versions['registro']} nesta versão" \
        in out
    code, out = run("numerar", TIM, "--ato", "auto", "--banco", url)
    assert code == 0 and "reservado: auto nº 1/2026" in out
    # AUTOS_BANCO alone: every command uses the database
    code, out = run("numerar", TIM, "--ato", "auto", env={"AUTOS_BANCO": url, "AUTOS_REGISTRO": ""})
    assert code == 0 and "reservado: auto nº 2/2026" in out


def test_an_old_schema_is_migrated_by_the_command_keeping_the_numbers(pg_cluster: pg.Cluster) -> None:
    """A database at the register's format 1 (before the web application's tables): refused until ``autos banco
    migrar``, which brings it to the current format (every step since) and keeps every reserved number."""
    from autos.store import register_schema

    db = _empty_database(pg_cluster)
    url = pg_cluster.url(db)
    statements = ["CREATE TABLE schema_migrations (componente TEXT NOT NULL, versao INTEGER NOT NULL, "
                  "aplicada_em TEXT NOT NULL, PRIMARY KEY (componente, versao))",
                  *register_schema._SCHEMA,
                  "INSERT INTO schema_migrations VALUES ('registro', 1, '2026-01-01T00:00:00-03:00')",
                  "INSERT INTO numeros (lei, tipo, ano, numero, estado, reservado_em) "
                  f"VALUES ('{TIM}', 'auto', 2026, 1, 'reservado', '2026-01-01T00:00:00-03:00')"]
    pg_cluster.sql(";\n".join(statements), db)
    code, out = run("numerar", TIM, "--ato", "auto", "--banco", url)
    assert code == 2 and "está no formato 1" in out and "autos banco migrar" in out
    code, out = run("banco", "migrar", "--banco", url)
    assert code == 0 and f"registro: formato 1 → {register_schema.SCHEMA_VERSION}" in out, out
    code, out = run("numerar", TIM, "--ato", "auto", "--banco", url)
    assert code == 0 and "reservado: auto nº 2/2026" in out


def test_a_schema_from_a_newer_version_is_refused_with_nothing_written(pg_cluster: pg.Cluster) -> None:
    db = pg_cluster.new_database()
    url = DatabaseUrl(pg_cluster.url(db))
    pg_cluster.sql("INSERT INTO schema_migrations VALUES ('registro', 99, '2030-01-01T00:00:00-03:00')", db)
    for args in (["numerar", TIM, "--ato", "auto"], ["registro", "numeros"], ["banco", "migrar"]):
        code, out = run(*args, "--banco", url.url)
        assert code == 2, (args, out)
        assert "versão mais nova do autos" in out and "formato 99" in out and "atualize o autos" in out
        assert pg.PASSWORD not in out and url.masked in out
    code, out = run("banco", "versao", "--banco", url.url)
    assert code == 2 and "registro: formato 99 no banco" in out
    assert pg_cluster.sql("SELECT count(*) FROM numeros", db) == "0"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when this returns: nobody listens there


@pytest.mark.parametrize("kind", ["servidor fora do ar", "senha errada", "usuário inexistente", "banco inexistente"])
def test_unusable_database_is_a_portuguese_error_naming_it_masked(pg_cluster: pg.Cluster, kind: str,
                                                                   tmp_path: Path) -> None:
    url = {
        "servidor fora do ar": f"postgresql://autos:{pg.PASSWORD}@127.0.0.1:{_closed_port()}/autos",
        "senha errada": pg_cluster.url(pg.TEMPLATE, password="errada-123"),
        "usuário inexistente": pg_cluster.url(pg.TEMPLATE, user="ninguem"),
        "banco inexistente": pg_cluster.url("nao_existe"),
    }[kind]
    words = {
        "servidor fora do ar": "não aceitou a conexão",
        "senha errada": "recusou o usuário ou a senha",
        "usuário inexistente": "recusou o usuário ou a senha",
        "banco inexistente": "o banco não existe no servidor",
    }[kind]
    masked = mask_url(url)
    for args in (["numerar", TIM, "--ato", "auto"], ["registro", "reconstruir", str(tmp_path)],
                 ["publicar-editais", str(tmp_path), "--data", "2026-10-06", "-o", str(tmp_path / "saida")],
                 ["banco", "migrar"]):
        code, out = run(*args, "--banco", url)
        assert code == 2, (args, out)
        assert words in out and masked in out, (args, out)
        assert "não foi possível conectar" in out or "migração" in out or "conectar" in out
        assert "Traceback" not in out
        password = url.split(":")[2].split("@")[0]
        assert password not in out, out
    assert not (tmp_path / "saida" / "livro-editais.sqlite3").exists()


def test_register_opened_from_python_names_the_masked_url(pg_cluster: pg.Cluster) -> None:
    url = DatabaseUrl(pg_cluster.url(pg.TEMPLATE, password="errada-123"))
    with pytest.raises(RegisterError) as err:
        Register.open(url)
    assert "errada-123" not in str(err.value) and url.masked in str(err.value)


def test_migrar_refuses_a_database_that_does_not_sort_byte_by_byte(pg_cluster: pg.Cluster) -> None:
    locales = pg_cluster.sql("SELECT collname FROM pg_collation WHERE collname LIKE 'en_US%' OR collname LIKE "
                             "'pt_BR%' LIMIT 1")
    if not locales:
        pytest.skip("nenhuma localidade além de C neste servidor")
    try:
        db = _empty_database(pg_cluster, collation=locales)
    except Exception:
        pytest.skip(f"localidade {locales} indisponível para CREATE DATABASE")
    code, out = run("banco", "migrar", "--banco", pg_cluster.url(db))
    assert code == 2 and "byte a byte" in out and "LOCALE 'C'" in out
    assert pg_cluster.sql("SELECT to_regclass('schema_migrations') IS NULL", db) == "t"


# --------------------------------------------------------------------------------------------------
# the publication on PostgreSQL: worker processes forked from the coordinator, a kill -9 drill, conferir


def test_a_forked_child_never_ends_nor_keeps_the_coordinators_session(pg_cluster: pg.Cluster) -> None:
    """A child forked while the ledger holds the run lock detaches from the connection at once: closing the
    ledger in the child (or its exit) does not end the parent's session, and once the parent closes its
    connection the lock is free although the child lives on."""
    import os

    from autos.store.ledger import Ledger

    url = DatabaseUrl(pg_cluster.url(pg_cluster.new_database()))
    led = Ledger(url)
    led.lock()
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.close(go_w)
        led.close()  # what an exiting worker's finalizers would do: must not reach the parent's session
        os.write(ready_w, b"1")
        os.read(go_r, 1)
        os._exit(0)
    os.close(ready_w)
    os.close(go_r)
    try:
        assert os.read(ready_r, 1) == b"1"
        assert led.editais() == []  # the parent's session is alive
        other = Ledger(url)
        with pytest.raises(Exception, match="outra execução"):
            other.lock()
        led.close()
        other.lock()  # the child is alive and holds nothing
        other.close()
    finally:
        os.write(go_w, b"1")
        os.close(go_w)
        os.close(ready_r)
        os.waitpid(child, 0)


def test_kill_9_of_the_coordinator_then_the_next_run_completes_without_duplicates(pg_cluster: pg.Cluster,
                                                                                  tmp_path: Path) -> None:
    """The runbook's drill on PostgreSQL: the coordinator SIGKILLs itself after reserving an edital, its workers
    rendering; its session (and the run lock) ends with it; the next run, from another "machine" (a process with
    the same --banco), finishes that edital; nothing is published twice."""
    import hashlib
    import os
    import signal
    import subprocess

    from autos.app.editais.faults import FAULT_ENV
    from autos.store.ledger import Ledger

    from .procs import group, until
    from .test_publish_hardening import _cli_args, _two_timoteo

    url = DatabaseUrl(pg_cluster.url(pg_cluster.new_database()))
    casos, out = _two_timoteo(tmp_path), tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k not in ("AUTOS_LIVRO", "AUTOS_BANCO")}
    proc = subprocess.Popen([*_cli_args(casos, out), "--banco", url.url], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**env, FAULT_ENV: "reserva:1"},
                            start_new_session=True)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == -signal.SIGKILL, err
    with Ledger(url, readonly=True) as led:
        assert [e.estado for e in led.editais()] == ["reservado"]
    until(lambda: not group(proc.pid), "os processos de renderização terminarem depois do principal", 30)
    again = subprocess.run([*_cli_args(casos, out), "--banco", url.url], capture_output=True, text=True, env=env,
                           timeout=180, check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    assert pg.PASSWORD not in again.stdout + again.stderr
    with Ledger(url, readonly=True) as led:
        assert led.problems() == []
        (edital,) = led.editais()
        assert (edital.numero, edital.estado, [c.auto_numero for c in edital.casos]) == (
            1, "publicado", ["31/2026", "32/2026"])
        for f in edital.arquivos:
            assert hashlib.sha256((edital.saida / f.caminho).read_bytes()).hexdigest() == f.sha256
        pdf = next(f for f in edital.arquivos if f.tipo == "edital_individual_pdf")
    assert not list(out.rglob("*.tmp"))
    # conferir with --banco: the published file is found in the ledger of the database
    code, text = run("conferir", str(edital.saida / pdf.caminho), "--banco", url.url)
    assert code == 0 and "CONFERE" in text and "edital Nº 1/2026" in text, text
    # a third run publishes nothing
    third = subprocess.run([*_cli_args(casos, out), "--banco", url.url], capture_output=True, text=True, env=env,
                           timeout=180, check=False)
    assert third.returncode == 0, third.stdout + third.stderr
    with Ledger(url, readonly=True) as led:
        assert len(led.editais()) == 1



def test_accounts_and_the_web_configuration_on_the_database(pg_cluster: pg.Cluster, tmp_path: Path) -> None:
    """``autos usuarios`` with --banco, and ``[dados] banco`` of ``autos servir``'s configuration: the accounts
    live in the database, the web application's register is the database."""
    from autos.app.server import load_config

    url = pg_cluster.url(pg_cluster.new_database())
    code, out = run("usuarios", "criar", "ana", "--papel", "admin", "--nome", "Ana Lima", "--banco", url,
                    env={"AUTOS_SENHA": "uma senha longa de teste"})
    assert code == 0 and "conta criada: ana" in out and pg.PASSWORD not in out, out
    code, out = run("usuarios", "listar", "--banco", url)
    assert code == 0 and out.startswith("ana\tAna Lima\tadmin"), out
    (tmp_path / "processos").mkdir()
    config = tmp_path / "web.toml"
    config.write_text(f'[dados]\nprocessos = "processos"\nbanco = "{url}"\n', encoding="utf-8")
    web = load_config(config)
    assert web.registro_local == DatabaseUrl(url)
    with Register.open(web.registro_local, readonly=True) as reg:
        assert [u.login for u in reg.users_all()] == ["ana"]
    config.write_text('[dados]\nprocessos = "processos"\nbanco = "sqlite:///x"\n', encoding="utf-8")
    with pytest.raises(Exception, match=r"dados\.banco"):
        load_config(config)


def test_each_component_numbers_its_migrations_without_a_gap() -> None:
    """Step 1 is the tables, then 2, 3…: the SQLite format (``user_version``) and the PostgreSQL one
    (``schema_migrations``) are the same number, so a migration added later (one more ``_MIGRATIONS`` entry and
    ``SCHEMA_VERSION`` raised) reaches both backends."""
    from autos.store import ledger_schema, register_schema

    for module, component in ((register_schema, "registro"), (ledger_schema, "livro")):
        steps = {1, *module._MIGRATIONS}
        assert sorted(steps) == list(range(1, module.SCHEMA_VERSION + 1)), module.__name__
        (c,) = [c for c in components() if c.name == component]
        assert c.version == module.SCHEMA_VERSION and sorted(c.steps) == sorted(steps)
