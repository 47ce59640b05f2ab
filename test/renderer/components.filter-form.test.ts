// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { VueWrapper } from '@vue/test-utils';
import FilterForm from '../../src/renderer/src/components/FilterForm.vue';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { FILTER_FIELD_MAP } from '../../src/renderer/src/logic/filter-form';
import { splitError } from '../../src/renderer/src/logic/field-errors';
import { MonitorError } from '../../src/shared/errors';
import { BEAM } from './fixtures';
import { mountOnRealCore, until } from './real-core';

const mountForm = () => mountOnRealCore(FilterForm);
const input = (w: VueWrapper, id: string) => w.get(`[data-testid="${id}"]`);

describe('FilterForm', () => {
  it('marks each invalid field with the validator reason and sends no request', async () => {
    const { w, transport } = await mountForm();
    await input(w, 'filter-from').setValue('0x123');
    await input(w, 'filter-source').setValue('Narnia');
    await input(w, 'filter-page-size').setValue('0');
    await w.get('form').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-from"]').text()).toBe('Sender must be 0x followed by 40 hex digits (got 3).'));
    expect(w.get('[data-testid="field-error-source"]').text()).toMatch(/"Narnia" is not a chain known on mainnet \(C-Chain, Beam/);
    expect(w.get('[data-testid="field-error-pageSize"]').text()).toBe('pageSize must not be less than 1.');
    expect(w.find('[data-testid="field-error-to"]').exists()).toBe(false);
    expect(transport.calls).toEqual([]);
  });

  it('sends the query once the fields are fixed, and clears the marks', async () => {
    const ctx = await mountForm();
    const { w, transport } = ctx;
    const target = ctx.service.simulator.addresses[5]!;
    await ctx.clock.advance(1000);
    ctx.service.simulator.send({ outcome: 'normal', to: target, destination: BEAM.blockchainId });
    await ctx.clock.advance(1000);
    await input(w, 'filter-to').setValue(target.toLowerCase().replace(/^0x/, '0x').slice(0, 10));
    await w.get('[data-testid="filter-apply"]').trigger('click');
    await until(() => expect(w.find('[data-testid="field-error-to"]').exists()).toBe(true));
    await input(w, 'filter-to').setValue(target.toLowerCase());
    await input(w, 'filter-destination').setValue('Beam');
    await w.get('form').trigger('submit');
    await until(() => expect(useMessagesStore().messages).toHaveLength(1));
    expect(w.find('[data-testid="field-error-to"]').exists()).toBe(false);
    expect(transport.callsOf('browseMessages')).toEqual([{ network: 'mainnet', destinationBlockchainId: BEAM.blockchainId, to: target, pageSize: 10 }]);
  });

  // The form validates with the contract's own schemas, so the real core never refuses what it sends;
  // a refusal from a newer core (version skew) still lands at the field it names.
  it('maps a field the core names to the form field', () => {
    const e = new MonitorError({ kind: 'invalid_input', field: 'sourceBlockchainId', message: 'The data source does not know this chain.' });
    expect(splitError(e, FILTER_FIELD_MAP)).toEqual({ fields: { source: 'The data source does not know this chain.' }, general: null });
  });
});
