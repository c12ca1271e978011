"""The public API is declared once (`mcp_lab._SOURCES`), exactly what `__all__` lists, and all of it imports.

As httpx tests its own: the public namespace of `dir(mcp_lab)` -- minus private and dunder names and the
package's submodules -- is `__all__`; each lazy name imports from the module the table names; the
TYPE_CHECKING imports type checkers read agree with the table; each feature package says what it is.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import mcp_lab

PACKAGE = Path(mcp_lab.__file__).parent
SELF_DEFINED = {"__version__", "load_ipython_extension", "unload_ipython_extension"}


def test_all_is_sorted_and_derived_from_the_one_table() -> None:
    assert mcp_lab.__all__ == sorted(mcp_lab.__all__, key=str.casefold)
    assert set(mcp_lab.__all__) == set(mcp_lab._SOURCES) | SELF_DEFINED
    assert not [n for n in mcp_lab.__all__ if n.startswith("_") and n != "__version__"]


def test_all_is_the_public_namespace() -> None:
    # In a fresh interpreter, after every lazy name was touched (so dir() shows what a session would).
    code = (
        "import types, mcp_lab\n"
        "for name in mcp_lab.__all__: getattr(mcp_lab, name)\n"
        "public = sorted(n for n in dir(mcp_lab) if not n.startswith('_') and not (\n"
        "    isinstance(getattr(mcp_lab, n), types.ModuleType) and n not in mcp_lab.__all__))\n"
        "print(' '.join(public))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == sorted(n for n in mcp_lab.__all__ if n != "__version__")


def test_every_lazy_name_imports_from_the_module_the_table_names() -> None:
    for name, source in mcp_lab._SOURCES.items():
        module = importlib.import_module(source or f"mcp_lab.{name}")
        value = getattr(module, name) if source else module
        assert getattr(mcp_lab, name) is value, name


def test_the_type_checking_imports_agree_with_the_table() -> None:
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    block = next(
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
    )
    imported: dict[str, str] = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        for alias in node.names:
            assert alias.asname in (None, alias.name), ast.unparse(node)
            module = "" if node.module == "mcp_lab" else f"{node.module}"
            imported[alias.name] = module
    assert imported == mcp_lab._SOURCES


def test_each_feature_package_says_what_it_is() -> None:
    packages = [m.name for m in pkgutil.iter_modules([str(PACKAGE)]) if m.ispkg]
    assert packages
    for name in packages:
        module = importlib.import_module(f"mcp_lab.{name}")
        assert isinstance(module, types.ModuleType)
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text()))
        assert doc and len(doc.split()) >= 8, f"mcp_lab/{name}/__init__.py needs a docstring saying what it is"
