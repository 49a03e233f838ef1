"""``publicar-editais --dask`` on a real Dask cluster on loopback (a ``LocalCluster`` of two worker processes): the
same publication as the process pool, a worker killed mid-run, a scheduler that cannot be reached, and the
fingerprint check that refuses a worker of another version.

All the Dask tests are in one xdist group (``--dist loadgroup``): never two clusters at once on the 2 cores."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import dask
import pytest
from click.testing import CliRunner
from distributed import Client, LocalCluster

from autos.app.batch.cluster import WORKER_CONFIG, check_workers, fingerprint
from autos.app.editais.publish import Publisher
from autos.app.generation.pipeline import Autos
from autos.app.register.service import ProcessoRecorder
from autos.cli import main
from autos.errors import ClusterError
from autos.store.register import Register

from .conftest import CASOS, ROOT, SAMPLES, TODAY
from .dask_cases import assert_invariants, documents_text, ledger_view, make_cases, manifest_view
from .procs import free_port
from .test_publish import DATA_PUB, options, publish

pytestmark = [pytest.mark.xdist_group("dask"),
              pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX: worker processes are killed by pid")]


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    """Two worker processes with the runbook's Dask settings (WORKER_CONFIG: the nannies hand it to their workers)."""
    with dask.config.set(WORKER_CONFIG), LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                      host="127.0.0.1", dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_cases(tmp_path_factory.mktemp("casos-dask"), ferraz=3, timoteo=1)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_cases(tmp_path_factory.mktemp("casos-dask-muitos"), ferraz=6, timoteo=2)


def test_dask_publishes_what_the_process_pool_publishes(cluster: LocalCluster, cases: Path, tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    pool_out, dask_out = tmp_path / "pool", tmp_path / "dask"
    pool = publish(pool_out, casos=cases, workers=2, max_por_edital=2)
    lines: list[str] = []
    with caplog.at_level(logging.WARNING, logger="autos"):
        dask = Publisher(options(dask_out, casos=cases, dask=cluster.scheduler_address, max_por_edital=2),
                         log=lines.append).run()
    assert pool.erro is None and dask.erro is None
    # configured as the runbook says: no warning (a worker started without it: test_dask_cli's scheduler drill)
    assert not [r for r in caplog.records if "perfilador" in r.getMessage()]
    assert dask.exit_code == pool.exit_code == 1  # the malformed file is refused in both
    assert any("cluster Dask" in line and "2 trabalhadores" in line for line in lines)
    assert [(e.lei, e.numero, e.casos) for e in dask.publicados] == [(e.lei, e.numero, e.casos)
                                                                     for e in pool.publicados]
    assert [(c.arquivo, c.motivos) for c in dask.recusados] == [(c.arquivo, c.motivos) for c in pool.recusados]
    assert ledger_view(dask_out) == ledger_view(pool_out)
    texts = documents_text(dask_out)
    assert len(texts) == 3 * 2 + 4 * 2  # 3 editais (consolidated, gazette), each case's PDF and DOCX
    assert texts == documents_text(pool_out)
    assert manifest_view(dask_out, DATA_PUB.isoformat()) == manifest_view(pool_out, DATA_PUB.isoformat())
    assert_invariants(dask_out, 4)


def test_worker_killed_mid_run_costs_only_a_retry(cluster: LocalCluster, many: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    killed: list[tuple[int, int]] = []
    published = threading.Event()
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        pids = client.run(os.getpid)

        def killer() -> None:
            # once an edital is published (some tasks completed), SIGKILL the first worker seen with tasks of the
            # run assigned to it
            published.wait(120)
            deadline = time.monotonic() + 120
            while not killed and time.monotonic() < deadline:
                busy = {w: len(keys) for w, keys in client.processing().items() if keys}
                if busy:
                    worker = max(busy, key=lambda w: busy[w])
                    os.kill(pids[worker], signal.SIGKILL)
                    killed.append((pids[worker], busy[worker]))
                time.sleep(0.005)

        def on_log(line: str) -> None:
            if line.startswith("publicado: edital"):
                published.set()

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        result = Publisher(options(out, casos=many, dask=cluster.scheduler_address, max_por_edital=2, lote=1),
                           log=on_log).run()
        published.set()
        thread.join(130)
        client.wait_for_workers(2, timeout=60)  # the nanny restarts it, for the next test
    assert killed, "a worker was killed with tasks of the run assigned to it"
    assert result.erro is None, result.erro
    state = assert_invariants(out, 8)
    assert [(lei.split("/")[0], n, len(c)) for lei, n, _s, c in state] == [
        ("ferraz-de-vasconcelos-sp", 1, 2), ("ferraz-de-vasconcelos-sp", 2, 2), ("ferraz-de-vasconcelos-sp", 3, 2),
        ("timoteo-mg", 1, 2)]
    assert publish(out, casos=many).publicados == []  # nothing left, nothing published twice


def test_unreachable_scheduler_stops_before_reserving(cases: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUTOS_DASK_ESPERA", "2")
    out = tmp_path / "out"
    result = publish(out, casos=cases, dask=f"tcp://127.0.0.1:{free_port()}")
    assert result.exit_code == 2 and isinstance(result.erro, ClusterError)
    assert "não foi possível conectar ao agendador Dask" in result.erro.message
    assert "nada foi publicado nem reservado" in result.erro.message
    assert ledger_view(out) == []
    assert not [p for p in out.rglob("*.pdf")]


def test_a_worker_with_other_rules_or_version_is_named() -> None:
    mine = fingerprint(None, None)
    assert mine == fingerprint(None, None) and len(mine["regras"]) == 64
    check_workers({"tcp://a:1": dict(mine)}, mine)  # the same: accepted
    other = {**mine, "regras": "0" * 64, "autos": "0.0.9"}
    with pytest.raises(ClusterError) as caught:
        check_workers({"tcp://a:1": dict(mine), "tcp://b:2": other}, mine)
    message = caught.value.render()
    assert "tcp://b:2: versão do autos diferente: 0.0.9" in message and "tcp://a:1" not in message
    assert "tcp://b:2: regras (rules/) diferente" in message and "nada foi publicado nem reservado" in message


# --------------------------------------------------------------------------------------------------
# autos gerar --dask: processos and case files rendered on the workers, the register kept by the coordinator


def main_run(args: list[str]) -> int:
    return CliRunner().invoke(main, args).exit_code


def _gerar(folder: Path, out: Path, dask: str | None) -> list[tuple[str, list[str], bool, str | None, list[str]]]:
    autos = Autos(ROOT / "rules", ROOT / "templates", today=TODAY)
    with ProcessoRecorder(folder / "registro.sqlite3") as recorder:
        return [(o.path.name, [f.name for f in o.files], o.draft, o.error, [f.name for f in o.unchanged])
                for o in autos.generate_files([folder], out, "ambos", processes=1, now=STAMP, recorder=recorder,
                                              dask=dask)]


STAMP = datetime(2026, 11, 29, 10, 0, tzinfo=timezone(timedelta(hours=-3)))


def test_gerar_on_dask_writes_and_records_what_one_process_does(cluster: LocalCluster, tmp_path: Path) -> None:
    folder = tmp_path / "processos"
    folder.mkdir()
    for name in ("sim-2026-000142-pj-completo.yaml", "sim-2026-000171-sem-defesa.yaml"):
        shutil.copy(SAMPLES / "processos" / "timoteo-mg" / name, folder / name)
    shutil.copy(CASOS / "timoteo-mg" / "auto-pj-completo.yaml", folder / "caso-antigo.yaml")
    assert main_run(["registro", "reconstruir", str(folder)]) == 0
    local = _gerar(folder, tmp_path / "local", None)
    remote = _gerar(folder, tmp_path / "dask", cluster.scheduler_address)
    assert remote == local and len(local) >= 3 and all(error is None for *_x, error, _u in local)
    assert documents_text(tmp_path / "dask") == documents_text(tmp_path / "local")
    with Register.open(folder / "registro.sqlite3", readonly=True) as reg:
        recorded = [(Path(d.caminho).parent.name, Path(d.caminho).name, d.sha256) for p in folder.glob("sim-*.yaml")
                    for d in reg.documents_of(reg.relative(p))]
    on_disk = {(out.name, f.name, hashlib.sha256(f.read_bytes()).hexdigest()) for out in (tmp_path / "local",
               tmp_path / "dask") for f in out.iterdir() if "-sim-2026-" in f.name}  # the processos' documents
    assert set(recorded) == on_disk and len(on_disk) >= 4  # both runs' documents, recorded by the coordinator
    # again: the coordinator hands the register's "gerado em" to the workers, so nothing differs, nothing rewritten
    again = _gerar(folder, tmp_path / "dask", cluster.scheduler_address)
    assert [unchanged for *_x, unchanged in again] == [files for _p, files, *_y in again]


def test_verificar_on_dask_reports_what_one_process_does(cluster: LocalCluster) -> None:
    folder = SAMPLES / "verificacao"

    warnings: list[str] = []

    def report(*extra: str) -> tuple[int, dict[str, object]]:
        done = CliRunner().invoke(main, ["--regras", str(ROOT / "rules"), "--hoje", TODAY.isoformat(), "verificar",
                                         str(folder), "--json", "--sem-registro", *extra])
        doc = json.loads(done.stdout)  # the JSON alone on stdout, whatever the warnings
        doc.pop("gerado_em", None)
        warnings.append(done.stderr)
        return done.exit_code, doc

    local, remote = report(), report("--dask", cluster.scheduler_address)
    assert remote == local
    assert warnings == ["", ""]  # nothing on stderr: the workers run with the runbook's settings
    assert local[0] == 1 and len(local[1]["casos"]) >= 10  # type: ignore[arg-type]  # the samples have errors


def test_a_cancelled_dask_task_counts_as_done(cluster: LocalCluster) -> None:
    """What a stopping run relies on: ``wait()`` on the futures it cancelled returns at once, as with a process
    pool (a cancelled future must be notified, or ``wait`` waits for it forever)."""
    from concurrent.futures import wait

    from autos.app.batch.cluster import dask_executor
    from autos.app.editais.jobs import ensure_engine

    with dask_executor(cluster.scheduler_address, ensure_engine, (None, None, TODAY), rules_dir=None,
                       templates_dir=None) as executor:
        fut = executor.submit(time.sleep, 60)
        assert fut.cancel()
        done, _not_done = wait([fut], timeout=30)
        assert fut in done and fut.cancelled()


_SET_UP: list[tuple[str | None, str | None, date]] = []  # every set-up of this process, in order


def _setup(rules_dir: str | None, templates_dir: str | None, today: date) -> None:
    _SET_UP.append((rules_dir, templates_dir, today))


def _current() -> object:
    return _SET_UP[-1]


def test_a_worker_shared_by_two_runs_with_other_settings_sets_itself_up_again() -> None:
    """Two coordinators on one cluster (the runbook's split of a night), one with another --hoje: each task runs with
    the settings of its own run — a worker process keeps one engine in a global, so it is set up again when a task
    of the other run reaches it (and only then)."""
    from autos.app.batch.cluster import OnWorker

    night = OnWorker(_current, _setup, ("/srv/autos/regras", None, date(2026, 11, 30)))
    other = OnWorker(_current, _setup, ("/srv/autos/regras", None, date(2026, 12, 1)))
    ran = [night(), night(), other(), night(), other(), other()]
    assert ran == [night.setup_args] * 2 + [other.setup_args, night.setup_args] + [other.setup_args] * 2
    assert len(_SET_UP) == 4
