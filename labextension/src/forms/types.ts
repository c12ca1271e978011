/**
 * The live-form contract between Python `mcp_lab.forms` and this front end (the Python side writes these
 * records in `mcp_lab/forms/panel.py`; both sides change together).
 *
 * Spec context: every key of a 2026-07-28 `InputRequiredResult`'s `input_requests` is one question a
 * person answers (elicitation, URL-mode elicitation, sampling, roots). The kernel describes a round of
 * them as a plain RoundRecord; the front end draws it and sends every value of a form in ONE message,
 * because per-field widget updates are held back while a cell awaits: ipykernel sends no busy/idle status
 * for comm messages handled during an awaiting cell, and a widget front end waits for that idle before it
 * applies the next state update of a model.
 */

export type FlowMethod = 'tools/call' | 'prompts/get' | 'resources/read';

export type FormKind = 'elicitation' | 'url' | 'sampling' | 'roots';

export type FormState = 'open' | 'accepted' | 'declined' | 'cancelled' | 'timed out' | 'abandoned' | 'failed';

export type FieldKind =
  | 'text'
  | 'email'
  | 'uri'
  | 'integer'
  | 'number'
  | 'date'
  | 'date-time'
  | 'boolean'
  | 'checkbox'
  | 'choice'
  | 'choices'
  | 'json'
  | 'textarea'
  | 'roots';

export type Root = { uri: string; name: string };

/** What a field holds, exactly as sent (see the contract's table of raw values per kind). */
export type RawValue = string | boolean | null | string[] | Root[];

export type FormValues = Record<string, RawValue>;

export type FieldRecord = {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  note: string;
  placeholder: string;
  /** [label, value] pairs for choice / choices. */
  options: [string, string][];
};

export type Detail = { label: string; text: string; pre: boolean };

export type FormRecord = {
  key: string;
  name: string;
  kind: FormKind;
  state: FormState;
  summary: string;
  server: string;
  trust: string;
  intro: string;
  message: string;
  details: Detail[];
  link: { url: string; host: string } | null;
  notes: string[];
  fields: FieldRecord[];
  buttons: { submit: string; decline: string | null; cancel: string | null };
  /** Field name -> message; the key "" is the form-level message. */
  errors: Record<string, string>;
  /** Values the kernel set (defaults, headless fill); applied only when `values_version` changes. */
  values: FormValues;
  values_version: number;
};

export type RoundRecord = {
  version: 1;
  flow: { id: string; server: string; method: FlowMethod; target: string };
  round: number;
  state: 'open' | 'settled';
  notice: string | null;
  stoppable: boolean;
  forms: FormRecord[];
};

/** Front end -> kernel: the anywidget's custom messages (`model.send`). */
export type FormEvent =
  | { event: 'submit'; key: string; values: FormValues }
  | { event: 'submit_all'; values: Record<string, FormValues> }
  | { event: 'decline'; key: string }
  | { event: 'cancel'; key: string }
  | { event: 'stop' }
  | { event: 'draft'; key: string; values: FormValues };

/** Front end -> kernel on the `mcp_lab.waiting` comm: the same events, addressed to a flow's round. */
export type WaitingEvent = (FormEvent & { flow: string; round: number }) | { event: 'cancel_all' };

/** Kernel -> front end on the `mcp_lab.waiting` comm: every waiting round, sent at once and on change. */
export type WaitingMessage = { rounds: RoundRecord[] };

export const WAITING_TARGET = 'mcp_lab.waiting';
