/**
 * Prometheus series of the relayer's own view beside the chains' (parts/relayer-metrics-watch.ts): per
 * watched relayer with a metrics URL, whether it was read, and per route its own counts over the
 * comparison window beside the chains'. Labels are the watched relayer's label (else address), the
 * route's chains by name and the relayer's failure reason, capped like the core's other labels (the
 * exposition shows any hidden character: visible-labels.ts).
 */
import { Gauge, type Registry } from 'prom-client';
import type { RelayerOwnView } from '../../shared/relayer-own-view';
import { visibleText } from '../../shared/visible-text';
import { METRIC_PREFIX } from './core-metrics';
import { LabelCap } from './label-cap';

const MAX_RELAYERS = 200;
const MAX_ROUTES = 200;
const MAX_REASONS = 50;

export class RelayerOwnViewMetrics {
  private readonly relayers = new LabelCap(MAX_RELAYERS);
  private readonly routes = new LabelCap(MAX_ROUTES);
  private readonly reasons = new LabelCap(MAX_REASONS);
  private readonly read: Gauge<'relayer'>;
  private readonly own: Gauge<'relayer' | 'route'>;
  private readonly failed: Gauge<'relayer' | 'route' | 'reason'>;
  private readonly chain: Gauge<'relayer' | 'route'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.read = new Gauge({
      name: `${METRIC_PREFIX}relayer_own_metrics_read`,
      help: "1 while a watched relayer's own metrics URL was read at its last try, 0 while not read (its reason in the Relayers view and the log).",
      labelNames: ['relayer'],
      registers,
    });
    this.own = new Gauge({
      name: `${METRIC_PREFIX}relayer_own_delivered`,
      help: "Messages a watched relayer's own metrics (successful_relay_message_count) say it relayed on a route over the comparison window.",
      labelNames: ['relayer', 'route'],
      registers,
    });
    this.failed = new Gauge({
      name: `${METRIC_PREFIX}relayer_own_failed`,
      help: "Relays a watched relayer's own metrics (failed_relay_message_count) say failed on a route over the comparison window, by its failure_reason.",
      labelNames: ['relayer', 'route', 'reason'],
      registers,
    });
    this.chain = new Gauge({
      name: `${METRIC_PREFIX}relayer_chain_delivered`,
      help: 'Deliveries the chains show for a watched relayer on a watched route over the same window (beside relayer_own_delivered).',
      labelNames: ['relayer', 'route'],
      registers,
    });
  }

  observe(v: RelayerOwnView): void {
    for (const g of [this.read, this.own, this.failed, this.chain]) g.reset();
    for (const r of v.relayers) {
      if (r.state === 'off') continue;
      const relayer = this.relayers.of(visibleText(r.label || r.address));
      this.read.set({ relayer }, r.state === 'not_read' ? 0 : 1);
      for (const x of r.routes) {
        const route = this.routes.of(x.routeName);
        this.own.inc({ relayer, route }, x.relayerDelivered);
        if (x.chainDelivered !== null) this.chain.inc({ relayer, route }, x.chainDelivered);
        for (const f of x.failures) this.failed.inc({ relayer, route, reason: this.reasons.of(visibleText(f.reason)) }, f.count);
      }
    }
  }
}
