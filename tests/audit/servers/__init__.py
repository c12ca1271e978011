"""Servers for the audit's tests: two well-behaved ones and one module per deliberate flaw.

Each module has `NAME`, `build(ttl=...)`, `CALLS` (what the tests record, and the audit repeats) and `BREAKS`:
per transport, the ids of exactly the checks it must fail (the lifetime check, which waits, is tested apart).
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES = [
    "good_mcpserver",
    "good_lowlevel",
    "refund_plaintext",
    "unbound_sealed",
    "any_param",
    "ir_on_list",
    "empty_ir",
    "affinity",
    "bad_annotation",
]


def load(name: str) -> ModuleType:
    return importlib.import_module(f"tests.audit.servers.{name}")
