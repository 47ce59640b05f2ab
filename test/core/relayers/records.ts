/** Records for the relayer figures' unit tests: a delivery or pending message on a route, at given times. */
import { deliveryOf, pendingOf, type Delivery, type Pending } from '../../../src/core/relayers/delivery-record';
import { FigureAccumulator, type FigureScope, type Figures } from '../../../src/core/relayers/figure-accumulator';
import type { RelayerWatches } from '../../../src/core/store/relayer-watches';
import type { WatchedRelayer, WatchedRoute } from '../../../src/shared/relayers';
import { apiRecord, BEAM, C_CHAIN } from '../helpers';

export const DEXALOT = '21Ths5Afqi5r4PaoV8r8cruGZWhN11y5rxvy89K8px7pKy3P8E';
/** 2026-01-01 12:00 UTC. */
export const NOW = Date.UTC(2026, 0, 1, 12);

export interface DeliverySpec {
  deliverer: string;
  rewardAddress?: string;
  /** Source and destination transaction times, ms (source null: source not indexed). */
  sentAt: number | null;
  deliveredAt: number;
  source?: string;
  destination?: string;
  gasSpent?: string;
  reward?: { token: string; symbol: string; decimals: number; value: string; price?: number | string; currency?: string };
}

const USDC = { token: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC', decimals: 6 };

export function deliveryRecord(s: DeliverySpec): Record<string, unknown> {
  const status = s.sentAt === null ? 'delivered_source_not_indexed' : 'delivered';
  const rec = apiRecord({ status, ts: Math.floor((s.sentAt ?? s.deliveredAt) / 1000) });
  rec.sourceBlockchainId = s.source ?? C_CHAIN;
  rec.destinationBlockchainId = s.destination ?? BEAM;
  rec.sourceEvmChainId = s.source === DEXALOT ? '432204' : s.source === BEAM ? '4337' : '43114';
  rec.destinationEvmChainId = s.destination === DEXALOT ? '432204' : s.destination === C_CHAIN ? '43114' : '4337';
  if (s.sentAt === null) delete rec.sourceTransaction;
  rec.destinationTransaction = {
    ...(rec.destinationTransaction as object),
    timestamp: Math.floor(s.deliveredAt / 1000),
    gasSpent: s.gasSpent ?? '1000',
    delivererAddress: s.deliverer,
    rewardRedeemer: s.rewardAddress ?? s.deliverer,
  };
  const r = s.reward ?? { ...USDC, value: '1000000', price: 1 };
  rec.rewardDetails = {
    address: r.token,
    name: r.symbol,
    symbol: r.symbol,
    decimals: r.decimals,
    logoUri: '',
    ercType: 'ERC-20',
    value: r.value,
    ...(r.price !== undefined ? { price: { currencyCode: r.currency ?? 'usd', value: r.price } } : {}),
  };
  return rec;
}

export const delivery = (s: DeliverySpec): Delivery => deliveryOf(deliveryRecord(s), 'mainnet') as Delivery;

export function pending(sentAt: number, route: { source?: string; destination?: string } = {}): Pending {
  const rec = apiRecord({ status: 'pending', ts: Math.floor(sentAt / 1000) });
  if (route.source) rec.sourceBlockchainId = route.source;
  if (route.destination) rec.destinationBlockchainId = route.destination;
  return pendingOf(rec, 'mainnet') as Pending;
}

export const route = (id: string, o: Partial<WatchedRoute> = {}): WatchedRoute => ({
  id,
  label: '',
  network: 'mainnet',
  sourceChain: C_CHAIN,
  destinationChain: BEAM,
  backlogMinutes: 30,
  alert: true,
  createdAt: NOW - 48 * 3_600_000,
  ...o,
});

export const relayer = (address: string, o: Partial<WatchedRelayer> = {}): WatchedRelayer => ({
  address,
  label: 'mine',
  network: 'mainnet',
  silentMinutes: 30,
  pendingMinutes: 10,
  alert: true,
  createdAt: NOW - 48 * 3_600_000,
  ...o,
});

/** Watches the C-Chain → Beam route (mainnet, 30 min backlog, alert on) in a store. */
export const watchCBeamRoute = (watches: RelayerWatches): WatchedRoute =>
  watches.addRoute({ label: 'c-beam', network: 'mainnet', sourceChain: C_CHAIN, destinationChain: BEAM, backlogMinutes: 30, alert: true, createdAt: 0 })!;

/** The figures of these deliveries (all counted, any age) and pending messages, in one pass as the core computes them. */
export function figuresOf(scope: FigureScope, deliveries: readonly Delivery[], pending: readonly Pending[] = []): Figures {
  const acc = new FigureAccumulator(scope);
  for (const d of deliveries) acc.add(d);
  return acc.result(pending, null);
}
