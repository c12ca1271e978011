/**
 * Small DOM helpers shared by every renderer.
 *
 * Everything is built with createElement/textContent, never innerHTML: the data comes from notebooks
 * (possibly untrusted), so no field can inject markup. The data itself is typed (src/records.ts, generated
 * from the Python records' JSON Schema): renderers read fields by name, never guess.
 */

import { trans } from './i18n';
import { Clipped } from './records';

export type Child = Node | string | number | null | undefined | false;

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

export function prettyJson(value: unknown): string {
  try {
    const out = JSON.stringify(value, null, 2);
    return out === undefined ? String(value) : out;
  } catch {
    return String(value);
  }
}

export function compactJson(value: unknown): string {
  try {
    const out = JSON.stringify(value);
    return out === undefined ? String(value) : out;
  } catch {
    return String(value);
  }
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

export function rawJson(value: unknown, label?: string): HTMLDetailsElement {
  return details(label ?? trans.__('raw JSON'), jsonBlock(value), { className: 'mcp-lab-raw' });
}

export type Tone = 'ok' | 'err' | 'warn' | '';

export function badge(label: Child, kind = ''): HTMLElement {
  return h('span', { class: `mcp-lab-badge ${kind ? `mcp-lab-badge-${kind}` : ''}`.trim() }, label);
}

/** A ✓ / ✗ mark with its meaning for screen readers (the mark, not only the colour, carries it). */
export function mark(ok: boolean | null, label?: string): HTMLElement {
  const text = ok === true ? '✓' : ok === false ? '✗' : '?';
  const state = label ?? (ok === true ? trans.__('passed') : ok === false ? trans.__('failed') : trans.__('not decided'));
  const tone = ok === true ? 'ok' : ok === false ? 'err' : 'warn';
  return h('span', { class: `mcp-lab-check-mark mcp-lab-${tone}-text`, role: 'img', 'aria-label': state }, text);
}

export function isClipped(value: unknown): value is Clipped {
  return typeof value === 'object' && value !== null && (value as { clipped?: unknown }).clipped === true;
}

/** A string the record may have clipped (too long to embed): its head, length and digest. */
export function clippedText(value: string | Clipped | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  return trans.__('%1… (%2 chars, sha256 %3…)', value.head, value.length.toLocaleString('en-US'), value.sha256.slice(0, 16));
}

export function clippedNode(value: string | Clipped | null | undefined, className = 'mcp-lab-long'): HTMLElement {
  if (isClipped(value)) {
    return h('code', { class: `${className} mcp-lab-clipped`, title: `sha256 ${value.sha256}` }, clippedText(value));
  }
  return h('code', { class: className }, value ?? '');
}

/** A JSON value as compact text, with clipped strings shown as such. */
export function valueText(value: unknown): string {
  if (isClipped(value)) {
    return clippedText(value);
  }
  if (typeof value === 'string') {
    return value;
  }
  return compactJson(value);
}

export function ms(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) {
    return '';
  }
  const millis = seconds * 1000;
  return millis >= 100 ? `${millis.toFixed(0)} ms` : `${millis.toFixed(1)} ms`;
}

export function notes(items: string[], prefix?: string): HTMLElement[] {
  const before = prefix ?? trans.__('note: ');
  return items.map(note => h('div', { class: 'mcp-lab-note' }, `${before}${note}`));
}

export function table(head: string[], rows: HTMLElement[], className = ''): HTMLElement {
  return h(
    'table',
    { class: `mcp-lab-table ${className}`.trim() },
    h('thead', null, h('tr', null, head.map(label => h('th', { scope: 'col' }, label)))),
    h('tbody', null, rows)
  );
}
