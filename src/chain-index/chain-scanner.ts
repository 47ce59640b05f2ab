/**
 * Reads one chain's messenger logs: from its checkpoint up to the head less the confirmation depth,
 * in eth_getLogs ranges that shrink when the node refuses one and grow back after successes. Each
 * range is committed whole (events, block hash, checkpoint, rebuilt records) in one transaction.
 * Before reading on, the last block read is compared with the node's: a changed hash is a reorg, and
 * the blocks from the fork on are read again after their messages are rolled back.
 */
import { createPublicClient, http, toHex, type Address, type Hex, type PublicClient } from 'viem';
import { chainLabel } from '../shared/chains';
import { guardedJsonRpcFetch, MAX_NODE_ANSWER_BYTES } from '../shared/json-rpc-fetch';
import type { OwnNodeChain, OwnNodeStatus, SkipReason } from '../shared/own-nodes';
import { TELEPORTER_MESSENGER_ADDRESS } from '../shared/own-nodes';
import { decodeCb58 } from '../shared/validators';
import type { ChainEvents } from './chain-events';
import { decodeMessengerLog, factsOf, type DecodedLog, type TxFacts } from './event-facts';
import { calculateMessageId } from './messenger-events';
import { blockTime, readBlock, readLogs, readQuantity, readReceipt, type NodeLog } from './node-answers';
import { classifyRpcError, isNodeError, NodeCallError, NodeFault, type RpcFault } from './rpc-errors';
import type { TokenInfos } from './token-infos';

const INITIAL_SPAN = 2_000;
const MAX_SPAN = 10_000;
/** Ranges read per scan before other chains get their turn. */
const RANGES_PER_SCAN = 20;
/** Transaction receipts asked for at once. */
const RECEIPTS_AT_ONCE = 8;

interface ScannerDeps {
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
  /** How often the node's chain ID is asked again while it answers (ms; default 20 s). */
  chainIdEveryMs?: number;
}

/** Raw JSON-RPC: answers are checked by node-answers.ts, never formatted by viem first (its formatters throw internal text on garbage). */
type Raw = (method: string, params: unknown[]) => Promise<unknown>;

class WrongChainError extends Error {}

export class ChainScanner {
  readonly chain: string;
  readonly blockchainIdHex: Hex;
  private readonly client: PublicClient;
  private readonly messengers: Address[];
  private span = INITIAL_SPAN;
  /** The widest range the node may accept: MAX_SPAN until it refuses one. */
  private ceiling = MAX_SPAN;
  private successes = 0;
  /** When the node's chain ID was last found right (null: ask before reading). */
  private chainCheckedAt: number | null = null;
  private readonly raw: Raw;
  readonly status: OwnNodeStatus;
  /** Skip reasons already said in the log (each once; later ones are only counted). */
  private readonly said = new Set<SkipReason>();

  constructor(
    private readonly cfg: OwnNodeChain,
    private readonly deps: ScannerDeps,
  ) {
    this.chain = cfg.blockchainId;
    this.blockchainIdHex = toHex(decodeCb58(cfg.blockchainId)!);
    this.messengers = (cfg.messengers ?? [TELEPORTER_MESSENGER_ADDRESS]).map((a) => a.toLowerCase() as Address);
    this.status = {
      blockchainId: cfg.blockchainId,
      name: cfg.name || chainLabel(cfg.blockchainId),
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
      skipped: {},
    };
    this.client = createPublicClient({
      transport: http(cfg.rpcUrl, {
        timeout: deps.timeoutMs ?? 15_000,
        retryCount: 0,
        // Answers are read up to a cap, must be JSON-RPC and must carry the request's id.
        fetchFn: guardedJsonRpcFetch(),
        maxResponseBodySize: MAX_NODE_ANSWER_BYTES + 1,
        onFetchRequest: () => {
          this.status.rpcCalls++;
        },
      }),
      cacheTime: 0,
    });
    const request = this.client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
    // Whatever a call throws is the node's (or the network's); what is thrown outside a call is ours.
    this.raw = (method, params) =>
      request({ method, params }).catch((e: unknown) => {
        throw new NodeCallError(method, e);
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
      } else if (!isNodeError(e)) {
        // A fault of ours (a bug, the store): never blamed on the node. Said once per message in the log.
        // The host only, here as below: a provider's key lives in the URL's path or query.
        const hostOnly = (t: string) => t.replaceAll(this.cfg.rpcUrl, this.status.host);
        const text = hostOnly((e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200));
        const message = `Reading this chain failed in Teleporter Watch itself, not at the node (${text}). It is tried again; if it persists, please report it with the log.`;
        if (this.status.message !== message)
          this.deps.log(`${this.status.name}: internal error while reading the chain: ${hostOnly(e instanceof Error ? (e.stack ?? e.message) : String(e))}`);
        this.status.state = 'internal_error';
        this.status.message = message;
      } else {
        const f = classifyRpcError(e);
        this.status.state = f.kind === 'range' ? 'down' : f.kind;
        // The host only: a provider's key lives in the URL's path or query.
        this.status.message = f.message.replaceAll(this.cfg.rpcUrl, this.status.host);
      }
      this.chainCheckedAt = null; // a node that comes back may be another node: ask again
      return false;
    } finally {
      this.status.lastScanAt = this.deps.now();
    }
  }

  private setSpan(n: number): void {
    this.span = n;
    this.status.span = n;
  }

  /** Asks the node's chain ID before the first read, after a fault and on a schedule: a node may switch chains while connected. */
  private async checkChainId(): Promise<void> {
    const every = this.deps.chainIdEveryMs ?? 20_000;
    if (this.chainCheckedAt !== null && this.deps.now() - this.chainCheckedAt < every) return;
    const reported = readQuantity(await this.raw('eth_chainId', []), 'eth_chainId').toString();
    const expected = this.cfg.evmChainId ?? this.deps.events.evmChainId(this.chain);
    if (expected !== null && expected !== undefined && expected !== reported) {
      throw new WrongChainError(
        `The node at ${this.status.host} reports EVM chain ID ${reported}, but chain ${this.chain} is ${expected}: nothing is read from it.`,
      );
    }
    if (expected === null || expected === undefined) this.deps.events.setEvmChainId(this.chain, reported);
    this.status.evmChainId = reported;
    this.chainCheckedAt = this.deps.now();
  }

  private async scanOnce(): Promise<boolean> {
    await this.checkChainId();
    const head = readQuantity(await this.raw('eth_blockNumber', []), 'eth_blockNumber');
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
    const now = await this.hashOf(tip.block);
    // A malformed block says nothing about a reorg: counted, and checked again on the next scan.
    if (now === tip.hash || now === undefined) return next;
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

  /** The node's block at a height: its hash, null when it has none there (it reorged to a shorter chain), undefined when malformed (counted). */
  private async hashOf(block: number): Promise<string | null | undefined> {
    const b = await this.block(block);
    if (b === 'bad') this.skip(['bad_block'], `block ${block}`);
    return b === 'bad' ? undefined : b === null ? null : b.hash.toLowerCase();
  }

  private async block(n: number): Promise<{ hash: string; timestamp: bigint } | null | 'bad'> {
    return readBlock(await this.raw('eth_getBlockByNumber', [toHex(n), false]));
  }

  /**
   * Counts what was skipped, by reason; says so in the log the first time each reason is met on this
   * chain (a node that lies about every block would otherwise fill the log), later ones are only counted.
   */
  private skip(reasons: readonly SkipReason[], where: string): void {
    if (!reasons.length) return;
    const counts = new Map<SkipReason, number>();
    for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    for (const [r, n] of counts) this.status.skipped[r] = (this.status.skipped[r] ?? 0) + n;
    const fresh = [...counts].filter(([r]) => !this.said.has(r));
    if (!fresh.length) return;
    for (const [r] of fresh) this.said.add(r);
    const list = fresh.map(([r, n]) => `${r} ×${n}`).join(', ');
    this.deps.log(
      `${this.status.name}: skipped item(s) the node sent for ${where} (${list}); reading on. Later ones of these kinds are only counted (status, /metrics).`,
    );
  }

  /** Reads [from, to] (fewer blocks if the node refuses the range); returns the next block to read. */
  private async readRange(from: number, to: number): Promise<number> {
    let logs: NodeLog[];
    for (;;) {
      try {
        const answer = await this.raw('eth_getLogs', [{ address: this.messengers, fromBlock: toHex(from), toBlock: toHex(to) }]);
        const read = readLogs(answer, from, to, this.messengers);
        this.skip(read.skipped, `blocks ${from}–${to}`);
        logs = read.logs;
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
    const decoded: DecodedLog[] = [];
    const undecodable: SkipReason[] = [];
    for (const l of logs) {
      const d = decodeMessengerLog(l);
      if (typeof d === 'string') undecodable.push(d);
      else if (d !== null && this.idMatches(d)) decoded.push(d);
    }
    this.skip(undecodable, `blocks ${from}–${to}`);
    const txs = await this.txFacts(decoded);
    const facts = decoded.filter((d) => txs.has(d.log.transactionHash)).map((d) => ({ d, facts: factsOf(d, txs.get(d.log.transactionHash)!) }));
    for (const { facts: f } of facts) if (f.kind === 'sent' || f.kind === 'fee_added') await this.deps.tokens.learn(this.chain, f.feeToken, this.client);
    const endHash = await this.hashOf(to);
    if (endHash === null) throw new NodeFault(`The node has no block ${to} although its head is past it; read again on the next scan.`);
    this.deps.transaction(() => {
      const touched = new Set<string>();
      for (const { d, facts: f } of facts) {
        this.deps.events.add({ chain: this.chain, block: Number(d.log.blockNumber), logIndex: d.log.logIndex, facts: f });
        this.deps.events.putBlock(this.chain, Number(d.log.blockNumber), d.log.blockHash);
        touched.add(f.messageId);
      }
      // A malformed end block is counted (in hashOf) and not kept: the reorg check then uses the blocks of the logs.
      if (endHash !== undefined) this.deps.events.putBlock(this.chain, to, endHash);
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

  /** The sender, cost and time of each transaction that emitted a log; a transaction whose receipt or block is malformed is left out (its logs skipped, counted). */
  private async txFacts(decoded: readonly DecodedLog[]): Promise<Map<string, TxFacts>> {
    const out = new Map<string, TxFacts>();
    // Each block's time as records carry it, or why its logs are skipped (malformed, out of range).
    const times = new Map<number, number | SkipReason>();
    const now = this.deps.now();
    for (const d of decoded) {
      const fromLog = d.log.blockTimestamp;
      if (fromLog !== undefined) times.set(Number(d.log.blockNumber), blockTime(fromLog, now));
    }
    const hashes = [...new Set(decoded.map((d) => d.log.transactionHash))];
    // A few receipts at a time: a busy range has dozens of transactions, and one after another they
    // would cost a round trip each to a remote node.
    for (let i = 0; i < hashes.length; i += RECEIPTS_AT_ONCE) {
      const batch = hashes.slice(i, i + RECEIPTS_AT_ONCE);
      const receipts = await Promise.all(batch.map(async (hash) => readReceipt(await this.raw('eth_getTransactionReceipt', [hash]))));
      for (const [j, r] of receipts.entries()) {
        const hash = batch[j]!;
        if (r === null) throw new NodeFault(`The node has a log of transaction ${hash} but no receipt for it; read again on the next scan.`);
        const logsOf = decoded.filter((d) => d.log.transactionHash === hash).length;
        if (typeof r === 'string') {
          this.skip(Array<SkipReason>(logsOf).fill(r), `the receipt of ${hash}`);
          continue;
        }
        let ts = times.get(r.blockNumber);
        if (ts === undefined) {
          const b = await this.block(r.blockNumber);
          ts = b === null || b === 'bad' ? 'bad_block' : blockTime(b.timestamp, now);
          times.set(r.blockNumber, ts);
        }
        if (typeof ts === 'string') {
          this.skip(Array<SkipReason>(logsOf).fill(ts), `the block of ${hash}`);
          continue;
        }
        out.set(hash, { txHash: hash, timestamp: ts, gasSpent: (r.gasUsed * r.effectiveGasPrice).toString(), txFrom: r.from });
      }
    }
    return out;
  }
}
