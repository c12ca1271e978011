/**
 * JupyterLab MIME renderers for mcp_lab's records: `application/vnd.mcp-lab.<kind>+json`, every kind.
 *
 * Spec context: every mcp_lab view (a multi round-trip Flow, a request_state token report, the tamper lab,
 * header tables and labs, key rotation, servers, connections, server descriptions, replays, audits) ships one record under a vendor
 * MIME type next to `text/plain` and `text/html` made from the same record. In JupyterLab these renderers
 * take precedence (rank 0); elsewhere the HTML fallback shows. The record types (src/records.ts) are
 * generated from the Python records' JSON Schema, so a renderer reads typed fields only. They read only
 * the saved output, so a notebook renders the same with no kernel running, and are `safe` (DOM built with
 * textContent only). A record of another kind or version shows its JSON with a one-line reason instead.
 */

import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';

import { renderAudit } from './audit';
import { renderDescription } from './describe';
import { h, rawJson } from './dom';
import { renderFlow } from './flow';
import { trans, useTranslator } from './i18n';
import { renderConnection, renderConnectionLog, renderListFirst, renderMismatch, renderReplay, renderSchemaLookups } from './labs';
import { McpLabRecords } from './records';
import { renderHeaders, renderRotation, renderRotationLoad, renderServers } from './tables';
import { renderTamper, renderToken } from './token';

export const MIME_PREFIX = 'application/vnd.mcp-lab.';
export const RECORD_VERSION = 1;

type Records = Required<McpLabRecords>;
type Kind<M extends keyof Records> = M extends `${typeof MIME_PREFIX}${infer K}+json` ? K : never;
type Renderers = { [M in keyof Records as Kind<M>]: { name: string; render: (record: Records[M]) => HTMLElement } };

const VIEWS: Renderers = {
  flow: { name: 'multi round-trip flow', render: renderFlow },
  token: { name: 'request_state token report', render: renderToken },
  tamper: { name: 'tamper lab', render: renderTamper },
  headers: { name: 'header parameter table', render: renderHeaders },
  'header-mismatch': { name: 'header mismatch lab', render: renderMismatch },
  'list-first': { name: 'list-before-call lab', render: renderListFirst },
  'schema-lookups': { name: 'schema lookup lab', render: renderSchemaLookups },
  rotation: { name: 'key rotation matrix', render: renderRotation },
  'rotation-load': { name: 'rotation under load', render: renderRotationLoad },
  servers: { name: 'server list', render: renderServers },
  connection: { name: 'connection to an outside server', render: renderConnection },
  'connection-log': { name: "a stdio server's stderr, or a server's log", render: renderConnectionLog },
  'server-description': { name: 'server description', render: renderDescription },
  replay: { name: 'replay report', render: renderReplay },
  audit: { name: 'server audit', render: renderAudit }
};

type Render = (record: never) => HTMLElement;

export class McpLabRenderer extends Widget implements IRenderMime.IRenderer {
  constructor(
    private readonly mimeType: string,
    private readonly kind: string,
    private readonly render: Render
  ) {
    super();
    this.addClass('mcp-lab-rendered');
    this.addClass(`mcp-lab-rendered-${kind}`);
    this.node.dataset.mimeType = mimeType;
  }

  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const data = model.data[this.mimeType] as { kind?: unknown; version?: unknown } | null;
    let view: HTMLElement;
    try {
      if (data === null || typeof data !== 'object' || data.kind !== this.kind) {
        throw new Error(trans.__('not a %1 record', this.kind));
      }
      if (data.version !== RECORD_VERSION) {
        throw new Error(trans.__('record version %1: this extension draws version %2; update mcp_lab', String(data.version), RECORD_VERSION));
      }
      view = this.render(data as never);
    } catch (error) {
      // Never leave an empty output: say what happened and keep the data readable.
      view = h(
        'div',
        { class: 'mcp-lab-render-error' },
        h('div', { class: 'mcp-lab-error-text' }, trans.__('mcp-lab could not draw this %1 view: %2', this.kind, String(error))),
        rawJson(data, trans.__('data JSON'))
      );
    }
    this.node.replaceChildren(view);
    return Promise.resolve();
  }
}

const extensions: IRenderMime.IExtension[] = Object.entries(VIEWS).map(([kind, view]) => {
  const mimeType = `${MIME_PREFIX}${kind}+json`;
  const { name, render } = view as { name: string; render: Render };
  return {
    id: `mcp-lab:${kind}`,
    description: `Renders mcp_lab's ${name} (${mimeType}).`,
    rendererFactory: {
      safe: true,
      mimeTypes: [mimeType],
      defaultRank: 0,
      createRenderer: options => {
        useTranslator(options.translator); // a notebook drawn before the plugin's activation reads the same language
        return new McpLabRenderer(mimeType, kind, render);
      }
    },
    rank: 0,
    dataType: 'json'
  };
});

export default extensions;
