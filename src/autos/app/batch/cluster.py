"""Rendering on a Dask cluster (``--dask tcp://agendador:8786``): the executor seam of the batch commands.

``publicar-editais``, ``gerar`` and ``verificar`` hand their per-case work to a ``concurrent.futures``
executor: a process pool on this machine, or — with ``--dask`` — the workers of a Dask ``distributed``
scheduler (:func:`dask_executor`). The coordinator (the process that runs the command) keeps what must stay
in one place: numbering, the ledger, the register, the gazette, the manifest and the hashes; a worker only
renders and writes its files where the coordinator says (a shared path), to a temporary name renamed into
place. Dask re-runs the tasks of a worker it lost; every task here is idempotent (same inputs, same output
path, written whole then renamed), so a lost worker costs a retry of its cases and nothing else.

Before any work is handed out (before a number is reserved), every worker must run the same ``autos`` and the
same rules and templates as the coordinator (:func:`fingerprint`, run on each worker with ``client.run``).

``distributed`` is an optional dependency (``pip install 'autos[distribuido]'``): imported here, lazily, only
when ``--dask`` is given.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import platform
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future, InvalidStateError
from datetime import date
from pathlib import Path
from typing import Any

from autos.base.ptbr import count_noun
from autos.errors import ClusterError, InputError, keep_original, os_error_pt

__all__ = ["WORKER_CONFIG", "ClusterError", "DaskExecutor", "dask_executor", "fingerprint", "tree_sha256"]

log = logging.getLogger(__name__)

#: seconds to reach the scheduler and to see its first worker before giving up (nothing reserved yet), and to
#: reconnect to a scheduler lost mid-run; ``AUTOS_DASK_ESPERA`` overrides it
CONNECT_TIMEOUT = 20.0
TIMEOUT_ENV = "AUTOS_DASK_ESPERA"

_INSTALL_HINT = ("instale o extra do autos com o Dask (pip install 'autos[distribuido]') nesta máquina e em cada "
                 "trabalhador, ou rode sem --dask (conjunto de processos desta máquina).")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        keep_original(exc, "Dask")
        raise ClusterError("--dask pede o pacote 'distributed' (Dask), que não está instalado.",
                           hint=_INSTALL_HINT) from None
    return distributed


# --------------------------------------------------------------------------------------------------
# the same autos, the same rules, on every worker


def tree_sha256(folder: Path) -> str:
    """SHA-256 of a folder's files: each relative path and its bytes, in path order (a renamed, added, removed or
    changed rule or template changes it)."""
    h = hashlib.sha256()
    if not folder.is_dir():
        return "ausente"
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def fingerprint(rules_dir: str | None, templates_dir: str | None) -> dict[str, str]:
    """What must be the same on the coordinator and on every worker: the ``autos`` version, Python's minor version
    (tasks travel pickled), and the hash of the rules and templates the process would use (the folders given,
    else the shipped ones)."""
    from importlib.metadata import PackageNotFoundError, version

    from autos.base.resources import default_rules_dir, default_templates_dir

    try:
        autos_version = version("autos")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        autos_version = "desconhecida"
    rules = Path(rules_dir) if rules_dir else default_rules_dir()
    templates = Path(templates_dir) if templates_dir else default_templates_dir()
    return {"autos": autos_version, "python": ".".join(platform.python_version_tuple()[:2]),
            "regras": tree_sha256(rules), "modelos": tree_sha256(templates)}


#: the Dask settings of the deployment in docs/runbook-distribuido.md (``/etc/autos/ambiente`` sets them as
#: ``DASK_…`` variables on every machine; bench/bench_dask.py starts its cluster with them). The worker's
#: statistical profiler samples the stack of the running task every 10 ms, holding the GIL: on rendering tasks it cost
#: ≈ 15–25 % more worker CPU (bench_dask, this machine: pool ÷ Dask 0.75× with it, 0.99× without). The other two only
#: make the idle bookkeeping of every process rarer. A worker with the profiler on still renders correctly: the
#: coordinator only warns (:func:`profiler_notice`).
WORKER_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}


def profiler_enabled() -> bool:
    """Whether this (worker) process's Dask configuration has the statistical profiler on; run with ``client.run``."""
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled", True))


def profiler_notice(found: dict[str, bool]) -> str | None:
    """The Portuguese warning for the workers (address → :func:`profiler_enabled`) that profile, or ``None``."""
    on = sorted(address for address, enabled in found.items() if enabled)
    if not on:
        return None
    who = count_noun(len(on), "trabalhador", "trabalhadores")
    return (f"{who} do Dask com o perfilador estatístico ligado ({', '.join(on[:3])}{'…' if len(on) > 3 else ''}): "
            "a renderização custa ≈ 15–25 % mais CPU. Desligue-o com DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False "
            "no ambiente dos trabalhadores (docs/runbook-distribuido.md, /etc/autos/ambiente).")


_LABELS = {"autos": "versão do autos", "python": "versão do Python", "regras": "regras (rules/)",
           "modelos": "modelos (templates/)"}


def check_workers(found: dict[str, dict[str, str]], mine: dict[str, str]) -> None:
    """Refuse the cluster if any worker differs from this process (``found``: worker address → fingerprint)."""
    problems = []
    for address, theirs in sorted(found.items()):
        for key, label in _LABELS.items():
            if theirs.get(key) != mine[key]:
                what = (f"{theirs.get(key)} ≠ {mine[key]} (aqui)" if key in ("autos", "python")
                        else f"SHA-256 {str(theirs.get(key))[:12]}… ≠ {mine[key][:12]}… (aqui)")
                problems.append(f"{address}: {label} diferente: {what}")
    if problems:
        who = count_noun(len({p.split(": ", 1)[0] for p in problems}), "trabalhador", "trabalhadores")
        raise ClusterError(f"{who} do Dask com outra versão do autos ou das regras; nada foi publicado "
                           "nem reservado: " + "; ".join(problems) + ".",
                           hint="instale nos trabalhadores a mesma versão do autos e as mesmas regras e modelos "
                           "(a mesma pasta --regras/--modelos, no mesmo caminho) e reinicie-os "
                           "(docs/runbook-distribuido.md).")


# --------------------------------------------------------------------------------------------------
# tasks: the worker's own state (rules, renderers) is set up in each worker process by its first task, and again
# whenever a task of another run with other settings (another --regras, --modelos or --hoje) reaches it

#: setup function → the arguments its last call in this process was made with
_APPLIED: dict[tuple[str, str], tuple[Any, ...]] = {}
#: held for a task's set-up and run: the set-up functions keep their state in module globals, and two coordinators
#: with different settings may share a cluster; a worker runs one thread (the runbook's ``--nthreads 1``: rendering
#: holds the GIL), so the lock costs nothing there and keeps a multi-threaded worker correct
_TASK_LOCK = threading.Lock()


class OnWorker:
    """``fn(*args)`` on a worker, after ``setup(*setup_args)`` when this worker process is not set up with exactly
    these arguments (its first task; a new worker replacing a lost one; a task of another coordinator with other
    rules or another date after one of this run). Picklable: ``fn`` and ``setup`` are module-level."""

    def __init__(self, fn: Callable[..., Any], setup: Callable[..., None], setup_args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.setup = setup
        self.setup_args = setup_args
        self.__name__ = getattr(fn, "__name__", "tarefa")  # the task's name in Dask's dashboard and logs

    def __call__(self, *args: Any) -> Any:
        key = (self.setup.__module__, self.setup.__qualname__)
        with _TASK_LOCK:
            if _APPLIED.get(key) != self.setup_args:
                _APPLIED.pop(key, None)  # a set-up that fails leaves nothing marked as done
                self.setup(*self.setup_args)
                _APPLIED[key] = self.setup_args
            return self.fn(*args)


class DaskExecutor(Executor):
    """A ``concurrent.futures`` executor on a Dask client, for the batch commands. Each ``submit`` is a Dask task
    (``pure=False``: never merged with another). A task whose outcome is lost with the cluster (scheduler gone,
    a task whose workers kept dying: Dask's ``KilledWorker``) fails its future with :class:`ClusterError`, in
    Portuguese; the task's own exceptions (an ``OutputError`` of a full disk) come through as they are."""

    remote = True  #: read by the callers: files are written by other machines, paths must be absolute

    def __init__(self, client: Any, address: str, setup: Callable[..., None], setup_args: tuple[Any, ...],
                 timeout: float = CONNECT_TIMEOUT) -> None:
        self.client = client
        self.address = address
        self._setup = setup
        self._setup_args = setup_args
        self._timeout = timeout
        self._outstanding: set[Future[Any]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._watch, name="autos-dask-vigia", daemon=True).start()

    def _watch(self) -> None:
        """Fail every outstanding future once the client has not been connected for ``timeout`` seconds (the
        scheduler is gone): whatever the client does meanwhile, the run never waits forever for a lost cluster."""
        lost_since: float | None = None
        while not self._stop.wait(0.5):
            if self.client.status == "running":
                lost_since = None
                continue
            now = time.monotonic()
            lost_since = lost_since if lost_since is not None else now
            if now - lost_since < self._timeout:
                continue
            with self._lock:
                waiting, self._outstanding = list(self._outstanding), set()
            for fut in waiting:
                with contextlib.suppress(InvalidStateError):
                    fut.set_exception(self._lost())

    @property
    def width(self) -> int:
        """Tasks the cluster runs at once (threads of every worker), to size the window of tasks in flight."""
        with contextlib.suppress(Exception):
            return max(1, int(sum(self.client.nthreads().values())))
        return 1

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if kwargs:
            raise TypeError("DaskExecutor.submit: only positional arguments")
        inner = self.client.submit(OnWorker(fn, self._setup, self._setup_args), *args, pure=False)
        outer: Future[Any] = Future()
        with self._lock:
            self._outstanding.add(outer)

        def on_outer(f: Future[Any]) -> None:
            with self._lock:
                self._outstanding.discard(f)
            if f.cancelled():
                # as an executor does for a cancelled task: CANCELLED_AND_NOTIFIED, or wait() waits for it forever
                f.set_running_or_notify_cancel()
            if f.cancelled() and self.client.status == "running":
                # Dask's cancel waits for the scheduler's answer: never in the caller's thread (a run stopping
                # because the scheduler is gone would wait for it); a lost scheduler has nothing left to cancel
                threading.Thread(target=inner.cancel, name="autos-dask-cancela", daemon=True).start()

        def on_inner(f: Any) -> None:  # a distributed.Future, in a thread of the client
            try:
                if outer.done():
                    return
                if f.status == "finished":
                    value = f.result()
                    if not outer.done():
                        outer.set_result(value)
                elif f.status == "cancelled":
                    outer.set_exception(self._lost())
                else:
                    exc = f.exception()
                    lost = type(exc).__name__ in ("KilledWorker", "CommClosedError", "FutureCancelledError")
                    outer.set_exception(self._lost(exc) if lost or isinstance(exc, CancelledError) else exc)
            except InvalidStateError:
                pass  # failed meanwhile by the watch (the cluster was lost) or cancelled by the caller
            except BaseException as exc:  # the result could not be fetched: the cluster went away meanwhile
                with contextlib.suppress(InvalidStateError):
                    outer.set_exception(self._lost(exc))
            finally:
                # the result is here: release it on the cluster at once — Dask recomputes the lost results of the
                # futures a client still holds, and this task's files are already renamed into place by then
                f.release()

        outer.add_done_callback(on_outer)
        inner.add_done_callback(on_inner)
        return outer

    def _lost(self, exc: BaseException | None = None) -> ClusterError:
        if exc is not None:
            keep_original(exc, f"Dask {self.address}")
        return ClusterError(f"o cluster Dask em {self.address} deixou de responder ou perdeu a tarefa; o "
                            "edital em curso foi desfeito e os anteriores ficaram publicados.",
                            hint="confira o agendador e os trabalhadores (docs/runbook-distribuido.md) e rode de "
                            "novo: a próxima execução conclui o que ficou reservado.")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the watch; the tasks still running are cancelled by the caller, the client closed by
        :func:`dask_executor`."""
        self._stop.set()


@contextlib.contextmanager
def dask_executor(address: str, setup: Callable[..., None], setup_args: tuple[Any, ...], *,
                  rules_dir: str | None, templates_dir: str | None,
                  timeout: float | None = None) -> Iterator[DaskExecutor]:
    """Connect to the scheduler at ``address``, wait for a worker, check every worker's fingerprint against this
    process's, and yield the executor; the client is closed at the end. Any failure before the yield is a
    :class:`ClusterError` (exit 2) raised before the caller has reserved or written anything."""
    distributed = _distributed()
    import dask

    if timeout is None:
        try:
            timeout = float(os.environ.get(TIMEOUT_ENV, CONNECT_TIMEOUT))
        except ValueError:
            raise ClusterError(f"{TIMEOUT_ENV} deve ser um número de segundos (é '{os.environ[TIMEOUT_ENV]}').",
                               hint=f"use, por exemplo, {TIMEOUT_ENV}=20.") from None

    # a lost scheduler ends the run in seconds, not after minutes of reconnection attempts
    with dask.config.set({"distributed.comm.timeouts.connect": f"{max(1, int(timeout))}s"}):
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            keep_original(exc, f"Dask {address}")
            why = ("não respondeu a tempo" if isinstance(exc, TimeoutError) else "endereço inválido"
                   if isinstance(exc, ValueError) else os_error_pt(exc))
            raise ClusterError(f"não foi possível conectar ao agendador Dask em {address} ({why}); nada foi publicado "
                               "nem reservado.",
                               hint="confira o endereço (tcp://máquina:8786), se o agendador está no ar "
                               "(systemctl status autos-dask-agendador) e a rede; ou rode sem --dask.") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
            found = client.run(fingerprint, rules_dir, templates_dir)
        except (OSError, TimeoutError) as exc:
            keep_original(exc, f"Dask {address}")
            raise ClusterError(f"o agendador Dask em {address} não tem trabalhadores no ar (nenhum respondeu em "
                               f"{timeout:g} s); nada foi publicado nem reservado.",
                               hint="inicie os trabalhadores (systemctl start autos-dask-trabalhador) e rode de "
                               "novo.") from None
        check_workers(found, fingerprint(rules_dir, templates_dir))
        with contextlib.suppress(Exception):  # only a warning: never a reason to stop the night
            notice = profiler_notice(client.run(profiler_enabled))
            if notice is not None:
                log.warning(notice)
        executor = DaskExecutor(client, address, setup, setup_args, timeout)
        try:
            yield executor
        finally:
            executor.shutdown(wait=False)
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=5)



def signing_refused() -> InputError:
    """``--assinar`` with ``--dask``: refused before anything is reserved or written. The workers would need the
    certificate and its password or PIN (an A3 token is plugged into one machine): the signing key stays with the
    coordinator, and a distributed run that silently skipped the signatures would record unsigned files."""
    return InputError("--assinar não pode ser usado com --dask: a chave de assinatura (o arquivo A1 e a sua senha, ou "
                      "o token A3) fica nesta máquina e não é enviada aos trabalhadores do cluster; nada foi "
                      "reservado nem gravado.",
                      hint="rode a publicação assinada sem --dask (o conjunto de processos desta máquina), ou "
                      "publique com --dask sem --assinar e assine depois cada PDF com autos assinar.")

def as_setup_args(rules_dir: str | Path | None, templates_dir: str | Path | None,
                  today: date | None) -> tuple[str | None, str | None, date | None]:
    """Rules and templates as absolute paths (a worker runs in another folder, or on another machine)."""
    return (str(Path(rules_dir).resolve()) if rules_dir else None,
            str(Path(templates_dir).resolve()) if templates_dir else None, today)
