import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import type { RelayerEconomics } from '../../../shared/relayers';
import { monitor, useMonitorEvents } from '../client';
import { coalesce } from '../logic/coalesce';

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
  const economics = shallowRef<RelayerEconomics | null>(null);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  const failed = shallowRef<FailedTarget | null>(null);

  const load = coalesce(async () => {
    try {
      economics.value = await monitor().relayerEconomics();
      error.value = null;
      loaded.value = true;
    } catch (e) {
      error.value = toErrorInfo(e);
    }
  });

  // Until the view was opened there is nothing to keep fresh.
  const follow = () => {
    if (loaded.value) void load();
  };
  // A watched relayer added or removed, or the fuel threshold changed, changes what is shown too.
  useMonitorEvents({ 'relayer-economics-changed': follow, 'watchlist-changed': follow, 'settings-changed': follow });

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
