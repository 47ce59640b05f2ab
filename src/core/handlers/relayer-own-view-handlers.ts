/** The contract's calls for a watched relayer's own metrics (parts/relayer-metrics-watch.ts). */
import type { MonitorHandlers } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import type { RelayerOwnView } from '../../shared/relayer-own-view';
import type { Logger } from '../log/logger';
import type { Store } from '../store';

/** What the own-view calls use: the watched relayers, the log, and the metrics watch's view and URL setter. */
export interface RelayerOwnViewNeeds {
  store: Pick<Store, 'relayerWatches'>;
  logger: Pick<Logger, 'info'>;
  relayerOwnView: { view(): RelayerOwnView; setUrl(address: string, url: string | null): void };
}

export function createRelayerOwnViewHandlers(ctx: RelayerOwnViewNeeds): Pick<MonitorHandlers, 'relayerOwnView' | 'setRelayerMetricsUrl'> {
  return {
    relayerOwnView: () => ctx.relayerOwnView.view(),
    setRelayerMetricsUrl: ({ address, url }) => {
      if (!ctx.store.relayerWatches.getRelayer(address))
        throw new MonitorError({ kind: 'not_found', field: 'address', message: `${address} is not a watched relayer: watch it first.` });
      ctx.relayerOwnView.setUrl(address, url);
      ctx.logger.info('relayer metrics URL set', { relayer: address, set: url !== null });
      return ctx.relayerOwnView.view();
    },
  };
}
