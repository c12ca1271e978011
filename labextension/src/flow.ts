/**
 * `application/vnd.mcp-lab.flow+json`: a Flow as a sequence diagram between a client and a server lane.
 *
 * Spec context: 2026-07-28 multi round-trip requests. The SDK's `Client` hides the loop; the lab shows it:
 * every leg is a client->server arrow (the call, the answers sent, the echoed request_state) and a
 * server->client arrow (an InputRequiredResult with its questions and sealed token, a result, or an
 * error), with the leg's MCP headers, HTTP exchanges, server log and timings. On 2025-11-25 the same
 * questions travel as server->client requests *inside* one leg; those are drawn as back-channel arrows,
 * so the two protocol eras can be compared. The data is the Python `FlowRecord`.
 */

import { badge, Child, details, h, jsonBlock, mark, ms, notes, rawJson, valueText } from './dom';
import { errorBody, httpExchanges, inputRequest, inputResponse, mcpHeaderList, requestKind, resultBody, serverLog } from './legs';
import { N_, trans } from './i18n';
import { FlowRecord, RoundRecord } from './records';
import { tokenSegments } from './sealed';

export const LEGACY_ERA = '2025-11-25';

/** How the Python record words a flow's status (mcp_lab.flow.record.STATUS_TEXT): msgids of the catalog. */
const STATUS_WORDS = new Set([
  N_('not started'),
  N_('waiting for answers'),
  N_('done'),
  N_('failed'),
  N_('stopped'),
  N_('interrupted')
]);

const statusText = (text: string): string => (STATUS_WORDS.has(text) ? trans.__(text) : text);

function eraBadge(era: string): HTMLElement {
  const legacy = era === LEGACY_ERA;
  const label = legacy ? trans.__('%1 · back-channel requests inside one call', era) : trans.__('%1 · multi round-trip (InputRequiredResult)', era);
  return badge(label, legacy ? 'legacy' : 'era');
}

type Direction = 'to-server' | 'to-client';

/** One arrow between the lanes, with its label card above the line. */
function message(direction: Direction, kind: string, title: Child, body: Child[]): HTMLElement {
  const arrow = direction === 'to-server' ? trans.__('client to server') : trans.__('server to client');
  return h(
    'div',
    { class: `mcp-lab-msg mcp-lab-${direction} mcp-lab-msg-${kind}`, role: 'group', 'aria-label': arrow },
    h('div', { class: 'mcp-lab-lane mcp-lab-lane-client', 'aria-hidden': 'true' }),
    h(
      'div',
      { class: 'mcp-lab-msg-main' },
      h('div', { class: 'mcp-lab-msg-card' }, h('div', { class: 'mcp-lab-msg-title' }, title), body),
      h('div', { class: 'mcp-lab-arrow', 'aria-hidden': 'true' })
    ),
    h('div', { class: 'mcp-lab-lane mcp-lab-lane-server', 'aria-hidden': 'true' })
  );
}

function requestArrow(flow: FlowRecord, round: RoundRecord): HTMLElement {
  const body: Child[] = [];
  const fresh = round.index === 0 || round.started_over;
  const args = Object.entries(flow.arguments);
  if (fresh && args.length > 0) {
    body.push(
      h(
        'div',
        null,
        h('span', { class: 'mcp-lab-muted' }, `${trans.__('arguments')} `),
        h('code', { class: 'mcp-lab-long' }, args.map(([k, v]) => `${k}=${valueText(v)}`).join(', '))
      )
    );
  }
  if (round.sent_answers.length > 0) {
    body.push(h('div', { class: 'mcp-lab-muted' }, 'inputResponses'), h('ul', { class: 'mcp-lab-list' }, round.sent_answers.map(inputResponse)));
  }
  if (round.sent_token !== null) {
    body.push(h('div', { class: 'mcp-lab-muted' }, trans.__('requestState echoed byte for byte')), tokenSegments(round.sent_token));
  }
  if (round.backoff) {
    body.push(h('div', { class: 'mcp-lab-muted' }, trans.__('sent after a %1 backoff (the previous answer carried state only)', ms(round.backoff))));
  }
  const headers = mcpHeaderList(round.http);
  if (headers) {
    body.push(headers);
  }
  const title = h('span', null, `${flow.method} `, h('code', null, flow.target));
  return message('to-server', 'request', title, body);
}

function backchannelArrows(round: RoundRecord): HTMLElement[] {
  const arrows: HTMLElement[] = [];
  for (const entry of round.backchannel) {
    arrows.push(
      message('to-client', 'back', h('span', null, trans.__('back-channel %1', entry.request.method || requestKind(entry.request))), [
        h('ul', { class: 'mcp-lab-list' }, inputRequest(entry.request))
      ])
    );
    const answer: Child[] =
      entry.error !== null
        ? [h('div', { class: 'mcp-lab-error-text' }, trans.__('error: %1', entry.error))]
        : entry.answer !== null
          ? [h('ul', { class: 'mcp-lab-list' }, inputResponse(entry.answer))]
          : [];
    arrows.push(message('to-server', 'back', trans.__('back-channel answer'), answer));
  }
  return arrows;
}

function responseArrow(round: RoundRecord): HTMLElement {
  if (round.outcome === 'input_required') {
    const caption = round.token === null
      ? trans.__('requestState: none')
      : round.token.kind === 'plaintext'
        ? trans.__('requestState (plaintext: this server does not seal it)')
        : trans.__('requestState (sealed by the server)');
    const body: Child[] = [
      round.input_requests.length
        ? h('ul', { class: 'mcp-lab-list' }, round.input_requests.map(inputRequest))
        : h('div', { class: 'mcp-lab-muted' }, trans.__('no questions: state only (the client backs off, then retries)')),
      h('div', { class: 'mcp-lab-muted' }, caption),
      tokenSegments(round.token)
    ];
    return message('to-client', 'ask', h('span', null, badge('input_required', 'warn'), ` ${trans.__('%1 question(s)', round.input_requests.length)}`), body);
  }
  if (round.outcome === 'error') {
    return message('to-client', 'err', badge(trans.__('✗ error'), 'err'), errorBody(round.error));
  }
  const failed = round.result !== null && round.result.is_error;
  return message('to-client', failed ? 'err' : 'ok', badge(failed ? trans.__('✗ result (isError)') : trans.__('✓ result'), failed ? 'err' : 'ok'), resultBody(round.result));
}

/** The client refused before anything left it (Reject on a sampling request, an answer that failed). */
const notSent = (round: RoundRecord): boolean => round.outcome === 'error' && round.error?.where === 'client';

/** A leg the client never sent: no arrow reaches the server, only the client's refusal. */
function refusedLeg(round: RoundRecord): HTMLElement {
  const number = round.index + 1;
  return h(
    'section',
    { class: 'mcp-lab-leg mcp-lab-leg-not-sent', 'data-leg': String(number), 'aria-label': trans.__('leg %1: not sent', number) },
    h('div', { class: 'mcp-lab-leg-head' }, h('span', { class: 'mcp-lab-leg-index' }, trans.__('leg %1', number)), h('span', { class: 'mcp-lab-muted' }, trans.__('not sent'))),
    h(
      'div',
      { class: 'mcp-lab-note mcp-lab-not-sent' },
      mark(false, trans.__('refused')),
      ` ${trans.__('refused in the client, nothing was sent to the server:')} `,
      h('code', null, round.error?.message ?? '')
    )
  );
}

function leg(flow: FlowRecord, round: RoundRecord, firstStart: number | undefined): HTMLElement {
  if (notSent(round)) {
    return refusedLeg(round);
  }
  // Legs are numbered from 1 in every view; the form's "round N" is the questions leg N asked.
  const number = round.index + 1;
  const timing: string[] = [];
  if (round.started > 0 && firstStart !== undefined) {
    timing.push(trans.__('at +%1', ms(round.started - firstStart)));
  }
  timing.push(trans.__('took %1', ms(round.elapsed)));
  if (round.served_by !== null) {
    timing.push(trans.__('served by %1', round.served_by));
  }
  const extras: Child[] = [];
  if (round.started_over) {
    extras.push(h('div', { class: 'mcp-lab-note' }, trans.__("the previous leg's request_state was rejected: this leg started the request over, without answers or token")));
  }
  if (round.relisted) {
    extras.push(h('div', { class: 'mcp-lab-note' }, trans.__('header mismatch (-32020): the client re-listed tools and resent this leg once')));
  }
  if (round.unreadable_http > 0) {
    extras.push(h('div', { class: 'mcp-lab-note' }, trans.__('%1 HTTP exchange(s) recorded by another mcp_lab version', round.unreadable_http)));
  }
  extras.push(serverLog(round.server_log), httpExchanges(round.http), rawJson(round, trans.__('leg %1 JSON', number)));
  return h(
    'section',
    { class: `mcp-lab-leg mcp-lab-leg-${round.outcome}`, 'data-leg': String(number), 'aria-label': trans.__('leg %1: %2', number, round.outcome) },
    h('div', { class: 'mcp-lab-leg-head' }, h('span', { class: 'mcp-lab-leg-index' }, trans.__('leg %1', number)), h('span', { class: 'mcp-lab-muted' }, timing.join(' · '))),
    requestArrow(flow, round),
    backchannelArrows(round),
    responseArrow(round),
    h('div', { class: 'mcp-lab-leg-extras' }, extras)
  );
}

function legCount(flow: FlowRecord): string {
  const sent = flow.rounds.filter(r => !notSent(r)).length;
  return trans._n('%1 leg sent', '%1 legs sent', sent);
}

export function renderFlow(flow: FlowRecord): HTMLElement {
  const starts = flow.rounds.map(r => r.started).filter(v => v > 0);
  const firstStart = starts.length ? Math.min(...starts) : undefined;
  const total = flow.rounds.reduce((sum, r) => sum + r.elapsed, 0);
  const head = h(
    'div',
    { class: 'mcp-lab-flow-head' },
    h('span', { class: 'mcp-lab-flow-title' }, `${flow.method} `, h('code', null, flow.target), ` ${trans.__('on')} `, h('code', null, flow.server)),
    ' ',
    badge(statusText(flow.status_text), flow.status_tone),
    ' ',
    eraBadge(flow.era),
    ' ',
    h('span', { class: 'mcp-lab-muted' }, `${legCount(flow)}${total ? trans.__(', %1 in legs', ms(total)) : ''} · ${trans.__('flow %1', flow.id)}`)
  );
  const lanes = h(
    'div',
    { class: 'mcp-lab-lanes', 'aria-hidden': 'true' },
    h('div', { class: 'mcp-lab-lane-head' }, trans.__('client')),
    h('div', null),
    h('div', { class: 'mcp-lab-lane-head' }, `${trans.__('server')} `, h('code', null, flow.server))
  );
  const footer: Child[] = [];
  if (flow.stop_reason) {
    footer.push(h('div', { class: 'mcp-lab-note' }, trans.__('stopped: %1', flow.stop_reason)));
  }
  footer.push(...notes(flow.notes));
  if (flow.rounds.length === 0) {
    footer.push(h('div', { class: 'mcp-lab-muted' }, trans.__('no legs sent yet')));
  }
  return h(
    'div',
    { class: 'mcp-lab-flow-view', 'data-status': flow.status, 'data-era': flow.era },
    h('div', { class: 'mcp-lab-summary-line' }, flow.summary),
    head,
    h('div', { class: 'mcp-lab-seq', role: 'list', 'aria-label': trans.__('legs of the conversation') }, lanes, flow.rounds.map(r => h('div', { role: 'listitem' }, leg(flow, r, firstStart)))),
    footer,
    details(trans.__('flow JSON'), jsonBlock(flow), { className: 'mcp-lab-raw' })
  );
}
