/**
 * A relayer's own counters from its Prometheus text (the ICM relayer, ava-labs/icm-services
 * `relayer/application_relayer_metrics.go`): per route, the messages it says it relayed
 * (`successful_relay_message_count`), those it failed to relay by reason (`failed_relay_message_count`,
 * label `failure_reason`) and its last signing latency (`create_signed_message_latency_ms`).
 *
 * Versions differ in labels: until April 2026 (icm-services 4c94bb66c) each series also carries `source_subnet_id`; later ones only
 * `source_chain_id` and `destination_chain_id` (and add `fetch_signature_app_request_count`). Both are
 * read the same way: the route is the two chain IDs, any other label is summed over. Chain IDs come as
 * cb58 (avalanchego's ids.ID) or 0x hex; both become the cb58 ID every route is keyed by.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { resolveChainInput } from '../../shared/chain-input';
import { visibleText } from '../../shared/visible-text';

export const RELAYER_METRIC = {
  delivered: 'successful_relay_message_count',
  failed: 'failed_relay_message_count',
  latency: 'create_signed_message_latency_ms',
} as const;

/** More routes or reasons than this in one answer are not a relayer's: the rest is left out (and said). */
const MAX_ROUTES = 500;
const MAX_REASONS_PER_ROUTE = 50;
const MAX_REASON_CHARS = 200;

export interface OwnRouteCounts {
  /** cb58 blockchain IDs. */
  sourceChain: string;
  destinationChain: string;
  /** Messages it says it relayed (a counter since it started). */
  delivered: number;
  /** Messages it failed to relay, by its reason (counters since it started). */
  failed: Map<string, number>;
  /** Its last create-signed-message latency, ms (a gauge; null when not reported). */
  latencyMs: number | null;
}

export interface OwnCounters {
  /** By routeKey(source, destination). */
  routes: Map<string, OwnRouteCounts>;
  /** Series left out: a chain ID neither cb58 nor 0x hex, a value not a count, past a cap. */
  skipped: number;
}

export const routeKey = (source: string, destination: string) => `${source}>${destination}`;

/** A label's chain ID as cb58 (null: not a blockchain ID). */
function chainOf(label: string | undefined): string | null {
  if (!label) return null;
  // A name would resolve too (a registry chain's); the relayer only ever writes IDs.
  if (!/^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{40,60})$/.test(label)) return null;
  const r = resolveChainInput(label, 'chain');
  return r.ok ? r.value : null;
}

const countOf = (v: string | undefined): number | null => {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n >= 0 ? n : null;
};

export type ParsedOwn = { ok: true; counters: OwnCounters } | { ok: false; reason: string };

export function parseRelayerMetrics(text: string): ParsedOwn {
  let families;
  try {
    families = parsePrometheusTextFormat(text);
  } catch (e) {
    const line = (e as Error).message.replace(/^Encountered invalid line: /, '').slice(0, 80);
    return { ok: false, reason: `not Prometheus text (a line reads "${visibleText(line)}")` };
  }
  if (!Array.isArray(families) || (families.length === 0 && text.trim() !== '')) return { ok: false, reason: 'the answer holds no Prometheus metrics' };
  const routes = new Map<string, OwnRouteCounts>();
  let skipped = 0;
  const routeOf = (labels: Record<string, string> | undefined): OwnRouteCounts | null => {
    const source = chainOf(labels?.source_chain_id);
    const destination = chainOf(labels?.destination_chain_id);
    if (!source || !destination) return null;
    const key = routeKey(source, destination);
    let r = routes.get(key);
    if (!r) {
      if (routes.size >= MAX_ROUTES) return null;
      routes.set(key, (r = { sourceChain: source, destinationChain: destination, delivered: 0, failed: new Map(), latencyMs: null }));
    }
    return r;
  };
  for (const f of families) {
    if (f.name !== RELAYER_METRIC.delivered && f.name !== RELAYER_METRIC.failed && f.name !== RELAYER_METRIC.latency) continue;
    for (const m of f.metrics) {
      const value = countOf(m.value);
      const r = value === null ? null : routeOf(m.labels);
      if (!r || value === null) {
        skipped++;
        continue;
      }
      if (f.name === RELAYER_METRIC.delivered) r.delivered += value;
      else if (f.name === RELAYER_METRIC.latency) r.latencyMs = value;
      else {
        const reason = visibleText((m.labels?.failure_reason ?? '').trim() || 'no reason given').slice(0, MAX_REASON_CHARS);
        if (!r.failed.has(reason) && r.failed.size >= MAX_REASONS_PER_ROUTE) skipped++;
        else r.failed.set(reason, (r.failed.get(reason) ?? 0) + value);
      }
    }
  }
  return { ok: true, counters: { routes, skipped } };
}
