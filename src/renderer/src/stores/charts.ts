import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { Stats } from '../../../shared/contract';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';

/** The Charts room: transitions per time bucket and delivery latency from getStats. */
export const useChartsStore = defineStore('charts', () => {
  const hours = ref(24);
  const stats = shallowRef<Stats | null>(null);
  const loading = ref(false);
  const error = ref<ErrorInfo | null>(null);
  let seq = 0;

  async function load(h = hours.value): Promise<void> {
    hours.value = h;
    const my = ++seq;
    loading.value = true;
    try {
      const s = await monitor().getStats({ hours: h });
      if (my !== seq) return;
      stats.value = s;
      error.value = null;
    } catch (e) {
      if (my === seq) error.value = toErrorInfo(e);
    } finally {
      if (my === seq) loading.value = false;
    }
  }

  /** The shown hours again; nothing until the view first loaded. */
  const resync = (): Promise<void> => (stats.value ? load() : Promise.resolve());

  return { hours, stats, loading, error, load, resync };
});
