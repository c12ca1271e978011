"""A magic's line as the person typed it: variables expanded outside quotes and JSON, a trailing comment
dropped, then split into shell-style words -- each step one left-to-right pass, so linear in the line.

Why the lab's magics opt out of IPython's own expansion (`@no_var_expand`): IPython expands `{...}` and `$x`
inside quoted text too, so `text="costs $5 today"` reached the server as `costs 5 today` and `text="{len}"`
as `<built-in function len>`; and its `$` pattern looks ahead over the rest of the line at every `$`, so
its time grows with the square of the line's length -- seconds for a few tens of thousands of characters,
and Interrupt cannot stop a regular expression. The rules here:

- 'single'- and "double"-quoted text, JSON (`{"a": ...}`, `{}`, or `[...]` at the start of a word or
  after `=`) and a character after a backslash reach the magic exactly as typed.
- Elsewhere `{expression}` is replaced by the expression's value and `$name` (`$name.attr`) by the
  variable's, as in IPython (`--port {PORT}`); `{{`, `}}` and `$$` are a literal `{`, `}` and `$`. A value
  is inserted as one word, whatever it contains; one that is not a string is written as JSON when it can be
  (`True` -> `true`, a dict -> its JSON object). An expression that fails is one line naming it.
- `#` at the start of a word, outside quotes and JSON, begins a comment: the rest of the line is dropped.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shlex
import sys
import types
from collections.abc import Mapping
from typing import Protocol

from IPython.core.interactiveshell import InteractiveShell

from mcp_lab.bounded_json import json_extent
from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = [
    "as_word",
    "caller_namespace",
    "expand",
    "expand_for",
    "magic_args",
    "read_word",
    "refuse_options",
    "shell_words",
]

_PLAIN = re.compile(r"[^\s#\\'\"${}\[]+")
"""A run of characters no rule is about: copied in one step."""
_SPACE = re.compile(r"\s+")
_DOLLAR_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_JSON_OBJECT = re.compile(r"\{\s*[\"}]")
"""`{"key": ...` or `{}`: a JSON object, never an expression."""
_DOUBLE_QUOTED_END = re.compile(r'["\\]')
_SHOWN = 40


def _clip(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


class _Next:
    """Where the next `char` at or after a position is; each search starts past the previous answer, so all
    the searches over one line together read it once."""

    def __init__(self, line: str, char: str) -> None:
        self.line, self.char, self.found = line, char, -1

    def after(self, pos: int) -> int:
        if self.found != len(self.line) and self.found <= pos:
            found = self.line.find(self.char, pos + 1)
            self.found = len(self.line) if found < 0 else found
        return self.found


def as_word(value: object) -> str:
    """A value as one shell word: a string as it is, anything else as JSON when it has a JSON form."""
    if isinstance(value, str):
        text = value
    elif value is None or isinstance(value, bool | int | float | list | tuple | dict):
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = str(value)
    else:
        text = str(value)
    return shlex.quote(text)


@functools.lru_cache(maxsize=256)
def _compiled(source: str) -> types.CodeType | None:
    """The expression compiled once (a long line repeats its few names many times)."""
    try:
        return compile(source, "<magic line>", "eval")
    except Exception:  # not an expression (a JSON typo, `{not json`): the braces stay as typed
        return None


def _value(code: types.CodeType | str, shown: str, user_ns: JsonObject, local_ns: Mapping[str, JsonValue] | None) -> str:
    try:
        return as_word(eval(code, user_ns, local_ns))
    except Exception as exc:
        reason = _clip(str(exc)) or "no message"
        raise LabError(
            f"could not expand {_clip(shown)}: {type(exc).__name__}: {reason} "
            "(quote the text to send it as typed; {{ and $$ are a literal { and $)"
        ) from None


def _quoted_end(line: str, start: int) -> int:
    """The end of the double-quoted text opening at `start` (past its closing quote; the line's end if none)."""
    pos = start + 1
    while True:
        match = _DOUBLE_QUOTED_END.search(line, pos)
        if match is None:
            return len(line)
        if match[0] == '"':
            return match.end()
        pos = match.end() + 1  # a backslash: the character after it is part of the text


def expand(line: str, user_ns: JsonObject, local_ns: Mapping[str, JsonValue] | None = None) -> str:
    """The line with `{expr}` / `$name` expanded outside quotes and JSON and its trailing `# comment` dropped."""
    out: list[str] = []
    closing, opening = _Next(line, "}"), _Next(line, "{")
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        word_start = i == 0 or line[i - 1].isspace()
        if char.isspace():
            space = _SPACE.match(line, i)
            assert space is not None
            out.append(space[0])
            i = space.end()
        elif char == "#":
            if word_start:
                if out and out[-1].isspace():
                    out.pop()  # the spaces before the comment
                break
            out.append(char)
            i += 1
        elif char == "\\":
            out.append(line[i : i + 2])
            i += 2
        elif char == "'":
            close = line.find("'", i + 1)
            end = n if close < 0 else close + 1
            out.append(line[i:end])
            i = end
        elif char == '"':
            end = _quoted_end(line, i)
            out.append(line[i:end])
            i = end
        elif char == "$":
            name = _DOLLAR_NAME.match(line, i + 1)
            if line.startswith("$$", i):
                out.append("$")
                i += 2
            elif name is not None:
                out.append(_value(_compiled(name[0]) or name[0], "$" + name[0], user_ns, local_ns))
                i = name.end()
            else:
                out.append(char)
                i += 1
        elif char == "{":
            i = _brace(line, i, out, closing, opening, user_ns, local_ns)
        elif char == "}":
            out.append(char)
            i += 2 if line.startswith("}}", i) else 1
        elif char == "[" and (word_start or line[i - 1] == "="):
            end, _ = json_extent(line, i)
            out.append(line[i:end])
            i = end
        else:
            plain = _PLAIN.match(line, i)
            end = plain.end() if plain is not None else i + 1
            out.append(line[i:end])
            i = end
    return "".join(out)


def _brace(
    line: str,
    i: int,
    out: list[str],
    closing: _Next,
    opening: _Next,
    user_ns: JsonObject,
    local_ns: Mapping[str, JsonValue] | None,
) -> int:
    """`{{`, a JSON object, or `{expression}` at `i`; returns where the scan goes on."""
    if line.startswith("{{", i):
        out.append("'{'")  # quoted: a literal brace, never the start of raw JSON for the call-line splitter
        return i + 2
    if _JSON_OBJECT.match(line, i):
        end, _ = json_extent(line, i)
        out.append(line[i:end])
        return end
    close, inner = closing.after(i), opening.after(i)
    if close < len(line) and inner > close:  # an expression holds no braces, as in Python's format strings
        source = line[i + 1 : close]
        code = _compiled(source)
        if code is not None:
            out.append(_value(code, "{" + source + "}", user_ns, local_ns))
            return close + 1
    out.append("{")
    return i + 1


_PIECE = re.compile(r"""[^\s\\'"]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.""", re.DOTALL)
_ESCAPED_IN_QUOTES = re.compile(r'\\(["\\])')


def read_word(line: str, start: int, keep_quotes: bool = False) -> tuple[str, int]:
    """The POSIX shell word starting at `start` (quotes removed, backslash escapes applied) and its end;
    `keep_quotes`: split the same way but keep the word as typed, quotes and backslashes included.

    Written out rather than `shlex`, which builds each word a character at a time (quadratic in its length).
    """
    pieces: list[str] = []
    i, n = start, len(line)
    while i < n and not line[i].isspace():
        match = _PIECE.match(line, i)
        if match is None and keep_quotes and line[i] == "\\":
            pieces.append("\\")  # a backslash ending the line, kept as typed
            i += 1
            continue
        if match is None:  # an unclosed quote, or a backslash at the end of the line
            problem = "No escaped character" if line[i] == "\\" else "No closing quotation"
            raise LabError(f"could not parse the line: {problem} (close the quote, or put a backslash before it)")
        piece = match[0]
        if keep_quotes:
            pieces.append(piece)
        elif piece[0] == "'":
            pieces.append(piece[1:-1])
        elif piece[0] == '"':
            pieces.append(_ESCAPED_IN_QUOTES.sub(r"\1", piece[1:-1]))
        elif piece[0] == "\\":
            pieces.append(piece[1])
        else:
            pieces.append(piece)
        i = match.end()
    return "".join(pieces), i


def shell_words(line: str, keep_quotes: bool = False) -> list[str]:
    """POSIX shell words (quotes removed, backslash escapes; with `keep_quotes` each word as typed); an
    unclosed quote is one line."""
    words: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        word, i = read_word(line, i, keep_quotes)
        words.append(word)
    return words


_MAGIC_RUNNERS = (InteractiveShell.run_line_magic.__code__, InteractiveShell.run_cell_magic.__code__)


class ArgumentMagic(Protocol):
    """A magic decorated with IPython's `@magic_arguments`: it carries its argparse parser."""

    parser: argparse.ArgumentParser


def caller_namespace(shell: object) -> tuple[JsonObject, Mapping[str, JsonValue] | None]:
    """The user's namespace, and the local one of the code that ran the magic when that is a function
    (`def f(): %mcp_call ...`), as IPython's own expansion sees them."""
    user_ns: JsonObject = getattr(shell, "user_ns", {})
    frame = sys._getframe(1)
    for _ in range(40):
        if frame.f_code in _MAGIC_RUNNERS:
            caller = frame.f_back
            if caller is not None and caller.f_locals is not user_ns:
                return user_ns, caller.f_locals
            return user_ns, None
        if frame.f_back is None:
            break
        frame = frame.f_back
    return user_ns, None


def expand_for(shell: object, line: str) -> str:
    """`expand` with the namespaces of the cell (or function) that ran the magic."""
    user_ns, local_ns = caller_namespace(shell)
    return expand(line, user_ns, local_ns)


def magic_args(shell: object, magic: ArgumentMagic, line: str) -> argparse.Namespace:
    """A `@magic_arguments` magic's parsed line: expanded, comment dropped, split into words that keep their
    quotes, as IPython's own `parse_argstring` does (`--keys b'...'` is a Python expression; the magic drops
    the quotes around `--stdio "COMMAND ARGS"`) -- but in linear time and with one line for an unclosed quote."""
    words = shell_words(expand_for(shell, line), keep_quotes=True)
    return magic.parser.parse_args(words)


def refuse_options(magic: ArgumentMagic, args: argparse.Namespace, usage: str, allowed: frozenset[str] = frozenset()) -> None:
    """One line naming the options on a `@magic_arguments` line that its subcommand does not take.

    argparse accepts every option of the magic on every line, so `%mcp_server list --http` would be obeyed
    as `%mcp_server list` without a word; a person who typed the option meant something by it."""
    given = [
        action.option_strings[-1]
        for action in magic.parser._actions
        if action.option_strings
        and action.dest not in allowed
        and action.dest != "help"
        and getattr(args, action.dest, action.default) != action.default
    ]
    if given:
        raise LabError(f"{' '.join(given)}: not an option here; usage: {usage}")
