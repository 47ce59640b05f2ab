/**
 * A small relayer for the test chains: reads each chain's SendCrossChainMessage events and delivers
 * every message to its destination chain (the relayer's own account sends the receive transaction),
 * in order, with pauses the test schedules. Receipts ride back on later messages, as in Teleporter,
 * or explicitly through sendSpecifiedReceipts.
 */
import { decodeEventLog, parseEventLogs, type Address, type Hex } from 'viem';
import { MESSENGER_EVENTS } from '../chain-index/messenger-events';
import { compileTestMessenger } from './compile-messenger';
import type { TestChain } from './chains';
import { InFlight } from './in-flight';

export interface SendOptions {
  to?: Address;
  feeToken?: Address;
  fee?: bigint;
  data?: Hex;
  /** Send from this wallet (default: the chain's `sender`), e.g. one with a nonce manager to keep several sends in flight. */
  wallet?: ReturnType<TestChain['wallet']>;
}

const ZERO: Address = '0x0000000000000000000000000000000000000000';
export const SEND_GAS = 1_500_000n;

/**
 * How one delivery reaches the destination's messenger; resolves with the receive transaction's hash.
 * The test messenger takes the message itself (the default); the real TeleporterMessenger reads it
 * from Warp (test/own-node/real-messenger/delivery.ts).
 */
export type Delivery = (d: {
  source: TestChain;
  destination: TestChain;
  message: unknown;
  wallet: ReturnType<TestChain['wallet']>;
  /** The test asked this message's execution to fail (the test messenger's flag; a real receiver fails on its own). */
  failExecution: boolean;
}) => Promise<Hex>;

const toTestMessenger: Delivery = ({ source, destination, message, wallet: w, failExecution }) =>
  w.client.writeContract({
    address: destination.messenger,
    abi: compileTestMessenger().abi,
    functionName: 'receiveMessage',
    args: [source.blockchainIdHex, message, w.account.address, failExecution],
    gas: SEND_GAS,
    account: w.account,
    chain: w.client.chain,
  });

/** Sends a message from `source` to `destination`; resolves with its message ID (0x-hex) once mined. */
export async function sendMessage(source: TestChain, destination: TestChain, o: SendOptions = {}): Promise<{ messageId: Hex; txHash: Hex; block: bigint }> {
  const { abi } = compileTestMessenger();
  const w = o.wallet ?? source.wallet('sender');
  const txHash = await w.client.writeContract({
    address: source.messenger,
    abi,
    functionName: 'sendCrossChainMessage',
    args: [
      destination.blockchainIdHex,
      o.to ?? w.account.address,
      { feeTokenAddress: o.feeToken ?? ZERO, amount: o.fee ?? 0n },
      100_000n,
      [],
      o.data ?? '0x1234',
    ],
    // A fixed limit: receipts delivered meanwhile ride along and cost more gas than an estimate made before.
    gas: SEND_GAS,
    account: w.account,
    chain: w.client.chain,
  });
  return sentIn(source, txHash);
}

/** The relayer sends the receipts of these delivered messages back to their source chain. */
export async function sendSpecifiedReceipts(on: TestChain, to: TestChain, messageIds: Hex[]): Promise<{ messageId: Hex; txHash: Hex; block: bigint }> {
  const { abi } = compileTestMessenger();
  const w = on.wallet('relayer');
  const txHash = await w.client.writeContract({
    address: on.messenger,
    abi,
    functionName: 'sendSpecifiedReceipts',
    args: [to.blockchainIdHex, messageIds, { feeTokenAddress: ZERO, amount: 0n }, []],
    account: w.account,
    chain: w.client.chain,
  });
  return sentIn(on, txHash);
}

/** The message a mined send transaction made; a revert throws with its reason. */
export async function sentIn(chain: TestChain, txHash: Hex): Promise<{ messageId: Hex; txHash: Hex; block: bigint }> {
  const receipt = await chain.client.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== 'success') {
    const tx = await chain.client.getTransaction({ hash: txHash });
    const why = await chain.client.call({ to: tx.to!, data: tx.input, account: tx.from, blockNumber: receipt.blockNumber - 1n }).then(
      () => `gas used ${receipt.gasUsed} of ${tx.gas}`,
      (e: unknown) => (e as Error).message.split('\n')[0],
    );
    throw new Error(`send reverted (${txHash}): ${why}`);
  }
  const [sent] = parseEventLogs({ abi: MESSENGER_EVENTS, logs: receipt.logs, eventName: 'SendCrossChainMessage' });
  if (!sent) throw new Error('no SendCrossChainMessage in the send receipt');
  return { messageId: sent.args.messageID, txHash, block: receipt.blockNumber };
}

export class TestRelayer {
  private readonly next = new Map<TestChain, bigint>();
  private paused = false;
  /** Message IDs (0x-hex) whose execution this relayer reports as failed. */
  readonly failExecution = new Set<string>();
  /** Every delivery: message ID -> the receive transaction. */
  readonly delivered = new Map<string, Hex>();
  private loop: Promise<void> | null = null;
  private deliveries = 0;
  private stopped = false;
  private stopping = false;

  /**
   * `inFlight` (default 1): how many deliveries a pass keeps open at once, as a real relayer sends
   * several before the first is mined (a nonce manager numbers them).
   */
  constructor(
    private readonly chains: readonly TestChain[],
    private readonly o: {
      inFlight?: number;
      /** Each delivery as it ends: relayed, or failed with the ICM relayer's reason (the devnet's relayer-style metrics count them). */
      onRelay?: (source: TestChain, destination: TestChain, outcome: { ok: true } | { ok: false; reason: string }) => void;
      /** Default: the test messenger's receiveMessage. */
      deliverWith?: Delivery;
      /** Every this many deliveries, the message's execution fails (0 or absent: none beyond `failExecution`); the devnet's `--fail-every`. */
      failEvery?: number;
    } = {},
  ) {}

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Delivers every message sent so far (unless paused); resolves with how many it delivered. */
  async deliverAll(): Promise<number> {
    if (this.paused) return 0;
    let n = 0;
    const open = new InFlight(this.o.inFlight ?? 1);
    for (const source of this.chains) {
      const from = this.next.get(source) ?? 0n;
      const head = await source.client.getBlockNumber();
      if (head < from) continue;
      const logs = await source.client.getLogs({ address: source.messenger, fromBlock: from, toBlock: head });
      for (const log of logs) {
        let ev;
        try {
          ev = decodeEventLog({ abi: MESSENGER_EVENTS, data: log.data, topics: log.topics });
        } catch {
          continue;
        }
        if (ev.eventName !== 'SendCrossChainMessage') continue;
        const dest = this.chains.find((c) => c.blockchainIdHex === ev.args.destinationBlockchainID);
        if (!dest || this.delivered.has(ev.args.messageID)) continue;
        // stop() ends a long pass (a backlog under load) at the next message; `next` is not moved on, so nothing is skipped.
        if (this.stopping) break;
        const { messageID, message } = ev.args;
        await open.add(() => this.deliver(source, dest, messageID, message));
        n++;
      }
      if (this.stopping) break;
      this.next.set(source, head + 1n);
    }
    await open.drain();
    return n;
  }

  private async deliver(source: TestChain, dest: TestChain, messageId: Hex, message: unknown): Promise<void> {
    try {
      await this.send(source, dest, messageId, message);
    } catch (e) {
      // The ICM relayer's reason when its receive transaction fails (messages/teleporter/message_handler.go).
      this.o.onRelay?.(source, dest, { ok: false, reason: 'failed to send warp message' });
      throw e;
    }
    this.o.onRelay?.(source, dest, { ok: true });
  }

  private async send(source: TestChain, dest: TestChain, messageId: Hex, message: unknown): Promise<void> {
    const wallet = (this.o.inFlight ?? 1) > 1 ? dest.managedWallet('relayer') : dest.wallet('relayer');
    const deliver = this.o.deliverWith ?? toTestMessenger;
    const every = this.o.failEvery ?? 0;
    const failExecution = this.failExecution.has(messageId) || (every > 0 && ++this.deliveries % every === 0);
    const hash = await deliver({ source, destination: dest, message, wallet, failExecution });
    const r = await dest.client.waitForTransactionReceipt({ hash });
    if (r.status !== 'success') throw new Error(`delivery of ${messageId} reverted`);
    this.delivered.set(messageId, hash);
  }

  /** Delivers in the background every `everyMs` until stop(). */
  start(everyMs = 100): void {
    this.stopped = false;
    this.loop ??= (async () => {
      while (!this.stopped) {
        await this.deliverAll();
        await new Promise((r) => setTimeout(r, everyMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    await this.loop;
    this.stopping = false;
    this.loop = null;
  }
}
