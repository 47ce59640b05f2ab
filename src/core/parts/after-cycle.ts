import type { Logger } from '../log/logger';
import type { Part } from './part';

/** The keys of the parts in `B` that contribute after-cycle work. */
type AfterCycleKey<B> = { [K in keyof B]: B[K] extends { afterCycle(): unknown } ? K : never }[keyof B] & string;

/**
 * The work that runs after each poll cycle: each listed part's `afterCycle`, in the order given (the
 * one create-core.ts shows), one after the other. One that throws is logged and the next still runs,
 * so a fault in one part never keeps the others' work (the notifications, the alerts) from a cycle.
 * Every part of `parts` that contributes must be listed, once, and nothing else: a contribution is never
 * silently left out.
 */
export function afterCycleList<B extends object>(parts: B, order: readonly AfterCycleKey<B>[], logger: Logger): () => Promise<void> {
  const byKey = parts as Record<string, Part>;
  const contributors = Object.keys(byKey).filter((k) => typeof byKey[k]?.afterCycle === 'function');
  const unlisted = contributors.filter((k) => !order.includes(k as AfterCycleKey<B>));
  if (unlisted.length) throw new Error(`After-cycle work of ${unlisted.join(', ')} is not in the after-cycle order.`);
  const idle = order.filter((k) => !contributors.includes(k));
  if (idle.length) throw new Error(`The after-cycle order lists ${idle.join(', ')}, with no after-cycle work among the parts before it.`);
  if (new Set(order).size !== order.length) throw new Error(`The after-cycle order lists a part twice: ${order.join(', ')}.`);
  const steps = order.map((k) => byKey[k] as Part & Required<Pick<Part, 'afterCycle'>>);
  return async () => {
    for (const p of steps) {
      try {
        await p.afterCycle();
      } catch (e) {
        logger.error('after-cycle work failed', { part: p.name, error: e });
      }
    }
  };
}
