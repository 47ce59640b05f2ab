import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { isCollection, isMap, isScalar, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { favorMemoryOverSpeed } from '../core';
import { CONFIG_LISTS, duplicateProblems, HeadlessConfigSchema, routesOnFileNetwork, type HeadlessConfig } from './config-schema';
import { mergeRelayerConfig, RelayerConfigFileError } from './relayer-config-entry';
import { limitProblem, MAX_CONFIG_BYTES, MAX_DEPTH, MAX_PRINTED_PROBLEMS } from './config-limits';

interface ConfigProblem {
  line: number | null;
  field: string;
  message: string;
}

/** A config file that cannot be used: every problem found, each with its line and field. */
export class ConfigError extends Error {
  /** `problems` holds at most MAX_PRINTED_PROBLEMS; `total` counts them all. */
  readonly total: number;
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
    total = problems.length,
  ) {
    const shown = problems.slice(0, MAX_PRINTED_PROBLEMS);
    const more = total - shown.length;
    super(
      `${file} has ${total} problem${total === 1 ? '' : 's'}:\n${shown.map((p) => `  ${p.line !== null ? `line ${p.line}` : 'file'}: ${p.field ? `${p.field}: ` : ''}${p.message}`).join('\n')}` +
        (more > 0 ? `\n  … and ${more} more (fix these, then run --check again).` : ''),
    );
    this.name = 'ConfigError';
    this.problems = shown;
    this.total = total;
  }
}

export interface LoadedConfig {
  config: HeadlessConfig;
  /** Absolute path of the file. */
  file: string;
  /** Resolves a path written in the file relative to the file's folder. */
  resolvePath: (p: string) => string;
  /** The `relayerConfig:` file's metrics-port (default 9090; null without the entry): where the relayer serves its own metrics. */
  relayerMetricsPort: number | null;
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

/** The first MAX_PRINTED_PROBLEMS problems with their lines, and how many there are in all. */
type Locate = (path: readonly PropertyKey[], key?: string) => number | null;

/** The value at `path` in the parsed values (undefined when the path leaves them). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/**
 * For a file too big to hold as a Document: each mapping and sequence's line, recorded by js-yaml as
 * it reads (one number per collection). A problem is placed at its entry's line.
 */
function entryLines(text: string): { raw: unknown; locate: Locate } {
  const lines = new WeakMap<object, number>();
  const open: number[] = [];
  const raw = loadYaml(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === 'open') open.push(state.line + 1);
      else {
        const line = open.pop();
        const result: unknown = state.result;
        if (line !== undefined && result !== null && typeof result === 'object') lines.set(result, line);
      }
    },
  });
  const locate: Locate = (path) => {
    let found: number | null = null;
    let v: unknown = raw;
    for (let i = 0; i <= path.length && v !== null && typeof v === 'object'; i++) {
      found = lines.get(v) ?? found;
      if (i < path.length) v = (v as Record<PropertyKey, unknown>)[path[i] as PropertyKey];
    }
    return found;
  };
  return { raw, locate };
}

/** Files up to this size get every problem's exact line from a Document; bigger ones their entry's line. */
const DOCUMENT_MAX_BYTES = 1024 * 1024;

/**
 * The schema's issues for a big file, in fixed memory: the top level without its lists, then each
 * list entry on its own, keeping the first MAX_PRINTED_PROBLEMS issues and counting the rest (one
 * zod error of 150,000 issues held hundreds of MB).
 */
function boundedIssues(raw: unknown): { issues: z.core.$ZodIssue[]; counted: number } {
  const issues: z.core.$ZodIssue[] = [];
  let counted = 0;
  const keep = (list: readonly z.core.$ZodIssue[], prefix: PropertyKey[]) => {
    for (const issue of list) {
      counted += issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
      if (issues.length < MAX_PRINTED_PROBLEMS) issues.push({ ...issue, path: [...prefix, ...issue.path] });
    }
  };
  // Routes take the file's network first, as the whole schema's preprocessing gives them.
  const top = { ...(routesOnFileNetwork(raw) as Record<string, unknown>) };
  const lists: [keyof typeof CONFIG_LISTS, unknown[]][] = [];
  for (const name of Object.keys(CONFIG_LISTS) as (keyof typeof CONFIG_LISTS)[]) {
    const v = top[name];
    if (Array.isArray(v)) {
      lists.push([name, v]);
      top[name] = [];
    }
  }
  const parsedTop = HeadlessConfigSchema.safeParse(top);
  if (!parsedTop.success) keep(parsedTop.error.issues, []);
  for (const [name, entries] of lists) {
    const { entry, max } = CONFIG_LISTS[name];
    if (entries.length > max)
      keep(
        [
          {
            code: 'too_big',
            origin: 'array',
            maximum: max,
            inclusive: true,
            input: undefined,
            path: [],
            message: `at most ${max} entries (this file has ${entries.length}).`,
          },
        ],
        [name],
      );
    entries.forEach((item, i) => {
      const r = entry.safeParse(item);
      if (!r.success) keep(r.error.issues, [name, i]);
    });
  }
  return { issues, counted };
}

function problemsOf(locate: Locate, error: z.ZodError | undefined, raw: unknown, big = false): { problems: ConfigProblem[]; total: number } {
  const out: ConfigProblem[] = [];
  const bounded = big ? boundedIssues(raw) : null;
  const issues = bounded ? bounded.issues : (error?.issues ?? []);
  const duplicates = duplicateProblems(raw);
  const total = (bounded ? bounded.counted : issues.reduce((n, i) => n + (i.code === 'unrecognized_keys' ? i.keys.length : 1), 0)) + duplicates.length;
  // Lines only for the problems printed: a file of 150,000 bad entries must not get 150,000 lookups.
  for (const issue of issues.slice(0, MAX_PRINTED_PROBLEMS)) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys)
        out.push({
          line: locate(issue.path, k),
          field: fieldName([...issue.path, k]),
          message: 'unknown setting (check the spelling; see docs/headless.md).',
        });
      continue;
    }
    // YAML reads an unquoted 0x… as a hexadecimal number.
    const hint =
      issue.code === 'invalid_type' && issue.expected === 'string' && typeof valueAt(raw, issue.path) === 'number'
        ? ' (put it in quotes: YAML reads an unquoted 0x… as a number)'
        : '';
    out.push({ line: locate(issue.path), field: fieldName(issue.path), message: issue.message + hint });
  }
  for (const d of duplicates.slice(0, MAX_PRINTED_PROBLEMS)) out.push({ line: locate(d.path), field: fieldName(d.path), message: d.message });
  return { problems: out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).slice(0, MAX_PRINTED_PROBLEMS), total };
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

const EMPTY: ConfigProblem = {
  line: null,
  field: '',
  message: 'the config file is empty: it needs at least `watches:`, `feeds:`, `relayers:` or `routes:` (see docs/headless.md), or `{}` for the defaults.',
};
const TOO_DEEP: ConfigProblem = { line: null, field: '', message: `nested too deeply to read: a config needs at most 6 levels (the limit is ${MAX_DEPTH}).` };

/** A parser's stack overflow (a nesting the limits did not foresee) as a config problem, not a crash. */
function guarded<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof RangeError) throw new ConfigError(file, [TOO_DEEP]);
    throw e;
  }
}

/**
 * A valid file read straight into values (js-yaml, YAML 1.2's core schema like the Document below).
 * A Document with every node's place costs about 5 KB a watch: a file of 10,000 watches held 50 MB
 * for its parse, the watcher's peak memory at start. Only a file with a problem is read again as a
 * Document, to name each problem's line.
 */
function readValues(text: string): { ok: true; raw: unknown } | { ok: false } {
  try {
    return { ok: true, raw: loadYaml(text, { schema: CORE_SCHEMA }) };
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return { ok: false };
  }
}

/** Parses and validates YAML text; throws ConfigError listing every problem (the first 50 of them, with the count). */
export function parseConfigText(text: string, file: string): HeadlessConfig {
  const limit = limitProblem(text);
  if (limit) throw new ConfigError(file, [{ line: limit.line, field: '', message: limit.message }]);
  const values = guarded(file, () => readValues(text));
  const big = text.length > DOCUMENT_MAX_BYTES;
  if (values.ok) {
    if (values.raw === null || values.raw === undefined) throw new ConfigError(file, [EMPTY]);
    // A big file is checked entry by entry first, so a file of bad entries never builds one huge error.
    const clean = !big || (typeof values.raw === 'object' && boundedIssues(values.raw).counted === 0);
    const parsed = clean ? HeadlessConfigSchema.safeParse(values.raw) : null;
    if (parsed?.success && !duplicateProblems(values.raw).length) return parsed.data;
  }
  if (values.ok && big) {
    // A big file that reads but does not validate: lines from a second read that keeps one number per entry.
    values.raw = undefined; // its first reading is garbage before the second is made
    const { raw, locate } = guarded(file, () => entryLines(text));
    const { problems, total } = problemsOf(locate, undefined, raw, true);
    throw new ConfigError(file, problems, total);
  }
  const lc = new LineCounter();
  const doc = guarded(file, () => parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true }));
  if (doc.errors.length) {
    const syntax = doc.errors.slice(0, MAX_PRINTED_PROBLEMS).map((e) => syntaxProblem(doc, lc, e));
    throw new ConfigError(file, syntax, doc.errors.length);
  }
  const raw: unknown = values.ok ? values.raw : guarded(file, (): unknown => doc.toJS());
  if (raw === null || raw === undefined) throw new ConfigError(file, [EMPTY]);
  const parsed = HeadlessConfigSchema.safeParse(raw);
  const { problems, total } = problemsOf((path, key) => lineOf(doc, lc, path, key), parsed.success ? undefined : parsed.error, raw);
  if (total || !parsed.success) throw new ConfigError(file, problems, total);
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
    // Sized before it is read: a huge file is refused without ever being held in memory.
    const size = statSync(file).size;
    if (size > MAX_CONFIG_BYTES) {
      throw new ConfigError(file, [
        { line: null, field: '', message: `the config file is ${(size / 1024 / 1024).toFixed(1)} MB; at most ${MAX_CONFIG_BYTES / 1024 / 1024} MB is read.` },
      ]);
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(file, [
      { line: null, field: '', message: `cannot read the config file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).` },
    ]);
  }
  const resolvePath = (p: string) => resolve(dirname(file), p);
  try {
    const merged = mergeRelayerConfig(parseConfigText(text, file), resolvePath);
    return { config: merged.config, file, resolvePath, relayerMetricsPort: merged.metricsPort };
  } catch (e) {
    if (e instanceof RelayerConfigFileError) throw new ConfigError(file, [{ line: null, field: 'relayerConfig', message: e.message }]);
    throw e;
  }
}
