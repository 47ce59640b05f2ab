/**
 * A started core whose data source is a custom URL: the test's own Data API (scripted-data-api.ts),
 * serving what the test puts in it. It records every announced transition and every log line, and has
 * /metrics. Closed (with its folder, unless the test gave one) by `cleanups`, last first.
 */
import { randomBytes } from 'node:crypto';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { PollStatus, Transition } from '../../src/shared/contract';
import { tempDir } from './helpers';
import { JumpClock } from './http-helpers';
import { scriptedDataApi, type ScriptedDataApi } from './scripted-data-api';

export interface CustomSourceCore {
  core: MonitorCore;
  api: ScriptedDataApi;
  clock: JumpClock;
  dataDir: string;
  /** Every transition the core announced, as `<messageId>:<kind>`. */
  announced: string[];
  /** Every log line (its message and fields as JSON). */
  lines: string[];
  poll(): Promise<PollStatus>;
  /** A contract call that must succeed (its value), else throws with the error's kind and message. */
  call<T>(method: string, input?: unknown): Promise<T>;
}

export async function customSourceCore(
  cleanups: (() => Promise<void> | void)[],
  o: { dataDir?: string; api?: ScriptedDataApi; clock?: JumpClock } = {},
): Promise<CustomSourceCore> {
  const clock = o.clock ?? new JumpClock();
  const api = o.api ?? (await scriptedDataApi());
  if (!o.api) cleanups.push(() => api.close());
  let dataDir = o.dataDir;
  if (!dataDir) {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    dataDir = tmp.dir;
  }
  const lines: string[] = [];
  const line = (msg: string, fields?: Record<string, unknown>) => lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const core = await createMonitorCore({
    shell: 'web',
    dataDir,
    version: 'x',
    clock,
    localService: { kind: 'url', url: api.url },
    autoPoll: false,
    metrics: {},
    logger: { debug: () => undefined, info: line, warn: line, error: line },
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
  });
  cleanups.push(() => core.close());
  await core.start();
  const announced: string[] = [];
  core.onEvent((e) => {
    if (e.type === 'transitions') announced.push(...e.transitions.map((t: Transition) => `${t.messageId}:${t.kind}`));
  });
  const call = async <T>(method: string, input?: unknown): Promise<T> => {
    const r = await core.invoke(method, input);
    if (!r.ok) throw new Error(`${method} failed: ${r.error.kind}: ${r.error.message}`);
    return r.value as T;
  };
  await call('updateSettings', { dataSource: { kind: 'custom', baseUrl: api.url } });
  return { core, api, clock, dataDir, announced, lines, poll: () => call<PollStatus>('pollNow'), call };
}
