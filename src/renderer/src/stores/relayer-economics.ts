import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import { monitor } from '../client';
import { followedRead } from './followed-read';

/** What the failed-executions list shows: one route's failed messages for one relayer. */
interface FailedTarget {
  /** What the list is of, in words ("Failed executions by Swift on C-Chain → Beam, last hour"). */
  title: string;
  messageIds: string[];
}

/**
 * The Relayers view's fuel, earnings and failed executions: what the core keeps of its balance reads
 * and of the watched relayers' deliveries (no request upstream). Opened once, it follows the core's
 * `relayer-economics-changed` event (one re-read at most in flight).
 */
export const useRelayerEconomicsStore = defineStore('relayer-economics', () => {
  // A watched relayer added or removed, or the fuel threshold changed, changes what is shown too.
  const {
    value: economics,
    loaded,
    error,
    load,
  } = followedRead(() => monitor().relayerEconomics(), ['relayer-economics-changed', 'watchlist-changed', 'settings-changed']);
  const failed = shallowRef<FailedTarget | null>(null);

  /** Reloads everything this store shows (after a reconnect or a data-source change). */
  async function resync(): Promise<void> {
    await load();
  }

  function openFailed(t: FailedTarget): void {
    failed.value = { title: t.title, messageIds: [...t.messageIds] };
  }

  function closeFailed(): void {
    failed.value = null;
  }

  return { economics, loaded, error, failed, load, resync, openFailed, closeFailed };
});
