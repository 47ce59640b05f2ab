/**
 * One identity per route on your own nodes (issue 41): the devnet's two chains (EVM chain IDs 99901 and
 * 99902, named Alpha and Beta in Settings), a real core spawning the local service over them. A route
 * watched by its cb58 blockchain IDs is the same route by EVM chain IDs, 0x IDs or the chains'
 * configured names: a second watch is refused naming the first, and each delivery counts once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/core/store';
import { loadConfigFile } from '../../src/headless/config-file';
import { startHeadless } from '../../src/headless/watcher';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { writeConfig } from '../headless/rig';
import { Database } from '../../src/sqlite';
import type { NotificationPayload } from '../../src/shared/contract';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { AppInfo } from '../../src/shared/contract';
import type { ErrorInfo } from '../../src/shared/errors';
import type { RelayerOverview, WatchedRoute } from '../../src/shared/relayers';
import { JumpClock } from '../core/http-helpers';
import { tempDir } from '../core/helpers';
import { waitFor } from '../support/wait-for';
import { startTestChains, type TestChain } from './chains';
import { sendMessage, TestRelayer } from './relayer';
import { chainConfig, coreSpawningService } from './rig';

let a: TestChain, b: TestChain;
let core: MonitorCore;
let relayer: TestRelayer;
const tmp = tempDir('tw-own-route-id-');
const clock = new JumpClock(Date.now());

beforeAll(async () => {
  [a, b] = await startTestChains(99901, 99902);
  relayer = new TestRelayer([a, b]);
  core = await coreSpawningService(tmp.dir, { clock, metrics: {} });
  const saved = await core.invoke('updateSettings', {
    network: 'fuji',
    dataSource: {
      kind: 'ownNodes',
      ownNodes: { chains: [chainConfig(a, { name: 'Alpha' }), chainConfig(b, { name: 'Beta' })], confirmations: 0, pollIntervalMs: 200 },
    },
  });
  expect(saved.ok).toBe(true);
  await core.start();
  await waitFor(
    async () => {
      const r = await core.invoke('getAppInfo', undefined);
      return r.ok && (r.value as AppInfo).dataSource.baseUrl ? true : undefined;
    },
    30_000,
    'the local service to listen',
  );
}, 120_000);
afterAll(async () => {
  await core?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  tmp.cleanup();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  const r = await core.invoke(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as T;
}

/** `teleporter_watch_relayer_deliveries_total` summed by its `route` label. */
async function deliveriesByRoute(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const m of (await core.metrics!.registry.metrics()).matchAll(/^teleporter_watch_relayer_deliveries_total\{(.*)\} (\d+)$/gm)) {
    const route = /route="([^"]*)"/.exec(m[1]!)![1]!;
    out[route] = (out[route] ?? 0) + Number(m[2]);
  }
  return out;
}

/** A poll cycle at the chains' time (block timestamps follow the wall clock; the core's clock moves only when told). */
async function pollAtChainTime(): Promise<RelayerOverview> {
  const behind = Date.now() + 2_000 - clock.now();
  if (behind > 0) await clock.advance(behind);
  await call('pollNow');
  return call<RelayerOverview>('relayerOverview');
}

describe('one identity per route on own nodes', () => {
  it('refuses the route watched again by EVM chain IDs, 0x IDs or names, and counts each delivery once', { timeout: 120_000 }, async () => {
    const first = await call<WatchedRoute>('addRoute', { source: a.blockchainId, destination: b.blockchainId, label: 'a-to-b', backlogMinutes: 20 });
    const again = [
      { source: '99901', destination: '99902' },
      { source: a.blockchainIdHex, destination: `0x${b.blockchainIdHex.slice(2).toUpperCase()}` },
      { source: 'alpha', destination: 'Beta' },
    ];
    const answers = [];
    for (const input of again) answers.push(await core.invoke('addRoute', input));

    const sent = [await sendMessage(a, b), await sendMessage(a, b)];
    await relayer.deliverAll();
    const o = await waitFor(
      async () => {
        const x = await pollAtChainTime();
        return x.routes.every((r) => r.deliveries24h === sent.length) ? x : undefined;
      },
      60_000,
      'both deliveries in the figures',
    );
    const relayerAddress = b.wallet('relayer').account.address;
    expect({
      routes: o.routes.map((r) => ({ id: r.route.id, deliveries: r.deliveries24h, top: r.topRelayers.map((t) => t.deliveries) })),
      relayer: o.relayers.filter((r) => r.address === relayerAddress).map((r) => ({ deliveries: r.deliveries24h, routes: r.routes.length })),
      metrics: await deliveriesByRoute(),
    }).toEqual({
      routes: [{ id: first.id, deliveries: 2, top: [2] }],
      relayer: [{ deliveries: 2, routes: 1 }],
      metrics: { 'a-to-b': 2 },
    });
    for (const r of answers)
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input', field: 'destination', message: 'This route is already watched as "a-to-b" (Alpha → Beta).' },
      });
  });

  it(
    'takes your own chains by their configured names and shows the route by them; an unknown chain is refused naming the field',
    { timeout: 120_000 },
    async () => {
      const shown: NotificationPayload[] = [];
      core.attachNotifier((n) => void shown.push(n));
      const route = await call<WatchedRoute>('addRoute', { source: ' beta ', destination: 'ALPHA', backlogMinutes: 1 });
      expect(route).toMatchObject({ sourceChain: b.blockchainId, destinationChain: a.blockchainId, label: '' });
      const refused = async (input: object) => ((await core.invoke('addRoute', input)) as { ok: false; error: ErrorInfo }).error;
      expect(await refused({ source: '12345', destination: 'Alpha' })).toMatchObject({
        field: 'source',
        message: expect.stringMatching(
          /^Source chain: no chain the app knows has EVM chain ID 12345 \(it knows Alpha, Beta, C-Chain, .*\)\. Enter the chain's cb58 or 0x blockchain ID instead\.$/,
        ),
      });
      expect(await refused({ source: 'Alpha', destination: 'Gamma' })).toMatchObject({
        field: 'destination',
        message: expect.stringMatching(/^Destination chain: "Gamma" is not a known chain \(Alpha, Beta, C-Chain, /),
      });
      expect(await refused({ source: 'Beta', destination: String(b.chainId) })).toMatchObject({
        field: 'destination',
        message: expect.stringMatching(/different destination chain/),
      });

      // A message waits on it past its 1 minute: the backlog alert and the metric name the route by your chains' names.
      await sendMessage(b, a);
      await pollAtChainTime();
      await clock.advance(2 * 60_000);
      await waitFor(
        async () => {
          await pollAtChainTime();
          return shown.some((n) => n.title === 'Route backlog: Beta → Alpha') ? true : undefined;
        },
        30_000,
        'the backlog alert',
      );
      expect(shown.find((n) => n.title === 'Route backlog: Beta → Alpha')?.body).toMatch(/^The oldest pending message on Beta → Alpha is older than 1 min/);
      expect(await core.metrics!.registry.metrics()).toMatch(/^teleporter_watch_route_pending_messages\{route="Beta → Alpha"\} 1$/m);
      await relayer.deliverAll();
      await waitFor(
        async () => {
          await pollAtChainTime();
          return shown.some((n) => n.title === 'Route backlog cleared: Beta → Alpha') ? true : undefined;
        },
        30_000,
        'the backlog to clear',
      );
    },
  );

  it(
    'an upgrade keys routes stored by EVM chain IDs by their blockchain IDs and merges a route watched twice into its older watch',
    { timeout: 60_000 },
    async () => {
      const before = await call<WatchedRoute[]>('listRoutes');
      const [aToB, bToA] = [before.find((r) => r.label === 'a-to-b')!, before.find((r) => r.sourceChain === b.blockchainId)!];
      await core.close();
      // As an earlier version stored them: EVM chain IDs kept as given, `testnet` for Fuji; an open backlog episode of the older one.
      const db = new Database(join(tmp.dir, DATABASE_FILE));
      const insert = db.prepare(
        `INSERT INTO route_watches (id, label, network, source_chain, destination_chain, backlog_minutes, alert, created_at) VALUES (?, ?, 'testnet', ?, ?, ?, 1, ?)`,
      );
      insert.run('old-b2a', 'legacy', '99902', '99901', 9, 1);
      insert.run('new-a2b', '', '99901', '99902', 45, aToB.createdAt + 1);
      db.prepare(
        `INSERT INTO relayer_episodes (key, kind, network, subject, source_chain, destination_chain, started_at, opened_at, announced)
       VALUES ('route-backlog:fuji:99902:99901', 'route_backlog', 'testnet', 'legacy', '99902', '99901', 5, 5, 1)`,
      ).run();
      db.close();

      core = await coreSpawningService(tmp.dir, { clock });
      const after = await call<WatchedRoute[]>('listRoutes');
      expect(after.map((r) => ({ id: r.id, label: r.label, from: r.sourceChain, to: r.destinationChain, backlog: r.backlogMinutes }))).toEqual([
        { id: 'old-b2a', label: 'legacy', from: b.blockchainId, to: a.blockchainId, backlog: 9 },
        { id: aToB.id, label: 'a-to-b', from: a.blockchainId, to: b.blockchainId, backlog: 20 },
      ]);
      expect(after.map((r) => r.id)).not.toContain(bToA.id);
      const episodes = new Database(join(tmp.dir, DATABASE_FILE), { readOnly: true });
      const keys = episodes.prepare(`SELECT key FROM relayer_episodes WHERE resolved_at IS NULL AND kind = 'route_backlog'`).pluck().all();
      episodes.close();
      expect(keys).toContain(`route-backlog:fuji:${b.blockchainId}:${a.blockchainId}`);
      expect(keys).not.toContain('route-backlog:fuji:99902:99901');
    },
  );

  it('the headless watcher refuses to start with one route listed twice once its nodes tell their EVM chain IDs', { timeout: 60_000 }, async () => {
    // The file cannot tell: its chains do not say their EVM chain IDs, which the watcher learns from the nodes at start.
    const dir = tempDir('tw-own-route-id-headless-');
    const file = writeConfig(dir.dir, {
      dataDir: './data',
      dataSource: { ownNodes: { chains: [chainConfig(a, { name: 'Alpha' }), chainConfig(b, { name: 'Beta' })], confirmations: 0, pollIntervalMs: 200 } },
      network: 'fuji',
      routes: [
        { source: 'Alpha', destination: 'Beta' },
        { source: '99901', destination: '99902', label: 'again' },
      ],
    });
    try {
      await expect(
        startHeadless({
          loaded: loadConfigFile(file),
          logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
          localService: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
          keychainService: `tw-own-route-id-${process.pid}`,
          autoPoll: false,
        }),
      ).rejects.toThrow('routes[1]: this route (Alpha → Beta) is already watched at routes[0]: list it once.');
    } finally {
      dir.cleanup();
    }
  });
});
