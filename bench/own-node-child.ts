// The monitoring side of `bench:own-node`, one role per process as in the app, so each peak RSS is
// measured alone (without solc, anvil's drivers, the senders and the relayer): `service` is the local
// service in own-nodes mode; `core` is a core on it watching the senders, polling every 5 s.
import { serveParent } from './serve-parent';
import { createMonitorCore } from '../src/core';
import { startTeleporterService, type RunningService } from '../src/local-data-api/index';
import type { OwnNodesInput } from '../src/shared/own-nodes';
import { peakRssBytes } from './peak-rss';

type Msg = { type: 'service'; dbPath: string; ownNodes: OwnNodesInput } | { type: 'core'; url: string; dataDir: string; watch: string[] } | { type: 'close' };

let peakRss = 0;
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const send = (m: unknown) => process.send?.(m);

async function main(): Promise<void> {
  let service: RunningService | null = null;
  let core: Awaited<ReturnType<typeof createMonitorCore>> | null = null;
  let transitions = 0;
  const rssTimer = setInterval(sampleRss, 500);
  const onMessage = async (m: Msg): Promise<void> => {
    if (m.type === 'service') {
      service = await startTeleporterService({
        rate: 0,
        warmStore: false,
        dbPath: m.dbPath,
        log: (l) => process.stderr.write(l + '\n'),
        ownNodes: m.ownNodes,
      });
      // Each record as written, stamped here (wall clock, shared with the parent).
      service.onRecordChange((changes) => {
        const t = Date.now();
        send({ type: 'changes', t, items: changes.map(({ record }) => [record.messageId, record.status, record.receiptDelivered === true]) });
      });
      send({ type: 'ready', url: service.url });
    } else if (m.type === 'core') {
      core = await createMonitorCore({
        dataDir: m.dataDir,
        shell: 'web',
        version: 'bench',
        localDataApi: { kind: 'url', url: m.url },
        keychainService: 'tw-bench-own-node',
      });
      core.onEvent((e) => {
        if (e.type === 'transitions') transitions += e.transitions.length;
      });
      await core.start();
      await core.handlers.updateSettings({ network: 'fuji', pollIntervalSeconds: 5, stuckThresholdMinutes: 10080, notifications: { enabled: false } });
      for (const address of m.watch) await core.handlers.addWatch({ address, network: 'fuji' });
      send({ type: 'ready' });
    } else if (m.type === 'close') {
      const statuses = service?.ownNodes() ?? [];
      const stored = service?.store.count() ?? 0;
      sampleRss();
      clearInterval(rssTimer);
      if (process.env.BENCH_DEBUG) process.stderr.write(`${service ? 'service' : 'core'} memory at close ${JSON.stringify(process.memoryUsage())}\n`);
      await core?.close();
      await service?.close();
      send({ type: 'closed', statuses, stored, transitions, peakRss: Math.max(peakRss, peakRssBytes()) });
      process.exit(0);
    }
  };
  serveParent(onMessage);
}

void main();
