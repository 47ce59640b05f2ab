import { watch } from 'vue';
import type { Settings } from '../../shared/contract';
import type { Network } from '../../shared/validators';
import { sourceKey } from './logic/source-change';
import { useActivityStore } from './stores/activity';
import { useCacheStore } from './stores/cache';
import { useChartsStore } from './stores/charts';
import { useMessagesStore } from './stores/messages';
import { useRelayersStore } from './stores/relayers';
import { useSettingsStore } from './stores/settings';
import { useSourceStore } from './stores/source';
import { useStatusStore } from './stores/status';
import { useWatchlistStore } from './stores/watchlist';

/**
 * A data-source change is a clean cut: every list, error and status reloads from the new source.
 * Follows the settings store (whichever comes first, a save's answer or the core's settings-changed
 * event, updates it); returns the function that stops following.
 */
export function cutOverOnSourceChange(): () => void {
  const settings = useSettingsStore();
  const source = useSourceStore();
  let before: Settings['dataSource'] | null = null;
  return watch(
    () => (settings.settings ? sourceKey(settings.settings) : null),
    (key, old) => {
      const now = settings.settings?.dataSource ?? null;
      if (old && key && key !== old && settings.settings) {
        if (before && now) source.switched(before, now);
        cutOver(settings.settings.network);
      }
      before = now ? (JSON.parse(JSON.stringify(now)) as Settings['dataSource']) : before;
    },
    { immediate: true },
  );
}

function cutOver(network: Network): void {
  // Each reload keeps its own errors (none of them rejects). The status says whether the new source is simulated.
  void useStatusStore().load();
  void useMessagesStore().sourceChanged(network);
  const watchlist = useWatchlistStore();
  watchlist.close();
  void watchlist.load();
  void useActivityStore().load();
  const cache = useCacheStore();
  if (cache.loaded) void cache.search();
  const charts = useChartsStore();
  if (charts.stats) void charts.load();
  const relayers = useRelayersStore();
  if (relayers.loaded) void relayers.load();
}
