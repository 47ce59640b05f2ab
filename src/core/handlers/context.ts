import type { MonitorEvent, PollStatus, Settings } from '../../shared/contract';
import type { RelayerEconomics } from '../../shared/relayers';
import type { RelayerOwnView } from '../../shared/relayer-own-view';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { Clock } from '../../shared/clock';
import type { MonitorCoreOptions } from '../monitor-core';
import type { CoreLogger } from '../log/logger';
import type { Poller } from '../poller/poller';
import type { KeyStore } from '../secrets/key-store';
import type { Store } from '../store';
import type { TransitionEngine } from '../watch/engine';
import type { WatcherIndex } from '../watch/watcher-index';
import type { DataSources } from './data-source';

/** Everything the handlers work with. */
export interface CoreContext {
  options: MonitorCoreOptions;
  clock: Clock;
  logger: CoreLogger;
  store: Store;
  keys: KeyStore;
  index: WatcherIndex;
  engine: TransitionEngine;
  poller: Poller;
  sources: DataSources;
  settings(): Settings;
  emit(e: MonitorEvent): void;
  /** The poller's status with each own node's (when that is the data source). */
  pollStatus(): PollStatus;
  /** Watched relayers' fuel and earnings from the last poll cycle (parts/relayer-economics.ts). */
  economics(): RelayerEconomics;
  /** Each alert channel's delivery state (parts/alerts.ts). */
  alertChannels(): AlertChannelState[];
  /** Watched relayers' own metrics beside the chains' (parts/relayer-metrics-watch.ts). */
  relayerOwnView: { view(): RelayerOwnView; setUrl(address: string, url: string | null): void };
}
