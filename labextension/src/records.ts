/* Generated from schema/records.schema.json by scripts/types.mjs (json-schema-to-typescript).
 * Do not edit: change the pydantic records (mcp_lab/<feature>/record.py), then run `python -m mcp_lab.record_schema`
 * and `jlpm build:types`. */

/**
 * Every application/vnd.mcp-lab.<kind>+json record, by MIME type.
 */
export interface McpLabRecords {
  'application/vnd.mcp-lab.audit+json'?: AuditRecord;
  'application/vnd.mcp-lab.connection+json'?: ConnectionRecord;
  'application/vnd.mcp-lab.connection-log+json'?: ConnectionLogRecord;
  'application/vnd.mcp-lab.flow+json'?: FlowRecord;
  'application/vnd.mcp-lab.header-mismatch+json'?: MismatchRecord;
  'application/vnd.mcp-lab.headers+json'?: HeaderTableRecord;
  'application/vnd.mcp-lab.list-first+json'?: ListFirstRecord;
  'application/vnd.mcp-lab.replay+json'?: ReplayRecord;
  'application/vnd.mcp-lab.rotation+json'?: RotationRecord;
  'application/vnd.mcp-lab.rotation-load+json'?: RotationLoadRecord;
  'application/vnd.mcp-lab.schema-lookups+json'?: SchemaLookupRecord;
  'application/vnd.mcp-lab.server-description+json'?: ServerDescriptionRecord;
  'application/vnd.mcp-lab.servers+json'?: ServersRecord;
  'application/vnd.mcp-lab.tamper+json'?: TamperRecord;
  'application/vnd.mcp-lab.token+json'?: TokenRecord;
}
/**
 * A server audited against the 2026-07-28 rules: the summary first, then each check.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AuditRecord".
 */
export interface AuditRecord {
  checks: AuditCheck[];
  exit_code: 0 | 1;
  flows: string[];
  headline: string;
  kind: 'audit';
  notes: string[];
  protocol_version: string | null;
  server: string;
  summary: AuditSummary;
  transport: 'in-process' | 'http' | 'stdio';
  version: 1;
  where: string;
}
/**
 * One rule checked: its verdict, why, and every probe.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AuditCheck".
 */
export interface AuditCheck {
  notes: string[];
  probes: AuditProbe[];
  rule: AuditRule;
  summary: string;
  verdict: 'pass' | 'fail' | 'warn' | 'n/a';
}
/**
 * One request the audit sent for a check, and what came back.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AuditProbe".
 */
export interface AuditProbe {
  came_back: string;
  evidence: FlowRecord | null;
  exchanges: HttpExchange[];
  name: string;
  note: string;
  sent: string;
  status: number | null;
  verdict: 'pass' | 'fail' | 'warn' | 'n/a';
}
/**
 * A multi round-trip conversation: the request, its legs, and how it ended.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "FlowRecord".
 */
export interface FlowRecord {
  arguments: {
    [k: string]: unknown | undefined;
  };
  era: string;
  id: string;
  kind: 'flow';
  max_rounds: number;
  method: string;
  notes: string[];
  rounds: RoundRecord[];
  server: string;
  status: string;
  status_text: string;
  status_tone: 'ok' | 'err' | 'warn' | '';
  stop_reason: string | null;
  summary: string;
  target: string;
  version: 1;
}
/**
 * One leg: what the client sent and what came back.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "RoundRecord".
 */
export interface RoundRecord {
  backchannel: BackchannelRecord[];
  backoff: number;
  elapsed: number;
  error: ErrorRecord | null;
  http: HttpExchange[];
  index: number;
  input_requests: InputRequestRecord[];
  outcome: 'input_required' | 'result' | 'error';
  outcome_summary: string;
  relisted: boolean;
  result: ResultRecord | null;
  sent_answers: AnswerRecord[];
  sent_summary: string;
  sent_token: TokenBrief | null;
  served_by: string | null;
  server_log: string[];
  started: number;
  started_over: boolean;
  token: TokenBrief | null;
  unreadable_http: number;
}
/**
 * Pre-2026 era: a server-to-client request sent during the leg, and what the client answered.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "BackchannelRecord".
 */
export interface BackchannelRecord {
  answer: AnswerRecord | null;
  error: string | null;
  key: string;
  request: InputRequestRecord;
}
/**
 * One answer the client sent, and which answerer produced it.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AnswerRecord".
 */
export interface AnswerRecord {
  action: string | null;
  by: string | null;
  content: unknown;
  key: string;
  kind: 'elicitation' | 'roots' | 'sampling' | 'other';
  reply: string | null;
  roots: number | null;
  summary: string;
  wire: unknown;
}
/**
 * One question the server asked (an input request, or a pre-2026 back-channel request).
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "InputRequestRecord".
 */
export interface InputRequestRecord {
  fields: SchemaField[];
  key: string;
  kind: 'elicitation' | 'sampling' | 'roots' | 'other';
  max_tokens: number | null;
  message: string | null;
  messages: number | null;
  method: string;
  mode: string | null;
  summary: string;
  url: string | null;
  wire: unknown;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "SchemaField".
 */
export interface SchemaField {
  name: string;
  required: boolean;
  title: string | null;
  type: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ErrorRecord".
 */
export interface ErrorRecord {
  code: number | null;
  data: unknown;
  message: string;
  reason: string | null;
  where: string | null;
}
/**
 * One request/response pair of a leg.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HttpExchange".
 */
export interface HttpExchange {
  elapsed_ms: number | null;
  method: string;
  param_headers: ParamHeaderUsage[];
  path: string;
  request: HttpRequestRecord;
  response: HttpResponseRecord | null;
  rpc: string | null;
  rpc_error: RpcError | null;
  rpc_id: number | string | null;
  seen_by: ('client' | 'server')[];
  url: string;
}
/**
 * One `x-mcp-header` argument of a `tools/call`: the header it should travel in, and what was sent.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ParamHeaderUsage".
 */
export interface ParamHeaderUsage {
  argument: string;
  decoded: unknown;
  encoding: string;
  expected: string | null;
  header: string;
  reason: string | null;
  sent: string | null;
  value: unknown;
  verdict: 'ok' | 'absent' | 'missing' | 'mismatch' | 'unexpected' | 'malformed' | 'duplicate';
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HttpRequestRecord".
 */
export interface HttpRequestRecord {
  body: Body;
  headers: [string, string][];
}
/**
 * A message body: parsed JSON, SSE events, or text; `size` bytes crossed, the first `BODY_CAP` kept.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "Body".
 */
export interface Body {
  content_type: string;
  events: SseEvent[];
  kind: 'empty' | 'json' | 'sse' | 'text';
  size: number;
  text: string | Clipped | null;
  truncated: boolean;
  value: unknown;
}
/**
 * One server-sent event; `data` is the JSON-RPC message when it parses.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "SseEvent".
 */
export interface SseEvent {
  data: unknown;
  event: string | null;
  id: string | null;
}
/**
 * A string too long to embed: its first characters, its length and its SHA-256 (of the UTF-8).
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "Clipped".
 */
export interface Clipped {
  clipped: true;
  head: string;
  length: number;
  sha256: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HttpResponseRecord".
 */
export interface HttpResponseRecord {
  body: Body;
  headers: [string, string][];
  status: number;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "RpcError".
 */
export interface RpcError {
  code: number | null;
  message: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ResultRecord".
 */
export interface ResultRecord {
  is_error: boolean;
  structured: unknown;
  texts: string[];
  wire: unknown;
}
/**
 * What anyone holding a request_state value can see without a key.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "TokenBrief".
 */
export interface TokenBrief {
  key_id: string | null;
  kind: 'sealed' | 'signed' | 'opaque' | 'plaintext' | 'malformed' | 'not saved';
  label: string;
  length: number;
  nonce: string | null;
  sealed_bytes: number | null;
  text: string | Clipped;
}
/**
 * One rule, quoted from its source.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AuditRule".
 */
export interface AuditRule {
  id: string;
  level: 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT';
  quote: string;
  section: string;
  source: string;
  title: string;
  transports: ('in-process' | 'http' | 'stdio')[];
  url: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "AuditSummary".
 */
export interface AuditSummary {
  broken: number;
  broken_must: number;
  kept: number;
  not_applicable: number;
  warned: number;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ConnectionRecord".
 */
export interface ConnectionRecord {
  kind: 'connection';
  legacy_only: boolean;
  log_tail: string[];
  name: string;
  note: string;
  pids: number[];
  protocol_version: string | null;
  transport: 'http' | 'stdio';
  version: 1;
  where: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ConnectionLogRecord".
 */
export interface ConnectionLogRecord {
  kind: 'connection-log';
  name: string;
  source: 'stderr' | 'log';
  text: string;
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "MismatchRecord".
 */
export interface MismatchRecord {
  argument: string;
  arguments: {
    [k: string]: unknown | undefined;
  };
  header: string;
  kind: 'header-mismatch';
  notes: string[];
  probes: ProbeRecord[];
  server: string;
  tool: string;
  version: 1;
}
/**
 * One raw POST of the mismatch experiment and the server's verdict.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ProbeRecord".
 */
export interface ProbeRecord {
  accepted: boolean;
  case: string;
  code: number | null;
  description: string;
  exchange: HttpExchange;
  message: string | null;
  sent_headers: [string, string][];
  status: number | null;
  verdict: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HeaderTableRecord".
 */
export interface HeaderTableRecord {
  dropped_note: string;
  kind: 'headers';
  server: string;
  server_kind: string;
  tools: ToolHeadersRecord[];
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ToolHeadersRecord".
 */
export interface ToolHeadersRecord {
  dropped: boolean;
  name: string;
  reason: string | null;
  rows: HeaderRowRecord[];
}
/**
 * One marked argument: its header, JSON type, how sample values travel, or why the mark is invalid.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HeaderRowRecord".
 */
export interface HeaderRowRecord {
  argument: string;
  header: string;
  json_type: string;
  reason: string | null;
  samples: HeaderSample[];
  tool: string;
  valid: boolean;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "HeaderSample".
 */
export interface HeaderSample {
  encoding: string;
  header_value: string | null;
  value: unknown;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ListFirstRecord".
 */
export interface ListFirstRecord {
  arguments: {
    [k: string]: unknown | undefined;
  };
  kind: 'list-first';
  notes: string[];
  scenarios: ScenarioRecord[];
  server: string;
  tool: string;
  version: 1;
}
/**
 * One client's attempt in the list-before-call lab.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ScenarioRecord".
 */
export interface ScenarioRecord {
  connect: HttpExchange[];
  description: string;
  exchanges: HttpExchange[];
  name: string;
  outcome: string;
  posts: number;
  relisted: boolean;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ReplayRecord".
 */
export interface ReplayRecord {
  entries: ReplayEntryRecord[];
  headline: string;
  kind: 'replay';
  ok: boolean;
  server: string | null;
  source: string | null;
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ReplayEntryRecord".
 */
export interface ReplayEntryRecord {
  differences: DifferenceRecord[];
  label: string;
  recorded_rounds: number;
  replayed_rounds: number;
  server: string;
  status: 'same' | 'different' | 'stopped' | 'failed';
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "DifferenceRecord".
 */
export interface DifferenceRecord {
  kind: 'question' | 'rounds' | 'outcome' | 'result' | 'error' | 'unrecorded' | 'failed' | 'tool';
  message: string;
  recorded: unknown;
  replayed: unknown;
  where: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "RotationRecord".
 */
export interface RotationRecord {
  cells: CellRecord[][];
  columns: string[];
  kind: 'rotation';
  notes: string[];
  rows: string[];
  title: string;
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "CellRecord".
 */
export interface CellRecord {
  accepted: boolean;
  mark: string;
  reason: string | null;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "RotationLoadRecord".
 */
export interface RotationLoadRecord {
  agrees: boolean;
  finished: number;
  flows: number;
  kind: 'rotation-load';
  legs: number;
  lost: number;
  mismatches: LoadMismatch[];
  order: string;
  predicted_lost: number;
  reasons: {
    [k: string]: number | undefined;
  };
  steps: LoadStep[];
  summary: string;
  version: 1;
  wall: number;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "LoadMismatch".
 */
export interface LoadMismatch {
  flow: string;
  minted_by: string | null;
  ok: boolean;
  retried_on: string | null;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "LoadStep".
 */
export interface LoadStep {
  after: string[];
  before: string[];
  lost: number;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "SchemaLookupRecord".
 */
export interface SchemaLookupRecord {
  calls: number;
  kind: 'schema-lookups';
  runs: SchemaLookupRun[];
  tool: string;
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "SchemaLookupRun".
 */
export interface SchemaLookupRun {
  get_tool_input_schema: boolean;
  list_calls: number;
  on_list_tools: number;
  tool_calls: number;
}
/**
 * `mcp_lab.describe(NAME)`: what a server says about itself and what it offers (no key needed).
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ServerDescriptionRecord".
 */
export interface ServerDescriptionRecord {
  capabilities: {
    [k: string]: unknown | undefined;
  };
  instructions: string | null;
  kind: 'server-description';
  name: string;
  notes: string[];
  prompts: PromptDescription[];
  protocol_version: string | null;
  resources: ResourceDescription[];
  server_info: {
    [k: string]: unknown | undefined;
  } | null;
  server_kind: string;
  supported_versions: string[];
  tools: ToolDescription[];
  version: 1;
  where: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "PromptDescription".
 */
export interface PromptDescription {
  arguments: PromptArgumentDescription[];
  description: string | null;
  name: string;
  title: string | null;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "PromptArgumentDescription".
 */
export interface PromptArgumentDescription {
  description: string | null;
  name: string;
  required: boolean;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ResourceDescription".
 */
export interface ResourceDescription {
  description: string | null;
  mime_type: string | null;
  name: string | null;
  template: boolean;
  title: string | null;
  uri: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ToolDescription".
 */
export interface ToolDescription {
  annotations: unknown;
  description: string | null;
  header_problem: string | null;
  headers: {
    [k: string]: string | undefined;
  };
  input_schema: unknown;
  name: string;
  output_schema: unknown;
  signature: string;
  title: string | null;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ServersRecord".
 */
export interface ServersRecord {
  empty_note: string;
  kind: 'servers';
  servers: ServerRowRecord[];
  version: 1;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ServerRowRecord".
 */
export interface ServerRowRecord {
  generation: number;
  key_ids: string[];
  kind: string;
  name: string;
  ours: boolean;
  sealing: string;
  ttl: number | null;
  where: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "TamperRecord".
 */
export interface TamperRecord {
  agreed: number;
  cases: TamperCaseRecord[];
  kind: 'tamper';
  method: string;
  notes: string[];
  server: string;
  target: string;
  version: 1;
}
/**
 * One variant: what changed, what the wire said, what the server logged, what was predicted.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "TamperCaseRecord".
 */
export interface TamperCaseRecord {
  agree: boolean;
  case: string;
  changed: string;
  expected: string;
  logged: string | null;
  note: string;
  predicted: string;
  wire: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "TokenRecord".
 */
export interface TokenRecord {
  can_open: string;
  cannot_know: string[];
  checks: CheckRecord[];
  claim_rows: ClaimRowRecord[];
  claims: {
    [k: string]: unknown | undefined;
  } | null;
  confidential: boolean | null;
  danger: string | null;
  expected: {
    [k: string]: unknown | undefined;
  };
  expires_at: string | null;
  format: string;
  format_label: string;
  inner_kind: ('resolver' | 'handmade') | null;
  inner_state: string | Clipped | null;
  issued_at: string | null;
  key_id: string | null;
  kind: 'token';
  length: number;
  nonce: string | null;
  notes: string[];
  opened: boolean;
  opened_by: string;
  opener: string;
  owner_note: string;
  prefix: string | null;
  problem: string | null;
  questions: QuestionRecord[];
  ring_ids: string[];
  sealed_bytes: number | null;
  segments: SegmentRecord[];
  server: string | null;
  slot: number | null;
  structure: string;
  token: string | Clipped | null;
  ttl: number | null;
  ttl_left: number | null;
  verdict: string;
  verdict_detail: string;
  verdict_title: 'Accepted' | 'Rejected' | 'Undetermined';
  verdict_tone: 'ok' | 'err' | 'unknown';
  verified: boolean;
  version: 1;
}
/**
 * One step of the server's boundary check.
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "CheckRecord".
 */
export interface CheckRecord {
  detail: string;
  reason: string | null;
  status: 'pass' | 'fail' | 'unknown' | 'not reached' | 'skipped';
  step: string;
}
/**
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "ClaimRowRecord".
 */
export interface ClaimRowRecord {
  claim: string;
  meaning: string;
  note: string;
  stable: string;
  status: 'ok' | 'mismatch' | 'unknown' | 'info';
  value: unknown;
}
/**
 * One resolver question recorded in the SDK's inner state (v3).
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "QuestionRecord".
 */
export interface QuestionRecord {
  action: string | null;
  answered: boolean;
  asked: string | null;
  data: unknown;
  key: string;
  pinned: string | null;
  question: string | null;
}
/**
 * One coloured part of the token string: characters [start, end).
 *
 * This interface was referenced by `McpLabRecords`'s JSON-Schema
 * via the `definition` "SegmentRecord".
 */
export interface SegmentRecord {
  end: number;
  label: string;
  note: string;
  part: string;
  size: number | null;
  start: number;
}
