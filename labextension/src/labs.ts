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
import { exchangeView } from './legs';
import { ConnectionLogRecord, ConnectionRecord, ListFirstRecord, MismatchRecord, ReplayRecord, SchemaLookupRecord } from './records';

export function renderMismatch(record: MismatchRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-header-mismatch-view' },
    h('div', { class: 'mcp-lab-report-title' }, `tools/call ${record.tool} on ${record.server}: argument ${record.argument} travels in ${record.header}`),
    table(
      ['case', 'Mcp-* headers sent', 'server answered'],
      record.probes.map(p =>
        h(
          'tr',
          { class: `mcp-lab-probe mcp-lab-probe-${p.accepted ? 'ok' : 'err'}`, 'data-case': p.case },
          h('th', { scope: 'row' }, p.case, h('div', { class: 'mcp-lab-muted' }, p.description)),
          h('td', null, h('ul', { class: 'mcp-lab-header-list' }, p.sent_headers.map(([k, v]) => h('li', null, h('code', null, `${k}: ${v}`))))),
          h('td', null, mark(p.accepted, p.accepted ? 'accepted' : 'rejected'), ' ', h('b', { class: 'mcp-lab-status', 'data-status': String(p.status ?? '') }, String(p.status ?? 'no response')), p.accepted ? ' accepted' : ` ${p.code ?? ''} ${p.message ?? ''}`, exchangeView(p.exchange))
        )
      )
    ),
    notes(record.notes),
    rawJson(record, 'lab JSON')
  );
}

export function renderListFirst(record: ListFirstRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-list-first-view' },
    h('div', { class: 'mcp-lab-report-title' }, `A client that never listed tools: tools/call ${record.tool} on ${record.server}`),
    record.scenarios.map(s =>
      h(
        'section',
        { class: 'mcp-lab-scenario', 'data-scenario': s.name },
        h('div', null, h('b', null, s.description), `: ${s.posts} POST(s)`, s.relisted ? badge('leg marked relisted', 'warn') : ''),
        h('div', { class: 'mcp-lab-exchanges' }, s.exchanges.map(x => exchangeView(x))),
        h('div', null, `⇒ ${s.outcome}`)
      )
    ),
    notes(record.notes),
    rawJson(record, 'lab JSON')
  );
}

export function renderSchemaLookups(record: SchemaLookupRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-schema-lookups-view' },
    h('div', { class: 'mcp-lab-report-title' }, `lowlevel Bookshop: how often on_list_tools ran for 1 list_tools() + ${record.calls} call_tool(${record.tool})`),
    table(
      ['server', 'list_tools()', 'call_tool()', 'on_list_tools ran'],
      record.runs.map(r => h('tr', null, h('th', { scope: 'row' }, `${r.get_tool_input_schema ? 'with' : 'without'} get_tool_input_schema`), h('td', null, String(r.list_calls)), h('td', null, String(r.tool_calls)), h('td', null, h('b', null, String(r.on_list_tools)))))
    ),
    rawJson(record, 'lab JSON')
  );
}

export function renderConnection(record: ConnectionRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-connection-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.name, ': ', h('code', null, record.where)),
    h('div', null, `protocol ${record.protocol_version ?? 'connecting…'}${record.legacy_only ? ' (--legacy)' : ''} · ${record.transport}`, record.pids.length ? ` · pid ${record.pids.join(', ')}` : ''),
    h('div', { class: 'mcp-lab-note' }, `${record.note}: the lab holds no keys for this server; its tokens show format, key id and size only`),
    record.log_tail.length ? h('pre', { class: 'mcp-lab-log' }, record.log_tail.join('\n')) : '',
    rawJson(record, 'connection JSON')
  );
}

export function renderConnectionLog(record: ConnectionLogRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-connection-log-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.source === 'log' ? `log of ${record.name}` : `stderr of ${record.name}`),
    record.text.trim()
      ? h('pre', { class: 'mcp-lab-log' }, record.text)
      : h('div', { class: 'mcp-lab-muted' }, record.source === 'log' ? `${record.name} has logged nothing the lab kept` : `${record.name} wrote nothing to stderr`)
  );
}

const REPLAY_MARK: Record<string, string> = { same: 'same', different: 'DIFFERENT', stopped: 'STOPPED', failed: 'FAILED' };

export function renderReplay(record: ReplayRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-replay-view', 'data-ok': String(record.ok) },
    h('div', { class: 'mcp-lab-report-title' }, mark(record.ok, record.ok ? 'no differences' : 'differences'), ` ${record.headline}`),
    table(
      ['', 'flow', 'rounds', 'differences'],
      record.entries.map(e =>
        h(
          'tr',
          { class: `mcp-lab-replay-${e.status}` },
          h('td', null, mark(e.status === 'same'), ` ${REPLAY_MARK[e.status] ?? e.status}`),
          h('td', null, h('code', null, e.label)),
          h('td', null, `${e.recorded_rounds} → ${e.replayed_rounds}`),
          h('td', null, h('ul', null, e.differences.map(d => h('li', null, d.message))))
        )
      )
    ),
    rawJson(record, 'replay JSON')
  );
}
