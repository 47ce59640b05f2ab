import { watch } from 'vue';
import { coalesce } from './logic/coalesce';
import { useActivityStore } from './stores/activity';
import { useCacheStore } from './stores/cache';
import { useChartsStore } from './stores/charts';
import { useDemoStore } from './stores/demo';
import { useMessagesStore } from './stores/messages';
import { useRelayerEconomicsStore } from './stores/relayer-economics';
import { useRelayerOwnViewStore } from './stores/relayer-own-view';
import { useRelayersStore } from './stores/relayers';
import { useSettingsStore } from './stores/settings';
import { useSourceStore } from './stores/source';
import { useStatusStore } from './stores/status';
import { useUiStore } from './stores/ui';
import { useWatchlistStore } from './stores/watchlist';
import type { ConnectionInfo, WebTransport } from './transport/web-transport';

/** A store that can read again everything it shows from the core; it keeps its own errors and never rejects. */
interface Resyncable {
  resync: () => Promise<void>;
}

/**
 * Every store resynchronised after the settings (which come first: the others read the data source
 * from them). A new store with a `resync()` is one more line here.
 */
const RESYNCED_STORES: readonly (() => Resyncable)[] = [
  useSourceStore,
  useStatusStore,
  useMessagesStore,
  useWatchlistStore,
  useActivityStore,
  useCacheStore,
  useChartsStore,
  useRelayersStore,
  useRelayerEconomicsStore,
  useRelayerOwnViewStore,
  useDemoStore,
  useUiStore,
];

/** The web transport's side of the connection (Electron's IPC never drops, so it has none). */
type WebConnection = Pick<WebTransport, 'connection' | 'onConnection'>;

interface ConnectionOwner {
  /** Resolves when the first synchronisation (the start's loads) is done. */
  ready: Promise<void>;
  /** Every store reads again from the core (at most one run in flight; asks meanwhile make one more). */
  resync: () => Promise<void>;
  stop: () => void;
}

/**
 * The one owner of the connection state. At the start, when the event socket comes back (events were
 * missed while it was down) and when the data source or network changes (whichever arrives first, a
 * save's answer or the core's settings-changed event), every store resynchronises from the core.
 */
export function ownConnection(web: WebConnection | null): ConnectionOwner {
  const settings = useSettingsStore();
  const status = useStatusStore();
  /** The data source (and network) the stores were last synchronised for. */
  let syncedSource: string | null = null;
  /** A run is reading the settings: a source change it finds is its own to handle, not a second run's. */
  let readingSettings = false;

  const resync = coalesce(async () => {
    readingSettings = true;
    try {
      await settings.resync();
    } finally {
      readingSettings = false;
    }
    syncedSource = settings.currentSource;
    await Promise.all(RESYNCED_STORES.map((use) => use().resync()));
  });

  const stopWatch = watch(
    () => settings.currentSource,
    (now) => {
      if (!readingSettings && now !== null && syncedSource !== null && now !== syncedSource) void resync(); // never rejects
    },
  );

  let stopConnection = (): void => undefined;
  if (web) {
    let everOpen = false;
    const follow = (c: ConnectionInfo): void => {
      const wasDown = status.connection.state !== 'open';
      status.setConnection(c);
      if (c.state !== 'open') return;
      // The first open is the start (loaded below); a later one follows a drop.
      if (wasDown && everOpen) void resync();
      everOpen = true;
    };
    follow(web.connection());
    stopConnection = web.onConnection(follow);
  }

  return {
    ready: resync(),
    resync,
    stop: () => {
      stopWatch();
      stopConnection();
    },
  };
}
