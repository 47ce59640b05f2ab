import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../facade';
import { createRedactor, type Redactor } from '../secrets/redact';
import { privateDir, privateFile } from '../store/private-files';

export { REDACTED } from '../secrets/redact';
type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Level[] = ['debug', 'info', 'warn', 'error'];

/** The one logger of the core: every line passes through here, and every known secret is cut out. */
export interface CoreLogger extends Logger {
  /** Registers a secret (the API key) to redact from every later line. */
  addSecret(secret: string): void;
  removeSecret(secret: string): void;
}

export interface LoggerOptions {
  /** Append JSON lines here (e.g. <dataDir>/logs/core.log). */
  file?: string;
  /** Also forward to this logger (the shell's), already redacted. */
  forward?: Logger;
  level?: Level;
  now?: () => number;
  /** The core's redactor (shared with its call answers and events); a private one by default. */
  redactor?: Redactor;
}

export function createLogger(opts: LoggerOptions = {}): CoreLogger {
  const redactor = opts.redactor ?? createRedactor();
  const minLevel = LEVELS.indexOf(opts.level ?? 'info');
  if (opts.file) {
    privateDir(dirname(opts.file));
    privateFile(opts.file);
  }

  const redact = redactor.text;

  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(level) < minLevel) return;
    const safeMsg = redact(msg);
    let safeFields: Record<string, unknown> | undefined;
    if (fields) {
      try {
        safeFields = JSON.parse(redact(JSON.stringify(fields, errorReplacer))) as Record<string, unknown>;
      } catch {
        safeFields = { note: 'fields could not be serialised' };
      }
    }
    if (opts.file) {
      const line = JSON.stringify({ t: new Date((opts.now ?? Date.now)()).toISOString(), level, msg: safeMsg, ...(safeFields ?? {}) });
      try {
        appendFileSync(opts.file, line + '\n');
      } catch {
        // A full disk must not stop monitoring.
      }
    }
    opts.forward?.[level](safeMsg, safeFields);
  };

  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (s) => redactor.add(s),
    removeSecret: (s) => redactor.remove(s),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
