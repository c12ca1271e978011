/**
 * Reading a RoundRecord defensively: what the kernel sends is drawn even when a field is missing or oddly
 * typed (another mcp_lab version, a partly initialised widget), never thrown on.
 *
 * Spec context: one RoundRecord is one round of a 2026-07-28 multi round-trip request as the person
 * sees it (the contract in ./types.ts); a record without a version-1 shape yields null, and the caller
 * shows a one-line notice instead of a form.
 */

import { Detail, FieldKind, FieldRecord, FormKind, FormRecord, FormState, RawValue, RoundRecord } from './types';

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

const FORM_KINDS: readonly FormKind[] = ['elicitation', 'url', 'sampling', 'roots'];
const FORM_STATES: readonly FormState[] = [
  'open',
  'accepted',
  'declined',
  'cancelled',
  'timed out',
  'abandoned',
  'failed'
];
const FIELD_KINDS: readonly FieldKind[] = [
  'text',
  'email',
  'uri',
  'integer',
  'number',
  'date',
  'date-time',
  'boolean',
  'checkbox',
  'choice',
  'choices',
  'json',
  'textarea',
  'roots'
];

function field(value: unknown): FieldRecord | null {
  if (!isObj(value) || typeof value.name !== 'string') {
    return null;
  }
  return {
    name: value.name,
    label: str(value.label, value.name),
    kind: oneOf(value.kind, FIELD_KINDS, 'json'), // an unknown kind still takes an answer, as JSON text
    required: value.required === true,
    description: str(value.description),
    note: str(value.note),
    placeholder: str(value.placeholder),
    options: list(value.options)
      .filter((o): o is unknown[] => Array.isArray(o) && o.length >= 2)
      .map(o => [String(o[0]), String(o[1])] as [string, string])
  };
}

function texts(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(value)) {
    for (const [name, message] of Object.entries(value)) {
      if (typeof message === 'string' && message) {
        out[name] = message;
      }
    }
  }
  return out;
}

function form(value: unknown): FormRecord | null {
  if (!isObj(value) || typeof value.key !== 'string') {
    return null;
  }
  const buttons = isObj(value.buttons) ? value.buttons : {};
  const link = isObj(value.link) && typeof value.link.url === 'string' ? value.link : null;
  const nullable = (v: unknown, fallback: string | null): string | null =>
    typeof v === 'string' ? v : v === null ? null : fallback;
  return {
    key: value.key,
    name: str(value.name, value.key),
    kind: oneOf(value.kind, FORM_KINDS, 'elicitation'),
    state: oneOf(value.state, FORM_STATES, 'open'),
    summary: str(value.summary),
    server: str(value.server),
    trust: str(value.trust),
    intro: str(value.intro),
    message: str(value.message),
    details: list(value.details)
      .filter(isObj)
      .map((d): Detail => ({ label: str(d.label), text: str(d.text), pre: d.pre === true })),
    link: link ? { url: str(link.url), host: str(link.host) } : null,
    notes: list(value.notes).filter((n): n is string => typeof n === 'string'),
    fields: list(value.fields)
      .map(field)
      .filter((f): f is FieldRecord => f !== null),
    buttons: {
      submit: str(buttons.submit, 'Submit'),
      decline: nullable(buttons.decline, null),
      cancel: nullable(buttons.cancel, null)
    },
    errors: texts(value.errors),
    values: isObj(value.values) ? (value.values as Record<string, RawValue>) : {},
    values_version: typeof value.values_version === 'number' ? value.values_version : 0
  };
}

export function asRoundRecord(value: unknown): RoundRecord | null {
  if (!isObj(value) || value.version !== 1 || !Array.isArray(value.forms)) {
    return null;
  }
  const flow = isObj(value.flow) ? value.flow : {};
  return {
    version: 1,
    flow: {
      id: str(flow.id),
      server: str(flow.server),
      method: oneOf(flow.method, ['tools/call', 'prompts/get', 'resources/read'] as const, 'tools/call'),
      target: str(flow.target)
    },
    round: typeof value.round === 'number' ? value.round : 1,
    state: value.state === 'settled' ? 'settled' : 'open',
    notice: typeof value.notice === 'string' && value.notice ? value.notice : null,
    stoppable: value.stoppable === true,
    forms: value.forms.map(form).filter((f): f is FormRecord => f !== null)
  };
}
