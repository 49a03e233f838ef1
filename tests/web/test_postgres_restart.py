"""The web application on PostgreSQL outlives a restart of the database server it shares with the
register and the ledger. Each request thread keeps its connection between requests; a restart (maintenance, a
failover) ends them all. The next request opens a new one instead of failing until ``autos servir`` is restarted."""

from __future__ import annotations

from pathlib import Path

from autos.app.register import accounts
from autos.app.server import load_config
from autos.store.database import DatabaseUrl
from autos.store.register import Register
from autos.web.app import create_app

from .. import pg
from .conftest import ACCOUNTS, CONFIG, OWN, SENHA, WebEnv, sign_in


def test_requests_go_on_after_the_database_server_restarts(pg_cluster: pg.Cluster, tmp_path: Path) -> None:
    url = pg_cluster.url(pg_cluster.new_database())
    (tmp_path / "processos" / "timoteo-mg").mkdir(parents=True)
    (tmp_path / "processos" / OWN).write_bytes((Path(__file__).parents[2] / "samples" / "processos" / OWN).read_bytes())
    (tmp_path / "web.toml").write_text(CONFIG.replace("[dados]\n", f'[dados]\nbanco = "{url}"\n', 1),
                                       encoding="utf-8")
    config = load_config(tmp_path / "web.toml")
    assert config.registro_local == DatabaseUrl(url)
    with Register.open(config.registro_local) as reg:
        accounts.create_user(reg, "ana", SENHA, departamentos=tuple(config.departamentos), **ACCOUNTS["ana"])
    env = WebEnv(tmp_path / "processos", config, create_app(config))
    browser = env.client("ana")  # signing in reads the account from the database
    assert browser.get(f"/processo/{OWN}").status_code == 200

    pg_cluster.restart()

    page = browser.get(f"/processo/{OWN}")  # the session is read from the database again, on a new connection
    assert page.status_code == 200, page.text
    assert "SIM-2026/000171" in page.text or "000171" in page.text
    other = env.client()
    sign_in(other, "ana")  # and a new sign-in, too
    assert other.get(f"/processo/{OWN}").status_code == 200
