import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { get, serve, type Page } from '../local-service/helpers';
import { Database } from '../../src/sqlite';

// Off any round time, so history does not line up with anything by luck.
const START = Date.UTC(2026, 4, 2, 9, 41, 27, 313);

describe('demo history', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dbFile = () => {
    const d = mkdtempSync(join(tmpdir(), 'tw-history-'));
    dirs.push(d);
    return join(d, 'service.sqlite');
  };

  it('fills a fresh store with hours of traffic at its rate: a full first page, all three statuses, some never delivered', async () => {
    const dbPath = dbFile();
    const clock = new ManualClock(START);
    const began = performance.now();
    const s = await serve({ clock, dbPath, rate: 2, seed: 11, history: 2, warmStore: false });
    console.log(`demo history: ${s.store.count()} messages written in ${((performance.now() - began) / 1000).toFixed(2)} s`);
    // Messages whose source transaction is never indexed stay invisible until delivered.
    expect(s.store.count()).toBeGreaterThan(0.95 * 2 * 3600 * 2);
    // Plus the relayers' receipt re-sends (receipts held by an undelivered carrier): a few percent.
    expect(s.store.count()).toBeLessThanOrEqual(2 * 3600 * 2 * 1.05);
    const page = (await get(`${s.url}/v1/teleporter/messages?network=mainnet&pageSize=25`)).json as Page;
    expect(page.messages).toHaveLength(25);
    const info = (await get(`${s.url}/_local/info`)).json as { hotAddresses: string[]; messageCount: number };
    expect(info.messageCount).toBe(s.store.count());
    // The busy addresses have a past too.
    const hot = (await get(`${s.url}/v1/teleporter/addresses/${info.hotAddresses[0]}/messages?network=mainnet&pageSize=100`)).json as Page;
    expect(hot.messages).toHaveLength(100);
    await s.close();

    const db = new Database(dbPath, { readOnly: true });
    try {
      const statuses = db.prepare('SELECT status, COUNT(*) AS n FROM messages GROUP BY status').all() as { status: string; n: number }[];
      expect(statuses.map((r) => r.status).sort()).toEqual(['delivered', 'delivered_source_not_indexed', 'pending']);
      const nowS = Math.floor(START / 1000);
      const undelivered = db
        .prepare("SELECT COUNT(*) AS n FROM messages WHERE status = 'pending' AND json_extract(raw, '$.sourceTransaction.timestamp') < ?")
        .get(nowS - 3600) as { n: number };
      expect(undelivered.n).toBeGreaterThan(0);
      const span = db.prepare("SELECT MIN(json_extract(raw, '$.sourceTransaction.timestamp')) AS oldest FROM messages").get() as { oldest: number };
      expect(nowS - span.oldest).toBeGreaterThan(1.9 * 3600);
      expect(nowS - span.oldest).toBeLessThan(2.1 * 3600);
    } finally {
      db.close();
    }
  });

  it('writes history once and keeps the seed, so the busy addresses survive a restart', async () => {
    const dbPath = dbFile();
    const first = await serve({ clock: new ManualClock(START), dbPath, rate: 1, seed: 5, history: 1, warmStore: false });
    const hot = first.simulator.hotAddresses;
    const count = first.store.count();
    await first.close();
    const again = await serve({ clock: new ManualClock(START + 60_000), dbPath, rate: 0, seed: 9, history: 1, warmStore: false });
    expect(again.simulator.seed).toBe(5);
    expect(again.simulator.hotAddresses).toEqual(hot);
    expect(again.store.count()).toBe(count);
  });

  it('caps history at high rates and writes none without the option', async () => {
    const capped = await serve({ clock: new ManualClock(START), rate: 500, history: 2, warmStore: false });
    expect(capped.store.count()).toBeLessThanOrEqual(20_000);
    expect(capped.store.count()).toBeGreaterThan(0.95 * 20_000);
    const none = await serve({ clock: new ManualClock(START), rate: 2, warmStore: false });
    expect(none.store.count()).toBe(0);
  });
});
