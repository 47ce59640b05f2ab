/**
 * A local Teleporter network to try "Your own nodes" on: two anvil chains with the messenger deployed
 * at the same address on each, a relayer delivering between them, and a sender making some traffic.
 * Everything listens on 127.0.0.1 only; stop() ends the traffic, the relayer and both nodes.
 */
import { getAddress, type Address } from 'viem';
import { KEYS, startTestChain, type TestChain } from './chains';
import { sendMessage, TestRelayer } from './relayer';
import { RelayerStyleMetrics, serveRelayerMetrics, type RelayerMetricsServer } from './relayer-metrics';
import { privateKeyToAccount } from 'viem/accounts';

interface DevnetOptions {
  /** RPC ports of the two chains (0: any free port). */
  ports: [number, number];
  /** EVM chain IDs of the two chains. */
  chainIds: [number, number];
  /** A new message every this many ms, alternating direction (0: none). */
  trafficEveryMs: number;
  /** Seconds between blocks (as real chains mine; 0: a block per transaction). */
  blockTime: number;
  /** A problem while running (a send or delivery failed); the devnet goes on. */
  onProblem?: (message: string) => void;
  /** Where its relayer's relayer-style metrics are served on 127.0.0.1 (0: any free port; null: not served). */
  relayerMetricsPort?: number | null;
  /** Every this many deliveries, the message's execution fails, to have a retry call to try (0: none). */
  failEvery?: number;
}

/** Where the devnet's relayer serves its relayer-style metrics (not the ICM relayer's default 9090, which Prometheus takes). */
export const DEVNET_RELAYER_METRICS_PORT = 9190;

export const DEVNET_DEFAULTS: DevnetOptions = {
  ports: [9545, 9546],
  chainIds: [99901, 99902],
  trafficEveryMs: 5_000,
  blockTime: 1,
  relayerMetricsPort: DEVNET_RELAYER_METRICS_PORT,
  failEvery: 0,
};

interface DevnetChain {
  name: string;
  rpcUrl: string;
  wsUrl: string;
  evmChainId: number;
  blockchainId: string;
  messenger: Address;
}

export interface Devnet {
  chains: [DevnetChain, DevnetChain];
  /** Who sends the traffic (a watched address sees it) and who delivers it (a watched relayer). */
  sender: Address;
  relayer: Address;
  /** Its relayer's own metrics (the ICM relayer's names and labels; POST /_inject on the same port claims extra): null when not served. */
  relayerMetricsUrl: string | null;
  /** Messages sent so far. */
  sent(): number;
  stop(): Promise<void>;
}

/** A chain as the devnet describes it (to the config writers and the console). */
export const describeChain = (name: string, c: TestChain): DevnetChain => ({
  name,
  rpcUrl: c.node.url,
  wsUrl: c.node.wsUrl,
  evmChainId: c.chainId,
  blockchainId: c.blockchainId,
  messenger: getAddress(c.messenger),
});

export async function startDevnet(o: DevnetOptions): Promise<Devnet> {
  const started: TestChain[] = [];
  const stopAll = () => Promise.all(started.map((c) => c.node.stop().catch(() => undefined)));
  try {
    for (let i = 0; i < 2; i++) {
      started.push(await startTestChain({ chainId: o.chainIds[i] as number, port: o.ports[i], ...(o.blockTime ? { blockTime: o.blockTime } : {}) }));
    }
  } catch (e) {
    await stopAll();
    throw e;
  }
  const [a, b] = started as [TestChain, TestChain];
  const own = new RelayerStyleMetrics('current');
  let metricsServer: RelayerMetricsServer | null = null;
  if (o.relayerMetricsPort !== undefined && o.relayerMetricsPort !== null) {
    try {
      metricsServer = await serveRelayerMetrics(own, o.relayerMetricsPort);
    } catch (e) {
      await stopAll();
      throw e;
    }
  }
  const relayer = new TestRelayer([a, b], {
    failEvery: o.failEvery ?? 0,
    onRelay: (s, d, outcome) => {
      const route = { source: s.blockchainId, destination: d.blockchainId };
      if (outcome.ok) own.relayed(route);
      else own.failedToRelay(route, outcome.reason);
    },
  });
  let sent = 0;
  let stopped = false;
  let sending: Promise<unknown> = Promise.resolve();
  const problem = (e: unknown) => o.onProblem?.(e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e));
  // The relayer's passes, each after the last: a failed delivery is said and tried again on the next pass.
  const relaying = (async () => {
    while (!stopped) {
      await relayer.deliverAll().catch(problem);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  // One send at a time (a single sender nonce); a slow one delays the next, never overlaps it.
  const timer = o.trafficEveryMs
    ? setInterval(() => {
        sending = sending.then(async () => {
          if (stopped) return;
          const [from, to] = sent % 2 === 0 ? [a, b] : [b, a];
          await sendMessage(from, to).then(() => sent++, problem);
        });
      }, o.trafficEveryMs)
    : null;
  return {
    chains: [describeChain('devnet-a', a), describeChain('devnet-b', b)],
    sender: privateKeyToAccount(KEYS.sender).address,
    relayer: privateKeyToAccount(KEYS.relayer).address,
    relayerMetricsUrl: metricsServer?.url ?? null,
    sent: () => sent,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      // The nodes first: Ctrl+C in a terminal reaches them too, and a send or delivery waiting for a
      // receipt from a node that is gone would wait for minutes. What is still in flight gets a moment.
      await stopAll();
      await metricsServer?.close();
      await Promise.race([Promise.all([sending.catch(() => undefined), relaying]), new Promise((r) => setTimeout(r, 2_000).unref())]);
    },
  };
}
