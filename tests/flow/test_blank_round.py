"""A leg's round made by `Round.blank` (flow/round.py): the very round `Round(index=...)` makes, for less.

Every leg makes one, so it is built by copying a blank round's fields; nothing may tell the two apart --
fields, their order (`flow/kept.py` packs a round by its field order), equality, the saved form -- and no
two rounds (nor the blank they are copied from) may share a container.
"""

from __future__ import annotations

import dataclasses

from mcp_lab.flow import kept
from mcp_lab.flow.round import Round


def test_a_blank_round_is_the_round_the_dataclass_makes() -> None:
    for index in (0, 1, 7):
        made, blank = Round(index=index), Round.blank(index)
        assert blank == made and type(blank) is Round
        assert list(vars(blank)) == list(vars(made)) == [f.name for f in dataclasses.fields(Round)]
        assert vars(blank) == vars(made)
        assert blank.to_dict() == made.to_dict()
        assert Round.from_dict(blank.to_dict()) == blank
        assert repr(blank) == repr(made)
        assert blank.http == [] and blank.requests() == {} and blank.response_models() is None


def test_blank_rounds_share_no_container() -> None:
    first, second = Round.blank(0), Round.blank(1)
    first.answered_by["k"] = "script"
    first.server_log.append("logged")
    first.backchannel.append({"key": "1"})
    first.http.append({"method": "POST"})
    assert second.answered_by == {} and second.server_log == [] and second.backchannel == [] and second.http == []
    assert Round.blank(2) == Round(index=2)  # the blank copied from is untouched


def test_a_blank_round_packs_and_unpacks_as_a_made_one() -> None:
    def state(rnd: Round) -> dict[str, object]:
        return {"arguments": {"city": "P"}, "rounds": [rnd], "notes": []}

    blank, made = state(Round.blank(0)), state(Round(index=0))
    assert kept.pack(blank) and kept.pack(made)
    assert blank[kept.PACKED] == made[kept.PACKED]
    assert kept.unpack(blank) and blank["rounds"] == [Round(index=0)]


def test_a_new_flow_is_the_flow_the_dataclass_makes() -> None:
    import pytest

    from mcp_lab.errors import LabError
    from mcp_lab.flow.flow import Flow

    for era, rounds_cap in (("2026-07-28", 8), ("2025-11-25", 0)):
        args = {"city": "P"}
        made = Flow(server="s", method="prompts/get", target="t", arguments=args, era=era, max_rounds=rounds_cap)
        new = Flow.new("s", "prompts/get", "t", args, era, rounds_cap)
        assert type(new) is Flow and len(new.id) == 8 and new.id != made.id
        new.id = made.id  # random: everything else must match
        assert list(vars(new)) == list(vars(made)) and vars(new) == vars(made) and new == made
        assert new.arguments is args and new.to_json() == made.to_json() and repr(new) == repr(made)
    first, second = (Flow.new("s", "tools/call", "t", {}, "2026-07-28", 8) for _ in range(2))
    first.rounds.append(Round.blank(0))
    first.notes.append("note")
    assert second.rounds == [] and second.notes == [] and first.id != second.id  # no container shared
    with pytest.raises(LabError, match="method must be one of"):
        Flow.new("s", "tools/list", "t", {}, "2026-07-28", 8)
