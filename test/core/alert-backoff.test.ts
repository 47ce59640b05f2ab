/**
 * Issue 41: a dead webhook was asked about 5 times a second (332 failed deliveries in 65 s): each
 * waiting alert kept its own retry time, so the rows behind a failed one were due at once. Now a
 * channel backs off as a whole, and still delivers every alert once, in order, across a restart.
 * Real SQLite, real HTTP on 127.0.0.1, the dispatcher on a ManualClock the test moves.
 */
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertDispatcher, type DeliveryReport } from '../../src/core/alerts/dispatcher';
import { createLogger } from '../../src/core/log/logger';
import { openStore, type Store } from '../../src/core/store';
import type { AlertChannelConfig } from '../../src/shared/alert-schemas';
import { ManualClock } from '../../src/shared/clock';
import { ALERT_RETRY_BASE_MS, ALERT_RETRY_MAX_MS } from '../../src/shared/policy';
import { freePort } from '../headless/engines';
import { scriptedServer } from './http-helpers';
import { tempDir } from './helpers';
import { logNewTransition } from './store/store-rig';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function rig() {
  const tmp = tempDir('tw-backoff-');
  const clock = new ManualClock();
  let store: Store = openStore(tmp.dir);
  const dispatchers: AlertDispatcher[] = [];
  cleanups.push(() => {
    for (const d of dispatchers) void d.close(0);
    if (store.db.open) store.close();
    tmp.cleanup();
  });
  let n = 0;
  return {
    clock,
    store: () => store,
    /** Writes `count` outbox rows (each a `new` transition), as the engine does; their message IDs in order. */
    alerts(count: number): string[] {
      return Array.from({ length: count }, () => {
        const messageId = String(++n).padStart(64, 'a');
        const id = logNewTransition(store, messageId, clock.now(), [{ kind: 'address', address: '0xabc' }]);
        store.outbox.add({ transitionId: id, messageId, title: 'New message', body: 'b', createdAt: clock.now() });
        return messageId;
      });
    },
    dispatcher(channels: AlertChannelConfig[], extra: { lookup?: LookupFunction; onResult?: (r: DeliveryReport) => void } = {}): AlertDispatcher {
      const d = new AlertDispatcher(store.db, clock, createLogger(), {
        channels,
        messageLink: (id) => `https://x.invalid/${id}`,
        random: () => 0.5,
        ...extra,
      });
      dispatchers.push(d);
      return d;
    },
    /** A restart: the dispatcher stops, the database is opened again. */
    async reopen(d: AlertDispatcher): Promise<void> {
      await d.close(0);
      store.close();
      store = openStore(tmp.dir);
    },
  };
}

/**
 * Moves the clock `ms` forward in steps, letting the dispatcher finish what each step started. Every
 * step also asks it to drain, as each poll cycle does: a waiting channel must not be asked again.
 */
async function run(clock: ManualClock, d: AlertDispatcher, ms: number, stepMs = 250): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) {
    await clock.advance(stepMs);
    await d.drain();
  }
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] as number));

describe('alert channel backoff', () => {
  it('a webhook answering 500 is asked a handful of times in 65 s, not per alert: the waits grow, with jitter, up to the cap', async () => {
    const r = rig();
    const hook = await scriptedServer(r.clock, () => ({ status: 500, body: 'receiver broken' }));
    cleanups.push(hook.close);
    const d = r.dispatcher([{ type: 'webhook', name: 'dead', url: `${hook.url}/hook`, format: 'json' }]);
    r.alerts(20);
    const start = r.clock.now();
    await d.drain();
    await run(r.clock, d, 65_000);
    // With the jitter's draw fixed at 0.5: tries at 0, 3, 8, 17 and 34 s (the next at 67 s).
    const times = hook.requests.map((q) => q.at - start);
    expect(times.length).toBeLessThanOrEqual(6);
    expect(times[0]).toBe(0);
    for (const [i, g] of gaps(times).entries()) {
      expect(g).toBeGreaterThanOrEqual(ALERT_RETRY_BASE_MS);
      if (i > 0) expect(g).toBeGreaterThan(gaps(times)[i - 1] as number);
    }
    // Every try was for the oldest alert: the rest wait with it.
    expect(new Set(hook.requests.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    const [state] = d.states();
    expect(state).toMatchObject({ name: 'webhook dead', pending: 20, failures: times.length, failingSince: start });
    expect(state?.nextAttemptAt).toBeGreaterThan(r.clock.now());
    expect(state?.lastError).toMatch(/answered HTTP 500: receiver broken/);

    // Half an hour on, it is asked every few minutes at most, and never less often than the cap.
    await run(r.clock, d, 30 * 60_000, 1000);
    const later = gaps(hook.requests.map((q) => q.at));
    expect(hook.requests.length).toBeLessThan(25);
    expect(Math.max(...later)).toBeLessThanOrEqual(ALERT_RETRY_MAX_MS + 1000);
    expect(later.at(-1)).toBeGreaterThanOrEqual(ALERT_RETRY_MAX_MS / 2);
  });

  it('a dead channel holds back only itself: the other gets every alert at once, in order', async () => {
    const r = rig();
    const live = await scriptedServer(r.clock, () => ({ status: 200, body: 'ok' }));
    cleanups.push(live.close);
    // A receiver that drops every connection, and one whose port nobody listens on.
    const dropping = await scriptedServer(r.clock, () => 'reset');
    cleanups.push(dropping.close);
    const closedPort = await freePort();
    const reports: DeliveryReport[] = [];
    const d = r.dispatcher(
      [
        { type: 'webhook', name: 'live', url: `${live.url}/hook`, format: 'json' },
        { type: 'webhook', name: 'dropping', url: `${dropping.url}/hook`, format: 'json', timeoutSeconds: 1 },
        { type: 'webhook', name: 'gone', url: `http://127.0.0.1:${closedPort}/hook`, format: 'json', timeoutSeconds: 1 },
      ],
      { onResult: (x) => reports.push(x) },
    );
    const ids = r.alerts(10);
    await d.drain();
    await run(r.clock, d, 20_000);
    expect(live.requests.map((q) => q.headers['idempotency-key'])).toEqual(ids.map((id) => `${id}:new`));
    // 0, 3, 8 and 17 s: four tries each, every one reported, all for the oldest alert.
    expect(dropping.requests.length).toBeLessThanOrEqual(5);
    expect(new Set(dropping.requests.map((q) => q.headers['idempotency-key']))).toEqual(new Set([`${ids[0]}:new`]));
    const gone = reports.filter((x) => x.channel === 'webhook gone');
    expect(gone.length).toBeLessThanOrEqual(5);
    expect(gone.every((x) => x.outcome === 'failed' && x.reason === 'ECONNREFUSED' && x.pending === 10)).toBe(true);
    const states = d.states();
    expect(states.find((s) => s.name === 'webhook live')).toMatchObject({ pending: 0, failures: 0, failingSince: null, nextAttemptAt: null });
    expect(states.find((s) => s.name === 'webhook dropping')).toMatchObject({ pending: 10, failures: dropping.requests.length });
    expect(states.find((s) => s.name === 'webhook gone')).toMatchObject({ pending: 10, failures: gone.length });
    expect(states.find((s) => s.name === 'webhook gone')?.lastError).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('loses nothing: alerts written while the receiver is down, before and after a restart, arrive once each and in order when it is back', async () => {
    const r = rig();
    let up = false;
    const hook = await scriptedServer(r.clock, () => (up ? { status: 200, body: 'ok' } : { status: 503, body: 'down' }));
    cleanups.push(hook.close);
    const channel: AlertChannelConfig = { type: 'webhook', name: 'ops', url: `${hook.url}/hook`, format: 'json' };
    let d = r.dispatcher([channel]);
    const ids = r.alerts(3);
    await d.drain();
    await run(r.clock, d, 10_000);
    ids.push(...r.alerts(2));
    await run(r.clock, d, 10_000);
    await r.reopen(d);
    ids.push(...r.alerts(2));
    d = r.dispatcher([channel]);
    await d.drain();
    await run(r.clock, d, 5_000);
    up = true;
    await run(r.clock, d, 60_000);
    const delivered = hook.requests.map((q) => q.headers['idempotency-key'] as string);
    // Each failed try was for the oldest alert; once it is back, every alert once, oldest first.
    const firstOk = delivered.lastIndexOf(`${ids[0]}:new`);
    expect(delivered.slice(0, firstOk).every((k) => k === `${ids[0]}:new`)).toBe(true);
    expect(delivered.slice(firstOk)).toEqual(ids.map((id) => `${id}:new`));
    expect(d.pending()).toBe(0);
    expect(d.states()[0]).toMatchObject({ failures: 0, failingSince: null });
  });

  it('refuses a receiver whose name resolves to a link-local or metadata address (DNS rebinding), and one written as such an address, with no request', async () => {
    const r = rig();
    const hook = await scriptedServer(r.clock, () => ({ status: 200, body: 'ok' }));
    cleanups.push(hook.close);
    const port = new URL(hook.url).port;
    // The test's own resolver: one name is this machine, the other was pointed at the metadata service.
    const lookup: LookupFunction = (hostname, options, callback) => {
      const address = hostname === 'hook.test' ? '127.0.0.1' : hostname === 'rebound.test' ? '169.254.169.254' : null;
      if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
      if (options.all) return callback(null, [{ address, family: 4 }]);
      callback(null, address, 4);
    };
    const d = r.dispatcher(
      [
        { type: 'webhook', name: 'good', url: `http://hook.test:${port}/ok`, format: 'json' },
        { type: 'webhook', name: 'rebound', url: `http://rebound.test:${port}/meta`, format: 'json' },
        // Saved before such URLs were refused (stored settings are read as they are).
        { type: 'alertmanager', name: 'old', url: 'http://[::ffff:169.254.169.254]:9093' },
      ],
      { lookup },
    );
    r.alerts(1);
    await d.drain();
    await run(r.clock, d, 1_000);
    expect(hook.requests.map((q) => q.url.pathname)).toEqual(['/ok']);
    const states = d.states();
    expect(states.find((s) => s.name === 'webhook good')).toMatchObject({ pending: 0, failures: 0 });
    expect(states.find((s) => s.name === 'webhook rebound')?.lastError).toBe(
      'rebound.test resolves to 169.254.169.254, a link-local address, where cloud metadata services answer: refused, as such addresses can hand out a cloud machine\'s credentials. To send there anyway, tick "Allow link-local and metadata addresses" under Settings → Alert channels.',
    );
    expect(states.find((s) => s.name === 'alertmanager old')?.lastError).toMatch(
      /^Alertmanager url points at \[::ffff:a9fe:a9fe\], a link-local address.*refused/,
    );
  });
});
