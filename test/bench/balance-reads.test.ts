/**
 * bench:fuel's read-gap rule counts each wallet's balance reads at the real service, every request
 * whenever it came (not sampled at the core's polls): a read a minute after the last of its wallet is
 * too soon, one 5 minutes after is not, and another wallet's read or a list call never counts; a read
 * brought forward in the cycle of a fuel alert is excused, once per alert.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { balanceReadGaps } from '../../bench/balance-reads';
import { ServiceCount } from '../../bench/service-count';
import { get, serve } from '../local-service/helpers';

const MIN = 60_000;

describe('balance reads counted at the service', () => {
  it('finds the read sooner than the stated minimum, per wallet', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 13));
    const count = new ServiceCount(clock, true);
    const s = await serve({ clock, dryWallet: true, onCharge: count.onCharge });
    const info = (await get(`${s.url}/_local/info`)).json as { demoRelayers: { address: string }[] };
    const [a, b] = info.demoRelayers.map((r) => r.address);
    const read = async (wallet: string) => expect((await get(`${s.url}/v1/chains/43114/addresses/${wallet}/balances:getNative`)).status).toBe(200);
    await read(a!);
    await read(b!);
    await clock.advance(MIN);
    await read(a!); // a minute after a's last read: too soon
    await get(`${s.url}/v1/teleporter/messages?pageSize=1`);
    await clock.advance(5 * MIN);
    await read(a!); // 5 minutes after: not
    await read(b!); // b's first read was 6 minutes ago
    expect(balanceReadGaps(count, 'anonymous', 5 * MIN)).toEqual({ reads: 5, wallets: 2, tooSoon: 1, broughtForward: 0, smallestGapMinutes: 1 });
    // A read brought forward in the cycle a "low on gas" alert fired is excused, one per alert; not one far from it.
    const early = clock.now() - 5 * MIN;
    expect(balanceReadGaps(count, 'anonymous', 5 * MIN, [early + 10_000], 30_000)).toMatchObject({ tooSoon: 0, broughtForward: 1 });
    expect(balanceReadGaps(count, 'anonymous', 5 * MIN, [early + 2 * MIN], 30_000)).toMatchObject({ tooSoon: 1, broughtForward: 0 });
  });
});
