/**
 * The one way every screen of mcp_lab says something: JupyterLab's translation API, domain `mcp_lab`.
 *
 * The catalog ships in the Python package (mcp_lab/catalogs/locale/<lang>/LC_MESSAGES/mcp_lab.json, registered
 * with the `jupyterlab.locale` entry point), so the screens read in the language JupyterLab is set to.
 * Two bundles draw text: the labextension (plugin, side panel, MIME renderers) and the live forms'
 * anywidget ESM, loaded by the page on its own. Both read the same bundle: the plugin and the renderers
 * publish JupyterLab's TranslationBundle on `globalThis` under a registered symbol, and the forms look it
 * up at every draw -- so a form reads in the language of the page around it. Without a translator (another
 * front end, a test page), English: the msgid itself, with `%1`-style arguments filled in as JupyterLab does.
 */

import type { ITranslator } from '@jupyterlab/translation';

/** The gettext domain: the catalog's file name and the `jupyterlab.locale` entry point's name. */
export const DOMAIN = 'mcp_lab';

/** The part of JupyterLab's TranslationBundle the screens use. */
export interface Bundle {
  __(msgid: string, ...args: unknown[]): string;
  _n(msgid: string, msgidPlural: string, n: number, ...args: unknown[]): string;
}

/** `%1`, `%2`... replaced by the arguments, `%%` kept as `%` (JupyterLab's Gettext.strfmt rules). */
function fill(text: string, args: unknown[]): string {
  return text
    .replace(/%%/g, '%% ')
    .replace(/%(\d+)/g, (whole, index: string) => {
      const value = args[Number(index) - 1];
      return value === undefined ? whole : String(value);
    })
    .replace(/%% /g, '%');
}

const ENGLISH: Bundle = {
  __: (msgid, ...args) => fill(msgid, args),
  _n: (msgid, msgidPlural, n, ...args) => fill(n === 1 ? msgid : msgidPlural, [n, ...args])
};

const KEY = Symbol.for('mcp_lab.translation');
type Holder = { [KEY]?: Bundle };

/** Make `translator`'s bundle for this domain the one every screen of the page reads (null: keep). */
export function useTranslator(translator: ITranslator | null | undefined): void {
  if (translator) {
    (globalThis as Holder)[KEY] = translator.load(DOMAIN);
  }
}

const current = (): Bundle => (globalThis as Holder)[KEY] ?? ENGLISH;

/** `trans.__('Stop flow')`, `trans._n('%1 leg sent', '%1 legs sent', n)`: looked up when called. */
export const trans: Bundle = {
  __: (msgid, ...args) => current().__(msgid, ...args),
  _n: (msgid, msgidPlural, n, ...args) => current()._n(msgid, msgidPlural, n, ...args)
};

/** Marks an English text the kernel sends (a button label, a validation message) as a msgid: the
 * catalog has its translation, and `kernelText` finds it at run time. Returns it unchanged. */
export const N_ = (msgid: string): string => msgid;
