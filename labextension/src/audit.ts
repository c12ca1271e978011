/**
 * `application/vnd.mcp-lab.audit+json`: a server audited against the 2026-07-28 rules.
 *
 * Spec context: Multi Round-Trip Requests (where an InputRequiredResult may appear and what it carries,
 * capabilities, requestState integrity, binding, lifetime and opacity, unexpected and missing answers, no
 * session affinity) and Streamable HTTP (x-mcp-header constraints, Mcp-Param-* validation with 400 and
 * -32020, the Base64 sentinel, Origin refused with 403). The summary comes first -- rules kept, broken,
 * warned, not applicable, and the exit code a CI job gets -- then each check, expandable: the rule's level,
 * section and words, and each probe's "sent / came back" with its evidence flow (drawn by the flow
 * renderer) or HTTP exchanges. The data is the Python `AuditRecord`; typed fields only.
 */

import { badge, details, h, notes, rawJson, table } from './dom';
import { renderFlow } from './flow';
import { trans } from './i18n';
import { exchangeView } from './legs';
import { AuditCheck, AuditProbe, AuditRecord } from './records';

type Verdict = AuditCheck['verdict'];

const MARK: Record<Verdict, string> = { pass: '✓', fail: '✗', warn: '!', 'n/a': '–' };
const word = (verdict: Verdict): string =>
  ({ pass: trans.__('kept'), fail: trans.__('broken'), warn: trans.__('warned'), 'n/a': trans.__('not applicable') })[verdict];
const TONE: Record<Verdict, string> = { pass: 'ok', fail: 'err', warn: 'warn', 'n/a': '' };

/** A verdict as a mark and a word: the meaning never rests on the colour alone. */
function verdictMark(verdict: Verdict): HTMLElement {
  const tone = TONE[verdict];
  return h(
    'span',
    { class: `mcp-lab-verdict-mark ${tone ? `mcp-lab-${tone}-text` : 'mcp-lab-muted'}`, 'data-verdict': verdict },
    `${MARK[verdict]} ${word(verdict)}`
  );
}

function summary(record: AuditRecord): HTMLElement {
  const s = record.summary;
  return h(
    'div',
    { class: 'mcp-lab-audit-summary' },
    badge(trans.__('%1 kept', s.kept), 'ok'),
    badge(trans.__('%1 broken (%2 MUST)', s.broken, s.broken_must), s.broken ? 'err' : ''),
    badge(trans.__('%1 warned', s.warned), s.warned ? 'warn' : ''),
    badge(trans.__('%1 not applicable', s.not_applicable)),
    h(
      'span',
      { class: `mcp-lab-audit-exit ${record.exit_code ? 'mcp-lab-err-text' : 'mcp-lab-ok-text'}`, 'data-exit-code': String(record.exit_code) },
      ` ${trans.__('exit code %1', record.exit_code)}`
    )
  );
}

function probeRow(probe: AuditProbe): HTMLElement {
  const evidence = probe.evidence
    ? details(trans.__('evidence: %1', probe.evidence.summary), renderFlow(probe.evidence), { className: 'mcp-lab-audit-evidence' })
    : null;
  const exchanges = probe.exchanges.map(x => exchangeView(x));
  return h(
    'tr',
    { class: `mcp-lab-audit-probe mcp-lab-audit-probe-${TONE[probe.verdict] || 'na'}`, 'data-verdict': probe.verdict },
    h('th', { scope: 'row' }, verdictMark(probe.verdict), h('div', null, probe.name)),
    h('td', null, probe.sent),
    h(
      'td',
      null,
      probe.status !== null ? h('b', { class: 'mcp-lab-audit-status', 'data-status': String(probe.status) }, `HTTP ${probe.status} `) : '',
      h('span', { class: 'mcp-lab-audit-came-back' }, probe.came_back),
      probe.note ? h('div', { class: 'mcp-lab-muted' }, probe.note) : '',
      exchanges,
      evidence
    )
  );
}

function checkView(check: AuditCheck): HTMLDetailsElement {
  const rule = check.rule;
  const head = [
    verdictMark(check.verdict),
    ' ',
    badge(rule.level, rule.level.startsWith('MUST') ? 'err' : 'warn'),
    ' ',
    h('code', null, rule.id),
    ` ${rule.title} — `,
    h('span', { class: 'mcp-lab-muted' }, check.summary)
  ];
  const body = [
    h(
      'blockquote',
      { class: 'mcp-lab-audit-quote' },
      h('div', { class: 'mcp-lab-muted' }, `${rule.section} (${rule.source})`),
      h('div', null, rule.quote),
      h('a', { href: rule.url, target: '_blank', rel: 'noopener noreferrer' }, rule.url)
    ),
    check.probes.length ? table([trans.__('probe'), trans.__('sent'), trans.__('came back')], check.probes.map(probeRow), 'mcp-lab-audit-probes') : '',
    ...notes(check.notes)
  ];
  const view = details(head, body, { open: check.verdict === 'fail' || check.verdict === 'warn', className: 'mcp-lab-audit-check' });
  view.dataset.check = rule.id;
  view.dataset.verdict = check.verdict;
  view.dataset.level = rule.level;
  return view;
}

export function renderAudit(record: AuditRecord): HTMLElement {
  const broken = record.checks.filter(c => c.verdict === 'fail');
  return h(
    'div',
    { class: 'mcp-lab-audit-view', 'data-exit-code': String(record.exit_code) },
    h('div', { class: 'mcp-lab-report-title' }, record.headline),
    summary(record),
    broken.length
      ? h('div', { class: 'mcp-lab-audit-broken' }, `${trans.__('broken:')} `, broken.flatMap((c, i) => [i ? ', ' : '', h('code', null, c.rule.id), ` (${c.rule.level})`]))
      : h('div', { class: 'mcp-lab-ok-text' }, trans.__('no rule broken')),
    record.flows.length ? h('div', { class: 'mcp-lab-muted' }, trans.__('repeated %1 recorded call(s): %2', record.flows.length, record.flows.join('; '))) : '',
    notes(record.notes),
    h('div', { class: 'mcp-lab-audit-checks' }, record.checks.map(checkView)),
    rawJson(record, trans.__('audit JSON'))
  );
}
