"""What the worker processes of a run (``publicar-editais``, ``gerar --processos``) share: they die with it."""

from __future__ import annotations

import os
import threading

__all__ = ["PARENT_POLL", "watch_parent"]

#: how often a worker looks for its parent (seconds): a worker outlives a killed parent at most this long
PARENT_POLL = 0.5


def watch_parent(exit_code: int) -> None:
    """End this worker as soon as the run's main process is gone (``kill -9`` of the parent alone).

    A pool worker waits for tasks on a pipe whose write end it inherited itself, so it never sees the parent's
    end of file, and it would live on, idle or rendering, forever. A daemon thread waits on the parent's
    sentinel (``multiprocessing.parent_process()``: a pipe whose write end the parent holds on POSIX, the
    parent's process handle on Windows) and, on POSIX, also checks ``os.getppid()`` (a worker forked after
    another holds that one's sentinel pipe too, so the sentinel alone may wait for a sibling), and ends the
    process with ``os._exit``: the files it was writing are temporary, and the run that started it (or the
    next one) knows what was left undone. Chosen over ``prctl(PR_SET_PDEATHSIG)``, which is Linux only."""
    import multiprocessing  # in the worker only: the modules that import this one start without it
    from multiprocessing.connection import wait as wait_ready

    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None else None
    ppid = os.getppid()

    def watch() -> None:
        while True:
            if sentinel is not None:
                if wait_ready([sentinel], timeout=PARENT_POLL):
                    break
            else:  # pragma: no cover - a pool worker always has a parent sentinel
                threading.Event().wait(PARENT_POLL)
            if os.name == "posix" and os.getppid() != ppid:
                break
        os._exit(exit_code)

    threading.Thread(target=watch, name="autos-parent-watch", daemon=True).start()
