import type { ActivityPage, AlertEntry, DemoAddresses } from '../../src/shared/contract';
import type { Transition } from '../../src/shared/transitions';
import { expect, test } from './fixtures';

const MIN = 60_000;
/**
 * The demo day at a pace for a test (src/simulator/demo-day.ts; the embedded demo's is in minutes, not
 * seconds): Blinker out from 30 s for 5 min (longer than the offer's 2-min silence and 4-min backlog
 * thresholds), four failed executions from 20 s retried 2.5 min after each, Swift's low wallet refilled
 * at 1 min, a message of the busiest address waiting 100 s (past the 1-min stuck threshold set below).
 */
test.use({
  serviceOptions: {
    demoDay: {
      outage: { startMs: 30_000, durationMs: 5 * MIN, everyMs: 60 * MIN },
      failures: { atMs: 20_000, count: 4, retryAfterMs: 2.5 * MIN },
      refillAtMs: MIN,
      stuck: { firstMs: 10_000, everyMs: 60 * MIN, waitMs: 100_000 },
    },
  },
});

/** Each kind, and by when (from the spec's start) it fires and resolves at the pace above (the fuel alert's refill shows at the read 5 min after it fired). */
const LIMITS = {
  fuel_low: { fire: 1.5 * MIN, resolve: 7 * MIN },
  route_failed_executions: { fire: 3 * MIN, resolve: 6 * MIN },
  relayer_silent: { fire: 4 * MIN, resolve: 7 * MIN },
  route_backlog: { fire: 6 * MIN, resolve: 7 * MIN },
} as const;

test('the demo day: from the offer, every alert kind fires and resolves within its stated minutes, and none is left firing', async ({ openApp, stack }) => {
  test.setTimeout(9 * MIN);
  // Counted from here: the service (whose start the day counts from) started just before, so each kind comes no later than this says.
  const startedAt = Date.now();
  const demo = await stack.call<DemoAddresses>('getDemoAddresses');
  await stack.call('updateSettings', { stuckThresholdMinutes: 1 });
  await stack.call('addWatch', { address: demo.addresses[0], label: 'busy demo address' });

  // The offer leads to each: the fuel one and the one to try first, one click each.
  const page = await openApp('#/relayers');
  const fuel = page.locator('[data-testid="demo-relayer"]', { has: page.getByTestId('demo-relayer-fuel') });
  await expect(fuel.getByTestId('demo-relayer-shows')).toHaveText('Shows: fuel low.');
  await fuel.getByTestId('demo-relayer-watch').click();
  await expect(fuel).toHaveCount(0, { timeout: 30_000 });
  const first = page.locator('[data-testid="demo-relayer"][data-behaviour="outage"]');
  await expect(first.getByTestId('demo-relayer-shows')).toHaveText('Shows: relayer silent, route backlog, failed executions.');
  await first.getByTestId('demo-relayer-watch').click();
  await expect(first).toHaveCount(0, { timeout: 30_000 });

  const alerts = async () =>
    // Only the kinds judged here: the stuck alerts of the busy address (at a 1-min threshold) must not crowd them out of the page.
    (await stack.call<ActivityPage>('listActivity', { kinds: [], alertKinds: Object.keys(LIMITS), limit: 500 })).items.filter(
      (i): i is AlertEntry => i.kind === 'alert',
    );
  /** When (from the spec's start) each kind first fired and its last episode resolved; resolve null while one has not. */
  const times = async () => {
    const all = await alerts();
    return Object.fromEntries(
      Object.keys(LIMITS).map((kind) => {
        const of = all.filter((a) => a.episodeKind === kind);
        const fired = of.filter((a) => a.phase === 'fire');
        const resolved = (id: number) => of.find((a) => a.phase === 'resolve' && a.episodeId === id && a.severity !== 'info');
        const open = fired.some((f) => !resolved(f.episodeId));
        return [
          kind,
          {
            fire: fired.length ? Math.min(...fired.map((f) => f.at)) - startedAt : null,
            resolve: fired.length && !open ? Math.max(...fired.map((f) => resolved(f.episodeId)!.at)) - startedAt : null,
          },
        ];
      }),
    );
  };
  /** The kinds not yet fired or with an episode still open, each with its episodes (fired at, subject, resolved or not) to tell why. */
  const unfinished = async () => {
    const all = await alerts();
    return Object.entries(await times())
      .filter(([, t]) => t.fire === null || t.resolve === null)
      .map(([kind]) => ({
        kind,
        episodes: all
          .filter((a) => a.episodeKind === kind && a.phase === 'fire')
          .map((f) => ({
            subject: f.subject,
            firedAfterS: Math.round((f.at - startedAt) / 1000),
            resolved: all.some((a) => a.phase === 'resolve' && a.episodeId === f.episodeId && a.severity !== 'info'),
          })),
      }));
  };
  // Every kind fires, and every episode of it resolves, while the day runs (each within its limit, checked below).
  await expect.poll(unfinished, { timeout: 8 * MIN, intervals: [5_000] }).toEqual([]);
  for (const [kind, t] of Object.entries(await times())) {
    const limit = LIMITS[kind as keyof typeof LIMITS];
    expect(t.fire, `${kind} fired within ${limit.fire / MIN} min`).toBeLessThanOrEqual(limit.fire);
    expect(t.resolve, `${kind} resolved within ${limit.resolve / MIN} min`).toBeLessThanOrEqual(limit.resolve);
  }
  // The busiest address's message the day holds is stuck past the minute, then delivered: the first stuck.
  // (Others of its messages may be stuck at a 1-minute threshold too, some still on their way: up to 10 min.)
  const moves = (await stack.call<ActivityPage>('listActivity', { kinds: ['stuck', 'left_pending'], alertKinds: [], limit: 500 })).items as Transition[];
  const stuck = moves.filter((t) => t.kind === 'stuck').sort((a, b) => a.at - b.at);
  expect(stuck.length).toBeGreaterThanOrEqual(1);
  const firstStuck = stuck[0]!;
  expect(
    moves.some((t) => t.kind === 'left_pending' && t.messageId === firstStuck.messageId && t.at > firstStuck.at),
    `stuck ${firstStuck.messageId} delivered`,
  ).toBe(true);

  // The Relayers view says the same at the end: Swift's wallet no longer low, no route's failed executions alerting.
  await page.goto(`${stack.app.host.url}#/relayers`);
  await expect(page.getByTestId('fuel-row').first()).toBeVisible();
  await expect(page.locator('[data-testid="fuel-row"][data-low="true"]')).toHaveCount(0);
  await expect(page.getByTestId('route-failures-row').first()).toBeVisible();
  await expect(page.locator('[data-testid="route-failures-row"][data-firing="true"]')).toHaveCount(0);
});
