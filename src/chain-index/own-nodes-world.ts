/**
 * Your own nodes as the Data API server's world (production): the chain indexer writes what the chains'
 * TeleporterMessenger logs say into the server's store; balances and redeemable rewards are read from
 * the chains' nodes on demand.
 */
import { setFlagsFromString } from 'node:v8';
import { OwnNodesSchema, type OwnNodesInput } from '../shared/own-nodes';
import { invalidOption } from '../local-service/options';
import type { World, WorldPlugin } from '../local-service/world';
import { answerOwnNodeBalance } from './balance-answer';
import { ChainIndexer } from './chain-indexer';
import { ownChainNetworks } from './chain-networks';
import { answerRelayerRewards } from './rewards-answer';

/** Validates the configuration now (throws "Invalid service option: ownNodes…"); the world opens on the server's store. */
export function ownNodesWorld(input: OwnNodesInput): WorldPlugin {
  const parsed = OwnNodesSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidOption({ path: ['ownNodes', ...issue.path], message: issue.message });
  }
  const config = parsed.data;
  // It runs all day beside the monitor, as its indexer: its heap stays near its live size (V8's
  // --optimize-for-size, as the core's; docs/own-node.md "Costs").
  setFlagsFromString('--optimize-for-size');
  return {
    // It stores what its chains say (a few records a second, read back near the head): a lean store.
    storeOptions: { chainNetworks: ownChainNetworks(config), memory: 'lean' },
    open: ({ store, clock, log, listening, emit }): World => {
      const onRecords = (records: readonly Record<string, unknown>[]) => {
        if (!listening()) return;
        const now = clock.now();
        emit(records.map((record) => ({ record, happenedAt: now, visibleAt: now })));
      };
      const indexer = new ChainIndexer({ store, config, clock, log, onRecords });
      return {
        info: () => ({ simulated: false, ownNodes: indexer.statuses() }),
        ownNodes: () => indexer.statuses(),
        balance: (path, params) => answerOwnNodeBalance(indexer.reads, path, params),
        rewards: (params) => answerRelayerRewards(indexer.reads, params),
        start: () => indexer.start(),
        stop: () => indexer.stop(),
      };
    },
  };
}
