// One core of `npm run bench:day`, in its own process so its memory is measured alone, at the app's
// defaults (poll interval, stuck threshold, plan `auto`: unauthenticated without a key, Free with one).
// The parent drives simulated time over IPC: every `tick` sets this process's clock and polls once.
import { statSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { join } from 'node:path';
import { serveParent } from './serve-parent';
import { createBenchCore, type ChildInit } from './bench-core';
import { DATABASE_FILE } from '../src/core/store/database';
import { Database } from '../src/sqlite';
import type { FeedFilter, Transition } from '../src/shared/contract';
import { JumpClock } from './jump-clock';
import { peakRssBytes } from './peak-rss';

type Msg =
  | (ChildInit & { addresses: string[]; routes: FeedFilter[]; apiKey: string | null; retentionDays: number })
  | { type: 'tick'; now: number; sample?: boolean; staleBefore?: number }
  | { type: 'close' }
  | { type: 'inspect'; dataDir: string; cutoff: number };

/** A cached message's latest transaction time (ms), as the bench checks retention by it (store/pruning.ts). */
const LATEST_MS = '1000 * max(coalesce(source_ts, 0), coalesce(destination_ts, 0))';

async function main(): Promise<void> {
  let clock: JumpClock | null = null;
  let core: Awaited<ReturnType<typeof createBenchCore>> | null = null;
  let fresh: Transition[] = [];
  const send = (m: unknown) => process.send?.(m);
  const fileBytes = (dataDir: string, file: string) => {
    try {
      return statSync(join(dataDir, file)).size;
    } catch {
      return 0; // no WAL file at this moment
    }
  };
  const walBytes = (dataDir: string) => fileBytes(dataDir, `${DATABASE_FILE}-wal`);
  const dbBytes = (dataDir: string) => fileBytes(dataDir, DATABASE_FILE) + walBytes(dataDir);
  let dataDir = '';
  /**
   * The cache at an hourly sample, read on a connection of its own: the messages it holds, and the settled
   * ones whose latest transaction is before `staleBefore` (what the last prune had to let go of).
   */
  const cacheCounts = (dir: string, staleBefore: number) => {
    const db = new Database(join(dir, DATABASE_FILE), { readOnly: true });
    try {
      const one = (sql: string, ...args: number[]) => Number((db.prepare(sql).get(...args) as { n: number }).n);
      return {
        cachedMessages: one('SELECT count(*) AS n FROM messages'),
        staleSettled: one(`SELECT count(*) AS n FROM messages WHERE tracked = 0 AND status != 'pending' AND ${LATEST_MS} < ?`, staleBefore),
      };
    } finally {
      db.close();
    }
  };

  serveParent(async (m: Msg) => {
    if (m.type === 'init') {
      dataDir = m.dataDir;
      clock = new JumpClock(m.now);
      // No local source: the service is set as a custom base URL below.
      core = await createBenchCore(m.dataDir, clock, { version: 'bench-day', keychainService: 'tw-bench-day', ...(m.apiKey ? { apiKey: m.apiKey } : {}) });
      core.onEvent((e) => {
        if (e.type === 'transitions') fresh.push(...e.transitions);
      });
      await core.start();
      // The app's defaults (interval, stuck threshold, plan), but the shortest retention, so a day shows it.
      // The service stands in for the Data API as a custom base URL: the key (if any) is sent, as to the public API
      // (the embedded local source never gets the user's key).
      await core.handlers.updateSettings({ dataSource: { kind: 'custom', baseUrl: m.url }, notifications: { enabled: false }, retentionDays: m.retentionDays });
      const notify = { new: true, left_pending: true, receipt_delivered: true, stuck: true };
      for (const address of m.addresses) await core.handlers.addWatch({ address, notify });
      for (const [i, filter] of m.routes.entries()) await core.handlers.addFeed({ name: `route ${i + 1}`, filter, notify });
      // Silent first reads (baselines) before the world moves, several cycles at the same instant if the budget needs them,
      // as bench/core-bench-child.ts does: the truth's baseline time is then the instant they were taken.
      const pending = async () =>
        (await core!.handlers.listWatches(undefined)).some((w) => w.baselinePending) ||
        (await core!.handlers.listFeeds(undefined)).some((f) => f.baselinePending);
      for (let i = 0; i < 20 && (await pending()); i++) await core.handlers.pollNow(undefined);
      if (await pending()) throw new Error('the first reads of the watches did not finish in 20 cycles');
      fresh = [];
      const settings = await core.handlers.getSettings(undefined);
      send({
        type: 'ready',
        settings: { pollIntervalSeconds: settings.pollIntervalSeconds, stuckThresholdMinutes: settings.stuckThresholdMinutes, plan: settings.plan },
      });
    } else if (m.type === 'tick' && clock && core) {
      await clock.set(m.now);
      const status = await core.handlers.pollNow(undefined);
      // The hourly sample after a full collection: a leak is what survives one. Without it the samples
      // swing with how much garbage the heap holds at that moment (its in-use figure 21-31 MB in one run).
      if (m.sample) (globalThis as { gc?: () => void }).gc?.();
      send({
        type: 'polled',
        transitions: fresh.map((t) => ({ id: t.messageId, kind: t.kind, at: t.at })),
        status,
        rss: process.memoryUsage().rss,
        // The JS heap in use: what the core's own structures hold (RSS adds SQLite's cache and the allocator).
        heapUsed: process.memoryUsage().heapUsed,
        // Where the RSS is: V8's heap pages in memory (all spaces, code included) and what V8 counts outside
        // its heap (external: buffers); the rest of the RSS is native (SQLite, the allocator, the runtime).
        ...(m.sample
          ? { v8Resident: getHeapSpaceStatistics().reduce((n, sp) => n + sp.physical_space_size, 0), external: process.memoryUsage().external }
          : {}),
        dbBytes: dbBytes(dataDir),
        walBytes: walBytes(dataDir),
        ...(m.staleBefore !== undefined ? cacheCounts(dataDir, m.staleBefore) : {}),
      });
      fresh = [];
    } else if (m.type === 'close') {
      await core?.close();
      send({ type: 'closed', peakRss: peakRssBytes() });
    } else if (m.type === 'inspect') {
      // After close: what the database still holds that retention should have let go of.
      const db = new Database(join(m.dataDir, DATABASE_FILE));
      const one = (sql: string, ...args: number[]) => Number((db.prepare(sql).get(...args) as { n: number }).n);
      const result = {
        type: 'inspected',
        messages: one('SELECT count(*) AS n FROM messages'),
        tracked: one('SELECT count(*) AS n FROM messages WHERE tracked = 1'),
        // Settled ones go by their latest transaction, pending ones no longer tracked by the last read that met them (store/pruning.ts).
        staleMessages: one(
          `SELECT count(*) AS n FROM messages WHERE tracked = 0 AND CASE WHEN status = 'pending' THEN last_seen_at ELSE ${LATEST_MS} END < ?`,
          m.cutoff,
        ),
        transitions: one('SELECT count(*) AS n FROM transitions'),
        staleTransitions: one('SELECT count(*) AS n FROM transitions WHERE at < ?', m.cutoff),
        dbBytes: dbBytes(m.dataDir),
      };
      db.close();
      send(result);
      process.exit(0);
    }
  });
}

void main();
