/**
 * One notebook's subscription to its kernel's waiting questions, over the comm target `mcp_lab.waiting`.
 *
 * Spec context: while a 2026-07-28 multi round-trip request waits for a person's answer (an
 * `InputRequiredResult` being answered in an awaiting cell), reloading the page loses the cell's live
 * form but not the kernel's wait. This subscription is how the questions come back: the front end opens
 * the comm with `{request: "list"}`, the kernel answers `{rounds: [...]}` at once and again on every
 * change (a full list each time, so a late or lost message never leaves a stale panel), and answers go
 * back on the same comm addressed to a flow's round.
 * A kernel without the target (mcp_lab not loaded) closes the comm at once: that is "unavailable",
 * shown as such, never an error.
 */

import { ISessionContext } from '@jupyterlab/apputils';
import { Kernel, KernelMessage } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

import { trans } from '../i18n';
import { asRoundRecord } from './record';
import { RoundRecord, WAITING_TARGET, WaitingEvent } from './types';

export type WaitingState = 'connecting' | 'open' | 'unavailable' | 'no kernel';

/** Kernel states after which its comms are gone (Lab disposes them on restart). */
const GONE = new Set(['restarting', 'autorestarting', 'dead']);

/** Why the forms of a kernel that went away can no longer be answered, by the status it went to. */
const goneWhy = (status: string): string =>
  status === 'dead' ? trans.__('the kernel stopped') : trans.__('the kernel restarted');

export class WaitingQuestions {
  private comm: Kernel.IComm | null = null;
  private kernel: Kernel.IKernelConnection | null = null;
  private listed = false;
  private readonly changedSignal = new Signal<this, void>(this);
  private readonly listedSignal = new Signal<this, RoundRecord[]>(this);
  private readonly goneSignal = new Signal<this, string>(this);
  /** The kernel whose going was announced already (a restart passes through several statuses). */
  private announced: Kernel.IKernelConnection | null = null;
  state: WaitingState = 'no kernel';
  /** Set while the side panel shows this notebook: a kernel without mcp_lab is asked again each time a
   * cell finishes, so `%load_ext mcp_lab` is noticed without a reload. (Once per cell, not on every idle
   * status: each attempt opens and closes a comm, and JupyterLab's per-target subshells are created and
   * deleted with them -- a burst of those is best avoided.) */
  retryWhenIdle = false;
  rounds: RoundRecord[] = [];

  constructor(private readonly session: ISessionContext) {
    session.kernelChanged.connect(this.onKernelChanged, this);
    session.statusChanged.connect(this.onStatus, this);
    session.connectionStatusChanged.connect(this.onConnection, this);
    session.iopubMessage.connect(this.onIopub, this);
    this.onKernelChanged();
  }

  /** Something to redraw: rounds or state changed. */
  get changed(): ISignal<this, void> {
    return this.changedSignal;
  }

  /** The kernel's first answer after (re)connecting: the rounds a reloaded page must show again. */
  get listedOnConnect(): ISignal<this, RoundRecord[]> {
    return this.listedSignal;
  }

  /** The kernel that asked went away (restart, shutdown, another kernel): why, in a few words. Every
   * form it drew, in its cell or in the side panel, can no longer be answered. */
  get gone(): ISignal<this, string> {
    return this.goneSignal;
  }

  /** Try again (e.g. mcp_lab was loaded since): opens the comm unless it is open. */
  retry(): void {
    if (this.state !== 'open' && this.state !== 'connecting') {
      this.open();
    }
  }

  send(event: WaitingEvent): boolean {
    if (!this.comm || this.state !== 'open') {
      return false;
    }
    this.comm.send(event);
    return true;
  }

  dispose(): void {
    Signal.clearData(this);
    this.drop();
  }

  private onKernelChanged(): void {
    const before = this.kernel;
    const after = this.session.session?.kernel ?? null;
    if (before && before !== after) {
      this.announce(before, after ? trans.__('the kernel changed') : trans.__('the kernel was shut down'));
    }
    this.drop();
    this.kernel = after;
    this.open();
  }

  private announce(kernel: Kernel.IKernelConnection, why: string): void {
    if (this.announced !== kernel) {
      this.announced = kernel;
      this.goneSignal.emit(why);
    }
  }

  private onStatus(_: unknown, status: Kernel.Status): void {
    if (GONE.has(status)) {
      if (this.kernel) {
        this.announce(this.kernel, goneWhy(status));
      }
      this.drop();
      return;
    }
    if (status === 'idle' || status === 'busy') {
      this.announced = null; // alive again (a restart keeps the connection): its next going is news
    }
    if (this.kernel && this.state === 'no kernel' && (status === 'idle' || status === 'busy')) {
      this.open(); // back after a restart
    }
  }

  private onIopub(_: unknown, msg: KernelMessage.IMessage): void {
    const finished =
      msg.channel === 'iopub' &&
      KernelMessage.isStatusMsg(msg as KernelMessage.IIOPubMessage) &&
      (msg.content as KernelMessage.IStatusMsg['content']).execution_state === 'idle' &&
      (msg.parent_header as Partial<KernelMessage.IHeader>).msg_type === 'execute_request';
    if (finished && this.retryWhenIdle && this.state === 'unavailable') {
      this.open();
    }
  }

  private onConnection(_: unknown, status: Kernel.ConnectionStatus): void {
    if (status === 'connected' && this.state === 'no kernel') {
      this.open();
    }
  }

  private open(): void {
    const kernel = this.kernel;
    if (!kernel || kernel.isDisposed || kernel.connectionStatus !== 'connected' || GONE.has(kernel.status)) {
      this.set('no kernel', []);
      return;
    }
    let comm: Kernel.IComm;
    try {
      comm = kernel.createComm(WAITING_TARGET);
    } catch {
      this.set('unavailable', []); // a kernel without comms
      return;
    }
    this.comm = comm;
    this.listed = false;
    comm.onMsg = msg => this.onMessage(comm, msg);
    comm.onClose = () => {
      if (this.comm === comm) {
        this.comm = null;
        // Closed before any answer: the kernel has no such target (mcp_lab is not loaded); closed later:
        // the kernel ended the subscription. Either way, only `retry()` opens it again.
        this.set('unavailable', []);
      }
    };
    this.set('connecting', []);
    try {
      comm.open({ request: 'list' });
    } catch {
      this.comm = null;
      this.set('unavailable', []);
    }
  }

  private onMessage(comm: Kernel.IComm, msg: KernelMessage.ICommMsgMsg): void {
    if (this.comm !== comm) {
      return;
    }
    const data = msg.content.data as { rounds?: unknown };
    if (!Array.isArray(data.rounds)) {
      return;
    }
    const rounds = data.rounds.map(asRoundRecord).filter((r): r is RoundRecord => r !== null);
    const first = !this.listed;
    this.listed = true;
    this.set('open', rounds);
    if (first) {
      this.listedSignal.emit(rounds);
    }
  }

  private drop(): void {
    const comm = this.comm;
    this.comm = null;
    if (comm && !comm.isDisposed) {
      try {
        comm.close();
      } catch {
        // the kernel is gone already; nothing to tell it
      }
    }
    this.set('no kernel', []);
  }

  private set(state: WaitingState, rounds: RoundRecord[]): void {
    this.state = state;
    this.rounds = rounds;
    this.changedSignal.emit();
  }
}
