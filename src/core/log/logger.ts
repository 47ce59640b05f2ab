import { basename, dirname } from 'node:path';
import { pino, type Logger as PinoLogger } from 'pino';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { visibleText } from '../../shared/visible-text';
import { createRedactor, type Redactor } from '../secrets/redact';
import { privateDir, privateFile } from '../store/private-files';

export { REDACTED } from '../secrets/redact';
type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Level[] = ['debug', 'info', 'warn', 'error'];

/** What every part of the core logs through (the core's own logger, or one a host forwards to). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** The one logger of the core: every line passes through here, and every known secret is cut out. */
export interface CoreLogger extends Logger {
  /** Registers a secret (the API key) to redact from every later line. */
  addSecret(secret: string): void;
  removeSecret(secret: string): void;
  /** Writes out what is buffered and closes the file; later lines only reach `forward`. */
  close(): Promise<void>;
}

/** How the log file rotates: an app left running for weeks keeps a bounded amount of log. */
interface LogRotation {
  /** Rotate when the file reaches this size, e.g. '10M'. */
  size: `${number}${'B' | 'K' | 'M' | 'G'}`;
  /** Rotated files kept besides the current one; older ones are deleted. */
  maxFiles: number;
}

const DEFAULT_ROTATION: LogRotation = { size: '10M', maxFiles: 5 };

interface LoggerOptions {
  /** JSON lines go here (e.g. <dataDir>/logs/core.log), rotated by size. */
  file?: string;
  rotation?: LogRotation;
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
  const now = opts.now ?? Date.now;
  let file: { stream: RotatingFileStream; log: PinoLogger } | null = null;
  if (opts.file) {
    const stream = openRotatingFile(opts.file, opts.rotation ?? DEFAULT_ROTATION);
    const log = pino(
      {
        level: opts.level ?? 'info',
        base: null,
        messageKey: 'msg',
        formatters: { level: (label) => ({ level: label }) },
        timestamp: () => `,"t":"${new Date(now()).toISOString()}"`,
      },
      stream,
    );
    file = { stream, log };
  }

  const redact = (s: string) => redactor.text(s);

  // Labels and upstream reasons reach log lines: hidden characters are shown (src/shared/visible-text.ts),
  // so a line read in a terminal or a log viewer shows what was sent and no CR LF forges another line.
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(level) < minLevel) return;
    const safeMsg = visibleText(redact(msg));
    let safeFields: Record<string, unknown> | undefined;
    if (fields) {
      try {
        // In JSON text a string's controls below U+0020 are escapes already (a stack's LF stays "\n"); the rest are shown.
        safeFields = JSON.parse(visibleText(redact(JSON.stringify(fields, errorReplacer)))) as Record<string, unknown>;
      } catch {
        safeFields = { note: 'fields could not be serialised' };
      }
    }
    file?.log[level](safeFields ?? {}, safeMsg);
    opts.forward?.[level](safeMsg, safeFields);
  };

  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (s) => redactor.add(s),
    removeSecret: (s) => redactor.remove(s),
    close: async () => {
      const open = file;
      file = null;
      if (!open) return;
      await new Promise<void>((resolve) => {
        open.stream.once('finish', resolve);
        open.stream.once('error', () => resolve());
        open.stream.end();
      });
    },
  };
}

function openRotatingFile(path: string, rotation: LogRotation): RotatingFileStream {
  privateDir(dirname(path));
  privateFile(path);
  const name = basename(path);
  // logrotate's way: the current file keeps its name, rotated ones are core.log.1 (newest) …
  // core.log.<maxFiles>, and the oldest is deleted.
  const stream = createStream((index: number | Date | null) => (index ? `${name}.${String(index)}` : name), {
    path: dirname(path),
    size: rotation.size,
    rotate: rotation.maxFiles,
    mode: 0o600,
  });
  // A full disk or a removed folder must not stop monitoring: log lines are then lost, nothing else.
  stream.on('error', () => undefined);
  return stream;
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
