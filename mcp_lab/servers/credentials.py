"""Credentials given on a command line or in a magic: `--header "NAME: VALUE"`, `--header-file FILE`, URLs.

Why this module: a credential must reach the server and nothing else -- no usage line, error, report or log.
So header values are parsed here into a dict and never echoed (a bad line is named by its header *name*
only), a header file (the one `%mcp_server url NAME` writes, or any file of `Name: value` lines) is read
here, and every message that names a URL goes through `redact_url`, which hides a `user:password@` part.
`SafeArgumentParser` is argparse with an error path that cannot repeat what was typed after `--header`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NoReturn

from mcp_lab.errors import LabError

__all__ = ["SafeArgumentParser", "header_arguments", "read_header_file", "redact", "redact_url"]

_TOKEN_CHARS = frozenset("!#$%&'*+-.^_`|~")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)([^/\s@]*)@")
HIDDEN = "***"


def redact_url(text: str) -> str:
    """`text` with the user-information part of every URL in it hidden (`http://***@host/...`)."""
    return _USERINFO.sub(lambda m: f"{m.group(1)}{HIDDEN}@", text)


def redact(text: str, values: Iterable[str]) -> str:
    """`text` with every one of `values` (secrets: header values, words of them) and URL passwords hidden."""
    for value in sorted({v for v in values if len(v) >= 4}, key=len, reverse=True):
        text = text.replace(value, HIDDEN)
    return redact_url(text)


def _header_line(line: str, where: str) -> tuple[str, str]:
    key, sep, value = line.partition(":")
    key = key.strip()
    if not sep or not key or not all(c.isalnum() or c in _TOKEN_CHARS for c in key):
        # Never the line itself: without its colon a header line is all value, and that may be the secret.
        named = f" (the line for {key!r} is not)" if sep and key and key.isascii() and key.isprintable() else ""
        raise LabError(f'{where} takes "Name: value", e.g. "Authorization: Bearer ..."{named}; the text is not shown')
    return key, value.strip()


def read_header_file(path: str | Path) -> dict[str, str]:
    """The `Name: value` lines of a header file (blank lines and `#` comments skipped)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabError(f"--header-file {str(path)!r}: cannot read it ({type(exc).__name__})") from None
    headers: dict[str, str] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, value = _header_line(line, f"--header-file {str(path)!r}")
            headers[key] = value
    if not headers:
        raise LabError(f"--header-file {str(path)!r} holds no header line")
    return headers


def header_arguments(lines: Sequence[str], files: Sequence[str] = ()) -> dict[str, str]:
    """`--header` lines and `--header-file` files as one dict (a `--header` wins over a file's line)."""
    headers: dict[str, str] = {}
    for path in files:
        headers.update(read_header_file(path))
    for line in lines:
        key, value = _header_line(line, "--header")
        headers[key] = value
    return headers


class SafeArgumentParser(argparse.ArgumentParser):
    """argparse whose error lines never repeat a word the user typed that is not an option name.

    argparse's own errors quote what it did not understand (`unrecognized arguments: Bearer s3cr3t`, for an
    unquoted `--header Authorization: Bearer s3cr3t`), and that line lands in a CI log. Here every typed word
    that is not one of the parser's option strings is hidden from the message, and URL passwords too."""

    typed: tuple[str, ...] = ()
    """The command line being parsed (set by `parse_args`, shared by the subcommands' parsers)."""

    def parse_args(self, args: Sequence[str] | None = None, namespace: None = None) -> argparse.Namespace:  # type: ignore[override]
        SafeArgumentParser.typed = tuple(sys.argv[1:] if args is None else args)
        return super().parse_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        words = [w for w in SafeArgumentParser.typed if not w.startswith("-")]
        words += [w.partition("=")[2] for w in SafeArgumentParser.typed if w.startswith("--") and "=" in w]
        message = redact(message, (w for w in words if w not in ("audit", "replay")))
        if "unrecognized arguments" in message:
            message += ' (not shown, they may hold a secret; quote a header: --header "Authorization: Bearer ...")'
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")
