import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoAddressSource } from '../../src/core/local-service/demo-addresses';
import { startLocalService } from '../../src/local-service';
import { coreOnService } from './core-on-service';
import { JumpClock } from './http-helpers';
import { watchedAddressesOf, type Transition } from '../../src/shared/contract';

describe('demo addresses', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("passes the local service's busy addresses through the contract, and none for a real data source", async () => {
    const clock = new JumpClock();
    const svc = await startLocalService({ clock, rate: 1, addressCount: 20, warmStore: false });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    // The service's relayer personas as it tells them (none from a service without personas).
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers?: unknown[] };
    const demo = { addresses: svc.simulator.hotAddresses, relayers: info.demoRelayers ?? [] };
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: demo });
    await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: { addresses: [], relayers: [] } });
    await core.invoke('updateSettings', { dataSource: { kind: 'local' } });
    expect(await core.invoke('getDemoAddresses', undefined)).toEqual({ ok: true, value: demo });
  });

  it("reads the service's relayer personas on their own: ones it cannot read leave the busy addresses offered", async () => {
    const hot = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
    const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';
    const persona = { name: 'Olga', behaviour: 'outage', description: 'stops for a while', routes: [{ source: C, destination: BEAM }] };
    const answers: Record<string, unknown> = {
      '/none': { hotAddresses: [hot] },
      // An address in lower case comes back checksummed, as every address the app shows.
      '/good': { hotAddresses: [hot], demoRelayers: [{ ...persona, address: hot.toLowerCase() }] },
      '/odd': { hotAddresses: [hot], demoRelayers: [{ ...persona, address: hot, behaviour: 'sleepy' }] },
    };
    const server = createServer((req, res) => {
      const body = answers[(req.url ?? '').replace(/\/_local\/info$/, '')];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const demo = new DemoAddressSource();
    expect(await demo.get(`${base}/none`)).toEqual({ addresses: [hot], relayers: [] });
    expect(await demo.get(`${base}/good`)).toEqual({ addresses: [hot], relayers: [{ ...persona, address: hot }] });
    expect(await demo.get(`${base}/odd`)).toEqual({ addresses: [hot], relayers: [] });
    expect(await demo.get(`${base}/missing`)).toEqual({ addresses: [], relayers: [] });
  });

  it('removing a watch with forget also removes the messages and Activity only it brought in', async () => {
    const clock = new JumpClock();
    const svc = await startLocalService({ clock, rate: 2, addressCount: 12, preload: 100, warmStore: false });
    cleanups.push(() => svc.close());
    const core = await coreOnService(svc.url, clock, cleanups);
    const [demo, kept] = svc.simulator.hotAddresses as [string, string];
    await core.invoke('addWatch', { address: demo });
    await core.invoke('addWatch', { address: kept });
    await core.invoke('pollNow', undefined);
    for (let i = 0; i < 10; i++) {
      await clock.advance(20_000);
      await core.invoke('pollNow', undefined);
    }
    const log = async () => ((await core.invoke('listTransitions', { limit: 500 })) as { ok: true; value: { items: Transition[] } }).value.items;
    const before = await log();
    const onlyDemo = before.find((t) => watchedAddressesOf(t).includes(demo) && !watchedAddressesOf(t).includes(kept));
    expect(onlyDemo).toBeDefined();
    expect(await core.invoke('getMessage', { messageId: onlyDemo!.messageId })).toMatchObject({
      ok: true,
      value: { message: { messageId: onlyDemo!.messageId } },
    });
    expect(before.some((t) => watchedAddressesOf(t).includes(kept))).toBe(true);
    expect(await core.invoke('removeWatch', { address: demo, forget: true })).toEqual({ ok: true, value: undefined });
    const after = await log();
    // Only what the other watch shares stays.
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((t) => watchedAddressesOf(t).includes(kept))).toBe(true);
    expect(await core.invoke('getMessage', { messageId: onlyDemo!.messageId })).toEqual({ ok: true, value: null });
  });
});
