"""A throw-away PostgreSQL cluster for the tests (Debian's server binaries): ``initdb`` into a temporary folder,
started on a free loopback port with its unix socket in that folder and ``fsync=off``, one template database
migrated once, and a fresh database copied from it for each test (so pytest-xdist workers and tests never share
rows). As root (CI) the server runs as the ``postgres`` system user (``runuser``), as PostgreSQL refuses root.

Host connections need a password (``scram-sha-256``: the tests of wrong credentials need it to be checked); the
superuser ``autos`` has :data:`PASSWORD`."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .procs import free_port

#: CI sets it: without the server binaries the PostgreSQL tests fail instead of being skipped
REQUIRED_ENV = "AUTOS_POSTGRES_OBRIGATORIO"
PASSWORD = "segredo-de-teste"
USER = "autos"
TEMPLATE = "autos_modelo"


def bindir() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: Debian's newest version, else ``pg_config --bindir``, else PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and (Path(out) / "initdb").is_file():
            return Path(out)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class Cluster:
    folder: Path
    bin: Path
    port: int
    as_user: list[str] = field(default_factory=list)
    _n: itertools.count[int] = field(default_factory=itertools.count)

    def url(self, db: str, *, password: str = PASSWORD, user: str = USER) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{db}"

    def _run(self, *cmd: str) -> None:
        subprocess.run([*self.as_user, *cmd], check=True, capture_output=True, text=True, cwd=self.folder)

    def sql(self, statement: str, db: str = "postgres") -> str:
        out = subprocess.run([*self.as_user, str(self.bin / "psql"), "-h", str(self.folder), "-p", str(self.port),
                              "-U", USER, "-d", db, "-v", "ON_ERROR_STOP=1", "-At", "-c", statement],
                             check=True, capture_output=True, text=True, cwd=self.folder)
        return out.stdout.strip()

    def new_database(self) -> str:
        name = f"t{os.getpid()}_{next(self._n)}"
        self.sql(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return name

    def restart(self) -> None:
        """``pg_ctl restart`` (fast shutdown): every client connection ends, as in a maintenance or a failover."""
        # the log file again: without it the new server would write to (and hold open) this call's output pipes
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast", "-w", "-t", "60", "-l",
                  str(self.folder / "log"), "restart")

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                        "stop"], capture_output=True, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster(*, durable: bool = False) -> Cluster:
    """initdb + pg_ctl start + the migrated template (``RuntimeError`` with the server's log if it fails).
    ``durable``: fsync and synchronous commits on, as a production server (the benchmark); the tests run without."""
    from autos.store.banco import migrate
    from autos.store.database import DatabaseUrl

    pg = bindir()
    if pg is None:
        raise FileNotFoundError("initdb")
    folder = Path(tempfile.mkdtemp(prefix="autos-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    os.chmod(folder, 0o755)
    pwfile = folder / "pw"
    pwfile.write_text(PASSWORD + "\n")
    if as_user:
        shutil.chown(pwfile, "postgres")
    port = free_port()
    cluster = Cluster(folder, pg, port, as_user)
    try:
        cluster._run(str(pg / "initdb"), "-D", str(folder / "data"), "-U", USER, "--pwfile", str(pwfile),
                     "--auth-local=trust", "--auth-host=scram-sha-256", "--locale=C", "-E", "UTF8", "--no-sync")
        opts = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=60"
        if not durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        cluster._run(str(pg / "pg_ctl"), "-D", str(folder / "data"), "-o", opts, "-w", "-t", "60", "-l",
                     str(folder / "log"), "start")
        cluster.sql(f"CREATE DATABASE {TEMPLATE}")
        migrate(DatabaseUrl(cluster.url(TEMPLATE)))
    except (subprocess.CalledProcessError, Exception) as exc:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").is_file() else ""
        detail = exc.stderr if isinstance(exc, subprocess.CalledProcessError) else str(exc)
        cluster.stop()
        raise RuntimeError(f"PostgreSQL não subiu: {detail}\n{log}") from None
    return cluster
