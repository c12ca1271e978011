"""The extension's gettext catalogs: extract the msgids from src/, keep each language's .po up to date, compile
it to the JSON JupyterLab reads.

    python labextension/scripts/catalog.py update ko_KR    # new msgids join the .po (empty), gone ones leave
    python labextension/scripts/catalog.py compile ko_KR   # .po -> .json (what JupyterLab loads)
    python labextension/scripts/catalog.py check ko_KR     # exit 1 naming every msgid without a translation

Where the catalogs live and why: JupyterLab's server (jupyterlab_server.translation_utils) looks up every
installed distribution's `jupyterlab.locale` entry point; for the entry `mcp_lab = "mcp_lab.catalogs"` it reads
`mcp_lab/catalogs/locale/<lang>/LC_MESSAGES/mcp_lab.json` and serves it as the domain `mcp_lab` (the one
src/i18n.ts loads) next to the language pack's own domains -- so the catalog ships inside the Python package.

A msgid is the first string literal of `trans.__(...)`, `trans._n(...)` (with its plural) or `N_(...)`
(the kernel's English phrases, src/forms/kernel-words.ts) anywhere in src/. The JSON is the "Jed" layout
jupyterlab-translate writes: {"": metadata, msgid: [translation]}; a plural entry carries two items even in
a language with one plural form (Korean), because JupyterLab takes a plural entry only if it has more than one.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "labextension" / "src"
DOMAIN = "mcp_lab"
LOCALE = ROOT / "mcp_lab" / "catalogs" / "locale"

_LITERAL = r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
_CALL = re.compile(r"(?:\btrans\.(__|_n)|\b(N_))\(\s*(" + _LITERAL + r")(?:\s*,\s*(" + _LITERAL + r"))?")
_JS_ESCAPES = {"n": "\n", "t": "\t"}


def _js_string(literal: str) -> str:
    return re.sub(r"\\(.)", lambda m: _JS_ESCAPES.get(m.group(1), m.group(1)), literal[1:-1])


@dataclass
class Message:
    msgid: str
    plural: str | None = None
    msgstr: str = ""
    where: str = ""


def extract(source: Path = SOURCE) -> dict[str, Message]:
    """Every msgid of the extension's source, in the order first met, with the file it was first met in."""
    found: dict[str, Message] = {}
    for path in sorted(source.rglob("*.ts")):
        for match in _CALL.finditer(path.read_text(encoding="utf-8")):
            kind = match.group(1) or match.group(2)
            msgid = _js_string(match.group(3))
            plural = _js_string(match.group(4)) if kind == "_n" and match.group(4) else None
            if msgid not in found:
                found[msgid] = Message(msgid, plural, where=str(path.relative_to(source)))
    return found


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def read_po(path: Path) -> tuple[dict[str, str], dict[str, Message]]:
    """(header fields, messages) of a .po written by `write_po` (one line per msgid / msgstr)."""
    header: dict[str, str] = {}
    messages: dict[str, Message] = {}
    current: Message | None = None
    where = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#:"):
            where = line[2:].strip()
        elif line.startswith("msgid "):
            current = Message(_unquote(line[6:]), where=where)
            where = ""
        elif line.startswith("msgid_plural ") and current is not None:
            current.plural = _unquote(line[13:])
        elif (line.startswith("msgstr ") or line.startswith("msgstr[0] ")) and current is not None:
            current.msgstr = _unquote(line.split(" ", 1)[1])
            if current.msgid == "":
                for field in current.msgstr.splitlines():
                    name, _, value = field.partition(":")
                    header[name.strip()] = value.strip()
            else:
                messages[current.msgid] = current
            current = None
    return header, messages


def write_po(path: Path, header: dict[str, str], messages: dict[str, Message]) -> None:
    lines = ['msgid ""', "msgstr " + _quote("".join(f"{k}: {v}\n" for k, v in header.items())), ""]
    for message in messages.values():
        if message.where:
            lines.append(f"#: {message.where}")
        lines.append("msgid " + _quote(message.msgid))
        if message.plural is not None:
            lines.append("msgid_plural " + _quote(message.plural))
            lines.append("msgstr[0] " + _quote(message.msgstr))
        else:
            lines.append("msgstr " + _quote(message.msgstr))
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def update(lang: str) -> dict[str, Message]:
    """The .po for `lang` with exactly the source's msgids: kept translations, new ones empty."""
    path = po_path(lang)
    header, old = read_po(path) if path.exists() else ({}, {})
    header = {
        "Project-Id-Version": f"{DOMAIN} 0.1.0",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": header.get("Plural-Forms", "nplurals=1; plural=0;"),
    }
    messages = extract()
    for msgid, message in messages.items():
        if msgid in old:
            message.msgstr = old[msgid].msgstr
    write_po(path, header, messages)
    return messages


def compiled(lang: str) -> dict[str, object]:
    """The JSON JupyterLab loads for `lang`, from its .po."""
    header, messages = read_po(po_path(lang))
    data: dict[str, object] = {
        "": {
            "domain": DOMAIN,
            "version": header.get("Project-Id-Version", "").split(" ")[-1],
            "language": header.get("Language", lang).replace("_", "-"),
            "plural_forms": header.get("Plural-Forms", "nplurals=1; plural=0;"),
        }
    }
    for msgid, message in sorted(messages.items()):
        if message.msgstr:
            data[msgid] = [message.msgstr, ""] if message.plural is not None else [message.msgstr]
    return data


def json_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.json"


def compile_catalog(lang: str) -> Path:
    path = json_path(lang)
    path.write_text(json.dumps(compiled(lang), ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def untranslated(lang: str) -> list[str]:
    _header, messages = read_po(po_path(lang))
    return [msgid for msgid in extract() if not (messages.get(msgid) and messages[msgid].msgstr)]


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("update", "compile", "check"):
        print("usage: catalog.py update|compile|check LANG (e.g. ko_KR)", file=sys.stderr)
        return 2
    command, lang = argv
    if command == "update":
        messages = update(lang)
        print(f"{po_path(lang)}: {len(messages)} msgids, {sum(1 for m in messages.values() if not m.msgstr)} untranslated")
    elif command == "compile":
        print(compile_catalog(lang))
    else:
        missing = untranslated(lang)
        for msgid in missing:
            print(f"untranslated: {msgid!r}")
        return 1 if missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
