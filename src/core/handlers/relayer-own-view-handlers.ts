/** The contract's calls for a watched relayer's own metrics (parts/relayer-metrics-watch.ts). */
import type { MonitorHandlers } from '../../shared/contract';
import { MonitorError } from '../../shared/errors';
import type { CoreContext } from './context';

export function createRelayerOwnViewHandlers(ctx: CoreContext): Pick<MonitorHandlers, 'relayerOwnView' | 'setRelayerMetricsUrl'> {
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
