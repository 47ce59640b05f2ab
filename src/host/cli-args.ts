/**
 * `npm run start:web -- [--port <n>] [--source local|avalanche|<base URL>] [--data-dir <dir>] [--no-open]`
 * parsed with node:util and checked with zod, so a bad flag is a clear message, not a stack trace.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';
import { defaultDataDir } from '../core';
import type { DataSource } from '../shared/contract';
import { DataSourceSchema } from '../shared/schemas';

interface HostCliOptions {
  port: number;
  /** Absent: keep the data source stored in settings (local on first run). */
  source?: DataSource;
  dataDir: string;
  open: boolean;
  help: boolean;
}

export const HOST_USAGE = `Usage: npm run start:web -- [options]

Runs Teleporter Watch in your browser: the monitor core plus its user interface, on 127.0.0.1 only.

Options:
  --port <n>            port to listen on (default: a free port)
  --source <source>     data source: "local" (simulated demo data from the local teleporter
                        service, the first-run default), "avalanche" (the Avalanche Data API),
                        or a base URL such as http://127.0.0.1:8080; stored in settings
  --data-dir <dir>      where state is kept (default: $XDG_DATA_HOME/teleporter-watch,
                        else ~/.local/share/teleporter-watch)
  --no-open             do not open a browser, only print the URL
  -h, --help            show this help`;

const portSchema = z
  .string()
  .regex(/^\d{1,5}$/, '--port must be a whole number between 0 and 65535.')
  .transform(Number)
  .pipe(z.number().max(65535, '--port must be a whole number between 0 and 65535.'));

function parseSource(value: string): DataSource {
  if (value === 'local' || value === 'avalanche') return { kind: value };
  const r = DataSourceSchema.safeParse({ kind: 'custom', baseUrl: value });
  if (!r.success) throw new Error(`--source must be "local", "avalanche" or a base URL (http:// or https://); got "${value}".`);
  return r.data;
}

const FLAGS = {
  port: { type: 'string' },
  source: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-open': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

/** Throws an Error whose message is meant for the user. */
export function parseHostArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HostCliOptions {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new Error(`${(e as Error).message}\n\n${HOST_USAGE}`);
  }
  const port = portSchema.safeParse(values.port ?? '0');
  if (!port.success) throw new Error(port.error.issues[0]?.message ?? '--port is invalid.');
  const options: HostCliOptions = {
    port: port.data,
    dataDir: values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env),
    open: !values['no-open'],
    help: values.help ?? false,
  };
  if (values.source !== undefined) options.source = parseSource(values.source);
  return options;
}
