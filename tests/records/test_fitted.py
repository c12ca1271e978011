"""Clipping never changes a record's types (issue 22, item 3): `fitted` caps every long string by what its
field takes -- a `Clipped` marker where the field allows one, a shortened `str` where it takes only text,
`clip_json` in free-form fields -- so a record validates whatever the length of what it shows."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_lab.flow.record import TokenBrief
from mcp_lab.headers.record import ToolHeadersRecord
from mcp_lab.records.base import CLIP_CHARS, Clipped, fitted
from mcp_lab.replay.record import ReplayRecord
from mcp_lab.tokens.record import QuestionRecord

TEXT = st.one_of(st.text(max_size=20), st.integers(CLIP_CHARS - 2, CLIP_CHARS * 3).map(lambda n: "é" * n))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
DIFFERENCE = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["question", "result", "failed"]),
        "where": TEXT,
        "message": TEXT,
        "recorded": JSON,
        "replayed": JSON,
    }
)
ENTRY = st.fixed_dictionaries(
    {
        "label": TEXT,
        "server": TEXT,
        "status": st.sampled_from(["same", "different", "stopped", "failed"]),
        "recorded_rounds": st.integers(0, 5),
        "replayed_rounds": st.integers(0, 5),
        "differences": st.lists(DIFFERENCE, max_size=3),
    }
)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@settings(max_examples=60, deadline=None)
@given(entries=st.lists(ENTRY, max_size=3), headline=TEXT, source=st.none() | TEXT)
def test_a_replay_record_of_any_length_validates_and_stays_small(
    entries: list[dict[str, Any]], headline: str, source: str | None
) -> None:
    record = fitted(ReplayRecord, {"ok": False, "headline": headline, "source": source, "entries": entries})
    for entry in record.entries:
        assert isinstance(entry.label, str) and len(entry.label) <= CLIP_CHARS
        for difference in entry.differences:
            assert isinstance(difference.message, str) and len(difference.message) <= CLIP_CHARS
    assert all(len(s) <= CLIP_CHARS for s in _strings(record.dump()))


def test_a_field_that_takes_a_clipped_marker_gets_one() -> None:
    token = fitted(TokenBrief, {"kind": "sealed", "text": "v1." + "A" * 10_000, "length": 10_003, "label": "x"})
    assert isinstance(token.text, Clipped) and token.text.length == 10_003
    question = fitted(QuestionRecord, {"key": "k" * 9000, "data": {"v": "x" * 9000}, "question": "q" * 9000})
    assert isinstance(question.key, str) and question.key.endswith("(9,000 chars)")
    assert question.data["v"]["clipped"] is True
    tool = fitted(ToolHeadersRecord, {"name": "t" * 5000, "reason": None})
    assert isinstance(tool.name, str) and len(tool.name) <= CLIP_CHARS
    assert fitted(ToolHeadersRecord, {"name": "short"}).name == "short"  # short text passes untouched
