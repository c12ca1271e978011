"""The servers feature: every server the kernel started or connected to, and how its clients reach it.

Spec context: a 2026-07-28 server seals `request_state` under its key ring, and its name is the token's
audience; header parameters exist only on Streamable HTTP. Here: a server the lab started and the one
task that owns each of its clients (`lab_server`), the kernel's servers by name (`sandbox`) -- with the
rest of the servers' state named together in `registry` --, what the lab puts on logging (`logging_hooks`),
the server's own error reasons captured per leg (`server_log`) and its own logging kept off the cells
(`log_book`), a server built elsewhere brought in with its own security (`adopt`), the thread that serves
over loopback HTTP (`loopback`) and `mcp_lab.serve` itself (`serving`), behind a bearer secret and an
Origin allowlist (`access`), servers the lab did not start (`outside`, reached over `transports`, joined by
`connect`), what any of them offers (`describe`), and the records and views of the server list, a
connection and a description.
"""
