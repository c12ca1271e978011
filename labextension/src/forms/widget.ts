/**
 * The anywidget front end of one round of live forms (bundled by esbuild into mcp_lab/forms/static/round.js).
 *
 * Spec context: the questions of one 2026-07-28 `InputRequiredResult`, answered while the cell awaits.
 * Why anywidget and custom messages: ipykernel 7.4 dispatches comm messages during an awaiting cell
 * without busy/idle status, and a widget front end holds back every further state update of a model
 * until it sees that idle, so a per-field update would reach the kernel only after the cell ended; custom
 * messages are not held back. So the kernel -> front end direction is the `round` trait (state updates
 * do arrive), and the front end -> kernel direction is `model.send(...)` carrying all values at once --
 * never `model.set` of a field.
 */

import { trans } from '../i18n';
import { asRoundRecord } from './record';
import { renderRound, Update } from './render';
import { FormEvent } from './types';

/** The part of anywidget's model API this front end uses (anywidget >= 0.9). */
export interface RoundModel {
  get(name: 'round'): unknown;
  on(event: 'change:round', callback: () => void): void;
  off(event: 'change:round', callback: () => void): void;
  send(content: FormEvent): void;
}

function unreadable(host: HTMLElement): void {
  const line = document.createElement('div');
  line.className = 'mcp-lab-forms mcp-lab-forms-unreadable';
  line.textContent = trans.__('mcp_lab: this form cannot be drawn (its record is missing or from another mcp_lab version).');
  host.replaceChildren(line);
}

function render({ model, el }: { model: RoundModel; el: HTMLElement }): () => void {
  let update: Update | null = null;
  const draw = (): void => {
    const record = asRoundRecord(model.get('round'));
    if (!record) {
      update = null;
      unreadable(el);
    } else if (update) {
      update(record);
    } else {
      el.replaceChildren();
      update = renderRound(el, record, event => model.send(event));
    }
  };
  draw();
  model.on('change:round', draw);
  return () => model.off('change:round', draw);
}

export default { render };
