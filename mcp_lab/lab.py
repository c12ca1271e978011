"""The Lab: this kernel's state, composed from the state each feature owns -- and the one place that names it.

Spec context: multi round-trip requests can take a long time (a person answers a form, a tool runs), and a
notebook loses work easily, so the kernel keeps what a person would want back: every flow it ran and which
are running (the flows' history), the rounds of questions waiting for an answer (the forms' board), the
servers it started or connected to and what they leave running (the servers' registry), the HTTP exchanges
on their way to a lab server, the lab identity servers may bind, the token formats the lab codecs teach the
keyless reader, and the tasks nobody awaits.

Each feature owns its state: a class and its one instance in the feature's own module (`flow/history.py`,
`forms/board.py`, `servers/registry.py`, ...), which the feature's modules use directly. This module sits on
the top floor -- it may import every feature, and no feature imports it -- and composes them, so a test or a
fresh start resets them together (`lab.reset()`). Those instances are the package's only module-level
mutable state, besides what `PROCESS_WIDE` below names (tests/test_state_layout.py holds both rules).
"""

from __future__ import annotations

from mcp_lab.background import BackgroundTasks, background
from mcp_lab.deployment.fleet import ProcessFleet, running_fleets
from mcp_lab.deployment.running import LiveFleets
from mcp_lab.deployment.source import ServerSources, server_sources
from mcp_lab.exchanges.pending import PendingExchanges
from mcp_lab.exchanges.recorder import Exchange, pending_exchanges
from mcp_lab.flow.history import KEEP_FLOWS, FlowHistory, history
from mcp_lab.forms.board import KEEP_PANELS, FormBoard, board
from mcp_lab.protocol.anatomy import TokenFormats, token_formats
from mcp_lab.servers.registry import ServerRegistry, registry
from mcp_lab.tokens.principal import Principal, principal

__all__ = ["KEEP_FLOWS", "KEEP_PANELS", "PROCESS_WIDE", "Lab", "lab", "reset"]

PROCESS_WIDE = {
    "mcp_lab.exchanges.record:GIVEN_CREDENTIALS": (
        "header names given as credentials: their values stay redacted in every record from then on (never "
        "forgotten, so no reset can make a secret recordable again)"
    ),
    "mcp_lab.deployment.launcher:launcher": (
        "this process's one preloaded launcher: an OS process tied to this one's life, which the fleets it "
        "forked depend on (they stay across a reset, as the fleets do)"
    ),
    "mcp_lab.deployment.preloaded:_titles": (
        "in a forked instance only: the buffers Linux reads its retitled command line from, alive as long as it is"
    ),
    "mcp_lab.exchanges.record:_HTTP": "the `http` field's descriptor, used by functions: it holds only its field's name",
    "mcp_lab.flow.ids:_draw": (
        "the generator flow ids are drawn from, seeded from the system (reseeded in a forked child, as `random`'s)"
    ),
    "mcp_lab.flow.interrupts:_KERNEL": "the kernel this process runs in, once found (the same for every Lab)",
    "mcp_lab.flow.waking:waker": "the process's wakeup fd for signals (one per process), watched by the kernel's loop",
    "mcp_lab.tokens.context:_RINGS": "a bounded cache of facts derived from key rings (a pure function's memo)",
    "mcp_lab.view_registry:_BUNDLES": "which view draws which model: filled once at import, the same for every reset",
    "mcp_lab.view_registry:_TEXTS": "which view writes which piece of a model's text: filled once at import",
}
"""Module-level mutable objects outside the features' state objects, each process-wide by nature ("module:name"
-> why). Everything else a module keeps at module level is immutable, a lock, a ContextVar, a logger, a
compiled pattern, a sentinel, a table nothing mutates -- or one of the Lab's components."""


class Lab:
    """This kernel's state: each feature's state object, composed."""

    def __init__(
        self,
        history: FlowHistory,
        board: FormBoard,
        servers: ServerRegistry,
        exchanges: PendingExchanges[Exchange],
        principal: Principal,
        token_formats: TokenFormats,
        sources: ServerSources,
        fleets: LiveFleets[ProcessFleet],
        background: BackgroundTasks,
    ) -> None:
        self.history = history
        """Flows run in this kernel (`mcp_lab.flows`), the running ones, the fallback answerers."""
        self.board = board
        """Rounds of forms waiting, the forms shown, pre-arranged answers, the forms' mode."""
        self.servers = servers
        """The sandbox (servers by name), servings, stdio processes, the servers' logs and hooks, header files."""
        self.exchanges = exchanges
        """HTTP exchanges a lab client tagged, until the lab server they reached claims them."""
        self.principal = principal
        """The lab identity that servers bound with `lab_principal` see (`set_principal`)."""
        self.token_formats = token_formats
        """Token prefixes the lab codecs registered with the keyless reader."""
        self.sources = sources
        """Where each server came from (its %%mcp_server cell, or the module it was adopted from)."""
        self.fleets = fleets
        """Fleets of real server processes (deployment), stopped when the kernel exits."""
        self.background = background
        """Tasks nobody awaits, held until done."""

    def components(self) -> tuple[object, ...]:
        """Every state object the Lab composes, the servers' part by part (the layout test checks that nothing
        else is module-level mutable state)."""
        return (
            self.history,
            self.board,
            *self.servers.parts(),
            self.exchanges,
            self.principal,
            self.token_formats,
            self.sources,
            self.fleets,
            self.background,
        )

    def reset(self) -> None:
        """Forget every flow, waiting round, shown form and pre-arranged answer (tests; a fresh start).

        Servers, servings, fleets, pending exchanges and tasks stay (they own threads, processes and sockets that only
        stopping them releases), and so do the fallback answerers, the principal and the token formats the
        codecs registered (set up once, by the extension or by an import) and the servers' sources."""
        self.history.reset()
        self.board.reset()


lab = Lab(
    history, board, registry, pending_exchanges, principal, token_formats, server_sources, running_fleets, background
)
"""The kernel's one Lab."""


def reset() -> None:
    """`lab.reset()`: forget flows, waiting rounds, shown forms and pre-arranged answers."""
    lab.reset()
