/**
 * Adding a watch loses nothing (issue 27, item 3): under a short budget (60 requests a minute at a 30 s
 * interval, the keyless default) a new watch's first read of history (its baseline) takes several
 * cycles; a change that happens after the watch was added is still reported, a message its baseline saw
 * pending fires when it moves on, and the news of the watches already live is not held up by it.
 * Against the real local service, through the real poller.
 */
import { describe, expect, it } from 'vitest';
import { FIREHOSE_BASELINE_MIN_ADDRESSES } from '../../src/shared/policy';
import { PAGE_SIZE } from '../../src/core/poller/request-prices';
import { closedAfterEach } from '../support/closed-after-each';
import { engineOnService } from './engine-on-service';
import { apiRecord } from './helpers';
import { around, pollerOn } from './poller-on-service';

const closing = closedAfterEach();

const INTERVAL_S = 30;
const BUDGET_PER_MINUTE = 60;
/** Pages of the new watch's history, each with one message still open: more than one cycle's budget. */
const HISTORY_PAGES = 45;

describe('adding a watch loses nothing', () => {
  it.each([
    { live: 2, mode: 'firehose' },
    { live: 1, mode: 'per-address' },
  ])(
    'under a short budget, changes after the watch was added fire while its long baseline is paged over several cycles ($mode)',
    // Dozens of cycles on the manual clock: about 10 s quiet, more on a loaded machine.
    { timeout: 90_000 },
    async ({ live }) => {
      const on = closing(await engineOnService({ preload: 50, seed: 27 }));
      const { svc, rig } = on;
      const [x, w] = [svc.simulator.addresses[0]!, svc.simulator.addresses[2]!];
      const others = svc.simulator.addresses.slice(0, live);
      const t0 = Math.floor(rig.clock.now() / 1000);
      // W's history: close to half an hour of messages (within the baseline's horizon), one still open (awaiting its receipt) on every page.
      const n = HISTORY_PAGES * PAGE_SIZE;
      const history = Array.from({ length: n }, (_, k) =>
        apiRecord({ from: w, status: 'delivered', receiptDelivered: k % PAGE_SIZE !== 50, ts: t0 - 10 - Math.floor((k * 1700) / n) }),
      );
      // Pending when W is added, on its first page of history: its delivery comes while the baseline runs.
      const pendingAtAdd = apiRecord({ from: w, status: 'pending', ts: t0 - 5 });
      svc.store.upsertMany([...history, pendingAtAdd]);
      for (const a of others) rig.watch(a);
      const calls: string[] = [];
      const { poller, kinds } = pollerOn(
        on,
        INTERVAL_S,
        around(on.client, (m) => calls.push(m)),
        BUDGET_PER_MINUTE,
      );
      await poller.pollNow();

      await rig.clock.advance(1000);
      rig.watch(w, { baselineDone: false });
      // Sent just after W was added; then delivered, then its receipt back, a cycle apart.
      const fresh = apiRecord({ from: w, status: 'pending', ts: t0 + 2 });
      // News for X while W's baseline takes the budget.
      const forX = apiRecord({ to: x, status: 'pending', ts: t0 + 3 });
      svc.store.upsertMany([fresh, forX]);

      const seenAt = new Map<string, number>();
      let cycles = 0;
      const step = async () => {
        await rig.clock.advance(INTERVAL_S * 1000);
        await poller.pollNow();
        cycles++;
        for (const id of [fresh.messageId, forX.messageId, pendingAtAdd.messageId] as string[]) if (!seenAt.has(id) && kinds(id).length) seenAt.set(id, cycles);
      };
      await step();
      svc.store.upsert({ ...fresh, status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x01', timestamp: t0 + 40 } });
      svc.store.upsert({ ...pendingAtAdd, status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x02', timestamp: t0 + 40 } });
      await step();
      svc.store.upsert({
        ...fresh,
        status: 'delivered',
        messageExecuted: true,
        destinationTransaction: { txHash: '0x01', timestamp: t0 + 40 },
        receiptDelivered: true,
      });
      while (cycles < 12) await step();

      // Read as planned: through the unfiltered list, or each address's own.
      expect(calls.includes('listMessages')).toBe(live === 2);
      // The baseline needed more than one cycle's budget, and it ended.
      expect(rig.store.watches.watcherInfos().addresses.find((a) => a.key === w)).toMatchObject({ baselineDone: true });
      // Every change after W was added was reported, once.
      expect(kinds(fresh.messageId as string)).toEqual(['new', 'left_pending', 'receipt_delivered']);
      expect(kinds(pendingAtAdd.messageId as string)).toEqual(['left_pending']);
      // X's news came in the first cycle after it was sent, not after W's baseline.
      expect(seenAt.get(forX.messageId as string)).toBe(1);
      expect(kinds(forX.messageId as string)).toEqual(['new']);
      // History stayed history.
      const historyIds = new Set(history.map((h) => h.messageId as string));
      expect(rig.store.transitions.list({}).filter((t) => historyIds.has(t.messageId))).toEqual([]);
    },
  );

  it('many new watches at once: their one pass over the unfiltered list goes on from its page over several cycles, and their news fires meanwhile', async () => {
    const on = closing(await engineOnService({ preload: 50, seed: 28 }));
    const { svc, rig } = on;
    const watched = svc.simulator.addresses.slice(0, FIREHOSE_BASELINE_MIN_ADDRESSES);
    const t0 = Math.floor(rig.clock.now() / 1000);
    // Close to half an hour of the list (within the baseline's horizon), 40 pages: more than a cycle's 30 requests.
    const n = 40 * PAGE_SIZE;
    const history = Array.from({ length: n }, (_, k) =>
      // Delivered (10 s after sending) before the watches were added.
      apiRecord({ to: k % 10 === 0 ? watched[k % FIREHOSE_BASELINE_MIN_ADDRESSES] : undefined, status: 'delivered', ts: t0 - 20 - Math.floor((k * 1700) / n) }),
    );
    svc.store.upsertMany(history);
    for (const a of watched) rig.watch(a, { baselineDone: false });
    const pages: (string | undefined)[] = [];
    const { poller, kinds } = pollerOn(
      on,
      INTERVAL_S,
      around(on.client, (m, q) => {
        if (m === 'listMessages') pages.push(q?.pageToken);
      }),
      BUDGET_PER_MINUTE,
    );
    await poller.pollNow();
    expect(rig.store.watches.watcherInfos().addresses.every((a) => !a.baselineDone)).toBe(true); // cut short by the budget
    await rig.clock.advance(1000);
    const fresh = apiRecord({ from: watched[3], status: 'pending', ts: t0 + 1 });
    svc.store.upsert(fresh);
    const before = pages.length;
    for (let i = 0; i < 4 && rig.store.watches.watcherInfos().addresses.some((a) => !a.baselineDone); i++) {
      await rig.clock.advance(INTERVAL_S * 1000);
      await poller.pollNow();
    }
    expect(rig.store.watches.watcherInfos().addresses.every((a) => a.baselineDone)).toBe(true);
    // It went on from its page: the second cycle's pages are the rest of the half hour, not the first 30 again.
    expect(pages.length - before).toBeLessThan(30);
    expect(kinds(fresh.messageId as string)).toEqual(['new']);
    svc.store.upsert({ ...fresh, status: 'delivered', messageExecuted: true, destinationTransaction: { txHash: '0x03', timestamp: t0 + 50 } });
    await rig.clock.advance(INTERVAL_S * 1000);
    await poller.pollNow();
    expect(kinds(fresh.messageId as string)).toEqual(['new', 'left_pending']);
    const historyIds = new Set(history.map((h) => h.messageId as string));
    expect(rig.store.transitions.list({}).filter((t) => historyIds.has(t.messageId))).toEqual([]);
  });
});
