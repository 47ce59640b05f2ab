import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { MonitorEvent, Transition } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import { RECORD_SKIP_REASONS, type RecordSkipReason } from '../../shared/record-bounds';
import type { MetricsQueries } from '../store/metrics-queries';
import { LabelCap } from './label-cap';
import { visibleLabelValues } from './visible-labels';

export const METRIC_PREFIX = 'teleporter_watch_';
/** Distinct routes and watch labels kept as label values; the rest are counted as "other". */
export const MAX_ROUTES = 100;
export const MAX_WATCH_LABELS = 200;
export const MAX_SOURCES = 10;

interface CoreMetricsSources {
  queries: MetricsQueries;
  /** Your own nodes' chains while they are the data source: a route label names them so. */
  ownChains?: () => readonly OwnChain[];
}

/** An outcome of one request to the Data API. */
type RequestOutcome = { ok: true } | { ok: false; error: Pick<ErrorInfo, 'kind'> };

/**
 * The core's Prometheus registry (one per core, so tests may run several). Gauges are read from the
 * store at scrape time; counters are fed by events and by the parts that count into it. The gauges
 * that read later parts (the poll status, the alert channels) are added by those readers' own part
 * (live-gauges.ts, the `metrics-readings` part). Labels are routes and watch labels only — never
 * message IDs or addresses — and both are capped.
 */
export class CoreMetrics {
  readonly registry = new Registry();
  private readonly routes = new LabelCap(MAX_ROUTES);
  private readonly watchLabels = new LabelCap(MAX_WATCH_LABELS);
  /** Data sources named in labels: one at a time, a few over a process's life. */
  private readonly sources = new LabelCap(MAX_SOURCES);
  private readonly transitions: Counter<'kind' | 'route'>;
  private readonly latency: Histogram<'route'>;
  private readonly requests: Counter;
  private readonly errors: Counter<'kind'>;
  private readonly rateLimited: Counter;
  private readonly alerts: Counter<'channel' | 'outcome'>;
  private readonly skipped: Counter<'reason' | 'source'>;

  constructor(
    private readonly s: CoreMetricsSources,
    opts: { processMetrics?: boolean } = {},
  ) {
    const registers = [this.registry];
    /** A `src|dst` key's route label; `own` read once per scrape (each read parses the settings). */
    const route = (key: string, own: readonly OwnChain[] | undefined) => {
      const [src = '', dst = ''] = key.split('|');
      return this.routes.of(routeLabel(src, dst, own));
    };
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    new Gauge({
      name: `${METRIC_PREFIX}tracked_messages`,
      help: 'Messages being tracked (pending, or delivered and awaiting the receipt), by route and status.',
      labelNames: ['route', 'status'],
      registers,
      collect() {
        this.reset();
        const own = s.ownChains?.();
        for (const r of s.queries.trackedByRoute()) this.inc({ route: route(r.key, own), status: r.status }, r.n);
      },
    });
    const watchLabels = this.watchLabels;
    new Gauge({
      name: `${METRIC_PREFIX}tracked_messages_by_watch`,
      help: 'Tracked messages by watch label (address label or feed name; "unlabelled" when none) and status.',
      labelNames: ['watch', 'status'],
      registers,
      collect() {
        this.reset();
        for (const r of s.queries.trackedByWatchLabel()) this.inc({ watch: watchLabels.of(r.key || 'unlabelled'), status: r.status }, r.n);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}stuck_messages`,
      help: 'Messages still pending after the stuck threshold, by route.',
      labelNames: ['route'],
      registers,
      collect() {
        this.reset();
        const own = s.ownChains?.();
        for (const r of s.queries.stuckByRoute()) this.inc({ route: route(r.key, own) }, r.n);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}tracking_ended_messages`,
      help: 'Messages no longer tracked because they passed a tracking limit, by reason: receipt_missing (24 h after the delivery), pending_too_long (7 days).',
      labelNames: ['reason'],
      registers,
      collect() {
        this.reset();
        for (const r of s.queries.trackingEnded()) this.set({ reason: r.reason }, r.n);
      },
    });
    this.transitions = new Counter({
      name: `${METRIC_PREFIX}transitions_total`,
      help: 'Transitions detected, by kind and route.',
      labelNames: ['kind', 'route'],
      registers,
    });
    this.latency = new Histogram({
      name: `${METRIC_PREFIX}delivery_latency_seconds`,
      help: 'Seconds from the source transaction to the destination transaction of delivered messages, by route.',
      labelNames: ['route'],
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers,
    });
    this.requests = new Counter({ name: `${METRIC_PREFIX}poll_requests_total`, help: 'Requests sent to the Data API.', registers });
    this.errors = new Counter({
      name: `${METRIC_PREFIX}poll_errors_total`,
      help: 'Data API requests that failed, by error kind.',
      labelNames: ['kind'],
      registers,
    });
    this.rateLimited = new Counter({ name: `${METRIC_PREFIX}poll_rate_limited_total`, help: 'Data API answers with HTTP 429.', registers });
    this.skipped = new Counter({
      name: `${METRIC_PREFIX}skipped_records_total`,
      help: "Records the data source sent that were skipped at the boundary (never stored), by reason and data source (as teleporter_watch_source_up names it: Avalanche Data API, Embedded demo, Your own nodes, a custom URL's host).",
      labelNames: ['reason', 'source'],
      registers,
    });
    this.alerts = new Counter({
      name: `${METRIC_PREFIX}alert_deliveries_total`,
      help: 'Alert deliveries by channel and outcome (sent, failed).',
      labelNames: ['channel', 'outcome'],
      registers,
    });
  }

  observeEvent(e: MonitorEvent): void {
    if (e.type !== 'transitions') return;
    const own = this.s.ownChains?.();
    for (const t of e.transitions) this.observeTransition(t, own);
  }

  private observeTransition(t: Transition, own: readonly OwnChain[] | undefined): void {
    const route = this.routes.of(routeLabel(t.sourceBlockchainId, t.destinationBlockchainId, own));
    this.transitions.inc({ kind: t.kind, route });
    if (t.kind === 'left_pending' && t.toStatus.startsWith('delivered')) {
      const secs = this.s.queries.deliverySeconds(t.messageId);
      if (secs !== null) this.latency.observe({ route }, secs);
    }
  }

  observeRequest(o: RequestOutcome): void {
    this.requests.inc();
    if (o.ok) return;
    this.errors.inc({ kind: o.error.kind });
    if (o.error.kind === 'rate_limited') this.rateLimited.inc();
  }

  /** A record skipped at the boundary; both labels are bounded (reasons a fixed set, sources capped like routes). */
  observeSkipped(reason: RecordSkipReason, source: string, n: number): void {
    this.skipped.inc({ reason: RECORD_SKIP_REASONS.includes(reason) ? reason : 'malformed', source: this.sources.of(source) }, n);
  }

  observeAlert(channel: string, outcome: 'sent' | 'failed', count: number): void {
    this.alerts.inc({ channel, outcome }, count);
  }

  /** The exposition, every label value's hidden characters shown (visible-labels.ts). */
  async text(): Promise<string> {
    return visibleLabelValues(await this.registry.metrics());
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
