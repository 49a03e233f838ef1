"""The processes the tests start: a free loopback port for a server, and, in the kill drills, watching them (Linux
``/proc``): who belongs to a run, who is still alive."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the OS picks it), for a server a test starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat(pid: int | str) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, pgrp, …), or None when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()


def _live_where(index: int, value: int) -> set[int]:
    out: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(entry.name)
            if fields is not None and int(fields[index]) == value and fields[0] != "Z":
                out.add(int(entry.name))
    return out


def group(pgid: int) -> set[int]:
    """Live (not zombie) processes of a process group."""
    return _live_where(2, pgid)


def children(pid: int) -> set[int]:
    """Live (not zombie) child processes of ``pid``."""
    return _live_where(1, pid)


def state(pid: int) -> str:
    """The process's state letter (``R``, ``S``, ``T``, ``Z``…), or ``gone``."""
    fields = _stat(pid)
    return "gone" if fields is None else fields[0]


def alive(pid: int) -> bool:
    return state(pid) not in ("gone", "Z")


def until(condition: Callable[[], bool], what: str, deadline: float = 60.0) -> None:
    """Poll ``condition()`` until true; fail (saying ``what``) after ``deadline`` seconds — a bound for a hung
    process, not a timing assertion."""
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"{what}: não aconteceu em {deadline:.0f} s")
        time.sleep(0.05)
