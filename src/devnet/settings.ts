/**
 * What a running devnet means for Teleporter Watch: the rows to paste into Settings → Data source →
 * Your own nodes, and a headless config (devnet.yaml) that follows the same chains and watches the
 * devnet's sender, relayer and route.
 */
import { stringify } from 'yaml';
import type { OwnNodesInput } from '../shared/own-nodes';
import type { Devnet } from './devnet';

/** The own-nodes source over the devnet's chains, as Settings saves it and the headless config takes it. */
function ownNodesOf(d: Devnet): OwnNodesInput {
  return {
    chains: d.chains.map((c) => ({ name: c.name, rpcUrl: c.rpcUrl, wsUrl: c.wsUrl, blockchainId: c.blockchainId, messengers: [c.messenger] })),
    confirmations: 1,
    pollIntervalMs: 1_000,
  };
}

/** Lines to print: each chain's fields in the order of the Settings form. */
export function pasteLines(d: Devnet): string[] {
  const lines = ['Settings → Data source → Your own nodes, one row per chain:'];
  for (const c of d.chains) {
    lines.push(`  ${c.name}`);
    lines.push(`    name            ${c.name}`);
    lines.push(`    blockchain ID   ${c.blockchainId}`);
    lines.push(`    RPC URL         ${c.rpcUrl}`);
    lines.push(`    WebSocket URL   ${c.wsUrl}`);
    lines.push(`    messenger       ${c.messenger}`);
    lines.push(`    (EVM chain ID ${c.evmChainId}, network: leave the default)`);
  }
  lines.push(`Watch the sender ${d.sender} (Watchlist) and the relayer ${d.relayer} (Relayers) to see their messages.`);
  if (d.relayerMetricsUrl) lines.push(`In Relayers, give the relayer the metrics URL ${d.relayerMetricsUrl} to see its own counts beside the chains'.`);
  return lines;
}

/** A headless config over the devnet (`npm run watch -- --config devnet.yaml`). */
export function headlessYaml(d: Devnet, o: { metricsPort: number; file: string }): string {
  const [a, b] = d.chains;
  const config = {
    dataDir: '.devnet-data',
    dataSource: { ownNodes: ownNodesOf(d) },
    pollIntervalSeconds: 5,
    notify: { new: true, left_pending: true, receipt_delivered: true, stuck: true },
    metrics: { listen: `127.0.0.1:${o.metricsPort}` },
    watches: [{ address: d.sender, label: 'devnet-sender' }],
    relayers: [{ address: d.relayer, label: 'devnet-relayer', silentMinutes: 5, ...(d.relayerMetricsUrl ? { metricsUrl: d.relayerMetricsUrl } : {}) }],
    // By the chains' configured names: the watcher resolves them to their blockchain IDs.
    routes: [{ source: a.name, destination: b.name, label: `${a.name}-to-${b.name}` }],
  };
  const head = ['# Written by npm run devnet for its chains, which live only while it runs (docs/own-node.md).', `# npm run watch -- --config ${o.file}`];
  return `${head.join('\n')}\n${stringify(config)}`;
}
