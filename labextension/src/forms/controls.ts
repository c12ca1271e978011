/**
 * What every input of a live form shares: the hooks it calls, the shape of one drawn control, and the
 * keys it answers (Enter submits its form; a text area types its own new line).
 *
 * Spec context: the answer to a 2026-07-28 input request travels whole, in one message per Submit
 * (the contract in ./types.ts); Enter is how a person sends a single-line answer, and the notebook around
 * the form must never act on those keys (Shift+Enter would run the awaiting cell again).
 */

import { RawValue } from './types';

export interface FieldHooks {
  /** The person changed something (drives the debounced draft). */
  changed(): void;
  /** Enter in a single-line input, Ctrl/Cmd+Enter in a text area: submit this form. */
  submit(): void;
}

/** One drawn control: its element, how to read and write its raw value, where focus goes. */
export type Body = {
  control: HTMLElement;
  read(): RawValue;
  write(value: RawValue): void;
  focus(): void;
  /** A line under the control that follows its value (a date-time shows exactly what will be sent). */
  hint?: HTMLElement;
};

export function asText(value: RawValue): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
}

/** A new line at the caret of a text area, as Enter would type it (and undoable, where the browser can). */
function insertNewLine(area: HTMLTextAreaElement): void {
  if (!document.execCommand('insertText', false, '\n')) {
    area.setRangeText('\n', area.selectionStart, area.selectionEnd, 'end');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

export function onKeys(input: HTMLElement, hooks: FieldHooks, multiline: boolean): void {
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
