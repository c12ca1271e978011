"""The protocol's facts, the floor every feature stands on: it imports no feature.

Spec context: MCP 2026-07-28 as the Python SDK (mcp==2.3.0) speaks it. Here: the protocol eras and the
methods a flow may call (`eras`), the error codes the lab tells apart (`codes`), the readable text of a
final result (`results`), the reason a server gave for refusing a request_state (`rejections`), how a
header parameter's value is spelled and judged (`header_values`), the limits a flow and a connection run
under (`limits`), key rings and key ids (`keys`), and the keyless anatomy of a token (`anatomy`, built from
`token_parts`, `structure` and `readable`). Nothing is imported here.
"""
