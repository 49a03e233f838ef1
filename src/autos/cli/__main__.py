"""``python -m autos.cli``: the same command line as the ``autos`` script."""

from autos.cli import run

run()
