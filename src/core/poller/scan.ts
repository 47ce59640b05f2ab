import type { MessagePage, Transition } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import { effectiveStatus, messageTimestamp, rawRecord, type TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { ApiResult } from '../data-api/client';
import type { CachedMessages } from '../store/cached-messages';
import type { TransitionEngine } from '../watch/engine';

/** Requests this cycle may still spend. */
export class CycleBudget {
  used = 0;
  /** Requests the source answered (a page, or a message found or not): a cycle cut short after some is a late read, not a blind one. */
  answered = 0;
  /** `why` names the cause when the cap is reached (the server's limit or the local budget). */
  constructor(
    private cap: number,
    readonly why: () => ErrorInfo = () => ({
      kind: 'rate_limited',
      message: 'The request budget for this poll cycle is used up; polling continues on the next cycle.',
    }),
  ) {}
  /** Some read was turned away for want of budget. */
  refused = false;
  /** Requests kept for a later read (the baselines' share): the others are refused past it until released. */
  private held = 0;
  hold(n: number): void {
    this.held = Math.max(0, Math.min(n, this.left));
  }
  release(): void {
    this.held = 0;
  }
  take(): boolean {
    if (this.used >= this.cap - this.held) {
      this.refused = true;
      return false;
    }
    this.used++;
    return true;
  }
  get left(): number {
    return Math.max(0, this.cap - this.held - this.used);
  }
  /** The cycle may have left reads undone: one was turned away, or it spent all it had (a cycle that asked nothing was not cut short). */
  get cutShort(): boolean {
    return this.refused || (this.left === 0 && this.used > 0);
  }
}

export interface PageInfo {
  index: number;
  size: number;
  full: boolean;
  oldestTs: number | null;
  newestTs: number | null;
  /** Some message on the page was already in the store before this page. */
  knownBefore: boolean;
  /** Some message on the page is still open (pending or awaiting its receipt). */
  hasOpen: boolean;
  hasNext: boolean;
}

export interface ScanResult {
  pages: number;
  error: ErrorInfo | null;
  /** Stopped because the cycle budget ran out. */
  outOfBudget: boolean;
  exhausted: boolean;
  newestTs: number | null;
  oldestTs: number | null;
  /** Messages the scan looked for (`lookFor`) that it saw. */
  seen: Set<string>;
  /** Messages seen in all. */
  count: number;
  /** Messages newer than `countNewerThan`. */
  newer: number;
  /** The API rejected a page token (expired after ~24 h, or refused) and the scan began again from the first page. */
  restarted: boolean;
  /** The token of the page after the last one read (null: none). */
  nextToken: string | null;
  /** Stopped at its page cap (`maxPages`) while its stop rule still asked for more. */
  capped: boolean;
  /** Lateness (s, now minus source timestamp) of each message this scan stored first, as news, whose timestamp was below `lateBelow`. */
  late: number[];
}

interface ScanOptions {
  network: Network;
  engine: TransitionEngine;
  messages: CachedMessages;
  cycle: CycleBudget;
  pageSize: number;
  maxPages: number;
  baselineFor?: ReadonlySet<string>;
  /** With `baselineFor`: first sightings below this source timestamp (s) are history for every watcher (see ObserveOptions). */
  historyBelowTs?: number;
  countNewerThan?: number | null;
  /** Message IDs to report in `seen` (only these: a scan may read thousands of messages). */
  lookFor?: ReadonlySet<string>;
  /** Start at this page token instead of the first page. */
  startToken?: string;
  /** With `nowSec`: report in `late` the messages first stored by this scan below this source timestamp (s). */
  lateBelow?: number;
  nowSec?: number;
  onTransitions: (t: Transition[]) => void;
  /** Every page's messages, after the engine saw them (the poller's cycle hooks). */
  onMessages?: (messages: readonly TeleporterMessage[]) => void;
  /** Whether to fetch the next page, given what the last one held. */
  next: (page: PageInfo, seen: Set<string>) => boolean;
}

/** A scan that has read nothing yet. */
export const emptyScan = (): ScanResult => ({
  pages: 0,
  capped: false,
  error: null,
  outOfBudget: false,
  exhausted: false,
  newestTs: null,
  oldestTs: null,
  seen: new Set(),
  count: 0,
  newer: 0,
  restarted: false,
  nextToken: null,
  late: [],
});

/** Pages through one operation, feeding every page to the engine, until `next` says stop. */
export async function scan(fetchPage: (token: string | undefined) => Promise<ApiResult<MessagePage>>, o: ScanOptions): Promise<ScanResult> {
  const res = emptyScan();
  let token: string | undefined = o.startToken;
  for (;;) {
    if (!o.cycle.take()) {
      res.outOfBudget = true;
      res.error = o.cycle.why();
      return res;
    }
    const r = await fetchPage(token);
    if (!r.ok && token !== undefined && !res.restarted && rejectedToken(r.error)) {
      // Pages are re-read from the head: the engine compares with the store, so a message seen twice
      // gives no second transition, and none after the break is skipped.
      res.restarted = true;
      token = undefined;
      continue;
    }
    if (!r.ok) {
      res.error = r.error;
      return res;
    }
    o.cycle.answered++;
    const page = r.value;
    let oldest: number | null = null;
    let newest: number | null = null;
    let knownBefore = false;
    let hasOpen = false;
    // Messages below `lateBelow` not yet stored: if the engine stores them, they appeared late.
    const lateCandidates: { id: string; ts: number }[] = [];
    for (const m of page.messages) {
      const ts = messageTimestamp(m) ?? null;
      if (ts !== null) {
        oldest = oldest === null ? ts : Math.min(oldest, ts);
        newest = newest === null ? ts : Math.max(newest, ts);
        if (o.countNewerThan != null && ts > o.countNewerThan) res.newer++;
      }
      if (ts !== null && o.lateBelow !== undefined && ts < o.lateBelow) {
        if (o.messages.has(m.messageId)) knownBefore = true;
        else lateCandidates.push({ id: m.messageId, ts });
      } else if (!knownBefore && o.messages.has(m.messageId)) knownBefore = true;
      if (effectiveStatus(m) === 'pending' || rawRecord(m).receiptDelivered !== true) hasOpen = true;
      res.count++;
      if (o.lookFor?.has(m.messageId)) res.seen.add(m.messageId);
    }
    const transitions = o.engine.observe(
      page.messages,
      o.network,
      o.baselineFor ? { baselineFor: o.baselineFor, ...(o.historyBelowTs !== undefined ? { historyBelowTs: o.historyBelowTs } : {}) } : {},
    );
    if (transitions.length) o.onTransitions(transitions);
    // Only news is late: a record stored silently (a new watch's history below the cursor) was there all along.
    const news = new Set(transitions.filter((t) => t.kind === 'new').map((t) => t.messageId));
    for (const c of lateCandidates) if (o.nowSec !== undefined && news.has(c.id)) res.late.push(o.nowSec - c.ts);
    o.onMessages?.(page.messages);
    res.pages++;
    res.nextToken = page.nextPageToken ?? null;
    if (newest !== null && (res.newestTs === null || newest > res.newestTs)) res.newestTs = newest;
    if (oldest !== null) res.oldestTs = res.oldestTs === null ? oldest : Math.min(res.oldestTs, oldest);
    const info: PageInfo = {
      index: res.pages - 1,
      // Records skipped at the boundary were on the page too: a page the server filled is full.
      size: page.messages.length + page.rejected,
      full: page.messages.length + page.rejected >= o.pageSize,
      oldestTs: oldest,
      newestTs: newest,
      knownBefore,
      hasOpen,
      hasNext: !!page.nextPageToken,
    };
    if (!page.nextPageToken) {
      res.exhausted = true;
      return res;
    }
    if (!o.next(info, res.seen)) return res;
    if (res.pages >= o.maxPages) {
      res.capped = true;
      return res;
    }
    token = page.nextPageToken;
  }
}

/** A 400 to a request that carried a page token: the token expired or was refused (the API does not say which in a fixed form). */
const rejectedToken = (e: ErrorInfo): boolean => e.kind === 'bad_request' && e.status === 400;
