"""``autos publicar-editais --dask`` against a separately started ``dask scheduler`` and ``dask worker`` (subprocesses
on loopback, free ports, the worker in a folder of its own): the run, a worker of another autos version refused
before any number is reserved, the scheduler killed mid-run (exit 2, the next run completes), and a coordinator
killed after reserving (the next ``--dask`` run finishes the reserved edital).

In the same xdist group as tests/test_dask_publish.py: one cluster at a time."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from autos.app.editais.faults import FAULT_ENV
from autos.store.ledger import Ledger

from .conftest import ROOT, TODAY
from .dask_cases import assert_invariants, make_cases, runbook_env
from .procs import free_port, state, until
from .test_publish import DATA_JORNAL, DATA_PUB

pytestmark = [pytest.mark.xdist_group("dask"),
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kill drills read /proc")]


RUNBOOK_ENV = runbook_env()


def test_the_runbook_environment_sets_the_worker_config_the_coordinator_checks() -> None:
    """docs/runbook-distribuido.md's DASK_ lines are autos.app.batch.cluster.WORKER_CONFIG, as Dask reads them."""
    import dask

    from autos.app.batch.cluster import WORKER_CONFIG

    read = dask.config.collect_env(RUNBOOK_ENV)
    assert {key: dask.config.get(key, config=read) for key in WORKER_CONFIG} == WORKER_CONFIG
    assert len(RUNBOOK_ENV) == len(WORKER_CONFIG)


@dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    worker: subprocess.Popen[bytes] | None = None


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert proc.poll() is None, "the scheduler exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("the scheduler did not open its port")


def _stop(proc: subprocess.Popen[bytes] | None) -> None:
    """End a process this test started, with its children (its own session: ``start_new_session``)."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _start(tmp: Path, *, runbook_env: bool = True) -> Cluster:
    """A scheduler and one worker, as separate processes; the worker with the runbook's Dask settings unless
    ``runbook_env`` is false (Dask's defaults: the statistical profiler on)."""
    port = free_port()
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    _wait_port(port, scheduler)
    cluster = Cluster(f"tcp://127.0.0.1:{port}", scheduler)
    workdir = tmp / "trabalhador"
    workdir.mkdir(exist_ok=True)  # not the coordinator's folder: every path it gets must be absolute
    cluster.worker = subprocess.Popen(  # configured as the runbook's deployment (/etc/autos/ambiente)
        [sys.executable, "-m", "distributed.cli.dask_worker", cluster.address, "--nworkers", "1", "--nthreads", "1",
         "--host", "127.0.0.1", "--no-dashboard", "--local-directory", str(workdir)],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, **(RUNBOOK_ENV if runbook_env else {})})
    return cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """One scheduler and worker for the tests that leave them running (the one that kills its scheduler starts its
    own, :func:`own_cluster`)."""
    c = _start(tmp_path_factory.mktemp("cluster"))
    try:
        yield c
    finally:
        _stop(c.worker)
        _stop(c.scheduler)


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = _start(tmp_path)
    try:
        yield c
    finally:
        _stop(c.worker)
        _stop(c.scheduler)


def _cmd(casos: Path, out: Path, address: str | None) -> list[str]:
    return [sys.executable, "-m", "autos.cli", "--regras", str(ROOT / "rules"), "--modelos", str(ROOT / "templates"),
            "--hoje", TODAY.isoformat(), "publicar-editais", str(casos), "--data", DATA_PUB.isoformat(),
            "--data-jornal", DATA_JORNAL.isoformat(), "--jornal", "Jornal Diário do Aço", "-o", str(out),
            "--max-por-edital", "1", *(["--dask", address] if address else ["--processos", "1"])]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != FAULT_ENV}
    env["AUTOS_DASK_ESPERA"] = "20"
    env.update(extra)
    return env


def _run(casos: Path, out: Path, address: str | None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cmd(casos, out, address), capture_output=True, text=True, env=_env(**env), timeout=240,
                          check=False)


def _editais(out: Path) -> list[tuple[str, int, str]]:
    with Ledger(out / "livro-editais.sqlite3", readonly=True) as led:
        return [(e.lei.split("/")[0], e.numero, e.estado) for e in led.editais()]


def test_separate_scheduler_and_worker_publish(cluster: Cluster, tmp_path: Path) -> None:
    casos, out = make_cases(tmp_path / "casos", ferraz=2, timoteo=1), tmp_path / "out"
    done = _run(casos, out, cluster.address)
    assert done.returncode == 1, done.stderr  # the malformed file is refused, the others published
    assert "renderização no cluster Dask" in done.stdout + done.stderr
    assert "perfilador" not in done.stderr  # the worker runs with the runbook's settings: no warning
    assert_invariants(out, 3)
    again = _run(casos, out, cluster.address)
    assert again.returncode == 1 and "nada novo a publicar" in again.stdout  # nothing twice


def test_worker_of_another_autos_version_is_refused_before_reserving(cluster: Cluster, tmp_path: Path) -> None:
    shim = tmp_path / "outra-versao"  # this coordinator sees autos 9.9.9 installed; the worker, this checkout's
    (shim / "autos-9.9.9.dist-info").mkdir(parents=True)
    (shim / "autos-9.9.9.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: autos\nVersion: 9.9.9\n")
    casos, out = make_cases(tmp_path / "casos", ferraz=1, timoteo=0), tmp_path / "out"
    refused = _run(casos, out, cluster.address, PYTHONPATH=str(shim))
    assert refused.returncode == 2, refused.stderr
    assert "versão do autos diferente: 0.1.0 ≠ 9.9.9 (aqui)" in refused.stderr
    assert "nada foi publicado nem reservado" in refused.stderr
    assert _editais(out) == []


def test_scheduler_killed_mid_run_exits_2_and_the_next_run_completes(own_cluster: Cluster, tmp_path: Path) -> None:
    cluster = own_cluster
    casos, out = make_cases(tmp_path / "casos", ferraz=3, timoteo=1), tmp_path / "out"
    # the coordinator stops itself once the first edital is rendered; the scheduler is killed meanwhile
    proc = subprocess.Popen(_cmd(casos, out, cluster.address), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(**{FAULT_ENV: "renderizado:1:parar", "AUTOS_DASK_ESPERA": "3",
                                                  "PYTHONFAULTHANDLER": "1"}))
    try:
        until(lambda: state(proc.pid) == "T", "the coordinator stops after rendering the first edital", 120)
        _stop(cluster.scheduler)
        os.kill(proc.pid, signal.SIGCONT)
        try:
            stdout, stderr = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGABRT)  # PYTHONFAULTHANDLER: every thread's stack, to see where it hung
            stdout, stderr = proc.communicate(timeout=30)
            pytest.fail(f"the coordinator hung after the scheduler was killed:\n{stderr[-6000:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 2, stdout + stderr
    assert "cluster Dask" in stderr and "rode de novo" in stderr
    left = _editais(out)
    assert ("ferraz-de-vasconcelos-sp", 1, "publicado") in left and len(left) < 4
    assert all(st == "publicado" for *_x, st in left)  # the edital in progress was undone, no number lost
    # a new scheduler and worker, started by hand without the runbook's environment: the next run finishes the
    # night, and warns on stderr that this worker profiles every task
    restarted = _start(tmp_path, runbook_env=False)
    try:
        done = _run(casos, out, restarted.address)
    finally:
        _stop(restarted.worker)
        _stop(restarted.scheduler)
    assert done.returncode == 1, done.stderr
    assert "aviso: 1 trabalhador do Dask com o perfilador estatístico ligado" in done.stderr, done.stderr
    assert "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False" in done.stderr
    assert_invariants(out, 4)


def test_coordinator_killed_after_reserving_is_finished_by_the_next_dask_run(cluster: Cluster, tmp_path: Path) -> None:
    casos, out = make_cases(tmp_path / "casos", ferraz=2, timoteo=0), tmp_path / "out"
    killed = _run(casos, out, cluster.address, **{FAULT_ENV: "reserva:1"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _editais(out) == [("ferraz-de-vasconcelos-sp", 1, "reservado")]
    done = _run(casos, out, cluster.address)
    assert done.returncode == 1, done.stderr
    assert "concluído após uma execução interrompida" in done.stdout
    assert_invariants(out, 2)
