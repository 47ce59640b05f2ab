/**
 * The redeemable rewards' reads (own nodes): a failed read keeps the last amounts and is tried again a
 * minute later, not at every cycle; a chain that is not seen (its node down) is not asked and keeps its
 * amounts; a credit no longer asked for is forgotten.
 */
import { describe, expect, it } from 'vitest';
import type { RewardsRead } from '../../src/core/own-nodes/relayer-rewards';
import { RedeemableReads } from '../../src/core/relayers/redeemable-reads';

const token = '0x000000000000000000000000000000000000fee2';
const credit = { relayer: '0xabc', chain: 'A', tokens: [token], paid: '1' };

function reader(answers: RewardsRead[]) {
  const asked: string[] = [];
  const errors: string[] = [];
  const reads = new RedeemableReads(
    async (chain) => {
      asked.push(chain);
      return answers.shift() ?? { ok: false, error: 'no more answers' };
    },
    5 * 60_000,
    (_c, e) => errors.push(e),
  );
  return { reads, asked, errors };
}

describe('redeemable reads', () => {
  it('a failed read keeps the last amounts and is tried again a minute later', async () => {
    const { reads, asked, errors } = reader([
      { ok: true, amounts: new Map([[token, 42n]]) },
      { ok: false, error: "A's node did not answer eth_call" },
      { ok: true, amounts: new Map([[token, 0n]]) },
    ]);
    await reads.refresh([credit], 0);
    expect(reads.amount('0xabc', 'A', token)).toBe(42n);
    await reads.refresh([credit], 5 * 60_000);
    expect(errors).toEqual(["A's node did not answer eth_call"]);
    expect(reads.amount('0xabc', 'A', token)).toBe(42n);
    await reads.refresh([credit], 5 * 60_000 + 59_000);
    expect(asked).toHaveLength(2);
    await reads.refresh([credit], 6 * 60_000);
    expect(asked).toHaveLength(3);
    expect(reads.amount('0xabc', 'A', token)).toBe(0n);
  });

  it('a chain that is not seen is not asked and keeps its amounts; once seen it is read when due', async () => {
    const { reads, asked } = reader([
      { ok: true, amounts: new Map([[token, 7n]]) },
      { ok: true, amounts: new Map([[token, 9n]]) },
    ]);
    await reads.refresh([credit], 0);
    await reads.refresh([{ ...credit, paid: '2' }], 60_000, () => false);
    expect(asked).toEqual(['A']);
    expect(reads.amount('0xabc', 'A', token)).toBe(7n);
    await reads.refresh([{ ...credit, paid: '2' }], 120_000, () => true);
    expect(asked).toEqual(['A', 'A']);
    expect(reads.amount('0xabc', 'A', token)).toBe(9n);
  });

  it('forgets a credit no longer asked for', async () => {
    const { reads } = reader([{ ok: true, amounts: new Map([[token, 7n]]) }]);
    await reads.refresh([credit], 0);
    await reads.refresh([], 1_000);
    expect(reads.amount('0xabc', 'A', token)).toBeNull();
  });
});
