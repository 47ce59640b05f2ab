/**
 * Applies a relayer config's plan (relayer-config.ts) to the watches: what it adds and removes is
 * shown first (the preview), against what is watched now and what the last import added. Only what
 * an import added is ever removed by a later one: a watch you added by hand stays.
 */
import { routeIdentity } from '../../shared/chain-input';
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { RelayerConfigPlan, RelayerConfigPreview } from '../../shared/relayer-config';
import type { Settings } from '../../shared/contract';
import type { Store } from '../store';

/** What the last import added (addresses lower-case, routes by identity), kept in poll_state, and the relayer's ports it named. */
export interface ImportRecord {
  relayers: string[];
  routes: string[];
  wallets: string[];
  /** The file's metrics-port and api-port (defaults 9090, 8080); null before any import. */
  metricsPort: number | null;
  apiPort: number | null;
}

const RECORD_KEY = 'relayer-config-import';
const EMPTY: ImportRecord = { relayers: [], routes: [], wallets: [], metricsPort: null, apiPort: null };
const lower = (a: string) => a.toLowerCase();

type PlanRoute = RelayerConfigPlan['routes'][number];
type PlanWallet = RelayerConfigPlan['wallets'][number];

/**
 * One watch per wallet address (a key may pay on several chains): its first chain's entry, named for
 * all. A wallet that is also a reward address is watched once, as the relayer.
 */
function walletWatches(plan: RelayerConfigPlan): PlanWallet[] {
  const rewards = new Set(plan.relayers.map((r) => lower(r.address)));
  const by = new Map<string, PlanWallet & { chains: number }>();
  for (const w of plan.wallets) {
    if (rewards.has(lower(w.address))) continue;
    const cur = by.get(lower(w.address));
    if (cur) cur.chains++;
    else by.set(lower(w.address), { ...w, chains: 1 });
  }
  return [...by.values()].map(({ chains, ...w }) => (chains > 1 ? { ...w, label: 'relayer wallet' } : w));
}

/** What the last import recorded: what it is answerable for, and the relayer's metrics and API ports (for reading its own metrics). */
export function lastImport(store: Store): ImportRecord {
  return { ...EMPTY, ...(store.pollState.get<ImportRecord>(RECORD_KEY) ?? {}) };
}

/** `own`: your own nodes' chains, which name a removed route as the plan's routes are named. */
export function previewImport(store: Store, plan: RelayerConfigPlan, own: readonly OwnChain[] = []): RelayerConfigPreview {
  const last = lastImport(store);
  const watchedAddresses = new Map(store.relayerWatches.listRelayers().map((r) => [lower(r.address), r]));
  const routes = store.relayerWatches.listRoutes();
  const watchedRoutes = new Map(routes.map((r) => [routeIdentity(r.network, r.sourceChain, r.destinationChain), r]));
  const routeId = (r: PlanRoute) => routeIdentity(plan.network, r.source, r.destination);
  const wallets = walletWatches(plan);
  const inPlan = new Set([...plan.relayers.map((r) => lower(r.address)), ...wallets.map((w) => lower(w.address))]);
  const planRoutes = new Set(plan.routes.map(routeId));

  const removedAddresses = (kind: 'relayers' | 'wallets') =>
    last[kind]
      .filter((a) => !inPlan.has(a) && watchedAddresses.has(a))
      .map((a) => {
        const w = watchedAddresses.get(a)!;
        return { address: w.address, label: w.label };
      });
  return {
    plan,
    relayers: {
      added: plan.relayers.filter((r) => !watchedAddresses.has(lower(r.address))),
      removed: removedAddresses('relayers'),
      kept: plan.relayers.filter((r) => watchedAddresses.has(lower(r.address))).length,
    },
    routes: {
      added: plan.routes.filter((r) => !watchedRoutes.has(routeId(r))),
      removed: last.routes
        .filter((id) => !planRoutes.has(id) && watchedRoutes.has(id))
        .map((id) => {
          const r = watchedRoutes.get(id)!;
          return { source: r.sourceChain, destination: r.destinationChain, label: r.label || routeLabel(r.sourceChain, r.destinationChain, own) };
        }),
      kept: plan.routes.filter((r) => watchedRoutes.has(routeId(r))).length,
    },
    wallets: {
      added: wallets.filter((w) => !watchedAddresses.has(lower(w.address))),
      removed: removedAddresses('wallets').map((w) => ({ ...w, blockchainId: '', chainName: '' })),
      kept: wallets.filter((w) => watchedAddresses.has(lower(w.address))).length,
    },
  };
}

/**
 * Adds what the preview adds and removes what it removes, in one transaction, and records what this
 * import is now answerable for (what it added, and what an earlier import added that the file still lists).
 */
export function applyImport(store: Store, preview: RelayerConfigPreview, s: Settings, now: number): void {
  const { plan } = preview;
  const last = lastImport(store);
  const relayer = (address: string, label: string, alert: boolean) => ({
    address,
    label,
    network: plan.network,
    silentMinutes: s.relayerSilentMinutes,
    pendingMinutes: s.relayerPendingMinutes,
    alert,
    createdAt: now,
  });
  const keep = (kind: 'relayers' | 'routes' | 'wallets', wanted: Set<string>) => last[kind].filter((x) => wanted.has(x));
  store.transaction(() => {
    for (const r of preview.relayers.removed) store.relayerWatches.removeRelayer(r.address);
    for (const w of preview.wallets.removed) store.relayerWatches.removeRelayer(w.address);
    const routes = store.relayerWatches.listRoutes();
    for (const r of preview.routes.removed) {
      const id = routeIdentity(plan.network, r.source, r.destination);
      const w = routes.find((x) => routeIdentity(x.network, x.sourceChain, x.destinationChain) === id);
      if (w) store.relayerWatches.removeRoute(w.id);
    }
    // The reward address carries the silence alert; a wallet is watched for its fuel and deliveries, not alerted twice.
    for (const r of preview.relayers.added) store.relayerWatches.addRelayer(relayer(r.address, r.label, true));
    for (const w of preview.wallets.added) store.relayerWatches.addRelayer(relayer(w.address, w.label, false));
    for (const r of preview.routes.added)
      store.relayerWatches.addRoute({
        label: '',
        network: plan.network,
        sourceChain: r.source,
        destinationChain: r.destination,
        backlogMinutes: s.routeBacklogMinutes,
        alert: true,
        createdAt: now,
      });
    const routeIds = new Set(plan.routes.map((r) => routeIdentity(plan.network, r.source, r.destination)));
    const relayers = new Set(plan.relayers.map((r) => lower(r.address)));
    const wallets = new Set(walletWatches(plan).map((w) => lower(w.address)));
    store.pollState.set(RECORD_KEY, {
      relayers: [...new Set([...keep('relayers', relayers), ...preview.relayers.added.map((r) => lower(r.address))])],
      routes: [...new Set([...keep('routes', routeIds), ...preview.routes.added.map((r) => routeIdentity(plan.network, r.source, r.destination))])],
      wallets: [...new Set([...keep('wallets', wallets), ...preview.wallets.added.map((w) => lower(w.address))])],
      metricsPort: plan.metricsPort,
      apiPort: plan.apiPort,
    } satisfies ImportRecord);
  });
}
