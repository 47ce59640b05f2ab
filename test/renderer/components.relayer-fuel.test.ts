// @vitest-environment happy-dom
/**
 * The Relayers view's fuel and earnings panels on given figures: what each cell says (amounts in their
 * units with the dollar value beside them, time to empty, the low mark, the last read's time or error,
 * a profit unknown for want of a price and which), the hour / day toggle, and the empty states.
 * The store and the panels on a real core are test/renderer/relayer-economics.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayerFuelPanel from '../../src/renderer/src/components/RelayerFuelPanel.vue';
import RelayerEarningsPanel from '../../src/renderer/src/components/RelayerEarningsPanel.vue';
import type { RelayerFuel, RouteEarnings } from '../../src/shared/relayers';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const NOW = Date.UTC(2026, 0, 1, 12);
const E18 = '000000000000000000';
const RELAYER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** The relayer every row below is about. */
const SWIFT = { relayer: RELAYER, relayerLabel: 'Swift' };

function fuel(over: Partial<RelayerFuel>): RelayerFuel {
  return {
    ...SWIFT,
    blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    chainName: 'C-Chain',
    balance: `12${E18}`,
    symbol: 'AVAX',
    decimals: 18,
    usdPrice: 20,
    burnLastHour: `3${E18}`,
    burnPerHourLastDay: '1500000000000000000',
    burnHours: 24,
    hoursToEmpty: 4,
    readAt: NOW - 120_000,
    readError: null,
    low: false,
    ...over,
  };
}

function earnings(over: Partial<RouteEarnings>): RouteEarnings {
  return {
    ...SWIFT,
    sourceChain: 'a',
    destinationChain: 'b',
    routeLabel: 'C-Chain → Beam',
    deliveries: 3,
    paid: [{ token: '0xt', symbol: 'USDC', decimals: 6, value: '2500000', fiat: { currencyCode: 'usd', value: 2.5 } }],
    owed: [{ token: '0xt', symbol: 'USDC', decimals: 6, value: '1000000', fiat: { currencyCode: 'usd', value: 1 } }],
    owedMessageIds: ['0xowed1'],
    gasSpent: '500000000000000000',
    gasSymbol: 'BEAM',
    gasDecimals: 18,
    gasUsd: 0.01,
    profitUsd: 2.49,
    failedExecutions: { count: 0, messageIds: [] },
    redeemable: null,
    ...over,
  };
}

const mountFuel = (rows: RelayerFuel[], watchedRelayers = 1) =>
  (wrapper = mount(RelayerFuelPanel, { props: { fuel: rows, thresholdHours: 6, readEveryMinutes: 5, maxAgeMinutes: 30, watchedRelayers, now: NOW } }));

describe('RelayerFuelPanel', () => {
  it('shows balance with its dollar value, both burn rates, time to empty and the last read', () => {
    const w = mountFuel([fuel({})]);
    const row = w.get('[data-testid="fuel-row"]');
    expect(row.attributes('data-low')).toBe('false');
    expect(row.get('[data-testid="fuel-balance"]').text()).toBe('12 AVAX $240.00');
    expect(row.get('[data-testid="fuel-burn-1h"]').text()).toBe('3 AVAX $60.00');
    expect(row.get('[data-testid="fuel-burn-24h"]').text()).toMatch(/^1\.5 AVAX \$30\.00/);
    expect(row.get('[data-testid="fuel-burn-hours"]').text()).toBe('over 24 h');
    expect(row.get('[data-testid="fuel-time-to-empty"]').text()).toBe('about 4 h');
    expect(row.get('[data-testid="fuel-read"]').text()).toBe('2 min ago');
    expect(row.find('[data-testid="fuel-low"]').exists()).toBe(false);
    // Between reads the time to empty is an estimate; far wallets are read less often than near ones.
    expect(w.get('[data-testid="fuel-about"]').text()).toContain('The balance is as of its last read; the time to empty is an estimate');
    expect(w.get('[data-testid="fuel-about"]').text()).toContain('read every 30 min, and every 5 min while it is low or would run dry within 12 h');
    expect(w.get('[data-testid="fuel-about"]').text()).toContain('marked low when it would run dry within 6 h');
  });

  it('marks a low wallet, says when nothing was burnt, and shows a failed read and a wallet never read', () => {
    const w = mountFuel([
      fuel({ low: true, hoursToEmpty: 1.5, balance: '4500000000000000', usdPrice: null }),
      fuel({
        chainName: 'Beam',
        blockchainId: 'beam',
        symbol: 'BEAM',
        usdPrice: 0.00001,
        burnLastHour: '0',
        hoursToEmpty: null,
        readError: 'The Data API answered 503.',
      }),
      fuel({ chainName: 'DFK', blockchainId: 'dfk', balance: null, readAt: null, hoursToEmpty: null }),
    ]);
    const [low, quiet, never] = w.findAll('[data-testid="fuel-row"]');
    expect(low!.attributes('data-low')).toBe('true');
    expect(low!.get('[data-testid="fuel-low"]').text()).toContain('low');
    expect(low!.get('[data-testid="fuel-time-to-empty"]').text()).toContain('about 1 h 30 min');
    // Small amounts keep their significant digits; a missing price is said, not shown as $0.
    expect(low!.get('[data-testid="fuel-balance"]').text()).toBe('0.0045 AVAX (no price)');
    expect(quiet!.get('[data-testid="fuel-time-to-empty"]').text()).toBe('no burn in the last hour');
    // A tiny but non-zero dollar value is not shown as $0.00.
    expect(quiet!.get('[data-testid="fuel-burn-24h"]').text()).toMatch(/^1\.5 BEAM < \$0\.0001/);
    expect(quiet!.get('[data-testid="fuel-balance"]').text()).toBe('12 BEAM $0.0001');
    expect(quiet!.get('[data-testid="fuel-read-error"]').text()).toBe('last read failed: The Data API answered 503.');
    expect(quiet!.get('[data-testid="fuel-read"]').text()).toContain('2 min ago');
    expect(never!.get('[data-testid="fuel-balance"]').text()).toBe('not read yet');
    expect(never!.get('[data-testid="fuel-time-to-empty"]').text()).toBe('—');
    expect(never!.get('[data-testid="fuel-read"]').text()).toBe('at the next poll');
  });

  it("says the hours a first day's rate is over, and a time to empty beyond a year as such", () => {
    const w = mountFuel([fuel({ burnHours: 1 + 10 / 60 }), fuel({ chainName: 'Beam', blockchainId: 'beam', hoursToEmpty: 8760 })]);
    const [first, far] = w.findAll('[data-testid="fuel-row"]');
    expect(first!.get('[data-testid="fuel-burn-hours"]').text()).toBe('over 1 h 10 min');
    expect(w.get('thead').text()).toContain('Burnt per hour, over the time held');
    expect(far!.get('[data-testid="fuel-time-to-empty"]').text()).toBe('more than a year');
  });

  it('says what to do when empty: watch a relayer first, else when balances are read', () => {
    expect(mountFuel([], 0).get('[data-testid="fuel-empty"]').text()).toMatch(/^Watch a relayer first.*read at least every 30 min/);
    wrapper!.unmount();
    expect(mountFuel([], 2).get('[data-testid="fuel-empty"]').text()).toMatch(/^No wallet read yet.*at least every 30 min/);
  });
});

describe('RelayerEarningsPanel', () => {
  it('shows paid, owed, gas and profit per route, toggles hour and day, and emits a failed count click', async () => {
    const hour = [earnings({ failedExecutions: { count: 2, messageIds: ['0x01', '0x02'] } })];
    const day = [
      earnings({}),
      earnings({
        routeLabel: 'C-Chain → DFK',
        destinationChain: 'c',
        paid: [{ token: '0xn', symbol: 'NOPE', decimals: 18, value: `1${E18}`, fiat: null }],
        owed: [],
        owedMessageIds: [],
        gasUsd: null,
        gasSymbol: 'JEWEL',
        profitUsd: null,
      }),
    ];
    wrapper = mount(RelayerEarningsPanel, { props: { earnings: { hour, day }, watchedRelayers: 1 }, attachTo: document.body });
    const w = wrapper;
    expect(w.get('[data-testid="earnings-table"]').attributes('data-window')).toBe('hour');
    const row = w.get('[data-testid="earnings-row"]');
    // Where the credit is not read (redeemable null: the Data API), what was paid offers its Redeem call; an owed fee its Receipts call.
    expect(row.get('[data-testid="earnings-paid"]').text()).toBe('2.5 USDC ($2.50) Redeem call');
    expect(row.get('[data-testid="earnings-owed"]').text()).toBe('1 USDC ($1.00)Receipts call');
    await row.get('[data-testid="earnings-paid-redeem-call"]').trigger('click');
    expect(w.emitted('redeem-call')).toEqual([[hour[0], hour[0]!.paid[0]]]);
    await row.get('[data-testid="earnings-receipts-call"]').trigger('click');
    expect(w.emitted('receipts-call')).toEqual([[hour[0]]]);
    expect(row.get('[data-testid="earnings-gas"]').text()).toBe('0.5 BEAM ($0.01)');
    // Profit says what it holds (paid less gas); what is owed stands beside it, not in it.
    expect(w.get('thead').text()).toContain('Profit (paid − gas)');
    expect(row.get('[data-testid="earnings-profit"]').text()).toMatch(/^\$2\.49/);
    expect(row.get('[data-testid="earnings-profit-owed"]').text()).toBe('+ $1.00 owed, not in it');
    await row.get('[data-testid="earnings-failed"]').trigger('click');
    const emitted = w.emitted('open-failed') as [RouteEarnings, string][];
    expect(emitted).toHaveLength(1);
    expect(emitted[0]![0].failedExecutions.messageIds).toEqual(['0x01', '0x02']);
    expect(emitted[0]![1]).toBe('hour');

    await w.get('[data-testid="earnings-window-day"] input').setValue(true);
    expect(w.get('[data-testid="earnings-table"]').attributes('data-window')).toBe('day');
    const rows = w.findAll('[data-testid="earnings-row"]');
    expect(rows).toHaveLength(2);
    const unknown = rows[1]!;
    expect(unknown.get('[data-testid="earnings-owed"]').text()).toBe('none');
    expect(unknown.find('[data-testid="earnings-receipts-call"]').exists()).toBe(false);
    expect(unknown.find('[data-testid="earnings-profit-owed"]').exists()).toBe(false);
    expect(unknown.get('[data-testid="earnings-profit"]').attributes('data-known')).toBe('false');
    expect(unknown.get('[data-testid="earnings-profit-unknown"]').text()).toBe('—');
    expect(unknown.get('[data-testid="earnings-profit-unknown"]').attributes('title')).toBe('No price known for NOPE, JEWEL: profit cannot be computed.');
    expect(unknown.find('[data-testid="earnings-failed"]').exists()).toBe(false);
    expect(w.find('[data-testid="earnings-redeemable"]').exists()).toBe(false);
  });

  it('shows the redeemable column when an own node answered, and says what to do when empty', async () => {
    const redeem = [earnings({ redeemable: [{ token: '0xt', symbol: 'USDC', decimals: 6, value: '7000000', fiat: null }] })];
    wrapper = mount(RelayerEarningsPanel, { props: { earnings: { hour: redeem, day: [] }, watchedRelayers: 1 } });
    expect(wrapper.get('[data-testid="earnings-redeemable"]').text()).toBe('7 USDC Redeem call');
    // The credit is read: Redeem call stands beside it, not beside what was paid.
    expect(wrapper.find('[data-testid="earnings-paid-redeem-call"]').exists()).toBe(false);
    // Its exact redeemRelayerRewards call is asked for that row and token.
    await wrapper.get('[data-testid="earnings-redeem-call"]').trigger('click');
    expect(wrapper.emitted('redeem-call')).toEqual([[redeem[0], redeem[0]!.redeemable![0]]]);
    await wrapper.setProps({ earnings: { hour: [], day: [] }, watchedRelayers: 0 });
    expect(wrapper.get('[data-testid="earnings-empty"]').text()).toMatch(/^Watch a relayer first/);
    await wrapper.setProps({ watchedRelayers: 1 });
    expect(wrapper.get('[data-testid="earnings-empty"]').text()).toBe('No delivery by a watched relayer on a watched route in the last hour.');
  });
});
