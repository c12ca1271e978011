"""Finished flows kept packed (mcp_lab/flow/kept.py): the same records, far fewer objects for the collector.

Counts, never times: how many GC-tracked objects a kept flow owns, before and after it is packed, and that
every field reads back exactly as it was -- over an in-process server and over loopback HTTP (whose rounds
hold the recorded exchanges).
"""

from __future__ import annotations

import gc
import types
from dataclasses import fields
from typing import Any

import mcp_lab
from mcp_lab import Flow
from mcp_lab.flow import kept
from mcp_lab.flow.history import history
from mcp_lab.flow.round import Round
from mcp_lab.servers.lab_server import LabServer

ANSWERS = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}}


def owned(flow: Flow) -> list[object]:
    """The GC-tracked objects reachable from `flow` that are its own: not its server, classes or functions.

    After a collection, as the collector sees them from then on (it stops tracking a tuple of atoms, such
    as the unused answers' names, the first time it visits one)."""
    gc.collect()
    shared = {id(flow.__dict__.get("_connection"))}
    seen: dict[int, object] = {}
    todo: list[object] = [flow]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in shared or not gc.is_tracked(obj):
            continue
        if isinstance(obj, type | types.ModuleType | types.FunctionType | types.MethodType | LabServer):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


CONTAINER_FIELDS = tuple(
    f.name for f in fields(Round) if any(kind in str(f.type) for kind in ("dict", "list", "JsonObject", "LegError"))
)
"""The fields a round declares a dict or a list in (`LegError` is a TypedDict, `JsonObject` a dict)."""


def packed(flow: Flow) -> bool:
    return kept.PACKED in vars(flow)


async def test_a_finished_flow_is_packed_when_the_next_starts_and_reads_back_the_same(demo: LabServer) -> None:
    first = await mcp_lab.call("demo", "book", {"city": "Paris"}, answers={**ANSWERS, "typo": {"x": 1}})
    saved = first.to_json()
    loose = len(owned(first))
    assert not packed(first)  # its caller reads it first, as it is
    second = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=ANSWERS)
    assert packed(first) and not packed(second)
    assert len(owned(first)) <= 2 < 20 <= loose  # the flow and its dict, instead of its rounds' dozens
    assert mcp_lab.flows[-2] is first and mcp_lab.flows[-1] is second  # the same objects, kept in order
    assert first.status == "done" and first.text == "Booked Paris in eu (ok=True)"
    assert first.unused_answers() == ["typo"]  # its answerer went, what it did not use is still told
    assert first.to_json() == saved  # reading a packed field unpacks every one, exactly as it was
    assert not packed(first)
    assert first == Flow.from_json(saved)
    assert [r.outcome for r in first.rounds] == ["input_required", "input_required", "result"]
    assert first.rounds[1].sent_request_state == first.rounds[0].request_state
    assert first.arguments == {"city": "Paris"} and any("typo" in note for note in first.notes)


async def test_each_packed_field_unpacks_them_all(demo: LabServer) -> None:
    for name in kept.PACKED_FIELDS:
        flow = await mcp_lab.call("demo", "book", {"city": "Oslo"}, answers=ANSWERS)
        saved = flow.to_json()
        assert flow.pack() and packed(flow)
        value: Any = getattr(flow, name)
        assert not packed(flow) and value is getattr(flow, name)  # unpacked once, then plain attributes
        assert flow.to_json() == saved


async def test_a_flow_whose_parts_are_held_elsewhere_stays_as_it_is(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Lima"}, answers=ANSWERS)
    held_round = flow.rounds[0]
    assert not flow.pack()
    assert flow.rounds[0] is held_round
    result = flow.rounds[-1].result
    del held_round
    assert not flow.pack()  # a round's result held by a name here
    del result
    notes = flow.notes
    assert not flow.pack()
    del notes
    assert flow.pack()


async def test_any_dict_or_list_of_a_round_held_elsewhere_keeps_the_flow_as_it_is(demo: LabServer) -> None:
    """Each field a round keeps a dict or a list in (also an empty one: whoever holds it may fill it), held by a
    name here, keeps the flow plain; let go of, the flow packs."""
    assert set(CONTAINER_FIELDS) == set(kept.HELD_FIELDS)  # what pack checks is every one of them
    assert len(CONTAINER_FIELDS) == 8  # answers sent, labels, questions, result, error, exchanges, log, back channel
    for index in range(3):
        for name in CONTAINER_FIELDS:
            flow = await mcp_lab.call("demo", "book", {"city": "Lima"}, answers=ANSWERS)
            rnd = flow.rounds[index]
            if name == "http":
                rnd.http = []  # the built records' list (an in-process leg has no exchanges to build)
            elif getattr(rnd, name) is None:
                setattr(rnd, name, {})
            held = getattr(rnd, name)
            del rnd
            assert type(held) in (dict, list)
            assert not flow.pack(), (index, name)
            del held
            assert flow.pack(), (index, name)


async def test_what_cannot_be_packed_exactly_is_not_packed(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Kyiv"}, answers=ANSWERS)

    class Note(str):
        pass

    flow.notes.append(Note("a str subclass"))  # marshal would hand back a plain str: not the same value
    assert not flow.pack() and not packed(flow)
    assert type(flow.notes[-1]) is Note


async def test_unfinished_flows_are_never_packed(demo: LabServer) -> None:
    waiting = await mcp_lab.call("demo", "book", {"city": "Bern"})  # nobody answers: it waits
    assert waiting.status in ("input_required", "stopped") and not waiting.done
    history.finished(waiting)
    await mcp_lab.call("demo", "book", {"city": "Nice"}, answers=ANSWERS)
    assert not packed(waiting) and not waiting.pack()
    resumed = await mcp_lab.resume(waiting, answers=ANSWERS)
    assert resumed.status == "done"


async def test_http_rounds_pack_with_their_exchanges(http_demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "book", {"city": "Porto"}, answers=ANSWERS)
    assert all(r.http for r in flow.rounds)
    saved = flow.to_json()
    loose = len(owned(flow))
    await mcp_lab.call("demo", "book", {"city": "Faro"}, answers=ANSWERS)
    assert packed(flow) and len(owned(flow)) <= 2 < 100 <= loose
    assert flow.to_json() == saved
    assert [len(r.http) for r in flow.rounds] == [len(r["http"]) for r in Flow.from_json(saved).to_dict()["rounds"]]


async def test_a_flow_whose_token_was_refused_keeps_its_answers_for_the_start_over(demo: LabServer) -> None:
    from mcp_lab.servers.sandbox import sandbox

    flow = await mcp_lab.call("demo", "handmade", {"x": 5}, answers={"q1": {"n": 1}})
    assert flow.status == "done"
    refused = await mcp_lab.call("demo", "handmade", {"x": 7})  # waits for q1
    await sandbox.restart("demo")  # new keys: its token no longer verifies
    await refused.run(answers={"q1": {"n": 3}})
    assert refused.status == "error" and refused.rounds[-1].state_rejected
    assert refused.pack() and packed(refused) and refused.pack()  # packing twice changes nothing
    resumed = await mcp_lab.resume(refused)  # no answers given: the ones it had still answer q1
    assert resumed.status == "done", resumed.summary()
    assert resumed.text == 'x=7 n=3 state={"x": 7}'
