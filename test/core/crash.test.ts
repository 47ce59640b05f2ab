import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { openStore } from '../../src/core/store';
import { ScaledClock } from './scaled-clock';
import { GroundTruth } from '../support/ground-truth';
import { tempDir } from './helpers';
import { waitFor } from '../support/wait-for';

const FACTOR = 10; // 10 simulated seconds per real second: a 5 s poll interval is 0.5 s

function startChild(opts: object): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'core-child.ts'), JSON.stringify(opts)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`child did not get ready: ${err}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('READY')) {
        clearTimeout(t);
        resolve(child);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`child exited with ${code}: ${err}`));
    });
  });
}

/** Resolves when the child reports that its `n`th poll cycle from now has just begun. */
const pollCycles = (c: ChildProcess, n: number) =>
  new Promise<void>((resolve) => {
    let seen = 0;
    const on = (d: Buffer) => {
      seen += d.toString().split('POLLING').length - 1;
      if (seen < n) return;
      c.stdout?.off('data', on);
      resolve();
    };
    c.stdout?.on('data', on);
  });

/** The transitions the core has committed so far, read beside the running child (WAL allows it). */
function loggedTransitions(dataDir: string): Set<string> {
  const store = openStore(dataDir);
  try {
    const rows = store.db.prepare('SELECT message_id, kind FROM transitions').all() as { message_id: string; kind: string }[];
    return new Set(rows.map((t) => `${t.message_id}:${t.kind}`));
  } finally {
    store.close();
  }
}

const exited = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

describe('crash safety', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it('kill -9 in the middle of polling, then restarts on the same data dir: nothing lost, nothing repeated', async () => {
    const anchor = Date.now();
    const base = Date.UTC(2026, 0, 1, 12);
    const clock = new ScaledClock(base, anchor, FACTOR);
    const svc = await startLocalService({
      clock,
      seed: 5,
      rate: 2,
      addressCount: 30,
      preload: 150,
      rateLimitPerMinute: { keyed: 100000, anonymous: 100000 },
    });
    const truth = GroundTruth.listen(svc);
    const dataDir = join(tmp.dir, 'data');
    const eventsFile = join(tmp.dir, 'events.txt');
    const notificationsFile = join(tmp.dir, 'notifications.txt');
    const addresses = svc.simulator.addresses.slice(4, 12);
    const opts = {
      dataDir,
      url: svc.url,
      eventsFile,
      notificationsFile,
      addresses,
      clock: { base, anchor, factor: FACTOR },
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    };
    let child: ChildProcess | null = null;
    try {
      svc.simulator.detachClock(); // no traffic while the baselines are taken
      const baselineAt = clock.now();
      child = await startChild(opts);
      svc.simulator.attach(clock);
      let kills = 0;
      // Each run lasts a few poll cycles, and each kill lands as a cycle begins (its requests in flight).
      for (const cycles of [4, 3, 5]) {
        await pollCycles(child, cycles);
        child.kill('SIGKILL');
        await exited(child);
        kills++;
        child = await startChild(opts);
      }
      await pollCycles(child, 4);
      svc.simulator.detachClock(); // traffic stops: the record history is final
      const expected = truth.expected({ baselineAt, watched: new Set(addresses), network: 'mainnet' });
      // Let the core catch up with the final states: every expected transition committed (or time out
      // and let the comparison below name what is missing).
      const caughtUp = () => {
        const logged = loggedTransitions(dataDir);
        return [...expected.keys()].every((k) => logged.has(k));
      };
      await waitFor(caughtUp, 30_000, 'the core to catch up').catch(() => undefined);
      child.kill('SIGTERM');
      await exited(child);
      child = null;
      expect(kills).toBe(3);

      const got = loggedTransitions(dataDir);
      const store = openStore(dataDir);
      const outbox = store.db.prepare('SELECT id, batch, delivered_at FROM outbox').all() as {
        id: number;
        batch: number | null;
        delivered_at: number | null;
      }[];
      store.close();
      expect(expected.size).toBeGreaterThan(30);
      expect([...expected.keys()].filter((k) => !got.has(k))).toEqual([]);
      expect([...got].filter((k) => !expected.has(k))).toEqual([]);
      const events = readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean);
      expect(events.length - new Set(events).size).toBe(0);
      const shown = existsSync(notificationsFile) ? readFileSync(notificationsFile, 'utf8').split('\n').filter(Boolean) : [];
      expect(shown.length - new Set(shown).size).toBe(0);
      // Every notification written was shown (after the last, graceful, stop the outbox is empty).
      expect(outbox.every((o) => o.delivered_at !== null)).toBe(true);
      expect(new Set(outbox.map((o) => String(o.batch)))).toEqual(new Set(shown));
    } finally {
      child?.kill('SIGKILL');
      await svc.close();
    }
  }, 90_000);
});
