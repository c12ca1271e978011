/**
 * A live form saved with its notebook, reopened after its kernel is gone: drawn as the question it asked
 * and the fact that it was not answered, instead of "Error displaying widget: model not found".
 *
 * Spec context: a 2026-07-28 `InputRequiredResult` waits for a person in an awaiting cell; autosave (or
 * a person) can save the notebook meanwhile, and the saved output then holds a widget view whose model
 * lived only in that kernel. JupyterLab's widget renderer takes precedence over every other MIME type
 * and, finding no model, prints one line of error. The kernel's output also carries the round itself
 * (`application/vnd.mcp-lab.round+json`, the question without anything typed into it), so this watcher
 * replaces that error line with the round's record. A page reloaded while the kernel still waits finds
 * the model and draws the live form as before: only the error is replaced.
 */

import { NotebookPanel } from '@jupyterlab/notebook';

import { trans } from '../i18n';
import { asRoundRecord } from './record';
import { endRound, renderRound } from './render';

export const ROUND_MIME = 'application/vnd.mcp-lab.round+json';
const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';
const MISSING_MODEL = /model not found/i;


/** The part of a code cell's output area read here (a markdown cell has none). */
type Outputs = {
  model: { length: number; get(index: number): { data: Record<string, unknown> } };
  widgets: readonly { node: HTMLElement }[];
};

function replaceMissing(notebook: NotebookPanel): void {
  for (const cell of notebook.content.widgets) {
    const area = (cell as unknown as { outputArea?: Outputs }).outputArea;
    if (!area) {
      continue;
    }
    for (let i = 0; i < area.model.length && i < area.widgets.length; i++) {
      const data = area.model.get(i).data;
      if (!(ROUND_MIME in data) || !(WIDGET_MIME in data)) {
        continue;
      }
      // The widget renderer's node carries no data-mime-type: the output of this child is the one.
      const output = area.widgets[i].node.querySelector<HTMLElement>('.jp-OutputArea-output');
      if (!output || output.querySelector('.mcp-lab-forms') || !MISSING_MODEL.test(output.textContent ?? '')) {
        continue;
      }
      const record = asRoundRecord(data[ROUND_MIME]);
      if (!record) {
        continue;
      }
      output.dataset.mcpLabSaved = 'not answered';
      output.replaceChildren();
      renderRound(output, endRound(record, trans.__('not answered: it was still waiting when the notebook was saved, and the kernel that asked is gone')), () => undefined);
    }
  }
}

/** Watch `notebook` for saved live forms whose widget model is gone; stops when the notebook closes. */
export function watchSavedForms(notebook: NotebookPanel): void {
  let queued = false;
  const observer = new MutationObserver(() => {
    if (!queued) {
      queued = true;
      queueMicrotask(() => {
        queued = false;
        replaceMissing(notebook);
      });
    }
  });
  observer.observe(notebook.content.node, { childList: true, subtree: true, characterData: true });
  notebook.disposed.connect(() => observer.disconnect());
}
