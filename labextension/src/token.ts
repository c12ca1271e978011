/**
 * `application/vnd.mcp-lab.token+json` and `...tamper+json`: a request_state token report laid out like a
 * JWT debugger, and the tamper lab's table.
 *
 * Spec context: 2026-07-28 request_state is opaque to the client and sealed by the server. The lab holds
 * each server's key ring, so its inspector can open a token and say why the server would accept or reject
 * it. Left: the encoded token in coloured parts; right: the claims, the resolver questions and the
 * server's checks in its order, each with ✓ or ✗; on top, the verdict. Keys never appear: key ids only.
 * The tamper lab puts the frozen wire error beside the reason the server logged and the inspector's
 * prediction. The data is the Python `TokenRecord` / `TamperRecord`.
 */

import { Child, clippedNode, clippedText, details, h, mark, notes, rawJson, table, valueText } from './dom';
import { trans } from './i18n';
import { CheckRecord, TamperRecord, TokenRecord } from './records';

const checkState = (): Record<CheckRecord['status'], [boolean | null, string, string]> => ({
  pass: [true, 'ok', trans.__('passed')],
  fail: [false, 'err', trans.__('failed')],
  unknown: [null, 'skip', trans.__('undecided: the lab lacks what it needs')],
  'not reached': [null, 'skip', trans.__('not reached')],
  skipped: [null, 'skip', trans.__('skipped')]
});

function encoded(report: TokenRecord): HTMLElement {
  const token = report.token;
  if (token === null) {
    return h('div', { class: 'mcp-lab-muted' }, trans.__('no token'));
  }
  if (typeof token !== 'string') {
    return clippedNode(token);
  }
  const parts = report.segments.map(seg => {
    // The key id has one spelling everywhere: hex. The strip shows the token's own characters (base64url,
    // which never spell the id), so the kid segment's label carries the id as the other views write it.
    const kid = seg.part === 'kid' && report.key_id ? report.key_id : null;
    const label = kid ? trans.__('key id %1', kid) : seg.label;
    const about = `${seg.label}${seg.size !== null ? `, ${trans.__('%1 bytes', seg.size)}` : ''}${seg.note ? `: ${seg.note}` : ''}`;
    return h(
      'span',
      {
        class: `mcp-lab-seg mcp-lab-seg-${seg.part === 'sealed' ? 'ct' : seg.part}`,
        title: kid ? trans.__('%1; these base64url characters carry key id %2 (hex)', about, kid) : about
      },
      h('span', { class: 'mcp-lab-seg-label' }, label),
      h('code', { class: 'mcp-lab-seg-value mcp-lab-wrap' }, token.slice(seg.start, seg.end))
    );
  });
  return h('div', { class: `mcp-lab-token mcp-lab-token-${report.format}`, 'data-kid': report.key_id ?? '' }, parts.length ? parts : h('code', { class: 'mcp-lab-wrap' }, token));
}

function facts(report: TokenRecord): HTMLElement {
  const rows: [string, Child][] = [
    [trans.__('format'), report.format_label],
    [trans.__('length'), trans.__('%1 chars', report.length)]
  ];
  if (report.key_id) {
    rows.push([trans.__('key id'), h('span', { class: 'mcp-lab-seg-kid' }, h('code', null, report.key_id), report.slot !== null ? ` ${trans.__('(ring slot %1)', report.slot)}` : '')]);
  }
  if (report.nonce) {
    rows.push([trans.__('nonce'), h('code', null, report.nonce)]);
  }
  if (report.sealed_bytes !== null) {
    rows.push([trans.__('sealed'), trans.__('%1 bytes', report.sealed_bytes)]);
  }
  if (report.problem) {
    rows.push([trans.__('problem'), h('span', { class: 'mcp-lab-error-text' }, report.problem)]);
  }
  rows.push([trans.__('opened'), report.opened_by]);
  if (report.can_open) {
    rows.push([trans.__('can open'), report.can_open]);
  }
  return h('table', { class: 'mcp-lab-table mcp-lab-kv' }, h('tbody', null, rows.map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, v)))));
}

/** Values longer than this fold: their head shows, the rest opens on demand. */
const FOLD_CHARS = 120;

/** A claim's value wraps inside its column (a 900-character claim must not push the meaning off screen). */
function claimValue(text: string): HTMLElement {
  if (text.length <= FOLD_CHARS) {
    return h('code', { class: 'mcp-lab-wrap' }, text);
  }
  return details(
    [h('code', { class: 'mcp-lab-wrap' }, `${text.slice(0, FOLD_CHARS)}…`), ` (${trans.__('%1 chars', text.length.toLocaleString('en-US'))})`],
    h('code', { class: 'mcp-lab-wrap' }, text),
    { className: 'mcp-lab-fold' }
  );
}

function claims(report: TokenRecord): Child {
  if (report.claim_rows.length === 0) {
    return h('div', { class: 'mcp-lab-muted' }, report.opened ? trans.__('no claims') : trans.__('not opened: %1', report.cannot_know[0] ?? report.can_open));
  }
  return table(
    [trans.__('claim'), trans.__('value'), trans.__('meaning'), ''],
    report.claim_rows.map(row =>
      h(
        'tr',
        { class: `mcp-lab-claim-${row.status}` },
        h('td', null, h('code', null, row.claim)),
        h('td', { class: 'mcp-lab-claim-value' }, claimValue(valueText(row.value))),
        h('td', null, row.status === 'ok' ? mark(true, trans.__('matches')) : row.status === 'mismatch' ? mark(false, trans.__('does not match')) : '', ` ${row.meaning}`),
        h('td', { class: 'mcp-lab-muted' }, row.note)
      )
    ),
    'mcp-lab-claims'
  );
}

function questions(report: TokenRecord): Child[] {
  if (report.questions.length === 0) {
    return [];
  }
  return [
    h('h4', null, trans.__('Inner state: resolver questions')),
    table(
      [trans.__('key'), trans.__('question'), trans.__('answer'), trans.__('data')],
      report.questions.map(q =>
        h('tr', null, h('td', null, h('code', null, q.key)), h('td', null, q.question ?? ''), h('td', null, q.answered ? q.action ?? '' : trans.__('awaiting')), h('td', { class: 'mcp-lab-claim-value' }, q.data === null ? '' : claimValue(valueText(q.data))))
      )
    )
  ];
}

function checklist(report: TokenRecord): HTMLElement {
  return h(
    'ul',
    { class: 'mcp-lab-checklist' },
    report.checks.map(check => {
      const [ok, kind, state] = checkState()[check.status];
      return h(
        'li',
        { class: `mcp-lab-check mcp-lab-check-${kind}`, 'data-step': check.step, 'data-status': check.status },
        mark(ok, state),
        ' ',
        h('span', { class: 'mcp-lab-check-name' }, check.step),
        check.reason ? h('code', { class: 'mcp-lab-check-reason' }, ` ${check.reason}`) : '',
        check.detail ? h('span', { class: 'mcp-lab-muted' }, ` — ${check.detail}`) : ''
      );
    })
  );
}

export function renderToken(report: TokenRecord): HTMLElement {
  const tone = report.verdict_tone === 'ok' ? 'ok' : report.verdict_tone === 'err' ? 'err' : 'skip';
  const verdict = h(
    'div',
    { class: `mcp-lab-verdict mcp-lab-verdict-${tone}`, role: 'status' },
    mark(report.verdict_tone === 'ok' ? true : report.verdict_tone === 'err' ? false : null, report.verdict_title),
    ' ',
    h('b', null, report.verdict_title),
    report.verdict_tone === 'err' ? [` — ${trans.__('server logs')} `, h('code', { class: 'mcp-lab-verdict-reason' }, report.verdict)] : '',
    h('div', { class: 'mcp-lab-verdict-detail' }, report.verdict_detail),
    report.server ? h('div', { class: 'mcp-lab-muted' }, trans.__('server %1', report.server)) : ''
  );
  const inner = report.inner_state !== null && report.inner_kind !== 'resolver'
    ? [h('h4', null, trans.__('Inner state (%1)', report.inner_kind ?? 'plaintext')), claimValue(clippedText(report.inner_state))]
    : null;
  return h(
    'div',
    { class: 'mcp-lab-token-view', 'data-verdict': report.verdict },
    h('div', { class: 'mcp-lab-muted' }, report.owner_note),
    verdict,
    report.danger ? h('div', { class: 'mcp-lab-error-text' }, h('b', null, trans.__('Danger: ')), report.danger) : '',
    h(
      'div',
      { class: 'mcp-lab-debugger' },
      h('div', { class: 'mcp-lab-debugger-col mcp-lab-encoded' }, h('h4', null, trans.__('Encoded')), encoded(report), facts(report)),
      h(
        'div',
        { class: 'mcp-lab-debugger-col mcp-lab-decoded' },
        h('h4', null, trans.__('Sealed claims')),
        claims(report),
        questions(report),
        inner,
        h('h4', null, trans.__("Checks, in the server's order")),
        checklist(report)
      )
    ),
    notes(report.cannot_know, trans.__('cannot know: ')),
    notes(report.notes),
    rawJson(report, trans.__('report JSON'))
  );
}

export function renderTamper(report: TamperRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-tamper-view' },
    h('div', { class: 'mcp-lab-report-title' }, trans.__('Tamper lab: %1 %2 on %3 — %4/%5 predictions agree with the server', report.method, report.target, report.server, report.agreed, report.cases.length)),
    table(
      [trans.__('case'), trans.__('what changed'), trans.__('wire answer'), trans.__('server logged'), trans.__('inspector predicted'), trans.__('agree')],
      report.cases.map(c =>
        h(
          'tr',
          { class: `mcp-lab-tamper-case mcp-lab-tamper-${c.agree ? 'agree' : 'differ'}`, 'data-case': c.case },
          h('th', { scope: 'row' }, c.case),
          h('td', null, c.changed, c.note ? h('div', { class: 'mcp-lab-muted' }, c.note) : ''),
          h('td', null, c.wire),
          h('td', null, h('code', null, c.logged ?? '-')),
          h('td', null, h('code', null, c.predicted)),
          h('td', null, mark(c.agree, c.agree ? trans.__('agrees') : trans.__('differs')))
        )
      )
    ),
    notes(report.notes),
    rawJson(report, trans.__('tamper lab JSON'))
  );
}
