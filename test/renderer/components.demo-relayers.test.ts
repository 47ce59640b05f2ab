// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import { useDemoStore } from '../../src/renderer/src/stores/demo';
import type { DemoRelayer } from '../../src/shared/contract';
import { setupRealRenderer, until, type RealRenderer } from './real-core';

let wrapper: VueWrapper | null = null;
let cleanupSub: (() => void) | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  cleanupSub?.();
  cleanupSub = null;
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
    expect(w.get('[data-testid="demo-relayers"]').text()).toMatch(/routes back up when a message waits 4 minutes/);
    expect(rows[0]!.get('[data-testid="demo-relayer-shows"]').text()).toBe('Shows: relayer silent, route backlog.');

    await rows[0]!.get('[data-testid="demo-relayer-watch"]').trigger('click');
    await until(() => expect(w.findAll('[data-testid="relayer-row"]').map((r) => r.attributes('data-address'))).toContain(outage.address));
    expect(ctx.transport.callsOf('addRelayer')).toEqual([{ address: outage.address, label: outage.name, silentMinutes: 2, pendingMinutes: 1 }]);
    expect(ctx.transport.callsOf('addRoute')).toEqual([
      { source: first!.source, destination: first!.destination, label: 'mine' },
      ...outage.routes.slice(1).map((r) => ({ source: r.source, destination: r.destination, backlogMinutes: 4 })),
    ]);
    const routes = await ctx.api.listRoutes();
    for (const r of outage.routes) expect(routes.some((x) => x.sourceChain === r.source && x.destinationChain === r.destination)).toBe(true);
    expect(w.find('[data-testid="error-alert"]').exists()).toBe(false);
    // The watched one is no longer offered; the others still are.
    await until(() => expect(w.findAll('[data-testid="demo-relayer"]')).toHaveLength(all.length - 1));
    expect(w.findAll('[data-testid="demo-relayer"]').map((r) => r.attributes('data-address'))).not.toContain(outage.address);
  });

  it(
    'watching the outage relayer from the offer within the first minute brings a relayer-silent notification within five minutes of the start',
    { timeout: 180_000 },
    async () => {
      // The service as `npm start` runs it: two hours of history, traffic from the start.
      const ctx = await setupRealRenderer({ rate: 2, history: 2 });
      const start = ctx.clock.now();
      const shown: { title: string; at: number }[] = [];
      // As a shell does: notifications are shown (by the OS, here by nobody) and reach the window as events.
      const detach = ctx.core.attachNotifier(() => undefined);
      const unsubscribe = ctx.transport.subscribe((e) => {
        if (e.type === 'notification') shown.push({ title: e.notification.title, at: ctx.clock.now() });
      });
      cleanupSub = () => (unsubscribe(), detach());
      const outage = (await personas(ctx)).find((d) => d.behaviour === 'outage')!;
      await useDemoStore().load();
      wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
      const w = wrapper;
      await ctx.clock.advance(30_000);
      await until(() => expect(w.findAll('[data-testid="demo-relayer"]').length).toBeGreaterThan(0));
      await w.get('[data-testid="demo-relayer-watch"]').trigger('click');
      await until(() => expect(w.findAll('[data-testid="relayer-row"]').map((r) => r.attributes('data-address'))).toContain(outage.address));
      // The core polls every 30 s, as by default.
      for (let t = 30_000; t <= 5 * 60_000; t += 30_000) {
        await ctx.poll();
        await ctx.clock.advance(30_000);
      }
      await ctx.poll();
      const fired = shown.filter((s) => s.title === `Relayer silent: ${outage.name}`);
      expect(fired).toHaveLength(1);
      expect(fired[0]!.at - start).toBeLessThanOrEqual(5 * 60_000 + 30_000);
    },
  );

  it('on the demo day, leads to the fuel alert next: the relayer whose wallet starts the day low, and what each shows', async () => {
    const ctx = await setupRealRenderer({ demoDay: true });
    const all = await personas(ctx);
    await useDemoStore().load();
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    await until(() => expect(w.findAll('[data-testid="demo-relayer"]')).toHaveLength(all.length));
    const rows = w.findAll('[data-testid="demo-relayer"]');
    expect(rows[0]!.get('[data-testid="demo-relayer-shows"]').text()).toBe('Shows: relayer silent, route backlog, failed executions.');
    const fuel = all.find((d) => d.shows?.includes('fuel_low'))!;
    expect(fuel.name).toBe('Swift');
    expect(rows[1]!.attributes('data-address')).toBe(fuel.address);
    expect(rows[1]!.get('[data-testid="demo-relayer-fuel"]').text()).toBe('try this for fuel');
    expect(rows[1]!.text()).toContain('Its gas wallet on C-Chain starts the day low and is refilled a few minutes in.');
    expect(rows[1]!.get('[data-testid="demo-relayer-shows"]').text()).toBe('Shows: fuel low.');
    // Only those two lead somewhere.
    expect(w.findAll('[data-testid="demo-relayer-shows"]')).toHaveLength(2);
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
