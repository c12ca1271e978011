"""Which checks an audit runs: their ids in the catalogue's order, and `select` choosing among them.

Why a module of its own: the command line names the checks in `--help` and refuses an unknown `--only` /
`--skip` id before anything starts, and neither needs the checks themselves, which import the SDK (about a
CPU-second). `runner` holds one check per id here and asserts that it does, in this order, as `rules`
holds one rule per id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mcp_lab.errors import LabError

__all__ = ["CHECK_IDS", "DEFAULT_MAX_WAIT", "select"]

CHECK_IDS = (
    "ir-methods",
    "ir-nonempty",
    "ir-request-kinds",
    "capabilities",
    "state-integrity",
    "state-binding",
    "state-lifetime",
    "state-readable",
    "answers-unasked",
    "answers-missing",
    "no-affinity",
    "header-annotations",
    "header-mismatch",
    "header-missing",
    "header-base64",
    "origin",
)
DEFAULT_MAX_WAIT = 30.0
"""The longest the lifetime check waits for a token to expire (seconds)."""


def _ids(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, str | Iterable) or isinstance(value, Mapping):
        from mcp_lab.given import shown  # pydantic_core's, for this message only

        raise LabError(f"only= and skip= take check ids (a str or a list of them), not {shown(value)}")
    items = [value] if isinstance(value, str) else list(value)
    return [part.strip() for item in items for part in str(item).split(",") if part.strip()]


def select(only: str | Iterable[str] | None = None, skip: str | Iterable[str] | None = None) -> list[str]:
    """The check ids to run, in catalogue order; one clear error naming an unknown id."""
    chosen, dropped = _ids(only), _ids(skip)
    unknown = [i for i in (*chosen, *dropped) if i not in CHECK_IDS]
    if unknown:
        raise LabError(f"no check named {', '.join(map(repr, unknown))}; the checks are: {', '.join(CHECK_IDS)}")
    selected = [i for i in CHECK_IDS if (not chosen or i in chosen) and i not in dropped]
    if not selected:  # an audit that checks nothing must not report "no rule broken"
        raise LabError("every check is left out (only/skip): nothing would be audited; keep at least one check")
    return selected
