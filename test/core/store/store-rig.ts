/** A real store in a temporary folder, and message rows to write into it. */
import { afterEach, beforeEach } from 'vitest';
import { openStore, searchTextOf, type MessageRow, type Store } from '../../../src/core/store';
import { parseMessage, type TeleporterMessage } from '../../../src/shared/messages';
import type { WatcherRef } from '../../../src/shared/transitions';
import { apiRecord, C_CHAIN, tempDir, type RecordSpec } from '../helpers';

/** A fresh store for each test of the calling suite, closed and deleted after it. */
export function useStore(): () => Store {
  let store: Store | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp = tempDir('tw-store-');
    store = openStore(tmp.dir);
  });
  afterEach(() => {
    store?.close();
    tmp?.cleanup();
  });
  return () => store!;
}

/** The row the engine would write for a record built from `spec` (untracked unless said). */
export const messageRow = (spec: RecordSpec, over: Partial<MessageRow> = {}): MessageRow => rowOfRecord(apiRecord(spec), over);

/** The row the engine would write for a raw record (untracked unless said). */
export function rowOfRecord(raw: Record<string, unknown>, over: Partial<MessageRow> = {}): MessageRow {
  const m = parseMessage(raw) as TeleporterMessage;
  const tx = (k: string) => (raw[k] as { timestamp?: number } | undefined)?.timestamp ?? null;
  return {
    messageId: m.messageId,
    network: 'mainnet',
    status: raw.status as string,
    receiptDelivered: raw.receiptDelivered === true,
    from: raw.from as string,
    to: raw.to as string,
    sourceChain: raw.sourceBlockchainId as string,
    destinationChain: raw.destinationBlockchainId as string,
    sourceTs: tx('sourceTransaction'),
    destinationTs: tx('destinationTransaction'),
    raw: JSON.stringify(raw),
    searchText: searchTextOf(m, raw),
    seenAt: 1_000,
    tracked: false,
    pendingSince: null,
    stuckFired: false,
    source: 'local',
    ...over,
  };
}

/**
 * A folder for each test of the calling suite, and `open()` to open a store on it, again after a close
 * (a new process on the same file); the last store opened is closed, and the folder deleted, after the test.
 */
export function useStoreFolder(): () => Store {
  let store: Store | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp = tempDir('tw-store-');
    store = undefined;
  });
  afterEach(() => {
    if (store?.db.open) store.close();
    tmp?.cleanup();
  });
  return () => (store = openStore(tmp!.dir));
}

/** Logs a `new` transition of `messageId` (C-Chain to C-Chain, pending) at `at`; its ID. */
export function logNewTransition(store: Store, messageId: string, at: number, watchers: WatcherRef[] = []): number {
  return store.transitions.add({
    messageId,
    kind: 'new',
    fromStatus: null,
    toStatus: 'pending',
    source: 'local',
    at,
    network: 'mainnet',
    sourceBlockchainId: C_CHAIN,
    destinationBlockchainId: C_CHAIN,
    watchers,
  })!;
}
