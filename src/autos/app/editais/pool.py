"""Who renders the editais of a run and how a stopping run stops it: this process (``--processos 1``), the
pool's processes killed rather than waited for, SIGTERM taken as Ctrl-C."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any


class _Inline(Executor):
    """Runs tasks in this process (``workers=1``): same code path, no child processes."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            fut.set_exception(exc)
        return fut



def _kill_workers(pool: Executor | None) -> bool:
    """Kill the rendering processes of ``pool`` now and wait for them to be gone (a stopping run does not wait
    for the documents it will throw away); the pool then reports itself broken and shuts down at once. The
    pool's process table is the only handle before Python 3.14 (``kill_workers``). ``False`` if there is no
    process pool (``--processos 1``)."""
    if not isinstance(pool, ProcessPoolExecutor):
        return False
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(5)
    pool._autos_killed = True  # type: ignore[attr-defined]  # read by Publisher._executor
    return True



def _terminate_as_interrupt(stopping: list[bool]) -> Callable[[], None]:
    """SIGTERM (systemd stop, kill) ends the run like Ctrl-C: the edital in progress is undone, the workers are
    killed rather than waited for (:meth:`Publisher._abort`). ``stopping`` gets ``True`` when it arrives."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(_sig: int, _frame: Any) -> None:
        if stopping:
            return  # a second SIGTERM does not interrupt the clean-up of the first
        stopping.append(True)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore
