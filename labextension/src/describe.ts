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
import { trans } from './i18n';
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
        ? h('div', { class: 'mcp-lab-error-text' }, mark(false, trans.__('invalid')), ` ${trans.__('invalid x-mcp-header: %1 (2026-07-28 clients drop this tool)', tool.header_problem)}`)
        : '',
      tool.description ? h('div', { class: 'mcp-lab-muted' }, tool.description) : '',
      details(trans.__('input schema'), jsonBlock(tool.input_schema)),
      tool.output_schema !== null ? details(trans.__('output schema'), jsonBlock(tool.output_schema)) : ''
    ),
    h(
      'td',
      null,
      headers.length
        ? headers.map(([argument, header]) => h('div', null, h('code', null, argument), ' → ', h('code', { class: 'mcp-lab-param-header' }, header)))
        : h('span', { class: 'mcp-lab-muted' }, trans.__('none'))
    )
  );
}

export function renderDescription(record: ServerDescriptionRecord): HTMLElement {
  const info = record.server_info ? [record.server_info['name'], record.server_info['version']].filter(Boolean).join(' ') : trans.__('(does not say)');
  const offers = record.supported_versions.length ? ` ${trans.__('(offers %1)', record.supported_versions.join(', '))}` : '';
  const capabilities = Object.keys(record.capabilities).sort();
  const parts: HTMLElement[] = [
    h('div', { class: 'mcp-lab-report-title' }, `${record.name} (${record.server_kind}): `, h('code', null, record.where)),
    h('div', { class: 'mcp-lab-description-server' }, `${trans.__('server: %1 · protocol', String(info))} `, h('code', null, record.protocol_version ?? '?'), offers),
    h('div', { class: 'mcp-lab-description-capabilities' }, trans.__('capabilities: %1', capabilities.length ? capabilities.join(', ') : trans.__('none'))),
    table([trans.__('tools (%1)', record.tools.length), trans.__('header parameters')], record.tools.map(toolRow), 'mcp-lab-description-tools')
  ];
  if (record.instructions) {
    parts.splice(3, 0, h('div', null, trans.__('instructions: %1', record.instructions)));
  }
  if (!record.prompts.length && 'prompts' in record.capabilities) {
    parts.push(h('div', { class: 'mcp-lab-description-prompts' }, trans.__('prompts: none listed')));
  } else if (record.prompts.length) {
    parts.push(
      table(
        [trans.__('prompts (%1)', record.prompts.length), trans.__('arguments'), trans.__('description')],
        record.prompts.map(p =>
          h('tr', { 'data-prompt': p.name }, h('td', null, h('code', null, p.name)), h('td', null, p.arguments.map(a => `${a.name}${a.required ? '' : '?'}`).join(', ')), h('td', null, p.description ?? ''))
        ),
        'mcp-lab-description-prompts'
      )
    );
  }
  if (!record.resources.length && 'resources' in record.capabilities) {
    parts.push(h('div', { class: 'mcp-lab-description-resources' }, trans.__('resources: none listed')));
  } else if (record.resources.length) {
    parts.push(
      table(
        [trans.__('resources (%1)', record.resources.length), 'URI', trans.__('name'), trans.__('MIME type')],
        record.resources.map(r =>
          h('tr', { 'data-resource': r.uri }, h('td', null, r.template ? trans.__('template') : trans.__('resource')), h('td', null, h('code', null, r.uri)), h('td', null, r.name ?? ''), h('td', null, r.mime_type ?? ''))
        ),
        'mcp-lab-description-resources'
      )
    );
  }
  return h('div', { class: 'mcp-lab-description-view' }, parts, notes(record.notes), rawJson(record, trans.__('description JSON')));
}
