import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { CacheSources } from '../../../shared/contract';
import { sourceKeyOf, sourceName } from '../../../shared/sources';
import { monitor } from '../client';
import { useSettingsStore } from './settings';

/**
 * Which data source the figures come from, and which other sources' figures the local cache still
 * holds, as the core's database says (so a restart, another tab or another port shows the same). Views
 * count the current source's figures only and mark another's rows "from <source>, as of <time>".
 */
export const useSourceStore = defineStore('source', () => {
  const settings = useSettingsStore();
  const read = ref<CacheSources | null>(null);
  /** The current source's key (src/shared/sources.ts), from the settings; null until they are read. */
  const currentKey = computed(() => (settings.settings ? sourceKeyOf(settings.settings.dataSource) : null));
  const current = computed(() => (currentKey.value ? sourceName(currentKey.value) : null));
  /** Earlier sources whose figures the cache keeps (not the current one, whatever the last read said). */
  const others = computed(() => (read.value?.others ?? []).filter((o) => o.source !== currentKey.value));
  /** Whether a row's source is another than the current one. */
  const isOther = (source: string | undefined): boolean => source !== undefined && currentKey.value !== null && source !== currentKey.value;

  async function resync(): Promise<void> {
    try {
      read.value = await monitor().getCacheSources();
    } catch {
      // Without the answer no banner is shown; the rows still carry their own source and are marked.
    }
  }

  return { current, currentKey, others, isOther, resync };
});
