/** The real poller over an engine rig beside the real local service (engine-on-service.ts), and a client wrapper to act between its requests. */
import type { PollStatus, Transition } from '../../src/shared/contract';
import type { DataApiClient } from '../../src/core/data-api/client';
import { RequestBudget } from '../../src/core/data-api/budget';
import { createLogger } from '../../src/core/log/logger';
import { Poller } from '../../src/core/poller/poller';
import type { EngineOnService } from './engine-on-service';

/** The real client, with `before` called before each call of one of its methods (a test acting between pages, or counting). */
export function around(client: DataApiClient, before: (method: string, q: { pageToken?: string } | undefined) => void): DataApiClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const q = args.find((a) => typeof a === 'object' && a !== null) as { pageToken?: string } | undefined;
        before(String(prop), q);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The real poller over the engine rig beside the service; `client` may wrap the real client (e.g. to act
 * between pages); `perMinute` is the request budget (default: none to speak of).
 */
export function pollerOn(o: EngineOnService, intervalSec: number, client: DataApiClient = o.client, perMinute = 1e6) {
  const budget = new RequestBudget(o.rig.clock, perMinute);
  const transitions: Transition[] = [];
  o.rig.settings.pollIntervalSeconds = intervalSec;
  const poller = new Poller({
    store: o.rig.store,
    engine: o.rig.engine,
    index: o.rig.index,
    clock: o.rig.clock,
    logger: createLogger(),
    settings: () => o.rig.settings,
    client: () => client,
    budget: () => budget,
    onTransitions: (t) => transitions.push(...t),
    onStatus: (_s: PollStatus) => undefined,
  });
  const kinds = (id: string) => transitions.filter((t) => t.messageId === id).map((t) => t.kind);
  return { poller, transitions, kinds };
}
