"""Where the shipped ``rules/`` and ``templates/`` folders are.

In a wheel they are copied to ``autos/_data/``; in a source checkout (editable install, tests) they
are read from the repository's top level.
"""

from __future__ import annotations

from pathlib import Path

#: the ``autos`` package folder (this module is in ``autos/base/``)
_PACKAGE = Path(__file__).resolve().parent.parent


def _shipped(name: str) -> Path:
    inside = _PACKAGE / "_data" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent.parent / name


def default_rules_dir() -> Path:
    return _shipped("rules")


def default_templates_dir() -> Path:
    return _shipped("templates")


def default_samples_dir() -> Path:
    """The ``samples/`` folder of the source checkout: beside the package (editable install), else in the current
    folder (``pip install .`` run from the checkout, as the README does). A wheel does not ship it: elsewhere
    ``autos servir`` needs a configuration naming the processos folder."""
    for candidate in (_PACKAGE.parent.parent / "samples", Path.cwd() / "samples"):
        if candidate.is_dir():
            return candidate
    return _PACKAGE.parent.parent / "samples"
