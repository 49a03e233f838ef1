"""pyHanko's synchronous calls (signing, validation) start an event loop of their own (``asyncio.run``), which a
thread that already runs one refuses — a web server's thread, a notebook, a test harness that drives a browser.
There they run in a thread of their own; elsewhere, in the caller's thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def outside_event_loop(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)``, in a thread of its own when the calling thread runs an event loop; its exceptions
    reach the caller unchanged."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return fn(*args, **kwargs)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args, **kwargs).result()
