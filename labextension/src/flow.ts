/**
 * `application/vnd.mcp-lab.flow+json`: a Flow as a sequence diagram between a client and a server lane.
 *
 * Spec context: 2026-07-28 multi round-trip requests. The SDK's `Client` hides the loop; the lab shows it:
 * every leg is a client->server arrow (the call, the answers sent, the echoed request_state) and a
 * server->client arrow (an InputRequiredResult with its questions and sealed token, a result, or an
 * error), with the leg's MCP headers, HTTP exchanges, server log and timings. On 2025-11-25 the same
 * questions travel as server->client requests *inside* one leg; those are drawn as back-channel arrows,
 * so the two protocol eras can be compared. The data is `Flow.to_dict()`; unknown fields are kept visible.
 */

import {
  asArray,
  asObject,
  badge,
  Child,
  details,
  h,
  jsonBlock,
  JsonObject,
  ms,
  num,
  otherFields,
  rawJson,
  text
} from './dom';
import {
  errorBody,
  httpExchanges,
  inputRequest,
  inputResponse,
  mcpHeaderList,
  requestKind,
  resultBody,
  serverLog
} from './legs';
import { parseToken, tokenSegments } from './sealed';

const FLOW_FIELDS = [
  'server', 'method', 'target', 'arguments', 'era', 'rounds', 'status', 'stop_reason', 'notes', 'max_rounds', 'id',
  'start_over'
];
const ROUND_FIELDS = [
  'index', 'sent_input_responses', 'sent_request_state', 'answered_by', 'outcome', 'input_requests',
  'request_state', 'result', 'error', 'backoff', 'started', 'elapsed', 'relisted', 'started_over', 'served_by',
  'http', 'server_log', 'backchannel'
];

const STATUS_TEXT: Record<string, [string, string]> = {
  new: ['not started', ''],
  input_required: ['waiting for answers', 'warn'],
  done: ['done', 'ok'],
  error: ['failed', 'err'],
  stopped: ['stopped', 'warn']
};

export const LEGACY_ERA = '2025-11-25';

function eraBadge(era: string): HTMLElement {
  const legacy = era === LEGACY_ERA;
  const label = legacy ? `${era} · back-channel requests inside one call` : `${era || '?'} · multi round-trip (InputRequiredResult)`;
  return badge(label, legacy ? 'legacy' : 'era');
}

type Direction = 'to-server' | 'to-client';

/** One arrow between the lanes, with its label card above the line. */
function message(direction: Direction, kind: string, title: Child, body: Child[]): HTMLElement {
  const arrow = direction === 'to-server' ? 'client to server' : 'server to client';
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

function requestArrow(flow: JsonObject, round: JsonObject): HTMLElement {
  const body: Child[] = [];
  const index = num(round.index) ?? 0;
  const args = flow.arguments;
  const fresh = index === 0 || round.started_over === true;
  if (fresh && args !== undefined && Object.keys(asObject(args)).length > 0) {
    body.push(h('div', null, h('span', { class: 'mcp-lab-muted' }, 'arguments '), h('code', null, JSON.stringify(args))));
  }
  const responses = asObject(round.sent_input_responses);
  const answeredBy = asObject(round.answered_by);
  if (Object.keys(responses).length > 0) {
    body.push(
      h('div', { class: 'mcp-lab-muted' }, 'inputResponses'),
      h('ul', { class: 'mcp-lab-list' }, Object.entries(responses).map(([k, v]) => inputResponse(k, v, text(answeredBy[k]) || undefined)))
    );
  }
  if (round.sent_request_state !== undefined && round.sent_request_state !== null) {
    body.push(h('div', { class: 'mcp-lab-muted' }, 'requestState echoed byte for byte'), tokenSegments(round.sent_request_state));
  }
  const backoff = num(round.backoff);
  if (backoff) {
    body.push(h('div', { class: 'mcp-lab-muted' }, `sent after a ${ms(backoff)} backoff (the previous answer carried state only)`));
  }
  const headers = mcpHeaderList(asArray(round.http));
  if (headers) {
    body.push(headers);
  }
  const title = h('span', null, `${text(flow.method) || 'request'} `, h('code', null, text(flow.target)));
  return message('to-server', 'request', title, body);
}

function backchannelArrows(round: JsonObject): HTMLElement[] {
  const arrows: HTMLElement[] = [];
  for (const item of asArray(round.backchannel)) {
    const entry = asObject(item);
    const key = text(entry.key) || '?';
    const request = asObject(entry.request);
    arrows.push(
      message('to-client', 'back', h('span', null, `back-channel ${text(request.method) || requestKind(request)}`), [
        h('ul', { class: 'mcp-lab-list' }, inputRequest(key, entry.request))
      ])
    );
    const answer: Child[] = entry.error !== undefined
      ? [h('div', { class: 'mcp-lab-error-text' }, `error: ${text(entry.error)}`)]
      : [h('ul', { class: 'mcp-lab-list' }, inputResponse(key, entry.response, undefined))];
    arrows.push(message('to-server', 'back', 'back-channel answer', answer));
  }
  return arrows;
}

function responseArrow(round: JsonObject): HTMLElement {
  const outcome = text(round.outcome) || 'result';
  if (outcome === 'input_required') {
    const requests = Object.entries(asObject(round.input_requests));
    const body: Child[] = [
      requests.length
        ? h('ul', { class: 'mcp-lab-list' }, requests.map(([k, v]) => inputRequest(k, v)))
        : h('div', { class: 'mcp-lab-muted' }, 'no questions: state only (the client backs off, then retries)'),
      h('div', { class: 'mcp-lab-muted' }, requestStateCaption(round.request_state)),
      tokenSegments(round.request_state)
    ];
    return message('to-client', 'ask', h('span', null, badge('input_required', 'warn'), ` ${requests.length} question(s)`), body);
  }
  if (outcome === 'error') {
    return message('to-client', 'err', badge('error', 'err'), errorBody(round.error));
  }
  return message('to-client', 'ok', badge('result', 'ok'), resultBody(round.result));
}

function leg(flow: JsonObject, item: unknown, firstStart: number | undefined): HTMLElement {
  const round = asObject(item);
  const outcome = text(round.outcome) || 'result';
  const index = text(round.index) || '?';
  const started = num(round.started);
  const timing: string[] = [];
  if (started !== undefined && firstStart !== undefined) {
    timing.push(`at +${ms(started - firstStart)}`);
  }
  if (num(round.elapsed) !== undefined) {
    timing.push(`took ${ms(round.elapsed)}`);
  }
  if (round.served_by !== undefined && round.served_by !== null) {
    timing.push(`served by ${text(round.served_by)}`);
  }
  const extras: Child[] = [];
  if (round.started_over === true) {
    extras.push(h('div', { class: 'mcp-lab-note' }, 'the previous leg\'s request_state was rejected: this leg started the request over, without answers or token'));
  }
  if (round.relisted === true) {
    extras.push(h('div', { class: 'mcp-lab-note' }, 'header mismatch (-32020): the client re-listed tools and resent this leg once'));
  }
  extras.push(serverLog(asArray(round.server_log)), httpExchanges(asArray(round.http)), otherFields(round, ROUND_FIELDS), rawJson(round, `leg #${index} JSON`));
  return h(
    'section',
    { class: `mcp-lab-leg mcp-lab-leg-${outcome}`, 'data-leg': index, 'aria-label': `leg ${index}: ${outcome}` },
    h('div', { class: 'mcp-lab-leg-head' }, h('span', { class: 'mcp-lab-leg-index' }, `leg #${index}`), h('span', { class: 'mcp-lab-muted' }, timing.join(' · '))),
    requestArrow(flow, round),
    backchannelArrows(round),
    responseArrow(round),
    h('div', { class: 'mcp-lab-leg-extras' }, extras)
  );
}

export function renderFlow(data: unknown): HTMLElement {
  const flow = asObject(data);
  const rounds = asArray(flow.rounds);
  const status = text(flow.status) || 'new';
  const [statusText, statusKind] = STATUS_TEXT[status] ?? [status, ''];
  const starts = rounds.map(r => num(asObject(r).started)).filter((v): v is number => v !== undefined && v > 0);
  const firstStart = starts.length ? Math.min(...starts) : undefined;
  const total = rounds.reduce((sum: number, r) => sum + (num(asObject(r).elapsed) ?? 0), 0);
  const head = h(
    'div',
    { class: 'mcp-lab-flow-head' },
    h('span', { class: 'mcp-lab-flow-title' }, `${text(flow.method) || 'flow'} `, h('code', null, text(flow.target)), ' on ', h('code', null, text(flow.server) || '?')),
    ' ',
    badge(statusText, statusKind),
    ' ',
    eraBadge(text(flow.era)),
    ' ',
    h('span', { class: 'mcp-lab-muted' }, `${rounds.length} leg(s)${total ? `, ${ms(total)} in legs` : ''}${flow.id ? ` · flow ${text(flow.id)}` : ''}`)
  );
  const lanes = h(
    'div',
    { class: 'mcp-lab-lanes', 'aria-hidden': 'true' },
    h('div', { class: 'mcp-lab-lane-head' }, 'client'),
    h('div', null),
    h('div', { class: 'mcp-lab-lane-head' }, 'server ', h('code', null, text(flow.server)))
  );
  const footer: Child[] = [];
  if (flow.stop_reason) {
    footer.push(h('div', { class: 'mcp-lab-note' }, `stopped: ${text(flow.stop_reason)}`));
  }
  for (const note of asArray(flow.notes)) {
    footer.push(h('div', { class: 'mcp-lab-note' }, `note: ${text(note)}`));
  }
  if (rounds.length === 0) {
    footer.push(h('div', { class: 'mcp-lab-muted' }, 'no legs sent yet'));
  }
  return h(
    'div',
    { class: 'mcp-lab-flow-view', 'data-status': status, 'data-era': text(flow.era) },
    head,
    h('div', { class: 'mcp-lab-seq', role: 'list', 'aria-label': 'legs of the conversation' },
      lanes, rounds.map(r => h('div', { role: 'listitem' }, leg(flow, r, firstStart)))),
    footer,
    otherFields(flow, FLOW_FIELDS),
    details('flow JSON', jsonBlock(flow), { className: 'mcp-lab-raw' })
  );
}

/** What the server did with its state: a plaintext token (a lowlevel server without the boundary) is not sealed. */
function requestStateCaption(token: unknown): string {
  if (typeof token !== 'string') {
    return 'requestState: none';
  }
  return parseToken(token).kind === 'plaintext'
    ? 'requestState (plaintext: this server does not seal it)'
    : 'requestState (sealed by the server)';
}
