"""Registering the magics with IPython when the extension loads, and taking them off when it unloads.

`%load_ext mcp_lab` registers every magics class and the input transformer that lets a bare `%mcp_call` line
be awaited; `%unload_ext` (and the first half of `%reload_ext`) takes off exactly those, so a reload leaves
one of each.
"""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics

from mcp_lab.magics.await_line import await_magic_transformer
from mcp_lab.magics.servers import LabMagics

__all__ = ["register", "unregister"]


def _magics_classes() -> tuple[type[Magics], ...]:
    from mcp_lab.magics.audit import AuditMagics
    from mcp_lab.magics.connect import ConnectMagics

    return (LabMagics, ConnectMagics, AuditMagics)


def register(shell: InteractiveShell) -> None:
    for magics in _magics_classes():
        shell.register_magics(magics)
    if await_magic_transformer not in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.append(await_magic_transformer)


def unregister(shell: InteractiveShell) -> None:
    """Undo `register`: the magics and the input transformer go (`%unload_ext`, `%reload_ext`)."""
    manager = shell.magics_manager
    for magics in _magics_classes():
        instance = manager.registry.pop(magics.__name__, None)
        if instance is None:
            continue
        for kind, functions in instance.magics.items():
            table = manager.magics[kind]
            for name, function in functions.items():
                if table.get(name) == function:  # not a magic someone registered under the same name since
                    del table[name]
    if await_magic_transformer in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.remove(await_magic_transformer)
