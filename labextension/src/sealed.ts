/**
 * The sealed request_state wire format, taken apart without any key.
 *
 * Spec context: on 2026-07-28 the server hands the client an opaque `requestState` and the client echoes it
 * byte for byte. The SDK's AES-GCM codec writes `v1.` + base64url(kid[4] | nonce[12] | ciphertext+tag).
 * Everything shown here is already on the wire: the key id (a 4-byte fingerprint, never the key), the
 * nonce and the sealed bytes' length. Anything else is shown as plaintext -- which is the lesson: an
 * unsealed token is readable (and forgeable) by the client.
 */

import { Child, h } from './dom';

export const KID_BYTES = 4;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

export type TokenParts =
  | { kind: 'sealed'; prefix: string; kid: string; nonce: string; sealed: Uint8Array; length: number }
  | { kind: 'malformed'; prefix: string; reason: string; length: number }
  | { kind: 'plaintext'; value: string; length: number };

export function base64urlBytes(body: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(body)) {
    return null;
  }
  const standard = body.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) {
      out[i] = binary.charCodeAt(i);
    }
    return out;
  } catch {
    return null;
  }
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
}

export function parseToken(token: string): TokenParts {
  if (!token.startsWith('v1.')) {
    return { kind: 'plaintext', value: token, length: token.length };
  }
  const raw = base64urlBytes(token.slice(3));
  if (raw === null) {
    return { kind: 'malformed', prefix: 'v1.', reason: 'not base64url after v1.', length: token.length };
  }
  if (raw.length < KID_BYTES + NONCE_BYTES + TAG_BYTES) {
    return {
      kind: 'malformed',
      prefix: 'v1.',
      reason: `only ${raw.length} bytes; a sealed token needs at least ${KID_BYTES + NONCE_BYTES + TAG_BYTES}`,
      length: token.length
    };
  }
  return {
    kind: 'sealed',
    prefix: 'v1.',
    kid: hex(raw.slice(0, KID_BYTES)),
    nonce: hex(raw.slice(KID_BYTES, KID_BYTES + NONCE_BYTES)),
    sealed: raw.slice(KID_BYTES + NONCE_BYTES),
    length: token.length
  };
}

function segment(kind: string, label: string, value: Child, title: string): HTMLElement {
  return h(
    'span',
    { class: `mcp-lab-seg mcp-lab-seg-${kind}`, title },
    h('span', { class: 'mcp-lab-seg-label' }, label),
    h('code', { class: 'mcp-lab-seg-value' }, value)
  );
}

function shorten(value: string, keep = 24): string {
  return value.length > keep ? `${value.slice(0, keep)}…` : value;
}

/** The token as coloured segments (prefix | kid | nonce | ciphertext), plus its raw text on demand. */
export function tokenSegments(token: unknown): HTMLElement {
  if (typeof token !== 'string') {
    return h('span', { class: 'mcp-lab-token mcp-lab-muted' }, 'no token');
  }
  const parts = parseToken(token);
  const raw = h(
    'details',
    { class: 'mcp-lab-details mcp-lab-token-raw' },
    h('summary', { class: 'mcp-lab-summary' }, `wire text (${parts.length} chars)`),
    h('code', { class: 'mcp-lab-wrap' }, token)
  );
  if (parts.kind === 'plaintext') {
    return h(
      'div',
      { class: 'mcp-lab-token mcp-lab-token-plain' },
      segment('plain', 'PLAINTEXT', shorten(parts.value, 60), 'not sealed: the client can read and change it'),
      raw
    );
  }
  if (parts.kind === 'malformed') {
    return h(
      'div',
      { class: 'mcp-lab-token mcp-lab-token-bad' },
      segment('prefix', 'prefix', parts.prefix, 'format version'),
      segment('bad', 'malformed', parts.reason, parts.reason),
      raw
    );
  }
  return h(
    'div',
    { class: 'mcp-lab-token mcp-lab-token-sealed', 'data-kid': parts.kid },
    segment('prefix', 'prefix', parts.prefix, 'format version of the AES-GCM codec'),
    segment('kid', 'kid', parts.kid, 'key id: the 4-byte fingerprint of the sealing key (never the key)'),
    segment('nonce', 'nonce', shorten(parts.nonce), `12-byte random nonce: ${parts.nonce}`),
    segment(
      'ct',
      'ciphertext',
      `${parts.sealed.length} bytes`,
      `AES-GCM ciphertext with its ${TAG_BYTES}-byte tag: ${shorten(hex(parts.sealed), 48)}`
    ),
    raw
  );
}
