/**
 * Table-shaped records: header parameters, the key-rotation matrix and its load run, the server list.
 *
 * Spec context: `x-mcp-header` arguments are mirrored into `Mcp-Param-*` HTTP headers (one row per
 * argument: header name, JSON type, how a sample value is encoded, or why the mark is invalid, in which
 * case 2026-07-28 clients drop the tool); key rotation decides which request_state tokens each server
 * instance accepts (rows: instances and the ring they hold, columns: the phase whose ring minted the
 * token, cells: ✓ accepted or ✗ with the reason the instance logged); the server list shows each server's
 * audience (its name) and key ids -- never keys.
 */

import { badge, h, mark, notes, rawJson, table, valueText } from './dom';
import { HeaderTableRecord, RotationLoadRecord, RotationRecord, ServersRecord } from './records';

export function renderHeaders(record: HeaderTableRecord): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const tool of record.tools) {
    const toolCell = (span: number): HTMLElement =>
      h(
        'th',
        { scope: 'row', rowspan: String(span) },
        tool.name,
        tool.dropped ? h('div', { class: 'mcp-lab-error-text' }, mark(false, 'invalid'), ` ${tool.reason ?? ''} — ${record.dropped_note}`) : ''
      );
    if (tool.rows.length === 0) {
      rows.push(h('tr', null, toolCell(1), h('td', { colspan: '5', class: 'mcp-lab-muted' }, 'no header parameters')));
      continue;
    }
    tool.rows.forEach((row, i) => {
      rows.push(
        h(
          'tr',
          { class: row.valid ? undefined : 'mcp-lab-row-err' },
          i === 0 ? toolCell(tool.rows.length) : null,
          h('td', null, h('code', null, row.argument)),
          h('td', null, h('code', { class: 'mcp-lab-param-header' }, row.header)),
          h('td', null, row.json_type),
          h('td', null, row.valid ? row.samples.map(s => h('div', null, h('code', null, valueText(s.value)), ' → ', h('code', null, s.header_value ?? '(not sent)'))) : h('span', { class: 'mcp-lab-error-text' }, mark(false, 'invalid'), ` ${row.reason ?? ''}`)),
          h('td', null, row.samples.map(s => h('div', null, s.encoding)))
        )
      );
    });
  }
  const title = `Header parameters of ${record.server}${record.server_kind ? ` (${record.server_kind})` : ''}`;
  return h(
    'div',
    { class: 'mcp-lab-headers-view' },
    h('div', { class: 'mcp-lab-report-title' }, title),
    record.tools.length
      ? table(['tool', 'argument', 'HTTP header', 'JSON type', 'sample value → header value', 'sample encoding'], rows, 'mcp-lab-header-table')
      : h('div', { class: 'mcp-lab-muted' }, 'no tools'),
    rawJson(record, 'table JSON')
  );
}

export function renderRotation(record: RotationRecord): HTMLElement {
  const body = record.rows.map((row, i) =>
    h(
      'tr',
      null,
      h('th', { scope: 'row' }, row),
      (record.cells[i] ?? []).map(cell =>
        h(
          'td',
          { class: `mcp-lab-cell mcp-lab-cell-${cell.accepted ? 'ok' : 'err'}` },
          mark(cell.accepted, cell.accepted ? 'accepted' : 'rejected'),
          cell.accepted ? ' accepted' : ' rejected',
          cell.reason ? h('div', { class: 'mcp-lab-cell-reason' }, cell.reason) : ''
        )
      )
    )
  );
  return h(
    'div',
    { class: 'mcp-lab-rotation-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.title),
    table(['instance \\ token minted in', ...record.columns], body, 'mcp-lab-matrix'),
    notes(record.notes),
    rawJson(record, 'matrix JSON')
  );
}

export function renderRotationLoad(record: RotationLoadRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-rotation-load-view' },
    h('div', { class: 'mcp-lab-report-title' }, mark(record.agrees, record.agrees ? 'as predicted' : 'differs from the prediction'), ` ${record.summary}`),
    table(
      ['rings before', 'rings after', 'retries lost'],
      record.steps.map(s => h('tr', null, h('td', null, s.before.join(', ')), h('td', null, s.after.join(', ')), h('td', { class: s.lost ? 'mcp-lab-err-text' : 'mcp-lab-ok-text' }, String(s.lost))))
    ),
    h('div', { class: 'mcp-lab-muted' }, `${record.legs} legs in ${record.wall.toFixed(2)} s`),
    rawJson(record, 'load JSON')
  );
}

export function renderServers(record: ServersRecord): HTMLElement {
  if (record.servers.length === 0) {
    return h('div', { class: 'mcp-lab-servers-view' }, h('div', { class: 'mcp-lab-muted' }, record.empty_note));
  }
  return h(
    'div',
    { class: 'mcp-lab-servers-view' },
    table(
      ['name', 'kind', 'request_state', 'key ids', 'ttl (s)', 'where'],
      record.servers.map(s =>
        h(
          'tr',
          { 'data-server': s.name },
          h('th', { scope: 'row' }, s.name),
          h('td', null, s.kind),
          h('td', null, /plaintext/i.test(s.sealing) ? badge(`⚠ ${s.sealing}`, 'warn') : s.sealing),
          h('td', null, s.key_ids.length ? s.key_ids.map(id => badge(h('code', null, id), 'kid')) : '-'),
          h('td', null, s.ttl === null ? '-' : String(s.ttl)),
          h('td', null, h('code', null, s.where))
        )
      ),
      'mcp-lab-servers-table'
    ),
    rawJson(record, 'servers JSON')
  );
}
