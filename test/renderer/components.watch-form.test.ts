// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import WatchForm from '../../src/renderer/src/components/WatchForm.vue';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { addr } from './fixtures';
import { mountOnRealCore, until } from './real-core';

const mountForm = () => mountOnRealCore(WatchForm, { defaultNetwork: 'fuji' });

/** Flips the letter case of the first hex letter: same address, broken EIP-55 checksum. */
const breakChecksum = (a: string) => {
  const i = a.slice(2).search(/[a-fA-F]/) + 2;
  const c = a[i]!;
  return a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1);
};

describe('WatchForm', () => {
  it('refuses a bad checksum at the address field, sending nothing', async () => {
    const { w, transport } = await mountForm();
    await w.get('[data-testid="watch-address"]').setValue(breakChecksum(addr(3)));
    await w.get('form').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-address"]').text()).toContain(`did you mean ${addr(3)}?`));
    expect(transport.calls).toEqual([]);
  });

  it('adds the address with its label, network and notification switches, then clears the form', async () => {
    const { w, transport } = await mountForm();
    await w.get('[data-testid="watch-address"]').setValue(addr(3).toLowerCase());
    await w.get('[data-testid="watch-label"]').setValue('Relayer');
    // Turn "new" on (default off) and "stuck" off (default on).
    await w.get('[data-testid="watch-notify-new"]').trigger('click');
    await w.get('[data-testid="watch-notify-stuck"]').trigger('click');
    await w.get('[data-testid="watch-add"]').trigger('click');
    await until(() => expect(useWatchlistStore().watches).toHaveLength(1));
    await until(() => expect((w.get('[data-testid="watch-address"]').element as HTMLInputElement).value).toBe(''));
    expect(transport.callsOf('addWatch')).toEqual([
      { address: addr(3).toLowerCase(), label: 'Relayer', network: 'fuji', notify: { new: true, left_pending: true, receipt_delivered: true, stuck: false } },
    ]);
    expect(useWatchlistStore().watches.map((x) => [x.address, x.label, x.network])).toEqual([[addr(3), 'Relayer', 'fuji']]);
    expect((w.get('[data-testid="watch-address"]').element as HTMLInputElement).value).toBe('');
    expect(w.find('[data-testid="field-error-address"]').exists()).toBe(false);
  });
});
