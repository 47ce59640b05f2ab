/**
 * The shell's console logger. The core redacts secrets in its own logger before forwarding lines
 * here, and the shell itself never handles the API key.
 */
import type { Logger } from '../core';

export function createConsoleLogger(scope: string, sink: Pick<Console, 'log' | 'warn' | 'error'> = console): Logger {
  const line = (level: string, msg: string, fields?: Record<string, unknown>) =>
    `[${scope}] ${level} ${msg}${fields && Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : ''}`;
  return {
    debug: () => undefined,
    info: (m, f) => sink.log(line('info', m, f)),
    warn: (m, f) => sink.warn(line('warn', m, f)),
    error: (m, f) => sink.error(line('error', m, f)),
  };
}
