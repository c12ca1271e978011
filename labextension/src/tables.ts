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
import { trans } from './i18n';
import { HeaderTableRecord, RotationLoadRecord, RotationRecord, ServersRecord } from './records';

export function renderHeaders(record: HeaderTableRecord): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const tool of record.tools) {
    const toolCell = (span: number): HTMLElement =>
      h(
        'th',
        { scope: 'row', rowspan: String(span) },
        tool.name,
        tool.dropped ? h('div', { class: 'mcp-lab-error-text' }, mark(false, trans.__('invalid')), ` ${tool.reason ?? ''} — ${record.dropped_note}`) : ''
      );
    if (tool.rows.length === 0) {
      rows.push(h('tr', null, toolCell(1), h('td', { colspan: '5', class: 'mcp-lab-muted' }, trans.__('no header parameters'))));
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
          h('td', null, row.valid ? row.samples.map(s => h('div', null, h('code', null, valueText(s.value)), ' → ', h('code', null, s.header_value ?? trans.__('(not sent)')))) : h('span', { class: 'mcp-lab-error-text' }, mark(false, trans.__('invalid')), ` ${row.reason ?? ''}`)),
          h('td', null, row.samples.map(s => h('div', null, s.encoding)))
        )
      );
    });
  }
  const title = `${trans.__('Header parameters of %1', record.server)}${record.server_kind ? ` (${record.server_kind})` : ''}`;
  return h(
    'div',
    { class: 'mcp-lab-headers-view' },
    h('div', { class: 'mcp-lab-report-title' }, title),
    record.tools.length
      ? table([trans.__('tool'), trans.__('argument'), trans.__('HTTP header'), trans.__('JSON type'), trans.__('sample value → header value'), trans.__('sample encoding')], rows, 'mcp-lab-header-table')
      : h('div', { class: 'mcp-lab-muted' }, trans.__('no tools')),
    rawJson(record, trans.__('table JSON'))
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
          mark(cell.accepted, cell.accepted ? trans.__('accepted') : trans.__('rejected')),
          ` ${cell.accepted ? trans.__('accepted') : trans.__('rejected')}`,
          cell.reason ? h('div', { class: 'mcp-lab-cell-reason' }, cell.reason) : ''
        )
      )
    )
  );
  return h(
    'div',
    { class: 'mcp-lab-rotation-view' },
    h('div', { class: 'mcp-lab-report-title' }, record.title),
    table([trans.__('instance \\ token minted in'), ...record.columns], body, 'mcp-lab-matrix'),
    notes(record.notes),
    rawJson(record, trans.__('matrix JSON'))
  );
}

export function renderRotationLoad(record: RotationLoadRecord): HTMLElement {
  return h(
    'div',
    { class: 'mcp-lab-rotation-load-view' },
    h('div', { class: 'mcp-lab-report-title' }, mark(record.agrees, record.agrees ? trans.__('as predicted') : trans.__('differs from the prediction')), ` ${record.summary}`),
    table(
      [trans.__('rings before'), trans.__('rings after'), trans.__('retries lost')],
      record.steps.map(s => h('tr', null, h('td', null, s.before.join(', ')), h('td', null, s.after.join(', ')), h('td', { class: s.lost ? 'mcp-lab-err-text' : 'mcp-lab-ok-text' }, String(s.lost))))
    ),
    h('div', { class: 'mcp-lab-muted' }, trans.__('%1 legs in %2 s', record.legs, record.wall.toFixed(2))),
    rawJson(record, trans.__('load JSON'))
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
      [trans.__('name'), trans.__('kind'), 'request_state', trans.__('key ids'), trans.__('ttl (s)'), trans.__('where')],
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
    rawJson(record, trans.__('servers JSON'))
  );
}
