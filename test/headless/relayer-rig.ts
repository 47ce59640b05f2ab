/** The relayer tests' headless watcher: every simulated relayer and the C-Chain → Beam route watched, and the outage they share. */
import type { HeadlessWatcher } from '../../src/headless/watcher';
import type { RelayerOverview } from '../../src/shared/relayers';
import type { JumpClock } from '../core/http-helpers';
import { baseConfig, pollNow, startWatcher, tempDir, type Service } from './rig';

export const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

/** A simulated relayer's label in the watcher's config: r<its index>. */
export const relayerLabel = (svc: Service, address: string) => `r${svc.simulator.relayers.indexOf(address)}`;

/**
 * A started watcher of every simulated relayer (silent after 10 min while a message waits 5) and of the
 * route C-Chain → Beam labelled `c-beam`, with no watched address or feed; `extra` adds to its config.
 * Its close is pushed onto `cleanups`.
 */
export async function startRelayerWatcher(
  svc: Service,
  clock: JumpClock,
  cleanups: (() => Promise<void>)[],
  o: { dirPrefix: string; backlogMinutes: number; extra?: Record<string, unknown>; onAlert?: (line: string) => void },
): Promise<HeadlessWatcher> {
  const w = await startWatcher(
    tempDir(o.dirPrefix),
    baseConfig(svc.url, {
      watches: [],
      feeds: [],
      relayers: svc.simulator.relayers.map((address) => ({ address, label: relayerLabel(svc, address), silentMinutes: 10, pendingMinutes: 5 })),
      routes: [{ source: 'C-Chain', destination: 'Beam', label: 'c-beam', backlogMinutes: o.backlogMinutes }],
      ...o.extra,
    }),
    { clock, ...(o.onAlert ? { onAlert: o.onAlert } : {}) },
  );
  cleanups.push(() => w.close());
  return w;
}

/**
 * The outage: four messages delivered within seconds, then one that waits 45 min while nobody delivers
 * anything; a minute on, the watcher has read them. Returns the labels of the relayers that delivered, sorted.
 */
export async function startOutage(svc: Service, clock: JumpClock, w: HeadlessWatcher): Promise<string[]> {
  await pollNow(w);
  for (let i = 0; i < 4; i++) svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000 });
  svc.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 45 * 60_000 });
  await clock.advance(60_000);
  await pollNow(w);
  const overview = await w.core.invoke('relayerOverview', undefined);
  if (!overview.ok) throw new Error(overview.error.message);
  return (overview.value as RelayerOverview).relayers
    .filter((r) => r.deliveries24h > 0)
    .map((r) => r.label)
    .sort();
}
