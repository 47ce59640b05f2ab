import { defineAsyncComponent, type Component } from 'vue';
import type { ViewName } from '../stores/ui';

/**
 * Each view is its own chunk, loaded when first opened: the first paint parses only the shell and the
 * view it shows (Charts alone pulls in echarts). One loader per view, so an early `preloadView` and the
 * shell's async component share the same import.
 */
const loaders: Record<ViewName, () => Promise<Component>> = {
  messages: () => import('./MessagesView.vue').then((m) => m.default),
  watchlist: () => import('./WatchlistView.vue').then((m) => m.default),
  activity: () => import('./ActivityView.vue').then((m) => m.default),
  cache: () => import('./CacheView.vue').then((m) => m.default),
  charts: () => import('./ChartsView.vue').then((m) => m.default),
  settings: () => import('./SettingsView.vue').then((m) => m.default),
  relayers: () => import('./RelayersView.vue').then((m) => m.default),
};

export const lazyViews = Object.fromEntries(Object.entries(loaders).map(([name, load]) => [name, defineAsyncComponent(load)])) as Record<ViewName, Component>;

/** Starts fetching a view's chunk now (at startup: the opened one, while the shell mounts). */
export function preloadView(view: ViewName): void {
  void loaders[view]().catch(() => undefined); // the async component reports a failed load when it renders
}
