"""Key-rotation records: the acceptance matrix of a fleet, and a rotation under load.

Spec context: the SDK docs' three-phase key rotation -- `keys[0]` seals, every key in the ring unseals:
`[OLD]` -> `[OLD, NEW]` -> `[NEW, OLD]` -> `[NEW]`, each step fully rolled out before the next. A matrix
cell is a real verification (the instance in that row was sent a token minted in that column's phase):
accepted, or refused with the reason the instance logged. The load record counts what happened to many
concurrent flows across the steps next to what the rings predicted.
"""

from __future__ import annotations

from typing import Literal

from mcp_lab.records.base import Model, Record

__all__ = ["CellRecord", "LoadMismatch", "LoadStep", "RotationLoadRecord", "RotationRecord"]


class CellRecord(Model):
    accepted: bool
    reason: str | None = None
    """The instance's logged reason when it refused (e.g. `unknown key`)."""
    mark: str
    """`✔`, or `✘ <reason>`."""


class RotationRecord(Record):
    kind: Literal["rotation"] = "rotation"
    version: Literal[1] = 1
    title: str
    rows: list[str]
    """Instances with the ring each holds now."""
    columns: list[str]
    """The phase whose ring minted the token."""
    cells: list[list[CellRecord]]
    notes: list[str] = []


class LoadStep(Model):
    before: list[str]
    after: list[str]
    lost: int


class LoadMismatch(Model):
    flow: str
    minted_by: str | None = None
    retried_on: str | None = None
    ok: bool


class RotationLoadRecord(Record):
    kind: Literal["rotation-load"] = "rotation-load"
    version: Literal[1] = 1
    order: str
    flows: int
    finished: int
    lost: int
    predicted_lost: int
    agrees: bool
    summary: str
    mismatches: list[LoadMismatch] = []
    reasons: dict[str, int] = {}
    steps: list[LoadStep] = []
    wall: float
    legs: int
