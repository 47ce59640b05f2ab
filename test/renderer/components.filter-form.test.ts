// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import FilterForm from '../../src/renderer/src/components/FilterForm.vue';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { BEAM, addr, message } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

function mountForm(opts = {}) {
  const ctx = setupRenderer(opts);
  wrapper = mount(FilterForm, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  return { ...ctx, w: wrapper };
}
const input = (w: VueWrapper, id: string) => w.get(`[data-testid="${id}"]`);

describe('FilterForm', () => {
  it('marks each invalid field with the validator reason and sends no request', async () => {
    const { w, fake } = mountForm();
    await input(w, 'filter-from').setValue('0x123');
    await input(w, 'filter-source').setValue('Narnia');
    await input(w, 'filter-page-size').setValue('0');
    await w.get('form').trigger('submit');
    await flush();
    expect(w.get('[data-testid="field-error-from"]').text()).toBe('Sender must be 0x followed by 40 hex digits (got 3).');
    expect(w.get('[data-testid="field-error-source"]').text()).toMatch(/"Narnia" is not a chain known on mainnet \(C-Chain, Beam/);
    expect(w.get('[data-testid="field-error-pageSize"]').text()).toBe('pageSize must not be less than 1.');
    expect(w.find('[data-testid="field-error-to"]').exists()).toBe(false);
    expect(fake.calls).toEqual([]);
  });

  it('sends the query once the fields are fixed, and clears the marks', async () => {
    const target = addr(5);
    const { w, fake } = mountForm({ messages: [{ message: message({ n: 5, dst: BEAM, to: target }), network: 'mainnet' }] });
    await input(w, 'filter-to').setValue(target.toLowerCase().replace(/^0x/, '0x').slice(0, 10));
    await w.get('[data-testid="filter-apply"]').trigger('click');
    await flush();
    expect(w.find('[data-testid="field-error-to"]').exists()).toBe(true);
    await input(w, 'filter-to').setValue(target.toLowerCase());
    await input(w, 'filter-destination').setValue('Beam');
    await w.get('form').trigger('submit');
    await flush();
    expect(w.find('[data-testid="field-error-to"]').exists()).toBe(false);
    expect(fake.callsOf('browseMessages')).toEqual([{ network: 'mainnet', destinationBlockchainId: BEAM.blockchainId, to: target, pageSize: 10 }]);
    expect(useMessagesStore().messages).toHaveLength(1);
  });

  it('shows a field error the core reports at that field', async () => {
    const { w, fake } = mountForm();
    fake.failNext('browseMessages', { kind: 'invalid_input', field: 'sourceBlockchainId', message: 'The data source does not know this chain.' });
    await input(w, 'filter-source').setValue('43114');
    await w.get('form').trigger('submit');
    await flush();
    expect(w.get('[data-testid="field-error-source"]').text()).toBe('The data source does not know this chain.');
  });
});
