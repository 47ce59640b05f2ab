/**
 * Finds the names the docs and the source comments give that no longer exist: file and folder paths
 * (`src/core/poller/echoes.ts`, `parts/log.ts`, `test/renderer`), links between the docs and their
 * anchors, and the backticked code names of the docs (`MAX_LATENESS_S`, `resync()`, `PartsBuilder`).
 * A file moved or a constant renamed without its mentions fails doc-names.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';

/** One name that names nothing. */
export interface StaleName {
  file: string;
  line: number;
  name: string;
  why: string;
}

/** The repository's files and folders as seen by a reader (build output and dependencies left out). */
export interface Tree {
  files: Set<string>;
  dirs: Set<string>;
  /** Every file path, for the short names a doc gives relative to some folder (`parts/log.ts`). */
  paths: string[];
}

const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', '.git', 'coverage', 'test-results', 'playwright-report']);
/** The folders a path written from the repository's root starts with. */
const ROOTS = ['src', 'test', 'bench', 'scripts', 'docs', 'deploy', 'resources', 'bin', '.ci'];
const FILE_EXT = 'ts|mts|cts|mjs|cjs|vue|md|sol|yaml|yml';
/**
 * Names that are not this repository's files: the files a user writes (`watch.yaml`), what a run makes
 * (`deploy/.demo-data`), the bench's bundle (`day-child.cjs`) and the messenger's sources in
 * ava-labs/icm-contracts.
 */
const NOT_OURS = new Set([
  'watch.yaml',
  'config.yaml',
  'devnet.yaml',
  'deploy/.demo-data',
  'day-child.cjs',
  'contracts/teleporter/TeleporterMessenger.sol',
  'contracts/teleporter/ITeleporterMessenger.sol',
  'TeleporterMessenger.sol',
  'ITeleporterMessenger.sol',
  'ReceiptQueue.sol',
]);
/**
 * Code names that are not ours: typescript-eslint's config, the official SDK's error class, and the
 * benchmarks' target names made at run time from the plan and the rate.
 */
const NOT_OUR_CODE = new Set(['strictTypeChecked', 'ResponseValidationError', 'missedFreeAt20']);
/** A file called `x` stands for any file (`npx eslint src/core/x.ts`). */
const PLACEHOLDER = /(^|\/)x\.[\w.]+$/;

export function readTree(root: string): Tree {
  const files = new Set<string>();
  const dirs = new Set<string>(['']);
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (SKIPPED_DIRS.has(e.name)) continue;
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        dirs.add(path);
        walk(path);
      } else files.add(path);
    }
  };
  walk('');
  return { files, dirs, paths: [...files] };
}

/** Whether `name`, met in `from` (a repository path), names a file or folder that exists. */
export function pathExists(tree: Tree, from: string, name: string): boolean {
  const clean = name
    .replace(/\/+$/, '')
    .replace(/#.*$/, '')
    .replace(/^\.\/(?=src\/)/, '');
  if (NOT_OURS.has(clean) || PLACEHOLDER.test(clean)) return true;
  const has = (p: string) => tree.files.has(p) || tree.dirs.has(p);
  if (clean.includes('*') || clean.includes('<')) {
    // A pattern (`test/e2e/*.spec.ts`, `docs/screenshots/<view>-1280.png`): its fixed folder must exist.
    const fixed = clean.slice(0, clean.search(/[*<]/));
    return has(fixed.slice(0, fixed.lastIndexOf('/')));
  }
  if (ROOTS.some((r) => clean.startsWith(`${r}/`)) || !clean.includes('/')) {
    if (has(clean)) return true;
  }
  if (clean.startsWith('./') || clean.startsWith('../')) return has(posix.normalize(posix.join(posix.dirname(from), clean)));
  // Relative to the file's own folder or one above it (`parts/log.ts` in src/core/create-core.ts).
  for (let dir = posix.dirname(from); ; dir = posix.dirname(dir)) {
    if (has(dir === '.' ? clean : `${dir}/${clean}`)) return true;
    if (dir === '.' || dir === '') break;
  }
  if (ROOTS.some((r) => clean.startsWith(`${r}/`))) return false;
  // A doc names a file by its folder under some layer (`store/alert-entries.ts`, `logic/toast-plan.ts`).
  return tree.paths.some((p) => p.endsWith(`/${clean}`)) || [...tree.dirs].some((d) => d.endsWith(`/${clean}`));
}

// A path: a root-relative one (`src/core`, `test/e2e/x.spec.ts`) or a file name with a known ending,
// not part of a URL or a longer word (`out/main/local-service.js` is build output: not a known ending).
const PATH = new RegExp(
  String.raw`(?<![\w/.@:$-])((?:\.\.?/)*(?:(?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\w@.*<>{},-]*(?:/[\w@.*<>-]+)*|[\w@-]+(?:/[\w@.*<>-]+)*\.(?:${FILE_EXT})))(?![\w/@-]|\.\w)`,
  'g',
);

/** The paths a piece of text names, but those it calls former ones (a name after "was"). */
export function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH)]
    .filter((m) => !isHistory(text.slice(0, m.index)))
    .map((m) => m[1]!.replace(/[.,:;]+$/, ''))
    .filter((p) => !p.includes('{') && !/^[\w-]+\/$/.test(p));
}

/** Whether a name right after `before` is a former name ("was", "replaces … and …"). */
function isHistory(before: string): boolean {
  return /\b(?:was|were|replaces|replaced|formerly|renamed from)\s+(?:`?[^`\s]*`?\s*(?:,|and|or)\s*)*`?$/.test(before);
}

// Strings first, so that a `//` or `/*` inside one starts no comment; then line, block and HTML
// comments; then a regular expression literal (after `(`, `,`, `=` …), whose quotes start no string.
const COMMENT =
  /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|(?<![:\\])(\/\/[^\n]*)|(\/\*[\s\S]*?\*\/)|(<!--[\s\S]*?-->)|(?<=[(,=:[!&|?{};]\s*)\/(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[a-z]*/g;

/** The comments of a source file, with their line numbers. */
export function commentsOf(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  for (const m of text.matchAll(COMMENT)) {
    const body = m[1] ?? m[2] ?? m[3];
    if (body === undefined) continue;
    body.split('\n').forEach((t, k) => out.push({ line: lineAt(m.index) + k, text: t }));
  }
  return out;
}

/** The source without its comments (strings kept). */
const withoutComments = (text: string): string => text.replace(COMMENT, (m: string, a?: string, b?: string, c?: string) => ((a ?? b ?? c) ? ' ' : m));

/** GitHub's anchor for a heading. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Code names worth checking: a constant (`MAX_LATENESS_S`), a camelCase or a PascalCase compound. */
const CODE_NAME = /^([A-Z][A-Z0-9]*_[A-Z0-9_]+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(\(.*\))?$/;

/** Every identifier the code and its configuration use (the docs and the lock file aside), to look the docs' code names up in. */
export function identifiersOf(root: string, tree: Tree): Set<string> {
  const ids = new Set<string>();
  for (const p of tree.paths) {
    if (p.startsWith('docs/') || p.endsWith('.md') || p === 'package-lock.json' || /\.(png|jpe?g|ico|icns|gif|sqlite|wasm)$/.test(p)) continue;
    const text = readFileSync(join(root, p), 'utf8');
    // A name only a comment gives is no name of the code.
    const code = /\.(ts|mts|cts|mjs|cjs|js|vue)$/.test(p) ? withoutComments(text) : text;
    for (const m of code.matchAll(/[A-Za-z_][\w]*/g)) ids.add(m[0]);
  }
  return ids;
}

/** Whether a backticked code name names nothing (a former name is history; `BENCH_TARGET_<NAME>` is made from a target's name). */
function unknownCode(span: string, before: string, ids: Set<string>): boolean {
  const code = CODE_NAME.exec(span);
  if (!code || ids.has(code[1]!) || NOT_OUR_CODE.has(code[1]!) || code[1]!.startsWith('BENCH_TARGET_')) return false;
  return !isHistory(before);
}

/** The stale names of one markdown file: its paths, its links (and their anchors) and its backticked code names. */
export function staleInMarkdown(root: string, tree: Tree, file: string, text: string, ids: Set<string>): StaleName[] {
  const out: StaleName[] = [];
  const lines = text.split('\n');
  lines.forEach((lineText, i) => {
    const line = i + 1;
    for (const name of pathsIn(lineText.replace(/\]\([^)]*\)/g, ']'))) {
      if (!pathExists(tree, file, name)) out.push({ file, line, name, why: 'no such file or folder' });
    }
    for (const m of lineText.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path ? posix.normalize(posix.join(posix.dirname(file), path)) : file;
      if (path && !tree.files.has(resolved) && !tree.dirs.has(resolved.replace(/\/$/, ''))) {
        out.push({ file, line, name: target, why: 'link to no such file' });
      } else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(join(root, resolved), 'utf8')).has(anchor)) {
        out.push({ file, line, name: target, why: `no heading #${anchor} in ${resolved}` });
      }
    }
    for (const m of lineText.matchAll(/`([^`]+)`/g)) {
      if (unknownCode(m[1]!, lineText.slice(0, m.index), ids)) out.push({ file, line, name: m[1]!, why: 'no such name in the code' });
    }
  });
  return out;
}

/** The stale names of one source file's comments: paths, and backticked code names. */
export function staleInComments(tree: Tree, file: string, text: string, ids: Set<string>): StaleName[] {
  const out: StaleName[] = [];
  for (const c of commentsOf(text)) {
    for (const name of pathsIn(c.text)) {
      if (!pathExists(tree, file, name)) out.push({ file, line: c.line, name, why: 'no such file or folder' });
    }
    for (const m of c.text.matchAll(/`([^`]+)`/g)) {
      if (unknownCode(m[1]!, c.text.slice(0, m.index), ids)) out.push({ file, line: c.line, name: m[1]!, why: 'no such name in the code' });
    }
    // A comment names a constant without backticks too (`MAX_LATENESS_S` or MAX_LATENESS_S).
    const bare = c.text.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
    for (const m of bare.matchAll(/(?<!\w)[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?!\w)/g)) {
      if (unknownCode(m[0], bare.slice(0, m.index), ids)) out.push({ file, line: c.line, name: m[0], why: 'no such name in the code' });
    }
  }
  return out;
}

/** Every stale name of the docs, the README and the comments of src, test, bench and scripts. */
export function staleNames(root: string): StaleName[] {
  const tree = readTree(root);
  const ids = identifiersOf(root, tree);
  const out: StaleName[] = [];
  for (const file of tree.paths.sort()) {
    const isDoc = file === 'README.md' || /^docs\/[^/]+\.md$/.test(file);
    const isSource = /^(src|test|bench|scripts)\//.test(file) && /\.(ts|mts|mjs|vue)$/.test(file) && !file.startsWith('test/lint/fixtures/');
    if (!isDoc && !isSource) continue;
    const text = readFileSync(join(root, file), 'utf8');
    out.push(...(isDoc ? staleInMarkdown(root, tree, file, text, ids) : staleInComments(tree, file, text, ids)));
  }
  return out;
}

/** The repository path of a file on disk. */
export const repoPath = (root: string, abs: string): string => relative(root, abs).split(sep).join('/');
export const repoRoot = join(dirname(new URL(import.meta.url).pathname), '..', '..');
