/**
 * Turns the user's search text into an FTS5 MATCH argument that is always one quoted phrase: the
 * text is data, never query syntax (quotes, `*`, `^`, `:`, NEAR, AND/OR/NOT are matched literally or
 * not at all). Text of 3+ characters goes to the trigram index (substring match); shorter text to the
 * word-prefix index.
 */

type SearchMatch =
  /** No text: no index condition. */
  | { kind: 'all' }
  /** Text that no stored search text can contain (e.g. a control character): no results. */
  | { kind: 'none' }
  | { kind: 'match'; index: 'messages_fts' | 'messages_prefix'; query: string };

/** A double-quoted FTS5 string: inner quotes doubled, so nothing inside is syntax. */
const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

// C0 controls and DEL never occur in the indexed text (IDs, addresses, chain names, hashes); a NUL
// would also end the query string inside SQLite ("unterminated string").
const CONTROL = /[\u0000-\u001f\u007f]/;

export function searchMatchOf(raw: string | undefined): SearchMatch {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text.length === 0) return { kind: 'all' };
  if (CONTROL.test(text)) return { kind: 'none' };
  // A trigram needs three characters (code points, not UTF-16 units): fewer never match.
  if ([...text].length >= 3 && !/^0x[0-9a-f]*$/.test(text)) return { kind: 'match', index: 'messages_fts', query: phrase(text) };
  const token = text.replace(/[^0-9a-z]/g, '');
  // Short text with no letter or digit (say "--") finds nothing rather than everything.
  if (!token) return { kind: 'none' };
  return { kind: 'match', index: 'messages_prefix', query: `${phrase(token)}*` };
}
