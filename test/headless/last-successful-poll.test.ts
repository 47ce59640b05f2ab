/**
 * `teleporter_watch_last_successful_poll_timestamp_seconds` is 0 until a poll cycle has asked the data
 * source and been answered: a data source that fails every request never sets it, not even through
 * the first cycle, which runs before the config's watchlist is synced (and so asks nothing).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessWatcher } from '../../src/headless/watcher';
import { startHeadless } from '../../src/headless/watcher';
import { loadConfigFile } from '../../src/headless/config-file';
import { startLocalService } from '../../src/local-service';
import { waitFor } from '../support/wait-for';
import { baseConfig, tempDir, writeConfig, type Service } from './rig';

const METRIC = /^teleporter_watch_last_successful_poll_timestamp_seconds (\S+)$/m;

async function metric(w: HeadlessWatcher): Promise<number> {
  const text = await (await fetch(w.metrics!.url)).text();
  return Number(METRIC.exec(text)?.[1]);
}

/** Counts failed cycles from the core's poll-status events. */
function failedCycles(w: HeadlessWatcher): () => number {
  let n = 0;
  w.core.onEvent((e) => {
    if (e.type === 'poll-status' && e.status.state !== 'polling' && e.status.lastError) n++;
  });
  return () => n;
}

let broken: Server;
let brokenUrl: string;
let svc: Service;
beforeAll(async () => {
  // A Data API that answers every request with a server error.
  broken = createServer((req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down for maintenance"}'));
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  svc = await startLocalService({ rate: 0, seed: 5 });
});
afterAll(async () => {
  broken.closeAllConnections();
  await new Promise<void>((resolve) => broken.close(() => resolve()));
  await svc.close();
});

describe('last successful poll metric', () => {
  it('stays 0 while every poll fails', async () => {
    const w = await startHeadless({
      loaded: loadConfigFile(writeConfig(tempDir('tw-lastpoll-'), baseConfig(brokenUrl, { pollIntervalSeconds: 5 }))),
      keychainService: `tw-lastpoll-${process.pid}-1`,
    });
    try {
      const failed = failedCycles(w);
      await waitFor(() => failed() >= 2 || undefined, 30_000, 'two failed poll cycles');
      expect(await metric(w)).toBe(0);
      const r = await w.core.invoke('getPollStatus', undefined);
      expect(r.ok && (r.value as { lastSuccessAt: number | null }).lastSuccessAt).toBe(null);
    } finally {
      await w.close();
    }
  }, 60_000);

  it('is set by the first cycle the data source answers', async () => {
    const w = await startHeadless({
      loaded: loadConfigFile(writeConfig(tempDir('tw-lastpoll-'), baseConfig(svc.url, { pollIntervalSeconds: 5 }))),
      keychainService: `tw-lastpoll-${process.pid}-2`,
    });
    try {
      const before = Date.now() / 1000;
      await waitFor(async () => (await metric(w)) > 0 || undefined, 30_000, 'a successful poll');
      expect(await metric(w)).toBeGreaterThan(before - 60);
    } finally {
      await w.close();
    }
  }, 60_000);
});
