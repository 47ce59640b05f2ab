/**
 * An in-memory MonitorTransport for store and component tests: the one fake allowed, because the real
 * transports are covered end-to-end by Playwright. It stays faithful to the core where the UI depends
 * on it: every input goes through parseMonitorInput (the contract's schemas), errors come back as values
 * ({ ok: false, error }), pages go through opaque cursor tokens, and events are pushed to subscribers.
 */
import {
  DEFAULT_NOTIFY,
  DEFAULT_SETTINGS,
  parseMonitorInput,
  type ApiKeyStatus,
  type CachePage,
  type InvokeResponse,
  type MonitorEvent,
  type MonitorMethod,
  type MonitorParsedInput,
  type MonitorResults,
  type PageSource,
  type MonitorTransport,
  type PollStatus,
  type SavedFeed,
  type Settings,
  type Transition,
  type WatchedAddress,
} from '../../src/shared/contract';
import { chainLabel, chainByBlockchainId } from '../../src/shared/chains';
import { toErrorInfo, type ErrorInfo } from '../../src/shared/errors';
import { effectiveStatus, messageTimestamp, rawRecord, type TeleporterMessage } from '../../src/shared/messages';
import { canonicalNetwork, type Network } from '../../src/shared/validators';
import { summaryOf } from '../shared/summary-of';

/** The core counts search matches up to this many (src/core/store/message-cache.ts SEARCH_COUNT_CAP). */
export const SEARCH_COUNT_CAP = 1_000;

type Handlers = { [M in MonitorMethod]: (input: MonitorParsedInput<M>) => MonitorResults[M] };

export interface FakeOptions {
  messages?: { message: TeleporterMessage; network: Network }[];
  simulated?: boolean;
  shell?: 'electron' | 'web';
  now?: () => number;
}

export class FakeMonitor implements MonitorTransport {
  /** Every call that reached the "core", in order (asserting "no request sent" reads this). */
  readonly calls: { method: MonitorMethod; input: unknown }[] = [];
  settings: Settings = structuredClone(DEFAULT_SETTINGS);
  apiKey: string | null = null;
  keychainAvailable = true;
  watches = new Map<string, WatchedAddress>();
  feeds: SavedFeed[] = [];
  messages: { message: TeleporterMessage; network: Network; firstSeenAt: number }[];
  transitions: Transition[] = [];
  poll: PollStatus;
  opened: string[] = [];
  /** When set, openExternal refuses (like the web shell without an opener). */
  openExternalRefuses = false;
  /** The demo's busy addresses (offered only while the data source is local). */
  demoAddresses: string[] = [];
  private failures = new Map<MonitorMethod, ErrorInfo[]>();
  private gates = new Map<MonitorMethod, Promise<void>[]>();
  private listeners = new Set<(e: MonitorEvent) => void>();
  private now: () => number;
  private simulated: boolean;
  private shell: 'electron' | 'web';
  private nextTransitionId = 1;
  private feedSeq = 1;

  constructor(opts: FakeOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.simulated = opts.simulated ?? true;
    this.shell = opts.shell ?? 'web';
    this.messages = (opts.messages ?? []).map((m) => ({ ...m, firstSeenAt: this.now() }));
    this.poll = {
      state: 'idle', lastSuccessAt: null, lastAttemptAt: null, nextRunAt: null, rateLimitedUntil: null, lastError: null,
      requestsLastMinute: 0, budgetPerMinute: 60, tracked: 0, watching: 0,
    };
  }

  /** Makes the next call(s) of `method` fail with `error`. */
  failNext(method: MonitorMethod, error: ErrorInfo, times = 1): void {
    const list = this.failures.get(method) ?? [];
    for (let i = 0; i < times; i++) list.push(error);
    this.failures.set(method, list);
  }

  /** Holds the next call of `method` until the returned release() is called (for ordering tests). */
  hold(method: MonitorMethod): () => void {
    let release!: () => void;
    const p = new Promise<void>((r) => (release = r));
    const list = this.gates.get(method) ?? [];
    list.push(p);
    this.gates.set(method, list);
    return release;
  }

  /** Like the core: each page says which data source it came from. */
  private pageSource(): PageSource {
    const ds = this.settings.dataSource;
    const host = ds.kind === 'custom' ? new URL(ds.baseUrl).host : ds.kind === 'local' ? '127.0.0.1:4000' : 'glacier-api.avax.network';
    return { kind: ds.kind, host, simulated: ds.kind === 'local' };
  }

  callsOf(method: MonitorMethod): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input);
  }

  emit(event: MonitorEvent): void {
    for (const l of this.listeners) l(structuredClone(event));
  }

  /** Records a transition like the core's engine would, and emits it. */
  addTransition(t: Omit<Transition, 'id' | 'at'> & { at?: number }): Transition {
    const full: Transition = { ...t, id: this.nextTransitionId++, at: t.at ?? this.now() };
    this.transitions.push(full);
    this.emit({ type: 'transitions', transitions: [full], watches: [] });
    return full;
  }

  subscribe(listener: (event: MonitorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse> {
    // A real transport serialises: so do we (catches non-cloneable inputs like reactive proxies' functions).
    const wireInput = input === undefined ? undefined : JSON.parse(JSON.stringify(input));
    this.calls.push({ method, input: wireInput });
    const gate = this.gates.get(method)?.shift();
    await Promise.resolve();
    if (gate) await gate;
    const failure = this.failures.get(method)?.shift();
    if (failure) return { ok: false, error: failure };
    try {
      const parsed = parseMonitorInput(method, wireInput);
      const handler = this.handlers[method] as (i: unknown) => unknown;
      const value = handler(parsed);
      return { ok: true, value: value === undefined ? undefined : structuredClone(value) };
    } catch (e) {
      return { ok: false, error: toErrorInfo(e) };
    }
  }

  private pageOf<T>(all: T[], pageSize = 10, pageToken?: string): { items: T[]; nextPageToken?: string } {
    let offset = 0;
    if (pageToken) {
      const m = /^cursor:(\d+)$/.exec(pageToken);
      if (!m) throw { kind: 'bad_request', message: 'pageToken is not valid.', status: 400 } satisfies ErrorInfo;
      offset = Number(m[1]);
    }
    const items = all.slice(offset, offset + pageSize);
    const next = offset + pageSize < all.length ? `cursor:${offset + pageSize}` : undefined;
    return next ? { items, nextPageToken: next } : { items };
  }

  private sorted(network: Network | undefined) {
    const net = canonicalNetwork(network ?? this.settings.network);
    return this.messages
      .filter((m) => canonicalNetwork(m.network) === net)
      .sort((a, b) => (messageTimestamp(b.message) ?? 0) - (messageTimestamp(a.message) ?? 0));
  }

  private watchOf(address: string): WatchedAddress {
    const w = this.watches.get(address);
    if (!w) throw { kind: 'not_found', message: `${address} is not on the watchlist.` } satisfies ErrorInfo;
    return w;
  }

  private keyStatus(): ApiKeyStatus {
    if (!this.apiKey) return { hasApiKey: false, storage: 'none', ...(this.keychainAvailable ? {} : { keychainError: 'No Secret Service on D-Bus: install gnome-keyring.' }) };
    return this.keychainAvailable
      ? { hasApiKey: true, storage: 'keychain' }
      : { hasApiKey: true, storage: 'memory', keychainError: 'No Secret Service on D-Bus: install gnome-keyring.' };
  }

  readonly handlers: Handlers = {
    getAppInfo: () => ({
      version: '0.1.0',
      shell: this.shell,
      dataSource: {
        kind: this.settings.dataSource.kind,
        baseUrl: this.settings.dataSource.kind === 'custom' ? this.settings.dataSource.baseUrl : this.settings.dataSource.kind === 'local' ? 'http://127.0.0.1:4000' : 'https://glacier-api.avax.network',
        network: this.settings.network,
        simulated: this.simulated && this.settings.dataSource.kind === 'local',
      },
    }),
    getDemoAddresses: () => ({ addresses: this.settings.dataSource.kind === 'local' ? this.demoAddresses : [] }),
    getSettings: () => this.settings,
    updateSettings: (patch) => {
      this.settings = { ...this.settings, ...patch, notifications: { ...this.settings.notifications, ...(patch.notifications ?? {}) } } as Settings;
      this.emit({ type: 'settings-changed', settings: this.settings });
      return this.settings;
    },
    getApiKeyStatus: () => this.keyStatus(),
    setApiKey: ({ key }) => {
      this.apiKey = key;
      return this.keyStatus();
    },
    testApiKey: (input) => {
      const key = input?.key ?? this.apiKey;
      if (!key) return { ok: false, message: 'No API key to test: type one or save one first.' };
      return key.startsWith('good') ? { ok: true, message: 'The Data API accepted the key.' } : { ok: false, message: 'The Data API refused the key (HTTP 401).', error: { kind: 'unauthorized', message: 'Unauthorized', status: 401 } };
    },
    deleteApiKey: () => {
      this.apiKey = null;
      return this.keyStatus();
    },
    listWatches: () => [...this.watches.values()],
    addWatch: (input) => {
      if (this.watches.has(input.address)) throw { kind: 'invalid_input', field: 'address', message: `${input.address} is already on the watchlist.` } satisfies ErrorInfo;
      const w: WatchedAddress = {
        address: input.address, label: input.label ?? '', network: input.network ?? this.settings.network,
        notify: { ...DEFAULT_NOTIFY, ...(input.notify ?? {}) }, createdAt: this.now(), lastViewedAt: null, unread: 0, baselinePending: true,
      };
      this.watches.set(w.address, w);
      return w;
    },
    updateWatch: (patch) => {
      const w = this.watchOf(patch.address);
      const next = { ...w, ...(patch.label !== undefined ? { label: patch.label } : {}), notify: { ...w.notify, ...(patch.notify ?? {}) } };
      this.watches.set(w.address, next);
      return next;
    },
    removeWatch: ({ address }) => {
      this.watchOf(address);
      this.watches.delete(address);
    },
    markWatchViewed: ({ address }) => {
      const w = { ...this.watchOf(address), lastViewedAt: this.now(), unread: 0 };
      this.watches.set(address, w);
      return w;
    },
    listFeeds: () => this.feeds,
    addFeed: (input) => {
      const f: SavedFeed = { id: `f${this.feedSeq++}`, name: input.name, network: input.network ?? this.settings.network, filter: input.filter, notify: { ...DEFAULT_NOTIFY, ...(input.notify ?? {}) }, createdAt: this.now() };
      this.feeds.push(f);
      return f;
    },
    removeFeed: ({ id }) => {
      if (!this.feeds.some((f) => f.id === id)) throw { kind: 'not_found', message: `No saved feed ${id}.` } satisfies ErrorInfo;
      this.feeds = this.feeds.filter((f) => f.id !== id);
    },
    browseMessages: (q) => {
      const eq = (a: unknown, b: string | undefined) => typeof a === 'string' && b !== undefined && a.toLowerCase() === b.toLowerCase();
      const all = this.sorted(q.network).filter(({ message }) => {
        const r = rawRecord(message);
        const chainMatch = (ref: string | undefined, idKey: string, evmKey: string) => ref === undefined || r[idKey] === ref || r[evmKey] === ref;
        return (
          chainMatch(q.sourceBlockchainId, 'sourceBlockchainId', 'sourceEvmChainId') &&
          chainMatch(q.destinationBlockchainId, 'destinationBlockchainId', 'destinationEvmChainId') &&
          (q.blockchainId === undefined || r.sourceBlockchainId === q.blockchainId || r.destinationBlockchainId === q.blockchainId) &&
          (q.from === undefined || eq(r.from, q.from)) &&
          (q.to === undefined || eq(r.to, q.to))
        );
      });
      const p = this.pageOf(all, q.pageSize, q.pageToken);
      return { messages: p.items.map((m) => m.message), ...(p.nextPageToken ? { nextPageToken: p.nextPageToken } : {}), rejected: 0, fetchedAt: this.now(), source: this.pageSource() };
    },
    browseAddressMessages: (q) => {
      const a = q.address.toLowerCase();
      const all = this.sorted(q.network).filter(({ message }) => {
        const r = rawRecord(message);
        return String(r.from).toLowerCase() === a || String(r.to).toLowerCase() === a;
      });
      const p = this.pageOf(all, q.pageSize, q.pageToken);
      return { messages: p.items.map((m) => m.message), ...(p.nextPageToken ? { nextPageToken: p.nextPageToken } : {}), rejected: 0, fetchedAt: this.now(), source: this.pageSource() };
    },
    searchCache: (q) => {
      const text = q.text?.toLowerCase();
      const matches = this.messages.filter(({ message, network }) => {
        if (q.network && canonicalNetwork(q.network) !== canonicalNetwork(network)) return false;
        if (q.status && effectiveStatus(message) !== q.status) return false;
        if (!text) return true;
        const r = rawRecord(message);
        const hay = [message.messageId, r.from, r.to, r.sourceBlockchainId, r.destinationBlockchainId, chainLabel(String(r.sourceBlockchainId)), chainLabel(String(r.destinationBlockchainId))]
          .map((x) => String(x ?? '').toLowerCase());
        return hay.some((h) => h.includes(text));
      });
      const offset = q.offset ?? 0;
      const items = matches.slice(offset, offset + (q.limit ?? 100)).map((m) => summaryOf(m.message, m.network, m.firstSeenAt));
      // Like the core: the count stops at SEARCH_COUNT_CAP and then says so.
      const page: CachePage = { items, total: Math.min(matches.length, SEARCH_COUNT_CAP) };
      if (matches.length > SEARCH_COUNT_CAP) page.totalCapped = true;
      return page;
    },
    getMessage: ({ messageId }) => {
      const m = this.messages.find((x) => x.message.messageId === messageId);
      return m ? { message: m.message, network: m.network, firstSeenAt: m.firstSeenAt, lastSeenAt: m.firstSeenAt, watchedAddresses: [] } : null;
    },
    // Like the core: the data source's single-message operation answers any message it holds (the fake's list).
    findMessage: ({ messageId }) => {
      const m = this.messages.find((x) => x.message.messageId === messageId);
      if (!m) throw { kind: 'not_found', field: 'messageId', message: `No message with ID ${messageId}: the data source does not know it on any network, and it is not in the local cache.` } satisfies ErrorInfo;
      return { message: m.message, source: 'api' as const, cached: null };
    },
    listTransitions: (q) => {
      const all = [...this.transitions]
        .sort((a, b) => b.id - a.id)
        .filter((t) => (!q.kinds || q.kinds.includes(t.kind)) && (!q.beforeId || t.id < q.beforeId) && (!q.messageId || t.messageId === q.messageId));
      const limit = q.limit ?? 50;
      const items = all.slice(0, limit);
      const last = items[items.length - 1];
      return all.length > limit && last ? { items, nextBeforeId: last.id } : { items };
    },
    getPollStatus: () => this.poll,
    pollNow: () => {
      this.poll = { ...this.poll, state: 'polling', lastAttemptAt: this.now() };
      this.emit({ type: 'poll-status', status: this.poll });
      return this.poll;
    },
    getStats: ({ hours }) => {
      const bucketMs = 3_600_000;
      const end = Math.floor(this.now() / bucketMs) * bucketMs;
      const buckets = Array.from({ length: hours }, (_, i) => {
        const start = end - (hours - 1 - i) * bucketMs;
        const inBucket = this.transitions.filter((t) => t.at >= start && t.at < start + bucketMs);
        const count = (k: Transition['kind']) => inBucket.filter((t) => t.kind === k).length;
        return { start, new: count('new'), left_pending: count('left_pending'), receipt_delivered: count('receipt_delivered'), stuck: count('stuck') };
      });
      const byStatus: Record<string, number> = {};
      for (const m of this.messages) byStatus[effectiveStatus(m.message)] = (byStatus[effectiveStatus(m.message)] ?? 0) + 1;
      return { buckets, bucketMs, deliveryLatency: { p50: 42, p95: 120, count: 3 }, byStatus };
    },
    openExternal: ({ url }) => {
      if (this.openExternalRefuses) throw { kind: 'internal', message: 'This shell cannot open external links.' } satisfies ErrorInfo;
      this.opened.push(url);
    },
  };
}

export const chainName = (id: string): string | undefined => chainByBlockchainId(id)?.name;
