/** The contract's calls for the monitor's own state: the poll status, a poll now, the stats, the alert channels. */
import type { MonitorHandlers, PollStatus } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { Clock } from '../../shared/clock';
import type { Poller } from '../poller/poller';
import { computeStats, type Store } from '../store';

/** What the status handlers use, and all they can reach. */
export interface StatusNeeds {
  store: Pick<Store, 'db' | 'source'>;
  clock: Clock;
  poller: Pick<Poller, 'pollNow'>;
  /** The poller's status with each own node's (when that is the data source). */
  pollStatus(): PollStatus;
  /** Each alert channel's delivery state (parts/alerts.ts). */
  alertChannels(): AlertChannelState[];
}

type StatusMethods = 'getPollStatus' | 'pollNow' | 'getStats' | 'alertChannelStates';

export function createStatusHandlers(ctx: StatusNeeds): Pick<MonitorHandlers, StatusMethods> {
  return {
    getPollStatus: () => ctx.pollStatus(),
    pollNow: async () => {
      await ctx.poller.pollNow();
      return ctx.pollStatus();
    },
    getStats: ({ hours }) => computeStats(ctx.store.db, ctx.clock.now(), hours, ctx.store.source()),
    alertChannelStates: () => ctx.alertChannels(),
  };
}
