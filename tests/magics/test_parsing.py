"""Magic argument parsing and the `await %magic` input transformer (pure parts; kernel tests drive the rest)."""

from __future__ import annotations

import pytest

from mcp_lab.errors import LabError
from mcp_lab.magics.servers import await_magic_transformer, parse_arguments


def test_key_value_and_json_arguments() -> None:
    assert parse_arguments(["city=Paris", "n=3", "ok=true", 'tags=["a"]']) == {
        "city": "Paris",
        "n": 3,
        "ok": True,
        "tags": ["a"],
    }
    assert parse_arguments(['{"a":', "1}"]) == {"a": 1}
    assert parse_arguments([]) == {}


@pytest.mark.parametrize("words", [["{oops"], ["[1]"], ["novalue"], ["=x"]])
def test_bad_arguments(words: list[str]) -> None:
    with pytest.raises(LabError):
        parse_arguments(words)


def test_await_magic_is_rewritten() -> None:
    lines = ["flow = await %mcp_call demo book city=Paris\n", "await %mcp_read demo doc://1\n", "x = 1\n"]
    assert await_magic_transformer(lines) == [
        "flow = await get_ipython().run_line_magic('mcp_call', 'demo book city=Paris')\n",
        "await get_ipython().run_line_magic('mcp_read', 'demo doc://1')\n",
        "x = 1\n",
    ]


def test_a_bare_call_line_is_awaited_and_an_assigned_one_is_not() -> None:
    lines = ["%mcp_call demo book city=Paris\n", "run = %mcp_call demo book city=Oslo\n", "  %mcp_prompt x y\n"]
    assert await_magic_transformer(lines) == [
        "await get_ipython().run_line_magic('mcp_call', 'demo book city=Paris')\n",
        "run = %mcp_call demo book city=Oslo\n",
        "  %mcp_prompt x y\n",
    ]
