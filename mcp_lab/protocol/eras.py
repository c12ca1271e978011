"""The two protocol eras the lab speaks, and the methods a multi round-trip flow may call.

Spec context: 2026-07-28 multi round-trip requests answer `tools/call`, `prompts/get` and
`resources/read` with `InputRequiredResult`; a 2025-11-25 connection asks its questions over the back
channel instead.
"""

from __future__ import annotations

__all__ = ["LEGACY", "METHODS", "MODERN"]

METHODS: tuple[str, ...] = ("tools/call", "prompts/get", "resources/read")
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
