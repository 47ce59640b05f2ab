// The local service in own-nodes mode for `bench:own-node`, alone in its process as in the app: it
// reads both chains and stamps each record it writes (wall clock, shared with the parent). The public
// API's CU limits are on (src/local-data-api/compute-units.ts: no key, the unauthenticated plan's), and
// the requests it answered, and how many with 429, go to the parent at close.
import { REALISTIC_CU_LIMITS, startTeleporterService, type RunningService } from '../src/local-data-api/index';
import type { OwnNodesInput } from '../src/shared/own-nodes';
import { serveRole } from './own-node-role';

let service: RunningService | null = null;
const answered = { requests: 0, rateLimited: 0 };
const REQUEST_LINE = /^\S+ \S+ (\d{3}) \S+ (?:key|anonymous)$/;

serveRole({
  name: 'service',
  async start(m) {
    service = await startTeleporterService({
      rate: 0,
      warmStore: false,
      dbPath: m.dbPath as string,
      computeUnits: REALISTIC_CU_LIMITS,
      logRequests: true,
      log: (l) => {
        const r = REQUEST_LINE.exec(l);
        if (!r) return void process.stderr.write(l + '\n');
        answered.requests++;
        if (r[1] === '429') answered.rateLimited++;
      },
      ownNodes: m.ownNodes as OwnNodesInput,
    });
    service.onRecordChange((changes) => {
      const t = Date.now();
      process.send?.({ type: 'changes', t, items: changes.map(({ record }) => [record.messageId, record.status, record.receiptDelivered === true]) });
    });
    return { url: service.url };
  },
  async close() {
    const report = { statuses: service?.ownNodes() ?? [], stored: service?.store.count() ?? 0, ...answered };
    await service?.close();
    return report;
  },
});
