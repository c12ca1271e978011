"""The Korean catalog of the JupyterLab extension: every string of its screens has a Korean entry (issue 27).

Why: the lab's readers come from the SDK documentation's Korean pages (../shared/seeds: 다중 왕복 요청,
헤더 매개변수); with JupyterLab set to Korean, every screen of the extension must read in Korean, in the
seeds' words. The msgids are extracted from the extension's source (labextension/src: every
`trans.__` / `trans._n` / `N_` literal), never from a hand list, so a string added to a screen without its
translation fails here. The catalog ships in the Python package (mcp_lab/catalogs) and JupyterLab's own
server must find it through the `jupyterlab.locale` entry point.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANG = "ko_KR"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
PLACEHOLDER = re.compile(r"%(\d+)")


def _catalog_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcp_lab_catalog_tool", ROOT / "labextension" / "scripts" / "catalog.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


catalog = _catalog_tool()
MESSAGES = catalog.extract()
SHIPPED = json.loads(catalog.json_path(LANG).read_text(encoding="utf-8"))


def test_the_extraction_sees_every_screen() -> None:
    files = {m.where.split("/")[0] for m in MESSAGES.values()}
    # views, forms, the plugin: each of the extension's screens has msgids
    assert {"flow.ts", "token.ts", "legs.ts", "plugin.ts", "forms"} <= files, files
    assert len(MESSAGES) > 300, len(MESSAGES)
    assert MESSAGES["Stop flow"].where == "forms/render.ts"
    assert MESSAGES["%1 leg sent"].plural == "%1 legs sent"


def test_every_msgid_has_a_korean_entry_with_no_english_left() -> None:
    missing = [msgid for msgid in MESSAGES if msgid not in SHIPPED]
    english = [msgid for msgid in MESSAGES if msgid in SHIPPED and not HANGUL.search(SHIPPED[msgid][0])]
    assert not missing, f"no Korean entry for {missing}"
    assert not english, f"Korean entries without Korean: {english}"
    # JupyterLab takes a plural entry only with more than one form, even in a language with one.
    short_plurals = [m.msgid for m in MESSAGES.values() if m.plural is not None and len(SHIPPED[m.msgid]) < 2]
    assert not short_plurals, short_plurals
    assert not catalog.untranslated(LANG)


def test_the_shipped_json_is_the_compiled_po_and_holds_no_stale_msgid() -> None:
    assert catalog.compiled(LANG) == SHIPPED, "run: python labextension/scripts/catalog.py compile ko_KR"
    stale = sorted(set(SHIPPED) - set(MESSAGES) - {""})
    assert not stale, f"msgids no screen uses any more (run catalog.py update ko_KR): {stale}"
    assert SHIPPED[""]["domain"] == "mcp_lab" and SHIPPED[""]["language"] == "ko-KR"


def test_every_translation_keeps_its_placeholders() -> None:
    wrong = {}
    for message in MESSAGES.values():
        wanted = set(PLACEHOLDER.findall(message.msgid)) | set(PLACEHOLDER.findall(message.plural or ""))
        got = set(PLACEHOLDER.findall(SHIPPED[message.msgid][0]))
        if got != wanted:
            wrong[message.msgid] = SHIPPED[message.msgid][0]
    assert not wrong, wrong


# One Korean rendering per English term: the seeds' words (the SDK docs' Korean pages), used consistently.
GLOSSARY = {
    r"\bmulti round-trip\b": "다중 왕복 요청",
    r"\bheader parameters?\b": "헤더 매개변수",
    r"\bseal(?:s|ed|ing)?\b": "봉인",
    r"\belicitation\b": "엘리시테이션",
    r"\bsampling\b": "샘플링",
    r"\bback-channel\b": "백채널",
    r"\bresolver\b": "리졸버",
    r"\blegs?\b": "구간",
    r"\brounds?\b(?!-trip)": "라운드",
    r"\bflows?\b": "흐름",
    r"\btokens?\b": "토큰",
    r"\bretr(?:y|ies)\b": "재시도",
    r"\btools?\b(?!/)": "도구",
    r"\bkernel\b": "커널",
    r"\bnotebook\b": "노트북",
}
# Identifiers stay as the seeds leave them.
IDENTIFIERS = ["request_state", "requestState", "InputRequiredResult", "x-mcp-header", "get_tool_input_schema"]


def test_the_seeds_terms_are_used_consistently() -> None:
    broken = []
    for message in MESSAGES.values():
        korean = SHIPPED[message.msgid][0]
        english = message.msgid.replace("%", " ")
        for term, rendering in GLOSSARY.items():
            if re.search(term, english, re.IGNORECASE) and rendering not in korean:
                broken.append((message.msgid, rendering, korean))
        broken += [(message.msgid, name, korean) for name in IDENTIFIERS if name in message.msgid and name not in korean]
    assert not broken, "\n".join(map(repr, broken))


def test_jupyterlab_serves_the_catalog_as_the_domain_mcp_lab() -> None:
    pytest.importorskip("jupyterlab_language_pack_ko_KR", reason="the test extra installs the Korean language pack")
    from jupyterlab_server.translation_utils import get_language_pack

    served, problems = get_language_pack(LANG)
    assert not problems.strip(), problems
    assert "jupyterlab" in served, "the Korean language pack is not installed"
    assert served.get("mcp_lab") == SHIPPED, "the `jupyterlab.locale` entry point does not lead to the catalog"


# ---- the kernel's own English phrases in a live form --------------------------------------------------


def _front_end_knows(text: str) -> bool:
    """True if src/forms/kernel-words.ts turns `text` into a msgid (an exact word or a phrase's shape)."""
    source = (ROOT / "labextension" / "src" / "forms" / "kernel-words.ts").read_text(encoding="utf-8")
    known = [catalog._js_string(m.group(1)) for m in re.finditer(r"\bN_\(\s*(" + catalog._LITERAL + ")", source)]
    if text in known:
        return True
    for shape in known:
        pattern = "^" + re.sub(r"%\d+", "(.+?)", re.escape(shape).replace(r"\%", "%")) + "$"
        if "%" in shape and re.match(pattern, text, re.DOTALL):
            return True
    return False


def _kernel_phrases() -> list[str]:
    """What the kernel writes into a form record, made by the real code (mcp_lab.forms)."""
    from mcp_lab.forms.answerer import DEFERRED_NOTICE
    from mcp_lab.forms.base import TRUST_NOTE, UNSENDABLE
    from mcp_lab.forms.elicit import ElicitForm
    from mcp_lab.forms.fields import placeholder
    from mcp_lab.forms.roots import RootsForm
    from mcp_lab.forms.sampling import SamplingForm
    from mcp_lab.forms.schema import FORMAT_HINTS, MISSING, check_content, parse_number, parse_schema
    from mcp_lab.forms.url import UrlForm

    phrases = [TRUST_NOTE.format(server=repr("desk")), UNSENDABLE, DEFERRED_NOTICE, *FORMAT_HINTS.values()]
    for form in (ElicitForm, UrlForm, SamplingForm, RootsForm):
        phrases += [label for label in form.button_labels if label]
        phrases.append(form.kind)
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2, "maxLength": 5},
            "short": {"type": "string", "maxLength": 1},
            "long": {"type": "string", "minLength": 3},
            "n": {"type": "integer", "minimum": 1, "maximum": 9},
            "low": {"type": "number", "minimum": 0},
            "high": {"type": "integer", "maximum": 3},
            "plan": {"type": "string", "enum": ["free", "team"]},
            "langs": {"type": "array", "items": {"type": "string", "enum": ["py", "go"]}, "minItems": 1},
            "mail": {"type": "string", "format": "email"},
            "need": {"type": "string"},
        },
        "required": ["need"],
    }
    spec = parse_schema(schema)
    phrases += [text for text in map(placeholder, spec.fields) if text and "@" not in text and "://" not in text]
    wrong = {"name": "a", "short": "ab", "long": "a", "n": 12, "low": -1, "high": 7, "plan": "x", "langs": ["py", "py"]}
    _content, errors = check_content(spec, {f.name: wrong.get(f.name, MISSING) for f in spec.fields})
    phrases += errors.values()
    phrases += [parse_number("3.5", integer=True).message, parse_number("x", integer=False).message]
    return phrases


def test_the_front_end_translates_the_kernels_own_phrases() -> None:
    phrases = _kernel_phrases()
    assert len(phrases) > 25, phrases
    unknown = [text for text in phrases if not _front_end_knows(text)]
    assert not unknown, f"the kernel writes these, src/forms/kernel-words.ts does not know them: {unknown}"


def test_the_flow_view_translates_every_flow_status_the_record_words() -> None:
    from mcp_lab.flow.record import STATUS_TEXT

    source = (ROOT / "labextension" / "src" / "flow.ts").read_text(encoding="utf-8")
    words = {catalog._js_string(m.group(1)) for m in re.finditer(r"\bN_\(\s*(" + catalog._LITERAL + ")", source)}
    assert set(STATUS_TEXT.values()) <= words, set(STATUS_TEXT.values()) - words


def test_the_compiled_json_is_what_jupyterlab_translate_writes(tmp_path: Path) -> None:
    """Where the translators' tool is installed (`pip install jupyterlab-translate`; not a test dependency),
    its .po -> .json converter gives exactly the shipped catalog."""
    converters = pytest.importorskip("jupyterlab_translate.converters")
    written = converters.convert_catalog_to_json(catalog.po_path(LANG), tmp_path, "mcp_lab")
    assert json.loads(written.read_text(encoding="utf-8")) == SHIPPED
