import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MonitorEvent, PollStatus } from '../../src/shared/contract';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { createMonitorCore } from '../../src/core';
import { LOCAL_SOURCE_KEY_TEST } from '../../src/core/handlers/key-handlers';
import type { MonitorCore } from '../../src/core/monitor-core';
import { JumpClock } from './http-helpers';
import { tempDir } from './helpers';
import { waitFor } from '../support/wait-for';

const uniqueService = () => `tw-test-${randomBytes(4).toString('hex')}`;
type Running = SimulatedService;

describe('MonitorCore facade', () => {
  let tmp: ReturnType<typeof tempDir>;
  let svc: Running | null = null;
  let core: MonitorCore | null = null;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(async () => {
    await core?.close();
    await svc?.close();
    core = null;
    svc = null;
    tmp.cleanup();
  });

  async function start(opts: { requireKey?: string; autoPoll?: boolean; clock?: JumpClock; url?: string } = {}) {
    const clock = opts.clock ?? new JumpClock();
    if (!opts.url) {
      svc = await startLocalService({
        clock,
        rate: 3,
        addressCount: 20,
        preload: 100,
        ...(opts.requireKey ? { apiKeys: [opts.requireKey], requireKey: true } : {}),
      });
    }
    core = await createMonitorCore({
      dataDir: tmp.dir,
      shell: 'web',
      version: '1.2.3',
      clock,
      localService: { kind: 'url', url: opts.url ?? svc!.url },
      autoPoll: opts.autoPoll ?? false,
      keychainService: uniqueService(),
    });
    const events: MonitorEvent[] = [];
    core.onEvent((e) => events.push(e));
    await core.start();
    return { clock, events, core };
  }

  it('validates every input and answers with error values, never throwing', async () => {
    const { core } = await start();
    expect(await core.invoke('nope', {})).toEqual({ ok: false, error: { kind: 'invalid_input', message: 'Unknown method "nope".' } });
    const bad = await core.invoke('addWatch', { address: '0x1234' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatchObject({ kind: 'invalid_input', field: 'address' });
    const extra = await core.invoke('getStats', { hours: 2, sneaky: 1 });
    expect(!extra.ok && extra.error.message).toMatch(/Unknown field/);
    const settings = await core.invoke('updateSettings', { pollIntervalSeconds: 1 });
    expect(!settings.ok && settings.error).toMatchObject({ kind: 'invalid_input', field: 'pollIntervalSeconds' });
    const missing = await core.invoke('removeWatch', { address: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf' });
    expect(!missing.ok && missing.error.kind).toBe('not_found');
    const link = await core.invoke('openExternal', { url: 'https://evil.example/tx/1' });
    expect(!link.ok && link.error.kind).toBe('invalid_input');
    const webShell = await core.invoke('openExternal', { url: 'https://snowtrace.io/tx/0x1' });
    expect(!webShell.ok && webShell.error.message).toMatch(/open the link in the browser/);
    const info = await core.invoke('getAppInfo', undefined);
    expect(info.ok && info.value).toMatchObject({ version: '1.2.3', shell: 'web', dataSource: { kind: 'local', simulated: true } });
  });

  it('keeps the watchlist, feeds and settings across a restart and browses both operations', async () => {
    const { core: c1, events } = await start();
    const who = svc!.simulator.addresses[2]!;
    const added = await c1.invoke('addWatch', { address: who.toLowerCase(), label: 'treasury' });
    expect(added.ok && added.value).toMatchObject({ address: who, label: 'treasury', baselinePending: true });
    const dup = await c1.invoke('addWatch', { address: who });
    expect(!dup.ok && dup.error.field).toBe('address');
    const feed = await c1.invoke('addFeed', { name: 'C to Beam', filter: { sourceBlockchainId: '43114', destinationBlockchainId: '4337' } });
    expect(feed.ok).toBe(true);
    await c1.invoke('updateSettings', { pollIntervalSeconds: 15, notifications: { new: true } });
    expect(events.some((e) => e.type === 'watchlist-changed')).toBe(true);
    expect(events.some((e) => e.type === 'settings-changed')).toBe(true);
    const page = await c1.invoke('browseAddressMessages', { address: who, pageSize: 5 });
    expect(page.ok && (page.value as { messages: unknown[] }).messages.length).toBe(5);
    const list = await c1.invoke('browseMessages', { sourceBlockchainId: '43114', pageSize: 3 });
    expect(list.ok && (list.value as { messages: { sourceEvmChainId: string }[] }).messages.every((m) => m.sourceEvmChainId === '43114')).toBe(true);
    const token = list.ok ? (list.value as { nextPageToken?: string }).nextPageToken : undefined;
    expect(token).toBeTruthy();
    const next = await c1.invoke('browseMessages', { sourceBlockchainId: '43114', pageSize: 3, pageToken: token });
    expect(next.ok).toBe(true);
    await c1.close();
    core = await createMonitorCore({ dataDir: tmp.dir, shell: 'web', version: 'x', localService: { kind: 'url', url: svc!.url }, autoPoll: false });
    await core.start();
    const watches = await core.invoke('listWatches', undefined);
    expect(watches.ok && (watches.value as { label: string }[]).map((w) => w.label)).toEqual(['treasury']);
    const feeds = await core.invoke('listFeeds', undefined);
    expect(feeds.ok && (feeds.value as { name: string }[]).map((f) => f.name)).toEqual(['C to Beam']);
    const s = await core.invoke('getSettings', undefined);
    expect(s.ok && s.value).toMatchObject({ pollIntervalSeconds: 15, notifications: { new: true, enabled: true } });
  });

  it('never lets the API key reach the database file, the logs or the events', async () => {
    const key = `svc-key-${randomBytes(12).toString('hex')}`;
    const { core: c, events, clock } = await start({ requireKey: key });
    // A keyed endpoint is a custom data source: the embedded demo service is never sent the user's key.
    await c.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: svc!.url } });
    for (const a of svc!.simulator.addresses.slice(0, 4)) await c.invoke('addWatch', { address: a, notify: { new: true } });
    const before = (await c.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
    expect(before.value.lastError?.kind).toBe('unauthorized');
    const st = await c.invoke('setApiKey', { key });
    expect(st.ok && st.value).toMatchObject({ hasApiKey: true });
    const test = await c.invoke('testApiKey', undefined);
    expect(test.ok && test.value).toMatchObject({ ok: true });
    const wrong = await c.invoke('testApiKey', { key: `${key}-wrong` });
    expect(wrong.ok && (wrong.value as { ok: boolean }).ok).toBe(false);
    for (let i = 0; i < 6; i++) {
      await clock.advance(15_000);
      const r = (await c.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
      expect(r.value.lastError).toBeNull();
    }
    const transitions = await c.invoke('listTransitions', {});
    expect(transitions.ok && (transitions.value as { items: unknown[] }).items.length).toBeGreaterThan(0);
    await c.invoke('deleteApiKey', undefined);
    await c.close();
    core = null;
    const files = readdirSync(tmp.dir, { recursive: true }) as string[];
    expect(files).toContain('monitor.sqlite');
    for (const f of files) {
      const path = join(tmp.dir, f);
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue; // a directory
      }
      expect(bytes.includes(Buffer.from(key)), `${f} holds the key`).toBe(false);
    }
    expect(readFileSync(join(tmp.dir, 'logs', 'core.log'), 'utf8')).toMatch(/API key set/);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(events.some((e) => e.type === 'api-key-changed')).toBe(true);
  });

  it('keeps the user key away from the embedded demo service, which does not know it', async () => {
    // The service knows one key and refuses any other; keyless requests are allowed.
    const { core: c, clock } = await start({ requireKey: undefined });
    await svc!.close();
    svc = await startLocalService({ clock, rate: 3, addressCount: 20, preload: 50, apiKeys: ['service-own-key-1'] });
    await c.close();
    core = await createMonitorCore({
      dataDir: tmp.dir,
      shell: 'web',
      version: 'x',
      clock,
      localService: { kind: 'url', url: svc.url },
      autoPoll: false,
      keychainService: uniqueService(),
    });
    await core.start();
    await core.invoke('setApiKey', { key: 'avalanche-key-of-the-user' });
    await core.invoke('addWatch', { address: svc.simulator.addresses[0]! });
    const polled = (await core.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
    expect(polled.value.lastError).toBeNull();
    // Testing a key against the embedded service sends nothing: it needs no key, so there is nothing to test.
    const before = svc.requestCount();
    const tested = await core.invoke('testApiKey', undefined);
    expect(tested.ok && tested.value).toEqual({ ok: false, message: LOCAL_SOURCE_KEY_TEST });
    const candidate = await core.invoke('testApiKey', { key: 'candidate-key-never-sent' });
    expect(candidate.ok && candidate.value).toEqual({ ok: false, message: LOCAL_SOURCE_KEY_TEST });
    expect(svc.requestCount()).toBe(before);
    await core.invoke('deleteApiKey', undefined);
  });

  it('polls only the address operation for a couple of addresses', async () => {
    const { core, clock } = await start();
    const seen: string[] = [];
    const addrs = svc!.simulator.addresses.slice(3, 5);
    for (const a of addrs) await core.invoke('addWatch', { address: a });
    await core.invoke('pollNow', undefined);
    const before = svc!.requestCount();
    for (let i = 0; i < 5; i++) {
      await clock.advance(30_000);
      const r = (await core.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
      seen.push(r.value.state);
    }
    expect(seen.every((s) => s === 'idle')).toBe(true);
    // One request per address per cycle (a busy minute may need a second page).
    const used = svc!.requestCount() - before;
    expect(used).toBeGreaterThanOrEqual(10);
    expect(used).toBeLessThanOrEqual(14);
  });

  it('ends a manual poll (autoPoll off, poller never started) in a settled state, not "polling"', async () => {
    // The tray's "Poll now" stays disabled while the last poll-status says 'polling'.
    const { core, events } = await start({ autoPoll: false });
    await core.invoke('addWatch', { address: svc!.simulator.addresses[2]! });
    await core.handlers.pollNow(undefined);
    events.length = 0;
    const polled = (await core.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
    expect(polled.value.state).toBe('idle');
    expect(polled.value.nextRunAt).toBeNull(); // nothing is scheduled without start()
    const states = events.flatMap((e) => (e.type === 'poll-status' ? [e.status.state] : []));
    expect(states[0]).toBe('polling');
    expect(states.at(-1)).toBe('idle');
    const now = (await core.invoke('getPollStatus', undefined)) as { ok: true; value: PollStatus };
    expect(now.value.state).toBe('idle');
  });

  it('goes offline when the service disappears and resumes by itself when it is back', async () => {
    const clock = new JumpClock();
    const dbDir = tempDir('tw-svcdb-');
    svc = await startLocalService({ clock, rate: 2, addressCount: 10, dbPath: join(dbDir.dir, 's.sqlite') });
    const port = svc.port;
    const { core, events } = await start({ clock, url: svc.url, autoPoll: true });
    await core.invoke('addWatch', { address: svc.simulator.addresses[1]! });
    // Simulated time moves a second per look, so retries and backoff come round without real waiting.
    const statusWhere = (pred: (s: PollStatus) => boolean) =>
      waitFor(
        async () => {
          const hit = events.find((e) => e.type === 'poll-status' && pred(e.status));
          if (!hit) await clock.advance(1_000);
          return hit;
        },
        30_000,
        'such a poll status',
      );
    await statusWhere((s) => s.state === 'idle' && s.lastSuccessAt !== null);
    await svc.close();
    events.length = 0;
    const offline = await statusWhere((s) => s.state === 'offline');
    expect(offline.type === 'poll-status' && offline.status.lastError?.kind).toBe('network');
    svc = await startLocalService({ clock, rate: 2, addressCount: 10, port, dbPath: join(dbDir.dir, 's.sqlite') });
    events.length = 0;
    await statusWhere((s) => s.state === 'idle' && s.lastError === null);
    dbDir.cleanup();
  });

  it("plans within the server's announced rate limit instead of running into 429s", async () => {
    const clock = new JumpClock();
    const log: { at: number; status: number }[] = [];
    svc = await startLocalService({
      clock,
      rate: 2,
      addressCount: 10,
      preload: 50,
      rateLimitPerMinute: { keyed: 100, anonymous: 8 },
      logRequests: true,
      log: (line) => log.push({ at: clock.now(), status: Number(line.split(' ')[2]) }),
    });
    const { core } = await start({ clock, url: svc.url });
    await core.invoke('updateSettings', { plan: { cuPerMinute: 20_000, cuPerDay: 20_000_000 } }); // more than the server allows
    for (const a of svc.simulator.addresses.slice(0, 2)) await core.invoke('addWatch', { address: a });
    const states: string[] = [];
    for (let i = 0; i < 24; i++) {
      const r = (await core.invoke('pollNow', undefined)) as { ok: true; value: PollStatus };
      states.push(r.value.state);
      expect(r.value.budgetPerMinute).toBe(8); // narrowed by the ratelimit-limit header
      await clock.advance(5_000);
    }
    const limited = log.filter((l) => l.status === 429);
    // It plans within the announced limit instead of running into 429s, reports why it waits, and keeps going.
    expect(limited.length).toBeLessThanOrEqual(1);
    expect(states).toContain('rate_limited');
    expect(states.lastIndexOf('idle')).toBeGreaterThan(states.indexOf('rate_limited')); // and resumes
    expect(log.length).toBeGreaterThanOrEqual(14);
    for (const l of log) expect(log.filter((x) => x.status !== 429 && x.at > l.at - 60_000 && x.at <= l.at).length).toBeLessThanOrEqual(8);
  });
});
