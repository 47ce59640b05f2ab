/**
 * The first read of many addresses (issue 27 item 6, bench:headless's request target): a thousand
 * watches added at once take their baseline in one pass over the unfiltered list, back to the
 * baseline's horizon, and that pass counts as the first trailing sweep: the watcher's first five
 * minutes cost no more than any later five (which read the list as deep once, in their sweep), instead
 * of reading the same half hour twice. Nothing is lost: a record the pass did not see (listed late,
 * older than the watches) is followed by the next sweep. Against the real local service, through the
 * real poller, counting its requests.
 */
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { BASELINE_HORIZON_MS } from '../../src/shared/policy';
import { TRAIL_PERIOD_MS } from '../../src/shared/policy';
import { PAGE_SIZE } from '../../src/core/poller/request-prices';
import { closedAfterEach } from '../support/closed-after-each';
import { engineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { around, pollerOn } from './poller-on-service';

const closing = closedAfterEach();

const INTERVAL_S = 30;
const WATCHES = 1000;
/** Messages a second, in the history and in the traffic. */
const RATE = 1.5;
const CYCLES_PER_PERIOD = TRAIL_PERIOD_MS / (INTERVAL_S * 1000);

describe('the first read of many addresses', () => {
  it('takes their baselines in one pass over the list, which counts as the first sweep: the first five minutes cost no more than the next five', async () => {
    const on = closing(await engineOnService({ preload: 0, seed: 34 }));

    const { svc, rig } = on;
    const watched = Array.from({ length: WATCHES }, (_, k) => getAddress(`0x${(k + 1).toString(16).padStart(40, '0')}`));
    let n = 0;
    const closed = (ts: number) => apiRecord({ from: watched[n++ % WATCHES], status: 'delivered', receiptDelivered: true, ts });
    const t0 = Math.floor(rig.clock.now() / 1000);
    const horizonS = BASELINE_HORIZON_MS / 1000;
    // Half an hour of settled history (the baseline's horizon), then older history the baseline leaves alone.
    const history = Array.from({ length: Math.round(RATE * 2 * horizonS) }, (_, k) => closed(t0 - 1 - Math.floor(k / RATE)));
    svc.store.upsertMany(history);
    rig.store.transaction(() => {
      for (const a of watched) rig.watch(a, { baselineDone: false });
    });

    const perCycle: number[] = [];
    let requests = 0;
    const { poller, kinds } = pollerOn(
      on,
      INTERVAL_S,
      around(on.client, () => requests++),
    );
    const cycle = async () => {
      const before = requests;
      await poller.pollNow();
      perCycle.push(requests - before);
      // The next interval's traffic, then the next cycle.
      const now = Math.floor(rig.clock.now() / 1000);
      svc.store.upsertMany(Array.from({ length: RATE * INTERVAL_S }, (_, k) => closed(now + 1 + Math.floor(k / RATE))));
      await rig.clock.advance(INTERVAL_S * 1000);
    };

    await cycle();
    // One pass over the list for all of them: its pages to the horizon, not a page (or more) per address.
    const pagesToHorizon = Math.ceil((RATE * horizonS) / PAGE_SIZE) + 1;
    expect(rig.store.watches.watcherInfos().addresses.every((a) => a.baselineDone)).toBe(true);
    expect(perCycle[0]).toBeLessThanOrEqual(pagesToHorizon + 2);

    // Listed a minute after the watches began, sent 20 min before: below the cursor's overlap, above the baseline's floor.
    const late = apiRecord({ from: watched[7], status: 'pending', ts: t0 - 20 * 60 });
    const id = late.messageId as string;
    await cycle();
    svc.store.upsert(late);
    while (perCycle.length < 2 * CYCLES_PER_PERIOD) await cycle();
    const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
    const first = sum(perCycle.slice(0, CYCLES_PER_PERIOD));
    const second = sum(perCycle.slice(CYCLES_PER_PERIOD));
    // The second period reads the list half an hour deep once (its sweep); the first no more than that, plus its first page.
    expect(first, `requests per cycle: ${perCycle.join(' ')}`).toBeLessThanOrEqual(second + 2);

    // Nothing lost: the next sweep found the late record, and its delivery fires.
    expect(rig.store.messages.state(id)).toMatchObject({ status: 'pending', tracked: true });
    svc.store.upsert({ ...late, status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x01', timestamp: t0 + 400 } });
    for (let i = 0; i < 20 && !kinds(id).includes('left_pending'); i++) await cycle();
    expect(kinds(id)).toContain('left_pending');
  }, 120_000);
});
