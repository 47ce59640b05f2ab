/**
 * The core's public entry: all a shell (src/main, src/host, src/headless, src/web-server) may import
 * from the core. Everything else under src/core is internal, and eslint refuses a shell's import of it
 * (eslint.config.mjs). Add here deliberately, only what a shell needs.
 */
// The core itself, and the stand-in a shell shows when the core could not be made.
export { createMonitorCore } from './create-core';
export { unavailableCore } from './unavailable-core';
export type { MonitorCore, MonitorCoreOptions, LocalServiceSpec, AlertDeliveryResult } from './monitor-core';
export type { Logger } from './log/logger';
// What a shell decides before the core exists: where its data lives, its memory mode, its API key.
export { defaultDataDir } from './default-data-dir';
export { favorMemoryOverSpeed } from './memory/favor-memory';
export { KeyStore } from './secrets/key-store';
// The Prometheus registry the headless watcher serves, and what its own gauges share with the core's.
export type { CoreMetrics } from './metrics/core-metrics';
export { METRIC_PREFIX, MAX_WATCH_LABELS } from './metrics/core-metrics';
export { LabelCap } from './metrics/label-cap';
// What the headless watcher's console says when an own node's state or skips change.
export { OwnNodeSkipNews } from './own-nodes/skip-news';
export { OwnNodeStateChanges } from './own-nodes/state-changes';
// The headless config's `relayerConfig:` entry reads an ICM relayer's config as the desktop's import does.
export { parseRelayerConfig } from './relayers/relayer-config';
