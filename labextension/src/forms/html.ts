/**
 * The one DOM helper of the form renderer: elements built with properties and text nodes, never
 * innerHTML -- every string in a round record (the server's message, labels, options) comes from a
 * server and must show as text, never as markup.
 */

export type Attrs = Record<string, string | boolean | undefined>;
export type Child = Node | string | null | undefined | false;

let counter = 0;
// This module is bundled twice -- in the anywidget ESM (cell) and in the labextension (side panel) -- and
// each copy counts from 1: a per-copy prefix keeps `<label for>` pointing inside its own form.
const prefix = `mcp-lab-${Math.random().toString(36).slice(2, 8)}`;

/** A document-unique id: the same round may be drawn twice at once (in its cell and in the side panel). */
export function nextId(): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) {
      continue;
    }
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child);
    }
  }
  return node;
}
