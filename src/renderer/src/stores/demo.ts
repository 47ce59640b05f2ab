import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { DemoRelayer } from '../../../shared/contract';
import { monitor } from '../client';
import { useActivityStore } from './activity';
import { useCacheStore } from './cache';
import { useWatchlistStore } from './watchlist';

/**
 * The embedded demo's busy addresses (none for a real data source): offered in the empty Watchlist
 * and in Messages' address cells, so a new user's Activity fills within a minute.
 */
const REMEMBERED_KEY = 'tw-demo-addresses';

function readRemembered(): string[] {
  try {
    const v: unknown = JSON.parse(globalThis.localStorage?.getItem(REMEMBERED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 50) : [];
  } catch {
    return [];
  }
}

export const useDemoStore = defineStore('demo', () => {
  const addresses = ref<string[]>([]);
  /** The demo's relayer personas, offered in the empty Relayers view. */
  const relayers = ref<DemoRelayer[]>([]);
  /** Demo addresses seen in any session: recognised on the watchlist after a switch to real data. */
  const remembered = ref<string[]>(readRemembered());
  const known = computed(() => new Set(addresses.value.map((a) => a.toLowerCase())));
  const everDemo = computed(() => new Set([...addresses.value, ...remembered.value].map((a) => a.toLowerCase())));
  const leftovers = computed(() => (addresses.value.length ? [] : useWatchlistStore().watches.filter((w) => everDemo.value.has(w.address.toLowerCase()))));
  let seq = 0;

  async function load(): Promise<void> {
    const my = ++seq;
    try {
      const r = await monitor().getDemoAddresses();
      if (my !== seq) return;
      addresses.value = r.addresses;
      relayers.value = r.relayers;
      if (r.addresses.length) remember(r.addresses);
    } catch {
      if (my === seq) {
        addresses.value = [];
        relayers.value = [];
      }
    }
  }

  function remember(list: string[]): void {
    remembered.value = [...new Set([...list, ...remembered.value])].slice(0, 50);
    try {
      globalThis.localStorage?.setItem(REMEMBERED_KEY, JSON.stringify(remembered.value));
    } catch {
      // Private mode or a full storage: recognising leftovers is a convenience.
    }
  }

  /** Removes demo addresses left on the watchlist while a real data source is in use. */
  async function removeLeftovers(): Promise<void> {
    const watchlist = useWatchlistStore();
    // Their simulated messages and Activity go too: nothing of the demo stays in real mode.
    for (const w of leftovers.value) await watchlist.remove(w.address, { forget: true });
    void useActivityStore().load();
    const cache = useCacheStore();
    if (cache.loaded) void cache.search();
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

  // A data-source change may start or stop the demo: the connection owner calls resync (it never rejects).
  return { addresses, relayers, next, leftovers, isDemo, watch, removeLeftovers, load, resync: load };
});
