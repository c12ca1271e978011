"""The headers feature: 2026-07-28 header parameters, `x-mcp-header` arguments mirrored into `Mcp-Param-*`.

Spec context: the SDK page "Header parameters". A tool argument marked `x-mcp-header: Name` travels in an
`Mcp-Param-Name` HTTP header too, so gateways can route without parsing JSON; servers reject a call whose
header and body disagree (-32020). Here: declaring a mark and listing a server's (`params`), the pure
analysis of schemas, headers and calls (`analysis`), the three experiments over real loopback HTTP
(`experiments`) and their results (`experiment_results`), and the records and views of both.
"""
