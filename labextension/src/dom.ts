/**
 * Small DOM helpers shared by every renderer.
 *
 * Everything is built with createElement/textContent, never innerHTML: the data comes from notebooks
 * (possibly untrusted, possibly saved by another version of mcp_lab), so no field can inject markup.
 * Every accessor is defensive: a missing, null or oddly typed field yields a fallback, never a throw.
 */

export type Child = Node | string | number | null | undefined | false;
export type Json = unknown;
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A field as display text: strings as they are, other values as compact JSON, absent as ''. */
export function text(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return compactJson(value);
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The first present field among several spellings (producers may evolve their names). */
export function pick(obj: JsonObject, ...names: string[]): unknown {
  for (const name of names) {
    if (obj[name] !== undefined && obj[name] !== null) {
      return obj[name];
    }
  }
  return undefined;
}

export function compactJson(value: unknown): string {
  try {
    const out = JSON.stringify(value);
    return out === undefined ? String(value) : out;
  } catch {
    return String(value);
  }
}

export function prettyJson(value: unknown): string {
  try {
    const out = JSON.stringify(value, null, 2);
    return out === undefined ? String(value) : out;
  } catch {
    return String(value);
  }
}

export function h(
  tag: string,
  attrs?: Record<string, string | undefined> | null,
  ...children: (Child | Child[])[]
): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined) {
      continue;
    }
    if (key === 'class') {
      node.className = value;
    } else {
      node.setAttribute(key, value);
    }
  }
  append(node, children);
  return node;
}

export function append(node: HTMLElement, children: (Child | Child[])[]): HTMLElement {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A keyboard-reachable collapsible: <details>/<summary> is focusable and toggles with Enter/Space. */
export function details(
  summary: Child | Child[],
  body: Child | Child[],
  options: { open?: boolean; className?: string } = {}
): HTMLDetailsElement {
  const node = h(
    'details',
    { class: `mcp-lab-details ${options.className ?? ''}`.trim() },
    h('summary', { class: 'mcp-lab-summary' }, summary),
    h('div', { class: 'mcp-lab-details-body' }, body)
  ) as HTMLDetailsElement;
  node.open = options.open ?? false;
  return node;
}

export function jsonBlock(value: unknown): HTMLElement {
  return h('pre', { class: 'mcp-lab-json' }, prettyJson(value));
}

export function rawJson(value: unknown, label = 'raw JSON'): HTMLDetailsElement {
  return details(label, jsonBlock(value), { className: 'mcp-lab-raw' });
}

export function badge(label: Child, kind = ''): HTMLElement {
  return h('span', { class: `mcp-lab-badge ${kind ? `mcp-lab-badge-${kind}` : ''}`.trim() }, label);
}

/** A table from a list of objects: known columns first (in order), then any extra keys found. */
export function objectTable(
  rows: unknown[],
  known: { key: string; label: string; aliases?: string[] }[],
  options: { className?: string; rowClass?: (row: JsonObject) => string; cell?: (key: string, row: JsonObject) => Child } = {}
): HTMLElement {
  const objects = rows.map(row => (isObject(row) ? row : { value: row }));
  const columns = known.filter(col =>
    objects.some(row => pick(row, col.key, ...(col.aliases ?? [])) !== undefined)
  );
  const claimed = new Set(known.flatMap(col => [col.key, ...(col.aliases ?? [])]));
  const extras: string[] = [];
  for (const row of objects) {
    for (const key of Object.keys(row)) {
      if (!claimed.has(key) && !extras.includes(key)) {
        extras.push(key);
      }
    }
  }
  const head = h(
    'tr',
    null,
    columns.map(col => h('th', { scope: 'col' }, col.label)),
    extras.map(key => h('th', { scope: 'col' }, key))
  );
  const body = objects.map(row =>
    h(
      'tr',
      { class: options.rowClass ? options.rowClass(row) : undefined },
      columns.map(col => {
        const custom = options.cell ? options.cell(col.key, row) : undefined;
        const value = pick(row, col.key, ...(col.aliases ?? []));
        return h('td', null, custom ?? text(value));
      }),
      extras.map(key => h('td', null, text(row[key])))
    )
  );
  return h(
    'table',
    { class: `mcp-lab-table ${options.className ?? ''}`.trim() },
    h('thead', null, head),
    h('tbody', null, body)
  );
}

/** Fields of `obj` nobody rendered, shown as JSON so new producer fields are never hidden. */
export function otherFields(obj: JsonObject, known: string[], label = 'other fields'): HTMLElement | null {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(obj)) {
    if (!known.includes(key)) {
      rest[key] = value;
    }
  }
  if (Object.keys(rest).length === 0) {
    return null;
  }
  return details(`${label} (${Object.keys(rest).join(', ')})`, jsonBlock(rest), { className: 'mcp-lab-other' });
}

export function ms(seconds: unknown): string {
  const value = num(seconds);
  if (value === undefined) {
    return '';
  }
  const millis = value * 1000;
  return millis >= 100 ? `${millis.toFixed(0)} ms` : `${millis.toFixed(1)} ms`;
}
