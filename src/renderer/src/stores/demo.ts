import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { MonitorEvent } from '../../../shared/api';
import { monitor } from '../client';
import { useWatchlistStore } from './watchlist';

/**
 * The embedded demo's busy addresses (none for a real data source): offered in the empty Watchlist
 * and in Messages' address cells, so a new user's Activity fills within a minute.
 */
export const useDemoStore = defineStore('demo', () => {
  const addresses = ref<string[]>([]);
  const known = computed(() => new Set(addresses.value.map((a) => a.toLowerCase())));
  let seq = 0;

  async function load(): Promise<void> {
    const my = ++seq;
    try {
      const r = await monitor().getDemoAddresses();
      if (my === seq) addresses.value = r.addresses;
    } catch {
      if (my === seq) addresses.value = [];
    }
  }

  const isDemo = (address: string | undefined): boolean => !!address && known.value.has(address.toLowerCase());
  const labelOf = (address: string): string => `Demo busy address ${addresses.value.findIndex((a) => a.toLowerCase() === address.toLowerCase()) + 1}`;

  /** The busiest demo address not watched yet. */
  const next = computed(() => {
    const watched = new Set(useWatchlistStore().watches.map((w) => w.address.toLowerCase()));
    return addresses.value.find((a) => !watched.has(a.toLowerCase())) ?? null;
  });

  /** Watches a demo address (default: the busiest one not watched yet). */
  async function watch(address = next.value): Promise<boolean> {
    if (!address) return false;
    return (await useWatchlistStore().add({ address, label: labelOf(address) })) !== null;
  }

  function handleEvent(e: MonitorEvent): void {
    // A data-source change may start or stop the demo.
    if (e.type === 'settings-changed') void load();
  }

  return { addresses, next, isDemo, watch, load, handleEvent };
});
