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
  it('a negative budget is refused beside Save and at the field, in plain words, sending nothing', async () => {
    const ctx = await setupRealRenderer();
    await useSettingsStore().load();
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const budget = await until(() => wrapper!.get('[data-testid="settings-budget"]'));
    await budget.setValue('-5');
    await budget.trigger('blur');
    await wrapper.get('form').trigger('submit');
    const plain = 'Request budget must be at least 1 request per minute.';
    await until(() => expect(wrapper!.get('[data-testid="settings-save-error"]').text()).toBe(`Not saved: ${plain}`));
    expect(wrapper.get('[data-testid="field-error-requestBudgetPerMinute"]').text()).toBe(plain);
    expect(wrapper.text()).not.toMatch(/Too small|expected number/);
    expect(ctx.transport.callsOf('updateSettings')).toEqual([]);
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
