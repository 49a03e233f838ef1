"""The public API is what ``autos/__init__.py`` exports, and nothing inside the package imports the root package."""

from __future__ import annotations

import ast
from pathlib import Path

import autos

SRC = Path(autos.__file__).parent


def test_all_lists_exactly_what_the_root_module_imports() -> None:
    """The root module imports its names on first use (start-up); what it imports for type checkers, what it
    imports on first use and ``__all__`` are the same names, from the same modules."""
    tree = ast.parse((SRC / "__init__.py").read_text(encoding="utf-8"))
    typing_block = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    assert len(typing_block) == 1
    imported = {a.asname or a.name: node.module for node in typing_block[0].body if isinstance(node, ast.ImportFrom)
                for a in node.names}
    assert autos.__all__ == sorted(autos.__all__)
    assert set(autos.__all__) == set(imported)
    assert imported == autos._WHERE
    for name in autos.__all__:
        assert getattr(autos, name) is not None, name
    assert set(autos.__all__) <= set(dir(autos)) and not hasattr(autos, "autos_nao_exporta_isto")


def test_the_public_types_are_the_ones_the_stages_use() -> None:
    from autos.app.generation.pipeline import Autos
    from autos.errors import AutosError
    from autos.processo.model import Processo

    assert autos.Autos is Autos and autos.AutosError is AutosError and autos.Processo is Processo
    assert issubclass(autos.InputError, autos.AutosError)


def test_nothing_inside_the_package_imports_the_root_package() -> None:
    files = [f for f in SRC.rglob("*.py") if f != SRC / "__init__.py"]
    assert len(files) > 40
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert all(a.name != "autos" for a in node.names), file
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                # ``from autos import x`` names a submodule, never a name of the root package
                if node.module == "autos":
                    for a in node.names:
                        assert (SRC / a.name).is_dir() or (SRC / f"{a.name}.py").is_file(), (file, a.name)


def test_every_error_is_in_errors_py_under_autos_error_and_exported() -> None:
    """One error tree: every error class of the package is defined in ``autos/errors.py`` (but those its docstring
    names as living beside what they need), derives from ``AutosError``, is drawn in the module's docstring and is a
    public name of ``autos``."""
    import autos.errors as errors

    beside = {"FormInvalid", "LimitError", "TemplateOutsideError", "IncludeRefusedError", "OwnDatabaseError"}
    for file in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Refused", "Required", "Invalid")):
                if not node.name.startswith("_") and file.name != "errors.py":
                    assert node.name in beside, (file, node.name)
    defined = [v for v in vars(errors).values() if isinstance(v, type) and v.__module__ == "autos.errors"]
    assert len(defined) > 20
    for cls in defined:
        assert issubclass(cls, errors.AutosError), cls
        assert cls.__name__ in (errors.__doc__ or ""), cls
        assert cls.__name__ in autos.__all__ and getattr(autos, cls.__name__) is cls, cls
