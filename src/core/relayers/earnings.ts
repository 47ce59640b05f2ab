/**
 * What a relayer earns per route: rewards paid (the message's receipt came back to the source, so the
 * reward went to the relayer's reward address), rewards owed (delivered, receipt not back yet), the
 * gas its deliveries cost on the destination, profit in dollars where every price is known, and the
 * failed executions (`messageExecuted: false`) someone must retry. A relayer is its deliverer address.
 */
import type { TeleporterMessage } from '../../shared/messages';

interface TokenAmount {
  address: string;
  symbol: string;
  decimals: number;
  /** Smallest units. */
  amount: bigint;
  /** USD per whole token from the records (null when a record had no USD price). */
  usdPrice: number | null;
}

export interface RouteEarnings {
  relayer: string;
  source: string;
  destination: string;
  deliveries: number;
  paid: TokenAmount[];
  owed: TokenAmount[];
  /** Wei of the destination chain's native token. */
  gasSpent: bigint;
  /** IDs of delivered messages whose execution failed. */
  failedExecutions: string[];
  /** Paid rewards minus gas, in USD; null when a price is missing. */
  profitUsd: number | null;
}

type Delivered = Extract<TeleporterMessage, { destinationTransaction: unknown }>;

const isDelivered = (m: TeleporterMessage): m is Delivered =>
  (m.status === 'delivered' || m.status === 'delivered_source_not_indexed') && 'destinationTransaction' in m;

function add(list: TokenAmount[], m: Delivered): void {
  const r = m.rewardDetails;
  const price = r.price && r.price.currencyCode.toLowerCase() === 'usd' ? Number(r.price.value) : null;
  let t = list.find((x) => x.address.toLowerCase() === r.address.toLowerCase());
  if (!t) list.push((t = { address: r.address, symbol: r.symbol, decimals: r.decimals, amount: 0n, usdPrice: price }));
  t.amount += BigInt(r.value);
  if (price === null) t.usdPrice = null;
}

const usdOf = (t: TokenAmount): number | null => (t.usdPrice === null ? null : (Number(t.amount) / 10 ** t.decimals) * t.usdPrice);

/**
 * Earnings of the deliveries made in `[from, to]` (destination timestamps, ms), per relayer and route.
 * `nativeUsd` gives the USD price of a chain's gas token (from its native balance), if known.
 */
export function routeEarnings(
  messages: readonly TeleporterMessage[],
  window: { from: number; to: number },
  nativeUsd: (blockchainId: string) => number | undefined,
): RouteEarnings[] {
  const byKey = new Map<string, RouteEarnings>();
  for (const m of messages) {
    if (!isDelivered(m)) continue;
    const at = m.destinationTransaction.timestamp * 1000;
    if (at < window.from || at > window.to) continue;
    const relayer = m.destinationTransaction.delivererAddress.toLowerCase();
    const key = `${relayer}|${m.sourceBlockchainId}|${m.destinationBlockchainId}`;
    let e = byKey.get(key);
    if (!e) {
      e = {
        relayer,
        source: m.sourceBlockchainId,
        destination: m.destinationBlockchainId,
        deliveries: 0,
        paid: [],
        owed: [],
        gasSpent: 0n,
        failedExecutions: [],
        profitUsd: null,
      };
      byKey.set(key, e);
    }
    e.deliveries++;
    e.gasSpent += BigInt(m.destinationTransaction.gasSpent);
    add(m.receiptDelivered ? e.paid : e.owed, m);
    if (!m.messageExecuted) e.failedExecutions.push(m.messageId);
  }
  for (const e of byKey.values()) {
    const gasUsd = nativeUsd(e.destination);
    const paidUsd = e.paid.map(usdOf);
    e.profitUsd = gasUsd === undefined || paidUsd.includes(null) ? null : paidUsd.reduce<number>((s, v) => s + v!, 0) - (Number(e.gasSpent) / 1e18) * gasUsd;
  }
  return [...byKey.values()];
}
