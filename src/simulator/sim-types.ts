/** The simulator's vocabulary: what it is built from (its options and world) and what it emits and schedules. */
import type { RecordChange } from '../local-service/world';
import type { DemoDay } from './demo-day';
import type { MessagePlan } from './message-plan';
import type { RelayerSchedule } from './relayer-personas';
import type { Route } from './route-plan';

/** One record change as the store receives it (the server's RecordChange: the simulated world is one of its worlds). */
export type SimChange = RecordChange;

/** Where records go: called with each batch of new or changed records, in order. */
export type RecordSink = (changes: SimChange[]) => void;

/** The realistic behaviours (all off: the kind world the early tests were written against). */
export interface SimWorld {
  /** Each change becomes visible after a drawn indexing lag (index-lag.ts). */
  lag: boolean;
  /** The relayers re-send receipts still missing RECEIPT_RESEND_MS after delivery. */
  receiptResends: boolean;
  /** Busy traffic on a few routes only; the others quiet (route-plan.ts), some one way. */
  sparseRoutes: boolean;
  /** Messenger contracts sending (2: overlapping nonces, computed IDs). */
  messengerVersions: 1 | 2;
  /** Relayers with distinct behaviour (relayer-personas.ts); false: six alike, picked uniformly. Default: the demo's. */
  relayers: RelayerSchedule | false;
  /** The first persona with routes runs dry on its last route's destination between refills (wallets.ts). */
  dryWallet: boolean;
  /** The lag's rare long tail: the whole indexer stops for 30-120 minutes a few times a day, then catches up (indexer-stalls.ts). */
  stalls: boolean;
  /** The demo day's timeline (demo-day.ts; null: none). */
  demoDay: DemoDay | null;
}

export interface SimulatorOptions {
  seed: number;
  /** New messages per simulated second; 0 = no spontaneous traffic (send() still works). */
  rate: number;
  /** Delivery and receipt delays are divided by this. */
  speed: number;
  /** Simulated start time, epoch ms. */
  startMs: number;
  sink: RecordSink;
  addressCount?: number;
  /** How often (clock ms) an attached simulator catches up with its clock at most. */
  tickMs?: number;
  world?: Partial<SimWorld>;
}

export type EventBody =
  | { at: number; kind: 'arrival'; bulk?: { start: number; gap: number; index: number; count: number } }
  | { at: number; kind: 'quiet'; route: Route }
  | { at: number; kind: 'deliver'; plan: MessagePlan }
  | { at: number; kind: 'relay' }
  | { at: number; kind: 'retry'; plan: MessagePlan }
  | { at: number; kind: 'stuck' }
  | { at: number; kind: 'visible'; id: string; record: Record<string, unknown>; happenedAt: number };
export type SimEvent = EventBody & { seq: number };
