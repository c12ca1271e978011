/**
 * The lines of a live form that change with the kernel's records (a field's error, the form's status),
 * written so that nothing moves under the person's pointer.
 *
 * Spec context: a 2026-07-28 input request is answered in a form drawn twice (the awaiting cell and the
 * side panel); every draft either view sends comes back from the kernel as a new record for both, with
 * the error lines the draft fixed gone. Why it matters: a line that collapses moves every control below
 * it up. A press on a checkbox released after that lands on another element, so the browser clicks
 * nothing (the click is lost); a click aimed a moment before lands on the next control (the wrong one).
 * So while the pointer is over the form, a line never gets shorter: one that empties keeps its height,
 * invisible and without text (nothing is read out); the form gives the space back with the first record
 * that arrives while the pointer is elsewhere, or with the verdict on this form's own Submit.
 */

/** A line emptied while the pointer was over its form: invisible, its height kept (style/forms.css). */
const HELD = 'mcp-lab-held';

/** Whether lines must keep their height now: the pointer is over `form` (also while a button is pressed). */
export function pointerOver(form: HTMLElement): boolean {
  return form.matches(':hover');
}

/**
 * Write `text` into `line`. `steady`: the line keeps at least the height it has now (an emptied line stays
 * as invisible space); otherwise it takes the height its text needs and is hidden when empty.
 */
export function writeLine(line: HTMLElement, text: string, steady: boolean): void {
  const before = steady && !line.hidden ? line.getBoundingClientRect().height : 0;
  line.textContent = text;
  if (before > 0) {
    line.style.minHeight = `${Math.max(before, parseFloat(line.style.minHeight) || 0)}px`;
  } else if (!steady) {
    line.style.minHeight = '';
  }
  const held = !text && line.style.minHeight !== '';
  line.classList.toggle(HELD, held);
  line.hidden = !text && !held;
}
