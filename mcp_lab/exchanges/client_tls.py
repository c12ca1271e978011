"""The one TLS context every HTTP client of the lab verifies servers with, made once per process.

An `httpx2.AsyncClient` left to its default (`verify=True`) builds a fresh `ssl.SSLContext` and loads the
whole CA bundle into it: about 40 ms of CPU per client (measured), paid by every connection the lab opens
-- tutorial 11 alone opens 27, most of them to plain-HTTP loopback ports that never use it. The context is
the same each time (httpx2's own default: the CA bundle, the environment's SSL_CERT_FILE / SSL_CERT_DIR),
and an `ssl.SSLContext` may be shared by any number of clients and threads, so it is built once, on the
first client's creation, and handed to each client as `verify=`: nothing verified differently.
"""

from __future__ import annotations

import functools
import ssl

__all__ = ["tls_context"]


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx2's default verifying context, built on first use and then shared (`verify=tls_context()`)."""
    import httpx2

    return httpx2.create_ssl_context()
