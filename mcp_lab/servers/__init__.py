"""The servers feature: every server the kernel started or connected to, and how its clients reach it.

Spec context: a 2026-07-28 server seals `request_state` under its key ring, and its name is the token's
audience; header parameters exist only on Streamable HTTP. Here: the kernel's registry of servers
(`sandbox`), a server the lab started (`LabServer`) and the one task that owns each of its clients,
the server's own log captured per leg (`server_log`), serving over loopback HTTP (`serving`) behind a
bearer secret and an Origin allowlist (`access`), servers the lab did not start (`connect`, over
`transports`), and the records and views of the server list and of a connection.
"""
