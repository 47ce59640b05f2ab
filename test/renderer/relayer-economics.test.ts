// @vitest-environment happy-dom
/**
 * The relayer-economics store and the Relayers view's fuel and earnings section against the real core
 * (local service on 127.0.0.1, real SQLite): what it loads, what it follows, resync, the empty states
 * that say what to do, the failed executions per watched route and their alert, and Settings' fuel and
 * failed-execution thresholds refused at their fields or saved and shown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import { useRelayerEconomicsStore } from '../../src/renderer/src/stores/relayer-economics';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { formatTokenAmount } from '../../src/shared/format';
import { BEAM, C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const RELAYER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('relayer economics (real core)', () => {
  it('loads on opening, follows a watched relayer and a threshold change, and resync reads it again', async () => {
    const ctx = await setupRealRenderer();
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    const store = useRelayerEconomicsStore();
    const every = (await ctx.api.relayerEconomics()).balanceMaxAgeMinutes;
    await until(() =>
      expect(w.get('[data-testid="fuel-empty"]').text()).toBe(
        `Watch a relayer first (above): its gas balance on each chain it delivers to is then read at least every ${every} min.`,
      ),
    );
    expect(w.get('[data-testid="earnings-empty"]').text()).toMatch(/^Watch a relayer first/);
    expect(w.get('[data-testid="fuel-about"]').text()).toContain('marked low when it would run dry within 6 h');
    const loads = () => ctx.transport.callsOf('relayerEconomics').length;
    const before = loads();

    await w.get('[data-testid="relayer-address"]').setValue(RELAYER);
    await w.get('[data-testid="relayer-form"]').trigger('submit');
    // The core's watchlist-changed event re-reads the economics: now a relayer is watched, the empty state says when balances come.
    await until(() =>
      expect(w.get('[data-testid="fuel-empty"]').text()).toBe(
        `No wallet read yet: a watched relayer's balances are read on the chains it delivers to, at least every ${every} min.`,
      ),
    );
    expect(loads()).toBeGreaterThan(before);

    await ctx.api.updateSettings({ relayerFuelThresholdHours: 12 });
    await until(() => expect(w.get('[data-testid="fuel-about"]').text()).toContain('marked low when it would run dry within 12 h'));
    expect(store.economics?.fuelThresholdHours).toBe(12);

    const n = loads();
    await store.resync();
    expect(loads()).toBe(n + 1);
    expect(store.error).toBeNull();
  });

  it("after a poll the watched relayers' wallets show the balances the service holds, read once, earnings per route, and a failed execution listed", async () => {
    const ctx = await setupRealRenderer({ dryWallet: true });
    const { service, api, clock, poll } = ctx;
    wrapper = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    await until(() => expect(w.find('[data-testid="fuel-empty"]').exists()).toBe(true));
    // Both directions between the C-Chain and Beam, and every demo relayer that delivers there.
    await api.addRoute({ source: C_CHAIN.blockchainId, destination: BEAM.blockchainId });
    await api.addRoute({ source: BEAM.blockchainId, destination: C_CHAIN.blockchainId });
    const demo = service.simulator
      .demoRelayers()
      .filter((r) => r.routes.some((x) => x.destination === C_CHAIN.blockchainId || x.destination === BEAM.blockchainId));
    for (const r of demo) await api.addRelayer({ address: r.address, label: r.name });
    await poll();
    for (let i = 0; i < 12; i++) {
      await clock.advance(1000);
      service.simulator.send({
        outcome: 'normal',
        source: i % 2 ? C_CHAIN.blockchainId : BEAM.blockchainId,
        destination: i % 2 ? BEAM.blockchainId : C_CHAIN.blockchainId,
        deliveryDelayMs: 2_000,
      });
    }
    // One delivery whose execution fails: counted on its route, and listed by the count's click-through.
    await clock.advance(1000);
    const failedId = service.simulator.send({
      outcome: 'normal',
      source: C_CHAIN.blockchainId,
      destination: BEAM.blockchainId,
      deliveryDelayMs: 2_000,
      executed: false,
    });
    await clock.advance(60_000);
    await poll();

    // The core's relayer-economics-changed event brings the rows: each wallet with a delivery, read once now.
    await until(() => expect(w.findAll('[data-testid="fuel-row"]').length).toBeGreaterThan(0));
    const truth = new Map(service.simulator.wallets.truth(clock.now()).map((t) => [`${t.relayer}:${t.blockchainId}`, t]));
    for (const row of w.findAll('[data-testid="fuel-row"]')) {
      const t = truth.get(`${row.attributes('data-relayer')!.toLowerCase()}:${row.attributes('data-chain')}`)!;
      expect(t, 'a wallet the simulator knows').toBeDefined();
      expect(row.get('[data-testid="fuel-balance"]').text()).toContain(formatTokenAmount(t.balance, 18, 4));
      expect(row.find('[data-testid="fuel-read-error"]').exists()).toBe(false);
    }
    const rows = await api.relayerEconomics();
    expect(rows.fuel.every((f) => f.readAt === clock.now() && f.balance !== null)).toBe(true);
    // The relayers table's gas spent carries its dollars at the balance reads' price, as Fuel and Earnings do.
    expect(rows.fuel.some((f) => f.usdPrice !== null)).toBe(true);
    await until(() => expect(w.findAll('[data-testid="relayer-gas-usd"]').length).toBeGreaterThan(0));
    for (const usd of w.findAll('[data-testid="relayer-gas-usd"]')) expect(usd.text()).toMatch(/^(< )?\$\d/);
    // Every delivery of the hour is counted on its route: the deliveries the earnings name add up to the ones sent.
    await until(() => expect(w.findAll('[data-testid="earnings-row"]').length).toBeGreaterThan(0));
    expect(rows.earnings.hour.reduce((n, e) => n + e.deliveries, 0)).toBe(13);
    expect(w.findAll('[data-testid="earnings-row"]')).toHaveLength(rows.earnings.hour.length);
    const failing = rows.earnings.hour.filter((e) => e.failedExecutions.count > 0);
    expect(failing.map((e) => [e.sourceChain, e.destinationChain, e.failedExecutions.messageIds])).toEqual([
      [C_CHAIN.blockchainId, BEAM.blockchainId, [failedId]],
    ]);
    const counts = w.findAll('[data-testid="earnings-failed"]');
    expect(counts.map((c) => c.text())).toEqual(['1']);
    await counts[0]!.trigger('click');
    await until(() => expect(w.findAll('[data-testid="failed-row"]').map((r) => r.attributes('data-message-id'))).toEqual([failedId]));
    expect(w.get('[data-testid="failed-list"]').text()).toContain('Failed executions by');
    await w.get('[data-testid="failed-row"]').trigger('click');
    await until(() => expect(useUiStore().detail?.messageId).toBe(failedId));
    await w.get('[data-testid="failed-list-close"]').trigger('click');
    await until(() => expect(w.find('[data-testid="failed-list"]').exists()).toBe(false));

    // Per watched route (any relayer): the failure counted on its route, under the default threshold of 3.
    const routeRows = () => w.findAll('[data-testid="route-failures-row"]');
    expect(routeRows()).toHaveLength(2);
    const cToBeam = () => routeRows().find((r) => r.text().startsWith('C-Chain → Beam'))!;
    expect(cToBeam().get('[data-testid="route-failures-count"]').text()).toBe('1');
    expect(cToBeam().attributes('data-firing')).toBe('false');
    expect(cToBeam().get('[data-testid="route-failures-alert"]').text()).toBe('at 3 in the last hour');
    await cToBeam().get('[data-testid="route-failures-count"]').trigger('click');
    await until(() => expect(w.findAll('[data-testid="failed-row"]').map((r) => r.attributes('data-message-id'))).toEqual([failedId]));
    expect(w.get('[data-testid="failed-list"]').text()).toContain('Failed executions on C-Chain → Beam (any relayer), last hour');
    // At a threshold of 1 the next cycle fires the route's alert, and the row says so.
    await api.updateSettings({ routeFailedExecutionsPerHour: 1 });
    await clock.advance(1000);
    await poll();
    await until(() => expect(cToBeam().attributes('data-firing')).toBe('true'));
    expect(cToBeam().get('[data-testid="route-failures-firing"]').text()).toBe('Alerting');
    expect(cToBeam().get('[data-testid="route-failures-alert"]').text()).toContain('at 1 in the last hour');
    // 0 turns the alert off: the next cycle closes the episode (quietly) and the row says why it is off.
    await api.updateSettings({ routeFailedExecutionsPerHour: 0 });
    await clock.advance(1000);
    await poll();
    await until(() => expect(cToBeam().attributes('data-firing')).toBe('false'));
    expect(cToBeam().get('[data-testid="route-failures-alert"]').text()).toBe('off (threshold 0 in Settings)');
    expect(cToBeam().get('[data-testid="route-failures-count"]').text()).toBe('1');
  });

  it('Settings: a fuel threshold of 0 or a fraction is refused at its field with nothing sent; a valid one is saved', async () => {
    const ctx = await setupRealRenderer();
    await useSettingsStore().load();
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const hours = await until(() => wrapper!.get('[data-testid="settings-relayer-fuel-hours"]'));
    expect((hours.element as HTMLInputElement).value).toBe('6');
    await hours.setValue('0');
    await hours.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.get('[data-testid="field-error-relayerFuelThresholdHours"]').text()).toBe('Fuel threshold must be at least 1 hour.'));
    await hours.setValue('2.5');
    await hours.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.get('[data-testid="field-error-relayerFuelThresholdHours"]').text()).toBe('Fuel threshold must be a whole number.'));
    await hours.setValue('200');
    await hours.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() =>
      expect(wrapper!.get('[data-testid="field-error-relayerFuelThresholdHours"]').text()).toBe('Fuel threshold must be at most 7 days (168 hours).'),
    );
    expect(ctx.transport.callsOf('updateSettings')).toEqual([]);

    await hours.setValue('3');
    await hours.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.find('[data-testid="settings-saved"]').exists()).toBe(true));
    expect((await ctx.api.getSettings()).relayerFuelThresholdHours).toBe(3);
    expect((await ctx.api.relayerEconomics()).fuelThresholdHours).toBe(3);
  });

  it('Settings: a failed-execution threshold below 0, a fraction or over 1000 is refused at its field with nothing sent; 0 (off) is saved', async () => {
    const ctx = await setupRealRenderer();
    await useSettingsStore().load();
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const field = await until(() => wrapper!.get('[data-testid="settings-route-failed-executions"]'));
    expect((field.element as HTMLInputElement).value).toBe('3');
    const error = () => wrapper!.get('[data-testid="field-error-routeFailedExecutionsPerHour"]').text();
    for (const [value, message] of [
      ['-1', 'Failed-execution threshold must be at least 0 (off).'],
      ['1.5', 'Failed-execution threshold must be a whole number.'],
      ['1001', 'Failed-execution threshold must be at most 1000.'],
    ] as const) {
      await field.setValue(value);
      await field.trigger('blur');
      await wrapper.get('form').trigger('submit');
      await until(() => expect(error()).toBe(message));
    }
    expect(ctx.transport.callsOf('updateSettings')).toEqual([]);

    await field.setValue('0');
    await field.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.find('[data-testid="settings-saved"]').exists()).toBe(true));
    expect((await ctx.api.getSettings()).routeFailedExecutionsPerHour).toBe(0);
    expect((await ctx.api.relayerEconomics()).failedExecutionsPerHour).toBe(0);
  });
});
