/**
 * local-service-spawn: the command line by which the core starts the local service (with its traffic simulator) as a child process
 * for the `local` data source: one command, live demo traffic. The core appends `--port 0 --db ...`.
 */
import type { LocalServiceSpec } from '../core';
import { SERVICE_CLI, TSX_LOADER } from './paths';
import { DEMO_RATE, DEMO_SEED } from '../shared/demo-world';

export interface LocalServiceChoice {
  /** Simulated messages per second. */
  rate?: number;
  /** The simulated world (default: the desktop demo's, so the headless watcher's demo config sees it too). */
  seed?: number;
  /** More flags for src/local-service/cli.ts (tests: a faster simulator). */
  extraArgs?: string[];
}

export function localServiceSpawnSpec(choice: LocalServiceChoice = {}): LocalServiceSpec {
  const seed = choice.seed ?? DEMO_SEED;
  return {
    kind: 'spawn',
    command: process.execPath,
    args: ['--import', TSX_LOADER, SERVICE_CLI, '--rate', String(choice.rate ?? DEMO_RATE), '--seed', String(seed), ...(choice.extraArgs ?? [])],
  };
}
