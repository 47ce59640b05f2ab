// @vitest-environment happy-dom
/**
 * The Relayers view's "Read last N h" on a route watched with the default hour, on the real core: the
 * button asks readRouteHistory with the hours chosen, is disabled while the call and then the read go on
 * (saying since when it reads), the day columns move back when it ends, only hours that reach further are
 * offered, hours already held are a note, and a refusal is a warning toast.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import Toaster from '../../src/renderer/src/components/Toaster.vue';
import { useRelayersStore } from '../../src/renderer/src/stores/relayers';
import type { RelayerOverview, WatchedRoute } from '../../src/shared/relayers';
import { setupRealRenderer, until } from './real-core';

const HOUR = 3_600_000;
const clockWords = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

const wrappers: VueWrapper[] = [];
afterEach(() => {
  for (const w of wrappers.splice(0)) w.unmount();
});

describe('a route’s Read last N h button (real core)', () => {
  it('reads the hours chosen, disabled while it reads, the day columns move back; a refusal is a warning toast', { timeout: 120_000 }, async () => {
    // Four hours of history: the route's first read takes its last hour.
    const ctx = await setupRealRenderer({ rate: 1, history: 4 });
    const { api, poll, clock, transport } = ctx;
    const route: WatchedRoute = await api.addRoute({ source: 'C-Chain', destination: 'Beam' });
    await poll();
    const first = (await api.relayerOverview()).routes[0]!.history;
    expect(first.reading).toBe(false);
    expect(first.from).toBeLessThanOrEqual(clock.now() - HOUR + 1000);

    const w = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    wrappers.push(w, mount(Toaster, { global: { plugins: [ctx.pinia] }, attachTo: document.body }));
    const button = () => w.get('[data-testid="route-history-read"]');
    const disabled = () => button().attributes('disabled') !== undefined;
    await until(() => expect(button().text()).toBe('Read last 24 h'));
    expect(disabled()).toBe(false);
    expect(w.get('[data-testid="routes-day-header"]').text()).toBe(`since ${clockWords(first.from!)}`);

    // Three hours: the button asks for them, and waits for the core's answer disabled.
    await w.get('[data-testid="route-history-hours"]').setValue('3');
    expect(button().text()).toBe('Read last 3 h');
    const release = transport.hold('readRouteHistory');
    const askedAt = clock.now();
    await button().trigger('click');
    await until(() => expect(disabled()).toBe(true));
    expect(transport.callsOf('readRouteHistory')).toEqual([{ routeId: route.id, hours: 3 }]);
    release();
    // Answered: the read goes on (after news, in the next cycles), the button still disabled, saying since when.
    await until(() => expect(button().text()).toBe(`Reading history since ${clockWords(askedAt - 3 * HOUR)}…`));
    expect(disabled()).toBe(true);
    expect(w.find('[data-testid="route-history-hours"]').exists()).toBe(false);
    expect(w.get('[data-testid="routes-day-header"]').text()).toBe(`since ${clockWords(first.from!)}`); // what it held until the read ends

    // The next cycle reads them: the day columns count from about 3 h back, and the button is free again.
    await clock.advance(30_000);
    await poll();
    const after: RelayerOverview = await api.relayerOverview();
    const from = after.routes[0]!.history.from!;
    expect(after.routes[0]!.history.reading).toBe(false);
    expect(from).toBeLessThanOrEqual(askedAt - 3 * HOUR + 1000);
    expect(from).toBeGreaterThan(askedAt - 4 * HOUR);
    await until(() => expect(w.get('[data-testid="routes-day-header"]').text()).toBe(`since ${clockWords(from)}`));
    // Three hours are held now: the choices are the hours that reach further, the longest chosen.
    await until(() => expect(button().text()).toBe('Read last 24 h'));
    expect(disabled()).toBe(false);
    expect(w.findAll('[data-testid="route-history-hours"] option').map((o) => o.text())).toEqual(['24 h', '12 h', '6 h']);
    expect(w.find('[data-testid="route-history-short"]').exists()).toBe(false);

    // Asked for hours it holds already (time moved on since the row offered them, or another window asked): a note says so.
    expect(await useRelayersStore().readRouteHistory(route.id, 3)).toBe(true);
    await until(async () => {
      await clock.advance(400);
      const note = document.querySelector<HTMLElement>('[data-testid="toast"][data-severity="info"]');
      expect(note?.closest('.n-alert')?.textContent).toContain("The route's figures already hold its last 3 h");
    });

    // The route removed elsewhere while the call is on its way: the core refuses it, and a warning toast says why.
    const hold = transport.hold('readRouteHistory');
    await button().trigger('click');
    await until(() => expect(disabled()).toBe(true));
    await ctx.core.invoke('removeRoute', { id: route.id });
    hold();
    await nextTick();
    await until(async () => {
      await clock.advance(400);
      const toast = document.querySelector<HTMLElement>('[data-testid="toast"][data-severity="warning"]');
      expect(toast?.closest('.n-alert')?.textContent).toContain("Could not read the route's last 24 h");
      expect(toast?.textContent).toContain(`There is no watched route with ID ${route.id}: watch it first.`);
    });
    await until(() => expect(w.find('[data-testid="routes-empty"]').exists()).toBe(true));
  });
});
