"""A finished flow kept in two objects the garbage collector visits instead of some thirty.

Spec context: none of the protocol's -- keeping every flow a kernel ran (`mcp_lab.flows`, up to
`KEEP_FLOWS`) at the SDK's speed. Profiled, most of what the lab cost over the bare SDK was not its code
but what it keeps: each kept flow is a few dozen lists, dicts and dataclasses (its rounds, their answers,
results and HTTP records, its notes and arguments), and those make CPython's cyclic collector run full
collections the bare SDK never needs -- each visiting every object of the kernel.

So a finished flow that nothing else holds parts of is packed: its `arguments`, `rounds` and `notes` go
into one `bytes` (marshal, which round-trips exactly the plain types a flow holds -- dict, list, str, int,
float, bool, None -- and refuses anything else, in which case the flow is simply not packed). The first
read of any of the three unpacks them back into the same values, as fresh objects: `Flow` reads them
through `PackedField`, a class attribute Python consults only while the instance holds no value of that
name, so reading a field of an unpacked flow costs nothing extra.

Nothing may hold a part of a flow that is packed, or it would see a copy afterwards: a flow is packed only
when the reference counts of its three containers, of each round and of each round's containers say that
the flow alone holds them (a person's `r = f.rounds[0]`, an output cache holding a round, an iteration in
progress all keep the flow as it is). The flow object itself is never replaced: `f`, `mcp_lab.flows` and
`mcp_lab.last()` keep meaning the same object.
"""

from __future__ import annotations

import marshal
import operator
import sys
from dataclasses import fields
from typing import Any

from mcp_lab.flow.round import Round

__all__ = ["HELD_FIELDS", "PACKED", "PACKED_FIELDS", "PackedField", "pack", "unpack"]

PACKED = "_packed"
"""The instance attribute holding the packed fields (a `bytes`) while a flow is packed."""
PACKED_FIELDS = ("arguments", "rounds", "notes")
"""The fields of a flow that are packed: all that is left is atoms (str, int, bool, None) and its connection."""
_ROUND_FIELDS = tuple(f.name for f in fields(Round))
_ROW = operator.itemgetter(*_ROUND_FIELDS)
"""A round's fields in their declared order, whatever order its dict holds them in (a KeyError if one is gone)."""
HELD_FIELDS = (
    "sent_input_responses", "answered_by", "input_requests", "result", "error", "http", "server_log", "backchannel"
)
"""The fields of a round that hold a dict or a list (or None): what someone may hold a part of. `http` holds its
exchanges' kept form, a tuple of immutable values, until its records are built into a list; the rest are atoms."""
_HELD = operator.itemgetter(*HELD_FIELDS)

# What sys.getrefcount says of an object nothing else holds, at each place `pack` asks (its one holder,
# the names `pack` reads it through, and getrefcount's own argument).
_FIELD_ALONE = 3  # the flow's dict, a local name, the argument
_ROUND_ALONE = 3  # the rounds list, the loop name, the argument
_VALUE_ALONE = 4  # the round's dict, the tuple `_HELD` picks, the loop name, the argument


def pack(state: dict[str, Any]) -> bool:
    """Pack a flow's `state` (its `__dict__`) in place; False (and nothing changed) when it cannot be."""
    if PACKED in state:
        return True
    arguments = state.get("arguments")
    rounds = state.get("rounds")
    notes = state.get("notes")
    if type(arguments) is not dict or type(rounds) is not list or type(notes) is not list:
        return False
    refcount = sys.getrefcount
    if refcount(arguments) > _FIELD_ALONE or refcount(rounds) > _FIELD_ALONE or refcount(notes) > _FIELD_ALONE:
        return False
    rows: list[tuple[Any, ...]] = []
    for rnd in rounds:
        if type(rnd) is not Round or refcount(rnd) > _ROUND_ALONE:
            return False
        values = rnd.__dict__
        if len(values) != len(_ROUND_FIELDS):  # SDK models kept beside the fields (a flow that has not ended)
            return False
        try:
            for value in _HELD(values):  # not every field: most hold atoms (a loop over all took twice as long)
                if value is not None and type(value) is not tuple and refcount(value) > _VALUE_ALONE:
                    return False
            rows.append(_ROW(values))
        except KeyError:  # a field deleted (and something else set in its place)
            return False
    try:
        # Version 2: no back-references, so no table of every object written (a token echoed in the next leg
        # is written twice, some 400 bytes); measured in place, a tenth less time than the default version.
        packed = marshal.dumps((arguments, rows, notes), 2)
    except ValueError:  # something marshal does not know (a subclass, an object): the flow stays as it is
        return False
    for name in PACKED_FIELDS:
        del state[name]
    state[PACKED] = packed
    return True


def unpack(state: dict[str, Any]) -> bool:
    """Put the packed fields back into `state` as plain values; False when nothing was packed."""
    packed = state.pop(PACKED, None)
    if packed is None:
        return False
    arguments, rows, notes = marshal.loads(packed)
    state["arguments"] = arguments
    state["rounds"] = [Round(**dict(zip(_ROUND_FIELDS, row, strict=True))) for row in rows]
    state["notes"] = notes
    return True


class PackedField:
    """A class attribute for a packed field: consulted only while the instance has no value of its own, it
    unpacks the flow and returns the field (a non-data descriptor, so an unpacked flow's reads are plain)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        state = instance.__dict__
        if not unpack(state):
            raise AttributeError(f"{type(instance).__name__!r} object has no attribute {self.name!r}")
        return state[self.name]
