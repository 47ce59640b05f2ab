/**
 * The contract's handlers, one function per `MonitorApi` method, in groups: each group declares what
 * it uses (its `…Needs`) and receives only that, so a handler cannot reach what its group did not
 * declare. The `handlers` part (parts/handlers.ts) gives each group its needs from the parts.
 */
import type { MonitorHandlers } from '../../shared/contract';
import { createAppHandlers, type AppNeeds } from './app-handlers';
import { createKeyHandlers, type KeyNeeds } from './key-handlers';
import { createMessageHandlers, type MessageNeeds } from './message-handlers';
import { createRelayerConfigHandlers, type RelayerConfigNeeds } from './relayer-config-handlers';
import { createRelayerHandlers, type RelayerNeeds } from './relayer-handlers';
import { createRelayerOwnViewHandlers, type RelayerOwnViewNeeds } from './relayer-own-view-handlers';
import { createSettingsHandlers, type SettingsNeeds } from './settings-handlers';
import { createStatusHandlers, type StatusNeeds } from './status-handlers';
import { createWatchlistHandlers, type WatchlistNeeds } from './watchlist-handlers';

/** Each group's needs, by group. */
export interface HandlerNeeds {
  app: AppNeeds;
  settings: SettingsNeeds;
  keys: KeyNeeds;
  watchlist: WatchlistNeeds;
  messages: MessageNeeds;
  status: StatusNeeds;
  relayers: RelayerNeeds;
  relayerConfig: RelayerConfigNeeds;
  relayerOwnView: RelayerOwnViewNeeds;
}

/** Every method of the contract (a group left out, or a method no group answers, does not compile). */
export function createHandlers(n: HandlerNeeds): MonitorHandlers {
  return {
    ...createAppHandlers(n.app),
    ...createSettingsHandlers(n.settings),
    ...createKeyHandlers(n.keys),
    ...createWatchlistHandlers(n.watchlist),
    ...createMessageHandlers(n.messages),
    ...createStatusHandlers(n.status),
    ...createRelayerHandlers(n.relayers),
    ...createRelayerConfigHandlers(n.relayerConfig),
    ...createRelayerOwnViewHandlers(n.relayerOwnView),
  };
}
