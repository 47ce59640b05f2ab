import { Gauge, type Registry } from 'prom-client';
import type { PollStatus } from '../../shared/contract';
import { HEALTH_STATES } from '../../shared/source-health';
import { sourceTitle } from '../../shared/sources';

/** Read, or read later than usual: the monitor sees. Down: it does not. Unknown (not read yet) has no value. */
const upValue = (state: string): number | null => (state === 'up' || state === 'degraded' ? 1 : state === 'down' ? 0 : null);

/**
 * Whether the watcher can see, at scrape time, from the poll status: the data source (`source_up`,
 * `source_state`) and with your own nodes each chain (`chain_up`). The deploy rules alert on these and
 * Alertmanager's inhibit_rules hold the relayer, route, fuel and stuck alerts while they are 0
 * (deploy/alertmanager.yml): not seeing is never news about relayers.
 */
export function registerHealthMetrics(registry: Registry, prefix: string, pollStatus: () => PollStatus): void {
  const registers = [registry];
  new Gauge({
    name: `${prefix}source_up`,
    help: '1 while the data source is read (up, or degraded: later than usual), 0 while it is down (not read for 2 min or more); absent until it was first read.',
    labelNames: ['source'],
    registers,
    collect() {
      this.reset();
      const h = pollStatus().source;
      const v = h ? upValue(h.state) : null;
      if (h && v !== null) this.set({ source: sourceTitle(h.source) }, v);
    },
  });
  new Gauge({
    name: `${prefix}source_state`,
    help: '1 for the state the data source is in (unknown, up, degraded, down).',
    labelNames: ['source', 'state'],
    registers,
    collect() {
      this.reset();
      const h = pollStatus().source;
      if (h) for (const st of HEALTH_STATES) this.set({ source: sourceTitle(h.source), state: st }, h.state === st ? 1 : 0);
    },
  });
  new Gauge({
    name: `${prefix}chain_up`,
    help: "With your own nodes as the data source: 1 while a chain's node is read, 0 while it is down (2 min or more); absent while it starts.",
    labelNames: ['chain', 'blockchain_id'],
    registers,
    collect() {
      this.reset();
      for (const c of pollStatus().source?.chains ?? []) {
        const v = upValue(c.state);
        if (v !== null) this.set({ chain: c.name, blockchain_id: c.blockchainId }, v);
      }
    },
  });
}
