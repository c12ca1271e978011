/**
 * The roots editor: one row (URI, name, Remove) per root, and "Add root".
 *
 * Spec context: a 2026-07-28 `ListRootsRequest` asks the client which folders the server may work in;
 * the person edits the list the kernel proposes (the notebook's folder) and sends it whole. Rows left
 * completely empty are not roots and are not sent; everything else goes to the kernel, which checks
 * that each URI is a file:// URI.
 */

import { Body, FieldHooks, onKeys } from './controls';
import { trans } from '../i18n';
import { el, nextId } from './html';
import { kernelText } from './kernel-words';
import { FieldRecord, Root } from './types';

export function rootsEditor(field: FieldRecord, hooks: FieldHooks): Body {
  const rows = el('div', { class: 'mcp-lab-roots-rows' });
  const box = el('div', { class: 'mcp-lab-roots' }, rows);
  const inputs: { row: HTMLElement; uri: HTMLInputElement; name: HTMLInputElement }[] = [];
  const renumber = (): void =>
    inputs.forEach((entry, i) => {
      entry.row.setAttribute('aria-label', `${kernelText(field.label)} ${i + 1}`);
      entry.row.querySelector('button')?.setAttribute('aria-label', trans.__('Remove root %1', i + 1));
    });
  const addRow = (root: Root): HTMLInputElement => {
    const uriId = nextId();
    const nameId = nextId();
    const uri = el('input', { id: uriId, class: 'mcp-lab-input mcp-lab-root-uri', type: 'url' });
    uri.placeholder = field.placeholder || 'file:///path/to/project';
    uri.value = root.uri;
    const name = el('input', { id: nameId, class: 'mcp-lab-input mcp-lab-root-name', type: 'text' });
    name.placeholder = trans.__('name (optional)');
    name.value = root.name;
    for (const input of [uri, name]) {
      input.autocomplete = 'off';
      input.spellcheck = false;
      onKeys(input, hooks, false);
    }
    const remove = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-small' }, trans.__('Remove'));
    const row = el(
      'div',
      { class: 'mcp-lab-root-row', role: 'group' },
      el('label', { for: uriId, class: 'mcp-lab-root-label' }, trans.__('URI')),
      uri,
      el('label', { for: nameId, class: 'mcp-lab-root-label' }, trans.__('Name')),
      name,
      remove
    );
    const entry = { row, uri, name };
    remove.addEventListener('click', () => {
      const index = inputs.indexOf(entry);
      inputs.splice(index, 1);
      row.remove();
      renumber();
      (inputs[index] ?? inputs[index - 1])?.uri.focus() ?? add.focus();
      hooks.changed();
    });
    inputs.push(entry);
    rows.append(row);
    renumber();
    return uri;
  };
  const add = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-small' }, trans.__('Add root'));
  add.addEventListener('click', () => {
    addRow({ uri: '', name: '' }).focus();
    hooks.changed();
  });
  box.append(add);
  return {
    control: box,
    read: () =>
      inputs
        .map(({ uri, name }) => ({ uri: uri.value.trim(), name: name.value.trim() }))
        .filter(root => root.uri || root.name),
    write: value => {
      inputs.splice(0).forEach(entry => entry.row.remove());
      const roots = Array.isArray(value) ? (value as unknown[]) : [];
      for (const root of roots) {
        const r = (root ?? {}) as Partial<Root>;
        addRow({ uri: typeof r.uri === 'string' ? r.uri : '', name: typeof r.name === 'string' ? r.name : '' });
      }
    },
    focus: () => (inputs[0]?.uri ?? add).focus()
  };
}
