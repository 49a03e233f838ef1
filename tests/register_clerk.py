"""One clerk reserving numbers, run in a separate process by tests/test_register.py (a module of its own so that a
spawned process imports only the register, not the command line)."""

from __future__ import annotations

import os
import time

from autos.store.register import Register

TIM = "timoteo-mg/lei-3844-2022"


def clerk(args: tuple[str, int, int, str]) -> list[tuple[int, str]]:
    """``n`` reservations, every third one then abandoned and cancelled with its reason."""
    path, n, who, start_flag = args
    while not os.path.exists(start_flag):  # all clerks start together
        time.sleep(0.005)
    out: list[tuple[int, str]] = []
    where: object = path
    if path.startswith("postgresql://"):
        from autos.store.database import DatabaseUrl

        where = DatabaseUrl(path)
    with Register.open(where, lock_timeout=120) as reg:  # type: ignore[arg-type]
        for i in range(n):
            r = reg.reserve(TIM, "auto", 2026, processo=f"CLERK-{who}-{i}")
            if i % 3 == 2:
                reg.cancel(TIM, "auto", r.numero, 2026, f"abandonado pelo servidor {who}")
                out.append((r.numero, "cancelado"))
            else:
                out.append((r.numero, "reservado"))
    return out
