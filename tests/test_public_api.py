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


def test_every_public_name_says_what_it_is() -> None:
    """As httpx documents each of its exported members: every public name carries its docstring."""
    for name in autos.__all__:
        assert (getattr(autos, name).__doc__ or "").strip(), name


def test_a_script_reserves_a_number_publishes_and_checks_without_internals(tmp_path: Path) -> None:
    """The command families beyond the facade, through ``autos`` alone: the register reserves the next auto number
    without gaps; a dry run of the night plans the editais of the samples without writing the ledger; ``conferir``
    says a file the ledger never recorded does not match (exit 1)."""
    from datetime import date

    lib = autos.Autos()
    register = autos.open_register(tmp_path / "registro.sqlite3", tmp_path, create=True)
    assert register is not None
    procedure = lib.procedure_of("timoteo-mg/lei-3844-2022")
    assert procedure is not None
    first = autos.reserve_number(register, procedure, "auto", 2026)
    second = autos.reserve_number(register, procedure, "auto", 2026)
    assert (first.numero, first.ano, second.numero) == (1, 2026, 2)

    samples = Path(__file__).resolve().parent.parent / "samples" / "processos"
    result = autos.publish_editais(autos.PublishOptions(casos=samples, data=date(2026, 12, 1),
                                                        saida=tmp_path / "editais", dry_run=True, workers=1,
                                                        today=date(2026, 11, 30)))
    assert isinstance(result, autos.PublishResult) and result.erro is None
    assert not (tmp_path / "editais" / "livro-editais.sqlite3").exists()

    stray = tmp_path / "qualquer.pdf"
    stray.write_bytes(b"%PDF-1.7\n%%EOF\n")
    autos.Ledger(tmp_path / "livro.sqlite3").close()
    outcome = autos.conferir(stray, livro=tmp_path / "livro.sqlite3")
    assert outcome.exit_code == 1, outcome.text
