import type { MonitorEvent, MonitorHandlers, PollStatus, Settings, ShellName } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import type { Clock } from '../../shared/clock';
import type { RelayerEconomics } from '../../shared/relayers';
import { createHandlers } from '../handlers/contract-handlers';
import type { DataSources } from '../handlers/data-source';
import { importWatches } from '../handlers/watchlist-import';
import type { RelayerOwnViewNeeds } from '../handlers/relayer-own-view-handlers';
import type { WatchlistNeeds } from '../handlers/watchlist-handlers';
import type { CoreLogger } from '../log/logger';
import type { Poller } from '../poller/poller';
import type { KeyStore } from '../secrets/key-store';
import type { Store } from '../store';
import type { Part } from './part';

/** What the contract's handlers use, together: each group gets only its own share (handlers/contract-handlers.ts). */
export interface HandlersDeps {
  version: string;
  shell: ShellName;
  openExternal?: (url: string) => Promise<void>;
  ownNodesCheck: 'refuse' | 'report';
  clock: Clock;
  logger: CoreLogger;
  store: Store;
  settings: () => Settings;
  keys: KeyStore;
  sources: DataSources;
  poller: Poller;
  emit: (e: MonitorEvent) => void;
  pollStatus: () => PollStatus;
  economics: () => RelayerEconomics;
  alertChannels: () => AlertChannelState[];
  /** A watched relayer's own metrics beside the chains' (parts/relayer-metrics-watch.ts). */
  relayerOwnView: RelayerOwnViewNeeds['relayerOwnView'];
}

export interface HandlersPart extends Part {
  /** One function per `MonitorApi` method. */
  readonly handlers: MonitorHandlers;
  /** Many watches in one go (the headless config's watchlist): handlers/watchlist-import.ts. */
  addWatches(input: unknown): number;
}

/**
 * The contract's handlers, last in the list: they answer calls about every part before them. Each
 * group gets an object holding only what it declared (so at run time too it reaches nothing else).
 * Nothing to start or stop.
 */
export function handlersPart(d: HandlersDeps): HandlersPart {
  const { clock, settings, emit, store, sources } = d;
  const runCycle = () => d.poller.runCycle();
  const source = () => store.source();
  const watchlist: WatchlistNeeds = { store: { watches: store.watches, db: store.db }, settings, clock, emit, poller: { runCycle } };
  const handlers = createHandlers({
    app: {
      version: d.version,
      shell: d.shell,
      ...(d.openExternal ? { openExternal: d.openExternal } : {}),
      settings,
      sources: { baseUrl: () => sources.baseUrl() },
      store: { db: store.db, source },
    },
    settings: {
      settings,
      store: { settings: store.settings },
      emit,
      poller: { runCycle },
      logger: { warn: (m, f) => d.logger.warn(m, f) },
      ownNodesCheck: d.ownNodesCheck,
    },
    keys: {
      keys: d.keys,
      logger: { addSecret: (s) => d.logger.addSecret(s), info: (m, f) => d.logger.info(m, f) },
      emit,
      settings,
      sources: { client: (network, o) => sources.client(network, o) },
    },
    watchlist,
    messages: {
      store: { messages: store.messages, search: store.search, transitions: store.transitions, alertEntries: store.alertEntries },
      settings,
      sources: { client: (network) => sources.client(network) },
    },
    status: {
      store: { db: store.db, source },
      clock,
      poller: { pollNow: () => d.poller.pollNow() },
      pollStatus: d.pollStatus,
      alertChannels: d.alertChannels,
    },
    relayers: { store, settings, clock, emit, logger: { info: (m, f) => d.logger.info(m, f) }, economics: d.economics },
    relayerConfig: { store, settings, clock, emit, logger: { info: (m, f) => d.logger.info(m, f) }, setMetricsUrl: (a, u) => d.relayerOwnView.setUrl(a, u) },
    relayerOwnView: { store: { relayerWatches: store.relayerWatches }, logger: { info: (m, f) => d.logger.info(m, f) }, relayerOwnView: d.relayerOwnView },
  });
  return { name: 'handlers', handlers, addWatches: (input) => importWatches(watchlist, input) };
}
