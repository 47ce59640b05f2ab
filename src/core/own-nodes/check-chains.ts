/**
 * Checks "your own nodes" when they are saved: each node answers `eth_chainId` (the same ID as
 * configured, if one is), each messenger address holds code, and a messenger that already knows its
 * blockchain ID knows the configured one. Returns the configuration with each chain's EVM chain ID
 * filled in (the service then refuses a node that later reports another), or the first failure as an
 * invalid_input error naming the field.
 *
 * At a headless start (`report`), a node's failure does not refuse the config: every chain is kept
 * (a failing one as configured), each failure is handed to `onProblem`, and the service then shows
 * that chain in its state (down, wrong_chain, …) while the others are read.
 */
import { createPublicClient, http, parseAbi, type Address, type Hex } from 'viem';
import { MonitorError } from '../../shared/errors';
import { guardedJsonRpcFetch, MAX_NODE_ANSWER_BYTES } from '../../shared/json-rpc-fetch';
import { TELEPORTER_MESSENGER_ADDRESS, type OwnNodes } from '../../shared/own-nodes';
import { encodeCb58 } from '../../shared/validators';

const CHECK_TIMEOUT_MS = 10_000;
const BLOCKCHAIN_ID_ABI = parseAbi(['function blockchainID() view returns (bytes32)']);
const ZERO32 = `0x${'0'.repeat(64)}`;

const fail = (field: string, message: string) => new MonitorError({ kind: 'invalid_input', message, field: `dataSource.ownNodes.${field}` });

interface CheckOptions {
  /** `refuse` (Settings): the first failure throws. `report` (a headless start): each failure is reported and the chain kept. */
  mode?: 'refuse' | 'report';
  onProblem?: (message: string) => void;
}

export async function checkOwnNodes(config: OwnNodes, o: CheckOptions = {}): Promise<OwnNodes> {
  // All at once: a node that takes the whole timeout holds the others back by nothing.
  // A node slower than the configured request timeout is slow here too (at most 10 s: someone may be waiting at the form).
  const timeout = Math.min(CHECK_TIMEOUT_MS, config.requestTimeoutMs);
  const results = await Promise.allSettled(config.chains.map((chain, i) => checkChain(chain, i, timeout)));
  const chains = [];
  for (const [i, r] of results.entries()) {
    if (r.status === 'fulfilled') {
      chains.push(r.value);
      continue;
    }
    // The first failure in the list's order, as a person reads the form.
    if (o.mode !== 'report' || !(r.reason instanceof MonitorError)) throw r.reason;
    o.onProblem?.(r.reason.message);
    chains.push(config.chains[i]!);
  }
  return { ...config, chains };
}

async function checkChain(chain: OwnNodes['chains'][number], i: number, timeout: number): Promise<OwnNodes['chains'][number]> {
  const host = new URL(chain.rpcUrl).host;
  const client = createPublicClient({
    transport: http(chain.rpcUrl, {
      timeout,
      retryCount: 0,
      fetchFn: guardedJsonRpcFetch(),
      maxResponseBodySize: MAX_NODE_ANSWER_BYTES + 1,
    }),
    cacheTime: 0,
  });
  let reported: string;
  try {
    reported = String(await client.getChainId());
  } catch (e) {
    throw fail(
      `chains.${i}.rpcUrl`,
      `Chain ${i + 1}: the node at ${host} did not answer eth_chainId (${shortReason(e)}). Check the URL and that the node is running.`,
    );
  }
  if (chain.evmChainId !== undefined && chain.evmChainId !== reported) {
    throw fail(
      `chains.${i}.evmChainId`,
      `Chain ${i + 1}: the node at ${host} reports EVM chain ID ${reported}, not ${chain.evmChainId}: is it the right node?`,
    );
  }
  for (const [j, messenger] of (chain.messengers ?? [TELEPORTER_MESSENGER_ADDRESS]).entries()) {
    const field = chain.messengers ? `chains.${i}.messengers.${j}` : `chains.${i}.messengers`;
    let code: Hex | undefined;
    try {
      code = await client.getCode({ address: messenger as Address });
    } catch (e) {
      throw fail(field, `Chain ${i + 1}: the node at ${host} did not answer eth_getCode (${shortReason(e)}).`);
    }
    if (!code || code === '0x') {
      throw fail(
        field,
        `Chain ${i + 1}: there is no contract at ${messenger} on EVM chain ${reported}: is the TeleporterMessenger deployed there (or at another address)?`,
      );
    }
    const known = await client.readContract({ address: messenger as Address, abi: BLOCKCHAIN_ID_ABI, functionName: 'blockchainID' }).catch(() => null);
    const said = known && known !== ZERO32 ? encodeCb58(Uint8Array.from(Buffer.from(known.slice(2), 'hex'))) : null;
    if (said !== null && said !== chain.blockchainId) {
      throw fail(`chains.${i}.blockchainId`, `Chain ${i + 1}: the messenger at ${messenger} says its blockchain ID is ${said}, not ${chain.blockchainId}.`);
    }
  }
  return { ...chain, evmChainId: reported };
}

function shortReason(e: unknown): string {
  const x = e as { shortMessage?: string; details?: string; message?: string };
  return (x.details || x.shortMessage || x.message || String(e)).split('\n')[0]!.slice(0, 160);
}
