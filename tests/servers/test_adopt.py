"""Adopting a user's own server (issue 14, item 1): it keeps its own request_state security unless asked.

The servers are the user-style ones (tests/sample_servers/own): `shop` is an MCPServer (the SDK's ephemeral keys,
audience "shop"), `desk` a lowlevel server with its own RequestStateBoundary. Adopted, each is called, its
tokens opened with its own codec (the lab reaches it in this kernel), and listed as sealed -- never as
plaintext; `take_keys=True` swaps only the keys.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp.server.mcpserver import RequestStateBoundary, RequestStateSecurity

import mcp_lab
from mcp_lab.errors import LabError
from mcp_lab.servers.adopt import adoption_note, boundary_of, load_server
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.view import ServerList
from tests.sample_servers.booking import build
from tests.sample_servers.changes import import_copy
from tests.sample_servers.own import desk, shop

BOOK = {"ask_traveller": {"name": "Ada", "seats": 2}}
TICKET = {"details": {"severity": "major"}, "summary": "Printer on fire."}


@pytest.fixture(autouse=True)
async def _clean() -> AsyncIterator[None]:
    try:
        yield
    finally:
        await sandbox.stop_all()


def _row(name: str) -> tuple[str, list[str], float | None]:
    row = next(r for r in ServerList.from_sandbox(sandbox).rows if r.name == name)
    return row.sealing, row.key_ids, row.ttl


async def test_an_adopted_mcpserver_keeps_its_own_keys_and_audience_and_the_lab_opens_its_tokens() -> None:
    before = shop.mcp._lowlevel_server.middleware[:]
    entry = mcp_lab.adopt(shop.mcp)
    assert entry.name == "shop" and entry.ring is None and entry.sealed
    assert shop.mcp._lowlevel_server.middleware == before  # nothing swapped
    boundary = boundary_of(entry)
    assert boundary is not None and boundary._audience == "shop"
    sealing, ids, ttl = _row("shop")
    assert sealing == "its own keys" and len(ids) == 1 and len(ids[0]) == 8 and ttl == 600.0
    flow = await mcp_lab.call("shop", "book", {"city": "Oslo"}, answers=BOOK)
    assert flow.status == "done" and flow.text == "Booked 2 seat(s) to Oslo for Ada"
    report = mcp_lab.inspect_token(flow)
    assert report.verified and report.verdict == "ok" and report.key_id == ids[0] and report.slot == 0
    assert report.can_open.startswith("the server's own 1 key(s)")
    assert "keeps its own request_state keys" in adoption_note(entry) and ids[0] in adoption_note(entry)


async def test_an_adopted_lowlevel_server_with_its_own_boundary_is_sealed_not_plaintext() -> None:
    entry = mcp_lab.adopt(desk.server, name="helpdesk")
    sealing, ids, _ = _row("helpdesk")
    assert sealing == "its own keys" and ids and "plaintext" not in sealing
    flow = await mcp_lab.call("helpdesk", "ticket", {"title": "Printer", "priority": "high"}, answers=TICKET)
    assert flow.status == "done", flow.summary()
    report = mcp_lab.inspect_token(flow)
    assert report.verdict == "ok" and report.verified
    assert report.expected["aud"] == "desk"  # its own audience, not the lab's name for it
    assert entry.kind == "lowlevel"


async def test_take_keys_swaps_only_the_keys(tmp_path: Path) -> None:
    copy = tmp_path / "desk_copy.py"  # take_keys changes the server object: a copy of the module, not the original
    copy.write_text(Path(desk.__file__).read_text())
    module = import_copy(copy, "desk_for_take_keys")
    try:
        entry = mcp_lab.adopt(module.server, name="helpdesk", take_keys=True)
    finally:
        del sys.modules["desk_for_take_keys"]
    assert entry.ring is not None and entry.ring.generated
    sealing, ids, _ = _row("helpdesk")
    assert sealing == "lab-generated key" and ids == list(entry.ring.ids)
    boundary = boundary_of(entry)
    assert boundary is not None and boundary._audience == "desk"
    flow = await mcp_lab.call("helpdesk", "ticket", {"title": "Printer", "priority": "high"}, answers=TICKET)
    report = mcp_lab.inspect_token(flow)
    assert report.verdict == "ok" and report.key_id == entry.ring.ids[0]
    assert "seals under a ring the lab holds" in adoption_note(entry)


async def test_a_zero_argument_factory_is_called_and_a_bad_one_is_one_line() -> None:
    entry = mcp_lab.adopt(build, name="booking")
    flow = await mcp_lab.call("booking", "book", {"city": "Rome"}, answers={"ask_region": {"region": "south"}})
    assert entry.kind == "mcpserver" and flow.text == "Booked Rome in south"
    with pytest.raises(LabError, match="adopt\\(\\) takes an MCPServer"):
        mcp_lab.adopt(42)
    with pytest.raises(LabError, match="ttl= changes how the server seals"):
        mcp_lab.adopt(build(), name="x", ttl=5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tests.sample_servers.own.shop", "--from takes module:attribute"),
        ("no_such_module_here:mcp", "importing 'no_such_module_here' raised ModuleNotFoundError"),
        ("tests.sample_servers.own.shop:nothing", "has no attribute 'nothing'"),
        ("tests.sample_servers.booking:VARIANTS", "that is a dict, not an MCPServer or a lowlevel Server"),
        ("tests.sample_servers.changes:changed_copy", "neither a server nor a zero-argument factory"),
    ],
)
def test_from_specs_that_name_no_server_are_one_line(spec: str, message: str) -> None:
    with pytest.raises(LabError, match=message):
        load_server(spec, "x")


def test_from_finds_objects_and_factories() -> None:
    assert load_server("tests.sample_servers.own.shop:mcp", "shop") is shop.mcp
    assert load_server("tests.sample_servers.own.desk:server", "desk") is desk.server
    assert load_server("tests.sample_servers.booking:build", "booking").name == "booking"


async def test_the_tamper_lab_and_the_audit_work_on_an_adopted_server_with_its_own_keys() -> None:
    mcp_lab.adopt(shop.mcp)
    waiting = await mcp_lab.start("shop", "tools/call", "book", {"city": "Oslo"})
    await waiting.step()
    tamper = await mcp_lab.tamper_lab(waiting)
    assert len(tamper.cases) == 7 and tamper.all_agree, tamper._repr_mimebundle_()["text/plain"]
    assert tamper.case("flipped byte").logged == "seal"
    flows = [await mcp_lab.call("shop", "book", {"city": "Oslo"}, answers=BOOK)]
    report = await mcp_lab.audit("shop", flows)
    assert report.exit_code == 0 and report.failed() == [], report.text()


class ReversingCodec:
    """A codec of the server's own (a stand-in for a KMS): the lab holds no key it could read."""

    def seal(self, payload: bytes) -> str:
        return "rev." + payload.decode()[::-1]

    def unseal(self, token: str) -> bytes:
        from mcp.server.mcpserver import InvalidRequestState

        if not token.startswith("rev."):
            raise InvalidRequestState("malformed")
        return token[4:][::-1].encode()


async def test_a_server_with_a_codec_of_its_own_is_opened_only_through_that_codec() -> None:
    server = build()
    chain = server._lowlevel_server.middleware
    chain[:] = [m for m in chain if not isinstance(m, RequestStateBoundary)]
    chain.append(RequestStateBoundary(RequestStateSecurity(codec=ReversingCodec()), default_audience="booking"))
    entry = mcp_lab.adopt(server)
    assert _row("booking")[0] == "its own codec (ReversingCodec)" and _row("booking")[1] == []
    assert "keeps its own codec (ReversingCodec)" in adoption_note(entry) and "cannot read its keys" in adoption_note(
        entry
    )
    waiting = await mcp_lab.start("booking", "tools/call", "book", {"city": "Rome"})
    await waiting.step()
    report = mcp_lab.inspect_token(waiting)
    assert report.verdict == "ok" and "opaque to the lab, its unseal() decides" in report.can_open


async def test_no_view_of_an_adopted_server_shows_its_own_keys() -> None:
    from tests.tokens.test_view import assert_no_keys, rendered

    keys = [os.urandom(32), os.urandom(32)]  # slot 0 seals, slot 1 is an older key it still opens
    server = build()
    chain = server._lowlevel_server.middleware
    chain[:] = [m for m in chain if not isinstance(m, RequestStateBoundary)]
    chain.append(RequestStateBoundary(RequestStateSecurity(keys=keys), default_audience="booking"))
    entry = mcp_lab.adopt(server)
    waiting = await mcp_lab.start("booking", "tools/call", "book", {"city": "Rome"})
    await waiting.step()
    report = mcp_lab.inspect_token(waiting)
    assert report.verdict == "ok" and report.verified
    shown = [
        adoption_note(entry),
        *rendered(ServerList.from_sandbox(sandbox)),
        *rendered(waiting),
        *rendered(report),
        *rendered(await mcp_lab.describe("booking")),
        *rendered(mcp_lab.server_log("booking")),
        repr(entry),
    ]
    assert_no_keys(shown, keys)
