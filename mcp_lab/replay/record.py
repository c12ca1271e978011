"""The replay record: recorded multi round-trip flows sent again, and what differs.

Spec context: replaying recorded requests against a (possibly changed) server. Each entry says whether the
server asked the same questions, took the same number of rounds and gave the same result; each difference
is one stable line (no times, no tokens), with the recorded and replayed values when they are plain data.
"""

from __future__ import annotations

from typing import Any, Literal

from mcp_lab.records.base import Model, Record

__all__ = ["DifferenceRecord", "ReplayEntryRecord", "ReplayRecord"]


class DifferenceRecord(Model):
    kind: Literal["question", "rounds", "outcome", "result", "error", "unrecorded", "failed", "tool"]
    where: str
    message: str
    recorded: Any = None
    replayed: Any = None


class ReplayEntryRecord(Model):
    label: str
    server: str
    status: Literal["same", "different", "stopped", "failed"]
    recorded_rounds: int
    replayed_rounds: int
    differences: list[DifferenceRecord] = []


class ReplayRecord(Record):
    kind: Literal["replay"] = "replay"
    version: Literal[1] = 1
    server: str | None = None
    source: str | None = None
    ok: bool
    headline: str
    entries: list[ReplayEntryRecord] = []
