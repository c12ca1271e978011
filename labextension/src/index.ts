/**
 * JupyterLab MIME renderers for mcp_lab's vendor types: `application/vnd.mcp-lab.<kind>+json`.
 *
 * Spec context: every mcp_lab view (a multi round-trip Flow, a request_state token report, a header
 * parameter table, a key-rotation matrix, the server list) ships its plain data under a vendor MIME type
 * next to `text/plain` and `text/html`. In JupyterLab these renderers take precedence (rank 0) and draw
 * the richer view; elsewhere the HTML fallback shows. They only read the saved output, so a notebook
 * renders the same with no kernel running. They are `safe` (DOM built with textContent only), so
 * untrusted notebooks render too. A renderer that meets data it cannot draw shows the raw JSON instead.
 */

import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';

import { h, rawJson } from './dom';
import { renderFlow } from './flow';
import { renderHeaders, renderRotation, renderServers } from './tables';
import { renderToken } from './token';

export const MIME_PREFIX = 'application/vnd.mcp-lab.';

type Render = (data: unknown) => HTMLElement;

const VIEWS: { kind: string; name: string; render: Render }[] = [
  { kind: 'flow', name: 'multi round-trip flow', render: renderFlow },
  { kind: 'token', name: 'request_state token report', render: renderToken },
  { kind: 'headers', name: 'header parameter table', render: renderHeaders },
  { kind: 'rotation', name: 'key rotation matrix', render: renderRotation },
  { kind: 'servers', name: 'server list', render: renderServers }
];

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
    const data: unknown = model.data[this.mimeType];
    let view: HTMLElement;
    try {
      view = this.render(data);
    } catch (error) {
      // Never leave an empty output: say what happened and keep the data readable.
      view = h(
        'div',
        { class: 'mcp-lab-render-error' },
        h('div', { class: 'mcp-lab-error-text' }, `mcp-lab could not draw this ${this.kind} view: ${String(error)}`),
        rawJson(data, 'data JSON')
      );
    }
    this.node.replaceChildren(view);
    return Promise.resolve();
  }
}

const extensions: IRenderMime.IExtension[] = VIEWS.map(({ kind, name, render }) => {
  const mimeType = `${MIME_PREFIX}${kind}+json`;
  return {
    id: `mcp-lab:${kind}`,
    description: `Renders mcp_lab's ${name} (${mimeType}).`,
    rendererFactory: {
      safe: true,
      mimeTypes: [mimeType],
      defaultRank: 0,
      createRenderer: () => new McpLabRenderer(mimeType, kind, render)
    },
    rank: 0,
    dataType: 'json'
  };
});

export default extensions;
