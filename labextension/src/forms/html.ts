/**
 * The one DOM helper of the form renderer: elements built with properties and text nodes, never
 * innerHTML -- every string in a round record (the server's message, labels, options) comes from a
 * server and must show as text, never as markup.
 */

export type Attrs = Record<string, string | boolean | undefined>;
export type Child = Node | string | null | undefined | false;

let counter = 0;

/** A document-unique id: the same round may be drawn twice at once (in its cell and in the side panel). */
export function nextId(): string {
  counter += 1;
  return `mcp-lab-form-${counter}`;
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
