"""URL-mode elicitation: the link is shown, never opened; I've finished / Decline / Cancel."""

from __future__ import annotations

import asyncio

import pytest

import mcp_lab
from mcp_lab.forms import FormAnswerer, current, prearrange
from mcp_lab.forms.url import UrlForm, link_facts
from tests.forms.conftest import Probe, next_panel


async def visit(url: str = "https://auth.example.com/start?x=1") -> tuple[asyncio.Future[mcp_lab.Flow], UrlForm]:
    before = current()
    task = asyncio.ensure_future(mcp_lab.call("probe", "visit", {"url": url}, answers=FormAnswerer()))
    form = (await next_panel(before))[0]
    assert isinstance(form, UrlForm)
    return task, form


@pytest.mark.parametrize(("press", "action"), [("finish", "accept"), ("decline", "decline"), ("cancel", "cancel")])
async def test_the_three_buttons(probe: Probe, press: str, action: str) -> None:
    task, form = await visit()
    assert form.record()["buttons"] == {"submit": "I've finished", "decline": "Decline", "cancel": "Cancel"}
    assert getattr(form, press)()
    flow = await task
    assert flow.text == f"consent: {action} content=None"
    assert probe.seen == [{"action": action}]


async def test_the_link_is_shown_with_its_host_and_never_opened(probe: Probe) -> None:
    task, form = await visit()
    record = form.record()
    assert record["link"] == {"url": "https://auth.example.com/start?x=1", "host": "auth.example.com"}
    assert "Authorize the calendar" in record["message"] and record["kind"] == "url"
    assert any("does not open this link" in note for note in record["notes"])
    with pytest.raises(mcp_lab.LabError, match="no field 'anything'"):
        form.fill(anything=1)
    form.cancel()
    await task


def test_only_http_links_are_clickable() -> None:
    assert link_facts("http://example.org/")["host"] == "example.org"
    for url in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,<b>x</b>"):
        assert link_facts(url) == {"url": url, "host": ""}  # no host: the page draws it as text, not a link


async def test_prearranged_finish(probe: Probe) -> None:
    prearrange(True)
    flow = await mcp_lab.call("probe", "visit", {"url": "https://x.org"}, answers=FormAnswerer())
    assert flow.text == "consent: accept content=None"
