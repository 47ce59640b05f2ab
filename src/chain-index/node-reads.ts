/**
 * What the local service reads from a configured chain's node on demand, never from its store:
 * a wallet's native balance (the balance operation) and the messenger's redeemable relayer rewards
 * (`checkRelayerRewardAmount`). Each read is one JSON-RPC call through the guarded fetch (capped,
 * JSON-RPC checked, timed out); a failure is said in plain words with the node's host, never its URL
 * (a provider's key lives in its path or query).
 */
import { createPublicClient, decodeFunctionResult, encodeFunctionData, http, type Address, type Hex } from 'viem';
import { chainByBlockchainId, chainLabel } from '../shared/chains';
import { guardedJsonRpcFetch, MAX_NODE_ANSWER_BYTES } from '../shared/json-rpc-fetch';
import type { OwnNodeChain, OwnNodes } from '../shared/own-nodes';
import { TELEPORTER_MESSENGER_ADDRESS } from '../shared/own-nodes';
import { parseChainRef } from '../shared/validators';
import { classifyRpcError } from './rpc-errors';

/** The messenger's view of what a relayer may redeem (ITeleporterMessenger). */
const REWARD_ABI = [
  {
    type: 'function',
    name: 'checkRelayerRewardAmount',
    stateMutability: 'view',
    inputs: [
      { name: 'relayer', type: 'address' },
      { name: 'feeAsset', type: 'address' },
    ],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

/** A configured chain a read names, with the EVM chain ID its node reported (when known). */
interface ReadChain {
  cfg: OwnNodeChain;
  evmChainId: string | null;
  name: string;
}

type ChainLookup = { ok: true; chain: ReadChain } | { ok: false; status: 400 | 404; error: string };

/** A node's failure to answer a read: the HTTP status the service answers with, and why. */
export class NodeReadError extends Error {
  constructor(
    readonly status: 502 | 503 | 504,
    message: string,
  ) {
    super(message);
  }
}

type Raw = (method: string, params: unknown[]) => Promise<unknown>;

export class OwnNodeReads {
  private readonly raws = new Map<string, Raw>();
  /** EVM chain IDs asked of a node by a lookup, by blockchain ID. */
  private readonly asked = new Map<string, string>();

  constructor(
    private readonly config: OwnNodes,
    /** The EVM chain ID the chain's node reported (null: not asked yet). */
    private readonly reportedEvmChainId: (blockchainId: string) => string | null,
  ) {}

  /**
   * The configured chain a path's `chainId` (cb58 blockchain ID or decimal EVM chain ID) names. An EVM
   * chain ID no chain is known by yet is asked of the nodes whose ID is still unknown (the indexer
   * may not have polled them yet), so a read right after start is not a false "not yours".
   */
  async chain(chainId: string): Promise<ChainLookup> {
    const ref = parseChainRef(chainId, 'chainId');
    if (!ref.ok) return { ok: false, status: 400, error: ref.error };
    const v = ref.value;
    let chains = this.known();
    const matches = (c: ReadChain) => (v.kind === 'evmChainId' ? c.evmChainId === v.value : c.cfg.blockchainId === v.value);
    if (v.kind === 'evmChainId' && !chains.some(matches) && chains.some((c) => c.evmChainId === null)) {
      await Promise.all(chains.filter((c) => c.evmChainId === null).map((c) => this.askEvmChainId(c)));
      chains = this.known();
    }
    const found = chains.find(matches);
    if (found) return { ok: true, chain: found };
    const known = chains.map((c) => `${c.name} (${c.evmChainId ?? `${c.cfg.blockchainId}, EVM chain ID not reported`})`).join(', ');
    return { ok: false, status: 404, error: `chainId "${chainId}" is not one of your own nodes' chains (${known}).` };
  }

  private known(): ReadChain[] {
    return this.config.chains.map((cfg) => ({
      cfg,
      evmChainId:
        cfg.evmChainId ??
        this.reportedEvmChainId(cfg.blockchainId) ??
        this.asked.get(cfg.blockchainId) ??
        chainByBlockchainId(cfg.blockchainId)?.evmChainId ??
        null,
      name: cfg.name || chainLabel(cfg.blockchainId),
    }));
  }

  /** The node's `eth_chainId`, kept once answered; a node that does not answer stays unknown. */
  private async askEvmChainId(chain: ReadChain): Promise<void> {
    try {
      const answer = await this.rawOf(chain.cfg)('eth_chainId', []);
      if (typeof answer === 'string' && QUANTITY.test(answer)) this.asked.set(chain.cfg.blockchainId, BigInt(answer).toString());
    } catch {
      // Unknown it stays: the lookup's 404 says so.
    }
  }

  /** The address's native balance (wei) at the node's latest block. */
  async balance(chain: ReadChain, address: Address): Promise<bigint> {
    const answer = await this.ask(chain, 'eth_getBalance', [address, 'latest']);
    if (typeof answer !== 'string' || !QUANTITY.test(answer)) throw this.garbled(chain, 'eth_getBalance');
    return BigInt(answer);
  }

  /**
   * What `relayer` may redeem in each fee token from the chain's messengers (summed over them: after an
   * upgrade each messenger holds its own rewards), at the latest block.
   */
  async rewards(chain: ReadChain, relayer: Address, feeTokens: readonly Address[]): Promise<{ feeToken: Address; amount: bigint }[]> {
    const messengers = (chain.cfg.messengers ?? [TELEPORTER_MESSENGER_ADDRESS]) as Address[];
    const out: { feeToken: Address; amount: bigint }[] = [];
    for (const feeToken of feeTokens) {
      let amount = 0n;
      for (const to of messengers) {
        const data = encodeFunctionData({ abi: REWARD_ABI, functionName: 'checkRelayerRewardAmount', args: [relayer, feeToken] });
        const answer = await this.ask(chain, 'eth_call', [{ to, data }, 'latest']);
        if (typeof answer !== 'string' || !WORD.test(answer)) throw this.garbled(chain, 'checkRelayerRewardAmount');
        amount += decodeFunctionResult({ abi: REWARD_ABI, functionName: 'checkRelayerRewardAmount', data: answer as Hex });
      }
      out.push({ feeToken, amount });
    }
    return out;
  }

  private async ask(chain: ReadChain, method: string, params: unknown[]): Promise<unknown> {
    try {
      return await this.rawOf(chain.cfg)(method, params);
    } catch (e) {
      const f = classifyRpcError(e);
      const host = new URL(chain.cfg.rpcUrl).host;
      const status = f.kind === 'slow' ? 504 : f.kind === 'rate_limited' ? 503 : 502;
      throw new NodeReadError(status, `${chain.name}'s node (${host}) did not answer ${method}: ${f.message.replaceAll(chain.cfg.rpcUrl, host)}`);
    }
  }

  private garbled(chain: ReadChain, what: string): NodeReadError {
    return new NodeReadError(502, `${chain.name}'s node (${new URL(chain.cfg.rpcUrl).host}) answered ${what} with something that is not a number.`);
  }

  private rawOf(cfg: OwnNodeChain): Raw {
    let raw = this.raws.get(cfg.blockchainId);
    if (!raw) {
      const client = createPublicClient({
        transport: http(cfg.rpcUrl, {
          timeout: this.config.requestTimeoutMs,
          retryCount: 0,
          fetchFn: guardedJsonRpcFetch(),
          maxResponseBodySize: MAX_NODE_ANSWER_BYTES + 1,
        }),
        cacheTime: 0,
      });
      const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
      raw = (method, params) => request({ method, params });
      this.raws.set(cfg.blockchainId, raw);
    }
    return raw;
  }
}
