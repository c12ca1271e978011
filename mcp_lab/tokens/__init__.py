"""The tokens feature: sealed `request_state`, as the server's owner sees it.

Spec context: the SDK docs' "Protecting requestState". A 2026-07-28 server seals the state it hands the
client; the lab starts its servers with key rings it holds (`mcp_lab.protocol.keys`), so the notebook -- the
servers' owner -- can open what they sealed. Here: the lab identity servers may bind (`principal`), example
codecs (`example_codecs`), the boundary's claim checks (`claims`) and the rows a report lists (`rows`), what an
inspection knows besides the token (`context`), the inspector and its report (`inspector`, `report`), the
tamper experiment (`tamper`), and their records and views. The keyless anatomy of a token is the protocol's
(`mcp_lab.protocol.anatomy`); key material never leaves the key ring: everything shown names a key by its id.
"""
