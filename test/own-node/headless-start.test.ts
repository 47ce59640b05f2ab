/**
 * One bad node at start never stops the headless watcher: with two healthy chains and nodes that are
 * down, on the wrong chain ID, answering not-JSON, oversized, without end or trickling, it starts, reads the
 * healthy chains, and reports each other chain in its state with a plain message on /metrics (the
 * `chain` label is the configured name) and in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/headless/config-file';
import { startHeadless, type HeadlessWatcher } from '../../src/headless/watcher';
import { SERVICE_CLI, TSX_LOADER } from '../../src/host/paths';
import { tempDir, writeConfig } from '../headless/rig';
import { waitFor } from '../support/wait-for';
import { blockchainIdFor, startTestChains, type TestChain } from './chains';
import { startHostileRpc, type HostileRpc } from './hostile-rpc';
import { sendMessage } from './relayer';
import { chainConfig } from './rig';

let a: TestChain, b: TestChain;
let notJson: HostileRpc, endless: HostileRpc, oversized: HostileRpc, trickling: HostileRpc;
let w: HeadlessWatcher | null = null;
const lines: string[] = [];
const log = (msg: string) => lines.push(msg);
const logger = { debug: log, info: log, warn: log, error: log };

beforeAll(async () => {
  [a, b] = await startTestChains(32101, 32102);
  const url = a.node.url;
  [notJson, endless, oversized, trickling] = await Promise.all([startHostileRpc(url), startHostileRpc(url), startHostileRpc(url), startHostileRpc(url)]);
  notJson.mode = 'not_json';
  endless.mode = 'endless';
  oversized.mode = 'oversized';
  trickling.mode = 'trickling';
});
afterAll(async () => {
  await w?.close();
  await Promise.all([notJson, endless, oversized, trickling].map((h) => h?.close()));
  await Promise.all([a?.node.stop(), b?.node.stop()]);
});

const other = (n: number) => blockchainIdFor(n).cb58;

describe('headless start with own nodes: one bad node never stops the watcher', () => {
  it('starts with every chain it can read and reports the others in their state', async () => {
    const dir = tempDir('tw-own-headless-');
    const chains = [
      chainConfig(a, { name: 'Alpha' }),
      chainConfig(b, { name: 'Beta' }),
      { name: 'Gone', rpcUrl: 'http://127.0.0.1:9', blockchainId: other(32103), messengers: [a.messenger] },
      chainConfig(b, { name: 'Wrong', blockchainId: other(32104), evmChainId: '999' }),
      chainConfig(a, { name: 'NotJson', blockchainId: other(32105), rpcUrl: notJson.url }),
      chainConfig(a, { name: 'Endless', blockchainId: other(32106), rpcUrl: endless.url }),
      chainConfig(a, { name: 'Oversized', blockchainId: other(32107), rpcUrl: oversized.url }),
      chainConfig(a, { name: 'Trickling', blockchainId: other(32108), rpcUrl: trickling.url }),
    ];
    const file = writeConfig(dir, {
      dataDir: './data',
      dataSource: { ownNodes: { chains, confirmations: 0, pollIntervalMs: 200, requestTimeoutMs: 2_000 } },
      network: 'fuji',
      metrics: { listen: '127.0.0.1:0' },
      watches: [],
    });
    w = await startHeadless({
      loaded: loadConfigFile(file),
      logger,
      localService: { kind: 'spawn', command: process.execPath, args: ['--import', TSX_LOADER, SERVICE_CLI] },
      keychainService: `tw-own-headless-${process.pid}`,
    });
    const sent = await sendMessage(a, b);

    const expected: [string, string][] = [
      ['Alpha', 'ok'],
      ['Beta', 'ok'],
      ['Gone', 'down'],
      ['Wrong', 'wrong_chain'],
      ['NotJson', 'down'],
      ['Endless', 'down'],
      ['Oversized', 'down'],
      ['Trickling', 'slow'],
    ];
    const watcher = w;
    const text = await waitFor(
      async () => {
        await watcher.core.invoke('pollNow', undefined);
        const t = await (await fetch(`${watcher.metrics!.url}`)).text();
        const indexed = Number(/own_node_indexed_block\{chain="Alpha",blockchain_id="[^"]+",of="indexed"\} (\d+)/.exec(t)?.[1] ?? -1);
        const allIn = expected.every(([chain, state]) => new RegExp(`own_node_state\\{chain="${chain}",blockchain_id="[^"]+",state="${state}"\\} 1`).test(t));
        return allIn && indexed >= Number(sent.block) ? t : undefined;
      },
      30_000,
      'every chain in its state on /metrics, Alpha past the send',
    );
    expect(text).not.toMatch(/own_node_state\{chain="[1-9A-HJ-NP-Za-km-z]{40,}"/); // never a blockchain ID as the name

    const status = await w.core.invoke('getPollStatus', undefined);
    const nodes = (status.ok ? (status.value as { ownNodes: { name: string; message: string }[] }).ownNodes : []) ?? [];
    const msg = (name: string) => nodes.find((n) => n.name === name)?.message ?? '';
    expect(msg('Gone')).toMatch(/cannot be reached/);
    expect(msg('Wrong')).toMatch(/reports EVM chain ID 32102, but chain .* is 999/);
    expect(msg('NotJson')).toMatch(/not JSON/);
    expect(msg('Endless')).toMatch(/larger than 16 MB/);
    expect(msg('Oversized')).toMatch(/larger than 16 MB/);
    expect(msg('Trickling')).toMatch(/did not answer in time/);
    for (const n of nodes) expect(n.message).not.toMatch(/bigint|cannot (convert|read)|unexpected token|syntaxerror|typeerror/i);

    // The log names each failing chain with its state and message, and the check's problem at start.
    for (const [chain, state] of expected.filter(([, s]) => s !== 'ok')) {
      expect(lines.some((l) => l.startsWith(`own node ${chain} (`) && l.includes(`): ${state}: `))).toBe(true);
    }
    expect(lines.some((l) => l.includes('own nodes: Chain 3: the node at 127.0.0.1:9 did not answer eth_chainId'))).toBe(true);
  });
});
