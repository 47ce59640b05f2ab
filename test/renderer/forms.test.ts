// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import FilterForm from '../../src/renderer/src/components/FilterForm.vue';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { BEAM, DFK, message } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('forms say what is wrong where the user acted', () => {
  it('a negative budget is refused beside Save and at the field, in plain words, sending nothing', async () => {
    const ctx = setupRenderer();
    await useSettingsStore().load();
    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await flush();
    const budget = wrapper.get('[data-testid="settings-budget"]');
    await budget.setValue('-5');
    await budget.trigger('blur');
    await wrapper.get('form').trigger('submit');
    await flush();
    const plain = 'Request budget must be at least 1 request per minute.';
    expect(wrapper.get('[data-testid="settings-save-error"]').text()).toBe(`Not saved: ${plain}`);
    expect(wrapper.get('[data-testid="field-error-requestBudgetPerMinute"]').text()).toBe(plain);
    expect(wrapper.text()).not.toMatch(/Too small|expected number/);
    expect(ctx.fake.callsOf('updateSettings')).toEqual([]);
  });

  it('Messages → Reset clears the fields and shows the unfiltered list again', async () => {
    const ctx = setupRenderer({ messages: [message({ n: 1, dst: BEAM }), message({ n: 2, dst: DFK })].map((m) => ({ message: m, network: 'mainnet' as const })) });
    wrapper = mount(FilterForm, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const store = useMessagesStore();
    await wrapper.get('[data-testid="filter-destination"]').setValue('Beam');
    await wrapper.get('form').trigger('submit');
    await flush();
    expect(store.messages).toHaveLength(1);
    await wrapper.get('[data-testid="filter-reset"]').trigger('click');
    await flush();
    expect(store.messages).toHaveLength(2);
    expect(ctx.fake.callsOf('browseMessages').at(-1)).toEqual({ network: 'mainnet', pageSize: 10 });
  });
});
