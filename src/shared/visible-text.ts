/**
 * Text that leaves the core for a person (a log line, a console line, a notification, a metric's label
 * value) may carry a label someone typed or a reason an upstream sent. Characters that act instead of
 * showing are made visible, so such text can neither forge a line (CR, LF, U+2028) nor reorder or
 * hide what is shown around it (U+202E, U+2066, zero-width characters) nor drive a terminal (ESC).
 *
 * Each one becomes `<U+XXXX>`: one form that is safe in every place text goes (a JSON log, a terminal,
 * a Prometheus label value, where a backslash escape such as `\r` would be invalid) and never
 * mistaken for an escape of the format around it.
 */

/**
 * C0 and C1 controls and DEL (Cc), invisible format characters (Cf: bidi embeddings, overrides and
 * isolates U+202A–U+202E and U+2066–U+2069, U+200E/U+200F, U+061C, zero-width space, BOM, tags…),
 * the line and paragraph separators (Zl, Zp) and lone surrogates (Cs).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

/**
 * Kept as they are: the zero-width joiner and non-joiner are part of ordinary writing (Persian,
 * Indic scripts, emoji sequences such as 👩‍💻) and cannot reorder or break a line.
 */
const KEPT = new Set(['\u200c', '\u200d']);

const codePoint = (c: string) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;

/**
 * `text` with every hidden or acting character shown as `<U+XXXX>`. `multiLine` keeps LF (text of
 * several lines: a config file's list of problems, the /metrics exposition); CR is shown either way. Visible characters in any script
 * pass unchanged, and the result passes unchanged again.
 */
export function visibleText(text: string, opts: { multiLine?: boolean } = {}): string {
  if (!HIDDEN.test(text)) return text;
  return text.replace(HIDDEN_ALL, (c) => (KEPT.has(c) || (opts.multiLine && c === '\n') ? c : codePoint(c)));
}
