/**
 * The demo day: a first day that tells the truth of a real one in its first minutes. Each alert kind
 * the app raises happens once and ends, as it would when operators act: a relayer goes silent and
 * comes back, its routes back up and clear, a wallet runs low and is refilled, executions fail and are
 * retried, a message waits past the stuck threshold and is delivered. Nothing is held pending for good
 * on the demo relayers' routes. Times are ms after the service's start, each one drivable (a service
 * option), so a test can run the day in minutes. docs/local-service.md has the timeline.
 */
import { z } from 'zod';
import { MINUTE_MS } from '../shared/time';

const span = (name: string) => z.number().int(`${name} must be whole ms.`);

export const DemoDaySchema = z
  .object({
    /** Blinker (the outage relayer) stops delivering from `startMs` for `durationMs`, again every `everyMs`. */
    outage: z
      .object({ startMs: span('outage.startMs').min(0), durationMs: span('outage.durationMs').positive(), everyMs: span('outage.everyMs').positive() })
      .strict()
      .refine((o) => o.durationMs < o.everyMs, 'outage.durationMs must be shorter than outage.everyMs.'),
    /**
     * From `atMs`, the next `count` deliveries on the first demo route fail to execute; every failed
     * execution on the demo relayers' routes is retried (`retryMessageExecution`) `retryAfterMs` after its delivery.
     */
    failures: z
      .object({ atMs: span('failures.atMs').min(0), count: z.number().int().min(0).max(100), retryAfterMs: span('failures.retryAfterMs').positive() })
      .strict(),
    /** The dry wallet (Swift on the C-Chain) starts the day low and is refilled to a full wallet at `refillAtMs`. */
    refillAtMs: span('refillAtMs').positive(),
    /**
     * The busiest demo address sends a message on a route no demo relayer is offered for that waits
     * `waitMs` before its delivery (past the default stuck threshold), the first at `firstMs` (negative:
     * before the start, in the history), then every `everyMs`.
     */
    stuck: z.object({ firstMs: span('stuck.firstMs'), everyMs: span('stuck.everyMs').positive(), waitMs: span('stuck.waitMs').positive() }).strict(),
  })
  .strict();

export type DemoDay = z.output<typeof DemoDaySchema>;

/** The embedded demo's day (docs/local-service.md, "The demo day"). */
export const DEMO_DAY: DemoDay = {
  outage: { startMs: 2 * MINUTE_MS, durationMs: 6 * MINUTE_MS, everyMs: 15 * MINUTE_MS },
  failures: { atMs: 3 * MINUTE_MS, count: 4, retryAfterMs: 4 * MINUTE_MS },
  refillAtMs: 10 * MINUTE_MS,
  // At the default 30 min stuck threshold: stuck 1 min after the start, delivered 4 min later; again every 15 min.
  stuck: { firstMs: -29 * MINUTE_MS, everyMs: 15 * MINUTE_MS, waitMs: 34 * MINUTE_MS },
};

/** The option as given: true (the demo's day), or parts of it to change (the rest as the demo's). */
export const DemoDayOptionSchema = z.union([
  z.boolean(),
  z
    .object({
      outage: DemoDaySchema.shape.outage.optional(),
      failures: DemoDaySchema.shape.failures.optional(),
      refillAtMs: DemoDaySchema.shape.refillAtMs.optional(),
      stuck: DemoDaySchema.shape.stuck.optional(),
    })
    .strict(),
]);

export type DemoDayOption = z.input<typeof DemoDayOptionSchema>;

/** The day an option asks for (null: no demo day). */
export function demoDayOf(o: DemoDayOption | undefined): DemoDay | null {
  if (o === undefined || o === false) return null;
  return o === true ? DEMO_DAY : { ...DEMO_DAY, ...o };
}
