import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Settings } from '../../../shared/contract';
import { keptAfterSwitch, sourceLabel } from '../logic/source-change';
import { useSettingsStore } from './settings';

/** Where the list of earlier sources is kept, so a restart still labels what the cache holds. */
export const KEPT_KEY = 'teleporter-watch.kept-sources';

function readKept(): string[] {
  try {
    const v: unknown = JSON.parse(globalThis.localStorage?.getItem(KEPT_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Which data source the figures come from. The local cache (Relayers, Charts, cache search, Watchlist
 * counts, Activity) keeps what earlier sources gave; after a switch every view says so, naming them,
 * rather than showing an earlier source's figures (a demo's simulated ones above all) as the current one's.
 */
export const useSourceStore = defineStore('source', () => {
  const settings = useSettingsStore();
  const kept = ref<string[]>(readKept());
  const current = computed(() => (settings.settings ? sourceLabel(settings.settings.dataSource) : null));

  /** The data source the labels were last made for (a copy: the settings object is replaced, not changed). */
  let labelled: Settings['dataSource'] | null = null;

  /** After a data-source change, the one left joins the sources the cache keeps figures of. */
  function resync(): Promise<void> {
    const now = settings.settings?.dataSource ?? null;
    if (!now) return Promise.resolve();
    if (labelled && JSON.stringify(labelled) !== JSON.stringify(now)) switched(labelled, now);
    labelled = JSON.parse(JSON.stringify(now)) as Settings['dataSource'];
    return Promise.resolve();
  }

  function switched(before: Settings['dataSource'], after: Settings['dataSource']): void {
    kept.value = keptAfterSwitch(kept.value, before, after);
    try {
      globalThis.localStorage?.setItem(KEPT_KEY, JSON.stringify(kept.value));
    } catch {
      // A full or disabled storage only loses the label at the next start, never the figures.
    }
  }

  return { kept, current, resync };
});
