/**
 * The side panel "MCP Lab: waiting questions": the current notebook's waiting rounds, answerable here.
 *
 * Spec context: a 2026-07-28 multi round-trip request that waits for a person must never strand the
 * kernel when the page that showed its form goes away (reloaded, closed, or its output cleared): the
 * question stays answerable from here. The panel draws every waiting round of the current notebook's
 * kernel with the same renderer as the cell's widget, sends answers over the `mcp_lab.waiting` comm
 * (each event addressed to its flow and round), and offers "Cancel every waiting flow". Typed values survive the kernel's updates because each round keeps its renderer.
 */

import { Widget } from '@lumino/widgets';

import { trans } from '../i18n';
import { el } from './html';
import { endRound, renderRound, Update } from './render';
import { RoundRecord, WaitingEvent } from './types';
import { WaitingQuestions } from './waiting';

export const PANEL_ID = 'mcp-lab-waiting-questions';

/** How many answered rounds stay visible (as their one-line records) after the kernel stops listing them. */
const KEEP_ANSWERED = 3;

type Entry = { node: HTMLElement; update: Update; record: RoundRecord; ended?: boolean };

const stateText = (state: WaitingQuestions['state']): string =>
  ({
    connecting: trans.__('Asking the kernel for waiting questions…'),
    'no kernel': trans.__("This notebook's kernel is not connected."),
    unavailable: trans.__('mcp_lab is not loaded in this notebook’s kernel (%load_ext mcp_lab), so nothing waits here.'),
    open: trans.__('No question is waiting in this notebook’s kernel.')
  })[state];

export class WaitingPanel extends Widget {
  private source: WaitingQuestions | null = null;
  private notebook = '';
  private readonly rounds = new Map<string, Entry>();
  /** Rounds answered since they were shown here, newest first: the person sees what was sent. */
  private answered: string[] = [];
  private readonly heading = el('div', { class: 'mcp-lab-waiting-for' });
  private readonly status = el('div', { class: 'mcp-lab-waiting-status', role: 'status', 'aria-live': 'polite' });
  private readonly list = el('div', { class: 'mcp-lab-waiting-rounds' });
  private readonly cancelAll = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-warn' }, trans.__('Cancel every waiting flow'));

  constructor(private readonly onShow: () => void) {
    super();
    this.id = PANEL_ID;
    this.addClass('mcp-lab-waiting');
    this.title.caption = trans.__('MCP Lab: waiting questions');
    this.title.label = trans.__('Waiting questions');
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', trans.__('MCP Lab: waiting questions'));
    this.cancelAll.addEventListener('click', () => this.send({ event: 'cancel_all' }));
    this.node.append(
      el(
        'div',
        { class: 'mcp-lab-waiting-header' },
        el('h2', { class: 'mcp-lab-waiting-title' }, trans.__('Waiting questions')),
        this.heading
      ),
      this.status,
      this.list,
      el('div', { class: 'mcp-lab-waiting-footer' }, this.cancelAll)
    );
    this.redraw();
  }

  /** Show this notebook's subscription (null: no notebook is current). */
  follow(source: WaitingQuestions | null, notebook: string): void {
    if (source !== this.source) {
      this.source?.changed.disconnect(this.redraw, this);
      this.source?.gone.disconnect(this.onGone, this);
      if (this.source) {
        this.source.retryWhenIdle = false;
      }
      this.source = source;
      if (source) {
        source.retryWhenIdle = this.isVisible;
      }
      source?.changed.connect(this.redraw, this);
      source?.gone.connect(this.onGone, this);
      this.rounds.forEach(entry => entry.node.remove());
      this.rounds.clear();
      this.answered = [];
    }
    this.notebook = notebook;
    this.redraw();
  }

  send(event: WaitingEvent): boolean {
    const sent = this.source?.send(event) ?? false;
    if (!sent) {
      this.status.textContent = trans.__('Not sent: the kernel is not listening for answers (see the line above).');
    }
    return sent;
  }

  /** The kernel went away: its waiting rounds stay here as records saying so, their buttons gone. */
  private onGone(_: WaitingQuestions, why: string): void {
    for (const [key, entry] of this.rounds) {
      if (entry.record.state === 'open') {
        entry.record = endRound(entry.record, trans.__('abandoned: %1', why));
        entry.update(entry.record);
        entry.ended = true;
        if (!this.answered.includes(key)) {
          this.answered.unshift(key);
        }
      }
    }
  }

  protected onAfterShow(): void {
    if (this.source) {
      this.source.retryWhenIdle = true;
    }
    this.onShow();
  }

  protected onAfterHide(): void {
    if (this.source) {
      this.source.retryWhenIdle = false;
    }
  }

  private redraw(): void {
    const source = this.source;
    const rounds = source?.rounds ?? [];
    this.heading.textContent = this.notebook ? trans.__('in %1', this.notebook) : trans.__('No notebook is open.');
    const waiting = rounds.filter(r => r.state === 'open').length;
    this.status.textContent = !source
      ? ''
      : waiting
        ? trans._n('One round waits for an answer.', '%1 rounds wait for an answer.', waiting)
        : stateText(source.state);
    this.cancelAll.hidden = !waiting;
    const seen = new Set<string>();
    const order: HTMLElement[] = [];
    for (const record of rounds) {
      const key = `${record.flow.id}#${record.round}`;
      seen.add(key);
      let entry = this.rounds.get(key);
      if (entry?.ended) {
        order.push(entry.node); // a round of a kernel that is gone: its record stays as it was drawn
        continue;
      }
      if (entry) {
        entry.update(record);
        entry.record = record;
      } else {
        const node = el('div', { class: 'mcp-lab-waiting-round' });
        const address = { flow: record.flow.id, round: record.round };
        const update = renderRound(node, record, event => this.send({ ...event, ...address }));
        entry = { node, update, record };
        this.rounds.set(key, entry);
      }
      order.push(entry.node);
    }
    for (const [key, entry] of this.rounds) {
      if (seen.has(key) || this.answered.includes(key)) {
        continue;
      }
      if (entry.record.state === 'settled') {
        this.answered.unshift(key); // gone from the kernel's list once settled: keep its record a while
      } else {
        entry.node.remove();
        this.rounds.delete(key);
      }
    }
    this.answered = this.answered.filter(key => !seen.has(key) && this.rounds.has(key));
    for (const key of this.answered.splice(KEEP_ANSWERED)) {
      this.rounds.get(key)?.node.remove();
      this.rounds.delete(key);
    }
    order.push(...this.answered.map(key => this.rounds.get(key)!.node));
    order.forEach((node, index) => {
      if (this.list.children[index] !== node) {
        this.list.insertBefore(node, this.list.children[index] ?? null);
      }
    });
  }
}
