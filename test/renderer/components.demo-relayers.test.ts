// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import { useDemoStore } from '../../src/renderer/src/stores/demo';
import type { DemoRelayer } from '../../src/shared/contract';
import { setupRealRenderer, until, type RealRenderer } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

/** The relayer personas the real local service tells at /_local/info (as the core passes them on). */
async function personas(ctx: RealRenderer): Promise<DemoRelayer[]> {
  const list = (await ctx.api.getDemoAddresses()).relayers;
  if (!list.some((d) => d.behaviour === 'outage')) throw new Error('The local service tells no outage relayer at /_local/info (demoRelayers).');
  return list;
}

describe('"Watch a demo relayer" in the empty Relayers view', () => {
  it('lists the personas, the outage one first; one click watches it and its routes with short thresholds (a route already watched is fine)', async () => {
    const ctx = await setupRealRenderer();
    const all = await personas(ctx);
    const outage = all.find((d) => d.behaviour === 'outage')!;
    // One of its routes is watched already: it stays as it is.
    const [first] = outage.routes;
    await ctx.api.addRoute({ source: first!.source, destination: first!.destination, label: 'mine' });
    await useDemoStore().load();
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    await until(() => expect(w.findAll('[data-testid="demo-relayer"]')).toHaveLength(all.length));
    const rows = w.findAll('[data-testid="demo-relayer"]');
    expect(rows[0]!.attributes('data-behaviour')).toBe('outage');
    expect(rows[0]!.text()).toContain(outage.name);
    expect(rows[0]!.text()).toContain(outage.description);
    expect(w.get('[data-testid="demo-relayers"]').text()).toMatch(/silent after 2 minutes without a delivery while a route message waits 1 minute/);

    await rows[0]!.get('[data-testid="demo-relayer-watch"]').trigger('click');
    await until(() => expect(w.findAll('[data-testid="relayer-row"]').map((r) => r.attributes('data-address'))).toContain(outage.address));
    expect(ctx.transport.callsOf('addRelayer')).toEqual([{ address: outage.address, label: outage.name, silentMinutes: 2, pendingMinutes: 1 }]);
    expect(ctx.transport.callsOf('addRoute')).toEqual([
      { source: first!.source, destination: first!.destination, label: 'mine' },
      ...outage.routes.slice(1).map((r) => ({ source: r.source, destination: r.destination })),
    ]);
    const routes = await ctx.api.listRoutes();
    for (const r of outage.routes) expect(routes.some((x) => x.sourceChain === r.source && x.destinationChain === r.destination)).toBe(true);
    expect(w.find('[data-testid="error-alert"]').exists()).toBe(false);
    // The watched one is no longer offered; the others still are.
    await until(() => expect(w.findAll('[data-testid="demo-relayer"]')).toHaveLength(all.length - 1));
    expect(w.findAll('[data-testid="demo-relayer"]').map((r) => r.attributes('data-address'))).not.toContain(outage.address);
  });

  it('offers nothing once the data source is a real API', async () => {
    const ctx = await setupRealRenderer();
    await ctx.api.updateSettings({ dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
    await useDemoStore().load();
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.find('[data-testid="routes-empty"]').exists()).toBe(true));
    expect(useDemoStore().relayers).toEqual([]);
    expect(wrapper.find('[data-testid="demo-relayers"]').exists()).toBe(false);
  });
});
