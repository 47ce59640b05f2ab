// @vitest-environment happy-dom
/**
 * The relayer-economics store and the Relayers view's fuel and earnings section against the real core
 * (local service on 127.0.0.1, real SQLite): what it loads, what it follows, resync, the empty states
 * that say what to do, and Settings' fuel threshold refused at its field or saved and shown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import { useRelayerEconomicsStore } from '../../src/renderer/src/stores/relayer-economics';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
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
    const every = (await ctx.api.relayerEconomics()).balanceReadEveryMinutes;
    await until(() =>
      expect(w.get('[data-testid="fuel-empty"]').text()).toBe(
        `Watch a relayer first (above): its gas balance on each chain it delivers to is then read every ${every} min.`,
      ),
    );
    expect(w.get('[data-testid="earnings-empty"]').text()).toMatch(/^Watch a relayer first/);
    expect(w.get('[data-testid="fuel-about"]').text()).toContain('within 6 h');
    const loads = () => ctx.transport.callsOf('relayerEconomics').length;
    const before = loads();

    await w.get('[data-testid="relayer-address"]').setValue(RELAYER);
    await w.get('[data-testid="relayer-form"]').trigger('submit');
    // The core's watchlist-changed event re-reads the economics: now a relayer is watched, the empty state says when balances come.
    await until(() =>
      expect(w.get('[data-testid="fuel-empty"]').text()).toBe(
        `No wallet read yet: a watched relayer's balances are read every ${every} min on the chains it delivers to.`,
      ),
    );
    expect(loads()).toBeGreaterThan(before);

    await ctx.api.updateSettings({ relayerFuelThresholdHours: 12 });
    await until(() => expect(w.get('[data-testid="fuel-about"]').text()).toContain('within 12 h'));
    expect(store.economics?.fuelThresholdHours).toBe(12);

    const n = loads();
    await store.resync();
    expect(loads()).toBe(n + 1);
    expect(store.error).toBeNull();
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
});
