/**
 * The fuel figures' and alert's rules one by one (src/core/relayers/fuel.ts): the day's burn rate over
 * the hours held, and a refill told from the balance and the burn since the previous read.
 */
import { describe, expect, it } from 'vitest';
import { decideFuelAlert, fuelFigures, heldHours, type FuelAlertState, type GasPayment } from '../../../src/core/relayers/fuel';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 1, 12);
const ETH = 10n ** 18n;
const names = { relayer: 'Swift', chain: 'C-Chain' };

describe('the day burn rate', () => {
  const payments: GasPayment[] = [
    { at: NOW - 30 * 60_000, wei: 2n * ETH },
    { at: NOW - 50 * 60_000, wei: 1n * ETH },
  ];

  it('divides the day spend by the hours held, not 24, on the first day', () => {
    const held = fuelFigures(10n * ETH, payments, NOW, NOW - HOUR);
    expect(held.burnHours).toBe(1);
    expect(held.burnPerHourLastDay).toBe(3n * ETH);
    expect(held.burnPerHourLastDay).toBe(held.burnPerHourLastHour);
    const quarter = fuelFigures(10n * ETH, payments, NOW, NOW - 4 * HOUR);
    expect(quarter.burnHours).toBe(4);
    expect(quarter.burnPerHourLastDay).toBe((3n * ETH) / 4n);
  });

  it('divides by 24 once the whole day is held, and never by less than an hour', () => {
    expect(fuelFigures(10n * ETH, payments, NOW, null).burnPerHourLastDay).toBe((3n * ETH) / 24n);
    expect(heldHours(NOW, NOW - 30 * HOUR)).toBe(24);
    expect(heldHours(NOW, NOW - 10 * 60_000)).toBe(1);
    expect(heldHours(NOW, NOW - 90 * 60_000)).toBe(1.5);
  });
});

describe('the fuel alert', () => {
  const burn: GasPayment[] = [{ at: NOW - 20 * 60_000, wei: 4n * ETH }];
  const firing: FuelAlertState = { firing: true, lastRead: { balance: 5n * ETH, at: NOW - 30 * 60_000 } };
  const readOf = (balance: bigint, payments = burn) => ({ figures: fuelFigures(balance, payments, NOW), payments, at: NOW });

  it('resolves on a refill smaller than the burn since the last read (the balance fell, but less than the burn)', () => {
    // 5 read, 4 burnt since, 2 refilled: the read shows 3, lower than 5 yet above the 1 the burn leaves.
    const d = decideFuelAlert(firing, readOf(3n * ETH), 6, names);
    expect(d.change).toEqual({ kind: 'resolve', text: 'Relayer Swift was refilled on C-Chain.' });
    expect(d.state).toEqual({ firing: false, lastRead: { balance: 3n * ETH, at: NOW } });
  });

  it('keeps firing when the read shows what the burn left (no refill), or less (spending outside the watched routes)', () => {
    expect(decideFuelAlert(firing, readOf(1n * ETH), 6, names).change).toBeNull();
    expect(decideFuelAlert(firing, readOf(ETH / 2n), 6, names).change).toBeNull();
  });

  it('says the time to empty as the Relayers view does: rounded, "about 40 min" rather than "about 1 h"', () => {
    // 2.72 per hour, 1.85 left: 40.8 min, rounded to 5 min.
    const hour: GasPayment[] = [{ at: NOW - 10 * 60_000, wei: 2_720_000_000_000_000_000n }];
    const d = decideFuelAlert({ firing: false }, readOf(1_850_000_000_000_000_000n, hour), 6, names);
    expect(d.change).toEqual({ kind: 'fire', text: "Relayer Swift will run out of gas on C-Chain in about 40 min at the last hour's rate." });
  });
});
