/**
 * The core against the real local service with its compute-unit limits on, over a simulated span
 * that crosses 00:00 UTC: the plan's budget never draws a 429, no minute and no UTC day passes the
 * plan, the core's count of today's spend is the service's, the quota warning comes once a day, and
 * when the budget cuts reads short the status says how far behind they are. Real HTTP, real SQLite;
 * time on a clock that jumps over the core's waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent, PollStatus } from '../../src/shared/contract';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import { JumpClock } from './http-helpers';
import { randomBytes } from 'node:crypto';
import { tempDir } from './helpers';

const MIN = 60_000;
const DAY = 86_400_000;
/** A tight custom plan, the same on both sides: 400 CU a minute, 4,000 a day (200 list calls). */
const PLAN = { cuPerMinute: 400, cuPerDay: 4_000 };

let svc: SimulatedService | null = null;
let core: MonitorCore | null = null;
const dirs: ReturnType<typeof tempDir>[] = [];
const freshDir = () => {
  const d = tempDir('tw-quota-');
  dirs.push(d);
  return d.dir;
};
afterEach(async () => {
  await core?.close();
  core = null;
  await svc?.close();
  svc = null;
  for (const d of dirs.splice(0)) d.cleanup();
});

/** The service on `clock`, logging each request's time and status into `served`. */
async function serve(clock: JumpClock, options: Omit<Parameters<typeof startLocalService>[0], 'clock' | 'logRequests' | 'log'>) {
  const served: { at: number; status: number }[] = [];
  svc = await startLocalService({
    ...options,
    clock,
    logRequests: true,
    log: (line) => served.push({ at: clock.now(), status: Number(line.split(' ')[2]) }),
  });
  return { service: svc, served };
}

/** A started core on `clock` reading the service at `url`. */
async function startCore(clock: JumpClock, url: string): Promise<MonitorCore> {
  core = await createMonitorCore({
    dataDir: freshDir(),
    shell: 'web',
    version: 'test',
    clock,
    localService: { kind: 'url', url },
    autoPoll: false,
    keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
  });
  return core;
}

describe('the budget against the service counting CU', () => {
  it('from 23:30 to 00:30 UTC: no 429, no minute or day over the plan, the same spend on both sides, one warning a day, reads behind said', async () => {
    const start = Date.UTC(2026, 5, 1, 23, 30);
    const clock = new JumpClock(start);
    const { service, served } = await serve(clock, {
      seed: 5,
      rate: 1,
      addressCount: 12,
      preload: 100,
      computeUnits: { keyed: 'free', anonymous: { cuPerMinute: PLAN.cuPerMinute, cuPerDay: PLAN.cuPerDay } },
    });
    const core = await startCore(clock, service.url);
    const events: MonitorEvent[] = [];
    core.onEvent((e) => events.push(e));
    await core.start();
    const set = await core.invoke('updateSettings', { pollIntervalSeconds: 30, plan: PLAN });
    expect(set.ok).toBe(true);
    for (const address of service.simulator.addresses.slice(0, 10)) expect((await core.invoke('addWatch', { address })).ok).toBe(true);

    const statuses: PollStatus[] = [];
    while (clock.now() < start + 3600_000) {
      statuses.push(await core.handlers.pollNow(undefined));
      await clock.advance(30_000);
    }

    // The service never had to refuse.
    const api = served.filter((s) => s.status !== 0);
    expect(api.length).toBeGreaterThan(100);
    expect(api.filter((s) => s.status === 429)).toEqual([]);
    // Per UTC day within the plan less its margin; the first day's share was all but spent.
    const dayOf = (t: number) => Math.floor(t / DAY);
    const perDay = new Map<number, number>();
    for (const s of api) perDay.set(dayOf(s.at), (perDay.get(dayOf(s.at)) ?? 0) + 20);
    for (const cu of perDay.values()) expect(cu).toBeLessThanOrEqual(PLAN.cuPerDay * 0.95);
    expect(perDay.get(dayOf(start))).toBeGreaterThan(PLAN.cuPerDay * 0.95 - 40);
    // Every 60 s window within the minute's limit.
    for (let i = 0, lo = 0; i < api.length; i++) {
      while (api[i]!.at - api[lo]!.at >= MIN) lo++;
      expect((i - lo + 1) * 20).toBeLessThanOrEqual(PLAN.cuPerMinute);
    }
    // The core's count of today is the service's.
    const last = statuses.at(-1)!;
    expect(last.quota).toMatchObject({ plan: 'custom', cuPerDay: PLAN.cuPerDay, spentCuToday: perDay.get(dayOf(clock.now())) ?? 0 });
    // Its share of the first day spent, the core said so, and said how far behind its reads were.
    expect(statuses.some((s) => s.quota?.level === 'exhausted')).toBe(true);
    expect(Math.max(...statuses.map((s) => s.behindMs ?? 0))).toBeGreaterThan(10 * MIN);
    // One warning notice on each day (not one a cycle).
    const notices = events.filter((e) => e.type === 'notification' && e.notification.title.startsWith('Data API quota'));
    expect(notices).toHaveLength(2);
  }, 120_000);

  it('the public unauthenticated plan, automatic without a key, against the realistic service from 00:00 UTC: no 429, the same count', async () => {
    const start = Date.UTC(2026, 5, 2);
    const clock = new JumpClock(start);
    const { service, served } = await serve(clock, { seed: 8, rate: 3, realistic: true, addressCount: 30, preload: 100 });
    const core = await startCore(clock, service.url);
    await core.start();
    expect((await core.invoke('updateSettings', { pollIntervalSeconds: 30 })).ok).toBe(true);
    for (const address of service.simulator.addresses.slice(0, 20)) expect((await core.invoke('addWatch', { address })).ok).toBe(true);
    let last: PollStatus | null = null;
    while (clock.now() < start + 10 * MIN) {
      last = await core.handlers.pollNow(undefined);
      await clock.advance(30_000);
    }
    const api = served.filter((s) => s.status !== 0);
    expect(api.filter((s) => s.status === 429)).toEqual([]);
    expect(last?.quota).toMatchObject({ plan: 'unauthenticated', cuPerMinute: 6000, cuPerDay: 1_200_000, spentCuToday: 20 * api.length });
    // From midnight the pace line allows one minute's burst plus the day's share of each minute since.
    expect(20 * api.length).toBeLessThanOrEqual(6000 * 0.95 + (1_200_000 * 0.95 * 10) / 1440);
  }, 120_000);
});
