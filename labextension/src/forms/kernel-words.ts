/**
 * The kernel's own English words in a live form (button labels, validation messages, hints, a form's
 * one-line record), read in the page's language.
 *
 * Why here: the kernel (Python, mcp_lab.forms) validates every answer and writes its messages in English,
 * as Python's own messages are; the form around them is the front end's, and must not switch language in
 * the middle of a sentence. So each phrase the kernel writes is listed below as a gettext msgid in which
 * `%1`, `%2`... stand for what varies (a number, a name). A text that matches one is shown translated with
 * the same values; any other text (the server's own words: its question, its field titles) is shown as
 * the kernel sent it. In English every msgid reads back as the text it matched.
 */

import { N_, trans } from '../i18n';

/** Exact words: what a form's kind, a button, a state is called. */
const WORDS = [
  N_('Submit'),
  N_('Decline'),
  N_('Cancel'),
  N_('Send'),
  N_('Reject'),
  N_('Refuse'),
  N_("I've finished"),
  N_('elicitation'),
  N_('url elicitation'),
  N_('sampling'),
  N_('roots'),
  N_('required'),
  N_('open'),
  N_('accepted'),
  N_('declined'),
  N_('cancelled'),
  N_('timed out'),
  N_('abandoned'),
  N_('failed'),
  N_('Reply'),
  N_('Model'),
  N_('Stop reason'),
  N_('Roots'),
  N_("the assistant's reply"),
  N_('whole number'),
  N_('number'),
  N_('a JSON value'),
  N_('Answer (JSON object)'),
  N_('must be a whole number'),
  N_('must be a number'),
  N_('must be a finite number'),
  N_('must be a whole number (no decimals)'),
  N_('must be text'),
  N_('must be true or false'),
  N_('choose each option once'),
  N_('enter one JSON object'),
  N_('not a valid email address'),
  N_('not a valid URI (e.g. https://example.com/page)'),
  N_('not a valid date (YYYY-MM-DD)'),
  N_('not a valid date-time with a time zone (e.g. 2026-07-28T09:30:00Z)'),
  N_('the protocol can only carry text, numbers, true/false and lists of text here'),
  N_("write the assistant's reply (or Reject)"),
  N_('name the model that answered (e.g. human)'),
  N_('this holds a character no message can carry (a lone surrogate): retype it'),
  N_('The server asks your client to run a language model. You are the model: write the reply.'),
  N_('The server asks which folders it may work in (its roots). Share only folders you want this server to see.'),
  N_("mcp_lab does not open this link; follow it yourself, then press I've finished."),
  N_('This link is not https: what you send there can be read on the way.'),
  N_(
    'This kernel cannot deliver widget events while a cell waits (ipykernel < 7.4): the cell returns now and the flow continues when you answer.'
  )
];

/** Phrases with values in them; the first that matches the whole text wins (longer shapes first). */
const SHAPES = [
  N_('Answer only what you would tell this server: everything you send goes to %1.'),
  N_("%1 form '%2' from '%3': waiting for an answer"),
  N_("%1 form '%2' from '%3': answered %4"),
  N_("%1 form '%2' from '%3': answered"),
  N_("%1 form '%2' from '%3': declined"),
  N_("%1 form '%2' from '%3': cancelled"),
  N_("%1 form '%2' from '%3': timed out (sent as cancel)"),
  N_("%1 form '%2' from '%3': abandoned (the flow stopped waiting)"),
  N_("%1 form '%2' from '%3': not sent (%4)"),
  N_("%1 form '%2' from '%3'"),
  N_('%1 from %2 to %3'),
  N_('%1, at least %2'),
  N_('%1, at most %2'),
  N_('%1 to %2 characters'),
  N_('at most %1 characters'),
  N_('at least %1 characters'),
  N_('must be at least %1 character'),
  N_('must be at least %1 characters'),
  N_('must be at most %1 character'),
  N_('must be at most %1 characters'),
  N_('must be at least %1'),
  N_('must be at most %1'),
  N_('must be more than %1'),
  N_('must be less than %1'),
  N_('choose at least %1'),
  N_('choose at most %1'),
  N_('must match the pattern %1'),
  N_('each choice must be one of: %1'),
  N_('must be one of: %1'),
  N_('not valid JSON (%1 at line %2, column %3)'),
  N_('root %1: %2 is not a file:// URI'),
  N_('root %1: %2 is not a valid file:// URI'),
  N_('Outside the elicitation subset: %1')
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const COMPILED: [RegExp, string][] = SHAPES.map(shape => [
  new RegExp(`^${escape(shape).replace(/%\d+/g, '(.+?)')}$`, 's'),
  shape
]);
const EXACT = new Set(WORDS);

/** `text` from the kernel in the page's language, when it is one of the kernel's phrases (else as is). */
export function kernelText(text: string): string {
  if (!text) {
    return text;
  }
  if (EXACT.has(text)) {
    return trans.__(text);
  }
  for (const [pattern, shape] of COMPILED) {
    const found = pattern.exec(text);
    if (found) {
      // A value that is itself one of the kernel's words (a form's kind, "whole number") is translated too.
      const values = found.slice(1).map(value => (EXACT.has(value) ? trans.__(value) : value));
      return trans.__(shape, ...values);
    }
  }
  return text;
}
