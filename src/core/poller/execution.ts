/**
 * One network's execution of a plan (what the executor runs it with) and the one paging routine every
 * step goes through: a step's pages, newest first, fed to the engine and the cycle's hooks, until its
 * stop rule says enough.
 */
import type { Transition } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import type { TeleporterMessage } from '../../shared/messages';
import type { DataApiClient } from '../data-api/client';
import type { Logger } from '../log/logger';
import type { CachedMessages } from '../store';
import type { WatchStore } from '../store/watch-store';
import type { TransitionEngine } from '../watch/engine';
import type { NetworkState, NetworkStates } from './network-state';
import { PAGE_SIZE } from './request-prices';
import type { ListOperation, ScanStep, StopRule } from './plan-types';
import { scan, type CycleBudget, type PageInfo, type ScanResult } from './scan';

/**
 * Work that rides on the poll cycle over what it read (e.g. detecting receipts from carrier
 * messages). `messages` runs for every page and every message fetched by ID, after the engine saw
 * them; `afterNetwork` once a network's plan ran, with what is left of the cycle's budget.
 */
export interface CycleHook {
  /** Before a network's plan is made (e.g. reload what the hook tracks). */
  beforeNetwork?(network: 'mainnet' | 'fuji'): void;
  messages?(network: 'mainnet' | 'fuji', messages: readonly TeleporterMessage[]): void;
  afterNetwork?(x: AfterNetwork): Promise<ErrorInfo | null>;
}

interface AfterNetwork {
  network: 'mainnet' | 'fuji';
  client: DataApiClient;
  cycle: CycleBudget;
  /** A message sorted at or above this (s) is read again within 2 intervals by the firehose's full read below the cursor (null: not on this network). */
  rereadFromTs: number | null;
}

export interface Execution {
  client: DataApiClient;
  cycle: CycleBudget;
  state: NetworkState;
  states: NetworkStates;
  engine: TransitionEngine;
  messages: CachedMessages;
  watches: WatchStore;
  logger: Logger;
  onTransitions: (t: Transition[]) => void;
  hooks: readonly CycleHook[];
  nowMs: number;
}

/** Did a scan read as deep as its stop rule asked (not cut short by its page cap)? */
export function reachedStop(stop: StopRule, r: ScanResult): boolean {
  if (stop.kind !== 'past' || stop.ts === null) return true;
  return r.exhausted || (r.oldestTs !== null && r.oldestTs < stop.ts);
}

export function notifyHooks(x: Execution, messages: readonly TeleporterMessage[]): void {
  for (const h of x.hooks) h.messages?.(x.state.network, messages);
}

/** The one paging routine: a plan step's pages, newest first, until its stop rule says enough; notes the lateness of late records it found. */
export async function readPages(step: ScanStep, x: Execution): Promise<ScanResult> {
  const r = await scan(fetcher(step.source, x.client), {
    network: x.state.network,
    engine: x.engine,
    messages: x.messages,
    cycle: x.cycle,
    pageSize: PAGE_SIZE,
    onTransitions: x.onTransitions,
    onMessages: (m) => notifyHooks(x, m),
    maxPages: step.maxPages,
    next: stopper(step.stop),
    ...(step.lookFor ? { lookFor: new Set(step.lookFor) } : {}),
    ...(step.baselineFor ? { baselineFor: new Set(step.baselineFor), ...historyBelow(x.state) } : {}),
    ...(step.countNewerThan !== undefined ? { countNewerThan: step.countNewerThan } : {}),
    ...(step.resumeToken !== undefined ? { startToken: step.resumeToken } : {}),
    ...(step.lateBelow !== undefined ? { lateBelow: step.lateBelow, nowSec: Math.floor(x.nowMs / 1000) } : {}),
  });
  if (r.late.length) {
    x.state.lateness.note(r.late, x.nowMs);
    x.logger.info('late records found', { network: x.state.network, count: r.late.length, maxLateSec: Math.max(...r.late) });
  }
  return r;
}

/**
 * What discovery has covered on this network, as a source timestamp: a baseline's read that sees a
 * message first below it found history, for every watcher (the head cursor; in per-address mode the
 * time of the last discovery). No discovery yet (a watcher whose baseline ended earlier in this cycle
 * is the only one live): all of it is history.
 */
function historyBelow(s: NetworkState): { historyBelowTs: number } {
  if (s.mode === 'firehose' && s.head) return { historyBelowTs: s.head.ts };
  if (s.mode === 'per-address' && s.lastDiscoveryAt !== null) return { historyBelowTs: Math.floor(s.lastDiscoveryAt / 1000) };
  return { historyBelowTs: Infinity };
}

function fetcher(source: ListOperation, client: DataApiClient) {
  const page = (token: string | undefined) => ({ pageSize: PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
  switch (source.kind) {
    case 'firehose':
      return (token: string | undefined) => client.listMessages(page(token));
    case 'feed':
      return (token: string | undefined) => client.listMessages({ ...source.filter, ...page(token) });
    case 'address':
      return (token: string | undefined) => client.listAddressMessages(source.address, page(token));
  }
}

/** A stop rule as the scan's "fetch the next page?" question. */
function stopper(rule: StopRule): (p: PageInfo, seen: Set<string>) => boolean {
  switch (rule.kind) {
    case 'past': {
      const { ts, undated } = rule;
      if (ts === null) return () => false;
      return (p) => (p.oldestTs === null ? undated === 'continue' : p.oldestTs >= ts);
    }
    case 'found': {
      const need = new Set(rule.need);
      const { neededTs, coverTs, needPages } = rule;
      return (p, seen) => {
        const before = need.size;
        for (const id of seen) need.delete(id);
        if (coverTs !== null && p.oldestTs !== null && p.oldestTs >= coverTs) return true; // a late record may lie below
        if (need.size === 0) return !p.knownBefore && p.full; // more unseen news may follow
        // Past its page cap a list is paged on only while each page finds a needed message (no dearer
        // than asking it by ID: a backlog below pages cheaper than by ID, a lone old message does not).
        if (needPages !== undefined && p.index + 1 >= needPages && need.size === before) return false; // the rest are asked by ID
        return neededTs === null || p.oldestTs === null || p.oldestTs >= neededTs; // past it: the API no longer lists it
      };
    }
    case 'while-open':
      return (p) => p.hasOpen && (p.oldestTs === null || p.oldestTs >= rule.pastTs);
  }
}
