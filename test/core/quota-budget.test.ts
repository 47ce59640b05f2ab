/**
 * The budget's arithmetic in compute units on an injected clock: a greedy caller over a simulated
 * day never passes the day's quota nor any minute's limit, the day's quota is spread over the day,
 * today's spend survives a restart (a real SQLite file) and starts again at 00:00 UTC, the server's
 * day-window headers stop it, and the quota line projects the current pace.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { PLAN_LIMITS, QUOTA_SAFETY_MARGIN, REQUEST_CU, resolvePlan, planFromRequestBudget, type PlanLimits } from '../../src/shared/plans';
import { RequestBudget, type DaySpend, type SpendStore } from '../../src/core/data-api/budget';
import type { Store } from '../../src/core/store';
import { useStoreFolder } from './store/store-rig';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const MIDNIGHT = Date.UTC(2026, 2, 10);

/** Sends as soon as the budget allows, every second of [from, to): the send times. */
async function greedy(clock: ManualClock, budget: RequestBudget, to: number): Promise<number[]> {
  const sent: number[] = [];
  while (clock.now() < to) {
    let n = budget.available();
    while (n-- > 0) {
      await budget.acquire();
      sent.push(clock.now());
    }
    await clock.advance(1000);
  }
  return sent;
}

/** The most CU any 60 s window holds. */
function worstMinute(sent: number[], cu = REQUEST_CU): number {
  let worst = 0;
  let lo = 0;
  for (let hi = 0; hi < sent.length; hi++) {
    while ((sent[hi] as number) - (sent[lo] as number) >= MIN) lo++;
    worst = Math.max(worst, (hi - lo + 1) * cu);
  }
  return worst;
}

const memoryStore = (): SpendStore & { value?: DaySpend } => {
  const s: SpendStore & { value?: DaySpend } = {
    load: () => s.value,
    save: (v) => void (s.value = v),
  };
  return s;
};

describe('the budget over a simulated day', () => {
  for (const name of ['unauthenticated', 'free'] as const) {
    it(`${name}: a greedy caller never passes the day's quota nor a minute's limit, and still gets most of the day`, async () => {
      const plan: PlanLimits = PLAN_LIMITS[name];
      const clock = new ManualClock(MIDNIGHT);
      const budget = new RequestBudget(clock, plan, { planName: name });
      const sent = await greedy(clock, budget, MIDNIGHT + DAY - 1000);
      const spent = sent.length * REQUEST_CU;
      expect(spent).toBeLessThanOrEqual(plan.cuPerDay * (1 - QUOTA_SAFETY_MARGIN));
      expect(spent).toBeGreaterThan(plan.cuPerDay * (1 - QUOTA_SAFETY_MARGIN) - 2 * plan.cuPerMinute);
      expect(worstMinute(sent)).toBeLessThanOrEqual(plan.cuPerMinute * (1 - QUOTA_SAFETY_MARGIN));
      // Spread over the day: by each hour no more than that hour's share of the day plus one minute's burst.
      for (let h = 1; h <= 24; h++) {
        const byThen = sent.filter((t) => t < MIDNIGHT + h * HOUR).length * REQUEST_CU;
        expect(byThen).toBeLessThanOrEqual((plan.cuPerDay * (1 - QUOTA_SAFETY_MARGIN) * h) / 24 + plan.cuPerMinute);
      }
      expect(budget.quota()).toMatchObject({ plan: name, spentCuToday: spent, requestsToday: sent.length });
    }, 60_000);
  }

  it('what is not spent early may be spent later, at the burst cap, and the day still ends within its quota', async () => {
    const plan = PLAN_LIMITS.unauthenticated;
    const clock = new ManualClock(MIDNIGHT + 12 * HOUR); // first start at noon: half the day's pace is saved up
    const budget = new RequestBudget(clock, plan);
    const firstHour = await greedy(clock, budget, MIDNIGHT + 13 * HOUR);
    // Far more than an hour's pace (1/24 of the day), but no minute over its limit.
    expect(firstHour.length * REQUEST_CU).toBeGreaterThan(((plan.cuPerDay * 0.95) / 24) * 5);
    expect(worstMinute(firstHour)).toBeLessThanOrEqual(plan.cuPerMinute * 0.95);
    const rest = await greedy(clock, budget, MIDNIGHT + DAY);
    expect((firstHour.length + rest.length) * REQUEST_CU).toBeLessThanOrEqual(plan.cuPerDay * 0.95);
  }, 60_000);

  it('weighs each call: a 50 CU call counts 50 toward the minute and the day', async () => {
    const clock = new ManualClock(MIDNIGHT + HOUR);
    const budget = new RequestBudget(clock, { cuPerMinute: 1000, cuPerDay: 1_000_000 }, { margin: 0 });
    for (let i = 0; i < 20; i++) await budget.acquire(undefined, 50);
    expect(budget.quota()).toMatchObject({ spentCuToday: 1000, requestsToday: 20, cuLastMinute: 1000 });
    expect(budget.available()).toBe(0);
    expect(budget.shortfall().message).toMatch(/minute's budget is used up: 1,000 of 1,000 CU/);
  });

  it("stops at the day's quota until 00:00 UTC, says so, and starts the new day from nothing", async () => {
    // Half a minute before midnight: the pace line allows the whole day by then.
    const clock = new ManualClock(MIDNIGHT + DAY - 30_000);
    const plan = { cuPerMinute: 10_000, cuPerDay: 2_000 };
    const budget = new RequestBudget(clock, plan, { margin: 0 });
    for (let i = 0; i < 100; i++) await budget.acquire();
    expect(budget.available()).toBe(0);
    const why = budget.shortfall();
    expect(why).toMatchObject({ kind: 'rate_limited', retryAt: MIDNIGHT + DAY });
    expect(why.message).toMatch(/Today's quota is spent: 2,000 of 2,000 CU.*00:00 UTC/);
    expect(budget.quota().level).toBe('exhausted');
    await clock.advance(HOUR);
    expect(budget.quota()).toMatchObject({ spentCuToday: 0, requestsToday: 0, level: 'ok' });
    expect(budget.available()).toBeGreaterThan(0);
  });
});

describe("today's spend across restarts", () => {
  const reopen = useStoreFolder();

  it('a restart the same day goes on from the spend kept in SQLite; the next day starts again', async () => {
    const kept = (s: Store): SpendStore => ({ load: () => s.pollState.get<DaySpend>('q'), save: (v) => s.pollState.set('q', v) });
    const clock = new ManualClock(MIDNIGHT + 10 * HOUR);
    const plan = { cuPerMinute: 100_000, cuPerDay: 1_000_000 };
    let store = reopen();
    const first = new RequestBudget(clock, plan, { store: kept(store) });
    for (let i = 0; i < 37; i++) await first.acquire();
    store.close();

    await clock.advance(5 * MIN);
    store = reopen(); // a new process on the same file
    const second = new RequestBudget(clock, plan, { store: kept(store) });
    expect(second.quota()).toMatchObject({ spentCuToday: 37 * REQUEST_CU, requestsToday: 37 });
    await second.acquire();
    expect(store.pollState.get<DaySpend>('q')).toEqual({ day: '2026-03-10', cu: 38 * REQUEST_CU, requests: 38 });
    store.close();

    await clock.advance(DAY);
    store = reopen();
    const nextDay = new RequestBudget(clock, plan, { store: kept(store) });
    expect(nextDay.quota()).toMatchObject({ spentCuToday: 0, requestsToday: 0 });
  });

  it('a damaged kept value starts the day from nothing instead of breaking the arithmetic', async () => {
    const clock = new ManualClock(MIDNIGHT + HOUR);
    for (const junk of [{ day: '2026-03-10', cu: 'lots', requests: 1 }, { day: '2026-03-10', cu: -5, requests: 1 }, 'x', null]) {
      const budget = new RequestBudget(clock, PLAN_LIMITS.free, { store: { load: () => junk as never, save: () => {} } });
      expect(budget.quota()).toMatchObject({ spentCuToday: 0, requestsToday: 0 });
      await budget.acquire();
      expect(budget.quota().spentCuToday).toBe(REQUEST_CU);
    }
  });

  it('without a store a restart would start the day again (the store is what keeps it)', async () => {
    const clock = new ManualClock(MIDNIGHT + HOUR);
    const kept = memoryStore();
    const a = new RequestBudget(clock, PLAN_LIMITS.free, { store: kept });
    await a.acquire();
    expect(new RequestBudget(clock, PLAN_LIMITS.free, { store: kept }).quota().spentCuToday).toBe(REQUEST_CU);
    expect(new RequestBudget(clock, PLAN_LIMITS.free).quota().spentCuToday).toBe(0);
  });
});

describe("the server's headers", () => {
  it('a day-window 429 (policy w=86400) holds every request until its reset, with the cause named', async () => {
    const clock = new ManualClock(MIDNIGHT + 20 * HOUR);
    const budget = new RequestBudget(clock, PLAN_LIMITS.free);
    budget.observeHeaders(
      (n) => ({ 'ratelimit-policy': '2000000;w=86400', 'ratelimit-limit': '2000000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(4 * 3600) })[n],
    );
    expect(budget.available()).toBe(0);
    expect(budget.shortfall()).toMatchObject({ retryAt: MIDNIGHT + DAY });
    expect(budget.shortfall().message).toMatch(/server's rate limit for today is used up/);
    await clock.advance(4 * HOUR);
    expect(budget.available()).toBeGreaterThan(0);
  });

  it('reads ratelimit-remaining in CU: 30 CU left is one more list call, not thirty', async () => {
    const clock = new ManualClock(MIDNIGHT + HOUR);
    const budget = new RequestBudget(clock, PLAN_LIMITS.free);
    budget.observeHeaders((n) => ({ 'ratelimit-policy': '8000;w=60', 'ratelimit-limit': '8000', 'ratelimit-remaining': '30', 'ratelimit-reset': '20' })[n]);
    expect(budget.available()).toBe(1);
    expect(budget.perMinute()).toBe(Math.floor((2_000_000 * 0.95) / 1440 / REQUEST_CU));
    expect(budget.burstPerMinute()).toBe(Math.floor((8000 * 0.95) / REQUEST_CU));
  });
});

describe('the quota line', () => {
  it('a pace that would spend the quota warns and says when it would run out; a calm pace lasts the day', async () => {
    const clock = new ManualClock(MIDNIGHT + 2 * HOUR);
    const plan = PLAN_LIMITS.free;
    const busy = new RequestBudget(clock, plan, { planName: 'free' });
    // 300 requests a minute for 15 minutes: 6,000 CU a minute, the day's quota in about 5.5 h.
    for (let m = 0; m < 15; m++) {
      for (let i = 0; i < 300; i++) await busy.acquire();
      await clock.advance(MIN);
    }
    const q = busy.quota();
    expect(q.level).toBe('warning');
    expect(q.paceCuPerMinute).toBe(6000);
    expect(q.runsOutAt).not.toBeNull();
    const expected = clock.now() + ((plan.cuPerDay - q.spentCuToday) / 6000) * MIN;
    expect(Math.abs((q.runsOutAt as number) - expected)).toBeLessThan(1000);
    expect(q.runsOutAt as number).toBeLessThan(q.resetsAt);

    const calm = new RequestBudget(clock, plan);
    for (let m = 0; m < 15; m++) {
      for (let i = 0; i < 20; i++) await calm.acquire();
      await clock.advance(MIN);
    }
    expect(calm.quota()).toMatchObject({ level: 'ok', runsOutAt: null, paceCuPerMinute: 400 });
  });

  it('a burst just after a start (the first reads of the watches) is not taken for the pace', async () => {
    const clock = new ManualClock(MIDNIGHT + 9 * HOUR);
    const budget = new RequestBudget(clock, PLAN_LIMITS.unauthenticated);
    for (let i = 0; i < 250; i++) await budget.acquire(); // 5,000 CU in the first minute
    await clock.advance(MIN);
    expect(budget.quota()).toMatchObject({ level: 'ok', runsOutAt: null, paceCuPerMinute: 333 });
  });
});

describe('plans', () => {
  it('auto is unauthenticated without a key and Free with one; a named plan needs a key; custom figures apply either way', () => {
    expect(resolvePlan('auto', false)).toEqual({ name: 'unauthenticated', cuPerMinute: 6000, cuPerDay: 1_200_000 });
    expect(resolvePlan('auto', true)).toEqual({ name: 'free', cuPerMinute: 8000, cuPerDay: 2_000_000 });
    expect(resolvePlan('pro', true)).toEqual({ name: 'pro', cuPerMinute: 20_000, cuPerDay: 25_000_000 });
    expect(resolvePlan('pro', false).name).toBe('unauthenticated');
    expect(resolvePlan({ cuPerMinute: 500, cuPerDay: 9000 }, false)).toEqual({ name: 'custom', cuPerMinute: 500, cuPerDay: 9000 });
  });

  it('an old request budget a minute: a frugal one stays as custom figures, one that emptied the day gives way to auto', () => {
    expect(planFromRequestBudget(10)).toEqual({ cuPerMinute: 200, cuPerDay: 288_000 });
    expect(planFromRequestBudget(60)).toBe('auto');
    expect(planFromRequestBudget(240)).toBe('auto');
    expect(planFromRequestBudget(null)).toBe('auto');
  });
});
