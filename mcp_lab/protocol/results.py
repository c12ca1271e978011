"""The readable text of a final result: tool content, prompt messages, resource contents.

Spec context: a `tools/call` result carries `content` blocks, `prompts/get` `messages`, `resources/read`
`contents`; the text parts of each are what a person reads as the answer.
"""

from __future__ import annotations

from typing import Any

__all__ = ["result_texts"]


def result_texts(data: Any) -> list[str]:
    """The readable parts of a final result: tool content, prompt messages, resource contents.

    The one reader of a result's text: `Flow.text`, the flow record, replay and the audit all use it."""
    if not isinstance(data, dict):
        return []
    texts = [c.get("text", "") for c in data.get("content", []) if isinstance(c, dict) and c.get("type") == "text"]
    for message in data.get("messages", []):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, dict) and content.get("type", "text") == "text":
            texts.append(str(content.get("text", "")))
    texts += [str(c["text"]) for c in data.get("contents", []) if isinstance(c, dict) and "text" in c]
    return texts
