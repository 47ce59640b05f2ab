/**
 * `npm run devnet` briefly, as a user runs it: the settings it prints pass the Settings form's check
 * (the node answers, the messenger has code and knows its blockchain ID), the headless config it
 * writes runs the real watcher on the own-nodes source, which follows the devnet's traffic (its
 * relayer's deliveries on the watched route and, with --fail-every, their failed executions; both
 * chains "ok"), and SIGINT stops every process.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOwnNodes } from '../../src/core/own-nodes/check-chains';
import { parseRelayerConfig } from '../../src/core/relayers/relayer-config';
import { loadConfigFile } from '../../src/headless/config-file';
import { startHeadless, type HeadlessWatcher } from '../../src/headless/watcher';
import { OwnNodesSchema } from '../../src/shared/own-nodes';
import { readMetricsText } from '../../src/core/relayers/relayer-metrics-read';
import { parseRelayerMetrics, routeKey } from '../../src/core/relayers/relayer-own-metrics';
import { waitFor } from '../support/wait-for';
import { tempDir } from '../headless/rig';

const ROOT = join(__dirname, '..', '..');
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const CHAIN_LINE = /^devnet: chain (\S+): RPC (\S+), EVM chain ID (\d+), blockchain ID (\S+), messenger (\S+)$/gm;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function runDevnet(args: string[], cwd: string) {
  return spawn(process.execPath, ['--import', TSX, join(ROOT, 'src', 'devnet', 'cli.ts'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('npm run devnet', () => {
  it('refuses bad options with the usage, before starting anything', async () => {
    const child = runDevnet(['--ports', '9545'], tempDir('tw-devnet-'));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(2);
    expect(err).toMatch(/^devnet: --ports takes two ports, like 9545,9546\.\n\nUsage: npm run devnet/);
  }, 30_000);

  it('prints settings the own-nodes source takes, writes a config the watcher follows, and stops cleanly on SIGINT', async () => {
    const dir = tempDir('tw-devnet-');
    const out = join(dir, 'devnet.yaml');
    const child = runDevnet(['--ports', '0,0', '--every', '1', '--out', out, '--metrics-port', '0', '--relayer-metrics-port', '0', '--fail-every', '3'], dir);
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Even when an assertion fails: SIGINT, so the devnet stops its anvil nodes (a SIGKILL would orphan them).
    cleanups.push(async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(t);
    });
    await waitFor(() => /devnet: ready\./.test(text) || child.exitCode !== null || undefined, 90_000, 'the devnet to be ready');
    expect(text).toContain('devnet: headless config written to devnet.yaml: npm run watch -- --config devnet.yaml');
    // The relayer's own config, for Import relayer config: its routes by the chains' names, no key kept.
    expect(text).toContain('devnet: relayer config written to devnet-relayer.json');
    const relayerFile = parseRelayerConfig(readFileSync(join(dir, 'devnet-relayer.json'), 'utf8'), { ownChains: [], network: 'mainnet' });
    expect(relayerFile.ok && relayerFile.plan.routes.length).toBe(2);

    // What a user pastes into Settings → Your own nodes passes the check made at save.
    const printed = [...text.matchAll(CHAIN_LINE)].map((m) => ({ name: m[1]!, rpcUrl: m[2]!, blockchainId: m[4]!, messengers: [m[5]!], evm: m[3]! }));
    expect(printed).toHaveLength(2);
    for (const p of printed) expect(text).toMatch(new RegExp(`blockchain ID +${p.blockchainId}\\n +RPC URL +${p.rpcUrl}\\n`));
    const checked = await checkOwnNodes(OwnNodesSchema.parse({ chains: printed.map(({ evm: _evm, ...c }) => c) }));
    expect(checked.chains.map((c) => c.evmChainId)).toEqual(printed.map((p) => p.evm));

    // The written config runs the watcher on those chains and sees the devnet's relayer deliver.
    const loaded = loadConfigFile(out);
    const source = loaded.config.dataSource as { ownNodes: { chains: { rpcUrl: string; blockchainId: string }[] } };
    expect(source.ownNodes.chains.map((c) => [c.rpcUrl, c.blockchainId])).toEqual(printed.map((p) => [p.rpcUrl, p.blockchainId]));
    const w: HeadlessWatcher = await startHeadless({ loaded, metricsPort: 0, keychainService: `tw-devnet-${process.pid}` });
    cleanups.push(() => w.close());
    const metrics = await waitFor(
      async () => {
        const m = await (await fetch(w.metrics!.url)).text();
        return /^teleporter_watch_relayer_deliveries_total\{relayer="devnet-relayer",route="devnet-a-to-devnet-b"\} [1-9]/m.test(m) ? m : undefined;
      },
      60_000,
      "the devnet relayer's deliveries on the watched route",
    );
    // --fail-every 3: a third of the deliveries' executions fail (both directions, as the traffic alternates), which the watched route counts (each has a Retry call).
    expect(text).toContain("devnet: the execution of one delivery in 3 fails: its route's Failed executions list it, with its Retry call.");
    await waitFor(
      async () =>
        /^teleporter_watch_route_failed_executions\{route="devnet-a-to-devnet-b"\} [1-9]/m.test(await (await fetch(w.metrics!.url)).text()) || undefined,
      60_000,
      'failed executions on the watched route',
    );
    // Each chain following, labelled by its configured name with its blockchain ID beside it.
    for (const p of printed)
      expect(metrics).toMatch(new RegExp(`^teleporter_watch_own_node_state\\{chain="${p.name}",blockchain_id="${p.blockchainId}",state="ok"\\} 1$`, 'm'));

    // Its relayer serves relayer-style metrics (the ICM relayer's names and labels), counting what it relays.
    const relayerMetricsUrl = /^devnet: relayer metrics \(the ICM relayer's names and labels\): (\S+);/m.exec(text)?.[1];
    expect(relayerMetricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(loaded.config.relayers[0]?.metricsUrl).toBe(relayerMetricsUrl);
    const own = async () => {
      const t = await readMetricsText(relayerMetricsUrl!, { timeoutMs: 5_000, maxBytes: 1_000_000 });
      const p = t.ok ? parseRelayerMetrics(t.text) : null;
      if (!p?.ok) throw new Error('not read');
      return p.counters.routes.get(routeKey(printed[0]!.blockchainId, printed[1]!.blockchainId));
    };
    expect((await own())?.delivered).toBeGreaterThan(0);
    // An injected difference: failures with a reason no relay has, so exactly what was claimed.
    const inject = await fetch(relayerMetricsUrl!.replace(/\/metrics$/, '/_inject?failed=5&reason=injected'), { method: 'POST' });
    expect(inject.status).toBe(200);
    expect((await own())?.failed.get('injected')).toBe(5);
    // The watcher reads it (its first read: the baseline) and says so in its own metrics.
    await waitFor(
      async () => /^teleporter_watch_relayer_own_metrics_read\{relayer="devnet-relayer"\} 1$/m.test(await (await fetch(w.metrics!.url)).text()),
      30_000,
      "the watcher's read of the relayer's metrics",
    );
    await w.close();

    // Ctrl+C: everything stops, the nodes included.
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(text).toMatch(/devnet: stopped \(\d+ messages were sent\)\./);
    await expect(fetch(printed[0]!.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
    await expect(fetch(printed[1]!.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 180_000);
});
