import type { FeedFilter } from '../../shared/contract';
import { rawRecord, type TeleporterMessage } from '../../shared/messages';
import { canonicalNetwork, type Network } from '../../shared/validators';
import type { FeedInfo, WatcherInfo } from '../store/watch-store';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Does a message match a saved feed's filter (the same AND semantics as the list operation)? */
export function matchesFeed(filter: FeedFilter, raw: Record<string, unknown>): boolean {
  const eq = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const src = [str(raw.sourceBlockchainId), str(raw.sourceEvmChainId)];
  const dst = [str(raw.destinationBlockchainId), str(raw.destinationEvmChainId)];
  if (filter.sourceBlockchainId && !src.includes(filter.sourceBlockchainId)) return false;
  if (filter.destinationBlockchainId && !dst.includes(filter.destinationBlockchainId)) return false;
  if (filter.blockchainId && !(src[0] === filter.blockchainId || dst[0] === filter.blockchainId)) return false;
  if (filter.from && !eq(filter.from, str(raw.from))) return false;
  if (filter.to && !eq(filter.to, str(raw.to))) return false;
  return true;
}

/** Which watchers (addresses, feeds) a message belongs to: rebuilt whenever the watchlist changes. */
export class WatcherIndex {
  private byAddress = new Map<string, WatcherInfo[]>();
  private feeds: FeedInfo[] = [];
  private all = new Map<string, WatcherInfo>();

  constructor(infos: { addresses: WatcherInfo[]; feeds: FeedInfo[] } = { addresses: [], feeds: [] }) {
    this.reset(infos);
  }

  reset(infos: { addresses: WatcherInfo[]; feeds: FeedInfo[] }): void {
    this.byAddress = new Map();
    this.all = new Map();
    for (const a of infos.addresses) {
      const k = a.key.toLowerCase();
      this.byAddress.set(k, [...(this.byAddress.get(k) ?? []), a]);
      this.all.set(a.key, a);
    }
    this.feeds = infos.feeds;
    for (const f of infos.feeds) this.all.set(f.key, f);
  }

  get(key: string): WatcherInfo | undefined {
    return this.all.get(key);
  }

  addresses(): WatcherInfo[] {
    return [...this.all.values()].filter((w) => !w.key.startsWith('feed:'));
  }

  feedList(): FeedInfo[] {
    return this.feeds;
  }

  get size(): number {
    return this.all.size;
  }

  /** The first watched address (baseline taken) among a message's sender and recipient. */
  watchedAddressOf(from: string, to: string, network: Network): string | null {
    const net = canonicalNetwork(network);
    for (const addr of [from.toLowerCase(), to.toLowerCase()]) {
      const w = (this.byAddress.get(addr) ?? []).find((x) => x.baselineDone && canonicalNetwork(x.network) === net);
      if (w) return w.key;
    }
    return null;
  }

  watchersOf(m: TeleporterMessage, network: Network): WatcherInfo[] {
    const raw = rawRecord(m);
    const net = canonicalNetwork(network);
    const out: WatcherInfo[] = [];
    const seen = new Set<string>();
    for (const addr of [str(raw.from).toLowerCase(), str(raw.to).toLowerCase()]) {
      for (const w of this.byAddress.get(addr) ?? []) {
        if (!seen.has(w.key) && canonicalNetwork(w.network) === net) {
          seen.add(w.key);
          out.push(w);
        }
      }
    }
    for (const f of this.feeds) {
      if (canonicalNetwork(f.network) === net && matchesFeed(f.filter, raw)) out.push(f);
    }
    return out;
  }
}
