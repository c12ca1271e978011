/**
 * The one renderer of a round of live forms, shared by the anywidget in the awaiting cell and the
 * JupyterLab side panel of waiting questions.
 *
 * Spec context: a 2026-07-28 `InputRequiredResult` asks one or more questions at once (elicitation, URL,
 * sampling, roots); the client answers all of them in the retry. Why it works the way it does
 * (the contract in ./types.ts): a form's values travel whole, in ONE event per Submit, because per-field
 * widget updates are held back while a cell awaits; validation is the kernel's, and its verdict comes
 * back as a new record. A new record never erases what the person typed: inputs are kept, error lines
 * and states are updated, and the kernel's `values` are re-applied only when `values_version` moved.
 */

import { buildField, FieldControl } from './fields';
import { trans } from '../i18n';
import { el, nextId } from './html';
import { kernelText } from './kernel-words';
import { pointerOver, unlessPressed, writeLine } from './steady';
import { FormEvent, FormRecord, FormValues, RoundRecord } from './types';

export type Send = (event: FormEvent) => void;
export type Update = (record: RoundRecord) => void;

/**
 * The DOM event that ends every live form drawn inside the node it is dispatched on: the kernel that
 * asked is gone (restarted, shut down, changed), so nothing typed here can reach it any more. The
 * JupyterLab plugin dispatches it on a notebook's node when that notebook's kernel goes; the side panel
 * uses the same `endRound`. `detail` is the reason, e.g. "the kernel restarted".
 */
export const KERNEL_GONE_EVENT = 'mcp-lab-kernel-gone';

/** "elicitation form 'region' from 'desk'": the kernel's own words for the form, without its state. */
const formHead = (form: FormRecord): string =>
  form.summary.replace(/: waiting for an answer$/, '') || `${form.name} from ${form.server}`;

/** `record` as it reads once its kernel is gone: every open form becomes its record, ending in `outcome`
 * (e.g. "abandoned: the kernel restarted"). */
export function endRound(record: RoundRecord, outcome: string): RoundRecord {
  return {
    ...record,
    state: 'settled',
    stoppable: false,
    notice: null,
    forms: record.forms.map(form =>
      form.state === 'open' ? { ...form, state: 'abandoned', summary: `${kernelText(formHead(form))}: ${outcome}` } : form
    )
  };
}

const DRAFT_DELAY_MS = 400;
/** After this long without a new record, a "Sending…" line gives way to what the record says. */
const SENDING_MS = 2500;

/** Drafts still waiting for their debounce: sent at once if the page goes away (a reload keeps them). */
const pendingDrafts = new Set<() => void>();
let leaveHooked = false;

function flushOnLeave(flush: () => void): void {
  if (!leaveHooked) {
    leaveHooked = true;
    const flushAll = (): void => [...pendingDrafts].forEach(f => f());
    window.addEventListener('beforeunload', flushAll);
    window.addEventListener('pagehide', flushAll);
  }
  pendingDrafts.add(flush);
}

const kindWords = (): Record<FormRecord['kind'], string> => ({
  elicitation: trans.__('question'),
  url: trans.__('page to open'),
  sampling: trans.__('sampling request'),
  roots: trans.__('roots request')
});

/** Fields are kept across records while this stays the same (same names, kinds and options). */
const signature = (form: FormRecord): string => JSON.stringify(form.fields);
const infoKey = (form: FormRecord): string =>
  JSON.stringify([form.name, form.kind, form.server, form.trust, form.intro, form.message, form.details, form.link, form.notes]);

function safeLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function info(form: FormRecord, titleId: string): HTMLElement {
  const box = el(
    'div',
    { class: 'mcp-lab-form-info' },
    el(
      'div',
      { class: 'mcp-lab-form-title', id: titleId },
      el('span', { class: 'mcp-lab-form-name' }, form.name),
      el('span', { class: 'mcp-lab-form-kind' }, ` ${kindWords()[form.kind]}`),
      form.server ? el('span', { class: 'mcp-lab-form-server' }, ` ${trans.__('from %1', form.server)}`) : null
    ),
    form.trust ? el('div', { class: 'mcp-lab-form-trust' }, kernelText(form.trust)) : null,
    form.intro ? el('div', { class: 'mcp-lab-form-intro' }, kernelText(form.intro)) : null,
    form.message ? el('div', { class: 'mcp-lab-form-message' }, form.message) : null
  );
  for (const detail of form.details) {
    box.append(
      el(
        'div',
        { class: 'mcp-lab-form-detail' },
        detail.label ? el('div', { class: 'mcp-lab-form-detail-label' }, detail.label) : null,
        el(detail.pre ? 'pre' : 'div', { class: 'mcp-lab-form-detail-text' }, detail.text)
      )
    );
  }
  if (form.link) {
    const href = safeLink(form.link.url);
    const host = form.link.host || form.link.url;
    box.append(
      el(
        'div',
        { class: 'mcp-lab-form-link' },
        href
          ? el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, trans.__('Open %1 ↗', host))
          : el('span', {}, trans.__('Not a web address, not opened: %1', host)),
        el('div', { class: 'mcp-lab-form-url' }, form.link.url)
      )
    );
  }
  if (form.notes.length) {
    box.append(el('ul', { class: 'mcp-lab-form-notes' }, ...form.notes.map(note => el('li', {}, kernelText(note)))));
  }
  return box;
}

class FormView {
  readonly node = el('section', { class: 'mcp-lab-form' });
  private record: FormRecord;
  private controls: FieldControl[] = [];
  private status = el('div', { class: 'mcp-lab-form-status', role: 'status', 'aria-live': 'polite' });
  private draftTimer: number | undefined;
  private sendingTimer: number | undefined;
  private submitted = false;
  private drawnOpen = false;

  constructor(
    record: FormRecord,
    private readonly send: Send
  ) {
    this.record = record;
    this.node.id = nextId();
    this.node.dataset.key = record.key;
    this.draw(record, true);
  }

  get key(): string {
    return this.record.key;
  }

  get open(): boolean {
    return this.record.state === 'open';
  }

  values(): FormValues {
    const values: FormValues = {};
    for (const control of this.controls) {
      values[control.field.name] = control.read();
    }
    return values;
  }

  /** The person pressed Submit (or Enter): mark the form as sending; the caller sends the event. */
  sending(): void {
    this.dropDraft();
    this.submitted = true;
    this.status.className = 'mcp-lab-form-status mcp-lab-sending';
    writeLine(this.status, trans.__('Sending…'), false);
    window.clearTimeout(this.sendingTimer);
    // The kernel answers by changing the record; an identical verdict changes nothing, so the line
    // falls back to what the current record says, and a later record is no verdict on this Submit (it
    // neither moves the focus nor the form's lines).
    this.sendingTimer = window.setTimeout(() => {
      this.submitted = false;
      this.showStatus(pointerOver(this.node));
    }, SENDING_MS);
  }

  update(record: FormRecord): void {
    if (JSON.stringify(record) === JSON.stringify(this.record)) {
      return; // another form of the round changed; this one's "Sending…" line stays until its own verdict
    }
    const versionMoved = record.values_version !== this.record.values_version;
    if (this.drawnOpen && record.state === 'open' && signature(record) === signature(this.record)) {
      // Same inputs: keep them (and the focus); redraw only what changed around them. Nothing below a
      // changed line moves while the pointer is over the form (./steady.ts: a press would be released
      // over another control), except for the verdict on this form's own Submit.
      const steady = !this.submitted && pointerOver(this.node);
      const infoChanged = infoKey(record) !== infoKey(this.record);
      const buttonsChanged = JSON.stringify(record.buttons) !== JSON.stringify(this.record.buttons);
      this.record = record;
      if (infoChanged) {
        this.node.querySelector('.mcp-lab-form-info')?.replaceWith(info(record, this.titleId()));
      }
      if (buttonsChanged) {
        this.node.querySelector('.mcp-lab-form-buttons')?.replaceWith(this.buttons());
      }
      if (versionMoved) {
        this.applyValues();
      }
      this.showErrors(steady);
      return;
    }
    // Other inputs (or a closed form): redraw, carrying over what was typed into fields that remain,
    // unless the kernel just set that field's value.
    const typed = this.drawnOpen ? this.values() : {};
    this.draw(record, versionMoved);
    for (const control of this.controls) {
      const name = control.field.name;
      if (name in typed && !(versionMoved && name in record.values)) {
        control.write(typed[name]);
      }
    }
  }

  private titleId(): string {
    return `${this.node.id}-title`;
  }

  private draw(record: FormRecord, applyValues: boolean): void {
    this.record = record;
    this.node.dataset.state = record.state;
    this.node.dataset.kind = record.kind;
    this.drawnOpen = record.state === 'open';
    if (!this.drawnOpen) {
      this.dropDraft();
      window.clearTimeout(this.sendingTimer);
      this.controls = [];
      this.node.removeAttribute('role');
      this.node.removeAttribute('aria-labelledby');
      const ok = record.state === 'accepted';
      // What was asked and never answered stays readable (a restart, a notebook reopened without its kernel).
      const asked =
        record.state === 'abandoned' && record.message
          ? [el('div', { class: 'mcp-lab-form-asked' }, el('span', { class: 'mcp-lab-muted' }, trans.__('asked: ')), record.message)]
          : [];
      this.node.replaceChildren(
        el(
          'div',
          { class: `mcp-lab-form-record ${ok ? 'mcp-lab-ok' : 'mcp-lab-not-ok'}` },
          el('span', { class: 'mcp-lab-mark', 'aria-hidden': 'true' }, ok ? '✓' : '✗'),
          el('span', { class: 'mcp-lab-form-summary' }, kernelText(record.summary) || `${record.name}: ${kernelText(record.state)}`)
        ),
        ...asked
      );
      return;
    }
    this.node.setAttribute('role', 'form');
    this.node.setAttribute('aria-labelledby', this.titleId());
    this.controls = record.fields.map(f =>
      buildField(f, { changed: () => this.scheduleDraft(), submit: () => this.submit() }, record.kind === 'sampling' || record.kind === 'roots')
    );
    this.node.replaceChildren(
      info(record, this.titleId()),
      el('div', { class: 'mcp-lab-form-fields' }, ...this.controls.map(c => c.node)),
      this.status,
      this.buttons()
    );
    if (applyValues) {
      this.applyValues();
    }
    this.showErrors();
  }

  private applyValues(): void {
    for (const control of this.controls) {
      if (control.field.name in this.record.values) {
        control.write(this.record.values[control.field.name]);
      }
    }
  }

  private showErrors(steady = false): void {
    const errors = this.record.errors;
    let firstInvalid: FieldControl | undefined;
    for (const control of this.controls) {
      const message = errors[control.field.name] ?? '';
      control.setError(message, steady);
      firstInvalid = firstInvalid ?? (message ? control : undefined);
    }
    window.clearTimeout(this.sendingTimer);
    this.showStatus(steady);
    if (this.submitted && firstInvalid) {
      // Only after this form's own Submit, and only if the person is not already elsewhere.
      const active = document.activeElement;
      if (!active || active === document.body || this.node.contains(active)) {
        firstInvalid.focus();
      }
    }
    this.submitted = false;
  }

  private showStatus(steady: boolean): void {
    const errors = this.record.errors;
    const fieldErrors = this.controls.filter(c => errors[c.field.name]).length;
    const unknown = Object.keys(errors).filter(k => k && !this.controls.some(c => c.field.name === k));
    const lines = [kernelText(errors[''] ?? ''), ...unknown.map(k => `${k}: ${kernelText(errors[k])}`)].filter(Boolean);
    if (!lines.length && fieldErrors) {
      lines.push(trans._n('Fix the marked field, then submit again.', 'Fix the %1 marked fields, then submit again.', fieldErrors));
    }
    this.status.className = `mcp-lab-form-status${lines.length ? ' mcp-lab-error' : ''}`;
    writeLine(this.status, lines.join(' '), steady);
  }

  private buttons(): HTMLElement {
    const { submit, decline, cancel } = this.record.buttons;
    const button = (label: string, cls: string, click: () => void): HTMLButtonElement => {
      const b = el('button', { type: 'button', class: `mcp-lab-button ${cls}` }, label);
      b.addEventListener('click', click);
      return b;
    };
    return el(
      'div',
      { class: 'mcp-lab-form-buttons' },
      button(kernelText(submit) || trans.__('Submit'), 'mcp-lab-primary', () => this.submit()),
      decline ? button(kernelText(decline), 'mcp-lab-secondary', () => this.close('decline')) : null,
      cancel ? button(kernelText(cancel), 'mcp-lab-secondary', () => this.close('cancel')) : null
    );
  }

  private submit(): void {
    this.sending();
    this.send({ event: 'submit', key: this.key, values: this.values() });
  }

  private close(event: 'decline' | 'cancel'): void {
    this.dropDraft();
    this.send({ event, key: this.key });
  }

  private scheduleDraft(): void {
    window.clearTimeout(this.draftTimer);
    this.draftTimer = window.setTimeout(this.flushDraft, DRAFT_DELAY_MS);
    flushOnLeave(this.flushDraft);
  }

  private readonly flushDraft = (): void => {
    this.dropDraft();
    if (this.open) {
      this.send({ event: 'draft', key: this.key, values: this.values() });
    }
  };

  private dropDraft(): void {
    window.clearTimeout(this.draftTimer);
    pendingDrafts.delete(this.flushDraft);
  }

}

function roundTitle(record: RoundRecord): string {
  const { method, target, server } = record.flow;
  return server
    ? trans.__('%1 %2 on %3 · round %4', method, target, server, record.round)
    : trans.__('%1 %2 · round %3', method, target, record.round);
}

/** Draw `record` into `host`; the returned function redraws it from a newer record of the same round. */
export function renderRound(host: HTMLElement, record: RoundRecord, send: Send): Update {
  const title = el('div', { class: 'mcp-lab-forms-title' });
  const notice = el('div', { class: 'mcp-lab-forms-notice', role: 'note' });
  const list = el('div', { class: 'mcp-lab-forms-list' });
  const actions = el('div', { class: 'mcp-lab-forms-actions' });
  const root = el('div', { class: 'mcp-lab-forms' }, title, notice, list, actions);
  const views = new Map<string, FormView>();
  let ended: string | null = null;
  let latest = record;
  // Once the kernel is gone, nothing more is sent (a late click or a pending draft goes nowhere) and a
  // record arriving late from the old kernel cannot bring the forms back.
  const guarded: Send = event => {
    if (ended === null) {
      send(event);
    }
  };

  const submitAll = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-primary' }, trans.__('Submit all'));
  submitAll.addEventListener('click', () => {
    const values: Record<string, FormValues> = {};
    for (const view of views.values()) {
      if (view.open) {
        view.sending();
        values[view.key] = view.values();
      }
    }
    guarded({ event: 'submit_all', values });
  });
  const stop = el('button', { type: 'button', class: 'mcp-lab-button mcp-lab-warn' }, trans.__('Stop flow'));
  stop.title = trans.__('End the whole flow now, as interrupted; it can be resumed later');
  stop.addEventListener('click', () => guarded({ event: 'stop' }));

  const draw = (): void => {
    const next = ended === null ? latest : endRound(latest, trans.__('abandoned: %1', ended));
    root.dataset.flow = next.flow.id;
    root.dataset.round = String(next.round);
    root.dataset.state = next.state;
    title.textContent = roundTitle(next);
    notice.textContent = kernelText(next.notice ?? '');
    notice.hidden = !next.notice || next.state !== 'open';
    const seen = new Set<string>();
    for (const shown of next.forms) {
      // A settled round draws only records, even if a form's own state lagged behind.
      const form: FormRecord =
        next.state === 'settled' && shown.state === 'open'
          ? { ...shown, state: 'abandoned', summary: shown.summary || trans.__('no longer waiting') }
          : shown;
      seen.add(form.key);
      const view = views.get(form.key);
      if (view) {
        view.update(form);
      } else {
        views.set(form.key, new FormView(form, guarded));
      }
    }
    for (const [key, view] of views) {
      if (!seen.has(key)) {
        view.node.remove();
        views.delete(key);
      }
    }
    // Keep the record's order without re-inserting nodes that are already in place (focus survives).
    next.forms.forEach((form, i) => {
      const node = views.get(form.key)!.node;
      if (list.children[i] !== node) {
        list.insertBefore(node, list.children[i] ?? null);
      }
    });
    const open = next.state === 'open' ? next.forms.filter(f => f.state === 'open').length : 0;
    actions.replaceChildren(...(open > 1 ? [submitAll] : []), ...(open && next.stoppable ? [stop] : []));
    actions.hidden = !actions.childElementCount;
  };
  // A record arriving while a button pressed inside this round is down is drawn once it is released
  // (./steady.ts): the click goes where the person pressed.
  const update: Update = incoming => {
    latest = incoming;
    unlessPressed(root, draw);
  };
  update(record);
  root.addEventListener(KERNEL_GONE_EVENT, event => {
    if (ended === null && latest.state === 'open') {
      ended = String((event as CustomEvent).detail || trans.__('the kernel is gone'));
      root.dataset.ended = ended;
      update(latest);
    }
  });
  host.append(root);
  return update;
}
