/**
 * Date-times as a person enters them (local wall time in a datetime-local input) and as they travel
 * (ISO 8601 with the browser's UTC offset).
 *
 * Spec context: the elicitation subset's `format: date-time` string; the server must receive an instant,
 * so the offset the browser knows is added here, and a value the kernel sets (any offset) is shown as the
 * same instant in local time.
 */

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** "2026-05-04T10:30" (a datetime-local value, local time) -> "2026-05-04T10:30:00+02:00". */
export function localToIso(local: string): string {
  const m = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(local.trim());
  if (!m) {
    return local; // not a datetime-local value: sent as is, so the kernel's message names the problem
  }
  const d = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const date = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An ISO 8601 date-time (any offset) -> the same instant as a datetime-local value in this browser. */
export function isoToLocal(iso: string): string {
  const text = iso.trim();
  const m = /^(\d{4,}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) {
    return '';
  }
  if (!m[4]) {
    return `${m[1]}T${m[2]}`; // no offset: already local wall time
  }
  const d = new Date(text.replace(' ', 'T'));
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const seconds = d.getSeconds() ? `:${pad(d.getSeconds())}` : '';
  return (
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}${seconds}`
  );
}

/** The browser's time zone name, e.g. "Europe/Paris" (an offset if the browser names none). */
export function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || localToIso('2000-01-01T00:00').slice(-6);
  } catch {
    return localToIso('2000-01-01T00:00').slice(-6);
  }
}
