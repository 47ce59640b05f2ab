import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import type { RelayerOwnView } from '../../../shared/relayer-own-view';
import { monitor, useMonitorEvents } from '../client';
import { coalesce } from '../logic/coalesce';

/**
 * The Relayers view's "own metrics" section: each watched relayer's own counts (its metrics URL)
 * beside the chains', as the core last read them. Opened once, it follows `relayer-own-view-changed`
 * (a read, or a URL set) and the watchlist and settings (one re-read at most in flight).
 */
export const useRelayerOwnViewStore = defineStore('relayer-own-view', () => {
  const view = shallowRef<RelayerOwnView | null>(null);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  /** A URL refused at save, by relayer address (lower case). */
  const urlErrors = ref<Record<string, string>>({});

  const load = coalesce(async () => {
    try {
      view.value = await monitor().relayerOwnView();
      error.value = null;
      loaded.value = true;
    } catch (e) {
      error.value = toErrorInfo(e);
    }
  });

  const follow = () => {
    if (loaded.value) void load();
  };
  useMonitorEvents({ 'relayer-own-view-changed': follow, 'watchlist-changed': follow, 'settings-changed': follow });

  async function resync(): Promise<void> {
    await load();
  }

  /** Sets (or with an empty text clears) a relayer's metrics URL; true when saved. */
  async function setUrl(address: string, text: string): Promise<boolean> {
    const key = address.toLowerCase();
    try {
      view.value = await monitor().setRelayerMetricsUrl({ address, url: text.trim() === '' ? null : text.trim() });
      urlErrors.value = { ...urlErrors.value, [key]: '' };
      return true;
    } catch (e) {
      urlErrors.value = { ...urlErrors.value, [key]: toErrorInfo(e).message };
      return false;
    }
  }

  return { view, loaded, error, urlErrors, load, resync, setUrl };
});
