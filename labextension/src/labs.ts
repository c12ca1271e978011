/**
 * The header-parameter labs, a connection to an outside server, its stderr log, and a replay report.
 *
 * Spec context: 2026-07-28 header parameters -- the server rejects a `tools/call` whose `Mcp-Param-*`
 * header disagrees with the body (HTTP 400, JSON-RPC -32020); a client that never listed tools has not
 * seen the marks; a lowlevel server runs its list handler to find a schema. A server the lab did not start
 * is "not ours": keyless view only. A replay says whether a changed server still asks the same questions
 * and gives the same results. The data is the Python records.
 */

import { badge, h, mark, notes, rawJson, table } from './dom';
import { trans } from './i18n';
import { exchangeView } from './legs';
import { ConnectionLogRecord, ConnectionRecord, ListFirstRecord, MismatchRecord, ReplayRecord, SchemaLookupRecord } from './records';

export function renderMismatch(record: MismatchRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-header-mismatch-view' },
    h('div', { class: 'mcp-lab-report-title' }, trans.__('tools/call %1 on %2: argument %3 travels in %4', record.tool, record.server, record.argument, record.header)),
    table(
      [trans.__('case'), trans.__('Mcp-* headers sent'), trans.__('server answered')],
      record.probes.map(p =>
        h(
          'tr',
          { class: `mcp-lab-probe mcp-lab-probe-${p.accepted ? 'ok' : 'err'}`, 'data-case': p.case },
          h('th', { scope: 'row' }, p.case, h('div', { class: 'mcp-lab-muted' }, p.description)),
          h('td', null, h('ul', { class: 'mcp-lab-header-list' }, p.sent_headers.map(([k, v]) => h('li', null, h('code', null, `${k}: ${v}`))))),
          h('td', null, mark(p.accepted, p.accepted ? trans.__('accepted') : trans.__('rejected')), ' ', h('b', { class: 'mcp-lab-status', 'data-status': String(p.status ?? '') }, String(p.status ?? trans.__('no response'))), p.accepted ? ` ${trans.__('accepted')}` : ` ${p.code ?? ''} ${p.message ?? ''}`, exchangeView(p.exchange))
        )
      )
    ),
    notes(record.notes),
    rawJson(record, trans.__('lab JSON'))
  );
}

export function renderListFirst(record: ListFirstRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-list-first-view' },
    h('div', { class: 'mcp-lab-report-title' }, trans.__('A client that never listed tools: tools/call %1 on %2', record.tool, record.server)),
    record.scenarios.map(s =>
      h(
        'section',
        { class: 'mcp-lab-scenario', 'data-scenario': s.name },
        h('div', null, h('b', null, s.description), `: ${trans.__('%1 POST(s)', s.posts)}`, s.relisted ? badge(trans.__('leg marked relisted'), 'warn') : ''),
        h('div', { class: 'mcp-lab-exchanges' }, s.exchanges.map(x => exchangeView(x))),
        h('div', null, `⇒ ${s.outcome}`)
      )
    ),
    notes(record.notes),
    rawJson(record, trans.__('lab JSON'))
  );
}

export function renderSchemaLookups(record: SchemaLookupRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-schema-lookups-view' },
    h('div', { class: 'mcp-lab-report-title' }, trans.__('lowlevel Bookshop: how often on_list_tools ran for 1 list_tools() + %1 call_tool(%2)', record.calls, record.tool)),
    table(
      [trans.__('server'), 'list_tools()', 'call_tool()', trans.__('on_list_tools ran')],
      record.runs.map(r => h('tr', null, h('th', { scope: 'row' }, r.get_tool_input_schema ? trans.__('with get_tool_input_schema') : trans.__('without get_tool_input_schema')), h('td', null, String(r.list_calls)), h('td', null, String(r.tool_calls)), h('td', null, h('b', null, String(r.on_list_tools)))))
    ),
    rawJson(record, trans.__('lab JSON'))
  );
}

export function renderConnection(record: ConnectionRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-connection-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.name, ': ', h('code', null, record.where)),
    h('div', null, `${trans.__('protocol %1', record.protocol_version ?? trans.__('connecting…'))}${record.legacy_only ? ' (--legacy)' : ''} · ${record.transport}`, record.pids.length ? ` · pid ${record.pids.join(', ')}` : ''),
    h('div', { class: 'mcp-lab-note' }, trans.__('%1: the lab holds no keys for this server; its tokens show format, key id and size only', record.note)),
    record.log_tail.length ? h('pre', { class: 'mcp-lab-log' }, record.log_tail.join('\n')) : '',
    rawJson(record, trans.__('connection JSON'))
  );
}

export function renderConnectionLog(record: ConnectionLogRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-connection-log-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.source === 'log' ? trans.__('log of %1', record.name) : trans.__('stderr of %1', record.name)),
    record.text.trim()
      ? h('pre', { class: 'mcp-lab-log' }, record.text)
      : h('div', { class: 'mcp-lab-muted' }, record.source === 'log' ? trans.__('%1 has logged nothing the lab kept', record.name) : trans.__('%1 wrote nothing to stderr', record.name))
  );
}

const replayMark = (): Record<string, string> => ({
  same: trans.__('same'),
  different: trans.__('DIFFERENT'),
  stopped: trans.__('STOPPED'),
  failed: trans.__('FAILED')
});

export function renderReplay(record: ReplayRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-replay-view', 'data-ok': String(record.ok) },
    h('div', { class: 'mcp-lab-report-title' }, mark(record.ok, record.ok ? trans.__('no differences') : trans.__('differences')), ` ${record.headline}`),
    table(
      ['', trans.__('flow'), trans.__('rounds'), trans.__('differences')],
      record.entries.map(e =>
        h(
          'tr',
          { class: `mcp-lab-replay-${e.status}` },
          h('td', null, mark(e.status === 'same'), ` ${replayMark()[e.status] ?? e.status}`),
          h('td', null, h('code', null, e.label)),
          h('td', null, `${e.recorded_rounds} → ${e.replayed_rounds}`),
          h('td', null, h('ul', null, e.differences.map(d => h('li', null, d.message))))
        )
      )
    ),
    rawJson(record, trans.__('replay JSON'))
  );
}
