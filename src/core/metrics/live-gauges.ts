import { Gauge, type Registry } from 'prom-client';
import type { PollStatus } from '../../shared/contract';
import type { AlertChannelState } from '../../shared/alert-schemas';
import { CHAIN_STATES, SKIP_REASONS } from '../../shared/own-nodes';
import { registerAlertChannelMetrics } from './alert-channel-metrics';
import { METRIC_PREFIX } from './core-metrics';
import { registerHealthMetrics } from './health-metrics';
import { registerQuotaMetrics } from './quota-metrics';

/** What the live gauges read on scrape, from parts listed after the metrics registry. */
export interface LiveReaders {
  pollStatus: () => PollStatus;
  /** What the API (at `host`) said is left in its rate-limit window (null: it has not said). */
  rateLimitRemaining: () => { host: string; remaining: number } | null;
  /** Alert deliveries waiting for a receiver. */
  alertsPending: () => number;
  /** Each alert channel's backoff. */
  alertChannels: () => AlertChannelState[];
}

/**
 * The gauges read at scrape time from the poller, the data sources and the alert channels: added to
 * the core's registry by the part made after those (`metrics-readings`), so they exist only once what
 * they read does.
 */
export function registerLiveGauges(registry: Registry, r: LiveReaders): void {
  const registers = [registry];
  new Gauge({
    name: `${METRIC_PREFIX}ratelimit_remaining`,
    help: 'Compute units left in the Data API rate-limit window, as its ratelimit-remaining header said (absent until it says).',
    labelNames: ['host'],
    registers,
    collect() {
      this.reset();
      const v = r.rateLimitRemaining();
      if (v !== null) this.set({ host: v.host }, v.remaining);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}last_successful_poll_timestamp_seconds`,
    help: 'Unix time of the last poll cycle that succeeded (0: none yet).',
    registers,
    collect() {
      this.set((r.pollStatus().lastSuccessAt ?? 0) / 1000);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}own_node_state`,
    help: 'With your own nodes as the data source: 1 for the state each chain (its configured name) is in (ok, starting, down, slow, pruned, rate_limited, wrong_chain).',
    labelNames: ['chain', 'blockchain_id', 'state'],
    registers,
    collect() {
      this.reset();
      for (const n of r.pollStatus().ownNodes ?? [])
        for (const st of CHAIN_STATES) this.set({ chain: n.name, blockchain_id: n.blockchainId, state: st }, n.state === st ? 1 : 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}own_node_indexed_block`,
    help: 'With your own nodes as the data source: the last block read on each chain, and its head.',
    labelNames: ['chain', 'blockchain_id', 'of'],
    registers,
    collect() {
      this.reset();
      for (const n of r.pollStatus().ownNodes ?? []) {
        if (n.indexedTo !== null) this.set({ chain: n.name, blockchain_id: n.blockchainId, of: 'indexed' }, n.indexedTo);
        if (n.head !== null) this.set({ chain: n.name, blockchain_id: n.blockchainId, of: 'head' }, n.head);
      }
    },
  });
  registerHealthMetrics(registry, METRIC_PREFIX, r.pollStatus);
  registerQuotaMetrics(registry, METRIC_PREFIX, r.pollStatus);
  new Gauge({
    name: `${METRIC_PREFIX}own_node_skipped`,
    help: 'With your own nodes as the data source: logs, blocks and receipts a node sent malformed and that were skipped (the chain reads on), by reason, since the service started.',
    labelNames: ['chain', 'blockchain_id', 'reason'],
    registers,
    collect() {
      this.reset();
      for (const n of r.pollStatus().ownNodes ?? [])
        for (const r of SKIP_REASONS) this.set({ chain: n.name, blockchain_id: n.blockchainId, reason: r }, n.skipped[r] ?? 0);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}watchers`,
    help: 'Watched addresses and feeds.',
    registers,
    collect() {
      this.set(r.pollStatus().watching);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}alerts_pending`,
    help: 'Alerts waiting for a receiver (retried with backoff).',
    registers,
    collect() {
      this.set(r.alertsPending());
    },
  });
  registerAlertChannelMetrics(registry, METRIC_PREFIX, r.alertChannels);
}
