"""A configuration file the lab wrote (the proxy's Caddyfile), shown as a file a person could deploy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcp_lab.markup import MimeBundle, code, e, wrap

__all__ = ["ConfigFile"]


@dataclass
class ConfigFile:
    """A configuration file the lab wrote: shown with its path, as a file a person could deploy."""

    path: Path
    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"# {self.path.name} (written by mcp_lab at {self.path})\n{self.text}"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        html = f"<div>{code(self.path.name)} <small>{e(str(self.path))}</small></div><pre>{e(self.text)}</pre>"
        return {"text/plain": repr(self), "text/html": wrap(html, "mcp-lab-config")}
