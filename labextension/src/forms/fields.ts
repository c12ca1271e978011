/**
 * One input per field of a live form: build it, read its raw value, write a value the kernel set, show
 * its error.
 *
 * Spec context: the 2026-07-28 elicitation form mode (the PrimitiveSchemaDefinition subset), a sampling
 * reply and a roots list are what a person answers in a round of a multi round-trip request. Every kind
 * is a real HTML control tied to its `<label for>` (screen readers and tests find a field by what the
 * person reads). Numbers are typed as text: Python parses them, so an integer field can refuse "3.5"
 * instead of the browser rounding it; a date-time is read as local time and sent as ISO 8601 with the
 * browser's offset. Nothing here validates: the kernel does, and sends errors back in the record.
 */

import { el, nextId } from './html';
import { FieldRecord, RawValue, Root } from './types';

export interface FieldHooks {
  /** The person changed something (drives the debounced draft). */
  changed(): void;
  /** Enter in a single-line input, Ctrl/Cmd+Enter in a text area: submit this form. */
  submit(): void;
}

export interface FieldControl {
  readonly field: FieldRecord;
  readonly node: HTMLElement;
  read(): RawValue;
  write(value: RawValue): void;
  setError(message: string): void;
  focus(): void;
}

type Body = {
  control: HTMLElement;
  read(): RawValue;
  write(value: RawValue): void;
  focus(): void;
  /** A line under the control that follows its value (a date-time shows exactly what will be sent). */
  hint?: HTMLElement;
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** "2026-05-04T10:30" (a datetime-local value, local time) -> "2026-05-04T10:30:00+02:00". */
export function localToIso(local: string): string {
  const m = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(local.trim());
  if (!m) {
    return local; // not a datetime-local value: sent as is, so the kernel's message names the problem
  }
  const d = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const date = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An ISO 8601 date-time (any offset) -> the same instant as a datetime-local value in this browser. */
export function isoToLocal(iso: string): string {
  const text = iso.trim();
  const m = /^(\d{4,}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) {
    return '';
  }
  if (!m[4]) {
    return `${m[1]}T${m[2]}`; // no offset: already local wall time
  }
  const d = new Date(text.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const seconds = d.getSeconds() ? `:${pad(d.getSeconds())}` : '';
  return (
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`
  );
}

/** The browser's time zone name, e.g. "Europe/Paris" (an offset if the browser names none). */
function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || localToIso('2000-01-01T00:00').slice(-6);
  } catch {
    return localToIso('2000-01-01T00:00').slice(-6);
  }
}

/** A new line at the caret of a text area, as Enter would type it (and undoable, where the browser can). */
function insertNewLine(area: HTMLTextAreaElement): void {
  if (!document.execCommand('insertText', false, '\n')) {
    area.setRangeText('\n', area.selectionStart, area.selectionEnd, 'end');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

function onKeys(input: HTMLElement, hooks: FieldHooks, multiline: boolean): void {
  // 'input' only: 'change' would fire again on blur (e.g. when the person clicks Submit) and send a
  // draft after the answer.
  input.addEventListener('input', () => hooks.changed());
  input.addEventListener('keydown', (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing || event.altKey) {
      return;
    }
    // The notebook must not act on this Enter (Shift+Enter would run the awaiting cell again).
    event.stopPropagation();
    event.preventDefault();
    if (multiline && !(event.ctrlKey || event.metaKey)) {
      // JupyterLab cancels the line break a plain Enter would type inside a cell (its outputs included),
      // so a text area types its new line itself; Ctrl/Cmd+Enter sends the form.
      insertNewLine(input as HTMLTextAreaElement);
      return;
    }
    hooks.submit();
  });
}

function asText(value: RawValue): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
}

const INPUT_TYPES: Partial<Record<FieldRecord['kind'], string>> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local'
};

function lineInput(field: FieldRecord, id: string, hooks: FieldHooks): Body {
  const input = el('input', { id, class: 'mcp-lab-input', type: INPUT_TYPES[field.kind] ?? 'text' });
  input.autocomplete = 'off';
  input.spellcheck = field.kind === 'text';
  if (field.placeholder) {
    input.placeholder = field.placeholder;
  }
  if (field.kind === 'integer') {
    input.inputMode = 'numeric';
  } else if (field.kind === 'number') {
    input.inputMode = 'decimal';
  }
  if ((field.kind === 'integer' || field.kind === 'number') && field.placeholder) {
    input.size = Math.min(Math.max(field.placeholder.length + 2, 12), 40); // the whole hint stays readable
  }
  onKeys(input, hooks, false);
  if (field.kind !== 'date-time') {
    return {
      control: input,
      read: () => input.value,
      write: value => {
        input.value = asText(value);
      },
      focus: () => input.focus()
    };
  }
  const hint = el('div', { class: 'mcp-lab-note' });
  const zone = timeZone();
  const explain = (): void => {
    hint.textContent = input.value
      ? `Sent as ${localToIso(input.value)} (your time zone: ${zone}).`
      : `Your local time (${zone}); sent with its UTC offset.`;
  };
  input.addEventListener('input', explain);
  explain();
  return {
    control: input,
    read: () => (input.value ? localToIso(input.value) : ''),
    write: value => {
      input.value = isoToLocal(asText(value));
      explain();
    },
    focus: () => input.focus(),
    hint
  };
}

function textArea(field: FieldRecord, id: string, hooks: FieldHooks): Body {
  const area = el('textarea', { id, class: 'mcp-lab-input mcp-lab-textarea' });
  area.rows = field.kind === 'json' ? 4 : 3;
  area.spellcheck = field.kind === 'textarea';
  if (field.placeholder) {
    area.placeholder = field.placeholder;
  }
  onKeys(area, hooks, true);
  return {
    control: area,
    read: () => area.value,
    write: value => {
      area.value = asText(value);
    },
    focus: () => area.focus()
  };
}

function select(field: FieldRecord, id: string, hooks: FieldHooks): Body {
  const box = el('select', { id, class: 'mcp-lab-input mcp-lab-select' });
  box.append(el('option', { value: '' }, field.placeholder || 'Choose…'));
  for (const [label, value] of field.options) {
    box.append(el('option', { value }, label));
  }
  onKeys(box, hooks, false);
  return {
    control: box,
    read: () => (box.selectedIndex > 0 ? field.options[box.selectedIndex - 1][1] : null),
    write: value => {
      const index = field.options.findIndex(([, v]) => v === value);
      box.selectedIndex = index + 1; // not offered (or null): nothing chosen
    },
    focus: () => box.focus()
  };
}

/** A group of radios or checkboxes named by the field's label (`aria-labelledby`). */
function group(labelId: string, role: string, className: string): HTMLElement {
  return el('div', { class: `mcp-lab-group ${className}`, role, 'aria-labelledby': labelId });
}

/** One radio or checkbox with its own label, wrapped so the pair never breaks across lines. */
function option(
  type: 'radio' | 'checkbox',
  name: string,
  label: string,
  hooks: FieldHooks
): [HTMLInputElement, HTMLElement] {
  const id = nextId();
  const input = el('input', { id, type, name, class: 'mcp-lab-choice' });
  input.addEventListener('input', () => hooks.changed());
  const wrap = el('span', { class: 'mcp-lab-option' }, input, el('label', { for: id }, label));
  return [input, wrap];
}

function yesNo(labelId: string, hooks: FieldHooks): Body {
  const box = group(labelId, 'radiogroup', 'mcp-lab-yesno');
  const name = nextId();
  const [yes, yesOption] = option('radio', name, 'Yes', hooks);
  const [no, noOption] = option('radio', name, 'No', hooks);
  box.append(yesOption, noOption);
  return {
    control: box,
    read: () => (yes.checked ? true : no.checked ? false : null),
    write: value => {
      yes.checked = value === true;
      no.checked = value === false;
    },
    focus: () => (no.checked ? no : yes).focus()
  };
}

function checkList(field: FieldRecord, labelId: string, hooks: FieldHooks): Body {
  const box = group(labelId, 'group', 'mcp-lab-checklist');
  const name = nextId();
  const boxes = field.options.map(([label]) => {
    const [input, wrap] = option('checkbox', name, label, hooks);
    box.append(wrap);
    return input;
  });
  return {
    control: box,
    read: () => field.options.filter((_, i) => boxes[i].checked).map(([, value]) => value),
    write: value => {
      const chosen = Array.isArray(value) ? (value as unknown[]) : [];
      boxes.forEach((input, i) => (input.checked = chosen.includes(field.options[i][1])));
    },
    focus: () => boxes[0]?.focus()
  };
}

function rootsEditor(field: FieldRecord, hooks: FieldHooks): Body {
  const rows = el('div', { class: 'mcp-lab-roots-rows' });
  const box = el('div', { class: 'mcp-lab-roots' }, rows);
  const inputs: { row: HTMLElement; uri: HTMLInputElement; name: HTMLInputElement }[] = [];
  const renumber = (): void =>
    inputs.forEach((entry, i) => {
      entry.row.setAttribute('aria-label', `${field.label} ${i + 1}`);
      entry.row.querySelector('button')?.setAttribute('aria-label', `Remove root ${i + 1}`);
    });
  const addRow = (root: Root): HTMLInputElement => {
    const uriId = nextId();
    const nameId = nextId();
    const uri = el('input', { id: uriId, class: 'mcp-lab-input mcp-lab-root-uri', type: 'url' });
    uri.placeholder = field.placeholder || 'file:///path/to/project';
    uri.value = root.uri;
    const name = el('input', { id: nameId, class: 'mcp-lab-input mcp-lab-root-name', type: 'text' });
    name.placeholder = 'name (optional)';
    name.value = root.name;
    for (const input of [uri, name]) {
      input.autocomplete = 'off';
      input.spellcheck = false;
      onKeys(input, hooks, false);
    }
    const remove = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-small' }, 'Remove');
    const row = el(
      'div',
      { class: 'mcp-lab-root-row', role: 'group' },
      el('label', { for: uriId, class: 'mcp-lab-root-label' }, 'URI'),
      uri,
      el('label', { for: nameId, class: 'mcp-lab-root-label' }, 'Name'),
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
  const add = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-small' }, 'Add root');
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

function checkbox(id: string, hooks: FieldHooks): Body {
  const input = el('input', { id, type: 'checkbox', class: 'mcp-lab-choice' });
  input.addEventListener('input', () => hooks.changed());
  return {
    control: input,
    read: () => input.checked,
    write: value => {
      input.checked = value === true;
    },
    focus: () => input.focus()
  };
}

function body(field: FieldRecord, id: string, labelId: string, hooks: FieldHooks): Body {
  switch (field.kind) {
    case 'boolean':
      return yesNo(labelId, hooks);
    case 'checkbox':
      return checkbox(id, hooks);
    case 'choice':
      return select(field, id, hooks);
    case 'choices':
      return checkList(field, labelId, hooks);
    case 'json':
    case 'textarea':
      return textArea(field, id, hooks);
    case 'roots':
      return rootsEditor(field, hooks);
    default:
      return lineInput(field, id, hooks); // text, email, uri, integer, number, date, date-time, unknown
  }
}

/** Kinds whose label names a group (radios, checkboxes, rows), not one input. */
const GROUPED = new Set(['boolean', 'choices', 'roots']);

export function buildField(field: FieldRecord, hooks: FieldHooks): FieldControl {
  const id = nextId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const grouped = GROUPED.has(field.kind);
  const part = body(field, id, labelId, hooks);
  // The required marker sits beside the label, not in it: the field's name is exactly its label
  // (aria-required says it is required), so "Name" finds the field and "Username" does not.
  const label = el(
    'span',
    { class: 'mcp-lab-label-row' },
    el(grouped ? 'span' : 'label', { id: labelId, class: 'mcp-lab-label', for: grouped ? undefined : id }, field.label || field.name),
    field.required ? el('span', { class: 'mcp-lab-required', 'aria-hidden': 'true', title: 'required' }, ' *') : null
  );
  const describedBy: string[] = [];
  const extra = (cls: string, text: string): HTMLElement | null => {
    if (!text) {
      return null;
    }
    const line = el('div', { id: `${id}-${cls}`, class: `mcp-lab-${cls}` }, text);
    describedBy.push(line.id);
    return line;
  };
  const description = extra('description', field.description);
  const noteLine = extra('note', field.note);
  if (part.hint) {
    part.hint.id = `${id}-hint`;
    describedBy.push(part.hint.id);
  }
  const error = el('div', { id: errorId, class: 'mcp-lab-field-error', hidden: true });
  describedBy.push(errorId);
  const target = part.control;
  target.setAttribute('aria-describedby', describedBy.join(' '));
  if (field.required) {
    target.setAttribute('aria-required', 'true');
  }
  const checkboxRow = field.kind === 'checkbox';
  const node = el(
    'div',
    { class: `mcp-lab-field mcp-lab-field-${field.kind}`, 'data-field': field.name },
    checkboxRow ? el('div', { class: 'mcp-lab-checkbox-row' }, part.control, label) : label,
    description,
    checkboxRow ? null : part.control,
    part.hint,
    noteLine,
    error
  );
  return {
    field,
    node,
    read: part.read,
    write: part.write,
    focus: part.focus,
    setError: message => {
      error.textContent = message ? `⚠ ${message}` : '';
      error.hidden = !message;
      node.classList.toggle('mcp-lab-invalid', !!message);
      if (message) {
        target.setAttribute('aria-invalid', 'true');
      } else {
        target.removeAttribute('aria-invalid');
      }
    }
  };
}
