"""Build hook: ship the top-level ``rules/`` and ``templates/`` folders inside the wheel.

They stay at the repository top level (where a municipality edits them) and are copied to
``autos/_data/`` at build time, so ``pip install .`` works from any directory.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # editable installs read the top-level folders directly
        target = Path(self.build_lib) / "autos" / "_data"
        for name in ("rules", "templates"):
            shutil.copytree(ROOT / name, target / name, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithData})
