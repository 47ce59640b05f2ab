/** The contract's calls for importing a relayer's config and for the calls an operator sends by hand. */
import type { MonitorEvent, MonitorHandlers, Settings } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import { ownChainsOf } from '../../shared/chains';
import { MonitorError } from '../../shared/errors';
import { TELEPORTER_MESSENGER_ADDRESS } from '../../shared/own-nodes';
import { toChecksumAddress } from '../../shared/validators';
import { receiptsCall, redeemCall, retryCall } from '../relayers/hand-calls';
import { parseRelayerConfig } from '../relayers/relayer-config';
import { applyImport, previewImport } from '../relayers/relayer-config-import';
import type { Logger } from '../log/logger';
import type { Store } from '../store';

type Methods = 'previewRelayerConfig' | 'importRelayerConfig' | 'handCall';

/** What the relayer-config calls use: the store (watches, the cache's messages), the settings, the clock, the log and the events. */
export interface RelayerConfigNeeds {
  store: Store;
  settings(): Settings;
  clock: Clock;
  emit(e: MonitorEvent): void;
  logger: Pick<Logger, 'info'>;
  /** Sets a relayer's metrics URL (parts/relayer-metrics-watch.ts): the file's metrics-port, on this machine, for a relayer that has none yet. */
  setMetricsUrl(address: string, url: string): void;
}

export function createRelayerConfigHandlers(ctx: RelayerConfigNeeds): Pick<MonitorHandlers, Methods> {
  const ownChains = () => ownChainsOf(ctx.settings().dataSource);
  /** The file's plan, or a refusal naming each problem's field (the file's text is never logged: it holds keys). */
  const planOf = (text: string, fileName: string | undefined) => {
    const r = parseRelayerConfig(text, { ownChains: ownChains(), network: ctx.settings().network });
    if (r.ok) return r.plan;
    const more = r.problems.length > 1 ? ` (and ${r.problems.length - 1} more: ${r.problems.slice(1).join('; ')})` : '';
    throw new MonitorError({ kind: 'invalid_input', field: 'text', message: `${fileName ?? 'The relayer config'}: ${r.problems[0]}${more}` });
  };
  return {
    previewRelayerConfig: ({ text, fileName }) => previewImport(ctx.store, planOf(text, fileName), ownChains()),
    importRelayerConfig: ({ text, fileName }) => {
      const preview = previewImport(ctx.store, planOf(text, fileName), ownChains());
      applyImport(ctx.store, preview, ctx.settings(), ctx.clock.now());
      // The relayer's own metrics: its file names the port, not the host; this machine first (editable in the view).
      const port = preview.plan.metricsPort;
      const hasUrl = new Set([...ctx.store.relayerMetricsUrls.all().keys()].map((a) => a.toLowerCase()));
      if (port !== null)
        for (const r of preview.plan.relayers) if (!hasUrl.has(r.address.toLowerCase())) ctx.setMetricsUrl(r.address, `http://127.0.0.1:${port}/metrics`);
      const n = (c: { added: unknown[]; removed: unknown[] }) => `+${c.added.length} −${c.removed.length}`;
      ctx.logger.info('relayer config imported', {
        relayers: n(preview.relayers),
        routes: n(preview.routes),
        wallets: n(preview.wallets),
        skippedSigningFields: preview.plan.skipped.length,
      });
      ctx.emit({ type: 'watchlist-changed' });
      return preview;
    },
    handCall: (input) => {
      if (input.kind === 'retry') {
        const cached = ctx.store.messages.get(input.messageId);
        if (!cached) throw new MonitorError({ kind: 'not_found', field: 'messageId', message: `Message ${input.messageId} is not in the cache.` });
        const r = retryCall(cached.message, ownChains());
        if (!r.ok) throw new MonitorError({ kind: 'invalid_input', field: 'messageId', message: r.error });
        return r.call;
      }
      const own = ownChains();
      // Your own nodes name each chain's messenger; elsewhere Teleporter's one address.
      const messengerOn = (chain: string) =>
        toChecksumAddress(
          (own as readonly { blockchainId: string; messengers?: string[] }[]).find((c) => c.blockchainId === chain)?.messengers?.[0] ??
            TELEPORTER_MESSENGER_ADDRESS,
        );
      if (input.kind === 'receipts') {
        const r = receiptsCall({
          messenger: messengerOn(input.destinationBlockchainId),
          source: input.sourceBlockchainId,
          destination: input.destinationBlockchainId,
          messageIds: input.messageIds,
          own,
        });
        if (!r.ok) throw new MonitorError({ kind: 'invalid_input', field: 'sourceBlockchainId', message: r.error });
        return r.call;
      }
      return redeemCall({
        messenger: messengerOn(input.blockchainId),
        blockchainId: input.blockchainId,
        relayer: toChecksumAddress(input.relayer),
        feeAsset: toChecksumAddress(input.feeAsset),
        own,
      });
    },
  };
}
