/**
 * Reads one chain's messenger logs: from its checkpoint up to the head less the confirmation depth,
 * in eth_getLogs ranges that shrink when the node refuses one and grow back after successes. Each
 * range is committed whole (events, block hash, checkpoint, rebuilt records) in one transaction.
 * Before reading on, the last block read is compared with the node's: a changed hash is a reorg, and
 * the blocks from the fork on are read again after their messages are rolled back.
 */
import { createPublicClient, http, toHex, type Address, type Hex, type PublicClient } from 'viem';
import type { OwnNodeChain, OwnNodeStatus } from '../../shared/own-nodes';
import { TELEPORTER_MESSENGER_ADDRESS } from '../../shared/own-nodes';
import { decodeCb58 } from '../../shared/validators';
import type { ChainEvents } from './chain-events';
import { decodeMessengerLog, factsOf, type DecodedLog, type TxFacts } from './event-facts';
import { calculateMessageId } from './messenger-events';
import { classifyRpcError, type RpcFault } from './rpc-errors';
import type { TokenInfos } from './token-infos';

export const INITIAL_SPAN = 2_000;
export const MAX_SPAN = 10_000;
/** Ranges read per scan before other chains get their turn. */
const RANGES_PER_SCAN = 20;
/** Transaction receipts asked for at once. */
const RECEIPTS_AT_ONCE = 8;

export interface ScannerDeps {
  events: ChainEvents;
  tokens: TokenInfos;
  confirmations: number;
  /** Runs fn in one store transaction. */
  transaction<T>(fn: () => T): T;
  /** Rebuilds (or removes) the records of these messages from their events; inside the caller's transaction. */
  rebuild(messageIds: Iterable<string>): void;
  log(line: string): void;
  now(): number;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

export class WrongChainError extends Error {}

export class ChainScanner {
  readonly chain: string;
  readonly blockchainIdHex: Hex;
  private readonly client: PublicClient;
  private readonly messengers: Address[];
  private span = INITIAL_SPAN;
  /** The widest range the node may accept: MAX_SPAN until it refuses one. */
  private ceiling = MAX_SPAN;
  private successes = 0;
  private chainChecked = false;
  readonly status: OwnNodeStatus;

  constructor(
    private readonly cfg: OwnNodeChain,
    private readonly deps: ScannerDeps,
  ) {
    this.chain = cfg.blockchainId;
    this.blockchainIdHex = toHex(decodeCb58(cfg.blockchainId)!);
    this.messengers = (cfg.messengers ?? [TELEPORTER_MESSENGER_ADDRESS]).map((a) => a.toLowerCase() as Address);
    this.status = {
      blockchainId: cfg.blockchainId,
      host: new URL(cfg.rpcUrl).host,
      state: 'starting',
      message: '',
      evmChainId: deps.events.evmChainId(cfg.blockchainId),
      head: null,
      indexedTo: null,
      span: this.span,
      rpcCalls: 0,
      reorgs: 0,
      lastScanAt: null,
    };
    this.client = createPublicClient({
      transport: http(cfg.rpcUrl, {
        timeout: deps.timeoutMs ?? 15_000,
        retryCount: 0,
        onFetchRequest: () => {
          this.status.rpcCalls++;
        },
      }),
      cacheTime: 0,
    });
  }

  /** One pass; resolves true when more blocks are ready to read right away. Throws nothing: faults become the status. */
  async scan(): Promise<boolean> {
    try {
      const more = await this.scanOnce();
      this.status.state = 'ok';
      this.status.message = '';
      return more;
    } catch (e) {
      if (e instanceof WrongChainError) {
        this.status.state = 'wrong_chain';
        this.status.message = e.message;
      } else {
        const f = classifyRpcError(e);
        this.status.state = f.kind === 'range' ? 'down' : f.kind;
        this.status.message = f.message;
      }
      this.chainChecked = false; // a node that comes back may be another node: ask again
      return false;
    } finally {
      this.status.lastScanAt = this.deps.now();
    }
  }

  private setSpan(n: number): void {
    this.span = n;
    this.status.span = n;
  }

  private async checkChainId(): Promise<void> {
    if (this.chainChecked) return;
    const reported = String(await this.client.getChainId());
    const expected = this.cfg.evmChainId ?? this.deps.events.evmChainId(this.chain);
    if (expected !== null && expected !== undefined && expected !== reported) {
      throw new WrongChainError(
        `The node at ${this.status.host} reports EVM chain ID ${reported}, but chain ${this.chain} is ${expected}: nothing is read from it.`,
      );
    }
    if (expected === null || expected === undefined) this.deps.events.setEvmChainId(this.chain, reported);
    this.status.evmChainId = reported;
    this.chainChecked = true;
  }

  private async scanOnce(): Promise<boolean> {
    await this.checkChainId();
    const head = Number(await this.client.getBlockNumber());
    this.status.head = head;
    this.status.state = 'ok';
    this.status.message = '';
    const safe = head - this.deps.confirmations;
    let next = this.deps.events.next(this.chain) ?? this.cfg.startBlock ?? 0;
    next = await this.undoReorg(next);
    this.status.indexedTo = next - 1;
    for (let i = 0; i < RANGES_PER_SCAN && next <= safe; i++) {
      next = await this.readRange(next, Math.min(safe, next + this.span - 1));
      this.status.indexedTo = next - 1;
    }
    return next <= safe;
  }

  /** Compares the last block read with the node's; on a change, rolls back to the fork and returns where to read from. */
  private async undoReorg(next: number): Promise<number> {
    const known = this.deps.events.knownBlocks(this.chain);
    const tip = known[0];
    if (!tip) return next;
    if ((await this.hashOf(tip.block)) === tip.hash) return next;
    let fork = known.at(-1)!.block;
    for (const b of known.slice(1)) {
      if ((await this.hashOf(b.block)) === b.hash) {
        fork = b.block + 1;
        break;
      }
    }
    const touched = this.deps.transaction(() => {
      const ids = this.deps.events.rollBack(this.chain, fork);
      this.deps.events.setNext(this.chain, fork);
      this.deps.rebuild(ids);
      return ids;
    });
    this.status.reorgs++;
    this.deps.log(
      `reorg on ${this.chain}: block ${tip.block} changed its hash; blocks from ${fork} are read again and ${touched.length} message(s) rolled back to their last known state`,
    );
    return fork;
  }

  private async hashOf(block: number): Promise<string | null> {
    const b = await this.client.getBlock({ blockNumber: BigInt(block) }).catch((e: unknown) => {
      // A block the node no longer has at that height (it reorged to a shorter chain) is a changed block.
      if (/not found|could not be found/i.test(String((e as Error).message))) return null;
      throw e;
    });
    return b?.hash ?? null;
  }

  /** Reads [from, to] (fewer blocks if the node refuses the range); returns the next block to read. */
  private async readRange(from: number, to: number): Promise<number> {
    let logs;
    for (;;) {
      try {
        logs = await this.client.getLogs({ address: this.messengers, fromBlock: BigInt(from), toBlock: BigInt(to) });
        break;
      } catch (e) {
        const f: RpcFault = classifyRpcError(e);
        if (f.kind !== 'range' || to === from) throw e;
        // The node's limit is below this range: never ask for as much again (this session).
        const refused = to - from + 1;
        this.ceiling = Math.min(this.ceiling, refused - 1);
        this.successes = 0;
        this.setSpan(Math.max(1, Math.floor(refused / 2)));
        to = from + this.span - 1;
        this.deps.log(`${this.chain}: the node refused a log range of ${refused} blocks; reading at most ${this.span} at a time`);
      }
    }
    if (++this.successes >= 5 && this.span < this.ceiling) {
      this.setSpan(Math.min(this.ceiling, this.span * 2));
      this.successes = 0;
    }
    const decoded = logs.map((l) => decodeMessengerLog(l)).filter((d): d is DecodedLog => d !== null && this.idMatches(d));
    const txs = await this.txFacts(decoded);
    const facts = decoded.map((d) => ({ d, facts: factsOf(d, txs.get(d.log.transactionHash)!) }));
    for (const { facts: f } of facts) if (f.kind === 'sent' || f.kind === 'fee_added') await this.deps.tokens.learn(this.chain, f.feeToken, this.client);
    const endHash = await this.hashOf(to);
    if (endHash === null) throw new Error(`block ${to} not found`);
    this.deps.transaction(() => {
      const touched = new Set<string>();
      for (const { d, facts: f } of facts) {
        this.deps.events.add({ chain: this.chain, block: Number(d.log.blockNumber), logIndex: d.log.logIndex, facts: f });
        this.deps.events.putBlock(this.chain, Number(d.log.blockNumber), d.log.blockHash);
        touched.add(f.messageId);
      }
      this.deps.events.putBlock(this.chain, to, endHash);
      this.deps.events.setNext(this.chain, to + 1);
      this.deps.rebuild(touched);
    });
    return to + 1;
  }

  /** A send whose ID is not what the messenger computes from the configured blockchain ID: the configuration is wrong. */
  private idMatches(d: DecodedLog): boolean {
    if (d.name !== 'SendCrossChainMessage') return true;
    const m = d.args.message as { messageNonce: bigint; destinationBlockchainID: Hex };
    const id = calculateMessageId(d.log.address, this.blockchainIdHex, m.destinationBlockchainID, m.messageNonce);
    if (id === d.args.messageID) return true;
    throw new WrongChainError(
      `Message IDs on ${this.status.host} do not match blockchain ID ${this.chain} (the messenger computes ${d.args.messageID as string}, the configured ID gives ${id}): check the blockchain ID.`,
    );
  }

  /** The sender, cost and time of each transaction that emitted a log. */
  private async txFacts(decoded: readonly DecodedLog[]): Promise<Map<string, TxFacts>> {
    const out = new Map<string, TxFacts>();
    const times = new Map<bigint, number>();
    for (const d of decoded) {
      const fromLog = (d.log as { blockTimestamp?: bigint | string | number }).blockTimestamp;
      if (fromLog !== undefined && fromLog !== null) times.set(d.log.blockNumber, Number(fromLog));
    }
    const hashes = [...new Set(decoded.map((d) => d.log.transactionHash))];
    // A few receipts at a time: a busy range has dozens of transactions, and one after another they
    // would cost a round trip each to a remote node.
    for (let i = 0; i < hashes.length; i += RECEIPTS_AT_ONCE) {
      const batch = hashes.slice(i, i + RECEIPTS_AT_ONCE);
      const receipts = await Promise.all(batch.map((hash) => this.client.getTransactionReceipt({ hash })));
      for (const [j, r] of receipts.entries()) {
        let ts = times.get(r.blockNumber);
        if (ts === undefined) {
          ts = Number((await this.client.getBlock({ blockNumber: r.blockNumber })).timestamp);
          times.set(r.blockNumber, ts);
        }
        out.set(batch[j]!, { txHash: batch[j]!, timestamp: ts, gasSpent: (r.gasUsed * r.effectiveGasPrice).toString(), txFrom: r.from });
      }
    }
    return out;
  }
}
