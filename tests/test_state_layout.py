"""Where the package keeps state (issue 23 item 2), read from the source with `ast` and from the imported modules.

Rules:

1. No module below the top floor imports `mcp_lab.lab` -- counting imports inside functions and under
   `TYPE_CHECKING`. The top floor is `mcp_lab.lab` itself, `mcp_lab/__init__.py` and `mcp_lab/__main__.py`:
   features own their state; the Lab only composes it.
2. Module-level mutable state is the Lab's components and nothing else, besides what `mcp_lab.lab.PROCESS_WIDE`
   names (each entry with its reason). A name bound at module level in mcp_lab/ may hold:
   - something immutable: None, numbers, text, bytes, a tuple or frozenset of such, a class, a function (a
     functools cache of a pure function included), a module, a typing construct, an enum member, a frozen
     dataclass;
   - machinery shared by design: a lock, a ContextVar, a logger, a compiled pattern, a TypeVar;
   - a sentinel: an object with no attributes of its own;
   - a constant table: a list, dict, set (or an object of a class from outside mcp_lab, e.g. a pydantic
     model used as a template) that no code in its module changes -- no item or attribute assigned or
     deleted through the name, no mutating method called on it, no `global` statement for it;
   - one of the state objects `mcp_lab.lab.lab.components()` returns (each defined with its one instance in
     the feature that owns it);
   - an entry of `PROCESS_WIDE`.
   Anything else -- an instance of an mcp_lab class, a list or dict something appends to -- fails with its
   module, name and type.
3. Each of the Lab's components is bound at module level exactly once, in the module that defines its class
   (or, for a generic one, where its type argument is defined), and every `PROCESS_WIDE` entry exists and
   would otherwise fail rule 2 (no stale entries).
"""

from __future__ import annotations

import ast
import contextvars
import dataclasses
import enum
import functools
import importlib
import logging
import re
import threading
import types
import typing
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pydantic

import mcp_lab
from mcp_lab.lab import PROCESS_WIDE, lab

ROOT = Path(mcp_lab.__file__).parent
TOP = {"mcp_lab", "mcp_lab.lab", "mcp_lab.__main__"}

MUTATORS = {
    "append",
    "appendleft",
    "add",
    "clear",
    "discard",
    "extend",
    "extendleft",
    "insert",
    "pop",
    "popitem",
    "popleft",
    "remove",
    "setdefault",
    "sort",
    "update",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
    "reverse",
    "rotate",
    "seed",  # a random generator's: seeding it, or drawing from it, moves its state
    "getrandbits",
}
LOCK_TYPES = (type(threading.Lock()), type(threading.RLock()), threading.Condition, threading.Event)
MACHINERY = (re.Pattern, logging.Logger, contextvars.ContextVar, typing.TypeVar, typing.ParamSpec)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(tree: ast.AST, package: str) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            yield base, node.lineno
            yield from ((f"{base}.{alias.name}", node.lineno) for alias in node.names)


def test_no_module_below_the_top_imports_the_lab() -> None:
    found = []
    for name, path in MODULES.items():
        if name in TOP:
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for target, line in imports(ast.parse(path.read_text()), package):
            if target == "mcp_lab.lab" or target.startswith("mcp_lab.lab."):
                found.append(f"{path.relative_to(ROOT.parent)}:{line} imports {target}")
    assert not found, "\n".join(sorted(set(found)))


# ---- rule 2 ------------------------------------------------------------------------------------------------


def module_bindings(tree: ast.Module) -> dict[str, int]:
    """Names assigned at module level (also inside module-level if/try blocks), with their line."""
    names: dict[str, int] = {}

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If | ast.Try):
                walk(node.body)
                walk(node.orelse)
                for handler in getattr(node, "handlers", []):
                    walk(handler.body)
                walk(getattr(node, "finalbody", []))
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    for leaf in ast.walk(target):
                        if isinstance(leaf, ast.Name):
                            names.setdefault(leaf.id, node.lineno)
            elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
                names.setdefault(node.target.id, node.lineno)

    walk(tree.body)
    return names


def root_name(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def mutated_names(tree: ast.Module) -> set[str]:
    """Names something in the module changes: items or attributes stored or deleted through them, a mutating
    method called on them (or on something reached through them), or a `global` statement."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.update(node.names)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Attribute | ast.Subscript) and isinstance(leaf.ctx, ast.Store | ast.Del):
                        name = root_name(leaf)
                        if name is not None:
                            found.add(name)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            name = root_name(node.func.value)
            if name is not None:
                found.add(name)
    return found


def immutable(value: object, depth: int = 0) -> bool:
    if value is None or value is Ellipsis or isinstance(value, bool | int | float | complex | str | bytes | range):
        return True
    if isinstance(value, tuple | frozenset):
        return depth < 8 and all(immutable(item, depth + 1) for item in value)
    if isinstance(value, type | types.FunctionType | types.BuiltinFunctionType | types.ModuleType | enum.Enum):
        return True
    if isinstance(value, functools._lru_cache_wrapper | functools.partial | property):
        return True  # a cache of a pure function; a partial of one
    if isinstance(value, types.GenericAlias | types.UnionType) or type(value).__module__ in ("typing", "types"):
        return True
    if isinstance(value, pydantic.BaseModel):
        return bool(value.model_config.get("frozen"))  # a frozen record: a constant step shared by reports
    return dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.frozen  # type: ignore[attr-defined]


def sentinel(value: object) -> bool:
    has_slots = any(getattr(value, slot, None) is not None for cls in type(value).__mro__ for slot in getattr(cls, "__slots__", ()))
    return not getattr(value, "__dict__", {}) and not has_slots and not isinstance(value, list | dict | set)


def ours(value: object) -> bool:
    return type(value).__module__.split(".")[0] == "mcp_lab"


def findings() -> dict[str, str]:
    """"module:name" -> why it counts as module-level mutable state (before PROCESS_WIDE is applied)."""
    components = {id(c) for c in lab.components()}
    found: dict[str, str] = {}
    for name, path in MODULES.items():
        module = importlib.import_module(name)
        tree = ast.parse(path.read_text())
        changed = mutated_names(tree)
        rebound = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
        for binding, line in module_bindings(tree).items():
            if binding == "__all__" or not hasattr(module, binding):
                continue  # __all__: a constant list; a name bound only under TYPE_CHECKING does not exist
            value = getattr(module, binding)
            where = f"{name}:{binding}"
            if binding in rebound:  # whatever it holds now, a function rebinds it: state
                found[where] = f"line {line}: rebound by a `global` statement"
                continue
            if value is lab or id(value) in components or immutable(value) or isinstance(value, (*LOCK_TYPES, *MACHINERY)):
                continue
            if sentinel(value):
                continue
            if binding in changed:
                found[where] = f"line {line}: a {type(value).__name__} the module changes"
            elif ours(value):
                found[where] = f"line {line}: an mcp_lab {type(value).__name__} object that is not one of the Lab's"
    return found


def test_module_level_mutable_state_is_the_labs_or_named_process_wide() -> None:
    unexpected = {where: why for where, why in findings().items() if where not in PROCESS_WIDE}
    assert not unexpected, "\n".join(f"{where}: {why}" for where, why in sorted(unexpected.items()))


def test_every_process_wide_entry_exists_and_is_state() -> None:
    found = findings()
    stale = [where for where in PROCESS_WIDE if where not in found]
    assert not stale, f"PROCESS_WIDE names what is no longer module-level mutable state: {stale}"
    assert all(why.strip() for why in PROCESS_WIDE.values())


# ---- rule 3 ------------------------------------------------------------------------------------------------


def test_each_component_is_one_instance_bound_in_its_own_feature() -> None:
    homes: dict[int, list[str]] = {id(c): [] for c in lab.components()}
    for name, path in MODULES.items():
        if name in TOP or name == "mcp_lab.servers.registry":  # the composers name them again
            continue
        module = importlib.import_module(name)
        for binding in module_bindings(ast.parse(path.read_text())):
            value = getattr(module, binding, None)
            if id(value) in homes:
                homes[id(value)].append(f"{name}:{binding}")
    for component in lab.components():
        where = homes[id(component)]
        assert len(where) == 1, f"{type(component).__name__} is bound at module level in {where or 'no module'}"
        (home,) = where
        feature = home.split(":")[0].split(".")[:2]
        assert type(component).__module__.split(".")[:2] == feature, (home, type(component).__module__)


def test_the_lab_resets_what_it_may_forget_and_keeps_the_rest() -> None:
    import mcp_lab.lab as lab_module
    from mcp_lab.flow.history import history
    from mcp_lab.forms.board import board

    kept_answerers = list(history.fallback_answerers)
    board.prearranged_in_order.append({"n": 1})
    board.prearranged_keyed.setdefault("ask", deque()).append({"n": 2})
    flows = mcp_lab.flows
    lab_module.reset()
    assert mcp_lab.flows is flows and flows == [] and mcp_lab.last() is None  # the public list, cleared in place
    assert board.prearranged_in_order == deque() and board.prearranged_keyed == {}
    assert history.fallback_answerers == kept_answerers
    assert lab.history is history and lab.board is board and lab.servers.sandbox is mcp_lab.sandbox
