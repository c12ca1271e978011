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

import { asText, Body, FieldHooks, onKeys } from './controls';
import { isoToLocal, localToIso, timeZone } from './datetime';
import { trans } from '../i18n';
import { el, nextId } from './html';
import { kernelText } from './kernel-words';
import { rootsEditor } from './roots';
import { writeLine } from './steady';
import { FieldRecord, RawValue } from './types';

export type { FieldHooks } from './controls';

export interface FieldControl {
  readonly field: FieldRecord;
  readonly node: HTMLElement;
  read(): RawValue;
  write(value: RawValue): void;
  /** `steady`: the pointer is over the form; the error line may change but gets no shorter (./steady.ts). */
  setError(message: string, steady?: boolean): void;
  focus(): void;
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
    input.placeholder = kernelText(field.placeholder);
  }
  if (field.kind === 'integer') {
    input.inputMode = 'numeric';
  } else if (field.kind === 'number') {
    input.inputMode = 'decimal';
  }
  if ((field.kind === 'integer' || field.kind === 'number') && field.placeholder) {
    input.size = Math.min(Math.max(input.placeholder.length + 2, 12), 40); // the whole hint stays readable
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
      ? trans.__('Sent as %1 (your time zone: %2).', localToIso(input.value), zone)
      : trans.__('Your local time (%1); sent with its UTC offset.', zone);
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
    area.placeholder = kernelText(field.placeholder);
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
  box.append(el('option', { value: '' }, kernelText(field.placeholder) || trans.__('Choose…')));
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
  const [yes, yesOption] = option('radio', name, trans.__('Yes'), hooks);
  const [no, noOption] = option('radio', name, trans.__('No'), hooks);
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

/** `ownWords`: the field is the client's own (a sampling reply, a roots list), not a server's question,
 * so its label is one of the kernel's phrases and reads in the page's language. */
export function buildField(field: FieldRecord, hooks: FieldHooks, ownWords = false): FieldControl {
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
    el(grouped ? 'span' : 'label', { id: labelId, class: 'mcp-lab-label', for: grouped ? undefined : id }, (ownWords ? kernelText(field.label) : field.label) || field.name),
    field.required ? el('span', { class: 'mcp-lab-required', 'aria-hidden': 'true', title: trans.__('required') }, ' *') : null
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
  const noteLine = extra('note', kernelText(field.note));
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
    setError: (message, steady = false) => {
      writeLine(error, message ? `⚠ ${kernelText(message)}` : '', steady);
      node.classList.toggle('mcp-lab-invalid', !!message);
      if (message) {
        target.setAttribute('aria-invalid', 'true');
      } else {
        target.removeAttribute('aria-invalid');
      }
    }
  };
}
