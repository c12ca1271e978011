"""The rules the audit checks, quoted from the 2026-07-28 specification (and, for one, the SDK's docs).

Spec sections served: Multi Round-Trip Requests (`basic/patterns/mrtr.mdx`: Supported Requests, Server
Requirements (Basic Workflow), Error Handling, Security Considerations) and Streamable HTTP
(`basic/transports/streamable-http.mdx`: Security & Endpoint, Custom Headers from Tool Parameters, Value
Encoding, Server Behavior for Custom Headers, Server Validation), read from modelcontextprotocol/
modelcontextprotocol at commit b0f60ba5. Why a catalogue: every check states the rule it enforces word for
word, with its level and section, so a reader can weigh a verdict against the text itself -- and so the one
place to update when the specification changes is here. The quotes keep the specification's words; its
Markdown emphasis (`**MUST**`) is dropped. One rule, `state-readable`, comes from the SDK's documentation (the
seed page on multi round-trip requests, quoted in English); the specification itself allows any encoding, so
that check flags and never fails.
"""

from __future__ import annotations

from mcp_lab.audit.model import AuditRule, Transport

__all__ = ["RULES", "rule"]

MRTR = "docs/specification/2026-07-28/basic/patterns/mrtr.mdx"
HTTP = "docs/specification/2026-07-28/basic/transports/streamable-http.mdx"
TOOLS = "docs/specification/2026-07-28/server/tools.mdx"
SDK_MRTR = "MCP Python SDK docs: Multi round-trip requests (seed 000)"
_SPEC = "https://modelcontextprotocol.io/specification/2026-07-28"
_REQ = "Multi Round-Trip Requests › Server Requirements (Basic Workflow)"
_EVERYWHERE: list[Transport] = ["in-process", "http", "stdio"]

RULES: list[AuditRule] = [
    AuditRule(
        id="ir-methods",
        level="MUST NOT",
        title="InputRequiredResult only on tools/call, prompts/get and resources/read",
        section="Multi Round-Trip Requests › Supported Requests",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#supported-requests",
        quote="Servers MUST NOT send InputRequiredResult responses on any other client requests.",
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="ir-nonempty",
        level="MUST",
        title="Every InputRequiredResult carries inputRequests or requestState",
        section=f"{_REQ}, item 6",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote="Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult response.",
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="ir-request-kinds",
        level="MUST",
        title="Every input request is an elicitation, sampling or roots request",
        section=f"{_REQ}, item 2",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote=(
            "inputRequests values are request objects that MUST be one of ElicitRequest, CreateMessageRequest, "
            "or ListRootsRequest"
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="capabilities",
        level="MUST NOT",
        title="No input request the client did not declare a capability for",
        section=f"{_REQ}, item 7",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote=(
            "Servers MUST NOT send an inputRequests that the client has not declared support for in its "
            "capabilities. For example, if a client does not declare support for elicitation, the server MUST NOT "
            "include any elicitation/create requests in the inputRequests field."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="state-integrity",
        level="MUST",
        title="A tampered requestState is refused",
        section=f"{_REQ}, item 4; Security Considerations",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote=(
            "If a client request contains a requestState field, servers MUST treat requestState as an "
            "attacker-controlled input. If requestState influences authorization, resource access, or business "
            "logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that fails "
            "verification. Integrity protection MAY be omitted only when tampering can cause nothing worse than "
            "request failure."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="state-binding",
        level="SHOULD",
        title="requestState is bound to the request that minted it",
        section=f"{_REQ}, item 5",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote=(
            "To prevent replay, servers SHOULD include the following inside the integrity-protected requestState "
            "payload and verify each on receipt: [...] an identifier for the originating request, e.g. the method "
            "name and a digest of its salient parameters, rejecting state presented on a request that does not "
            "match."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="state-lifetime",
        level="SHOULD",
        title="requestState expires",
        section=f"{_REQ}, item 5",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#server-requirements-basic-workflow",
        quote=(
            "To prevent replay, servers SHOULD include the following inside the integrity-protected requestState "
            "payload and verify each on receipt: [...] a short expiry (TTL), rejecting state presented after it "
            "lapses;"
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="state-readable",
        level="SHOULD",
        title="requestState is opaque to the client",
        section="SDK docs: Returning instead of calling back; Protecting requestState › Bring your own crypto",
        source=SDK_MRTR,
        url="https://modelcontextprotocol.github.io/python-sdk/",
        quote=(
            "request_state: an opaque token. The client sends it back unchanged when it retries; only the server "
            "reads it. [...] The codec's only duties are integrity (raise if tampered) and, where possible, "
            'confidentiality. (The specification allows any encoding -- "Servers are free to encode the state in '
            'any format (e.g. base64-encoded JSON, encrypted JWT, serialized binary)" -- so a readable state is '
            "flagged, never failed; the audit holds it as a SHOULD.)"
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="answers-unasked",
        level="SHOULD",
        title="An answer to a question that was not asked is ignored",
        section="Multi Round-Trip Requests › Error Handling",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#error-handling",
        quote=(
            "If additional, unexpected parameters are provided in the InputResponses object, the server SHOULD "
            "ignore any information it does not recognize or need."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="answers-missing",
        level="SHOULD",
        title="A missing answer is asked for again, not failed",
        section="Multi Round-Trip Requests › Error Handling",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#error-handling",
        quote=(
            "If the client fails to send all the information requested in a previous InputRequests, and the missing "
            "information is necessary for the server to process the request, the server SHOULD respond with a new "
            "InputRequiredResult requesting the missing information again, rather than returning an error."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="no-affinity",
        level="SHOULD",
        title="A retry works on a fresh connection (no session affinity)",
        section="Multi Round-Trip Requests (introduction) › Basic Workflow",
        source=MRTR,
        url=f"{_SPEC}/basic/patterns/mrtr#basic-workflow",
        quote=(
            "The multi round-trip requests pattern provides a standardized way to handle these server-requests "
            "without requiring a shared storage layer across server instances or requiring stateful load "
            "balancing. [...] Note that the requests in each step are completely independent: the server "
            "processing the retry does not need any information beyond what is directly present in the retry "
            "request. [The specification states this as the pattern's design, without MUST or SHOULD; the audit "
            "holds it as a SHOULD.]"
        ),
        transports=["in-process", "http"],
    ),
    AuditRule(
        id="header-annotations",
        level="MUST",
        title="Every x-mcp-header annotation is valid",
        section="Streamable HTTP › Custom Headers from Tool Parameters › Schema Extension; Tools › x-mcp-header",
        source=f"{HTTP}; {TOOLS}",
        url=f"{_SPEC}/basic/transports/streamable-http#schema-extension",
        quote=(
            "Constraints on x-mcp-header values: MUST NOT be empty; MUST match HTTP field-name token syntax "
            "(1*tchar, RFC 9110 Section 5.1); MUST NOT contain control characters, including carriage return (CR, "
            "\\r) or line feed (LF, \\n); MUST be case-insensitively unique among all x-mcp-header values in the "
            "inputSchema; MUST only be applied to parameters with primitive types (integer, string, boolean). "
            "Parameters with type number are not permitted. [...] MUST only be applied to properties that are "
            "statically reachable from the schema root [...]. An x-mcp-header annotation anywhere else makes the "
            "annotation — and thus the tool definition — invalid."
        ),
        transports=_EVERYWHERE,
    ),
    AuditRule(
        id="header-mismatch",
        level="MUST",
        title="An Mcp-Param-* header that disagrees with the body is rejected (400, -32020)",
        section="Streamable HTTP › Server Behavior for Custom Headers; Server Validation",
        source=HTTP,
        url=f"{_SPEC}/basic/transports/streamable-http#server-behavior-for-custom-headers",
        quote=(
            "Any server that processes the message body MUST validate that encoded header values, after decoding "
            "if Base64-encoded, match the corresponding values in the request body. Servers MUST reject requests "
            "with a 400 Bad Request HTTP status and JSON-RPC error code -32020 (HeaderMismatch) if any validation "
            "fails."
        ),
        transports=["http"],
    ),
    AuditRule(
        id="header-missing",
        level="MUST",
        title="A request lacking its Mcp-Param-* header is rejected (400, -32020)",
        section="Streamable HTTP › Server Behavior for Custom Headers (scenario table); Server Validation",
        source=HTTP,
        url=f"{_SPEC}/basic/transports/streamable-http#server-behavior-for-custom-headers",
        quote=(
            "Client omits header but value is in body | Non-conforming client | Server MUST reject the request. "
            "[...] When rejecting a request due to header validation failure, servers MUST return HTTP status 400 "
            "Bad Request and MUST include a JSON-RPC error response using the following error code: -32020 "
            "HeaderMismatch."
        ),
        transports=["http"],
    ),
    AuditRule(
        id="header-base64",
        level="MUST",
        title="A value in the Base64 sentinel form is decoded and accepted",
        section="Streamable HTTP › Value Encoding",
        source=HTTP,
        url=f"{_SPEC}/basic/transports/streamable-http#value-encoding",
        quote=(
            "Servers and intermediaries that need to inspect these values MUST decode them accordingly. In "
            "particular, servers MUST decode an encoded Mcp-Name or Mcp-Param-{Name} value before comparing it to "
            "the corresponding request body value during Server Validation."
        ),
        transports=["http"],
    ),
    AuditRule(
        id="origin",
        level="MUST",
        title="A request with an invalid Origin is refused with 403",
        section="Streamable HTTP › Security & Endpoint, item 1",
        source=HTTP,
        url=f"{_SPEC}/basic/transports/streamable-http#security-%26-endpoint",
        quote=(
            "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks. "
            "If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden."
        ),
        transports=["http"],
    ),
]

_BY_ID = {r.id: r for r in RULES}


def rule(rule_id: str) -> AuditRule:
    return _BY_ID[rule_id]
