// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { defineComponent, h, ref } from 'vue';
import ChainInput from '../../src/renderer/src/components/ChainInput.vue';
import FilterForm from '../../src/renderer/src/components/FilterForm.vue';
import { C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  document.body.innerHTML = '';
});

/** ChainInput bound to a ref, the way FilterForm and FeedForm use it. */
function mountInput(initial = '') {
  const value = ref(initial);
  const Host = defineComponent(
    () => () => h(ChainInput, { network: 'mainnet', testid: 'chain', modelValue: value.value, 'onUpdate:modelValue': (v: string) => (value.value = v) }),
  );
  wrapper = mount(Host, { attachTo: document.body });
  return { w: wrapper, value, input: () => wrapper!.get<HTMLInputElement>('[data-testid="chain"]') };
}

const suggestions = () => [...document.querySelectorAll('[data-testid="chain-suggestion"]')];

describe('ChainInput', () => {
  it('shows name and EVM chain ID in the suggestions but fills the field with the name when one is clicked', async () => {
    const { value, input } = mountInput();
    await input().trigger('focus');
    await input().setValue('C-Ch');
    await until(() => expect(suggestions().map((s) => s.textContent)).toEqual([`C-Chain · ${C_CHAIN.evm}`]));
    (suggestions()[0]!.closest('.n-base-select-option') as HTMLElement).click();
    await until(() => expect(value.value).toBe('C-Chain'));
    expect(input().element.value).toBe('C-Chain');
  });

  it('takes the highlighted suggestion on Enter, as a value the filter accepts', async () => {
    const { transport, pinia } = await setupRealRenderer();
    wrapper = mount(FilterForm, { global: { plugins: [pinia] }, attachTo: document.body });
    const source = wrapper.get<HTMLInputElement>('[data-testid="filter-source"]');
    await source.trigger('focus');
    await source.setValue(C_CHAIN.evm.slice(0, 4));
    await until(() => expect(suggestions().map((s) => s.textContent)).toEqual([`C-Chain · ${C_CHAIN.evm}`]));
    await source.trigger('keydown', { key: 'Enter' });
    await until(() => expect(source.element.value).toBe('C-Chain'));
    await wrapper.get('[data-testid="filter-apply"]').trigger('click');
    await until(() => expect(transport.callsOf('browseMessages')).toHaveLength(1));
    expect(wrapper.find('[data-testid="field-error-source"]').exists()).toBe(false);
    expect(transport.callsOf('browseMessages')).toEqual([{ network: 'mainnet', sourceBlockchainId: C_CHAIN.blockchainId, pageSize: 10 }]);
  });
});
