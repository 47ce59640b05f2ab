import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { isCollection, isMap, isScalar, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { favorMemoryOverSpeed } from '../core/memory/favor-memory';
import { duplicateProblems, HeadlessConfigSchema, type HeadlessConfig } from './config-schema';

export interface ConfigProblem {
  line: number | null;
  field: string;
  message: string;
}

/** A config file that cannot be used: every problem found, each with its line and field. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(
      `${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p.line !== null ? `line ${p.line}` : 'file'}: ${p.field ? `${p.field}: ` : ''}${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

export interface LoadedConfig {
  config: HeadlessConfig;
  /** Absolute path of the file. */
  file: string;
  /** Resolves a path written in the file relative to the file's folder. */
  resolvePath: (p: string) => string;
}

const fieldName = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

/** The line of the deepest node on `path` that exists (a missing key points at its parent). */
function lineOf(doc: Document, lc: LineCounter, path: readonly PropertyKey[], key?: string): number | null {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    if (!node?.range) continue;
    if (key !== undefined && n === path.length && isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
      const r = (pair?.key as { range?: [number, number, number] } | null)?.range;
      if (r) return lc.linePos(r[0]).line;
    }
    return lc.linePos(node.range[0]).line;
  }
  return null;
}

function problemsOf(doc: Document, lc: LineCounter, error: z.ZodError | undefined, raw: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of error?.issues ?? []) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        out.push({
          line: lineOf(doc, lc, issue.path, k),
          field: fieldName([...issue.path, k]),
          message: 'unknown setting (check the spelling; see docs/headless.md).',
        });
      continue;
    }
    // YAML reads an unquoted 0x… as a hexadecimal number.
    const hint =
      issue.code === 'invalid_type' && issue.expected === 'string' && typeof doc.getIn(issue.path as (string | number)[]) === 'number'
        ? ' (put it in quotes: YAML reads an unquoted 0x… as a number)'
        : '';
    out.push({ line: lineOf(doc, lc, issue.path), field: fieldName(issue.path), message: issue.message + hint });
  }
  for (const d of duplicateProblems(raw)) out.push({ line: lineOf(doc, lc, d.path), field: fieldName(d.path), message: d.message });
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/**
 * The innermost quoted scalar or flow collection that runs up to `pos`: a construct left open (a
 * missing closing quote, `]` or `}`) swallows the lines after it, so the parser notices only where it
 * gives up. Its opening is where the mistake is.
 */
function unclosedAt(doc: Document, pos: number): number | null {
  let start: number | null = null;
  visit(doc, (_key, node) => {
    const opens = (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) || (isCollection(node) && node.flow === true);
    const r = (node as { range?: [number, number, number] | null }).range;
    if (opens && r && r[0] < pos && (r[1] === pos || r[2] === pos) && (start === null || r[0] > start)) start = r[0];
  });
  return start;
}

function syntaxProblem(doc: Document, lc: LineCounter, e: YAMLError): ConfigProblem {
  const message = e.message.split('\n')[0] ?? e.message;
  const noticed = lc.linePos(e.pos[0]).line;
  const opened = unclosedAt(doc, e.pos[0]);
  const openLine = opened === null ? noticed : lc.linePos(opened).line;
  if (openLine === noticed) return { line: noticed, field: '', message };
  return { line: openLine, field: '', message: `${message}: opened on this line and never closed (the parser read on to line ${noticed})` };
}

/**
 * A valid file read straight into values (js-yaml, YAML 1.2's core schema like the Document below), or
 * null when anything is wrong. A Document with every node's place costs about 5 KB a watch: a file of
 * 10,000 watches held 50 MB for its parse, the watcher's peak memory at start. Only a file with a
 * problem is read again as a Document, to name each problem's line.
 */
function parseValid(text: string): HeadlessConfig | null {
  let raw: unknown;
  try {
    raw = loadYaml(text, { schema: CORE_SCHEMA }) ?? {};
  } catch {
    return null;
  }
  const parsed = HeadlessConfigSchema.safeParse(raw);
  return parsed.success && !duplicateProblems(raw).length ? parsed.data : null;
}

/** Parses and validates YAML text; throws ConfigError listing every problem. */
export function parseConfigText(text: string, file: string): HeadlessConfig {
  const valid = parseValid(text);
  if (valid) return valid;
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => syntaxProblem(doc, lc, e)),
    );
  }
  const raw: unknown = doc.toJS() ?? {};
  const parsed = HeadlessConfigSchema.safeParse(raw);
  const problems = problemsOf(doc, lc, parsed.success ? undefined : parsed.error, raw);
  if (problems.length || !parsed.success) throw new ConfigError(file, problems);
  return parsed.data;
}

export function loadConfigFile(path: string): LoadedConfig {
  // Reading the config is the watcher's first step and its biggest burst of short-lived objects (a
  // 10,000-address watchlist): favour memory from here, not from the core's start, or V8 sizes the heap
  // for that burst and lets garbage pile up to twice the live size before the first cycle.
  favorMemoryOverSpeed();
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [
      { line: null, field: '', message: `cannot read the config file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).` },
    ]);
  }
  const config = parseConfigText(text, file);
  return { config, file, resolvePath: (p) => resolve(dirname(file), p) };
}
