/**
 * The JupyterLab (and Notebook 7) plugin of mcp_lab: the "waiting questions" side panel and its commands.
 *
 * Spec context: a 2026-07-28 multi round-trip request can wait for a person inside an awaiting cell.
 * Issue 12, item 4: reloading or reopening the page while it waits must never strand the kernel. So, for
 * every notebook, when its kernel connects (page load, reload, kernel change or restart) this plugin
 * subscribes to the kernel's waiting rounds over the `mcp_lab.waiting` comm; if rounds are waiting, it
 * opens the side panel by itself, where they can be answered again or cancelled. A kernel without
 * mcp_lab simply has no such comm target: nothing is shown, nothing fails.
 */

import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { LabIcon } from '@jupyterlab/ui-components';

import { PANEL_ID, WaitingPanel } from './forms/panel';
import { KERNEL_GONE_EVENT } from './forms/render';
import { watchSavedForms } from './forms/saved';
import { RoundRecord } from './forms/types';
import { WaitingQuestions } from './forms/waiting';
import { trans, useTranslator } from './i18n';

const SHOW = 'mcp-lab:show-waiting';
const CANCEL = 'mcp-lab:cancel-waiting';

const ICON = new LabIcon({
  name: 'mcp-lab:waiting',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" viewBox="0 0 24 24">' +
    '<path class="jp-icon3" fill="#616161" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2h-7l-5 4v-4H4a2 2 0 0 1-2-2V5' +
    'a2 2 0 0 1 2-2zm7.1 10.6v1.9h1.8v-1.9h-1.8zM12 5.5a3.4 3.4 0 0 0-3.4 3.3h1.8A1.6 1.6 0 0 1 12 7.3a1.6 1.6 0 0 1 ' +
    '1.6 1.6c0 1.5-2.5 1.4-2.5 3.8h1.8c0-1.7 2.5-1.9 2.5-3.8A3.4 3.4 0 0 0 12 5.5z"/></svg>'
});

function activate(
  app: JupyterFrontEnd,
  tracker: INotebookTracker | null,
  palette: ICommandPalette | null,
  translator: ITranslator | null
): void {
  // First: the live forms drawn in cells (the anywidget bundle) read the same bundle (src/i18n.ts).
  useTranslator(translator);
  if (!tracker) {
    return; // a page without notebooks (e.g. Notebook 7's file browser)
  }
  const subscriptions = new Map<NotebookPanel, WaitingQuestions>();
  const current = (): WaitingQuestions | null =>
    tracker.currentWidget ? (subscriptions.get(tracker.currentWidget) ?? null) : null;
  const panel = new WaitingPanel(() => current()?.retry());
  panel.title.icon = ICON;

  const reveal = (): void => {
    if (!panel.isAttached) {
      app.shell.add(panel, 'right', { rank: 900 });
    }
    app.shell.activateById(PANEL_ID);
  };
  const showCurrent = (): void => {
    const notebook = tracker.currentWidget;
    panel.follow(current(), notebook ? notebook.context.localPath : '');
  };

  const track = (notebook: NotebookPanel): void => {
    if (subscriptions.has(notebook)) {
      return;
    }
    watchSavedForms(notebook);
    const subscription = new WaitingQuestions(notebook.sessionContext);
    subscriptions.set(notebook, subscription);
    subscription.listedOnConnect.connect((_: WaitingQuestions, rounds: RoundRecord[]) => {
      // A person who reloads (or reopens the notebook) sees the questions still waiting for them.
      if (rounds.some(r => r.state === 'open') && tracker.currentWidget === notebook) {
        showCurrent();
        reveal();
      }
    });
    subscription.gone.connect((_: WaitingQuestions, why: string) => {
      // Every live form this notebook's cells draw (the anywidget front end listens for this event)
      // turns into its record: what it asked, and that it was abandoned because the kernel went.
      for (const forms of notebook.content.node.querySelectorAll('.mcp-lab-forms')) {
        forms.dispatchEvent(new CustomEvent(KERNEL_GONE_EVENT, { detail: why }));
      }
    });
    notebook.disposed.connect(() => {
      subscriptions.delete(notebook);
      subscription.dispose();
      showCurrent();
    });
    if (tracker.currentWidget === notebook) {
      showCurrent();
    }
  };
  tracker.forEach(track);
  tracker.widgetAdded.connect((_, notebook) => track(notebook));
  tracker.currentChanged.connect(showCurrent);
  app.shell.add(panel, 'right', { rank: 900 });
  showCurrent();

  app.commands.addCommand(SHOW, {
    label: trans.__('MCP Lab: Show waiting questions'),
    caption: trans.__("Show the questions waiting in the current notebook's kernel, answerable after a reload"),
    execute: () => {
      showCurrent();
      current()?.retry();
      reveal();
    }
  });
  app.commands.addCommand(CANCEL, {
    label: trans.__('MCP Lab: Cancel every waiting flow'),
    caption: trans.__("Cancel every flow waiting for an answer in the current notebook's kernel"),
    execute: () => {
      const subscription = current();
      if (!subscription || !subscription.send({ event: 'cancel_all' })) {
        Notification.info(trans.__("Nothing to cancel: mcp_lab is not listening in this notebook's kernel."), {
          autoClose: 5000
        });
      }
    }
  });
  for (const command of [SHOW, CANCEL]) {
    palette?.addItem({ command, category: trans.__('MCP Lab') });
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'mcp-lab:waiting-questions',
  description: "A side panel answering mcp_lab's waiting questions again after a page reload.",
  autoStart: true,
  optional: [INotebookTracker, ICommandPalette, ITranslator],
  activate
};

export default plugin;
