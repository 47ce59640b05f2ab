// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useRelayersStore } from '../../src/renderer/src/stores/relayers';
import { BEAM, C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

describe('relayers store (real core)', () => {
  it('watches a relayer and a route, shows errors at the field, and follows each poll batch from the core cache', async () => {
    const { service, transport, clock, poll } = await setupRealRenderer();
    const s = useRelayersStore();
    await s.load();
    expect(s.overview).toMatchObject({ relayers: [], routes: [] });

    expect(await s.addRelayer({ address: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toBe(false);
    expect(s.relayerErrors.address).toMatch(/EIP-55 checksum/);
    expect(await s.addRelayer({ address: service.simulator.relayers[0]!, silentMinutes: 0 })).toBe(false);
    expect(s.relayerErrors.silentMinutes).toBe('Silence threshold must be at least 1 minute.');
    expect(await s.addRoute({ source: 'Atlantis', destination: 'Beam' })).toBe(false);
    expect(s.routeErrors.source).toMatch(/"Atlantis" is not a known chain/);
    expect(s.relayers).toEqual([]);
    expect(s.routes).toEqual([]);

    const ours = service.simulator.relayers[0]!;
    expect(await s.addRelayer({ address: ours.toLowerCase(), label: 'Ours' })).toBe(true);
    expect(await s.addRoute({ source: 'C-Chain', destination: 'Beam' })).toBe(true);
    expect(s.relayers.map((r) => [r.address, r.label])).toEqual([[ours, 'Ours']]);
    // The watched relayer has a row before any delivery: it says so (no latency, no last delivery).
    expect(s.overview!.relayers).toEqual([expect.objectContaining({ address: ours, watched: true, label: 'Ours', lastDeliveryAt: null, latency: null })]);
    const routeId = s.routes[0]!.id;

    // The poller reads the watched route itself; the messages sent then are delivered and polled.
    await poll();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      await clock.advance(1000);
      ids.push(service.simulator.send({ outcome: 'normal', source: C_CHAIN.blockchainId, destination: BEAM.blockchainId, deliveryDelayMs: 4_000 }));
    }
    await clock.advance(60_000);
    const overviewReads = transport.callsOf('relayerOverview').length;
    await poll();
    // The finished poll cycle made the store re-read the overview from the core (no browse call, no reload of the view).
    await until(() => expect(s.overview!.routes[0]!.deliveries24h).toBeGreaterThanOrEqual(ids.length));
    expect(transport.callsOf('relayerOverview').length).toBeGreaterThan(overviewReads);
    expect(transport.callsOf('browseMessages')).toEqual([]);

    // Exactly the service's own deliveries on the route (ours and the receipt carriers its relayers send), per deliverer.
    const onRoute = service.store
      .page({ source: { kind: 'blockchainId', value: C_CHAIN.blockchainId }, destination: { kind: 'blockchainId', value: BEAM.blockchainId } }, undefined, 1000)
      .records.map((r) => JSON.parse(r) as { status: string; destinationTransaction?: { delivererAddress: string } })
      .filter((r) => r.status === 'delivered');
    for (const row of s.overview!.relayers)
      expect([row.address, row.deliveries24h]).toEqual([row.address, onRoute.filter((r) => r.destinationTransaction!.delivererAddress === row.address).length]);
    expect(s.overview!.routes[0]!.deliveries24h).toBe(onRoute.length);
    const busiest = s.overview!.relayers.filter((r) => r.deliveries24h > 0).sort((a, b) => b.deliveries24h - a.deliveries24h)[0]!;

    // A number's click-through lists exactly what it counts.
    await s.open({ relayer: busiest.address, figure: 'deliveries24h', title: 'x' });
    expect(s.counted).toHaveLength(busiest.deliveries24h);
    await s.open({ routeId, figure: 'deliveries24h', title: 'y' });
    expect(s.counted).toHaveLength(s.overview!.routes[0]!.deliveries24h);
    expect(s.counted.every((m) => m.sourceChain === C_CHAIN.blockchainId && m.destinationChain === BEAM.blockchainId)).toBe(true);

    await s.removeRoute(routeId);
    await s.removeRelayer(ours);
    expect(s.overview).toMatchObject({ relayers: [], routes: [] });
  });
});
