/**
 * What travels on one leg, described for people: input requests, answers, results, errors, HTTP exchanges.
 *
 * Spec context: 2026-07-28 multi round-trip requests. An `InputRequiredResult` carries `inputRequests`
 * (elicitation, sampling, roots) keyed by the server's resolver keys; the retry carries `inputResponses`
 * under the same keys. Over Streamable HTTP each leg is a POST whose `Mcp-*` headers repeat parts of the
 * body. Everything drawn here is a field of the Python record (src/records.ts); the wire JSON stays one
 * click away.
 */

import { badge, Child, clippedText, details, h, jsonBlock, mark, table, valueText } from './dom';
import {
  AnswerRecord,
  Body,
  ErrorRecord,
  HttpExchange,
  InputRequestRecord,
  ParamHeaderUsage,
  ResultRecord
} from './records';
import { trans } from './i18n';

export function requestKind(request: InputRequestRecord): string {
  if (request.kind === 'elicitation') {
    return trans.__('elicitation (%1)', request.mode ?? 'form');
  }
  if (request.kind === 'sampling') {
    return trans.__('sampling');
  }
  if (request.kind === 'roots') {
    return trans.__('roots');
  }
  return request.kind === 'other' ? request.method || trans.__('request') : request.kind;
}

/** One input request: its key, kind and what it asks. */
export function inputRequest(request: InputRequestRecord): HTMLElement {
  const body: Child[] = [];
  if (request.message !== null) {
    body.push(h('div', { class: 'mcp-lab-question' }, `“${request.message}”`));
  }
  if (request.fields.length > 0) {
    body.push(
      h(
        'ul',
        { class: 'mcp-lab-fields' },
        request.fields.map(f =>
          h(
            'li',
            null,
            h('code', null, f.name),
            f.type ? ` ${f.type}` : '',
            f.required ? ` (${trans.__('required')})` : '',
            f.title ? h('span', { class: 'mcp-lab-muted' }, ` — ${f.title}`) : ''
          )
        )
      )
    );
  }
  if (request.url !== null) {
    body.push(h('div', null, `${trans.__('url:')} `, h('code', null, request.url)));
  }
  if (request.kind === 'sampling') {
    body.push(h('div', { class: 'mcp-lab-muted' }, trans.__('%1 message(s), max %2 tokens', request.messages ?? 0, request.max_tokens ?? '?')));
  }
  return h(
    'li',
    { class: 'mcp-lab-input-request', 'data-key': request.key },
    h('code', { class: 'mcp-lab-key' }, request.key),
    ' ',
    badge(requestKind(request), 'ask'),
    body,
    details(trans.__('request JSON'), jsonBlock(request.wire))
  );
}

/** One answer the client sent: what it said and which answerer produced it. */
export function inputResponse(answer: AnswerRecord): HTMLElement {
  let summary: Child;
  if (answer.kind === 'elicitation') {
    summary = h(
      'span',
      null,
      badge(answer.action ?? '?', answer.action === 'accept' ? 'ok' : 'warn'),
      answer.content !== null ? h('code', { class: 'mcp-lab-answer' }, ` ${valueText(answer.content)}`) : ''
    );
  } else if (answer.kind === 'roots') {
    summary = trans.__('%1 root(s)', answer.roots ?? 0);
  } else if (answer.kind === 'sampling') {
    summary = h('span', null, `${trans.__('reply')} `, h('code', null, answer.reply ?? ''));
  } else {
    summary = h('code', null, valueText(answer.wire));
  }
  return h(
    'li',
    { class: 'mcp-lab-input-response', 'data-key': answer.key },
    h('code', { class: 'mcp-lab-key' }, answer.key),
    ' = ',
    summary,
    answer.by ? h('span', { class: 'mcp-lab-muted' }, ` ${trans.__('(by %1)', answer.by)}`) : ''
  );
}

/** The readable parts of a final result (tool content, prompt messages, resource contents). */
export function resultBody(result: ResultRecord | null): Child[] {
  if (result === null) {
    return [];
  }
  const parts: Child[] = result.texts.map(t => h('div', { class: 'mcp-lab-result-text' }, t));
  if (result.texts.length === 0) {
    parts.push(h('div', { class: 'mcp-lab-muted' }, trans.__('(no text)')));
  }
  if (result.is_error) {
    parts.unshift(badge(trans.__('✗ isError: the tool reported an error'), 'err'));
  }
  if (result.structured !== null) {
    parts.push(details('structuredContent', jsonBlock(result.structured)));
  }
  return parts;
}

export function errorBody(error: ErrorRecord | null): Child[] {
  if (error === null) {
    return [];
  }
  const code = error.code !== null ? `${error.code} ` : '';
  const parts: Child[] = [h('div', { class: 'mcp-lab-error-text' }, `✗ ${code}${error.message}`)];
  if (error.reason !== null) {
    parts.push(h('div', null, h('span', { class: 'mcp-lab-muted' }, trans.__('server logged: ')), h('code', null, error.reason)));
  }
  if (error.where === 'client') {
    parts.push(h('div', { class: 'mcp-lab-muted' }, trans.__('raised on the client side, before or while sending')));
  }
  if (error.data !== null) {
    parts.push(details(trans.__('error data'), jsonBlock(error.data)));
  }
  return parts;
}

/** Headers that belong to MCP itself (protocol version, method, name, Mcp-Param-* mirrors, session). */
export function isMcpHeader(name: string): boolean {
  return /^mcp-/i.test(name);
}

function isSentinel(value: string): boolean {
  return value.startsWith('=?base64?') && value.endsWith('?=');
}

function decodeSentinel(value: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(value.slice(9, -2)), c => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function headerValue(value: string): Child[] {
  const decoded = isSentinel(value) ? decodeSentinel(value) : null;
  return [h('code', null, value), decoded !== null ? h('span', { class: 'mcp-lab-muted' }, ` ${trans.__('← decodes to “%1”', decoded)}`) : ''];
}

function headerTable(headers: [string, string][]): HTMLElement {
  if (headers.length === 0) {
    return h('div', { class: 'mcp-lab-muted' }, trans.__('no headers recorded'));
  }
  return h(
    'table',
    { class: 'mcp-lab-table mcp-lab-headers' },
    h(
      'tbody',
      null,
      headers.map(([name, value]) =>
        h(
          'tr',
          { class: isMcpHeader(name) ? 'mcp-lab-mcp-header mcp-lab-mcp-row' : undefined },
          h('th', { scope: 'row' }, h('code', null, name)),
          h('td', null, headerValue(value))
        )
      )
    )
  );
}

export function bodyBlock(body: Body): Child[] {
  const size = h(
    'div',
    { class: 'mcp-lab-muted' },
    trans.__('%1, %2 bytes', body.kind, body.size),
    body.truncated ? h('span', { class: 'mcp-lab-warn-text mcp-lab-truncated' }, ` — ${trans.__('truncated: only the first part was kept')}`) : ''
  );
  if (body.kind === 'empty') {
    return [h('div', { class: 'mcp-lab-muted' }, trans.__('no body'))];
  }
  if (body.kind === 'json') {
    return [size, jsonBlock(body.value)];
  }
  if (body.kind === 'sse') {
    return [
      size,
      h(
        'ol',
        { class: 'mcp-lab-sse' },
        body.events.map(event => h('li', null, event.event ? h('code', null, `event: ${event.event}`) : '', jsonBlock(event.data)))
      )
    ];
  }
  return [size, h('pre', { class: 'mcp-lab-json' }, clippedText(body.text))];
}

/** The MCP headers of a leg's requests, shown on its arrow (the rest stays in the HTTP details). */
export function mcpHeaderList(exchanges: HttpExchange[]): HTMLElement | null {
  const seen = new Map<string, string>();
  for (const exchange of exchanges) {
    for (const [name, value] of exchange.request.headers) {
      if (isMcpHeader(name)) {
        seen.set(name, value);
      }
    }
  }
  if (seen.size === 0) {
    return null;
  }
  return h(
    'ul',
    { class: 'mcp-lab-header-list' },
    Array.from(seen, ([name, value]) => h('li', null, h('code', null, `${name}: ${value}`)))
  );
}

export function paramUsage(usage: ParamHeaderUsage[]): HTMLElement | null {
  if (usage.length === 0) {
    return null;
  }
  return table(
    [trans.__('argument'), trans.__('header'), trans.__('sent'), trans.__('encoding'), trans.__('verdict')],
    usage.map(u => {
      const good = u.verdict === 'ok' || u.verdict === 'absent';
      return h(
        'tr',
        { class: `mcp-lab-param-${u.verdict}` },
        h('td', null, h('code', null, `${u.argument} = ${valueText(u.value)}`)),
        h('td', null, h('code', null, u.header)),
        h('td', null, u.sent === null ? h('span', { class: 'mcp-lab-muted' }, trans.__('(not sent)')) : headerValue(u.sent)),
        h('td', null, u.encoding),
        h('td', null, mark(good), ` ${u.verdict}`, u.reason ? h('div', { class: 'mcp-lab-error-text' }, u.reason) : '')
      );
    }),
    'mcp-lab-param-headers'
  );
}

export function statusText(exchange: HttpExchange): string {
  return exchange.response === null ? trans.__('no response') : String(exchange.response.status);
}

/** One exchange: request line, status, JSON-RPC error, headers (Mcp-* marked), bodies. */
export function exchangeView(exchange: HttpExchange, open = false): HTMLDetailsElement {
  const status = statusText(exchange);
  const failed = exchange.response === null || exchange.response.status >= 400;
  const rpcError = exchange.rpc_error;
  const line = h(
    'span',
    { class: 'mcp-lab-http-line' },
    h('code', null, `${exchange.method} ${exchange.path}`),
    exchange.rpc ? h('span', null, ` ${exchange.rpc}`) : '',
    ' → ',
    h('b', { class: `mcp-lab-status ${failed ? 'mcp-lab-err-text' : 'mcp-lab-ok-text'}`, 'data-status': status }, status),
    rpcError ? h('span', { class: 'mcp-lab-error-text' }, ` ${trans.__('error %1 %2', rpcError.code ?? '', rpcError.message)}`) : '',
    h('span', { class: 'mcp-lab-muted' }, ` · ${trans.__('%1 ms · seen by %2', exchange.elapsed_ms ?? '?', exchange.seen_by.join(', '))}`)
  );
  const response: Child[] =
    exchange.response === null
      ? [h('div', { class: 'mcp-lab-error-text' }, trans.__('no response arrived'))]
      : [h('h4', null, trans.__('response headers')), headerTable(exchange.response.headers), h('h4', null, trans.__('response body')), ...bodyBlock(exchange.response.body)];
  return details(
    line,
    [
      paramUsage(exchange.param_headers),
      h('h4', null, trans.__('request headers')),
      headerTable(exchange.request.headers),
      h('h4', null, trans.__('request body')),
      ...bodyBlock(exchange.request.body),
      ...response
    ],
    { className: 'mcp-lab-http-exchange', open }
  );
}

/** Every HTTP exchange of a leg, one collapsible each. */
export function httpExchanges(exchanges: HttpExchange[]): HTMLElement | null {
  if (exchanges.length === 0) {
    return null;
  }
  return details(
    trans.__('HTTP: %1 exchange(s), status %2', exchanges.length, exchanges.map(statusText).join(', ')),
    exchanges.map(x => exchangeView(x)),
    { className: 'mcp-lab-http' }
  );
}

export function serverLog(lines: string[]): HTMLElement | null {
  if (lines.length === 0) {
    return null;
  }
  return h('div', { class: 'mcp-lab-server-log' }, h('span', { class: 'mcp-lab-muted' }, trans.__('server logged: ')), lines.map(line => h('code', null, line)));
}
