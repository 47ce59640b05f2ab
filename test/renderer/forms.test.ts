// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import FilterForm from '../../src/renderer/src/components/FilterForm.vue';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { BEAM, C_CHAIN, DFK } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('forms say what is wrong where the user acted', () => {
  it("a custom plan's negative CU a minute is refused beside Save and at the field, in plain words, sending nothing", async () => {
    const ctx = await setupRealRenderer();
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.settings?.plan).toBe('auto');
    expect(await settings.save({ plan: { cuPerMinute: 8000, cuPerDay: 2_000_000 } })).toBe(true);
    const sent = ctx.transport.callsOf('updateSettings').length;
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const perMinute = await until(() => wrapper!.get('[data-testid="settings-plan-cu-minute"]'));
    expect((perMinute.element as HTMLInputElement).value).toBe('8000');
    await perMinute.setValue('-5');
    await perMinute.trigger('blur');
    await wrapper.get('form').trigger('submit');
    const plain = 'Plan CU per minute must be at least 20 CU.';
    await until(() => expect(wrapper!.get('[data-testid="settings-save-error"]').text()).toBe(`Not saved: ${plain}`));
    expect(wrapper.get('[data-testid="field-error-plan.cuPerMinute"]').text()).toBe(plain);
    expect(wrapper.text()).not.toMatch(/Too small|expected number/);
    expect(ctx.transport.callsOf('updateSettings')).toHaveLength(sent);
  });

  it('default relayer thresholds: 0 or a fraction is refused at its field with nothing sent; a valid one is saved and a new relayer takes it', async () => {
    const ctx = await setupRealRenderer();
    await useSettingsStore().load();
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const silent = await until(() => wrapper!.get('[data-testid="settings-relayer-silent"]'));
    const backlog = wrapper.get('[data-testid="settings-route-backlog"]');
    await silent.setValue('0');
    await silent.trigger('blur');
    await backlog.setValue('2.5');
    await backlog.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.get('[data-testid="field-error-relayerSilentMinutes"]').text()).toBe('Silence threshold must be at least 1 minute.'));
    await silent.setValue('3');
    await silent.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.get('[data-testid="field-error-routeBacklogMinutes"]').text()).toBe('Backlog threshold must be a whole number.'));
    expect(ctx.transport.callsOf('updateSettings')).toEqual([]);

    await backlog.setValue('12');
    await backlog.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(wrapper!.find('[data-testid="settings-saved"]').exists()).toBe(true));
    expect(await ctx.api.getSettings()).toMatchObject({ relayerSilentMinutes: 3, relayerPendingMinutes: 10, routeBacklogMinutes: 12 });
    expect(await ctx.api.addRelayer({ address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toMatchObject({ silentMinutes: 3, pendingMinutes: 10 });
  });

  it('Messages → Reset clears the fields and shows the unfiltered list again', async () => {
    const ctx = await setupRealRenderer();
    for (const dst of [BEAM, DFK]) {
      await ctx.clock.advance(1000);
      ctx.service.simulator.send({ outcome: 'normal', source: C_CHAIN.blockchainId, destination: dst.blockchainId });
    }
    await ctx.clock.advance(1000);
    wrapper = mount(FilterForm, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const store = useMessagesStore();
    await wrapper.get('[data-testid="filter-destination"]').setValue('Beam');
    await wrapper.get('form').trigger('submit');
    await until(() => expect(store.messages).toHaveLength(1));
    await wrapper.get('[data-testid="filter-reset"]').trigger('click');
    await until(() => expect(store.messages).toHaveLength(2));
    expect(ctx.transport.callsOf('browseMessages').at(-1)).toEqual({ network: 'mainnet', pageSize: 10 });
  });
});
