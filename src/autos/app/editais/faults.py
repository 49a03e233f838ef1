"""Fault injection for the tests and drills of ``publicar-editais`` (:data:`FAULT_ENV`)."""

from __future__ import annotations

import errno
import os
import signal

#: fault injection for tests and drills: ``ponto[:n[:parar]]`` (comma-separated) — the main process kills itself
#: (SIGKILL, its workers are left to notice) the n-th time it reaches ``ponto`` (reserva, renderizado, renomeado,
#: commit, registro — after a processo file took its edital act), or, with ``parar``, stops itself (SIGSTOP)
#: there, for a drill to send the signal it wants; for ``disco-cheio``, the n-th gazette file write fails with
#: ENOSPC.
FAULT_ENV = "AUTOS_FALHA_PUBLICACAO"

class _Faults:
    def __init__(self) -> None:
        self.at: dict[str, int] = {}
        self.stop: set[str] = set()
        self.seen: dict[str, int] = {}
        for item in filter(None, (s.strip() for s in os.environ.get(FAULT_ENV, "").split(","))):
            point, _, rest = item.partition(":")
            n, _, action = rest.partition(":")
            self.at[point] = int(n or 1)
            if action == "parar":
                self.stop.add(point)

    def hit(self, point: str) -> None:
        if point not in self.at:
            return
        self.seen[point] = self.seen.get(point, 0) + 1
        if self.seen[point] != self.at[point]:
            return
        if point == "disco-cheio":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if point in self.stop:
            os.kill(os.getpid(), signal.SIGSTOP)  # the drill sends its signal, then SIGCONT
            return
        os.kill(os.getpid(), signal.SIGKILL)  # pragma: no cover - the process ends here
