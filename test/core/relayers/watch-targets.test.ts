import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { startLocalService, type SimulatedService } from '../../../src/local-service';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { coreOnService } from '../core-on-service';
import { BEAM, C_CHAIN, randomAddress, tempDir } from '../helpers';

/** Dexalot on mainnet (EVM chain ID 432204), from resources/chains.json. */
const DEXALOT = '21Ths5Afqi5r4PaoV8r8cruGZWhN11y5rxvy89K8px7pKy3P8E';
import { JumpClock } from '../http-helpers';

type Service = SimulatedService;

describe('watching relayers and routes', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
  let svc: Service;
  beforeAll(async () => {
    svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
  });
  afterAll(() => svc.close());
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const failure = async (core: MonitorCore, method: string, input: unknown) => {
    const r = await core.invoke(method, input);
    if (r.ok) throw new Error(`${method} was accepted`);
    return r.error;
  };
  const value = async (core: MonitorCore, method: string, input?: unknown) => {
    const r = await core.invoke(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as never;
  };

  it('adds, lists and removes relayers and routes, stored beside the address watches and kept across a restart', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const core = await coreOnService(svc.url, clock, cleanups, { dataDir: tmp.dir });
    const address = randomAddress();
    const r = await value(core, 'addRelayer', { address: address.toLowerCase(), label: ' ours ', silentMinutes: 20 });
    expect(r).toMatchObject({ address, label: 'ours', network: 'mainnet', silentMinutes: 20, pendingMinutes: 10, alert: true });
    const byName = (await value(core, 'addRoute', { source: 'c-chain', destination: 'Beam', backlogMinutes: 15 })) as { id: string };
    expect(byName).toMatchObject({ sourceChain: C_CHAIN, destinationChain: BEAM, backlogMinutes: 15, alert: true });
    // An EVM chain ID is resolved to its chain's cb58 ID; the same route named another way is refused naming the watch it is.
    expect(await value(core, 'addRoute', { source: '43114', destination: '432204', network: 'mainnet' })).toMatchObject({
      sourceChain: C_CHAIN,
      destinationChain: DEXALOT,
    });
    for (const again of [
      { source: C_CHAIN, destination: BEAM },
      { source: '43114', destination: '4337' },
      { source: 'C-Chain', destination: 'beam', network: 'mainnet' },
    ])
      expect(await failure(core, 'addRoute', again)).toMatchObject({ field: 'destination', message: 'This route is already watched as C-Chain → Beam.' });
    // One relayer whatever the letter case it is typed in (EIP-55 checksummed when stored).
    for (const again of [address.toLowerCase(), `0x${address.slice(2).toUpperCase()}`, `0X${address.slice(2).toLowerCase()}`])
      expect(await failure(core, 'addRelayer', { address: again })).toMatchObject({
        field: 'address',
        message: `This relayer is already watched as "ours" (${address}).`,
      });
    // Beside, not instead of: the address watchlist is untouched.
    expect(await value(core, 'listWatches')).toEqual([]);
    await core.close();

    const again = await coreOnService(svc.url, clock, cleanups, { dataDir: tmp.dir });
    expect(((await value(again, 'listRelayers')) as { address: string }[]).map((x) => x.address)).toEqual([address]);
    expect(((await value(again, 'listRoutes')) as unknown[]).length).toBe(2);
    await value(again, 'removeRoute', { id: byName.id });
    await value(again, 'removeRelayer', { address });
    expect(await value(again, 'listRelayers')).toEqual([]);
    expect(((await value(again, 'listRoutes')) as { id: string }[]).map((x) => x.id)).not.toContain(byName.id);
    expect(await failure(again, 'removeRoute', { id: byName.id })).toMatchObject({ kind: 'not_found', field: 'id' });
  });

  it('refuses bad input with a message at the field and saves nothing', async () => {
    const core = await coreOnService(svc.url, clock, cleanups);
    const good = randomAddress();
    // EIP-55's own example address with one letter's case changed.
    const wrongCase = '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const cases: [string, unknown, string, RegExp][] = [
      ['addRelayer', { address: '0x1234' }, 'address', /40 hex digits/],
      ['addRelayer', { address: 'hello' }, 'address', /start with 0x/],
      ['addRelayer', { address: wrongCase }, 'address', /EIP-55 checksum/],
      ['addRelayer', { address: good, silentMinutes: 0 }, 'silentMinutes', /Silence threshold must be at least 1 minute/],
      ['addRelayer', { address: good, pendingMinutes: -5 }, 'pendingMinutes', /Pending threshold must be at least 1 minute/],
      ['addRelayer', { address: good, silentMinutes: 1.5 }, 'silentMinutes', /whole number/],
      ['addRoute', { source: 'Narnia', destination: BEAM }, 'source', /"Narnia" is not a known chain \(C-Chain, Beam/],
      ['addRoute', { source: C_CHAIN, destination: '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSx' }, 'destination', /checksum/],
      ['addRoute', { source: C_CHAIN, destination: 'C-Chain' }, 'destination', /different destination/],
      ['addRoute', { source: C_CHAIN, destination: BEAM, backlogMinutes: 0 }, 'backlogMinutes', /Backlog threshold must be at least 1 minute/],
      ['addRoute', { source: C_CHAIN, destination: BEAM, backlogMinutes: -1 }, 'backlogMinutes', /at least 1 minute/],
    ];
    for (const [method, input, field, message] of cases) {
      const e = await failure(core, method, input);
      expect({ method, field: e.field, kind: e.kind }).toEqual({ method, field, kind: 'invalid_input' });
      expect(e.message).toMatch(message);
    }
    expect(await value(core, 'listRelayers')).toEqual([]);
    expect(await value(core, 'listRoutes')).toEqual([]);
  });

  it("takes Settings' default thresholds for a watch added without its own; bad defaults are refused at their field and nothing is saved", async () => {
    const core = await coreOnService(svc.url, clock, cleanups);
    const settings = await value(core, 'getSettings');
    expect(settings).toMatchObject({ relayerSilentMinutes: 30, relayerPendingMinutes: 10, routeBacklogMinutes: 30 });
    const bad: [string, unknown, RegExp][] = [
      ['relayerSilentMinutes', 0, /Silence threshold must be at least 1 minute/],
      ['relayerPendingMinutes', -3, /Pending threshold must be at least 1 minute/],
      ['routeBacklogMinutes', 2.5, /Backlog threshold must be a whole number/],
      ['routeBacklogMinutes', 10081, /at most 7 days/],
    ];
    for (const [field, v, message] of bad) {
      const e = await failure(core, 'updateSettings', { [field]: v, pollIntervalSeconds: 60 });
      expect({ field: e.field, kind: e.kind }).toEqual({ field, kind: 'invalid_input' });
      expect(e.message).toMatch(message);
    }
    // Nothing of a refused patch was kept (not even its valid part).
    expect(await value(core, 'getSettings')).toEqual(settings);

    await value(core, 'updateSettings', { relayerSilentMinutes: 2, relayerPendingMinutes: 1, routeBacklogMinutes: 5 });
    const defaulted = randomAddress();
    const own = randomAddress();
    expect(await value(core, 'addRelayer', { address: defaulted })).toMatchObject({ silentMinutes: 2, pendingMinutes: 1 });
    expect(await value(core, 'addRelayer', { address: own, silentMinutes: 45 })).toMatchObject({ silentMinutes: 45, pendingMinutes: 1 });
    expect(await value(core, 'addRoute', { source: C_CHAIN, destination: BEAM })).toMatchObject({ backlogMinutes: 5 });
    // A later change of the defaults leaves watches as they were added.
    await value(core, 'updateSettings', { relayerSilentMinutes: 60 });
    expect(((await value(core, 'listRelayers')) as { silentMinutes: number }[]).map((r) => r.silentMinutes)).toEqual([2, 45]);
  });
});
