import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { Stats } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';
import { latestRead } from '../logic/latest-read';

/** The Charts room: transitions per time bucket and delivery latency from getStats. */
export const useChartsStore = defineStore('charts', () => {
  const hours = ref(24);
  const stats = shallowRef<Stats | null>(null);
  const loading = ref(false);
  const error = ref<ErrorInfo | null>(null);
  const reads = latestRead(loading, error);

  function load(h = hours.value): Promise<void> {
    hours.value = h;
    return reads.run(
      () => monitor().getStats({ hours: h }),
      (s) => (stats.value = s),
    );
  }

  /** The shown hours again; nothing until the view first loaded. */
  const resync = (): Promise<void> => (stats.value ? load() : Promise.resolve());

  return { hours, stats, loading, error, load, resync };
});
