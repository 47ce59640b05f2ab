/**
 * A wallet's time to empty, one formula (src/core/relayers/fuel.ts): the balance over the last hour's
 * burn; between reads, the last read less what deliveries paid since. The fuel row (fuel-rows.ts), the
 * read cadence and the fuel alert all take it from there.
 */
import { describe, expect, it } from 'vitest';
import { balanceNow, estimatedHoursToEmpty, fuelFigures, hoursToEmpty, lastHourBurn } from '../../../src/core/relayers/fuel';
import { burnHeldFrom, fuelRow } from '../../../src/core/relayers/fuel-rows';
import type { FuelRead } from '../../../src/core/store/relayer-fuel';
import type { WatchedRelayer } from '../../../src/shared/relayers';
import { C_CHAIN } from '../helpers';

const MIN = 60_000;
const ETHER = 10n ** 18n;
const NOW = Date.UTC(2026, 0, 1, 12);
const relayer = '0x1111111111111111111111111111111111111111';
const watched: WatchedRelayer = { address: relayer, label: '', network: 'mainnet', silentMinutes: 30, pendingMinutes: 10, alert: true, createdAt: 0 };
const read = (balance: bigint, readAt: number, over: Partial<FuelRead> = {}): FuelRead => ({
  relayer,
  blockchainId: C_CHAIN,
  balance,
  symbol: 'AVAX',
  decimals: 18,
  usdPrice: null,
  readAt,
  triedAt: readAt,
  readError: null,
  ...over,
});

describe('hours to empty', () => {
  it('is the balance over the burn per hour, exact to the micro-hour for any wei amount; none without a burn', () => {
    expect(hoursToEmpty(10n * ETHER, 4n * ETHER)).toBe(2.5);
    expect(hoursToEmpty(1n, 3n)).toBe(0.333333);
    expect(hoursToEmpty(10n ** 30n, 7n * 10n ** 18n)).toBeCloseTo(10 ** 12 / 7, 3);
    expect(hoursToEmpty(5n * ETHER, 0n)).toBeNull();
    expect(fuelFigures(5n * ETHER, [{ at: NOW - MIN, wei: 2n * ETHER }], NOW).hoursToEmpty).toBe(2.5);
  });

  it('burns only what the hour up to now paid: not an hour ago, not later', () => {
    const payments = [
      { at: NOW - 60 * MIN, wei: 100n },
      { at: NOW - 60 * MIN + 1, wei: 20n },
      { at: NOW, wei: 3n },
      { at: NOW + 1, wei: 1000n },
    ];
    expect(lastHourBurn(payments, NOW)).toBe(23n);
  });

  it('between reads: the last read less what was paid after it (never below 0); unknown until read', () => {
    const payments = [
      { at: NOW - 30 * MIN, wei: 2n * ETHER }, // before the read: already out of its balance, but in the hour's burn
      { at: NOW - 5 * MIN, wei: 1n * ETHER }, // after the read
    ];
    const r = read(10n * ETHER, NOW - 10 * MIN);
    expect(balanceNow(r, payments)).toBe(9n * ETHER);
    expect(estimatedHoursToEmpty(r, payments, NOW)).toBe(3);
    expect(balanceNow(read(ETHER / 2n, NOW - 10 * MIN), payments)).toBe(0n);
    expect(estimatedHoursToEmpty(read(ETHER / 2n, NOW - 10 * MIN), payments, NOW)).toBe(0);
    expect(estimatedHoursToEmpty(undefined, payments, NOW)).toBeNull();
    expect(estimatedHoursToEmpty(read(0n, 0, { balance: null, readAt: null, readError: 'timeout' }), payments, NOW)).toBeNull();
    expect(estimatedHoursToEmpty(r, [{ at: NOW - 2 * 60 * MIN, wei: ETHER }], NOW)).toBeNull(); // no burn in the last hour
  });
});

describe('a wallet’s fuel row', () => {
  it('shows the estimate between reads, rounded to its step, and the burns over the hours held', () => {
    const payments = [
      { at: NOW - 30 * MIN, wei: 2n * ETHER },
      { at: NOW - 5 * MIN, wei: 1n * ETHER },
      { at: NOW - 3 * 60 * MIN, wei: 3n * ETHER },
    ];
    const row = fuelRow({ relayer, watched, blockchainId: C_CHAIN, payments }, read(10n * ETHER + 1234n, NOW - 10 * MIN), true, NOW, [], null);
    // Held from the wallet's first payment of the day (3 h ago): the day's burn is over those hours.
    expect(row).toMatchObject({ balance: (10n * ETHER + 1234n).toString(), hoursToEmpty: 3, low: true, chainName: 'C-Chain', symbol: 'AVAX', burnHours: 3 });
    expect(row.burnLastHour).toBe((3n * ETHER).toString());
    expect(row.burnPerHourLastDay).toBe((2n * ETHER).toString());
    // The routes' history starts 2 h ago, after that payment: held from then.
    expect(burnHeldFrom(payments, NOW - 2 * 60 * MIN)).toBe(NOW - 2 * 60 * MIN);
    expect(burnHeldFrom(payments, NOW - 4 * 60 * MIN)).toBe(NOW - 3 * 60 * MIN);
    expect(burnHeldFrom([], NOW - 4 * 60 * MIN)).toBe(NOW - 4 * 60 * MIN);
    const young = fuelRow({ relayer, watched, blockchainId: C_CHAIN, payments }, read(10n * ETHER, NOW - 10 * MIN), false, NOW, [], NOW - 2 * 60 * MIN);
    expect(young).toMatchObject({ burnHours: 2, burnPerHourLastDay: (3n * ETHER).toString(), low: false });
    // A wallet paying since more than a day: the whole day.
    const old = fuelRow(
      { relayer, watched, blockchainId: C_CHAIN, payments: [...payments, { at: NOW - 25 * 60 * MIN, wei: 9n * ETHER }] },
      undefined,
      false,
      NOW,
      [],
      null,
    );
    expect(old).toMatchObject({ burnHours: 24, burnPerHourLastDay: ((6n * ETHER) / 24n).toString() });
  });

  it('never read: no balance, no estimate, the chain’s own symbol and 18 decimals; a failed read says why', () => {
    const row = fuelRow({ relayer, watched, blockchainId: C_CHAIN, payments: [{ at: NOW - MIN, wei: ETHER }] }, undefined, false, NOW, [], null);
    expect(row).toMatchObject({ balance: null, hoursToEmpty: null, symbol: 'AVAX', decimals: 18, readAt: null, readError: null });
    const failed = fuelRow(
      { relayer, watched, blockchainId: C_CHAIN, payments: [] },
      read(0n, 0, { balance: null, readAt: null, symbol: '', decimals: 0, readError: 'HTTP 503' }),
      false,
      NOW,
      [],
      null,
    );
    expect(failed).toMatchObject({ balance: null, hoursToEmpty: null, decimals: 18, readError: 'HTTP 503' });
  });
});
