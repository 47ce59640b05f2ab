// The monitoring side of `bench:own-node` in a process of its own, so its peak RSS is measured alone
// (without solc, anvil's drivers, the senders and the relayer): the local service in own-nodes mode
// and, unless BENCH_WITH_CORE=0, a core on it watching the senders, polling every 5 s as the app does.
import { createMonitorCore } from '../src/core';
import { startTeleporterService, type RunningService } from '../src/local-data-api/index';
import type { OwnNodesInput } from '../src/shared/own-nodes';

type Msg = { type: 'init'; dbPath: string; coreDir: string; ownNodes: OwnNodesInput; watch: string[] } | { type: 'close' };

let peakRss = 0;
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
const send = (m: unknown) => process.send?.(m);

async function main(): Promise<void> {
  let service: RunningService | null = null;
  let core: Awaited<ReturnType<typeof createMonitorCore>> | null = null;
  let transitions = 0;
  const rssTimer = setInterval(sampleRss, 500);
  const onMessage = async (m: Msg): Promise<void> => {
    try {
      if (m.type === 'init') {
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
        if (process.env.BENCH_WITH_CORE !== '0') {
          core = await createMonitorCore({
            dataDir: m.coreDir,
            shell: 'web',
            version: 'bench',
            localDataApi: { kind: 'url', url: service.url },
            keychainService: 'tw-bench-own-node',
          });
          core.onEvent((e) => {
            if (e.type === 'transitions') transitions += e.transitions.length;
          });
          await core.start();
          await core.handlers.updateSettings({ network: 'fuji', pollIntervalSeconds: 5, stuckThresholdMinutes: 10080, notifications: { enabled: false } });
          for (const address of m.watch) await core.handlers.addWatch({ address, network: 'fuji' });
        }
        send({ type: 'ready' });
      } else if (m.type === 'close') {
        const statuses = service?.ownNodes() ?? [];
        const stored = service?.store.count() ?? 0;
        sampleRss();
        clearInterval(rssTimer);
        await core?.close();
        await service?.close();
        send({ type: 'closed', statuses, stored, transitions, peakRss: Math.max(peakRss, process.resourceUsage().maxRSS * 1024) });
        process.exit(0);
      }
    } catch (e) {
      send({ type: 'error', message: e instanceof Error ? e.stack : String(e) });
    }
  };
  process.on('message', (m: Msg) => void onMessage(m));
  send({ type: 'alive' });
}

void main();
