"""How replay names a difference: JSON paths, absent members, opaque ids, resolver keys from another module."""

from __future__ import annotations

from mcp_lab.replay.diff import (
    header_map,
    json_differences,
    key_path,
    match_keys,
    renamed_key,
    request_differences,
    show,
    tool_differences,
)


def test_paths_quote_what_is_not_an_identifier() -> None:
    assert key_path("$", "result") == "$.result"
    assert key_path("$.rounds", 2) == "$.rounds[2]"
    assert key_path("$.x", "x-mcp-header") == "$.x['x-mcp-header']"
    assert key_path("$.inputRequests", "pkg.mod:ask") == "$.inputRequests['pkg.mod:ask']"


def test_every_leaf_that_differs_is_named_and_absence_is_not_null() -> None:
    a = {"n": 1, "flag": True, "list": [1, 2], "gone": None, "same": {"k": "v"}}
    b = {"n": 1.5, "flag": 1, "list": [1], "same": {"k": "v"}, "new": "x"}
    assert [(p, show(x), show(y)) for p, x, y in json_differences(a, b, "$")] == [
        ("$.n", "1", "1.5"),
        ("$.flag", "true", "1"),  # JSON true is not 1
        ("$.list[1]", "2", "(absent)"),
        ("$.gone", "null", "(absent)"),
        ("$.new", "(absent)", "'x'"),
    ]


def test_a_question_of_another_kind_is_one_line_and_meta_and_ids_are_left_out() -> None:
    url = {"method": "elicitation/create", "params": {"mode": "url", "message": "m", "url": "https://a", "_meta": {}}}
    other_id = {**url, "params": {**url["params"], "elicitationId": "x1", "_meta": {"t": 1}}}
    same_but_id = {**url, "params": {**url["params"], "elicitationId": "x2"}}
    assert request_differences(other_id, same_but_id, "$.q") == []  # an opaque id: presence only
    (presence,) = request_differences(url, same_but_id, "$.q")
    assert presence.where == "$.q.params.elicitationId"
    (kind,) = request_differences(url, {"method": "roots/list"}, "$.q")
    assert kind.message == "$.q: elicitation -> roots"


def test_resolver_keys_match_when_only_the_module_differs() -> None:
    assert renamed_key("__main__:ask", ["pkg.shop:ask", "q1"]) == "pkg.shop:ask"
    assert renamed_key("__main__:ask", ["a:ask", "b:ask"]) is None  # ambiguous: never guess
    assert renamed_key("q1", ["x:q1"]) is None  # a hand-made key has no module part
    assert match_keys(["pkg.shop:ask", "q1"], ["__main__:ask", "q1", "__main__:new"]) == {
        "q1": "q1",
        "__main__:ask": "pkg.shop:ask",
    }


def test_a_tool_header_map_and_schema() -> None:
    schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
    assert header_map(schema) == {"region": "Region"}
    recorded = {"inputSchema": schema, "headers": header_map(schema)}
    assert tool_differences("t", recorded, recorded) == []
    (gone,) = tool_differences("t", recorded, None)
    assert gone.message == "$.tools.t: no longer listed by the server"
    plain = {"type": "object", "properties": {"region": {"type": "string"}}}
    messages = [d.message for d in tool_differences("t", recorded, {"inputSchema": plain, "headers": {}})]
    assert messages == [
        "$.tools.t.headers.region: argument 'region' travels as Mcp-Param-Region -> no header",
        "$.tools.t.inputSchema.properties.region['x-mcp-header']: 'Region' -> (absent)",
    ]
