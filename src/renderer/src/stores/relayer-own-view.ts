import { defineStore } from 'pinia';
import { ref } from 'vue';
import { toErrorInfo } from '../../../shared/errors';
import { monitor } from '../client';
import { followedRead } from './followed-read';

/**
 * The Relayers view's "own metrics" section: each watched relayer's own counts (its metrics URL)
 * beside the chains', as the core last read them. Opened once, it follows `relayer-own-view-changed`
 * (a read, or a URL set) and the watchlist and settings (one re-read at most in flight).
 */
export const useRelayerOwnViewStore = defineStore('relayer-own-view', () => {
  const {
    value: view,
    loaded,
    error,
    load,
  } = followedRead(() => monitor().relayerOwnView(), ['relayer-own-view-changed', 'watchlist-changed', 'settings-changed']);
  /** A URL refused at save, by relayer address (lower case). */
  const urlErrors = ref<Record<string, string>>({});

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
