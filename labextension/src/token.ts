/**
 * `application/vnd.mcp-lab.token+json`: a request_state token report, laid out like a JWT debugger.
 *
 * Spec context: 2026-07-28 request_state is opaque to the client and sealed by the server. The lab holds
 * each server's key ring, so its inspector can open a token and say why the server would accept or reject
 * it. Left: the encoded token in coloured segments (prefix, key id, nonce, ciphertext); right: what was
 * sealed (the claims), and the server's checks one by one; on top, the verdict. Keys never appear: the
 * report carries key ids only. Field names are read leniently and anything unknown is shown as JSON.
 */

import {
  asArray,
  asObject,
  badge,
  Child,
  h,
  isObject,
  jsonBlock,
  JsonObject,
  otherFields,
  pick,
  rawJson,
  text
} from './dom';
import { tokenSegments } from './sealed';

const TOKEN_FIELDS = ['token', 'wire', 'request_state', 'encoded'];
const SEGMENT_FIELDS = ['prefix', 'version', 'kid', 'key_id', 'nonce', 'ciphertext', 'ciphertext_bytes', 'segments', 'sealed'];
const CLAIM_FIELDS = ['claims', 'payload', 'decoded', 'plaintext'];
const CHECK_FIELDS = ['checklist', 'checks'];
const VERDICT_FIELDS = ['verdict', 'accepted', 'ok', 'valid'];
const TITLE_FIELDS = ['server', 'audience', 'title', 'key_slot', 'slot', 'ring'];
const TIME_CLAIMS = /^(exp|iat|nbf|issued_at|expires_at|expires|created|not_before)$/i;

/** The verdict's wording and colour, whatever shape the producer used. */
function verdictOf(report: JsonObject, checks: JsonObject[]): { label: string; kind: string } {
  const verdict = pick(report, ...VERDICT_FIELDS);
  const failed = checks.some(c => pick(c, 'ok', 'passed', 'pass') === false);
  if (typeof verdict === 'boolean') {
    return { label: verdict ? 'accepted' : 'rejected', kind: verdict ? 'ok' : 'err' };
  }
  if (isObject(verdict)) {
    const ok = pick(verdict, 'ok', 'accepted', 'valid');
    const label = text(pick(verdict, 'text', 'summary', 'label', 'reason', 'verdict')) || (ok ? 'accepted' : 'rejected');
    return { label, kind: ok === true ? 'ok' : ok === false ? 'err' : failed ? 'err' : '' };
  }
  if (typeof verdict === 'string') {
    const lower = verdict.toLowerCase();
    const kind = /reject|invalid|fail|expired|forged|wrong|bad/.test(lower) ? 'err'
      : /accept|valid|ok|pass/.test(lower) ? 'ok' : failed ? 'err' : '';
    return { label: verdict, kind };
  }
  if (checks.length) {
    return failed ? { label: 'rejected', kind: 'err' } : { label: 'accepted', kind: 'ok' };
  }
  return { label: 'no verdict', kind: '' };
}

function segmentBox(report: JsonObject): HTMLElement | null {
  const rows: [string, unknown][] = [];
  for (const name of SEGMENT_FIELDS) {
    if (name !== 'segments' && report[name] !== undefined && report[name] !== null) {
      rows.push([name, report[name]]);
    }
  }
  const segments = report.segments;
  if (Array.isArray(segments)) {
    segments.forEach((seg, i) => {
      const s = asObject(seg);
      rows.push([text(pick(s, 'name', 'label')) || `segment ${i}`, pick(s, 'value', 'hex', 'text') ?? seg]);
    });
  } else if (isObject(segments)) {
    rows.push(...Object.entries(segments));
  }
  if (rows.length === 0) {
    return null;
  }
  return h(
    'table',
    { class: 'mcp-lab-table mcp-lab-kv' },
    h('tbody', null, rows.map(([k, v]) => h('tr', { class: `mcp-lab-seg-row-${k}` }, h('th', { scope: 'row' }, k), h('td', null, h('code', { class: 'mcp-lab-wrap' }, text(v))))))
  );
}

function claimValue(key: string, value: unknown): Child {
  if (TIME_CLAIMS.test(key) && typeof value === 'number' && value > 1e8 && value < 1e11) {
    return h('span', null, h('code', null, String(value)), h('span', { class: 'mcp-lab-muted' }, ` ${new Date(value * 1000).toISOString()}`));
  }
  return isObject(value) || Array.isArray(value) ? jsonBlock(value) : h('code', { class: 'mcp-lab-wrap' }, text(value));
}

function claimsBox(report: JsonObject): HTMLElement {
  const claims = pick(report, ...CLAIM_FIELDS);
  if (claims === undefined) {
    return h('div', { class: 'mcp-lab-muted' }, 'not opened (no key in the lab ring for this key id, or not a sealed token)');
  }
  if (!isObject(claims)) {
    return jsonBlock(claims);
  }
  return h(
    'table',
    { class: 'mcp-lab-table mcp-lab-kv mcp-lab-claims' },
    h('tbody', null, Object.entries(claims).map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, claimValue(k, v)))))
  );
}

function checklist(checks: JsonObject[]): HTMLElement {
  if (checks.length === 0) {
    return h('div', { class: 'mcp-lab-muted' }, 'no checks reported');
  }
  return h(
    'ul',
    { class: 'mcp-lab-checklist' },
    checks.map(check => {
      const ok = pick(check, 'ok', 'passed', 'pass');
      const kind = ok === true ? 'ok' : ok === false ? 'err' : 'skip';
      const mark = ok === true ? '✓' : ok === false ? '✗' : '–';
      const state = ok === true ? 'passed' : ok === false ? 'failed' : 'not checked';
      const known = ['check', 'name', 'ok', 'passed', 'pass', 'reason', 'detail', 'details'];
      const rest = Object.keys(check).filter(k => !known.includes(k));
      return h(
        'li',
        { class: `mcp-lab-check mcp-lab-check-${kind}` },
        h('span', { class: 'mcp-lab-check-mark', 'aria-label': state, role: 'img' }, mark),
        ' ',
        h('span', { class: 'mcp-lab-check-name' }, text(pick(check, 'check', 'name')) || 'check'),
        pick(check, 'reason', 'detail', 'details') !== undefined
          ? h('span', { class: 'mcp-lab-check-reason' }, ` — ${text(pick(check, 'reason', 'detail', 'details'))}`)
          : '',
        rest.length ? h('code', { class: 'mcp-lab-muted' }, ` ${JSON.stringify(Object.fromEntries(rest.map(k => [k, check[k]])))}`) : ''
      );
    })
  );
}

export function renderToken(data: unknown): HTMLElement {
  const report = asObject(data);
  const checks = asArray(pick(report, ...CHECK_FIELDS)).map(c => (isObject(c) ? c : { check: text(c) }));
  const verdict = verdictOf(report, checks);
  const token = pick(report, ...TOKEN_FIELDS);
  const titleBits = TITLE_FIELDS.filter(k => report[k] !== undefined).map(k => h('span', { class: 'mcp-lab-muted' }, ` ${k}: `, h('code', null, text(report[k]))));
  return h(
    'div',
    { class: 'mcp-lab-token-view' },
    h('div', { class: `mcp-lab-verdict mcp-lab-verdict-${verdict.kind || 'none'}`, role: 'status' }, badge(verdict.label, verdict.kind), titleBits),
    h(
      'div',
      { class: 'mcp-lab-debugger' },
      h('div', { class: 'mcp-lab-debugger-col mcp-lab-encoded' },
        h('h4', null, 'Encoded'),
        typeof token === 'string' ? tokenSegments(token) : h('div', { class: 'mcp-lab-muted' }, 'no wire token in the report'),
        segmentBox(report)),
      h('div', { class: 'mcp-lab-debugger-col mcp-lab-decoded' },
        h('h4', null, 'Sealed claims'), claimsBox(report),
        h('h4', null, 'Server checks'), checklist(checks))
    ),
    otherFields(report, [...TOKEN_FIELDS, ...SEGMENT_FIELDS, ...CLAIM_FIELDS, ...CHECK_FIELDS, ...VERDICT_FIELDS, ...TITLE_FIELDS]),
    rawJson(report, 'report JSON')
  );
}
