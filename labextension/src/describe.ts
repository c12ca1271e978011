/**
 * A server's description (`mcp_lab.describe(NAME)` / `%mcp_describe NAME`): what it says about itself and
 * everything it offers, for a server the lab runs as for one it only connected to.
 *
 * Spec context: the 2026-07-28 `server/discover` result (or the 2025-11-25 `initialize` result) -- server
 * info, capabilities, the negotiated protocol version -- and the tools, prompts, resources and resource
 * templates it lists. Each tool reads as its signature with the `Mcp-Param-*` header each marked argument
 * travels in (or why its marks are invalid: 2026-07-28 clients drop such a tool); its input and output
 * schemas open on demand.
 */

import { details, h, jsonBlock, mark, notes, rawJson, table } from './dom';
import { ServerDescriptionRecord, ToolDescription } from './records';

function toolRow(tool: ToolDescription): HTMLElement {
  const headers = Object.entries(tool.headers);
  return h(
    'tr',
    { 'data-tool': tool.name, class: tool.header_problem ? 'mcp-lab-row-err' : undefined },
    h(
      'td',
      null,
      h('code', { class: 'mcp-lab-signature' }, tool.signature),
      tool.header_problem
        ? h('div', { class: 'mcp-lab-error-text' }, mark(false, 'invalid'), ` invalid x-mcp-header: ${tool.header_problem} (2026-07-28 clients drop this tool)`)
        : '',
      tool.description ? h('div', { class: 'mcp-lab-muted' }, tool.description) : '',
      details('input schema', jsonBlock(tool.input_schema)),
      tool.output_schema !== null ? details('output schema', jsonBlock(tool.output_schema)) : ''
    ),
    h(
      'td',
      null,
      headers.length
        ? headers.map(([argument, header]) => h('div', null, h('code', null, argument), ' → ', h('code', { class: 'mcp-lab-param-header' }, header)))
        : h('span', { class: 'mcp-lab-muted' }, 'none')
    )
  );
}

export function renderDescription(record: ServerDescriptionRecord): HTMLElement {
  const info = record.server_info ? [record.server_info['name'], record.server_info['version']].filter(Boolean).join(' ') : '(does not say)';
  const offers = record.supported_versions.length ? ` (offers ${record.supported_versions.join(', ')})` : '';
  const capabilities = Object.keys(record.capabilities).sort();
  const parts: HTMLElement[] = [
    h('div', { class: 'mcp-lab-report-title' }, `${record.name} (${record.server_kind}): `, h('code', null, record.where)),
    h('div', { class: 'mcp-lab-description-server' }, `server: ${String(info)} · protocol `, h('code', null, record.protocol_version ?? '?'), offers),
    h('div', { class: 'mcp-lab-description-capabilities' }, `capabilities: ${capabilities.length ? capabilities.join(', ') : 'none'}`),
    table([`tools (${record.tools.length})`, 'header parameters'], record.tools.map(toolRow), 'mcp-lab-description-tools')
  ];
  if (record.instructions) {
    parts.splice(3, 0, h('div', null, `instructions: ${record.instructions}`));
  }
  if (!record.prompts.length && 'prompts' in record.capabilities) {
    parts.push(h('div', { class: 'mcp-lab-description-prompts' }, 'prompts: none listed'));
  } else if (record.prompts.length) {
    parts.push(
      table(
        [`prompts (${record.prompts.length})`, 'arguments', 'description'],
        record.prompts.map(p =>
          h('tr', { 'data-prompt': p.name }, h('td', null, h('code', null, p.name)), h('td', null, p.arguments.map(a => `${a.name}${a.required ? '' : '?'}`).join(', ')), h('td', null, p.description ?? ''))
        ),
        'mcp-lab-description-prompts'
      )
    );
  }
  if (!record.resources.length && 'resources' in record.capabilities) {
    parts.push(h('div', { class: 'mcp-lab-description-resources' }, 'resources: none listed'));
  } else if (record.resources.length) {
    parts.push(
      table(
        [`resources (${record.resources.length})`, 'URI', 'name', 'MIME type'],
        record.resources.map(r =>
          h('tr', { 'data-resource': r.uri }, h('td', null, r.template ? 'template' : 'resource'), h('td', null, h('code', null, r.uri)), h('td', null, r.name ?? ''), h('td', null, r.mime_type ?? ''))
        ),
        'mcp-lab-description-resources'
      )
    );
  }
  return h('div', { class: 'mcp-lab-description-view' }, parts, notes(record.notes), rawJson(record, 'description JSON'));
}
