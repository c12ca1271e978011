"""Servers written the way a user writes them, in their own modules, for the own-server tests (issue 14).

`shop` is an `MCPServer` (resolvers for elicitation, sampling and roots; a URL-mode question; a header
parameter; structured output); `desk` is a lowlevel `Server` with hand-made input requests. Each runs
in-process (import it), over stdio (`python -m tests.sample_servers.own.shop`) or over HTTP
(`python -m tests.sample_servers.own.shop --http PORT`). They import nothing from the tests, so a changed copy
of either file runs anywhere.
"""
