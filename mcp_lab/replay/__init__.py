"""The replay feature: recorded flows kept as a collection and replayed against a server as a regression test.

Spec context: a multi round-trip request is its request, the questions the server embedded, the answers
sent back and the result. Here: saving and loading collections (`collection`), replaying them with the
recorded answers and comparing what changed (`run`), the report's record and view, and the command line
(`cli`, behind `python -m mcp_lab replay`).
"""
