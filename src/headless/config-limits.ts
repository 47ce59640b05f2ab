/**
 * Limits a config file must keep before it is parsed at all, so a hostile or broken file is refused
 * with a line in fixed memory: its size, its aliases (an alias bomb repeats one node exponentially
 * when it is expanded) and its nesting (parsers recurse per level, and a deep file used to end in
 * "Maximum call stack size exceeded"). Checked with yaml's Lexer, which reads tokens one by one and
 * builds nothing.
 */
import { Lexer } from 'yaml';

/** A config of 100,000 watches with labels is about 8 MB. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/** Enough to share a few blocks; 20 aliases expand to at most 3^6 × 2 copies of a node, never a bomb. */
export const MAX_ALIASES = 20;
/** The schema is at most 6 levels deep (dataSource.ownNodes.chains[i]…); this leaves room for style. */
export const MAX_DEPTH = 64;
/** Problems printed; the rest are counted ("… and 149,950 more"). */
export const MAX_PRINTED_PROBLEMS = 50;

interface LimitProblem {
  line: number;
  message: string;
}

/** The first limit the text breaks, or null. Never recurses, never expands anything. */
export function limitProblem(text: string): LimitProblem | null {
  let line = 1;
  let aliases = 0;
  let flow = 0;
  let lineDepth = 0; // indentation plus block indicators (`- `, `? `, `key:`) on this line
  for (const token of new Lexer().lex(text)) {
    const first = token[0];
    if (first === '*') {
      aliases++;
      if (aliases > MAX_ALIASES)
        return { line, message: `more than ${MAX_ALIASES} aliases (*name): refused, as an alias bomb would be. Write the values out instead.` };
    } else if (first === '[' || first === '{') {
      flow++;
    } else if (first === ']' || first === '}') {
      flow = Math.max(0, flow - 1);
    } else if (token === '-' || token === '?' || token === ':') {
      lineDepth++;
    } else if (first === ' ' && lineDepth === 0 && /^ +$/.test(token)) {
      lineDepth = token.length;
    }
    if (flow + lineDepth > MAX_DEPTH) return { line, message: `nested more than ${MAX_DEPTH} levels deep: a config needs at most 6 (see docs/headless.md).` };
    for (let i = token.indexOf('\n'); i >= 0; i = token.indexOf('\n', i + 1)) {
      line++;
      lineDepth = 0;
    }
  }
  return null;
}
