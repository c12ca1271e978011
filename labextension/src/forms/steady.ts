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

/** Where the pointer button now held down was pressed (null: no button is down). */
let pressedOn: Node | null = null;
/** Per round's root: the update that arrived during a press inside it, applied once the button is up. */
const afterRelease = new Map<HTMLElement, () => void>();

function released(): void {
  if (pressedOn === null) {
    return;
  }
  pressedOn = null;
  // After this event's mouseup and click, which the browser aimed at the layout the person pressed on.
  window.setTimeout(() => {
    const waiting = [...afterRelease.values()];
    afterRelease.clear();
    waiting.forEach(apply => apply());
  }, 0);
}

let hooked = false;

function hookPointer(): void {
  if (hooked) {
    return;
  }
  hooked = true;
  // Capture on the window: no handler inside the page can hide a press or a release from it.
  window.addEventListener('pointerdown', event => (pressedOn = event.target as Node | null), true);
  for (const end of ['pointerup', 'pointercancel', 'dragend'] as const) {
    window.addEventListener(end, released, true);
  }
  // The page itself losing focus (another window) may swallow the release; a field's blur, which a
  // press on another control causes, must not count.
  window.addEventListener('blur', event => event.target === window && released());
}

/**
 * Apply `update` to the round drawn in `root` now -- or, while a button pressed inside `root` is still
 * down, right after its release: anything the update adds (error lines from another view's Submit, a
 * notice) would move the pressed control away before the release, and the click would be lost. Only the
 * newest waiting update is applied (each carries the whole record).
 */
export function unlessPressed(root: HTMLElement, update: () => void): void {
  hookPointer();
  if (pressedOn !== null && root.contains(pressedOn)) {
    afterRelease.set(root, update);
  } else {
    afterRelease.delete(root);
    update();
  }
}
