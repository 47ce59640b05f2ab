/**
 * Prometheus series of the relayer's own view beside the chains' (parts/relayer-metrics-watch.ts): per
 * watched relayer with a metrics URL, whether it was read, and per route its own counts over the
 * comparison window beside the chains', and whether each of its two disagreement alerts is open (the
 * core's episodes, so one held while the relayer is not read stays 1: deploy rules alert from these).
 * Labels are the watched relayer's label (else address), the route's chains by name and the relayer's
 * failure reason, capped like the core's other labels (the exposition shows any hidden character:
 * visible-labels.ts).
 */
import { Gauge, type Registry } from 'prom-client';
import type { RelayerOwnView } from '../../shared/relayer-own-view';
import { canonicalNetwork } from '../../shared/validators';
import { visibleText } from '../../shared/visible-text';
import type { OpenOwnAlert } from '../relayers/own-alerts-open';
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
  private readonly claimsAlert: Gauge<'relayer' | 'route'>;
  private readonly failuresAlert: Gauge<'relayer' | 'reason'>;

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
    this.claimsAlert = new Gauge({
      name: `${METRIC_PREFIX}relayer_claims_unseen_alert`,
      help: "1 while the app's claims-unseen alert is open for a watched relayer on a watched route (its own metrics claim relayerClaimExcess or more deliveries the chains do not show over the window; held while it is not read), else 0.",
      labelNames: ['relayer', 'route'],
      registers,
    });
    this.failuresAlert = new Gauge({
      name: `${METRIC_PREFIX}relayer_failures_alert`,
      help: "1 while the app's failures alert is open for a watched relayer and a failure_reason (relayerFailuresInWindow or more of its relays failed with it over the window; held while it is not read), else 0.",
      labelNames: ['relayer', 'reason'],
      registers,
    });
  }

  /** `open`: the disagreement alerts open after the cycle that made `v`. */
  observe(v: RelayerOwnView, open: readonly OpenOwnAlert[]): void {
    for (const g of [this.read, this.own, this.failed, this.chain, this.claimsAlert, this.failuresAlert]) g.reset();
    for (const r of v.relayers) {
      if (r.state === 'off') continue;
      const relayer = this.relayers.of(visibleText(r.label || r.address));
      const reason = (s: string) => this.reasons.of(visibleText(s));
      this.read.set({ relayer }, r.state === 'not_read' ? 0 : 1);
      for (const x of r.routes) {
        const route = this.routes.of(x.routeName);
        this.own.inc({ relayer, route }, x.relayerDelivered);
        if (x.watched) this.claimsAlert.set({ relayer, route }, 0);
        if (x.chainDelivered !== null) this.chain.inc({ relayer, route }, x.chainDelivered);
        for (const f of x.failures) {
          this.failed.inc({ relayer, route, reason: reason(f.reason) }, f.count);
          this.failuresAlert.set({ relayer, reason: reason(f.reason) }, 0);
        }
      }
      // After the zeros: an open alert is 1 even when its route or reason is no longer in the window (held).
      const net = canonicalNetwork(r.network);
      for (const a of open) {
        if (a.relayer !== r.address.toLowerCase() || a.network !== net) continue;
        if (a.route !== null) this.claimsAlert.set({ relayer, route: this.routes.of(a.route) }, 1);
        if (a.reason !== null) this.failuresAlert.set({ relayer, reason: reason(a.reason) }, 1);
      }
    }
  }
}
