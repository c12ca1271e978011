/**
 * Table-shaped reports: header parameters, the key-rotation matrix and the sandbox's server list.
 *
 * Spec context: `x-mcp-header` arguments are mirrored into `Mcp-Param-*` HTTP headers (one row per
 * argument: header name, JSON type, how a sample value is encoded, or why the declaration is invalid);
 * key rotation decides which request_state tokens each server instance accepts (rows: instances with
 * the ring they hold, columns: the phase whose ring minted the token, cells: accepted or the reason the
 * instance logged when it refused -- mcp_lab.inspect.rotation's RotationMatrix); the server list shows each server's
 * audience and key ids (never keys). Shapes are read leniently; unknown fields stay visible as JSON.
 */

import {
  asArray,
  asObject,
  badge,
  Child,
  h,
  isObject,
  JsonObject,
  objectTable,
  otherFields,
  pick,
  rawJson,
  text
} from './dom';

const HEADER_COLUMNS = [
  { key: 'argument', label: 'argument', aliases: ['arg', 'parameter', 'name'] },
  { key: 'header', label: 'HTTP header', aliases: ['header_name'] },
  { key: 'json_type', label: 'JSON type', aliases: ['type', 'json type'] },
  { key: 'sample', label: 'sample', aliases: ['value', 'sample_value'] },
  { key: 'encoding', label: 'sample encoding', aliases: ['sample_encoding', 'encoded', 'wire'] },
  { key: 'invalid', label: 'invalid because', aliases: ['invalid_reason', 'reason', 'error'] }
];

function headerRows(rows: unknown[]): HTMLElement {
  return objectTable(rows, HEADER_COLUMNS, {
    className: 'mcp-lab-header-table',
    rowClass: row => (pick(row, 'invalid', 'invalid_reason', 'reason', 'error') ? 'mcp-lab-row-err' : ''),
    cell: (key, row) => {
      const value = pick(row, key, ...(HEADER_COLUMNS.find(c => c.key === key)?.aliases ?? []));
      return key === 'header' || key === 'encoding' ? h('code', null, text(value)) : undefined;
    }
  });
}

export function renderHeaders(data: unknown): HTMLElement {
  const known = ['rows', 'tables', 'tools', 'tool', 'title'];
  const root = Array.isArray(data) ? { rows: data } : asObject(data);
  const sections: Child[] = [];
  const title = pick(root, 'title', 'tool');
  if (title !== undefined) {
    sections.push(h('div', { class: 'mcp-lab-report-title' }, text(title)));
  }
  if (Array.isArray(root.rows)) {
    sections.push(headerRows(root.rows));
  }
  for (const table of [...asArray(root.tables), ...asArray(root.tools)]) {
    const t = asObject(table);
    sections.push(
      h('div', { class: 'mcp-lab-report-title' }, text(pick(t, 'title', 'tool', 'name')) || 'table'),
      headerRows(asArray(t.rows))
    );
  }
  if (sections.length === 0) {
    sections.push(h('div', { class: 'mcp-lab-muted' }, 'no header rows'));
  }
  return h('div', { class: 'mcp-lab-headers-view' }, sections, otherFields(root, known), rawJson(data, 'table JSON'));
}

function label(value: unknown): string {
  return isObject(value) ? text(pick(value, 'name', 'label', 'id', 'title')) || text(value) : text(value);
}

function cellView(value: unknown): HTMLElement {
  let ok: unknown = value;
  let reason: unknown;
  let extra: JsonObject = {};
  if (isObject(value)) {
    ok = pick(value, 'ok', 'accepted', 'valid');
    reason = pick(value, 'reason', 'detail', 'error', 'message');
    extra = Object.fromEntries(Object.entries(value).filter(([k]) => !['ok', 'accepted', 'valid', 'reason', 'detail', 'error', 'message'].includes(k)));
  } else if (typeof value === 'string') {
    ok = /^(ok|accepted|accept|valid|yes|true)$/i.test(value) ? true : undefined;
    reason = ok ? undefined : value;
  }
  const kind = ok === true ? 'ok' : ok === false ? 'err' : 'skip';
  const mark = ok === true ? '✓ accepted' : ok === false ? '✗ rejected' : '–';
  return h(
    'td',
    { class: `mcp-lab-cell mcp-lab-cell-${kind}` },
    h('span', { class: 'mcp-lab-check-mark' }, mark),
    reason !== undefined ? h('div', { class: 'mcp-lab-cell-reason' }, text(reason)) : '',
    Object.keys(extra).length ? h('div', { class: 'mcp-lab-muted' }, h('code', null, JSON.stringify(extra))) : ''
  );
}

/** The rotation matrix: instances down, phases across. Cells may be a list of lists or keyed objects. */
export function renderRotation(data: unknown): HTMLElement {
  const root = asObject(data);
  const rowsField = pick(root, 'instances', 'rows');
  const phases = asArray(pick(root, 'phases', 'columns')).map(label);
  const cells = pick(root, 'cells', 'matrix', 'results');
  const rows: { name: string; cells: unknown[] }[] = [];
  asArray(rowsField).forEach((row, i) => {
    const name = label(isObject(row) ? pick(row, 'instance', 'name', 'label', 'id') ?? row : row);
    let rowCells: unknown;
    if (isObject(row) && pick(row, 'cells', 'results') !== undefined) {
      rowCells = pick(row, 'cells', 'results');
    } else if (Array.isArray(cells)) {
      rowCells = cells[i];
    } else if (isObject(cells)) {
      rowCells = cells[name];
    }
    if (Array.isArray(rowCells)) {
      rows.push({ name, cells: rowCells });
    } else {
      const keyed = asObject(rowCells);
      if (phases.length === 0) {
        Object.keys(keyed).forEach(k => phases.includes(k) || phases.push(k));
      }
      rows.push({ name, cells: phases.map(p => keyed[p]) });
    }
  });
  const width = Math.max(phases.length, ...rows.map(r => r.cells.length), 0);
  const columns = Array.from({ length: width }, (_, i) => phases[i] ?? `phase ${i + 1}`);
  const table = h(
    'table',
    { class: 'mcp-lab-table mcp-lab-matrix' },
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'instance \\ token minted in'), columns.map(c => h('th', { scope: 'col' }, c)))),
    h('tbody', null, rows.map(r => h('tr', null, h('th', { scope: 'row' }, r.name), columns.map((_, i) => cellView(r.cells[i])))))
  );
  const title = pick(root, 'title', 'caption');
  return h(
    'div',
    { class: 'mcp-lab-rotation-view' },
    title !== undefined ? h('div', { class: 'mcp-lab-report-title' }, text(title)) : null,
    rows.length ? table : h('div', { class: 'mcp-lab-muted' }, 'no instances in the matrix'),
    asArray(root.notes).map(note => h('div', { class: 'mcp-lab-note' }, `note: ${text(note)}`)),
    otherFields(root, ['instances', 'rows', 'phases', 'columns', 'cells', 'matrix', 'results', 'title', 'caption', 'notes']),
    rawJson(data, 'matrix JSON')
  );
}

export function renderServers(data: unknown): HTMLElement {
  const root = Array.isArray(data) ? { servers: data } : asObject(data);
  const servers = asArray(root.servers);
  const body = servers.length
    ? objectTable(
        servers,
        [
          { key: 'name', label: 'name' },
          { key: 'kind', label: 'kind' },
          { key: 'sealing', label: 'request_state' },
          { key: 'key_ids', label: 'key ids' },
          { key: 'ttl', label: 'ttl (s)' },
          { key: 'where', label: 'where' },
          { key: 'generation', label: 'generation' }
        ],
        {
          className: 'mcp-lab-servers-table',
          cell: (key, row) => {
            if (key === 'key_ids') {
              const ids = asArray(row.key_ids).map(text);
              return ids.length ? h('span', null, ids.map(id => badge(h('code', null, id), 'kid'))) : '-';
            }
            if (key === 'sealing' && /plaintext/i.test(text(row.sealing))) {
              return badge(text(row.sealing), 'warn');
            }
            return undefined;
          }
        }
      )
    : h('div', { class: 'mcp-lab-muted' }, 'no servers (define one with %%mcp_server NAME)');
  return h('div', { class: 'mcp-lab-servers-view' }, body, otherFields(root, ['servers']), rawJson(data, 'servers JSON'));
}
