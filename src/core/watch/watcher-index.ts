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

/** Where the index reads watchers from, and hears that they changed (the core's WatchStore). */
interface WatcherSource {
  watcherInfos(): { addresses: WatcherInfo[]; feeds: FeedInfo[] };
  onChange(listener: () => void): () => void;
}

/**
 * Which watchers (addresses, feeds) a message belongs to. It follows its source by itself: a change
 * marks it stale and the next question rebuilds it once (a bulk import is one rebuild, not one per row).
 */
export class WatcherIndex {
  private byAddress = new Map<string, WatcherInfo[]>();
  private addressList: WatcherInfo[] = [];
  private feeds: FeedInfo[] = [];
  private all = new Map<string, WatcherInfo>();
  private stale = true;

  constructor(private readonly source: WatcherSource) {
    source.onChange(() => (this.stale = true));
  }

  private fresh(): void {
    if (!this.stale) return;
    this.stale = false;
    const infos = this.source.watcherInfos();
    this.byAddress = new Map();
    for (const a of infos.addresses) {
      const k = a.key.toLowerCase();
      this.byAddress.set(k, [...(this.byAddress.get(k) ?? []), a]);
    }
    this.addressList = infos.addresses;
    this.feeds = infos.feeds;
    this.all = new Map([...infos.addresses, ...infos.feeds].map((w) => [w.key, w]));
  }

  get(key: string): WatcherInfo | undefined {
    this.fresh();
    return this.all.get(key);
  }

  addresses(): WatcherInfo[] {
    this.fresh();
    return this.addressList;
  }

  feedList(): FeedInfo[] {
    this.fresh();
    return this.feeds;
  }

  get size(): number {
    this.fresh();
    return this.all.size;
  }

  /** The first watched address (baseline taken) among a message's sender and recipient. */
  watchedAddressOf(from: string, to: string, network: Network): string | null {
    this.fresh();
    const net = canonicalNetwork(network);
    for (const addr of [from.toLowerCase(), to.toLowerCase()]) {
      const w = (this.byAddress.get(addr) ?? []).find((x) => x.baselineDone && canonicalNetwork(x.network) === net);
      if (w) return w.key;
    }
    return null;
  }

  watchersOf(m: TeleporterMessage, network: Network): WatcherInfo[] {
    this.fresh();
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
