import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Plan } from '../src/shared/plans';

export interface WatcherConfigInput {
  url: string;
  receiverUrl: string;
  addresses: readonly string[];
  intervalSeconds: number;
  /** The Data API plan the watcher's budget spends within (the app's own setting). */
  plan: Plan;
  stuckThresholdMinutes: number;
  /** The environment variable holding the API key, if the watcher sends one. */
  apiKeyEnv?: string;
}

/**
 * Writes the benchmarked watcher's config file from the parent, as an operator writes it beforehand:
 * the YAML of 10,000 watches is built here, so its memory is not counted as the watcher's.
 */
export function writeWatcherConfig(dir: string, c: WatcherConfigInput): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    stringify({
      dataDir: './data',
      dataSource: c.url,
      network: 'mainnet',
      pollIntervalSeconds: c.intervalSeconds,
      plan: c.plan,
      stuckThresholdMinutes: c.stuckThresholdMinutes,
      ...(c.apiKeyEnv ? { apiKey: { env: c.apiKeyEnv } } : {}),
      // `new` is on (the default has it off) so the bench judges every kind the truth knows.
      notify: { new: true, left_pending: true, receipt_delivered: true, stuck: true },
      metrics: { listen: '127.0.0.1:0' },
      alerts: { channels: [{ type: 'alertmanager', url: c.receiverUrl }] },
      watches: c.addresses.map((address, i) => ({ address, label: `team-${i % 20}` })),
    }),
  );
  return file;
}
