import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../../src/core';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { startLocalService } from '../../../src/local-service';
import type { NotificationPayload } from '../../../src/shared/contract';
import type { RelayerOverview, WatchedRoute } from '../../../src/shared/relayers';
import { waitFor } from '../../support/wait-for';
import { BEAM, C_CHAIN, tempDir } from '../helpers';
import { JumpClock } from '../http-helpers';
import { coreOnService } from '../core-on-service';

interface AmAlert {
  labels: Record<string, string>;
  startsAt: string;
  endsAt: string;
}

interface Posted {
  key: string;
  kind: string;
  title: string;
  watch: string;
  episode?: { key: string; phase: string; startedAt: number };
}

/** The watched relayer's label ('ours', a bidi override, CR LF) as every notification and alert shows it. */
const OURS = 'ours<U+202E><U+000D><U+000A>forged';

/** A JSON webhook receiver on 127.0.0.1: what the core's alert channel posted, in order. */
async function webhookReceiver<T = Posted>(): Promise<{ url: string; posted: T[]; close: () => Promise<void> }> {
  const posted: T[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posted.push(JSON.parse(body) as T);
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posted,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('relayer-silent and route-backlog alerts on the real core and the local service', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('fires each episode once (across a restart) and resolves it once when the pending message is delivered', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const hook = await webhookReceiver();
    cleanups.push(() => hook.close());
    // Stands in for Alertmanager's v2 API: records each pushed alert list.
    const am = await webhookReceiver<AmAlert[]>();
    cleanups.push(() => am.close());
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const shown: NotificationPayload[] = [];
    const keychainService = `tw-test-${randomBytes(4).toString('hex')}`;
    const open = async (): Promise<MonitorCore> => {
      const core = await createMonitorCore({
        shell: 'web',
        dataDir: tmp.dir,
        version: 'x',
        clock,
        localService: { kind: 'url', url: svc.url },
        autoPoll: false,
        keychainService,
        alerts: {
          channels: [
            { type: 'webhook', url: hook.url, format: 'json' },
            { type: 'alertmanager', url: am.url },
          ],
          closeGraceMs: 2_000,
        },
      });
      core.attachNotifier((n) => void shown.push(n));
      await core.start();
      return core;
    };
    let core = await open();
    cleanups.push(() => core.close());
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };

    const route = await call<WatchedRoute>('addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-to-beam', backlogMinutes: 20 });
    // The poller reads the watched route itself; a route never notifies per message, so what is shown below is the relayer alerts alone.
    await call('pollNow');
    for (let i = 0; i < 6; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 });
    await clock.advance(60_000);
    await call('pollNow');
    const seen = await call<RelayerOverview>('relayerOverview');
    const ours = seen.relayers.find((r) => r.deliveries24h > 0)!;
    // Its label carries a bidi override and CR LF: every notification and alert shows them, never acts on them.
    await call('addRelayer', { address: ours.address, label: 'ours\u202E\r\nforged', silentMinutes: 10, pendingMinutes: 5 });

    // One message waits 45 min on the route; nothing else is sent, so the watched relayer falls silent.
    const late = svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
    const relayerShown = () => shown.filter((n) => n.title.includes('Relayer'));
    const routeShown = () => shown.filter((n) => n.title.includes('Route backlog'));
    for (let m = 0; m < 3; m++) {
      await clock.advance(60_000);
      await call('pollNow');
    }
    expect(shown).toHaveLength(0); // 3 min: neither threshold reached

    for (let m = 0; m < 9; m++) {
      await clock.advance(60_000);
      await call('pollNow');
    }
    // 12 min after watching it began: silent 10+ min with a message pending 5+ min.
    expect(relayerShown().map((n) => n.title)).toEqual([`Relayer silent: ${OURS}`]);
    expect(relayerShown()[0]!.body).toMatch(/^ours<U\+202E><U\+000D><U\+000A>forged \(0x/);
    expect(relayerShown()[0]!.transitionIds).toEqual([]);
    expect(routeShown()).toHaveLength(0);

    // A restart on the same data folder continues the open episode: no second fire.
    await core.close();
    core = await open();
    for (let m = 0; m < 12; m++) {
      await clock.advance(60_000);
      await call('pollNow');
    }
    expect(relayerShown()).toHaveLength(1);
    expect(routeShown().map((n) => n.title)).toEqual(['Route backlog: c-to-beam']);
    // It says how it clears (a message never delivered keeps it open) and speaks as a warning.
    expect(routeShown()[0]!.body).toMatch(/This clears when it is delivered, or when the watch stops following it after 7 days pending/);
    expect(routeShown()[0]!.severity).toBe('warning');

    // The late message is delivered: both conditions clear, each resolves once.
    await clock.advance(25 * 60_000);
    await call('pollNow');
    await clock.advance(60_000);
    await call('pollNow');
    const pending = await call<{ messageId: string }[]>('relayerFigureMessages', { routeId: route.id, figure: 'pending' });
    expect(pending.map((s) => s.messageId)).not.toContain(late);
    expect(relayerShown().map((n) => n.title)).toEqual([`Relayer silent: ${OURS}`, `Relayer delivering again: ${OURS}`]);
    expect(routeShown().map((n) => n.title)).toEqual(['Route backlog: c-to-beam', 'Route backlog cleared: c-to-beam']);
    expect(relayerShown().map((n) => n.severity)).toEqual(['warning', 'success']);

    // The webhook got each fire and resolve once, keyed by the episode (key and start) and phase.
    const episodes = await waitFor(() => (hook.posted.length >= 4 ? hook.posted : false), 10_000, 'four episode posts');
    expect(episodes.map((p) => p.kind).sort()).toEqual(['relayer_silent', 'relayer_silent_resolved', 'route_backlog', 'route_backlog_resolved']);
    expect(new Set(episodes.map((p) => p.key)).size).toBe(4);
    expect(episodes.find((p) => p.kind === 'relayer_silent')).toMatchObject({ title: `Relayer silent: ${OURS}`, watch: OURS });
    const fire = episodes.find((p) => p.kind === 'route_backlog')!;
    expect(fire.key).toBe(`route-backlog:mainnet:${C_CHAIN}:${BEAM}@${new Date(fire.episode!.startedAt).toISOString()}:fire`);
    // Its start is read from the records: the late message's source time plus the 20 min threshold.
    const lateRecord = svc.store
      .page({ source: { kind: 'blockchainId', value: C_CHAIN } }, undefined, 1000)
      .records.map((r) => JSON.parse(r) as { messageId: string; sourceTransaction: { timestamp: number } })
      .find((r) => r.messageId === late)!;
    expect(fire.episode!.startedAt).toBe(lateRecord.sourceTransaction.timestamp * 1000 + 20 * 60_000);

    // Alertmanager got TeleporterRelayerSilent and TeleporterRouteBacklog, each resolved by the same labels with endsAt at the resolve.
    const pushed = await waitFor(() => (am.posted.flat().length >= 4 ? am.posted.flat() : false), 10_000, 'four Alertmanager alerts');
    for (const name of ['TeleporterRelayerSilent', 'TeleporterRouteBacklog']) {
      const [fired, resolved] = pushed.filter((a) => a.labels.alertname === name);
      expect(pushed.filter((a) => a.labels.alertname === name)).toHaveLength(2);
      expect(resolved!.labels).toEqual(fired!.labels);
      expect(resolved!.startsAt).toBe(fired!.startsAt);
      expect(Date.parse(fired!.endsAt)).toBeGreaterThan(Date.parse(resolved!.endsAt));
      expect(Date.parse(resolved!.endsAt)).toBeLessThanOrEqual(clock.now());
    }
    expect(pushed.find((a) => a.labels.alertname === 'TeleporterRelayerSilent')!.labels).toMatchObject({
      watch: OURS,
      kind: 'relayer_silent',
      severity: 'warning',
    });

    // More cycles with nothing holding add nothing.
    await clock.advance(5 * 60_000);
    await call('pollNow');
    expect(shown.filter((n) => n.transitionIds.length === 0)).toHaveLength(4);
  });

  it('with notifications off an episode is kept but not announced, and turning them on does not announce it late', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    const shown: NotificationPayload[] = [];
    core.attachNotifier((n) => void shown.push(n));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    await call('updateSettings', { notifications: { enabled: false } });
    await call('addRoute', { source: 'C-Chain', destination: 'Beam', backlogMinutes: 5 });
    await call('pollNow');
    svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 30 * 60_000 });
    await clock.advance(10 * 60_000);
    await call('pollNow');
    await call('updateSettings', { notifications: { enabled: true } });
    await clock.advance(60_000);
    await call('pollNow');
    expect(shown.filter((n) => n.title.startsWith('Route backlog'))).toHaveLength(0);
    // It clears: an episode whose start was never announced is not announced as cleared either.
    await clock.advance(25 * 60_000);
    await call('pollNow');
    expect(await call('relayerFigureMessages', { routeId: (await call<{ id: string }[]>('listRoutes'))[0]!.id, figure: 'pending' })).toEqual([]);
    expect(shown.filter((n) => n.title.startsWith('Route backlog'))).toHaveLength(0);
    // The next episode, with notifications on, is announced as usual.
    svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 30 * 60_000 });
    await clock.advance(10 * 60_000);
    await call('pollNow');
    expect(shown.filter((n) => n.title.startsWith('Route backlog')).map((n) => n.title)).toEqual([expect.stringMatching(/^Route backlog: /)]);
  });

  it('two replicas sharing nothing but the service give each episode the same key and start', async () => {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const hook = await webhookReceiver();
    cleanups.push(() => hook.close());
    const replica = async () => {
      const core = await coreOnService(svc.url, clock, cleanups, {
        alerts: { channels: [{ type: 'webhook', url: hook.url, format: 'json' }], closeGraceMs: 2_000 },
      });
      const call = async (method: string, input?: unknown) => {
        const r = await core.invoke(method, input);
        if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      };
      await call('addRoute', { source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 5 });
      return () => call('pollNow');
    };
    // The second replica starts later and polls at other moments.
    const pollA = await replica();
    await pollA();
    svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 30 * 60_000 });
    await clock.advance(3 * 60_000);
    const pollB = await replica();
    await pollB();
    await clock.advance(4 * 60_000);
    await pollA();
    await clock.advance(90_000);
    await pollB();
    await clock.advance(25 * 60_000);
    await pollB();
    await clock.advance(30_000);
    await pollA();
    const episodes = () => hook.posted.filter((p) => p.episode);
    const posts = await waitFor(() => (episodes().length >= 4 ? episodes() : false), 10_000, 'two fires and two resolves');
    const fires = posts.filter((p) => p.kind === 'route_backlog');
    const resolves = posts.filter((p) => p.kind === 'route_backlog_resolved');
    expect(fires).toHaveLength(2);
    expect(resolves).toHaveLength(2);
    // Receivers merge them: one key per phase.
    expect(new Set(fires.map((p) => p.key)).size).toBe(1);
    expect(new Set(resolves.map((p) => p.key)).size).toBe(1);
  });
});
