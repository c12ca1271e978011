/**
 * What travels on one leg, described for people: input requests, answers, results, errors, HTTP exchanges.
 *
 * Spec context: 2026-07-28 multi round-trip requests. An `InputRequiredResult` carries `inputRequests`
 * (elicitation, sampling, roots) keyed by the server's resolver keys; the retry carries `inputResponses`
 * under the same keys. The renderers read the wire shapes mcp_lab records (camelCase, no nulls) and
 * fall back to JSON for anything they do not recognise.
 */

import {
  asArray,
  asObject,
  badge,
  Child,
  compactJson,
  details,
  h,
  isObject,
  jsonBlock,
  JsonObject,
  pick,
  text
} from './dom';

export function requestKind(request: JsonObject): string {
  const method = text(request.method);
  const params = asObject(request.params);
  if (method === 'elicitation/create') {
    return `elicitation (${text(params.mode) || 'form'})`;
  }
  if (method === 'sampling/createMessage') {
    return 'sampling';
  }
  if (method === 'roots/list') {
    return 'roots';
  }
  return method || 'request';
}

function schemaFields(schema: JsonObject): HTMLElement | null {
  const properties = asObject(schema.properties);
  const names = Object.keys(properties);
  if (names.length === 0) {
    return null;
  }
  const required = asArray(schema.required).map(text);
  return h(
    'ul',
    { class: 'mcp-lab-fields' },
    names.map(name => {
      const prop = asObject(properties[name]);
      const type = text(prop.type) || (prop.enum ? 'enum' : '');
      return h(
        'li',
        null,
        h('code', null, name),
        type ? ` ${type}` : '',
        required.includes(name) ? ' (required)' : '',
        prop.title || prop.description ? h('span', { class: 'mcp-lab-muted' }, ` — ${text(prop.title ?? prop.description)}`) : ''
      );
    })
  );
}

/** One input request: its key, kind and what it asks. */
export function inputRequest(key: string, value: unknown): HTMLElement {
  const request = asObject(value);
  const params = asObject(request.params);
  const kind = requestKind(request);
  const body: Child[] = [];
  if (params.message !== undefined) {
    body.push(h('div', { class: 'mcp-lab-question' }, `“${text(params.message)}”`));
  }
  if (isObject(params.requestedSchema)) {
    body.push(schemaFields(params.requestedSchema));
  }
  if (params.url !== undefined) {
    body.push(h('div', null, 'url: ', h('code', null, text(params.url))));
  }
  if (kind === 'sampling') {
    const messages = asArray(params.messages);
    body.push(h('div', { class: 'mcp-lab-muted' }, `${messages.length} message(s), max ${text(params.maxTokens) || '?'} tokens`));
  }
  return h(
    'li',
    { class: 'mcp-lab-input-request', 'data-key': key },
    h('code', { class: 'mcp-lab-key' }, key),
    ' ',
    badge(kind, 'ask'),
    body,
    details('request JSON', jsonBlock(value))
  );
}

/** One answer the client sent: what it said and which answerer produced it. */
export function inputResponse(key: string, value: unknown, by: string | undefined): HTMLElement {
  const response = asObject(value);
  let summary: Child;
  if (response.action !== undefined) {
    const content = response.content;
    summary = h(
      'span',
      null,
      badge(text(response.action), text(response.action) === 'accept' ? 'ok' : 'warn'),
      content !== undefined ? h('code', { class: 'mcp-lab-answer' }, ` ${compactJson(content)}`) : ''
    );
  } else if (Array.isArray(response.roots)) {
    summary = `${response.roots.length} root(s)`;
  } else if (isObject(response.content)) {
    summary = h('span', null, 'reply ', h('code', null, text(response.content.text ?? response.content)));
  } else {
    summary = h('code', null, compactJson(value));
  }
  return h(
    'li',
    { class: 'mcp-lab-input-response', 'data-key': key },
    h('code', { class: 'mcp-lab-key' }, key),
    ' = ',
    summary,
    by ? h('span', { class: 'mcp-lab-muted' }, ` (by ${by})`) : ''
  );
}

/** The readable parts of a final result (tool content, prompt messages, resource contents). */
export function resultBody(value: unknown): Child[] {
  const result = asObject(value);
  const texts: string[] = [];
  for (const item of asArray(result.content)) {
    const content = asObject(item);
    if (content.type === 'text') {
      texts.push(text(content.text));
    } else if (isObject(item)) {
      texts.push(`[${text(content.type) || 'content'}]`);
    }
  }
  for (const message of asArray(result.messages)) {
    const content = asObject(asObject(message).content);
    texts.push(`${text(asObject(message).role)}: ${text(content.text ?? content)}`);
  }
  for (const item of asArray(result.contents)) {
    const content = asObject(item);
    texts.push(content.text !== undefined ? text(content.text) : `[${text(content.uri) || 'blob'}]`);
  }
  const parts: Child[] = texts.map(t => h('div', { class: 'mcp-lab-result-text' }, t));
  if (result.isError === true) {
    parts.unshift(badge('isError', 'err'));
  }
  if (result.structuredContent !== undefined) {
    parts.push(details('structuredContent', jsonBlock(result.structuredContent)));
  }
  return parts;
}

type HeaderPairs = [string, string][];

function headerPairs(value: unknown): HeaderPairs {
  if (Array.isArray(value)) {
    return value.map(pair => (Array.isArray(pair) ? [text(pair[0]), text(pair[1])] : [text(pair), '']));
  }
  return Object.entries(asObject(value)).map(([k, v]) => [k, text(v)]);
}

/** Headers that belong to MCP itself (protocol version, method, name, Mcp-Param-* mirrors, session). */
export function isMcpHeader(name: string): boolean {
  return /^mcp-/i.test(name);
}

function headerTable(value: unknown): HTMLElement {
  const pairs = headerPairs(value);
  if (pairs.length === 0) {
    return h('div', { class: 'mcp-lab-muted' }, 'no headers recorded');
  }
  return h(
    'table',
    { class: 'mcp-lab-table mcp-lab-headers' },
    h('tbody', null, pairs.map(([name, val]) =>
      h('tr', { class: isMcpHeader(name) ? 'mcp-lab-mcp-header' : undefined },
        h('th', { scope: 'row' }, name), h('td', null, h('code', null, val)))))
  );
}

function bodyBlock(value: unknown): Child {
  if (value === undefined || value === null || value === '') {
    return h('div', { class: 'mcp-lab-muted' }, 'no body');
  }
  if (typeof value === 'string') {
    try {
      return jsonBlock(JSON.parse(value));
    } catch {
      return h('pre', { class: 'mcp-lab-json' }, value);
    }
  }
  return jsonBlock(value);
}

const EXCHANGE_FIELDS = ['method', 'path', 'url', 'headers', 'request_headers', 'body', 'request_body', 'status', 'status_code', 'response_headers', 'response_body'];

/** The MCP headers of a leg's requests, shown on its arrow (the rest stays in the HTTP details). */
export function mcpHeaderList(exchanges: unknown[]): HTMLElement | null {
  const seen = new Map<string, string>();
  for (const exchange of exchanges) {
    const ex = asObject(exchange);
    for (const [name, val] of headerPairs(pick(ex, 'headers', 'request_headers'))) {
      if (isMcpHeader(name)) {
        seen.set(name, val);
      }
    }
  }
  if (seen.size === 0) {
    return null;
  }
  return h('ul', { class: 'mcp-lab-header-list' },
    Array.from(seen, ([name, val]) => h('li', null, h('code', null, `${name}: ${val}`))));
}

/** Every HTTP exchange of a leg, one collapsible each (request line, headers, bodies). */
export function httpExchanges(exchanges: unknown[]): HTMLElement | null {
  if (exchanges.length === 0) {
    return null;
  }
  const items = exchanges.map((exchange, i) => {
    const ex = asObject(exchange);
    const status = pick(ex, 'status', 'status_code');
    const line = `${text(ex.method) || 'HTTP'} ${text(pick(ex, 'path', 'url'))} → ${text(status) || '?'}`;
    const extra: JsonObject = {};
    for (const [k, v] of Object.entries(ex)) {
      if (!EXCHANGE_FIELDS.includes(k)) {
        extra[k] = v;
      }
    }
    return details(
      h('span', null, h('code', null, line)),
      [
        h('h4', null, 'request headers'), headerTable(pick(ex, 'headers', 'request_headers')),
        h('h4', null, 'request body'), bodyBlock(pick(ex, 'body', 'request_body')),
        h('h4', null, 'response headers'), headerTable(ex.response_headers),
        h('h4', null, 'response body'), bodyBlock(ex.response_body),
        Object.keys(extra).length ? h('h4', null, 'other') : null,
        Object.keys(extra).length ? jsonBlock(extra) : null
      ],
      { className: `mcp-lab-http-exchange mcp-lab-http-${i}` }
    );
  });
  return details(`HTTP: ${exchanges.length} exchange(s)`, items, { className: 'mcp-lab-http' });
}

export function serverLog(lines: unknown[]): HTMLElement | null {
  if (lines.length === 0) {
    return null;
  }
  return h('div', { class: 'mcp-lab-server-log' }, h('span', { class: 'mcp-lab-muted' }, 'server logged: '),
    lines.map(line => h('code', null, text(line))));
}

export function errorBody(value: unknown): Child[] {
  const err = asObject(value);
  const code = err.code !== undefined && err.code !== null ? `${text(err.code)} ` : '';
  const parts: Child[] = [h('div', { class: 'mcp-lab-error-text' }, `${code}${text(err.message)}`)];
  if (err.reason !== undefined) {
    parts.push(h('div', null, h('span', { class: 'mcp-lab-muted' }, 'server logged: '), h('code', null, text(err.reason))));
  }
  if (err.where === 'client') {
    parts.push(h('div', { class: 'mcp-lab-muted' }, 'raised on the client side, before or while sending'));
  }
  if (err.data !== undefined && err.data !== null) {
    parts.push(details('error data', jsonBlock(err.data)));
  }
  return parts;
}
