import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { KeyStore } from '../core';
import { ApiKeySchema } from '../shared/schemas';
import type { HeadlessConfig } from './config-schema';

type KeyChoice =
  /** No key: the keyless limit (or the local service, which needs none). */
  | { kind: 'none' }
  /** The core reads the OS keychain itself. */
  | { kind: 'keychain' }
  /** A key for this process only. */
  | { kind: 'session'; key: string; from: string };

function checked(raw: string, from: string): string {
  const r = ApiKeySchema.safeParse(raw);
  if (!r.success) throw new Error(`The API key from ${from} is not usable: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

/** Reads a secret from a file that only its owner may read (mode 0600 or 0400); refuses any other. */
function readOwnerOnlyFile(path: string, what: string): string {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new Error(`Cannot read the ${what} file ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  if (!st.isFile()) throw new Error(`The ${what} file ${path} is not a regular file.`);
  if (st.mode & 0o077) {
    throw new Error(
      `Refusing the ${what} file ${path}: others can read it (mode ${(st.mode & 0o777).toString(8)}). Run \`chmod 600 ${path}\` so only its owner can.`,
    );
  }
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new Error(`Refusing the ${what} file ${path}: it belongs to another user (uid ${st.uid}); the watcher runs as uid ${process.getuid()}.`);
  }
  // A secret is a line, not a file of megabytes: refused before it is read.
  if (st.size > MAX_SECRET_FILE_BYTES)
    throw new Error(`Refusing the ${what} file ${path}: it is ${st.size} bytes; a ${what} file holds one line (at most ${MAX_SECRET_FILE_BYTES} bytes).`);
  const text = readSmall(path, st.size).trim();
  if (!text) throw new Error(`The ${what} file ${path} is empty.`);
  return text;
}

const MAX_SECRET_FILE_BYTES = 4096;

function readSmall(path: string, size: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, MAX_SECRET_FILE_BYTES) + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    if (n > MAX_SECRET_FILE_BYTES) throw new Error(`Refusing the file ${path}: it grew past ${MAX_SECRET_FILE_BYTES} bytes while being read.`);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Where the API key comes from, per the config; never from the config file itself. Throws a message for the user. */
export function resolveApiKey(
  source: HeadlessConfig['apiKey'],
  opts: { env?: NodeJS.ProcessEnv; resolvePath?: (p: string) => string; keychainService?: string } = {},
): KeyChoice {
  if (!source) return { kind: 'none' };
  if (source.env) {
    const v = (opts.env ?? process.env)[source.env];
    if (!v) throw new Error(`apiKey.env names ${source.env}, but that environment variable is empty or not set.`);
    return { kind: 'session', key: checked(v, `the environment variable ${source.env}`), from: `environment variable ${source.env}` };
  }
  if (source.file) {
    const path = opts.resolvePath ? opts.resolvePath(source.file) : source.file;
    return { kind: 'session', key: checked(readOwnerOnlyFile(path, 'API key'), path), from: `file ${path}` };
  }
  const status = new KeyStore(opts.keychainService ?? 'teleporter-watch').status();
  if (!status.hasApiKey)
    throw new Error(
      `apiKey.keychain is set, but the OS keychain holds no key${status.keychainError ? `: ${status.keychainError}` : ' (store one in the desktop app Settings as the same user, or use apiKey.env or apiKey.file).'}`,
    );
  return { kind: 'keychain' };
}

interface StartSecrets {
  key: KeyChoice;
  metricsToken: string | undefined;
}

/**
 * Every secret the start reads (the API key from its source, the metrics bearer token file), with
 * every check it makes. `--check` runs this very function, so it can never pass a file the start refuses.
 */
export function readStartSecrets(
  config: Pick<HeadlessConfig, 'apiKey' | 'metrics'>,
  opts: { env?: NodeJS.ProcessEnv; resolvePath: (p: string) => string; keychainService?: string },
): StartSecrets {
  const key = resolveApiKey(config.apiKey, opts);
  const tokenFile = config.metrics?.bearerTokenFile;
  const metricsToken = tokenFile ? readOwnerOnlyFile(opts.resolvePath(tokenFile), 'metrics bearer token') : undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) throw new Error('The metrics bearer token must be at least 16 characters.');
  return { key, metricsToken };
}
