// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { BEAM, C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('RelayersView (real core)', () => {
  it('refuses bad input at the field, lists the watched relayer with no deliveries, and each number lists what it counts', async () => {
    const ctx = await setupRealRenderer();
    const { service, api, clock, poll } = ctx;
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    await until(() => expect(w.find('[data-testid="routes-empty"]').exists()).toBe(true));

    await w.get('[data-testid="route-source"]').setValue('Atlantis');
    await w.get('[data-testid="route-destination"]').setValue('Beam');
    await w.get('[data-testid="route-form"]').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-route-source"]').text()).toMatch(/"Atlantis" is not a known chain/));
    expect(await api.listRoutes()).toEqual([]);
    await w.get('[data-testid="route-source"]').setValue('C-Chain');
    await w.get('[data-testid="route-backlog-minutes"]').setValue('0');
    await w.get('[data-testid="route-form"]').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-route-backlogMinutes"]').text()).toBe('Backlog threshold must be at least 1 minute.'));
    await w.get('[data-testid="route-backlog-minutes"]').setValue('');
    await w.get('[data-testid="route-form"]').trigger('submit');
    await until(() => expect(w.findAll('[data-testid="route-row"]')).toHaveLength(1));

    // A relayer that never delivers on this route (a fresh address): its row says so.
    const idle = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    await w.get('[data-testid="relayer-address"]').setValue(idle);
    await w.get('[data-testid="relayer-label"]').setValue('Idle one');
    await w.get('[data-testid="relayer-form"]').trigger('submit');
    await until(() => expect(w.findAll('[data-testid="relayer-row"]')).toHaveLength(1));
    const idleRow = w.get('[data-testid="relayer-row"]');
    expect(idleRow.attributes('data-watched')).toBe('true');
    expect(idleRow.text()).toContain('Idle one');
    expect(idleRow.get('[data-testid="relayer-no-deliveries"]').text()).toBe('no deliveries yet');

    await poll();
    for (let i = 0; i < 5; i++) {
      await clock.advance(1000);
      service.simulator.send({ outcome: 'normal', source: C_CHAIN.blockchainId, destination: BEAM.blockchainId, deliveryDelayMs: 3_000 });
    }
    const waiting = service.simulator.send({ outcome: 'normal', source: C_CHAIN.blockchainId, destination: BEAM.blockchainId, deliveryDelayMs: 3_600_000 });
    await clock.advance(60_000);
    await poll();

    // The batch updates the rows in place: the idle relayer's row element stays, others appear below it.
    await until(() => expect(w.findAll('[data-testid="relayer-row"]').length).toBeGreaterThan(1));
    expect(w.findAll('[data-testid="relayer-row"]')[0]!.element).toBe(idleRow.element);
    const route = w.get('[data-testid="route-row"]');
    expect(route.get('[data-testid="route-pending"]').text()).toBe('1');

    await route.get('[data-testid="route-pending"]').trigger('click');
    await until(() => expect(w.findAll('[data-testid="relayer-counted-row"]').map((r) => r.attributes('data-message-id'))).toEqual([waiting]));

    const busy = w.findAll('[data-testid="relayer-row"]')[1]!;
    const count = Number(busy.get('[data-testid="relayer-deliveries-24h"]').text());
    expect(count).toBeGreaterThan(0);
    await busy.get('[data-testid="relayer-deliveries-24h"]').trigger('click');
    await until(() => expect(w.findAll('[data-testid="relayer-counted-row"]')).toHaveLength(count));
    // Headers, a labelled time column sorted newest first, and a click that reverses it.
    expect(w.findAll('[data-testid="relayer-counted-head"] th').map((h) => h.text())).toEqual(['Message ID', 'Route', 'Status', 'Sent ↓ newest first']);
    const times = () => w.findAll('[data-testid="relayer-counted-row"]').map((r) => Number(r.attributes('data-time')));
    expect(times()).toEqual([...times()].sort((a, b) => b - a));
    await w.get('[data-testid="relayer-counted-sort-time"]').trigger('click');
    await until(() => expect(w.get('[data-testid="relayer-counted-sort-time"]').attributes('data-order')).toBe('oldest'));
    expect(times()).toEqual([...times()].sort((a, b) => a - b));
    expect(new Set(times()).size).toBeGreaterThan(1); // the order is visible, not a list of equal times
    expect(w.findAll('[data-testid="relayer-counted-row"] td').some((td) => td.text().includes('_'))).toBe(false); // statuses in words
    const first = w.findAll('[data-testid="relayer-counted-row"]')[0]!;
    await first.trigger('click');
    await until(() => expect(useUiStore().detail?.messageId).toBe(first.attributes('data-message-id')));
  });
  it('says since when the figures hold a route watched with the default hour of history, and the first-read choice saves the setting', async () => {
    // Three hours of history: the route's first read takes its last hour, so its day figures are not a day's.
    const ctx = await setupRealRenderer({ rate: 1, history: 3 });
    const { api, poll } = ctx;
    const { useSettingsStore } = await import('../../src/renderer/src/stores/settings');
    await useSettingsStore().load();
    await api.addRoute({ source: 'C-Chain', destination: 'Beam' });
    await poll();
    const from = (await api.relayerOverview()).historyFrom!;
    expect(from).toBeLessThanOrEqual(ctx.clock.now() - 3_600_000 + 1000);
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    const since = new Date(from).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    await until(() => expect(w.get('[data-testid="routes-history"]').text()).toContain(`messages since ${since}`));
    expect(w.get('[data-testid="routes-history"]').text()).toContain('now 1 h');
    expect(w.get('[data-testid="routes-day-header"]').text()).toBe(`since ${since}`);
    expect(w.get('[data-testid="relayers-day-header"]').text()).toBe(`since ${since}`);

    // The choice for routes watched from now on: the last 24 h.
    await w.get('[data-testid="route-history-day"]').trigger('click');
    await until(async () => expect((await api.getSettings()).routeHistoryHours).toBe(24));
    await until(() => expect(w.get('[data-testid="routes-history"]').text()).toContain('now 24 h'));
  });
});
