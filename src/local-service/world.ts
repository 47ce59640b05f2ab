/**
 * What the Data API server serves from: a world. It fills the server's store with records, answers the
 * balance operation and the world's local routes, and says what it is on /_local/info. Two worlds
 * implement it: the simulated one (src/simulator/simulated-world.ts: demo, tests, benchmarks) and your
 * own nodes (src/chain-index/own-nodes-world.ts: production). compose-world.ts picks one, the only
 * module that knows both; the server knows neither.
 */
import type { Clock } from '../shared/clock';
import type { OwnNodeStatus } from '../shared/own-nodes';
import type { BalanceAnswer, BalancePath } from './native-balance';
import type { RecordStore } from './store/record-store';

/**
 * One record as the world changed it: `happenedAt` when the change happened on chain (clock ms),
 * `visibleAt` when it was written to the store (clock ms; later by the indexing lag, at most a tick).
 */
export interface RecordChange {
  record: Record<string, unknown>;
  happenedAt: number;
  visibleAt: number;
}

/** An answer of a local route: a JSON body, or an error status with its message(s). */
export type LocalAnswer = { ok: true; body: string } | { ok: false; status: number; errors: string[] };

/** What the server lends a world it opens. */
export interface WorldContext {
  /** The store the world writes its records into (the server reads pages from it). */
  store: RecordStore;
  clock: Clock;
  log: (line: string) => void;
  /** Whether anyone listens to record changes (a world need not build them otherwise). */
  listening: () => boolean;
  /** Tells the listeners of a batch of changes, just before the world writes it to the store. */
  emit: (changes: readonly RecordChange[]) => void;
}

export interface World {
  /** /_local/info's fields about this world (the server adds its own: messageCount, storeCached, computeUnits). */
  info(): Record<string, unknown>;
  /** The balance operation (`balances:getNative`). */
  balance(path: BalancePath, params: URLSearchParams): BalanceAnswer | Promise<BalanceAnswer>;
  /** `/_local/relayer-rewards` (absent: the route answers 404). */
  rewards?(params: URLSearchParams): Promise<LocalAnswer>;
  /** Per-chain status of your own nodes (absent: a simulated world). */
  ownNodes?(): OwnNodeStatus[];
  /** The fault injector's seed, when the world keeps its own (a demo store remembers the seed it was filled with). */
  readonly seed?: number;
  /** Called once the server listens. */
  start(): void;
  /** Stops feeding the store (the server closes it after). */
  stop(): Promise<void>;
}

/** A world as compose-world.ts hands it to the server: the store it needs, then how to open it on that store. */
export interface WorldPlugin<W extends World = World> {
  /** Extra options of the world's store (e.g. own nodes: each chain's network, a lean cache). */
  storeOptions: { chainNetworks?: ReadonlyMap<string, 'mainnet' | 'fuji'>; memory?: 'lean' };
  open(ctx: WorldContext): W;
}
