/**
 * A request_state value drawn in parts, from what the Python record says about it (no parsing here).
 *
 * Spec context: on 2026-07-28 the server hands the client an opaque `requestState` and the client echoes it
 * byte for byte. The SDK's AES-GCM codec writes `v1.` + base64url(kid[4] | nonce[12] | ciphertext+tag).
 * The record carries the keyless facts (key id, nonce, sealed size: all on the wire already, never a key);
 * a plaintext value is flagged -- which is the lesson: an unsealed token is readable, and forgeable.
 */

import { Child, clippedText, h } from './dom';
import { trans } from './i18n';
import { TokenBrief } from './records';

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

/** The token as coloured segments (prefix | kid | nonce | ciphertext), plus its wire text on demand. */
export function tokenSegments(brief: TokenBrief | null): HTMLElement {
  if (brief === null) {
    return h('span', { class: 'mcp-lab-token mcp-lab-muted' }, trans.__('no token'));
  }
  const raw = h(
    'details',
    { class: 'mcp-lab-details mcp-lab-token-raw' },
    h('summary', { class: 'mcp-lab-summary' }, trans.__('wire text (%1 chars)', brief.length)),
    h('code', { class: 'mcp-lab-wrap' }, clippedText(brief.text))
  );
  if (brief.kind === 'sealed') {
    return h(
      'div',
      { class: 'mcp-lab-token mcp-lab-token-sealed', 'data-kid': brief.key_id ?? '' },
      segment('prefix', trans.__('prefix'), 'v1.', trans.__('format version of the AES-GCM codec')),
      segment('kid', 'kid', brief.key_id ?? '?', trans.__('key id: the 4-byte fingerprint of the sealing key (never the key)')),
      segment('nonce', trans.__('nonce'), shorten(brief.nonce ?? ''), trans.__('12-byte random nonce: %1', brief.nonce ?? '')),
      segment('ct', trans.__('ciphertext'), trans.__('%1 bytes', brief.sealed_bytes ?? '?'), trans.__('AES-GCM ciphertext with its 16-byte tag')),
      raw
    );
  }
  if (brief.kind === 'plaintext') {
    return h(
      'div',
      { class: 'mcp-lab-token mcp-lab-token-plain' },
      segment('plain', trans.__('PLAINTEXT'), shorten(clippedText(brief.text), 60), trans.__('not sealed: the client can read and change it')),
      raw
    );
  }
  return h(
    'div',
    { class: `mcp-lab-token mcp-lab-token-${brief.kind === 'malformed' ? 'bad' : 'unsaved'}` },
    segment('bad', brief.kind, brief.label, brief.label),
    raw
  );
}
