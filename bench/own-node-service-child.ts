// The local service in own-nodes mode for `bench:own-node`, alone in its process as in the app: it
// reads both chains and stamps each record it writes (wall clock, shared with the parent).
import { startTeleporterService, type RunningService } from '../src/local-data-api/index';
import type { OwnNodesInput } from '../src/shared/own-nodes';
import { serveRole } from './own-node-role';

let service: RunningService | null = null;

serveRole({
  name: 'service',
  async start(m) {
    service = await startTeleporterService({
      rate: 0,
      warmStore: false,
      dbPath: m.dbPath as string,
      log: (l) => process.stderr.write(l + '\n'),
      ownNodes: m.ownNodes as OwnNodesInput,
    });
    service.onRecordChange((changes) => {
      const t = Date.now();
      process.send?.({ type: 'changes', t, items: changes.map(({ record }) => [record.messageId, record.status, record.receiptDelivered === true]) });
    });
    return { url: service.url };
  },
  async close() {
    const report = { statuses: service?.ownNodes() ?? [], stored: service?.store.count() ?? 0 };
    await service?.close();
    return report;
  },
});
