import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import type { WatchedRelayer, WatchedRoute } from '../../src/shared/relayers';
import { baseConfig, startWatcher, tempDir, type Service } from './rig';

const RELAYER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const OTHER = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

describe('relayers and routes in the YAML become the core watch targets', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startLocalService({ rate: 0, seed: 3 });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('adds them with their labels and thresholds, keeps unchanged ones across a restart, updates and removes the rest', async () => {
    const dir = tempDir('tw-relayers-');
    const first = baseConfig(svc.url, {
      relayers: [
        { address: RELAYER, label: 'ours', silentMinutes: 15, pendingMinutes: 5 },
        { address: OTHER, label: 'theirs' },
      ],
      routes: [
        { source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 20 },
        { source: 'Beam', destination: 'C-Chain' },
      ],
    });
    let w = await startWatcher(dir, first);
    const list = async <T>(method: string) => {
      const r = await w.core.invoke(method, undefined);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as T;
    };
    const relayers = await list<WatchedRelayer[]>('listRelayers');
    expect(relayers.map((r) => [r.address, r.label, r.silentMinutes, r.pendingMinutes, r.alert])).toEqual([
      [RELAYER, 'ours', 15, 5, true],
      [OTHER, 'theirs', 30, 10, true],
    ]);
    const routes = await list<WatchedRoute[]>('listRoutes');
    expect(routes.map((r) => [r.sourceChain, r.destinationChain, r.label, r.backlogMinutes])).toEqual([
      [C_CHAIN, BEAM, 'c-beam', 20],
      [BEAM, C_CHAIN, '', 30],
    ]);
    await w.close();

    // The same file again: nothing re-added (the watches keep their start, so silence is not reset).
    w = await startWatcher(dir, first);
    expect(await list<WatchedRelayer[]>('listRelayers')).toEqual(relayers);
    expect(await list<WatchedRoute[]>('listRoutes')).toEqual(routes);
    await w.close();

    // A changed threshold is applied, an entry gone from the file is removed.
    w = await startWatcher(
      dir,
      baseConfig(svc.url, {
        relayers: [{ address: RELAYER, label: 'ours', silentMinutes: 45, pendingMinutes: 5, alert: false }],
        routes: [{ source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: 60 }],
      }),
    );
    expect((await list<WatchedRelayer[]>('listRelayers')).map((r) => [r.address, r.silentMinutes, r.alert])).toEqual([[RELAYER, 45, false]]);
    expect((await list<WatchedRoute[]>('listRoutes')).map((r) => [r.sourceChain, r.destinationChain, r.backlogMinutes])).toEqual([[C_CHAIN, BEAM, 60]]);
    await w.close();
  });

  it("the file's default thresholds go to Settings and to relayers and routes listed without their own; a changed default re-adds them", async () => {
    const dir = tempDir('tw-relayer-defaults-');
    const config = (silent: number) =>
      baseConfig(svc.url, {
        relayerSilentMinutes: silent,
        relayerPendingMinutes: 2,
        routeBacklogMinutes: 7,
        relayers: [{ address: RELAYER }, { address: OTHER, silentMinutes: 15 }],
        routes: [{ source: 'C-Chain', destination: 'Beam' }],
      });
    let w = await startWatcher(dir, config(4));
    const call = async <T>(method: string) => {
      const r = await w.core.invoke(method, undefined);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as T;
    };
    expect(await call('getSettings')).toMatchObject({ relayerSilentMinutes: 4, relayerPendingMinutes: 2, routeBacklogMinutes: 7 });
    expect((await call<WatchedRelayer[]>('listRelayers')).map((r) => [r.address, r.silentMinutes, r.pendingMinutes])).toEqual([
      [RELAYER, 4, 2],
      [OTHER, 15, 2],
    ]);
    expect((await call<WatchedRoute[]>('listRoutes')).map((r) => r.backlogMinutes)).toEqual([7]);
    await w.close();

    w = await startWatcher(dir, config(9));
    expect((await call<WatchedRelayer[]>('listRelayers')).map((r) => [r.address, r.silentMinutes])).toEqual(
      expect.arrayContaining([
        [RELAYER, 9],
        [OTHER, 15],
      ]),
    );
    await w.close();
  });
});
