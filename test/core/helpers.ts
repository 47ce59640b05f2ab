import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SETTINGS, type Settings } from '../../src/shared/contract';
import { ManualClock } from '../../src/shared/clock';
import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { toChecksumAddress } from '../../src/shared/validators';
import { openStore, type Store } from '../../src/core/store';
import { TransitionEngine } from '../../src/core/watch/engine';
import { WatcherIndex } from '../../src/core/watch/watcher-index';

export const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
export const BEAM = '2tmrrBo1Lgt1mzzvPSFt73kkQKFas5d1AP88tv9cicwoFp8BSn';

export function tempDir(prefix = 'tw-core-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const randomAddress = (): string => toChecksumAddress('0x' + randomBytes(20).toString('hex'));
export const randomId = (): string => randomBytes(32).toString('hex');

export interface RecordSpec {
  id?: string;
  status?: string;
  from?: string;
  to?: string;
  ts?: number;
  receiptDelivered?: boolean;
  extra?: Record<string, unknown>;
}

/** A record as the API sends it (pending, delivered or any other status). */
export function apiRecord(s: RecordSpec): Record<string, unknown> {
  const status = s.status ?? 'pending';
  const ts = s.ts ?? 1_767_225_600;
  const rec: Record<string, unknown> = {
    messageId: s.id ?? randomId(),
    teleporterContractAddress: '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf',
    sourceBlockchainId: C_CHAIN,
    destinationBlockchainId: BEAM,
    sourceEvmChainId: '43114',
    destinationEvmChainId: '4337',
    messageNonce: '1',
    from: s.from ?? randomAddress(),
    to: s.to ?? randomAddress(),
    messageExecuted: status !== 'pending',
    receipts: s.receiptDelivered ? [{ receivedMessageNonce: '1', relayerRewardAddress: randomAddress() }] : [],
    receiptDelivered: s.receiptDelivered ?? false,
    rewardDetails: { address: randomAddress(), name: 'USD Coin', symbol: 'USDC', decimals: 6, logoUri: '', ercType: 'ERC-20', value: '1000' },
    status,
    sourceTransaction: { txHash: '0x' + randomId(), timestamp: ts, gasSpent: '1' },
    ...(s.extra ?? {}),
  };
  if (status !== 'pending')
    rec.destinationTransaction = {
      txHash: '0x' + randomId(),
      timestamp: ts + 10,
      gasSpent: '1',
      rewardRedeemer: randomAddress(),
      delivererAddress: randomAddress(),
    };
  return rec;
}

export const msg = (s: RecordSpec): TeleporterMessage => parseMessage(apiRecord(s)) as TeleporterMessage;

export interface EngineRig {
  dir: string;
  clock: ManualClock;
  store: Store;
  index: WatcherIndex;
  engine: TransitionEngine;
  settings: Settings;
  /** Adds a watch and marks its baseline done (as after the poller's baseline). */
  watch(address: string, opts?: { baselineDone?: boolean }): void;
  close(): void;
}

/** A rig on its own temp folder, watching `address`; `cleanup` removes the folder once the rig is closed. */
export function watchingRig(address: string): { rig: EngineRig; cleanup: () => void } {
  const tmp = tempDir();
  const rig = engineRig(tmp.dir);
  rig.watch(address);
  return { rig, cleanup: tmp.cleanup };
}

/** Store + engine on a real SQLite file; reopen with the same dir to simulate a restart. */
export function engineRig(dir: string, clock = new ManualClock()): EngineRig {
  const store = openStore(dir);
  const index = new WatcherIndex(store.watches);
  const rig: EngineRig = {
    dir,
    clock,
    store,
    index,
    settings: structuredClone(DEFAULT_SETTINGS),
    engine: undefined as unknown as TransitionEngine,
    watch(address, opts = {}) {
      store.watches.addWatch({
        address,
        label: '',
        network: 'mainnet',
        notify: { new: true, left_pending: true, receipt_delivered: true, stuck: true },
        createdAt: clock.now(),
      });
      if (opts.baselineDone ?? true) store.watches.finishBaseline(address, null);
    },
    close: () => store.close(),
  };
  rig.engine = new TransitionEngine(store, clock, index, () => rig.settings);
  return rig;
}
