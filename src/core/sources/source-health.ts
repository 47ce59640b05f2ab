/**
 * The current data source's health, told from what polling meets (never from what it would mean for a
 * relayer): each cycle's outcome, and with your own nodes each chain's state as the service reports it.
 * A switch of source starts again at `unknown`: one source's successes never vouch for another.
 */
import type { Clock } from '../../shared/clock';
import { clockTime } from '../../shared/format';
import type { ErrorInfo } from '../../shared/errors';
import type { OwnNodeStatus } from '../../shared/own-nodes';
import { CATCH_UP_MAX_MS, SOURCE_DOWN_AFTER_MS } from '../../shared/policy';
import type { ChainHealth, HealthState, SourceHealth } from '../../shared/source-health';
import { sourceName, type SourceKey } from '../../shared/sources';
import type { Sight } from './sight';

/** How a poll cycle ended, as the poller reports it. */
export interface CycleReport {
  source: SourceKey;
  at: number;
  error: ErrorInfo | null;
  /** Whether it asked the source anything (a cycle with nothing to read proves nothing). */
  asked: boolean;
  /** Whether any answer was read (a cycle the budget cut short after some pages read is a read, a late one). */
  read: boolean;
  /** Whether it read everything it planned (not cut short by the budget or an error). */
  complete: boolean;
}

/** What is known of one source or chain: the facts its state is computed from at any moment. */
interface Facts {
  lastSuccessAt: number | null;
  /** Since when reads fail (null: the last read succeeded). */
  failingSince: number | null;
  /** The failure in words. */
  failure: string | null;
  /** When it last came back after failing (in this run). */
  backAt: number | null;
}

const noFacts = (): Facts => ({ lastSuccessAt: null, failingSince: null, failure: null, backAt: null });

interface ChainFacts extends Facts {
  name: string;
  /**
   * A state that reads on but late (slow, rate limited, pruned: `degraded`), not known yet while starting
   * (`unknown`), or not read because of a fault of ours (`ours`: never the node's blame, but not seen).
   */
  mild: 'unknown' | 'degraded' | 'ours' | null;
  mildReason: string | null;
  /** When its current state began. */
  stateSince: number | null;
  lastState: HealthState;
}

/** A chain's service state as health: reads on (up or late), blind (the node failing, or a fault of ours), or not known yet. */
function chainMood(s: OwnNodeStatus['state']): 'up' | 'degraded' | 'failing' | 'unknown' | 'ours' {
  if (s === 'ok') return 'up';
  if (s === 'starting') return 'unknown';
  if (s === 'down' || s === 'wrong_chain') return 'failing';
  if (s === 'internal_error') return 'ours';
  return 'degraded';
}

/** A rate limit in words: the server's (until when) or this cycle's share of the budget. */
const limitWords = (e: ErrorInfo): string => (e.retryAt ? `rate limited until ${clockTime(e.retryAt)}` : 'rate limited (the request budget paces the reads)');

/** An error as the reason a source cannot be read (the client's message already says what to do). */
const failureOf = (e: ErrorInfo): string => e.message;

/**
 * Errors that mean the source is not read: unreachable, too slow, failing, answering what is not the
 * Data API, refusing the key, or not there at that URL. A request the source refused as asked (a bad
 * filter) is that request's fault; rate limits only make reads later; an internal error is ours.
 */
const BLINDING: ReadonlySet<ErrorInfo['kind']> = new Set(['network', 'timeout', 'server', 'invalid_response', 'unauthorized', 'not_found']);

/** A refused request blinds only when nothing else was read: a source that answers every list call with 400 does not speak the Data API. */
const blinds = (e: ErrorInfo, read: boolean): boolean => BLINDING.has(e.kind) || (e.kind === 'bad_request' && !read);

export class SourceHealthTracker implements Sight {
  private source: SourceKey | null = null;
  private facts: Facts = noFacts();
  private rateLimited: string | null = null;
  /** Since when rate limits (the server's or the day's quota) let nothing be read at all (null: something was read). */
  private limitedSince: number | null = null;
  /** A fault of the monitor's own that kept the last cycle from reading (never the source's blame, but not seeing). */
  private ourFault: string | null = null;
  /** Held alerts wait for a complete read after a comeback, until this moment at most (null: not waiting). */
  private catchUpUntil: number | null = null;
  private readonly chains = new Map<string, ChainFacts>();
  private state: HealthState = 'unknown';
  private since: number | null = null;

  constructor(
    private readonly clock: Clock,
    /** The current data source: a switch shows it as not read yet at once, not after the next cycle. */
    private readonly current: () => SourceKey,
  ) {}

  /** Follows a switch of source (nothing known of the new one yet). */
  private follow(): void {
    const source = this.current();
    if (source !== this.source) this.reset(source);
  }

  /** Starts again for another source (a switch): nothing known of it yet. */
  private reset(source: SourceKey): void {
    this.source = source;
    this.facts = noFacts();
    this.rateLimited = null;
    this.limitedSince = null;
    this.ourFault = null;
    this.catchUpUntil = null;
    this.chains.clear();
    this.state = 'unknown';
    this.since = null;
  }

  /** A poll cycle's outcome. */
  observeCycle(r: CycleReport): void {
    this.follow();
    // A cycle that began before a switch says nothing of the source now current.
    if (r.source !== this.source) return;
    const f = this.facts;
    const e = r.error;
    if (!r.asked) return;
    if (!e || (e.kind === 'rate_limited' && r.read)) {
      // Read (a cycle the budget cut short is a late read, not a blind one). The first read since the
      // start or a switch, or since reads failed, is a comeback: what was judged before it is read again first.
      if (f.failingSince !== null || f.lastSuccessAt === null) this.cameBack(f, r.at);
      f.failingSince = null;
      f.failure = null;
      f.lastSuccessAt = r.at;
      this.limitedSince = null;
      this.ourFault = null;
      this.rateLimited = e ? limitWords(e) : null;
      if (r.complete) this.catchUpUntil = null;
    } else if (e.kind === 'rate_limited') {
      // Later, not blind, while the pace lets reads through; nothing read for long is not seeing either.
      this.rateLimited = limitWords(e);
      this.limitedSince ??= r.at;
    } else if (blinds(e, r.read)) {
      f.failingSince ??= r.at;
      f.failure = failureOf(e);
    } else if (!r.read) {
      // Ours (a fault in the monitor) or one request's: never the source's blame, but nothing was read.
      this.ourFault = e.message;
    }
    this.settle(r.at);
  }

  /** With your own nodes: each chain's state as the service last reported it (null: the service is not up). */
  observeChains(statuses: readonly OwnNodeStatus[] | null, at: number): void {
    this.follow();
    if (!statuses) return;
    const seen = new Set<string>();
    for (const s of statuses) {
      seen.add(s.blockchainId);
      const c = this.chains.get(s.blockchainId) ?? { ...noFacts(), name: s.name, mild: 'unknown', mildReason: null, stateSince: null, lastState: 'unknown' };
      c.name = s.name;
      const mood = chainMood(s.state);
      if (mood === 'failing') {
        c.failingSince ??= at;
        c.failure = s.message || s.state.replace('_', ' ');
      } else {
        if (c.failingSince !== null) this.cameBack(c, at);
        c.failingSince = null;
        c.failure = null;
        if (mood === 'up' || mood === 'degraded') c.lastSuccessAt = at;
        c.mild = mood === 'up' ? null : mood;
        c.mildReason = mood === 'degraded' || mood === 'ours' ? s.message || s.state.replace('_', ' ') : null;
      }
      this.chains.set(s.blockchainId, c);
    }
    for (const id of [...this.chains.keys()]) if (!seen.has(id)) this.chains.delete(id);
    this.settle(at);
  }

  private cameBack(f: Facts, at: number): void {
    f.backAt = at;
    this.catchUpUntil = at + CATCH_UP_MAX_MS;
  }

  /** A chain's state now. */
  private chainState(c: ChainFacts, now: number): { state: HealthState; reason: string | null } {
    if (c.failingSince !== null) {
      const down = now - c.failingSince >= SOURCE_DOWN_AFTER_MS;
      return { state: down ? 'down' : 'degraded', reason: down ? c.failure : `failing since ${clockTime(c.failingSince)}, retrying: ${c.failure ?? ''}` };
    }
    if (c.mild === 'ours') return { state: 'degraded', reason: `not read because of a fault of the monitor's own (not the node's): ${c.mildReason ?? ''}` };
    if (c.mild) return { state: c.mild, reason: c.mild === 'unknown' ? 'starting' : c.mildReason };
    return { state: 'up', reason: null };
  }

  /** The source's state now, from its facts and its chains'. */
  private sourceState(now: number): { state: HealthState; reason: string | null } {
    const f = this.facts;
    if (f.failingSince !== null) {
      const down = now - f.failingSince >= SOURCE_DOWN_AFTER_MS;
      return { state: down ? 'down' : 'degraded', reason: down ? f.failure : `failing since ${clockTime(f.failingSince)}, retrying: ${f.failure ?? ''}` };
    }
    const chains = [...this.chains.values()].map((c) => ({ c, s: this.chainState(c, now) }));
    const downChains = chains.filter((x) => x.s.state === 'down');
    if (chains.length && downChains.length === chains.length)
      return { state: 'down', reason: `every chain's node is down (${downChains.map((x) => x.c.name).join(', ')})` };
    if (f.lastSuccessAt === null)
      return { state: 'unknown', reason: this.ourFault ? `not read yet: a fault of the monitor's own: ${this.ourFault}` : 'not read yet' };
    if (this.ourFault) return { state: 'degraded', reason: `not read because of a fault of the monitor's own (not the source's): ${this.ourFault}` };
    if (this.limitedSince !== null && now - this.limitedSince >= SOURCE_DOWN_AFTER_MS)
      return { state: 'degraded', reason: `nothing read since ${clockTime(this.limitedSince)}: ${this.rateLimited ?? 'rate limited'}` };
    if (this.rateLimited) return { state: 'degraded', reason: this.rateLimited };
    const late = chains.filter((x) => x.s.state !== 'up');
    if (late.length) return { state: 'degraded', reason: late.map((x) => `${x.c.name}: ${x.s.state}${x.s.reason ? ` (${x.s.reason})` : ''}`).join('; ') };
    return { state: 'up', reason: null };
  }

  /** Keeps each state's "since" (the moment it was entered). */
  private settle(now: number): void {
    const s = this.sourceState(now).state;
    if (s !== this.state) {
      this.state = s;
      // Down since the reads began failing (its own, or every chain's), not since the threshold passed.
      this.since = s === 'down' ? (this.sourceDown()?.since ?? now) : s === 'unknown' ? null : now;
    }
    for (const c of this.chains.values()) {
      const cs = this.chainState(c, now).state;
      if (cs !== c.lastState) {
        c.lastState = cs;
        c.stateSince = cs === 'down' && c.failingSince !== null ? c.failingSince : cs === 'unknown' ? null : now;
      }
    }
  }

  /** The health as the poll status shows it. */
  snapshot(): SourceHealth | null {
    this.follow();
    if (this.source === null) return null;
    const now = this.clock.now();
    this.settle(now);
    const { state, reason } = this.sourceState(now);
    const chains: ChainHealth[] = [...this.chains.entries()].map(([blockchainId, c]) => {
      const s = this.chainState(c, now);
      return { blockchainId, name: c.name, state: s.state, since: c.stateSince, reason: s.reason };
    });
    return {
      source: this.source,
      name: sourceName(this.source),
      state,
      since: this.since,
      reason,
      lastSuccessAt: this.facts.lastSuccessAt,
      seeing: this.seeing(),
      chains,
    };
  }

  /** The source down now: since when and why (null when it is not). */
  sourceDown(): { since: number; reason: string } | null {
    this.follow();
    const now = this.clock.now();
    const s = this.sourceState(now);
    if (s.state !== 'down') return null;
    const since = this.facts.failingSince ?? Math.min(...[...this.chains.values()].map((c) => c.failingSince ?? now));
    return { since, reason: s.reason ?? '' };
  }

  /** The chains down now (your own nodes), each since when and why. */
  chainsDown(): { blockchainId: string; name: string; since: number; reason: string }[] {
    const now = this.clock.now();
    return [...this.chains.entries()].flatMap(([blockchainId, c]) => {
      const s = this.chainState(c, now);
      return s.state === 'down' && c.failingSince !== null ? [{ blockchainId, name: c.name, since: c.failingSince, reason: s.reason ?? '' }] : [];
    });
  }

  /** The chains the service reports (your own nodes), up or not. */
  knownChains(): string[] {
    return [...this.chains.keys()];
  }

  /** Whether the source is up now (or read, later than usual), and not waiting for its first complete read after a comeback. */
  upNow(): boolean {
    this.follow();
    const now = this.clock.now();
    const s = this.sourceState(now).state;
    if (this.ourFault || (this.limitedSince !== null && now - this.limitedSince >= SOURCE_DOWN_AFTER_MS)) return false;
    return s === 'up' || (s === 'degraded' && this.facts.failingSince === null);
  }

  seeing(): boolean {
    if (!this.upNow()) return false;
    return this.catchUpUntil === null || this.clock.now() >= this.catchUpUntil;
  }

  sees(blockchainId: string): boolean {
    if (!this.seeing()) return false;
    const c = this.chains.get(blockchainId);
    if (!c) return true;
    return c.failingSince === null && c.mild !== 'unknown' && c.mild !== 'ours';
  }

  backSince(blockchainIds: readonly string[]): number | null {
    const times = [this.facts.backAt, ...blockchainIds.map((id) => this.chains.get(id)?.backAt ?? null)].filter((t): t is number => t !== null);
    return times.length ? Math.max(...times) : null;
  }
}
