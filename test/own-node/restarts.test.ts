/**
 * Restarts in the middle of a scan: the node (anvil stopped and started again with its saved chain)
 * and the monitor's service itself, killed with SIGKILL as a separate process. Reading resumes from
 * the checkpoint: every message is stored once, each event once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/sqlite';
import { startLocalService } from '../../src/local-service/index';
import { waitFor } from '../support/wait-for';
import { startServiceProcess } from '../support/service-process';
import { startTestChains, type TestChain } from './chains';
import { sendMessage } from './relayer';
import { chainConfig, recordWhen } from './rig';
import { startRpcProxy, type RpcProxy } from './rpc-proxy';

const dir = mkdtempSync(join(tmpdir(), 'tw-own-node-'));
let a: TestChain, b: TestChain;
let pa: RpcProxy;
const sent: string[] = [];

beforeAll(async () => {
  [a, b] = await startTestChains({ chainId: 31501, statePath: join(dir, 'a-state.json') }, 31502);
  pa = await startRpcProxy(a.node.url);
  // Messages spread over ~200 blocks, read 5 blocks per request: a scan long enough to cut in the middle.
  for (let i = 0; i < 10; i++) {
    sent.push((await sendMessage(a, b)).messageId.slice(2));
    await a.client.request({ method: 'anvil_mine' as never, params: ['0x14'] as never });
  }
});
afterAll(async () => {
  await pa?.close();
  await Promise.all([a?.node.stop(), b?.node.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Events per (chain, block, log) and records per message ID in a service's store file: each exactly once. */
function countsIn(dbPath: string): { events: number; distinctEvents: number; records: number; distinctRecords: number } {
  const db = new Database(dbPath);
  try {
    const one = (sql: string) => db.prepare<[], number>(sql).pluck().get() ?? 0;
    return {
      events: one('SELECT count(*) FROM chain_events'),
      distinctEvents: one("SELECT count(DISTINCT chain || ':' || block || ':' || log_index) FROM chain_events"),
      records: one('SELECT count(*) FROM messages'),
      distinctRecords: one('SELECT count(DISTINCT message_id) FROM messages'),
    };
  } finally {
    db.close();
  }
}

describe('own nodes: restarts mid-scan', () => {
  it('resumes from the checkpoint after its node restarts in the middle of a scan', async () => {
    pa.faults = { maxRange: 5, delayMs: 15 };
    const dbPath = join(dir, 'node-restart.sqlite');
    const s = await startLocalService({
      rate: 0,
      warmStore: false,
      dbPath,
      log: () => undefined,
      ownNodes: { chains: [chainConfig(a, { rpcUrl: pa.url })], confirmations: 0, pollIntervalMs: 100 },
    });
    try {
      const status = () => s.ownNodes()![0]!;
      await waitFor(() => (status().indexedTo ?? 0) > 20, 20_000, 'the scan to be under way');
      expect(status().indexedTo!).toBeLessThan(status().head! - 20); // mid-scan
      await a.node.restart();
      for (const id of sent) await recordWhen(s, id, () => true, 60_000);
      expect(s.store.count()).toBe(sent.length);
    } finally {
      await s.close();
      pa.faults = {};
    }
    const c = countsIn(dbPath);
    expect(c.records).toBe(sent.length);
    expect(c.distinctRecords).toBe(c.records);
    expect(c.events).toBe(sent.length); // one send each, none twice
  });

  it('loses and doubles nothing when the service is killed with SIGKILL mid-scan', async () => {
    pa.faults = { maxRange: 5, delayMs: 15 };
    const dbPath = join(dir, 'kill9.sqlite');
    const cfg = join(dir, 'own-nodes.json');
    writeFileSync(cfg, JSON.stringify({ chains: [chainConfig(a, { rpcUrl: pa.url })], confirmations: 0, pollIntervalMs: 100 }));
    const info = async (url: string) =>
      ((await (await fetch(`${url}/_local/info`)).json()) as { ownNodes: { indexedTo: number | null; head: number }[] }).ownNodes[0]!;
    const first = startServiceProcess(['--own-nodes', cfg, '--db', dbPath, '--no-warm']);
    const url = await first.listening;
    await waitFor(async () => ((await info(url)).indexedTo ?? 0) > 20, 30_000, 'the scan to be under way');
    first.child.kill('SIGKILL');
    await first.exited;
    const partial = countsIn(dbPath);
    expect(partial.records).toBeLessThan(sent.length); // cut in the middle
    const second = startServiceProcess(['--own-nodes', cfg, '--db', dbPath, '--no-warm']);
    try {
      const url2 = await second.listening;
      await waitFor(
        async () => {
          const n = await info(url2);
          return n.indexedTo !== null && n.indexedTo >= n.head;
        },
        60_000,
        'the scan to finish after the restart',
      );
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      pa.faults = {};
    }
    const c = countsIn(dbPath);
    expect(c.records).toBe(sent.length);
    expect(c.distinctRecords).toBe(c.records);
    expect(c.events).toBe(sent.length);
  });
});
