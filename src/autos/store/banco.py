"""``autos banco``: the register and the editais ledger together in one PostgreSQL database — their schema
versions (:func:`schema_state`) and the explicit migration that brings both to this version of autos
(:func:`migrate`). The work is :mod:`autos.store.postgres`'s; this module only names the two components (the
register first), so that neither the register nor the ledger imports the other."""

from __future__ import annotations

from autos.store import ledger, register
from autos.store.database import DatabaseUrl
from autos.store.postgres import Component, SchemaState
from autos.store.postgres import migrate as _migrate
from autos.store.postgres import schema_state as _schema_state

__all__ = ["components", "migrate", "schema_state"]


def components() -> tuple[Component, ...]:
    """The register and the ledger, in the order they are migrated."""
    return (register.postgres_component(), ledger.postgres_component())


def migrate(url: DatabaseUrl, *, lock_timeout: float = 30) -> list[tuple[str, int, int]]:
    """Every missing step of both, in one transaction: ``(component, from, to)`` each."""
    return _migrate(url, components(), lock_timeout=lock_timeout)


def schema_state(url: DatabaseUrl) -> list[SchemaState]:
    """Each component's version in the database (0: never migrated) and in this autos."""
    return _schema_state(url, components())
