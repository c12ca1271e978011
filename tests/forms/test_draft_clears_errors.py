"""An inline error goes away as soon as the person's draft makes the field valid -- no second Submit needed.

Spec context: a 2026-07-28 elicitation form's answer is checked before anything is sent (issue 26: a
maintained validator for `format: email`, as pydantic's EmailStr uses). The front end sends a draft of the
form a moment after each change; the kernel re-checks only the fields that show an error, clears those that
became valid, keeps (with its current wording) any that did not, and never adds an error from a draft.
"""

from __future__ import annotations

import pytest

from tests.forms.conftest import Probe, ask_with_form, obj

PROFILE = obj(
    "name",
    "email",
    name={"type": "string", "minLength": 2},
    email={"type": "string", "format": "email"},
    site={"type": "string", "format": "uri"},
)


def draft(values: dict[str, str]) -> dict[str, object]:
    return {"event": "draft", "key": "q", "values": values}


@pytest.mark.parametrize("address", ["a@", "bob@@example.com", "bob@localhost", "no-at-sign", "a b@example.org"])
async def test_addresses_a_person_mistypes_are_refused_before_sending(probe: Probe, address: str) -> None:
    task, panel = await ask_with_form(PROFILE)
    form = panel["q"]
    panel.handle_event({"event": "submit", "key": "q", "values": {"name": "Ada", "email": address}})
    assert form.open and form.errors == {"email": "not a valid email address"}, form.errors
    assert probe.seen == [] and not task.done()  # nothing reached the server
    form.cancel()
    await task


async def test_a_valid_draft_clears_the_error_and_an_invalid_one_keeps_it(probe: Probe) -> None:
    task, panel = await ask_with_form(PROFILE)
    form = panel["q"]
    panel.handle_event({"event": "submit", "key": "q", "values": {"name": "A", "email": "a@"}})
    assert set(form.errors) == {"name", "email"}, form.errors

    panel.handle_event(draft({"name": "A", "email": "a@example"}))  # still no dot in the domain
    assert set(form.errors) == {"name", "email"}, form.errors
    panel.handle_event(draft({"name": "A", "email": "a@example.org", "site": "not a uri"}))
    assert form.errors == {"name": "must be at least 2 characters"}, form.errors  # email cleared; site: no new error
    assert form.record()["errors"] == {"name": "must be at least 2 characters"}  # what the page draws
    panel.handle_event(draft({"name": "Ada", "email": "a@example.org", "site": ""}))
    assert form.errors == {} and form.open and probe.seen == []  # valid, but nothing sent before Submit

    panel.handle_event({"event": "submit", "key": "q", "values": {"name": "Ada", "email": "a@example.org"}})
    flow = await task
    assert probe.seen == [{"action": "accept", "content": {"name": "Ada", "email": "a@example.org"}}]
    assert flow.status == "done"
