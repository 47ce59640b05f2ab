/**
 * service-spawn: the command line by which the core starts the local teleporter service (with its traffic simulator) as a child process
 * for the `local` data source: one command, live demo traffic. The core appends `--port 0 --db ...`.
 */
import type { LocalDataApiSpec } from '../core';
import { SERVICE_CLI, TSX_LOADER } from './paths';
import { DEMO_RATE, DEMO_SEED } from '../shared/demo-world';

export interface LocalDataApiChoice {
  /** Simulated messages per second. */
  rate?: number;
  /** The simulated world (default: the desktop demo's, so the headless watcher's demo config sees it too). */
  seed?: number;
  /** More flags for src/local-data-api/cli.ts (tests: a faster simulator). */
  extraArgs?: string[];
}

export function localDataApiSpawnSpec(choice: LocalDataApiChoice = {}): LocalDataApiSpec {
  const seed = choice.seed ?? DEMO_SEED;
  return {
    kind: 'spawn',
    command: process.execPath,
    args: ['--import', TSX_LOADER, SERVICE_CLI, '--rate', String(choice.rate ?? DEMO_RATE), '--seed', String(seed), ...(choice.extraArgs ?? [])],
  };
}
